package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

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

Converts JSON, JSON Lines or CSV to TOON (encode) or TOON to JSON, JSON
Lines or CSV (decode), streaming.

The input is a file, or standard input when it is "-" or absent. The
direction follows the input's extension: .json, .jsonl, .ndjson and .csv
encode, .toon decodes; standard input and other extensions encode JSON
unless -d or --from is given. Decoding writes JSON unless --to or the
extension of -o says otherwise.

Flags:
  -e, --encode           encode JSON to TOON
  -d, --decode           decode TOON to JSON
  -o, --output FILE      write to FILE instead of standard output (see Output)
      --delimiter D      delimiter for arrays and rows when encoding:
                         "," (default), "|", or a tab given as "\t" or a real tab
      --indent N         spaces per TOON indentation level (default 2): written
                         when encoding, expected when decoding
      --strict           decode strictly (the default): counts, indentation,
                         blank lines in arrays and duplicate keys are checked
      --no-strict        decode leniently: no count, indentation, blank-line
                         or duplicate-key checks; a repeated key keeps its last
                         value (the JSON is held until the end: in memory
                         up to 32 MiB, past that in a temporary file); when
                         encoding, a JSON member name may repeat, and keeps
                         its first position with its last value
      --json-indent N    indent decoded JSON by N spaces (default 0: compact)
      --stats            print byte and token counts of the JSON (compact) and
                         the TOON to standard error
      --tokenizer NAME   tokenizer for --stats: o200k_base (default) or
                         cl100k_base; vocabularies are built in, nothing is
                         downloaded
      --no-progress      never draw the progress bar (see Progress)
      --from F           the input's format: json, jsonl (or ndjson), csv or
                         toon; default from its extension (.json, .jsonl,
                         .ndjson, .csv, .toon), else json
      --to F             the output's format: toon when the input is not
                         TOON, else json, jsonl or csv; default from the
                         extension of -o, else json
      --csv-delimiter D  the CSV field delimiter, read and written: ","
                         (default), ";", "|", or a tab ("\t")
      --csv-strings      keep every CSV cell a string (by default a cell
                         that reads as a TOON number, true, false or null
                         becomes one)
      --version          print the version and exit
  -h, --help             print this help and exit

A flag's value follows it as the next argument or after "=" (--indent=4,
-o=out.toon, -oout.toon). Flags and the input may come in any order; "--"
ends the flags.

Output:
  The output ends with a newline. A regular FILE is written under a
  temporary name in its directory, flushed to disk and renamed over FILE
  when the conversion has succeeded: an error or an interrupt (Ctrl-C,
  SIGTERM) leaves FILE as it was and no temporary file behind. FILE keeps
  its permissions (and its owner, where the system allows); a new FILE gets
  0666 less the umask. A symbolic link is followed: its target is replaced
  and the link kept. A FILE with more than one hard link is rewritten in
  place once the conversion has succeeded, so the links keep sharing it.
  Anything else (a FIFO, a device, a socket) is written directly, as
  standard output is. On an error, what goes to standard output (or is
  written directly) stops where the error was found: an array or object
  open there is not closed, so the partial output does not parse.

Progress:
  When standard error is a terminal and standard output is not that same
  terminal (with -o, or in a pipe), a conversion that runs for more than a
  second draws a progress bar on standard error: the input read so far out
  of its size and the rate. Encoding reads its input twice; the bar says
  which pass it is in. The bar's line is cleared when the conversion ends.

Formats (the other side of a conversion is always TOON):
  JSON Lines: one object per line (blank lines skipped), written as the
  table (or list) that JSON's array of the same objects gives. CSV: the
  first record names the fields; written as a root table. Back from TOON,
  the root array (or the only member of a root object) gives one JSON
  value per line, or a CSV record per row of a flat table. JSON Lines
  output ends each record with a newline; CSV output ends each record with
  one, as encoding/csv writes it.

Examples:
  toon data.json                      # encode, print TOON
  toon data.json -o data.toon         # encode to a file
  toon --stats examples/users.json    # encode and compare token counts
  toon data.toon --json-indent 2      # decode to indented JSON
  cat data.json | toon --delimiter '\t' > data.toon
  curl -s https://example.com/api | toon -e --stats
  toon -d < data.toon | jq .
  toon events.jsonl -o events.toon    # JSON Lines to TOON
  toon users.csv -o users.toon        # CSV to TOON
  toon users.toon -o users.csv        # a TOON table to CSV
  toon --from csv --csv-delimiter ';' < export.csv > export.toon
  toon -d --to jsonl < rows.toon | head

"toon split" cuts a table into chunks under a token budget: see
"toon split -h".

Exit status: 0 on success, 1 on bad input or I/O errors, 2 on bad usage.
Interrupted by SIGINT or SIGTERM, toon ends by that signal (status 130 or
143 in a shell).
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
	noProgress     bool
	input          string // "" or "-" for standard input
	help, version  bool
	formats        // --from, --to and the CSV flags (formats.go)
}

