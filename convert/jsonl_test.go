package convert

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// jsonArray joins records into the JSON array FromJSONLines must convert
// as FromJSON does.
func jsonArray(records []string) []byte {
	return []byte("[" + strings.Join(records, ",") + "]")
}

// layouts writes records as JSON Lines in several ways that must all read
// the same: plain, CRLF, blank lines around and between, spaces around the
// records, no final LF, a byte order mark.
var layouts = map[string]func([]string) string{
	"plain": func(rs []string) string { return strings.Join(rs, "\n") + "\n" },
	"no final LF": func(rs []string) string {
		return strings.Join(rs, "\n")
	},
	"CRLF": func(rs []string) string { return strings.Join(rs, "\r\n") + "\r\n" },
	"blank lines": func(rs []string) string {
		return "\n \n\t\r\n" + strings.Join(rs, "\n\n  \n") + "\n\n\r\n "
	},
	"padded": func(rs []string) string {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString("  \t" + r + " \r\n")
		}
		return b.String()
	},
	"BOM": func(rs []string) string { return utf8BOM + strings.Join(rs, "\n") },
}

func fromJSONLines(t *testing.T, in []byte, opts ...Option) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := FromJSONLines(&out, bytes.NewReader(in), opts...); err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return out.Bytes()
}

// TestFromJSONLinesMatchesFromJSON converts sets of records, uniform and
// not, flat and nested, in every layout and with several options, and
// requires FromJSON's output for the JSON array of the same records.
func TestFromJSONLinesMatchesFromJSON(t *testing.T) {
	sets := map[string][]string{
		"none":    nil,
		"one":     {`{"a":1}`},
		"table":   {`{"id":1,"name":"Ada","ok":true}`, `{"id":2,"name":"Bob","ok":false}`, `{"id":3,"name":"a,b|c\td","ok":null}`},
		"order":   {`{"id":1,"name":"Ada"}`, `{"name":"Bob","id":2}`},
		"nested":  {`{"id":1,"pos":{"x":1.5,"y":-2}}`, `{"id":2,"pos":{"x":0,"y":1e3}}`},
		"list":    {`{"id":1}`, `{"id":2,"extra":[1,2,3]}`, `{}`, `{"deep":{"a":{"b":[{"c":1},{"c":2}]}}}`},
		"empty":   {`{}`, `{}`},
		"strings": {`{"s":"é \u00e9 \ud83d\ude00 \"q\" \\ \n"}`, `{"s":""}`, `{"s":"-"}`, `{"s":"05"}`, `{"s":" pad "}`},
		"numbers": {`{"n":12345678901234567890123}`, `{"n":-0}`, `{"n":1.50}`, `{"n":2.5E-7}`, `{"n":1e21}`},
		"spaced":  {`{ "a" : 1 , "b" : [ 1 , 2 ] }`, `{"a":2,"b":[]}`},
	}
	rng := rand.New(rand.NewSource(18))
	for i := 0; i < 40; i++ {
		keys := pickKeys(rng)
		var rs []string
		for n := rng.Intn(30); n > 0; n-- {
			ks := keys
			if rng.Intn(10) == 0 {
				ks = pickKeys(rng)
			}
			rs = append(rs, string(randomObject(rng, nil, 1, ks, true)))
		}
		sets["random "+strconv.Itoa(i)] = rs
	}
	optSets := [][]Option{
		nil,
		{WithDelimiter(toon.Pipe), WithIndent(4)},
		{WithDelimiter(toon.Tab), withBufSize(64), withPipeline(true)},
		{withBufSize(16), withPipeline(false), withMemBudget(64)},
	}
	for name, rs := range sets {
		for _, opts := range optSets {
			want := fromJSON(t, jsonArray(rs), opts...)
			for lname, layout := range layouts {
				in := []byte(layout(rs))
				if got := fromJSONLines(t, in, opts...); !bytes.Equal(got, want) {
					t.Fatalf("%s, %s:\n%q\ngot:\n%s\nwant:\n%s", name, lname, in, got, want)
				}
			}
		}
	}
	// Through a reader that cannot seek (a temporary copy), one byte at a
	// time.
	rs := sets["table"]
	var out bytes.Buffer
	if err := FromJSONLines(&out, &oneByte{r: strings.NewReader(layouts["blank lines"](rs))}); err != nil {
		t.Fatal(err)
	}
	if want := fromJSON(t, jsonArray(rs)); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("unseekable input:\n%s\nwant:\n%s", out.Bytes(), want)
	}
}

