package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/convert"
)

// Exit statuses.
const (
	exitOK    = 0
	exitInput = 1 // bad input, or an I/O error
	exitUsage = 2
)

const usageText = `Usage: toon [flags] [input]

Converts JSON to TOON (encode) or TOON to JSON (decode), streaming.

The input is a file, or standard input when it is "-" or absent. The
direction follows the input's extension: .json encodes, .toon decodes;
standard input and other extensions encode unless -d is given.

Flags:
  -e, --encode           encode JSON to TOON
  -d, --decode           decode TOON to JSON
  -o, --output FILE      write to FILE instead of standard output; it is
                         written under a temporary name and renamed at the end
      --delimiter D      delimiter for arrays and rows when encoding:
                         "," (default), "|", or a tab given as "\t" or a real tab
      --indent N         spaces per TOON indentation level (default 2): written
                         when encoding, expected when decoding
      --no-strict        decode leniently: no count, width, indentation or
                         duplicate-key checks; a repeated key keeps its last
                         value (the JSON is held until the end: in memory
                         up to 32 MiB, past that in a temporary file)
      --json-indent N    indent decoded JSON by N spaces (default 0: compact)
      --stats            print byte and token counts of the JSON (compact) and
                         the TOON to standard error
      --tokenizer NAME   tokenizer for --stats: o200k_base (default) or
                         cl100k_base; vocabularies are built in, nothing is
                         downloaded
      --version          print the version and exit
  -h, --help             print this help and exit

Examples:
  toon data.json                      # encode, print TOON
  toon data.json -o data.toon         # encode to a file
  toon --stats examples/users.json    # encode and compare token counts
  toon data.toon --json-indent 2      # decode to indented JSON
  cat data.json | toon --delimiter '\t' > data.toon
  curl -s https://example.com/api | toon -e --stats
  toon -d < data.toon | jq .

Exit status: 0 on success, 1 on bad input or I/O errors, 2 on bad usage.
`

// config is the parsed command line.
type config struct {
	encode, decode bool
	output         string
	delimiter      toon.Delimiter
	indent         int
	noStrict       bool
	jsonIndent     int
	stats          bool
	tokenizer      string
	input          string // "" or "-" for standard input
	formats               // --from, --to and the CSV flags (formats.go)
}

// usageError is bad usage: reported with a hint, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// delimValue parses --delimiter.
type delimValue struct{ d *toon.Delimiter }

func (v delimValue) String() string {
	if v.d == nil {
		return ","
	}
	return string(rune(*v.d))
}

func (v delimValue) Set(s string) error {
	switch s {
	case ",", "comma":
		*v.d = toon.Comma
	case "|", "pipe":
		*v.d = toon.Pipe
	case "\t", `\t`, "tab":
		*v.d = toon.Tab
	default:
		return errors.New(`must be ",", "|", or a tab ("\t")`)
	}
	return nil
}

