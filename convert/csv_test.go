package convert

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

func fromCSV(t *testing.T, in string, opts ...Option) string {
	t.Helper()
	var out bytes.Buffer
	if err := FromCSV(&out, strings.NewReader(in), opts...); err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return out.String()
}

func TestFromCSV(t *testing.T) {
	cases := []struct {
		in   string
		opts []Option
		want string
	}{
		{"id,name,active\n1,Ada,true\n2,Bob,false\n", nil, "[2]{id,name,active}:\n  1,Ada,true\n  2,Bob,false"},
		{"id,name,active\r\n1,Ada,true\r\n\r\n2,Bob,false", nil, "[2]{id,name,active}:\n  1,Ada,true\n  2,Bob,false"},
		{utf8BOM + "a\n1\n", nil, "[1]{a}:\n  1"},
		{"a,b\n1.50,1e3\n-0,05\n+1,.5\n,null\n", nil, "[4]{a,b}:\n  1.5,1000\n  0,\"05\"\n  \"+1\",.5\n  \"\",null"},
		{"a,b\n1.50,true\n", []Option{WithCSVStrings(true)}, "[1]{a,b}:\n  \"1.50\",\"true\""},
		{"a;b\n\"x;y\";\"say \"\"hi\"\"\"\n", []Option{WithCSVDelimiter(';')}, "[1]{a,b}:\n  x;y,\"say \\\"hi\\\"\""},
		{"a,b\n\"line\nbreak\",\"a,b\"\n", []Option{WithDelimiter(toon.Pipe)}, "[1|]{a|b}:\n  \"line\\nbreak\"|a,b"},
		{"a,b\n1,2\n", []Option{WithDelimiter(toon.Tab), WithIndent(4)}, "[1\t]{a\tb}:\n    1\t2"},
		{"first name,e-mail\nAda,ada@example.com\n", nil, "[1]{\"first name\",\"e-mail\"}:\n  Ada,ada@example.com"},
		{"a,b\n", nil, "[0]{a,b}:"},
		{"", nil, "[]"},
		{"\n\r\n", nil, "[]"},
		{"a\n\"\"\n", nil, "[1]{a}:\n  \"\""},
		{"n\n12345678901234567890123\n1E400\n", nil, "[2]{n}:\n  1.2345678901234567890123e+22\n  1e+400"},
	}
	for _, c := range cases {
		if got := fromCSV(t, c.in, c.opts...); got != c.want {
			t.Errorf("%q:\ngot:\n%s\nwant:\n%s", c.in, got, c.want)
		}
		// Through a reader that cannot seek, with small buffers.
		var out bytes.Buffer
		if err := FromCSV(&out, onlyReader{strings.NewReader(c.in)}, append(c.opts, withBufSize(16))...); err != nil || out.String() != c.want {
			t.Errorf("%q, unseekable: %v\n%s", c.in, err, out.String())
		}
	}
}