// jsonlRows writes n uniform records, with an odd one every so often.
func jsonlRows(n int) []string {
	rs := make([]string, n)
	for i := range rs {
		rs[i] = `{"id":` + strconv.Itoa(i) + `,"name":"User ` + strconv.Itoa(i) + `","score":` + strconv.Itoa(i%100) + `.5,"ok":` + strconv.FormatBool(i%3 == 0) + `}`
		if i%1009 == 500 {
			rs[i] = `{"name":"reordered","id":` + strconv.Itoa(i) + `,"ok":null,"score":1}`
		}
	}
	return rs
}

// TestFromJSONLinesLarge converts a large table through files, so that the
// first pass's helper reads the far half of the records at offsets
// through the view, and compares with FromJSON of the array.
func TestFromJSONLinesLarge(t *testing.T) {
	rs := jsonlRows(30000)
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(path, []byte(layouts["CRLF"](rs)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fromJSON(t, jsonArray(rs))
	for _, on := range []bool{false, true} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = FromJSONLines(&out, f, withPipeline(on), withAheadMin(4096), withBufSize(4096))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("pipeline %v: output differs from FromJSON of the array", on)
		}
	}
}

// linesPlanOf is planOf for JSON Lines: the first pass over the view of in.
func linesPlanOf(in []byte, helper bool) (plan string, joined int, err error) {
	v, err := newLinesView(bytes.NewReader(in), 0, int64(len(in)))
	if err != nil {
		return "", 0, err
	}
	c := makeConfig([]Option{withAheadMin(512), withPipeline(helper), withBufSize(4096), withLines(v)})
	p := &planner{c: &c, slots: newSpill("", 1<<30), tables: newSpill("", 1<<30)}
	p.ra, p.size = v, v.size+2
	p.seek = func(off int64) error { _, err := v.Seek(off, io.SeekStart); return err }
	err = p.run(v)
	return string(p.slots.buf) + "|" + string(p.tables.buf), p.joined, err
}

// TestLinesAhead checks the helper of the first pass on JSON Lines: it
// takes rows (its guess of a boundary is a record separator) and the plan
// and errors are those without it.
func TestLinesAhead(t *testing.T) {
	rs := jsonlRows(5000)
	docs := map[string]string{
		"plain":     strings.Join(rs, "\n"),
		"blank":     strings.Join(rs, "\n\n"),
		"bad late":  strings.Join(rs[:4000], "\n") + "\n[1]\n" + strings.Join(rs[4000:], "\n"),
		"two late":  strings.Join(rs[:4500], "\n") + "," + strings.Join(rs[4500:], "\n"),
		"cut late":  strings.Join(rs[:4500], "\n") + `{"id":` + "\n" + strings.Join(rs[4500:], "\n"),
		"array end": strings.Join(rs, "\n") + "\n]",
	}
	for name, d := range docs {
		want, _, werr := linesPlanOf([]byte(d), false)
		got, joined, gerr := linesPlanOf([]byte(d), true)
		t.Logf("%s: the helper counted %d rows; error %v", name, joined, gerr)
		if (name == "plain" || name == "blank") && joined == 0 {
			t.Errorf("%s: the helper's rows were not taken", name)
		}
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s: error %v, without the helper %v", name, gerr, werr)
		}
		if strings.Contains(name, "late") || name == "array end" {
			if werr == nil {
				t.Fatalf("%s: accepted", name)
			}
			continue
		}
		if werr != nil || got != want {
			t.Fatalf("%s: the plan differs with the helper (%d rows joined), error %v", name, joined, werr)
		}
	}
}