// parseArgs parses the command line. Flags and the input may come in any
// order; "--" ends the flags.
func parseArgs(args []string) (*config, bool, bool, error) {
	c := &config{delimiter: toon.Comma, indent: 2, tokenizer: "o200k_base"}
	fs := flag.NewFlagSet("toon", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&c.encode, "e", false, "")
	fs.BoolVar(&c.encode, "encode", false, "")
	fs.BoolVar(&c.decode, "d", false, "")
	fs.BoolVar(&c.decode, "decode", false, "")
	fs.StringVar(&c.output, "o", "", "")
	fs.StringVar(&c.output, "output", "", "")
	fs.Var(delimValue{&c.delimiter}, "delimiter", "")
	fs.IntVar(&c.indent, "indent", 2, "")
	fs.BoolVar(&c.noStrict, "no-strict", false, "")
	fs.IntVar(&c.jsonIndent, "json-indent", 0, "")
	fs.BoolVar(&c.stats, "stats", false, "")
	fs.StringVar(&c.tokenizer, "tokenizer", "o200k_base", "")
	c.formats.addFlags(fs)
	var help, version bool
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&version, "version", false, "")

	var inputs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return c, true, false, nil
			}
			return nil, false, false, &usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// fs.Parse stops at the first argument that is not a flag (or after
		// "--"); take it as the input and go on.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			inputs = append(inputs, rest...)
			break
		}
		inputs = append(inputs, rest[0])
		args = rest[1:]
	}
	if help || version {
		return c, help, version, nil
	}
	switch {
	case len(inputs) > 1:
		return nil, false, false, &usageError{"more than one input: " + strings.Join(inputs, " ")}
	case len(inputs) == 1:
		c.input = inputs[0]
	}
	if c.encode && c.decode {
		return nil, false, false, &usageError{"-e/--encode and -d/--decode exclude each other"}
	}
	if c.indent < 1 || c.indent > 64 {
		return nil, false, false, &usageError{"--indent must be between 1 and 64"}
	}
	if c.jsonIndent < 0 || c.jsonIndent > 64 {
		return nil, false, false, &usageError{"--json-indent must be between 0 and 64"}
	}
	switch c.tokenizer {
	case "o200k_base", "cl100k_base":
	default:
		return nil, false, false, &usageError{"--tokenizer must be o200k_base or cl100k_base"}
	}
	if err := resolveFormats(c); err != nil {
		return nil, false, false, err
	}
	if !c.encode && !c.decode {
		switch strings.ToLower(filepath.Ext(c.input)) {
		case ".toon":
			c.decode = true
		default: // .json, standard input, anything else
			c.encode = true
		}
	}
	return c, false, false, nil
}

func versionString() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return "toon " + v + " (TOON specification 4.0)"
}

// run is the command: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, help, version, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "toon: %v\nRun 'toon -h' for usage.\n", err)
		return exitUsage
	}
	if help {
		io.WriteString(stdout, usageText+formatsHelp)
		return exitOK
	}
	if version {
		fmt.Fprintln(stdout, versionString())
		return exitOK
	}
	if err := convertMain(c, stdin, stdout, stderr); err != nil {
		report(stderr, c, err)
		var ue *usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitInput
	}
	return exitOK
}

// inputName is the input's name in messages.
func (c *config) inputName() string {
	if c.input == "" || c.input == "-" {
		return "<stdin>"
	}
	return c.input
}

// report prints err: syntax errors as file:line:column, the source line and
// a caret.
func report(w io.Writer, c *config, err error) {
	var te *toon.SyntaxError
	var je *convert.JSONError
	switch {
	case errors.As(err, &te):
		fmt.Fprintf(w, "%s:%d:%d: %s\n", c.inputName(), te.Line, te.Column, te.Err)
		showSource(w, te.Source, 1, te.Column)
	case errors.As(err, &je):
		fmt.Fprintf(w, "%s:%d:%d: %s\n", c.inputName(), je.Line, je.Column, je.Message())
		showSource(w, je.Source, je.SourceColumn, je.Column)
	default:
		fmt.Fprintf(w, "toon: %v\n", err)
	}
}

// showSource prints a piece of a line that starts at column start and a
// caret under column col. Tabs are kept in the caret line so that it lines
// up; other control bytes are shown as '?'.
func showSource(w io.Writer, src string, start, col int) {
	if src == "" && col > 1 {
		return
	}
	var line, caret strings.Builder
	line.WriteString("    ")
	caret.WriteString("    ")
	if start > 1 {
		line.WriteString("...")
		caret.WriteString("   ")
	}
	for i := 0; i < len(src); i++ {
		b := src[i]
		switch {
		case b == '\t':
		case b < 0x20 || b == 0x7f:
			b = '?'
		}
		line.WriteByte(b)
		if start+i < col {
			if b == '\t' {
				caret.WriteByte('\t')
			} else if b < 0x80 || b >= 0xc0 { // one caret column per character
				caret.WriteByte(' ')
			}
		}
	}
	if col-start > len(src) { // past the end of what is shown
		return
	}
	caret.WriteByte('^')
	fmt.Fprintf(w, "%s\n%s\n", line.String(), caret.String())
}