// TestFromCSVCells checks the typing of cells against what the reference
// decoder (@toon-format/toon 4.4.0) makes of the same text written
// unquoted as a value ("v: TEXT"): the kinds below are its answers. The
// numbers it gives as float64 are compared by value; where the text is
// beyond float64 (1E400), the reference gives a string, and this library,
// lossless, the exact number (see FromCSV).
func TestFromCSVCells(t *testing.T) {
	ref := map[string]string{
		"42": "number", "-3.14": "number", "1e-6": "number", "-1E+9": "number", "1.5000": "number",
		"-0": "number", "05": "string", "0001": "string", "-05": "string", "0.5": "number", "0e1": "number",
		"-0e1": "number", ".5": "string", "1.": "string", "+5": "string", "Infinity": "string", "NaN": "string",
		"0x10": "string", "1_000": "string", "true": "boolean", "True": "string", "TRUE": "string",
		"false": "boolean", "null": "null", "NULL": "string", "1e": "string", "1e+": "string", "00": "string",
		"0": "number", "-1": "number", "1.2.3": "string", "12345678901234567890123": "number",
		"1e-400": "number", "0.0": "number", "-0.0": "number", "2E3": "number", "1.0e+2": "number",
		"": "string", " 42": "string", "42 ": "string", "-": "string", "x": "string",
	}
	var in strings.Builder
	var texts []string
	in.WriteString("v,k\n")
	w := csv.NewWriter(&in)
	for text := range ref {
		w.Write([]string{text, strconv.Itoa(len(texts))})
		texts = append(texts, text)
	}
	w.Flush()
	doc := fromCSV(t, in.String())
	dec := toon.NewDecoder(strings.NewReader(doc))
	var cell toon.Token
	var cellText []byte
	seen := 0
	for key := ""; ; {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tok.Kind() == toon.KindKey:
			key = string(tok.Bytes())
			continue
		case key == "v":
			cell, cellText = tok, append([]byte(nil), tok.Bytes()...)
		case key == "k":
			i, _ := strconv.Atoi(string(tok.Bytes()))
			text := texts[i]
			seen++
			kind := map[toon.Kind]string{toon.KindNumber: "number", toon.KindString: "string", toon.KindBool: "boolean", toon.KindNull: "null"}[cell.Kind()]
			if kind != ref[text] {
				t.Errorf("%q: %s, the reference decodes a %s", text, kind, ref[text])
				break
			}
			switch kind {
			case "number":
				a, _, err1 := big.ParseFloat(text, 10, 2000, big.ToNearestEven)
				b, _, err2 := big.ParseFloat(string(cellText), 10, 2000, big.ToNearestEven)
				if err1 != nil || err2 != nil || a.Cmp(b) != 0 {
					t.Errorf("%q: written as %s", text, cellText)
				}
			case "string":
				if string(cellText) != text {
					t.Errorf("%q: written as %q", text, cellText)
				}
			}
		}
		key = ""
	}
	if seen != len(texts) {
		t.Fatalf("%d cells read back, want %d", seen, len(texts))
	}
}

// typedJSON is the JSON value of a CSV cell as FromCSV types it, made
// with the grammar of §4 written as a regular expression.
var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func typedJSON(cell string) string {
	switch {
	case cell == "true" || cell == "false" || cell == "null" || numberRE.MatchString(cell):
		return cell
	}
	return strconv.Quote(cell)
}

// randomCSV returns random records, a header of distinct names first.
func randomCSV(rng *rand.Rand, rows int) [][]string {
	cells := []string{"", "0", "42", "-7", "1.50", "2e3", "05", "true", "false", "null", "x", "a,b", "say \"hi\"",
		"line\nbreak", " pad", "é", "-", "#", "a|b", "tab\there", "\\.", "12345678901234567890", "Null"}
	w := 1 + rng.Intn(6)
	recs := [][]string{}
	var header []string
	for j := 0; j < w; j++ {
		header = append(header, []string{"id", "name", "a b", "x-y", "k", "é"}[j])
	}
	recs = append(recs, header)
	for i := 0; i < rows; i++ {
		rec := make([]string, w)
		for j := range rec {
			rec[j] = cells[rng.Intn(len(cells))]
		}
		recs = append(recs, rec)
	}
	return recs
}

// writeCSVRecords writes records with encoding/csv, but a record of one
// empty field as "" (encoding/csv writes an empty line, which readers
// skip).
func writeCSVRecords(recs [][]string, crlf bool) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.UseCRLF = crlf
	for _, rec := range recs {
		if len(rec) == 1 && rec[0] == "" {
			w.Flush()
			b.WriteString(`""`)
			if crlf {
				b.WriteString("\r")
			}
			b.WriteString("\n")
			continue
		}
		w.Write(rec)
	}
	w.Flush()
	return b.String()
}