// TestFromJSONLinesErrors checks that bad records are reported with their
// line, column and reason, and that nothing is written.
func TestFromJSONLinesErrors(t *testing.T) {
	cases := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"{\"a\":1}\n[1,2]\n", 2, 1, "must be a JSON object, not an array"},
		{"{\"a\":1}\n\n  42\n{\"a\":2}", 3, 3, "must be a JSON object, not a number"},
		{"\"x\"\n", 1, 1, "not a string"},
		{"{\"a\":1}\nnull", 2, 1, "not null"},
		{"{\"a\":1}\n{\"a\":\n2}\n", 2, 6, "unexpected EOF"},
		{"{\"a\":1},{\"a\":2}\n", 1, 8, "invalid character ','"},
		{"{\"a\":1} {\"a\":2}\n", 1, 9, "more than one JSON value"},
		{"{\"a\":1}\n{\"a\":1}{\"a\":2}\n", 2, 8, "more than one JSON value"},
		// A record cut across lines whose pieces would make a valid array.
		{"{\"a\":[{\"x\":1}\n{\"x\":2}]}\n", 1, 14, "unexpected EOF"},
		{"{\"a\":[1\n{\"b\":2}]},{\"c\":3}\n", 1, 8, "unexpected EOF"},
		{"{\"a\":1,\"a\":2}\n", 1, 8, "duplicate object member name \"a\""},
		{"\n\n{\"a\":1}\n\n{\"a\" 1}\n", 5, 6, "invalid character '1'"},
		{"{\"a\":\"x\\u00\"}\n", 1, 8, "invalid escape sequence"},
		{"{\"a\":1}\n{\"b\":", 2, 6, "unexpected EOF"},
		{"{\"a\":\n\n \n", 1, 6, "unexpected EOF"},
		{"{\"a\":1}\n{\"b\":2}\n]\n", 3, 1, "invalid character ']'"},
		{utf8BOM + "{\"a\":1,}\n", 1, 10, "invalid character ','"},
		{"{\"a\":1}\n{\"a\":\"\x1e\"}\n", 2, 7, "invalid character"},
		{"{\"a\":1}\n\x1e{\"a\":2}\n", 2, 1, "invalid character"},
		{"{}\x1e{}\n{}\n", 1, 3, "invalid character '\\x1e' at start of value"},
	}
	for _, c := range cases {
		for _, mode := range []string{"seekable", "stream"} {
			var out bytes.Buffer
			var r io.Reader = strings.NewReader(c.in)
			if mode == "stream" {
				r = onlyReader{r}
			}
			err := FromJSONLines(&out, r, withBufSize(16))
			var je *JSONError
			if !errors.As(err, &je) {
				t.Fatalf("%q (%s): error %v, want a *JSONError", c.in, mode, err)
			}
			if je.Line != c.line || je.Column != c.col || !strings.Contains(je.Error(), c.msg) {
				t.Errorf("%q (%s): %v (line %d, column %d); want line %d, column %d, %q", c.in, mode, err, je.Line, je.Column, c.line, c.col, c.msg)
			}
			if out.Len() != 0 {
				t.Errorf("%q (%s): wrote %q", c.in, mode, out.Bytes())
			}
		}
	}
	// The reported line is the record's, whatever precedes it.
	rs := jsonlRows(3000)
	rs[2500] = `{"id":2500,"name":"User","score":[1,2}`
	var out bytes.Buffer
	err := FromJSONLines(&out, strings.NewReader(strings.Join(rs, "\n")), withAheadMin(512), withPipeline(true))
	var je *JSONError
	if !errors.As(err, &je) || je.Line != 2501 || je.Column != 38 || je.Source != rs[2500] {
		t.Fatalf("line 2501: %v (%+v)", err, je)
	}
}