// convertMain opens the input and output and converts.
func convertMain(c *config, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	in, err := openInput(c, stdin)
	if err != nil {
		return err
	}
	defer in.close()

	out, commit, abort, err := openOutput(c, stdout)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			abort() // standard output keeps what was converted before the error
			return
		}
		err = commit()
	}()

	prog := startProgress(stderr, in.size, c.encode)
	defer prog.stop()

	var st *statsRun
	if c.stats {
		st = newStatsRun(c, in)
	}
	var w io.Writer = out
	if st != nil {
		w = io.MultiWriter(out, st.outputSink())
	}
	if c.encode {
		src := &countingSeeker{f: in.f, n: &prog.n}
		err = encodeInput(c, w, src)
	} else {
		var r io.Reader = &countingReader{r: in.reader(), n: &prog.n}
		if st != nil {
			r = io.TeeReader(r, st.inputSink())
		}
		err = decodeOutput(c, w, r)
	}
	prog.stop()
	if st != nil {
		serr := st.finish(err == nil)
		if err == nil && serr != nil {
			err = serr
		}
		if err == nil {
			st.print(stderr)
		}
	}
	if err == nil && c.encode && c.output == "" && isTerminal(stdout) {
		// A TOON document has no final newline (§12); on a terminal, end
		// the line anyway so the prompt starts on its own.
		_, err = io.WriteString(out, "\n")
	}
	return err
}

// input is the opened input.
type input struct {
	f    *os.File // the file, or a spooled copy of standard input (encode)
	r    io.Reader
	size int64 // -1 if unknown
}

func (in *input) reader() io.Reader {
	if in.f != nil {
		return bufio.NewReaderSize(in.f, 64<<10)
	}
	return in.r
}

func (in *input) close() {
	if in.f != nil && in.f != os.Stdin {
		in.f.Close()
	}
}

// openInput opens the input. For encoding, which reads its input twice,
// a standard input that cannot seek is first copied to an unlinked
// temporary file.
func openInput(c *config, stdin io.Reader) (*input, error) {
	if c.input != "" && c.input != "-" {
		f, err := os.Open(c.input)
		if err != nil {
			return nil, err
		}
		in := &input{f: f, size: -1}
		if fi, err := f.Stat(); err == nil {
			if fi.IsDir() {
				f.Close()
				return nil, errors.New(c.input + " is a directory")
			}
			if fi.Mode().IsRegular() {
				in.size = fi.Size()
			}
		}
		if in.size < 0 && c.encode {
			return spoolInput(f)
		}
		return in, nil
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil {
				return &input{f: f, size: fi.Size() - off}, nil
			}
		}
	}
	if !c.encode {
		return &input{r: stdin, size: -1}, nil
	}
	return spoolInput(stdin)
}

func spoolInput(r io.Reader) (*input, error) {
	f, err := os.CreateTemp("", "toon-stdin-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	n, err := io.Copy(f, r)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &input{f: f, size: n}, nil
}

// openOutput returns the output writer, and functions to call on success
// and on failure. A file is written under a temporary name in its directory
// and renamed into place by commit.
func openOutput(c *config, stdout io.Writer) (w io.Writer, commit func() error, abort func(), err error) {
	if c.output == "" || c.output == "-" {
		bw := bufio.NewWriterSize(stdout, 64<<10)
		return bw, bw.Flush, func() { bw.Flush() }, nil
	}
	dir, base := filepath.Split(c.output)
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(c.output); err == nil && fi.IsDir() {
		return nil, nil, nil, errors.New(c.output + " is a directory")
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, nil, nil, err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	abort = func() {
		f.Close()
		os.Remove(f.Name())
	}
	commit = func() error {
		err := bw.Flush()
		if err == nil {
			err = f.Chmod(0o644)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), c.output)
		}
		if err != nil {
			os.Remove(f.Name())
		}
		return err
	}
	return bw, commit, abort, nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