// TestFromCSVMatchesFromJSON converts random CSV and requires what
// FromJSON writes for the array of objects with the typed cells.
func TestFromCSVMatchesFromJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 200; i++ {
		recs := randomCSV(rng, rng.Intn(40))
		if len(recs) == 1 {
			continue // no rows: FromJSON has no header to write
		}
		var js strings.Builder
		js.WriteString("[")
		for r, rec := range recs[1:] {
			if r > 0 {
				js.WriteString(",")
			}
			js.WriteString("{")
			for j, cell := range rec {
				if j > 0 {
					js.WriteString(",")
				}
				js.WriteString(strconv.Quote(recs[0][j]) + ":" + typedJSON(cell))
			}
			js.WriteString("}")
		}
		js.WriteString("]")
		for _, opts := range [][]Option{nil, {WithDelimiter(toon.Pipe), withBufSize(16)}} {
			want := fromJSON(t, []byte(js.String()), opts...)
			got := fromCSV(t, writeCSVRecords(recs, i%2 == 0), opts...)
			if got != string(want) {
				t.Fatalf("%q:\ngot:\n%s\nwant:\n%s", writeCSVRecords(recs, false), got, want)
			}
		}
	}
}

// TestFromCSVErrors checks that malformed CSV is reported with its line
// (and column) before anything is written.
func TestFromCSVErrors(t *testing.T) {
	cases := []struct {
		in   string
		opts []Option
		msg  string
	}{
		{"a,b,c\n1,2,3\n4,5\n6,7,8\n", nil, "record on line 3: wrong number of fields: 2 fields, the header has 3"},
		{"a,b\n1,2\n\n3,4,5\n", nil, "record on line 4: wrong number of fields: 3 fields, the header has 2"},
		{"a,b\n1,x\"y\n", nil, "parse error on line 2, column 4: bare \" in non-quoted-field"},
		{"a,b\n1,\"x\"y\n", nil, "parse error on line 2, column 5: extraneous or missing \" in quoted-field"},
		{"a,b\n1,\"open\n2,3\n", nil, "record on line 2; parse error on line 3, column 5: extraneous or missing \" in quoted-field"},
		{utf8BOM + "a,\"b\n", nil, "parse error on line 1, column 9: extraneous or missing \" in quoted-field"},
		{"a,b,a\n1,2,3\n", nil, `line 1: the header names field "a" twice (columns 1 and 3)`},
		{"a\n\"" + strings.Repeat("x", 5000), []Option{WithMaxRecordSize(2000), withBufSize(512)}, "record on line 2 is longer than 2000 bytes"},
		{"a\n1\n", []Option{WithCSVDelimiter('"')}, "invalid CSV delimiter"},
	}
	for _, c := range cases {
		for _, r := range []io.Reader{strings.NewReader(c.in), onlyReader{strings.NewReader(c.in)}} {
			var out bytes.Buffer
			err := FromCSV(&out, r, append(c.opts, withBufSize(64))...)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.msg)
			}
			if out.Len() != 0 {
				t.Errorf("%q: wrote %q", c.in, out.String())
			}
		}
	}
	// A ragged row is a *csv.ParseError of csv.ErrFieldCount, with its line.
	err := FromCSV(io.Discard, strings.NewReader("a,b\n1,2\n3\n"))
	var pe *csv.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, csv.ErrFieldCount) || pe.Line != 3 {
		t.Fatalf("ragged row: %v", err)
	}
}

func toCSV(t *testing.T, in string, opts ...Option) string {
	t.Helper()
	var out bytes.Buffer
	if err := ToCSV(&out, strings.NewReader(in), opts...); err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return out.String()
}