// TestToJSONLines converts TOON documents made from JSON arrays and
// requires each element on a line, as ToJSON writes it.
func TestToJSONLines(t *testing.T) {
	arrays := []string{
		`[]`,
		`[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]`,
		`[{"id":1},{"id":2,"x":[1,2]},{},3,"s",null,true,[1,[2]],{"a":{"b":{"c":"d"}}}]`,
		`[1,2,3]`,
		`[[1,2],[3]]`,
		`[{"id":1,"pos":{"x":1,"y":2}},{"id":2,"pos":{"x":3,"y":4}}]`,
		`[{"s":"é\n\"q\" \\ \u0001"},{"s":""}]`,
	}
	var big []string
	for i := 0; i < 5000; i++ {
		big = append(big, `{"id":`+strconv.Itoa(i)+`,"s":"row `+strconv.Itoa(i)+`","f":`+strconv.Itoa(i)+`.25,"b":true,"n":null}`)
	}
	arrays = append(arrays, string(jsonArray(big)))
	for _, a := range arrays {
		doc := fromJSON(t, []byte(a))
		var want bytes.Buffer
		dec := jsontext.NewDecoder(bytes.NewReader([]byte(a)))
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			// Each element as ToJSON writes it: a TOON document of its own.
			var elem bytes.Buffer
			if err := ToJSON(&elem, bytes.NewReader(fromJSON(t, v))); err != nil {
				t.Fatal(err)
			}
			want.Write(elem.Bytes())
		}
		for _, wrap := range []bool{false, true} {
			in := doc
			if wrap { // the array as the only member of a root object
				in = fromJSON(t, []byte(`{"rows":`+a+`}`))
			}
			for _, on := range []bool{false, true} {
				var got bytes.Buffer
				if err := ToJSONLines(&got, bytes.NewReader(in), withPipeline(on), withPipeChunk(1)); err != nil {
					t.Fatalf("%s: %v", in, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("%s:\ngot:\n%s\nwant:\n%s", in, got.Bytes(), want.Bytes())
				}
			}
		}
	}
}

// TestJSONLinesRoundTrip checks JSON Lines -> TOON -> JSON Lines on
// records written compactly with canonical numbers and keys in table
// order: the lines come back byte for byte.
func TestJSONLinesRoundTrip(t *testing.T) {
	rs := jsonlRows(2000)
	for i := range rs {
		if strings.Contains(rs[i], "reordered") {
			rs[i] = `{"id":` + strconv.Itoa(i) + `,"name":"odd, \"one\"","score":-1.25,"ok":null}`
		}
	}
	in := strings.Join(rs, "\n") + "\n"
	var doc, back bytes.Buffer
	if err := FromJSONLines(&doc, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(doc.Bytes(), []byte("[2000]{id,name,score,ok}:")) {
		t.Fatalf("not a table: %.80s", doc.Bytes())
	}
	if err := ToJSONLines(&back, &doc); err != nil {
		t.Fatal(err)
	}
	if back.String() != in {
		t.Fatalf("round trip differs")
	}
}

// TestToJSONLinesErrors checks the documents whose root is not an array.
func TestToJSONLinesErrors(t *testing.T) {
	cases := map[string]string{
		"":                        "empty object, not an array",
		"a: 1":                    `member "a" is not an array`,
		"42":                      "is a number, not an array",
		"hello":                   "is a string, not an array",
		"a[1]: 1\nb: 2":           `more than one member ("b" follows the array)`,
		"a:\n  b: 1":              `member "a" is not an array`,
		"[2]{a}:\n  1":            "",
		"[3]{a}:\n  1\n  2":       "",
		"[2]{a}:\n  1\n  2\nx: 1": "",
	}
	for in, msg := range cases {
		var out bytes.Buffer
		err := ToJSONLines(&out, strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", in, err, msg)
		}
	}
}

// FuzzFromJSONLines holds FromJSONLines to its definition: if every line
// that is not blank is one JSON object (as jsontext reads it), the output
// is FromJSON's for the array of those lines; otherwise it is a
// *JSONError and nothing is written.
func FuzzFromJSONLines(f *testing.F) {
	for _, l := range layouts {
		f.Add([]byte(l([]string{`{"a":1,"b":"x"}`, `{"a":2,"b":"y"}`})))
	}
	f.Add([]byte("{\"a\":[{\"x\":1}\n{\"x\":2}]}\n"))
	f.Add([]byte("{\"a\":1},{\"a\":2}\n"))
	f.Add([]byte("{\"a\":1}\n[1]\n"))
	f.Add([]byte("\xef\xbb\xbf{}\r\n\r\n{\"\":null}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var records []string
		valid := true
		for i, line := range bytes.Split(in, []byte("\n")) {
			if i == 0 {
				line = bytes.TrimPrefix(line, []byte(utf8BOM))
			}
			if len(bytes.Trim(line, " \t\r")) == 0 {
				continue
			}
			dec := jsontext.NewDecoder(bytes.NewReader(line))
			if dec.PeekKind() != '{' {
				valid = false
				break
			}
			v, err := dec.ReadValue()
			if err != nil {
				valid = false
				break
			}
			records = append(records, string(v)) // v is valid until the next read
			if _, err := dec.ReadToken(); err != io.EOF {
				valid = false
				break
			}
		}
		var out bytes.Buffer
		err := FromJSONLines(&out, bytes.NewReader(in), withBufSize(16))
		if !valid {
			var je *JSONError
			if !errors.As(err, &je) || out.Len() != 0 {
				t.Fatalf("%q: error %v, output %q", in, err, out.Bytes())
			}
			return
		}
		var want bytes.Buffer
		werr := FromJSON(&want, bytes.NewReader(jsonArray(records)))
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v; FromJSON of the array: %v", in, err, werr)
		}
		if err == nil && !bytes.Equal(out.Bytes(), want.Bytes()) {
			t.Fatalf("%q:\ngot:\n%s\nwant:\n%s", in, out.Bytes(), want.Bytes())
		}
	})
}