// usageError is bad usage: reported with a hint, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// flagDef is one flag of a command whose parsed command line is a C: its
// names, whether it takes a value, and what it does with the value ("true"
// or "false" for a flag without one).
type flagDef[C any] struct {
	short byte   // the letter of -x, or 0
	long  string // the name of --name
	value bool   // takes a value
	set   func(c *C, v string) error
}

// name is the flag as help and errors spell it.
func (f *flagDef[C]) name() string {
	if f.long != "" {
		return "--" + f.long
	}
	return "-" + string(f.short)
}

func boolFlag[C any](short byte, long string, p func(*C) *bool, on bool) flagDef[C] {
	return flagDef[C]{short: short, long: long, set: func(c *C, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("must be true or false")
		}
		*p(c) = b == on
		return nil
	}}
}

// intFlag is a flag whose value is a whole number from lo to hi; hi
// math.MaxInt leaves it unbounded above.
func intFlag[C any](long string, p func(*C) *int, lo, hi int) flagDef[C] {
	return flagDef[C]{long: long, value: true, set: func(c *C, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			if hi == math.MaxInt {
				return fmt.Errorf("must be a whole number, at least %d", lo)
			}
			return fmt.Errorf("must be a whole number from %d to %d", lo, hi)
		}
		*p(c) = n
		return nil
	}}
}

// tokenizerFlag is --tokenizer, of toon and of toon split: the name of a
// built-in vocabulary.
func tokenizerFlag[C any](p func(*C) *string) flagDef[C] {
	return flagDef[C]{long: "tokenizer", value: true, set: func(c *C, v string) error {
		switch v {
		case "o200k_base", "cl100k_base":
			*p(c) = v
			return nil
		}
		return errors.New("must be o200k_base or cl100k_base")
	}}
}

// flags are the command's flags. Short flags take one dash, long flags
// two; a flag's value is the next argument, or follows "=" (and, for a
// short flag, may follow the letter directly). toon split's flags
// (splitFlags) follow the same rules, through the same parser.
var flags = []flagDef[config]{
	boolFlag('e', "encode", func(c *config) *bool { return &c.encode }, true),
	boolFlag('d', "decode", func(c *config) *bool { return &c.decode }, true),
	{short: 'o', long: "output", value: true, set: func(c *config, v string) error {
		if v == "" {
			return errors.New("must name a file")
		}
		c.output = v
		return nil
	}},
	{long: "delimiter", value: true, set: func(c *config, v string) error {
		switch v {
		case ",", "comma":
			c.delimiter = toon.Comma
		case "|", "pipe":
			c.delimiter = toon.Pipe
		case "\t", `\t`, "tab":
			c.delimiter = toon.Tab
		default:
			return errors.New(`must be ",", "|", or a tab ("\t")`)
		}
		return nil
	}},
	intFlag("indent", func(c *config) *int { return &c.indent }, 1, 64),
	boolFlag(0, "strict", func(c *config) *bool { return &c.noStrict }, false),
	boolFlag(0, "no-strict", func(c *config) *bool { return &c.noStrict }, true),
	intFlag("json-indent", func(c *config) *int { return &c.jsonIndent }, 0, 64),
	boolFlag(0, "stats", func(c *config) *bool { return &c.stats }, true),
	tokenizerFlag(func(c *config) *string { return &c.tokenizer }),
	boolFlag(0, "no-progress", func(c *config) *bool { return &c.noProgress }, true),
	// The formats (formats.go): resolveFormats checks the values.
	{long: "from", value: true, set: func(c *config, v string) error { c.from = v; return nil }},
	{long: "to", value: true, set: func(c *config, v string) error { c.to = v; return nil }},
	{long: "csv-delimiter", value: true, set: func(c *config, v string) error { c.csvComma = v; return nil }},
	boolFlag(0, "csv-strings", func(c *config) *bool { return &c.csvStrings }, true),
	boolFlag(0, "version", func(c *config) *bool { return &c.version }, true),
	boolFlag('h', "help", func(c *config) *bool { return &c.help }, true),
}

// lookupFlag finds the flag of an argument that starts with a dash: its
// definition, the value given with it ("=v", or what follows a short
// flag's letter) and whether there is one. It returns nil for an unknown
// flag.
func lookupFlag[C any](flags []flagDef[C], arg string) (f *flagDef[C], val string, hasVal bool) {
	if long, ok := strings.CutPrefix(arg, "--"); ok {
		name, val, hasVal := strings.Cut(long, "=")
		for i := range flags {
			if flags[i].long == name {
				return &flags[i], val, hasVal
			}
		}
		return nil, "", false
	}
	if len(arg) < 2 {
		return nil, "", false
	}
	for i := range flags {
		if flags[i].short != arg[1] {
			continue
		}
		rest := arg[2:]
		switch {
		case rest == "":
			return &flags[i], "", false
		case !flags[i].value && rest[0] != '=':
			return nil, "", false // -ed: letters are not combined
		}
		return &flags[i], strings.TrimPrefix(rest, "="), true
	}
	return nil, "", false
}

