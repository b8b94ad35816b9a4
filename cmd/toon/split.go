package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/convert"
)

const splitUsageText = `Usage: toon split --max-tokens N [flags] [input]

Cuts the table of a TOON document into chunks, each a complete TOON
document under the limits given: the path to the table, the table's header
with its own count, and whole rows. A chunk's tokens are counted on the
whole chunk, by the tokenizer, exactly. The chunks' rows, in order, are
the table's rows.

The input is a file, or standard input when it is "-" or absent. Chunks
are written to DIR/chunk-0001.toon, DIR/chunk-0002.toon, ... (--out-dir)
or P0001.toon, ... (--prefix); numbers have 4 digits, more when there are
more than 9999 chunks, so that the names sort in order. The files are
written under temporary names and renamed once the whole input has been
read without error: a failure leaves no chunk file. Existing files named
like the chunks are an error, unless --force is given.

Limits (at least one):
      --max-tokens N     at most N tokens a chunk
      --tokenizer NAME   the tokenizer of --max-tokens: o200k_base (default)
                         or cl100k_base; vocabularies are built in
      --max-bytes B      at most B bytes a chunk
      --max-rows R       at most R rows a chunk
      --allow-oversize   a row over a limit by itself goes alone into a chunk
                         of its own (over the limit) instead of failing

Table:
      --table PATH       the table to split: the keys from the root to it,
                         joined by dots (data.users); by default the root,
                         which must then be an array or a keyed table
      --context          repeat in each chunk the fields that come before the
                         table, at each level of its path (fields after the
                         table are not carried)
      --indent N         spaces per indentation level (default 2), read and
                         written

Output (one of them, or both):
      --out-dir DIR      write DIR/chunk-NNNN.toon; DIR is created if needed
      --prefix P         write PNNNN.toon (P may hold a directory); with
                         --out-dir, DIR/PNNNN.toon
      --force            replace the files of an earlier run: files named
                         like the chunks that this run does not write are
                         removed
  -h, --help             print this help and exit

Flags are written as toon's: a flag's value follows it as the next
argument or after "=" (--max-tokens=4000); flags and the input may come in
any order; "--" ends the flags.

A summary goes to standard error: chunks, rows, and the largest chunk in
tokens, bytes and rows.

Examples:
  toon split --max-tokens 4000 --out-dir chunks users.toon
  toon split --max-tokens 8000 --table data.users --context --prefix out/users- export.toon
  toon export.json | toon split --max-tokens 4000 --max-rows 500 --out-dir chunks

Exit status: 0 on success, 1 on bad input or I/O errors, 2 on bad usage.
`

// splitConfig is the parsed command line of toon split.
type splitConfig struct {
	opts   convert.SplitOptions
	outDir string
	prefix string
	force  bool
	help   bool
	input  string // "" or "-" for standard input
}

// splitFlags are the flags of toon split, spelt and parsed as toon's own
// (see flags).
var splitFlags = []flagDef[splitConfig]{
	intFlag("max-tokens", func(c *splitConfig) *int { return &c.opts.MaxTokens }, 1, math.MaxInt),
	tokenizerFlag(func(c *splitConfig) *string { return &c.opts.Tokenizer }),
	intFlag("max-bytes", func(c *splitConfig) *int { return &c.opts.MaxBytes }, 1, math.MaxInt),
	intFlag("max-rows", func(c *splitConfig) *int { return &c.opts.MaxRows }, 1, math.MaxInt),
	boolFlag(0, "allow-oversize", func(c *splitConfig) *bool { return &c.opts.AllowOversize }, true),
	{long: "table", value: true, set: func(c *splitConfig, v string) error {
		c.opts.Table = v
		return nil
	}},
	boolFlag(0, "context", func(c *splitConfig) *bool { return &c.opts.Context }, true),
	intFlag("indent", func(c *splitConfig) *int { return &c.opts.Indent }, 1, 64),
	{long: "out-dir", value: true, set: func(c *splitConfig, v string) error {
		if v == "" {
			return errors.New("must name a directory")
		}
		c.outDir = v
		return nil
	}},
	{long: "prefix", value: true, set: func(c *splitConfig, v string) error {
		if v == "" {
			return errors.New("must not be empty")
		}
		c.prefix = v
		return nil
	}},
	boolFlag(0, "force", func(c *splitConfig) *bool { return &c.force }, true),
	boolFlag('h', "help", func(c *splitConfig) *bool { return &c.help }, true),
}