// TestFromJSONLinesRepeatedNames: with WithStrict(false), a repeated
// member name in a record keeps its first position and its last value, as
// FromJSON does for the array of the records; a line that is not one
// object is still an error, with its line, after such a record too.
func TestFromJSONLinesRepeatedNames(t *testing.T) {
	for _, c := range []struct{ in, array string }{
		{"{\"a\":1,\"a\":2}\n{\"a\":3}\n", `[{"a":1,"a":2},{"a":3}]`},
		{"\xef\xbb\xbf{\"a\":1,\"b\":{\"c\":1,\"c\":2}}\n\n \r\n{\"b\":5,\"a\":1,\"b\":6}", `[{"a":1,"b":{"c":1,"c":2}},{"b":5,"a":1,"b":6}]`},
	} {
		var got, want bytes.Buffer
		if err := FromJSON(&want, strings.NewReader(c.array), WithStrict(false)); err != nil {
			t.Fatal(err)
		}
		if err := FromJSONLines(&got, strings.NewReader(c.in), WithStrict(false)); err != nil || got.String() != want.String() {
			t.Errorf("%q: %v\n%s\nwant\n%s", c.in, err, got.String(), want.String())
		}
		if err := FromJSONLines(io.Discard, strings.NewReader(c.in)); err == nil {
			t.Errorf("%q: strict: no error", c.in)
		}
	}
	for _, c := range []struct {
		in   string
		line int
	}{
		{"{\"a\":1,\"a\":2}\n[1]\n", 2},
		{"{\"a\":1,\"a\":2}\n{\"a\":[1\n2]}\n", 2},
		{"{\"a\":1,\"a\":2} {\"a\":3}\n", 1},
		{"{\"a\":1,\"a\":2}\n\n{\"a\":3},{\"a\":4}\n", 3},
	} {
		var out bytes.Buffer
		err := FromJSONLines(&out, strings.NewReader(c.in), WithStrict(false))
		var je *JSONError
		if !errors.As(err, &je) || je.Line != c.line || out.Len() != 0 {
			t.Errorf("%q: %v (want a *JSONError at line %d), output %q", c.in, err, c.line, out.String())
		}
	}
}
