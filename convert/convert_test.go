package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
	opipe "github.com/toonstream/toon/internal/ordered"
	"github.com/toonstream/toon/internal/spectest"
)

// fixture is a case of the specification's conformance fixtures, read
// through internal/spectest from $TOON_SPEC_DIR.
type fixture = spectest.Fixture

// TestMain says on standard error when the fixtures are missing, and
// makes the parallel paths run their workers however busy the machine is.
func TestMain(m *testing.M) {
	spectest.Notice()
	opipe.IgnoreLoad()
	os.Exit(m.Run())
}

// readFixtures returns the fixtures of a category grouped by file.
func readFixtures(t *testing.T, category string) map[string][]fixture {
	t.Helper()
	out := map[string][]fixture{}
	for _, f := range spectest.Load(t, category) {
		out[f.File] = append(out[f.File], f)
	}
	return out
}

// eachDecodeInput calls fn with the TOON input of every decode fixture and
// ToJSON options for its indentation.
func eachDecodeInput(t *testing.T, fn func(in []byte, opts ...Option)) {
	t.Helper()
	for _, fs := range readFixtures(t, "decode") {
		for _, f := range fs {
			var in string
			if err := json.Unmarshal(f.Input, &in); err != nil {
				t.Fatalf("%s/%s: input is not a string", f.File, f.Name)
			}
			var opts []Option
			if f.Options.IndentSize > 0 {
				opts = append(opts, WithIndent(f.Options.IndentSize))
			}
			fn([]byte(in), opts...)
		}
	}
}

// encodeOptions turns a fixture's options into FromJSON's.
func encodeOptions(f *fixture) []Option {
	var opts []Option
	if f.Options.IndentSize > 0 {
		opts = append(opts, WithIndent(f.Options.IndentSize))
	}
	if f.Options.Delimiter != "" {
		opts = append(opts, WithDelimiter(toon.Delimiter(f.Options.Delimiter[0])))
	}
	return opts
}

// ordered builds the toon.Object tree of a JSON document, keeping key order
// and the exact text of numbers (as toon.Number).
func ordered(data []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	v, err := orderedValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("trailing data: %v", err)
	}
	return v, nil
}

func orderedValue(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		o := toon.Object{}
		for dec.PeekKind() != '}' {
			k, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := k.String()
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, toon.Member{Key: key, Value: v})
		}
		_, err := dec.ReadToken()
		return o, err
	case '[':
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.ReadToken()
		return a, err
	case '"':
		return tok.String(), nil
	case '0':
		return toon.Number(tok.String()), nil
	case 't', 'f':
		return tok.Bool(), nil
	}
	return nil, nil
}

// marshalOrdered is the reference: toon.Marshal of the ordered tree.
func marshalOrdered(t *testing.T, in []byte, opts ...toon.Option) []byte {
	t.Helper()
	v, err := ordered(in)
	if err != nil {
		t.Fatalf("reference parse of %s: %v", in, err)
	}
	out, err := toon.Marshal(v, opts...)
	if err != nil {
		t.Fatalf("reference Marshal of %s: %v", in, err)
	}
	return out
}

func fromJSON(t *testing.T, in []byte, opts ...Option) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := FromJSON(&out, bytes.NewReader(in), opts...); err != nil {
		t.Fatalf("FromJSON(%s): %v", in, err)
	}
	return out.Bytes()
}