// parseSplitArgs parses the command line of toon split.
func parseSplitArgs(args []string) (*splitConfig, error) {
	c := &splitConfig{opts: convert.SplitOptions{Tokenizer: "o200k_base", Indent: 2}}
	inputs, err := parseFlags(splitFlags, args, c)
	if err != nil {
		return nil, err
	}
	if c.help {
		return c, nil
	}
	if c.input, err = oneInput(inputs); err != nil {
		return nil, err
	}
	o := &c.opts
	switch {
	case o.MaxTokens == 0 && o.MaxBytes == 0 && o.MaxRows == 0:
		return nil, &usageError{"give a limit: --max-tokens, --max-bytes or --max-rows"}
	case c.outDir == "" && c.prefix == "":
		// Chunks are files so that they can be written all or not at all.
		return nil, &usageError{"give --out-dir DIR or --prefix P for the chunk files"}
	}
	return c, nil
}

// runSplit is the toon split command: it returns the exit status.
func runSplit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseSplitArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "toon split: %v\nRun 'toon split -h' for usage.\n", err)
		return exitUsage
	}
	if c.help {
		return writeText(stdout, stderr, "toon split", splitUsageText)
	}
	if err := splitMain(c, stdin, stderr); err != nil {
		reportSplit(stderr, c, err)
		return exitInput
	}
	return exitOK
}

// reportSplit prints an error of toon split: syntax errors as toon's are,
// rows over a limit as file:line.
func reportSplit(w io.Writer, c *splitConfig, err error) {
	name := c.input
	if name == "" || name == "-" {
		name = "<stdin>"
	}
	var oe *convert.OversizeError
	if errors.As(err, &oe) {
		fmt.Fprintf(w, "%s:%d: %s (--allow-oversize puts such a row in a chunk of its own)\n",
			name, oe.Line, strings.TrimPrefix(oe.Error(), "convert: "))
		return
	}
	var se *toon.SyntaxError
	if errors.As(err, &se) {
		report(w, &config{input: c.input}, err)
		return
	}
	msg := err.Error()
	if m, ok := strings.CutPrefix(msg, "convert: "); ok {
		msg = name + ": " + m
	}
	fmt.Fprintf(w, "toon split: %s\n", msg)
}

// splitMain opens the input and the chunk files and splits.
func splitMain(c *splitConfig, stdin io.Reader, stderr io.Writer) (err error) {
	// An interrupt removes the temporary files, as toon's (see
	// convertMain), and any chunk file and directory this run made: the
	// watch starts before the directory or a temporary file is made.
	var outp atomic.Pointer[chunkFiles]
	defer onSignal(func() {
		if o := outp.Load(); o != nil {
			o.abort()
		}
	})()
	out, err := newChunkFiles(c.outDir, c.prefix, c.force, &outp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			out.abort()
		}
	}()
	var r io.Reader = stdin
	if c.input != "" && c.input != "-" {
		f, err := os.Open(c.input)
		if err != nil {
			return err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return errors.New(c.input + " is a directory")
		}
		r = f
	}
	var sum splitSummary
	err = convert.Split(r, c.opts, func(ch convert.Chunk) error {
		sum.add(ch)
		return out.write(ch.Text)
	})
	if err != nil {
		return err
	}
	names, err := out.commit()
	if err != nil {
		return err
	}
	sum.print(stderr, c, names)
	return nil
}

