package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toonstream/toon/convert"
)

// The formats other than JSON on the side of a conversion that is not
// TOON: JSON Lines and CSV, chosen by the file extensions or by --from and
// --to.

// formats holds the format flags of the command line.
type formats struct {
	from, to   string // json, jsonl, csv or toon; "" until resolved
	csvComma   string
	csvStrings bool
}

// formatOf returns the format a file name's extension stands for, or "".
func formatOf(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return "json"
	case ".jsonl", ".ndjson":
		return "jsonl"
	case ".csv":
		return "csv"
	case ".toon":
		return "toon"
	}
	return ""
}

// resolveFormats settles the formats of both sides, from the flags, -e
// and -d, and the extensions of the input and of -o, and sets c.encode or
// c.decode to match.
func resolveFormats(c *config) error {
	f := &c.formats
	for _, p := range []*string{&f.from, &f.to} {
		switch v := strings.ToLower(*p); v {
		case "", "json", "jsonl", "csv", "toon":
			*p = v
		case "ndjson":
			*p = "jsonl"
		default:
			return &usageError{"unknown format " + fmt.Sprintf("%q", *p) + ": json, jsonl, csv or toon"}
		}
	}
	if f.from == "" {
		ext := formatOf(c.input)
		switch {
		case c.decode:
			f.from = "toon"
		case c.encode && (ext == "" || ext == "toon"):
			f.from = "json" // -e reads JSON whatever the name
		case ext != "":
			f.from = ext
		case f.to != "" && f.to != "toon":
			f.from = "toon"
		default:
			f.from = "json"
		}
	}
	if f.to == "" {
		f.to = "toon"
		if f.from == "toon" {
			f.to = "json"
			if o := formatOf(c.output); o != "" && o != "toon" {
				f.to = o
			}
		}
	}
	switch {
	case f.from == "toon" && f.to == "toon":
		return &usageError{"--from toon --to toon: one side of a conversion must be json, jsonl or csv"}
	case f.from != "toon" && f.to != "toon":
		return &usageError{"--from " + f.from + " --to " + f.to + ": one side of a conversion must be toon"}
	case f.from == "toon" && c.encode:
		return &usageError{"-e/--encode reads JSON, JSON Lines or CSV, not TOON"}
	case f.from != "toon" && c.decode:
		return &usageError{"-d/--decode reads TOON, not " + f.from}
	}
	c.encode, c.decode = f.from != "toon", f.from == "toon"
	if f.csvComma != `\t` && f.csvComma != "tab" {
		if b := f.csvComma; len(b) != 1 || b[0] == '"' || b[0] == '\r' || b[0] == '\n' || b[0] >= 0x80 {
			return &usageError{`--csv-delimiter must be one ASCII character other than a quote or a line break, such as ",", ";", "|" or a tab ("\t")`}
		}
	}
	if c.decode && f.to != "json" {
		switch {
		case c.noStrict:
			return &usageError{"--no-strict is for JSON output: " + f.to + " is written from a strictly decoded document"}
		case c.jsonIndent > 0:
			return &usageError{"--json-indent is for JSON output, not " + f.to}
		}
	}
	if c.stats && (f.from == "csv" || f.to == "csv") {
		return &usageError{"--stats compares JSON and TOON; it does not count CSV"}
	}
	return nil
}

// comma is the CSV delimiter byte.
func (f *formats) comma() byte {
	switch f.csvComma {
	case `\t`, "tab":
		return '\t'
	}
	return f.csvComma[0]
}

// encodeInput converts the input, of format c.from, to TOON. JSON is
// read by FromJSONFile, through a memory mapping of a regular file (a
// standard input that is not one was spooled to a file by openInput);
// JSON Lines and CSV are read from the file with Read, ReadAt and Seek,
// counted for the progress bar by a fileCounter.
func encodeInput(c *config, w io.Writer, in *input, prog *progress) error {
	opts := []convert.Option{convert.WithIndent(c.indent), convert.WithDelimiter(c.delimiter), convert.WithStrict(!c.noStrict)}
	if c.from == "json" {
		return convert.FromJSONFile(w, in.f, append(opts, convert.WithProgress(prog.at))...)
	}
	r, err := newFileCounter(in.f, in.size, prog)
	if err != nil {
		return err
	}
	opts = append(opts, convert.WithCSVDelimiter(c.formats.comma()), convert.WithCSVStrings(c.csvStrings))
	if c.from == "jsonl" {
		return convert.FromJSONLines(w, r, opts...)
	}
	return csvError(c, convert.FromCSV(w, r, opts...))
}

// decodeOutput converts the TOON input to format c.to.
func decodeOutput(c *config, w io.Writer, r io.Reader) error {
	opts := []convert.Option{convert.WithIndent(c.indent), convert.WithStrict(!c.noStrict),
		convert.WithJSONIndent(c.jsonIndent), convert.WithCSVDelimiter(c.formats.comma())}
	switch c.to {
	case "jsonl":
		return convert.ToJSONLines(w, r, opts...)
	case "csv":
		return convert.ToCSV(w, r, opts...)
	}
	return convert.ToJSON(w, r, opts...)
}

// csvError puts the input's name and the line and column of a CSV error
// first, as the other syntax errors are reported.
func csvError(c *config, err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	msg := pe.Err.Error()
	if pe.Err == csv.ErrFieldCount {
		// The whole message: it gives both widths.
		msg = strings.TrimPrefix(err.Error(), pe.Error()+": ")
		msg = pe.Err.Error() + " (" + msg + ")"
	}
	if pe.StartLine != pe.Line {
		msg += fmt.Sprintf(" (in the record that starts on line %d)", pe.StartLine)
	}
	return fmt.Errorf("%s:%d:%d: %s", c.inputName(), pe.Line, pe.Column, msg)
}