// TestFromJSONFixtures runs the specification's encode fixtures.
func TestFromJSONFixtures(t *testing.T) {
	n := 0
	for file, tests := range readFixtures(t, "encode") {
		for _, f := range tests {
			var want string
			if err := json.Unmarshal(f.Expected, &want); err != nil {
				t.Fatalf("%s/%s: expected is not a string", file, f.Name)
			}
			var out bytes.Buffer
			err := FromJSON(&out, bytes.NewReader(f.Input), encodeOptions(&f)...)
			if f.ShouldError {
				if err == nil {
					t.Errorf("%s/%s: no error", file, f.Name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", file, f.Name, err)
				continue
			}
			if out.String() != want {
				t.Errorf("%s/%s:\ninput: %s\ngot:\n%s\nwant:\n%s", file, f.Name, f.Input, out.String(), want)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d encode fixtures ran", n)
	}
}

// corpus is a set of documents with every form, and the edges between them.
var corpus = []string{
	`{}`, `[]`, `"x"`, `123`, `-0`, `1e400`, `true`, `null`, `""`,
	`{"a":1}`, `{"a":{}}`, `{"a":[]}`, `[[]]`, `[{}]`, `[{},{}]`, `[[],[1]]`,
	`{"users":[{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Bob","role":"user"}]}`,
	`{"users":[{"id":1,"name":"Ada"},{"name":"Bob","id":2}]}`,
	`{"users":[{"id":1,"name":"Ada"},{"name":"Bob","id":2,"x":3}]}`,
	`{"users":[{"id":1,"name":"Ada"},{"name":"Bob"}]}`,
	`{"users":[{"id":1,"name":"Ada"},{"name":"Bob","idx":2}]}`,
	`{"users":[{"id":1},{"id":[2]}]}`,
	`{"users":[{"id":1},{"id":{"x":1}}]}`,
	`{"users":[{"id":{"x":1}},{"id":null}]}`,
	`{"users":[{"id":{"x":1,"y":"a"}},{"id":{"y":"b","x":2}}]}`,
	`{"users":[{"id":{"x":1,"y":"a"}},{"id":{"y":"b","z":2}}]}`,
	`{"users":[{"id":{}},{"id":{}}]}`,
	`{"users":[{"a":1},"x"]}`,
	`[{"a":{"b":{"c":1,"d":[1]}}},{"a":{"b":{"c":2,"d":[2]}}}]`,
	`[{"a":{"b":{"c":1,"d":2}}},{"a":{"b":{"d":3,"c":4}}}]`,
	`{"a":{"x":{"p":1,"q":"s"},"y":{"q":"t","p":2}}}`,
	`{"a":{"x":{"p":1,"q":"s"}}}`,
	`{"a":{"x":{"p":1},"y":{"q":1}}}`,
	`{"a":{"x":{"p":1},"y":2}}`,
	`{"x":{"p":1,"q":{"r":true}},"y":{"q":{"r":false},"p":2}}`,
	`{"x":{"p":1},"y":{"p":2},"z":{"p":[3]}}`,
	`{"m":{"x":{"p":{"k":1},"q":{"k":2}},"y":{"p":{"k":3},"q":{"k":4}}}}`,
	`[{"m":{"x":{"p":1},"y":{"p":2}}},{"m":{"x":{"p":3},"y":{"p":4}}}]`,
	`{"t":[{"m":{"x":{"p":1},"y":{"p":2}}},{"m":{"x":{"p":3},"y":{"p":4}}}],"k":{"a":{"v":1},"b":{"v":2}}}`,
	`{"t":[{"m":{"x":{"p":1},"y":{"p":2}}},{"m":{"x":{"p":3},"y":{"q":4}}}],"k":{"a":{"v":1},"b":{"v":2}}}`,
	`[[{"a":1},{"a":2}],[{"a":3}]]`,
	`[{"list":[{"a":1},{"a":2}],"b":1},{"list":[],"b":2}]`,
	`[{"t":[{"a":1},{"a":2}],"b":1}]`,
	`[{"k":{"a":{"v":1},"b":{"v":2}},"z":0}]`,
	`{"a":[1,"two",true,null,-1.50,1e-7,12345678901234567890123456789]}`,
	`{"a b":{"c-d":1},"":[""],"#x":"-y","q\"uote":"back\\slash\n"}`,
	`{"u":"\u00e9\ud83d\ude00","esc":"\u0061"}`,
	`{"tab":"a\tb","pipe":"a|b","comma":"a,b","keyed":{"r1":{"v":"a,b|c"},"r2":{"v":"x\ty"}}}`,
	`[1,[2,[3,[4,[]]]]]`,
	`{"deep":{"deeper":{"deepest":[{"x":1},{"x":2}]}}}`,
	`[{"a":1,"b":[1,2]},{"a":2,"b":[3]}]`,
	`{"rows":[{"id":1,"tags":["a"]},{"id":2,"tags":[]}]}`,
	`{"n":[0.1,0.0001,1000000,1e21,123e-20,-0.0]}`,
}

// TestFromJSONMatchesMarshal checks FromJSON against toon.Marshal of the
// ordered tree, with each delimiter and indentation, with the plan in
// memory and spilled to files at every other byte.
func TestFromJSONMatchesMarshal(t *testing.T) {
	docs := append([]string(nil), corpus...)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		docs = append(docs, string(randomDoc(rng)))
	}
	for _, d := range []toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe} {
		for _, indent := range []int{2, 4} {
			for _, budget := range []int{1 << 20, 3} {
				for _, doc := range docs {
					want := marshalOrdered(t, []byte(doc), toon.WithDelimiter(d), toon.WithIndent(indent))
					got := fromJSON(t, []byte(doc), WithDelimiter(d), WithIndent(indent), withMemBudget(budget))
					if !bytes.Equal(got, want) {
						t.Fatalf("delim %q indent %d budget %d\ninput: %s\ngot:\n%s\nwant:\n%s", d, indent, budget, doc, got, want)
					}
				}
			}
		}
	}
}

// randomDoc returns a JSON document made to hit the form decisions: arrays
// of objects that share keys in shuffled orders, nested groups, keyed
// candidates, and occasional breaks of uniformity.
func randomDoc(rng *rand.Rand) []byte {
	var b []byte
	b = randomValue(rng, b, 0, nil)
	return b
}

var keyPool = []string{"a", "b", "c", "id", "name", "x y", "k-1", ""}

func randomValue(rng *rand.Rand, b []byte, depth int, shape []string) []byte {
	r := rng.Intn(10)
	if depth > 4 {
		r = 9
	}
	switch {
	case r < 3: // array of objects of one shape, maybe broken
		n := rng.Intn(4)
		keys := pickKeys(rng)
		b = append(b, '[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			ks := keys
			if rng.Intn(8) == 0 {
				ks = pickKeys(rng)
			}
			b = randomObject(rng, b, depth+1, ks, true)
		}
		return append(b, ']')
	case r < 5: // object of objects of one shape (keyed candidate)
		n := rng.Intn(4)
		keys := pickKeys(rng)
		b = append(b, '{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, "e"+strconv.Itoa(i))
			b = append(b, ':')
			ks := keys
			if rng.Intn(8) == 0 {
				ks = pickKeys(rng)
			}
			b = randomObject(rng, b, depth+1, ks, true)
		}
		return append(b, '}')
	case r < 6: // array of anything
		n := rng.Intn(4)
		b = append(b, '[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = randomValue(rng, b, depth+1, nil)
		}
		return append(b, ']')
	case r < 7:
		return randomObject(rng, b, depth+1, pickKeys(rng), false)
	}
	switch rng.Intn(6) {
	case 0:
		return strconv.AppendInt(b, rng.Int63n(2000)-1000, 10)
	case 1:
		return append(b, []string{"1.50", "-0", "1e3", "2.5E-7", "123456789012345678901"}[rng.Intn(5)]...)
	case 2:
		return append(b, []string{"true", "false", "null"}[rng.Intn(3)]...)
	}
	return strconv.AppendQuote(b, []string{"", "x", "a,b", "a|b", "a\tb", "-", "true", "05", " pad", "é"}[rng.Intn(10)])
}

func pickKeys(rng *rand.Rand) []string {
	n := 1 + rng.Intn(3)
	perm := rng.Perm(len(keyPool))
	ks := make([]string, n)
	for i := range ks {
		ks[i] = keyPool[perm[i]]
	}
	return ks
}

// randomObject writes an object with the given keys, shuffled; values are
// mostly primitives or nested objects (so that rows stay tabular).
func randomObject(rng *rand.Rand, b []byte, depth int, keys []string, rowish bool) []byte {
	ks := append([]string(nil), keys...)
	rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	b = append(b, '{')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		switch {
		case rowish && depth < 4 && k == "c":
			b = randomObject(rng, b, depth+1, []string{"p", "q"}, true)
		case rowish && rng.Intn(6) != 0:
			b = randomValue(rng, b, 9, nil) // a primitive
		default:
			b = randomValue(rng, b, depth+1, nil)
		}
	}
	return append(b, '}')
}

// TestFromJSONLargeTable converts a table big enough to spill the plan and
// compares with Marshal.
func TestFromJSONLargeTable(t *testing.T) {
	in := benchRows(3000)
	want := marshalOrdered(t, in)
	got := fromJSON(t, in, withMemBudget(64))
	if !bytes.Equal(got, want) {
		t.Fatalf("large table differs from Marshal")
	}
	if !bytes.HasPrefix(got, []byte("users[3000]{id,name,email,age,active,score,city}:\n  1,User 1,user1@example.com,25,true,13.8,Paris")) {
		t.Fatalf("unexpected start: %.120s", got)
	}
}

// onlyReader hides every method but Read, so FromJSON must spool.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestFromJSONInputs reads from a plain reader (spooled), a file at an
// offset, and a one-byte reader.
func TestFromJSONInputs(t *testing.T) {
	doc := corpus[16]
	want := marshalOrdered(t, []byte(doc))

	var out bytes.Buffer
	if err := FromJSON(&out, onlyReader{strings.NewReader(doc)}, WithTempDir(t.TempDir())); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("spooled: got %s", out.Bytes())
	}

	path := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(path, []byte("garbage "+doc), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(int64(len("garbage ")), io.SeekStart)
	out.Reset()
	if err := FromJSON(&out, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("file at offset: got %s", out.Bytes())
	}
	dir := t.TempDir()
	out.Reset()
	if err := FromJSON(&out, onlyReader{&oneByte{strings.NewReader(doc)}}, WithTempDir(dir)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("one-byte reader: got %s", out.Bytes())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// TestFromJSONErrors checks that malformed JSON is reported with its
// position, and that nothing is written.
func TestFromJSONErrors(t *testing.T) {
	cases := []struct {
		in        string
		line, col int
		msg       string
	}{
		{`{"a":1,}`, 1, 7, "invalid character ','"},
		{"{\n  \"a\": [1, 2,,]\n}", 2, 14, "invalid character ','"},
		{`{"a":1,"a":2}`, 1, 8, "duplicate"},
		{`[{"a":1},{"a":1,"a":2}]`, 1, 17, "duplicate"},
		{`{"a":1} {"b":2}`, 1, 9, "more than one JSON value"},
		{"{\"a\":1}\n{\"a\":2}\n", 2, 1, "more than one JSON value"},
		{"[1]\n\n  \"x\"", 3, 3, "more than one JSON value"},
		{"1 2", 1, 3, "more than one JSON value"},
		{``, 1, 1, "unexpected end of input"},
		{"  \n ", 2, 2, "unexpected end of input"},
		{`{"a":[1,2`, 1, 10, "unexpected EOF"},
		{`{"a":"\x"}`, 1, 7, "invalid escape"},
		{"[\"\xff\"]", 1, 3, "UTF-8"},
		{`[01]`, 1, 3, "invalid character"},
		{`{"a":tru}`, 1, 9, "invalid character '}' in literal true"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		err := FromJSON(&out, strings.NewReader(c.in))
		if err == nil {
			t.Errorf("%q: no error", c.in)
			continue
		}
		if out.Len() != 0 {
			t.Errorf("%q: wrote %q before failing", c.in, out.String())
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %q does not mention %q", c.in, err, c.msg)
		}
		var je *JSONError
		if c.line == 0 {
			continue
		}
		if !errors.As(err, &je) {
			t.Errorf("%q: %T is not a *JSONError: %v", c.in, err, err)
			continue
		}
		if je.Line != c.line || je.Column != c.col {
			t.Errorf("%q: at %d:%d, want %d:%d (%v)", c.in, je.Line, je.Column, c.line, c.col, err)
		}
	}
}

// TestJSONErrorSourceWindow checks the source excerpt of an error deep in a
// long line.
func TestJSONErrorSourceWindow(t *testing.T) {
	in := `[` + strings.Repeat(`1,`, 5000) + `x]`
	err := FromJSON(io.Discard, strings.NewReader(in))
	var je *JSONError
	if !errors.As(err, &je) {
		t.Fatalf("got %v", err)
	}
	if je.Column != 10002 || je.Line != 1 {
		t.Fatalf("at %d:%d", je.Line, je.Column)
	}
	if len(je.Source) > 170 || je.SourceColumn < 9800 {
		t.Fatalf("window %d bytes from column %d", len(je.Source), je.SourceColumn)
	}
	if je.Source[je.Column-je.SourceColumn] != 'x' {
		t.Fatalf("column %d of window %q is not the x", je.Column-je.SourceColumn, je.Source)
	}
}

// TestFromJSONHeaderLimit: a table whose header exceeds the limit is an
// error, but a large first value of a non-table is fine.
func TestFromJSONHeaderLimit(t *testing.T) {
	var wide strings.Builder
	wide.WriteString("{")
	for i := 0; i < 200; i++ {
		if i > 0 {
			wide.WriteString(",")
		}
		fmt.Fprintf(&wide, `"field%d":%d`, i, i)
	}
	wide.WriteString("}")
	table := "[" + wide.String() + "," + wide.String() + "]"
	err := FromJSON(io.Discard, strings.NewReader(table), WithMaxHeaderSize(500))
	if err == nil || !strings.Contains(err.Error(), "header too large") {
		t.Fatalf("got %v", err)
	}
	if got, want := fromJSON(t, []byte(table), WithMaxHeaderSize(4000)), marshalOrdered(t, []byte(table)); !bytes.Equal(got, want) {
		t.Fatal("table under the limit differs")
	}
	// The root object has one entry, so it is no keyed table whatever the
	// size of its value; the object inside it is a keyed table with a
	// small header.
	var big strings.Builder
	big.WriteString(`{"only":{`)
	for i := 0; i < 300; i++ {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"k%d":{"v":%d}`, i, i)
	}
	big.WriteString("}}")
	got := fromJSON(t, []byte(big.String()), WithMaxHeaderSize(100), withMemBudget(16))
	if want := marshalOrdered(t, []byte(big.String())); !bytes.Equal(got, want) {
		t.Fatalf("got %.200s\nwant %.200s", got, want)
	}
}

// TestFromJSONFlatMemory checks that allocations do not grow with the
// number of rows.
func TestFromJSONFlatMemory(t *testing.T) {
	small, large := benchRows(100), benchRows(5000)
	allocs := func(in []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if err := FromJSON(io.Discard, bytes.NewReader(in)); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(small), allocs(large)
	if b > a+20 {
		t.Fatalf("allocations grow with rows: %v for 100 rows, %v for 5000", a, b)
	}
}

// ---- ToJSON ----

// jsonEqual compares two JSON texts: same structure, same key order, equal
// strings, numbers equal by value.
func jsonEqual(a, b []byte) error {
	da := jsontext.NewDecoder(bytes.NewReader(a), jsontext.AllowDuplicateNames(true))
	db := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	for {
		ta, ea := da.ReadToken()
		tb, eb := db.ReadToken()
		if ea == io.EOF && eb == io.EOF {
			return nil
		}
		if ea != nil || eb != nil {
			return fmt.Errorf("errors %v / %v", ea, eb)
		}
		if ta.Kind() != tb.Kind() {
			return fmt.Errorf("kind %v vs %v at %s", ta.Kind(), tb.Kind(), da.StackPointer())
		}
		switch ta.Kind() {
		case '0':
			if ta.Float() != tb.Float() {
				return fmt.Errorf("number %s vs %s at %s", ta.String(), tb.String(), da.StackPointer())
			}
		case '"', 't', 'f':
			if ta.String() != tb.String() {
				return fmt.Errorf("%q vs %q at %s", ta.String(), tb.String(), da.StackPointer())
			}
		}
	}
}

// TestToJSONFixtures runs the specification's decode fixtures.
func TestToJSONFixtures(t *testing.T) {
	n := 0
	for file, tests := range readFixtures(t, "decode") {
		for _, f := range tests {
			var in string
			if err := json.Unmarshal(f.Input, &in); err != nil {
				t.Fatalf("%s/%s: input is not a string", file, f.Name)
			}
			var opts []Option
			if f.Options.Strict != nil {
				opts = append(opts, WithStrict(*f.Options.Strict))
			}
			if f.Options.IndentSize > 0 {
				opts = append(opts, WithIndent(f.Options.IndentSize))
			}
			var out bytes.Buffer
			err := ToJSON(&out, strings.NewReader(in), opts...)
			if f.ShouldError {
				var se *toon.SyntaxError
				if !errors.As(err, &se) {
					t.Errorf("%s/%s: want a *toon.SyntaxError, got %v", file, f.Name, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", file, f.Name, err)
				continue
			}
			if !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
				t.Errorf("%s/%s: no final newline", file, f.Name)
			}
			if err := jsonEqual(out.Bytes(), f.Expected); err != nil {
				t.Errorf("%s/%s: %v\ninput:\n%s\ngot:  %s\nwant: %s", file, f.Name, err, in, out.Bytes(), f.Expected)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d decode fixtures ran", n)
	}
}

// TestToJSONExact checks that number text and key order pass through.
func TestToJSONExact(t *testing.T) {
	in := "z: 12345678901234567890123\na: 1.5000\nm: -1E+03\nrows[2]{b,a}:\n  1,x\n  2,\"y, z\"\n"
	var out bytes.Buffer
	if err := ToJSON(&out, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	want := `{"z":12345678901234567890123,"a":1.5000,"m":-1E+03,"rows":[{"b":1,"a":"x"},{"b":2,"a":"y, z"}]}` + "\n"
	if out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
	out.Reset()
	if err := ToJSON(&out, strings.NewReader("a:\n  b[2]: 1,2\n"), WithJSONIndent(2)); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": {\n    \"b\": [\n      1,\n      2\n    ]\n  }\n}\n"; out.String() != want {
		t.Fatalf("indented: got %q want %q", out.String(), want)
	}
}

// TestToJSONCountErrorOutput checks that ToJSON, meeting a declared count
// the input does not have, stops its output where the error is found: what
// it wrote is not a complete JSON value (and has no final newline), on
// every writer path: compact, indented, the table-row writer (four rows or
// more) and the output pipe.
func TestToJSONCountErrorOutput(t *testing.T) {
	inputs := []string{
		"users[1000]{id,name}:\n  1,a\n  2,b\n",
		"users[10]{id,name}:\n  1,a\n  2,b\n  3,c\n  4,d\n  5,e\nn: 1\n",
		"a:\n  l[3]:\n    - 1\n    - x: 2\n",
		"m[2:]{v}:\n  k: 1\n",
	}
	options := map[string][]Option{
		"compact":  nil,
		"indented": {WithJSONIndent(2)},
		"serial":   {withPipeline(false)},
		"piped":    {withPipeline(true), withPipeChunk(16)},
	}
	for _, in := range inputs {
		for name, opts := range options {
			var out bytes.Buffer
			err := ToJSON(&out, strings.NewReader(in), opts...)
			if !errors.Is(err, toon.ErrCount) {
				t.Fatalf("%s %q: error %v, want ErrCount", name, in, err)
			}
			if json.Valid(out.Bytes()) || strings.HasSuffix(out.String(), "\n") {
				t.Fatalf("%s %q: the output is complete JSON after a count error: %q", name, in, out.String())
			}
		}
	}
}

// TestToJSONDuplicates: strict mode rejects a repeated key; non-strict mode
// writes both, in order.
func TestToJSONDuplicates(t *testing.T) {
	in := "a: 1\nb: 2\na: 3\n"
	var se *toon.SyntaxError
	if err := ToJSON(io.Discard, strings.NewReader(in)); !errors.As(err, &se) || !errors.Is(err, toon.ErrDuplicateKey) {
		t.Fatalf("strict: got %v", err)
	}
	var out bytes.Buffer
	if err := ToJSON(&out, strings.NewReader(in), WithStrict(false)); err != nil {
		t.Fatal(err)
	}
	// Last write wins (§14.3); the key keeps its first position.
	if want := `{"a":3,"b":2}` + "\n"; out.String() != want {
		t.Fatalf("non-strict: got %q want %q", out.String(), want)
	}
}

// TestRoundTrip: JSON -> TOON -> JSON gives the same JSON value, for the
// corpus and random documents, with each delimiter.
func TestRoundTrip(t *testing.T) {
	docs := append([]string(nil), corpus...)
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		docs = append(docs, string(randomDoc(rng)))
	}
	for _, d := range []toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe} {
		for _, doc := range docs {
			if doc == `1e400` {
				continue // beyond float64: compared by value below would fail
			}
			tn := fromJSON(t, []byte(doc), WithDelimiter(d))
			var back bytes.Buffer
			if err := ToJSON(&back, bytes.NewReader(tn)); err != nil {
				t.Fatalf("ToJSON of\n%s\n(from %s): %v", tn, doc, err)
			}
			if err := sameValue([]byte(doc), back.Bytes()); err != nil {
				t.Fatalf("round trip of %s\nTOON:\n%s\nback: %s\n%v", doc, tn, back.Bytes(), err)
			}
		}
	}
}

// sameValue compares two JSON values as the TOON data model does: objects
// as ordered members except that tables may reorder keys, so members are
// compared as sets here; numbers by value.
func sameValue(a, b []byte) error {
	va, err := ordered(a)
	if err != nil {
		return err
	}
	vb, err := ordered(b)
	if err != nil {
		return err
	}
	return cmpValue(va, vb, "")
}

func cmpValue(a, b any, path string) error {
	switch x := a.(type) {
	case toon.Object:
		y, ok := b.(toon.Object)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		xs := append(toon.Object(nil), x...)
		ys := append(toon.Object(nil), y...)
		sort.Slice(xs, func(i, j int) bool { return xs[i].Key < xs[j].Key })
		sort.Slice(ys, func(i, j int) bool { return ys[i].Key < ys[j].Key })
		for i := range xs {
			if xs[i].Key != ys[i].Key {
				return fmt.Errorf("%s: key %q vs %q", path, xs[i].Key, ys[i].Key)
			}
			if err := cmpValue(xs[i].Value, ys[i].Value, path+"/"+xs[i].Key); err != nil {
				return err
			}
		}
		return nil
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		for i := range x {
			if err := cmpValue(x[i], y[i], path+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	case toon.Number:
		y, ok := b.(toon.Number)
		if !ok {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		fx, _ := strconv.ParseFloat(string(x), 64)
		fy, _ := strconv.ParseFloat(string(y), 64)
		if fx != fy {
			return fmt.Errorf("%s: %s vs %s", path, x, y)
		}
		return nil
	}
	if a != b {
		return fmt.Errorf("%s: %v vs %v", path, a, b)
	}
	return nil
}

// TestToJSONFlatMemory checks that allocations do not grow with the
// document.
func TestToJSONFlatMemory(t *testing.T) {
	conv := func(n int) []byte { return fromJSON(t, benchRows(n)) }
	small, large := conv(100), conv(5000)
	allocs := func(in []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if err := ToJSON(io.Discard, bytes.NewReader(in)); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(small), allocs(large)
	if b > a+5 {
		t.Fatalf("allocations grow with rows: %v for 100 rows, %v for 5000", a, b)
	}
}