// TestCSVRoundTrip converts random CSV to TOON and back, cells kept as
// strings, and requires the records back, written as encoding/csv's
// Writer writes them.
func TestCSVRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for i := 0; i < 300; i++ {
		recs := randomCSV(rng, rng.Intn(30))
		doc := fromCSV(t, writeCSVRecords(recs, i%3 == 0), WithCSVStrings(true), WithDelimiter([]toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}[i%3]))
		back := toCSV(t, doc)
		want := writeCSVRecords(recs, false)
		if back != want {
			t.Fatalf("%s\ngot:\n%q\nwant:\n%q", doc, back, want)
		}
		if got, err := stdRecords([]byte(back), ','); err != nil || fmt.Sprint(got) != fmt.Sprint(recs) {
			t.Fatalf("%q reads back as %q (%v)", back, got, err)
		}
	}
}

func TestToCSV(t *testing.T) {
	cases := []struct {
		in   string
		opts []Option
		want string
	}{
		{"[2]{id,name,ok}:\n  1,Ada,true\n  2,\"Bob, Jr.\",null", nil, "id,name,ok\n1,Ada,true\n2,\"Bob, Jr.\",\n"},
		{"users[1]{id,note}:\n  1,\"say \\\"hi\\\"\\nbye\"", nil, "id,note\n1,\"say \"\"hi\"\"\nbye\"\n"},
		{"[1|]{a|b}:\n  1.5|x;y", []Option{WithCSVDelimiter(';')}, "a;b\n1.5;\"x;y\"\n"},
		{"[0]{a,b}:", nil, "a,b\n"},
		{"[]", nil, ""},
		{"rows[0]:", nil, ""},
		{"[2]{a}:\n  \"\"\n  null", nil, "a\n\"\"\n\"\"\n"},
		{"[1]{\"first name\",\" x\"}:\n  \" lead\",\\.", nil, "first name,\" x\"\n\" lead\",\"\\.\"\n"},
	}
	for _, c := range cases {
		if got := toCSV(t, c.in, c.opts...); got != c.want {
			t.Errorf("%q:\ngot:\n%q\nwant:\n%q", c.in, got, c.want)
		}
	}
	// A table large enough for the decoder's rows and the writer's flushes.
	var b strings.Builder
	var want strings.Builder
	b.WriteString("[20000]{id,s,f}:")
	want.WriteString("id,s,f\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "\n  %d,row %d,%d.5", i, i, i)
		fmt.Fprintf(&want, "%d,row %d,%d.5\n", i, i, i)
	}
	if got := toCSV(t, b.String()); got != want.String() {
		t.Fatal("large table differs")
	}
}

func TestToCSVErrors(t *testing.T) {
	cases := map[string]string{
		"[2]{id,pos{x,y}}:\n  1,2,3\n  4,5,6": `line 1: field "pos" of the table holds objects`,
		"[2]:\n  - a: 1\n  - b: 2":            "line 1: the array is not a table",
		"[3]: 1,2,3":                          "the array is not a table",
		"a: 1":                                `member "a" is not an array`,
		"7":                                   "is a number, not an array",
		"t[1]{a}:\n  1\nu: 2":                 `more than one member ("u" follows the array)`,
		"[2]{a}:\n  1":                        "",
	}
	for in, msg := range cases {
		err := ToCSV(io.Discard, strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", in, err, msg)
		}
	}
}

// TestFromCSVLarge converts tables large enough for the second pass to
// write rows on a goroutine of their own, with and without it, and
// compares with FromJSON of the same rows.
func TestFromCSVLarge(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	recs := randomCSV(rng, 5000)
	var js strings.Builder
	js.WriteString("[")
	for r, rec := range recs[1:] {
		if r > 0 {
			js.WriteString(",")
		}
		js.WriteString("{")
		for j, cell := range rec {
			if j > 0 {
				js.WriteString(",")
			}
			js.WriteString(strconv.Quote(recs[0][j]) + ":" + typedJSON(cell))
		}
		js.WriteString("}")
	}
	js.WriteString("]")
	want := fromJSON(t, []byte(js.String()))
	in := writeCSVRecords(recs, false)
	for _, on := range []bool{false, true} {
		if got := fromCSV(t, in, withPipeline(on), withBufSize(4096)); got != string(want) {
			t.Fatalf("pipeline %v: output differs from FromJSON", on)
		}
		err := FromCSV(&failAfter{n: 10000}, strings.NewReader(in), withPipeline(on))
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("pipeline %v: failing writer: %v", on, err)
		}
	}
}