// splitSummary gathers what the summary reports.
type splitSummary struct {
	chunks, rows, oversize       int
	maxTokens, maxBytes, maxRows int
}

func (s *splitSummary) add(c convert.Chunk) {
	s.chunks++
	s.rows += c.Rows
	s.maxTokens = max(s.maxTokens, c.Tokens)
	s.maxBytes = max(s.maxBytes, len(c.Text))
	s.maxRows = max(s.maxRows, c.Rows)
	if c.Oversize {
		s.oversize++
	}
}

func (s *splitSummary) print(w io.Writer, c *splitConfig, names []string) {
	if s.chunks == 0 {
		fmt.Fprintln(w, "toon split: the table is empty: no chunk written")
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "toon split: %s in %s", plural(s.rows, "row"), plural(s.chunks, "chunk"))
	if len(names) == 1 {
		fmt.Fprintf(&b, " (%s)", names[0])
	} else {
		fmt.Fprintf(&b, " (%s ... %s)", names[0], names[len(names)-1])
	}
	b.WriteString("; largest: ")
	if c.opts.MaxTokens > 0 {
		fmt.Fprintf(&b, "%d tokens (%s), ", s.maxTokens, c.opts.Tokenizer)
	}
	fmt.Fprintf(&b, "%d bytes, %s", s.maxBytes, plural(s.maxRows, "row"))
	if s.oversize > 0 {
		fmt.Fprintf(&b, "; %s over a limit by itself (--allow-oversize)", plural(s.oversize, "row"))
	}
	fmt.Fprintln(w, b.String())
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// chunkFiles writes the chunks to temporary files in their directory and
// gives them their names when all are written, or removes them.
type chunkFiles struct {
	dir, base string // the chunks are dir/base + number + ".toon"
	force     bool   // replace files named like chunks

	mu          sync.Mutex // guards the fields below against abort (a signal)
	madeDir     string     // the directory created for the chunks, if any
	temps       []string   // the temporary files written, in order
	renamed     []string   // the chunk files made so far by a commit that has not ended
	interrupted bool       // abort has run: no file may be made
}

// chunkName reports whether name is the name of a chunk file of base:
// base, one or more digits, ".toon".
func chunkName(name, base string) bool {
	digits, ok := strings.CutPrefix(name, base)
	if !ok {
		return false
	}
	digits, ok = strings.CutSuffix(digits, ".toon")
	if !ok || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// newChunkFiles checks the place of the chunk files: the directory (which
// it creates if needed) and, unless force, the absence of files named
// like chunks. The chunkFiles is stored in published before the directory
// is made, for the interrupt handler.
func newChunkFiles(outDir, prefix string, force bool, published *atomic.Pointer[chunkFiles]) (*chunkFiles, error) {
	if outDir != "" && prefix == "" {
		prefix = "chunk-"
	}
	dir, base := filepath.Split(filepath.Join(outDir, prefix))
	if strings.HasSuffix(prefix, "/") || strings.HasSuffix(prefix, string(filepath.Separator)) {
		dir, base = filepath.Join(outDir, prefix), ""
	}
	if dir == "" {
		dir = "."
	}
	cf := &chunkFiles{dir: dir, base: base, force: force}
	published.Store(cf)
	if err := cf.makeDir(); err != nil {
		return nil, err
	}
	if !force {
		existing, err := cf.existing()
		if err != nil {
			return nil, err
		}
		if len(existing) > 0 {
			msg := filepath.Join(dir, existing[0]) + " exists"
			if len(existing) > 1 {
				msg += " (and " + strconv.Itoa(len(existing)-1) + " more chunk files)"
			}
			return nil, errors.New(msg + ": remove them, write elsewhere, or give --force to replace them")
		}
	}
	return cf, nil
}

// makeDir makes the chunks' directory if it does not exist.
func (cf *chunkFiles) makeDir() error {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	fi, err := os.Stat(cf.dir)
	switch {
	case err == nil && !fi.IsDir():
		return errors.New(cf.dir + " is not a directory")
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	case cf.interrupted:
		return errors.New("interrupted")
	}
	if err := os.MkdirAll(cf.dir, 0o777); err != nil {
		return err
	}
	cf.madeDir = cf.dir
	return nil
}

// existing returns the names of the files in the directory named like
// chunks.
func (cf *chunkFiles) existing() ([]string, error) {
	entries, err := os.ReadDir(cf.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if chunkName(e.Name(), cf.base) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// chunkPath is the path of chunk n (from 1) of count chunks: numbered
// with at least 4 digits, all of the same width.
func (cf *chunkFiles) chunkPath(n, count int) string {
	width := max(4, len(strconv.Itoa(count)))
	return filepath.Join(cf.dir, fmt.Sprintf("%s%0*d.toon", cf.base, width, n))
}

// write writes a chunk to a temporary file, made as toon's output files
// are (createTemp): 0666 less the umask. Errors name the chunk's file,
// numbered as if it were the last chunk, never the temporary file. Unlike
// toon's -o file, a chunk is not synced to disk before its rename: with
// thousands of small chunks a sync each would cost many times the split.
func (cf *chunkFiles) write(text []byte) error {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	n := len(cf.temps) + 1
	name := cf.chunkPath(n, n)
	if cf.interrupted {
		return pathError("write", name, errors.New("interrupted"))
	}
	f, err := createTemp(cf.dir, "."+cf.base, ".toon.tmp", 0o666)
	if err != nil {
		return pathError("open", name, err)
	}
	cf.temps = append(cf.temps, f.Name())
	op := "write"
	_, err = f.Write(text)
	if cerr := f.Close(); err == nil && cerr != nil {
		op, err = "close", cerr
	}
	if err != nil {
		return pathError(op, name, err)
	}
	return nil
}

// commit renames the temporary files to the chunks' names, numbered from 1
// with at least 4 digits, and with --force removes the other files named
// like chunks. It returns the chunks' paths. It holds cf.mu while it
// renames, so that an interrupt then removes either all chunk files or
// none.
func (cf *chunkFiles) commit() ([]string, error) {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	if cf.interrupted {
		return nil, errors.New("interrupted")
	}
	names := make([]string, len(cf.temps))
	for i := range cf.temps {
		names[i] = cf.chunkPath(i+1, len(cf.temps))
	}
	for i, tmp := range cf.temps {
		if !cf.force {
			if _, err := os.Lstat(names[i]); err == nil {
				return nil, errors.New(names[i] + " was created while the chunks were written; nothing is replaced")
			}
		}
		if err := os.Rename(tmp, names[i]); err != nil {
			return nil, pathError("rename", names[i], err)
		}
		cf.renamed = append(cf.renamed, names[i])
	}
	cf.temps, cf.renamed, cf.madeDir = nil, nil, ""
	if cf.force {
		existing, err := cf.existing()
		if err != nil {
			return nil, err
		}
		written := make(map[string]bool, len(names))
		for _, n := range names {
			written[filepath.Base(n)] = true
		}
		for _, e := range existing {
			if !written[e] {
				if err := os.Remove(filepath.Join(cf.dir, e)); err != nil {
					return nil, fmt.Errorf("the chunks are written, but a file of an earlier run is left: %w", err)
				}
			}
		}
	}
	return names, nil
}

// abort removes the temporary files, the chunk files a failed commit made
// and the directory made for them (if it is then empty), and keeps any
// file from being made after it. It is safe to call from another
// goroutine (on a signal).
func (cf *chunkFiles) abort() {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	cf.interrupted = true
	for _, t := range cf.temps {
		os.Remove(t)
	}
	for _, n := range cf.renamed {
		os.Remove(n)
	}
	if cf.madeDir != "" {
		os.Remove(cf.madeDir)
	}
	cf.temps, cf.renamed, cf.madeDir = nil, nil, ""
}