// parseFlags sets the flags of args into c and returns the other
// arguments (the inputs). Flags and inputs may come in any order; "--"
// ends the flags.
func parseFlags[C any](flags []flagDef[C], args []string, c *C) (inputs []string, err error) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			inputs = append(inputs, args[i+1:]...)
			break
		}
		if arg == "-" || !strings.HasPrefix(arg, "-") {
			inputs = append(inputs, arg)
			continue
		}
		f, val, hasVal := lookupFlag(flags, arg)
		if f == nil {
			name, _, _ := strings.Cut(arg, "=")
			msg := "unknown flag " + name
			if g, _, _ := lookupFlag(flags, "-"+name); g != nil && !strings.HasPrefix(name, "--") {
				msg += " (long flags take two dashes: " + g.name() + ")"
			}
			return nil, &usageError{msg}
		}
		switch {
		case f.value && !hasVal:
			if i+1 == len(args) {
				return nil, &usageError{"flag " + f.name() + " needs a value"}
			}
			i++
			val = args[i]
		case !f.value && !hasVal:
			val = "true"
		}
		if err := f.set(c, val); err != nil {
			return nil, &usageError{fmt.Sprintf("invalid value %q for %s: %v", val, f.name(), err)}
		}
	}
	return inputs, nil
}

// parseArgs parses the command line of toon.
func parseArgs(args []string) (*config, error) {
	c := &config{delimiter: toon.Comma, indent: 2, tokenizer: "o200k_base", formats: formats{csvComma: ","}}
	inputs, err := parseFlags(flags, args, c)
	if err != nil {
		return nil, err
	}
	if c.help || c.version {
		return c, nil
	}
	if c.input, err = oneInput(inputs); err != nil {
		return nil, err
	}
	if c.encode && c.decode {
		return nil, &usageError{"-e/--encode and -d/--decode exclude each other"}
	}
	// resolveFormats sets c.encode or c.decode from the formats of the
	// two sides (by default, from the extensions of the input and of -o).
	if err := resolveFormats(c); err != nil {
		return nil, err
	}
	return c, nil
}

// oneInput returns the input named on a command line: "" (standard
// input) when none is, a usage error when more than one is.
func oneInput(inputs []string) (string, error) {
	switch len(inputs) {
	case 0:
		return "", nil
	case 1:
		return inputs[0], nil
	}
	return "", &usageError{"more than one input: " + strings.Join(inputs, " ")}
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
	if len(args) > 0 && args[0] == "split" {
		return runSplit(args[1:], stdin, stdout, stderr)
	}
	c, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "toon: %v\nRun 'toon -h' for usage.\n", err)
		return exitUsage
	}
	if c.help {
		return writeText(stdout, stderr, "toon", usageText)
	}
	if c.version {
		return writeText(stdout, stderr, "toon", versionString()+"\n")
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

// writeText writes the help or the version of command cmd and returns the
// exit status: 1 if it could not be written, as for any output.
func writeText(stdout, stderr io.Writer, cmd, text string) int {
	if _, err := io.WriteString(stdout, text); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
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

	// An interrupt removes the temporary file and the bar before the
	// process ends by the signal. The watch starts before the output is
	// opened, so that no moment is left where a temporary file exists and
	// an interrupt would leave it.
	var outp atomic.Pointer[output]
	var progp atomic.Pointer[progress]
	defer onSignal(func() {
		if p := progp.Load(); p != nil {
			p.stop()
		}
		if o := outp.Load(); o != nil {
			o.removeTemp()
		}
	})()
	out, err := openOutput(c.output, stdout, &outp)
	if err != nil {
		return err
	}
	passes := 1
	if c.encode {
		passes = 2
	}
	prog := startProgress(stderr, out.screen(stdout), in.size, passes, !c.noProgress)
	progp.Store(prog)
	defer func() {
		prog.stop()
		if err != nil {
			out.abort()
			return
		}
		err = out.commit()
	}()

	var st *statsRun
	if c.stats {
		st = newStatsRun(c, in)
	}
	var w io.Writer = out
	if st != nil {
		w = io.MultiWriter(out, st.outputSink())
	}
	switch {
	case c.encode:
		err = encodeInput(c, w, in, prog)
		if err == nil {
			// A TOON document has no final newline (§12); a text file
			// ends with one, as the reference command's output does.
			_, err = io.WriteString(out, "\n")
		}
	case c.to == "json" && in.f != nil && st == nil:
		// A file is decoded in place from a memory mapping. (--stats reads
		// it as a stream, below: its counter takes the input as it goes.)
		err = convert.ToJSONFile(w, in.f, convert.WithIndent(c.indent), convert.WithStrict(!c.noStrict), convert.WithJSONIndent(c.jsonIndent), convert.WithProgress(prog.at))
	default:
		var r io.Reader = &countingReader{r: in.reader(), p: prog}
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
	return err
}

// input is the opened input.
type input struct {
	f    *os.File // the file, or a spooled copy of standard input (encode)
	r    io.Reader
	off  int64 // f's offset where the input starts
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
				return &input{f: f, off: off, size: fi.Size() - off}, nil
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