// changing is an input that reads as a and, after the first seek to its
// start, as b: a file changed between the two passes.
type changing struct {
	r    *strings.Reader
	b    string
	seen bool
}

func (c *changing) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *changing) Seek(off int64, whence int) (int64, error) {
	if whence == io.SeekStart && off == 0 && !c.seen {
		c.seen, c.r = true, strings.NewReader(c.b)
	}
	return c.r.Seek(off, whence)
}

// TestFromCSVChanged checks that an input whose rows change between the
// two passes is an error, never a table with a wrong count.
func TestFromCSVChanged(t *testing.T) {
	a := writeCSVRecords(randomCSV(rand.New(rand.NewSource(1)), 3000), false)
	for name, b := range map[string]string{
		"fewer rows": a[:len(a)/2],
		"more rows":  a + a[strings.IndexByte(a, '\n')+1:],
		"ragged":     a + "x\n",
	} {
		for _, on := range []bool{false, true} {
			var out bytes.Buffer
			err := FromCSV(&out, &changing{r: strings.NewReader(a), b: b}, withPipeline(on))
			if err == nil || !strings.Contains(err.Error(), "changed between the two passes") {
				t.Errorf("%s, pipeline %v: %v", name, on, err)
			}
		}
	}
}

// FuzzFromCSV holds FromCSV to its definition: for CSV that encoding/csv
// reads without error, with a header of distinct names and at least one
// row, the output is FromJSON's for the array of objects of the typed
// cells; for CSV it rejects, an error and no output.
func FuzzFromCSV(f *testing.F) {
	for _, c := range csvCases {
		f.Add([]byte(c))
	}
	f.Add([]byte("a,b\n1,x\n2.50,\"y\nz\"\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if !utf8.Valid(in) {
			return // the JSON of the reference would need the same replacements
		}
		recs, rerr := stdRecords(bytes.TrimPrefix(in, []byte(utf8BOM)), ',')
		var out bytes.Buffer
		err := FromCSV(&out, bytes.NewReader(in), withBufSize(16))
		if rerr != nil {
			if err == nil || out.Len() != 0 {
				t.Fatalf("%q: error %v, output %q; encoding/csv: %v", in, err, out.Bytes(), rerr)
			}
			return
		}
		if len(recs) < 2 {
			return // no rows: FromJSON has no header to compare with
		}
		seen := map[string]bool{}
		for _, name := range recs[0] {
			if seen[name] {
				if err == nil || out.Len() != 0 {
					t.Fatalf("%q: a repeated name accepted", in)
				}
				return
			}
			seen[name] = true
		}
		var js []byte
		js = append(js, '[')
		for r, rec := range recs[1:] {
			if r > 0 {
				js = append(js, ',')
			}
			js = append(js, '{')
			for j, cell := range rec {
				if j > 0 {
					js = append(js, ',')
				}
				js, _ = jsontext.AppendQuote(js, recs[0][j])
				js = append(js, ':')
				if typed := typedJSON(cell); typed == cell {
					js = append(js, cell...)
				} else {
					js, _ = jsontext.AppendQuote(js, cell)
				}
			}
			js = append(js, '}')
		}
		js = append(js, ']')
		var want bytes.Buffer
		werr := FromJSON(&want, bytes.NewReader(js))
		if (err == nil) != (werr == nil) || err == nil && out.String() != want.String() {
			t.Fatalf("%q: error %v, FromJSON %v\ngot:\n%s\nwant:\n%s", in, err, werr, out.Bytes(), want.Bytes())
		}
	})
}
