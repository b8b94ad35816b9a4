package convert

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// repeatedNameCases are JSON documents that repeat member names, with the
// TOON that the reference implementation (@toon-format/toon 4.4.0)
// writes for JSON.parse of each: a repeated name keeps its first position
// and takes its last value.
var repeatedNameCases = []struct{ in, want string }{
	{`{"a":1,"b":2,"a":3}`, "a: 3\nb: 2"},
	{`{"a":1,"b":{"x":1,"y":2,"x":[1,2]},"c":3,"a":{"z":true}}`, "a:\n  z: true\nb:\n  x[2]: 1,2\n  y: 2\nc: 3"},
	{`{"rows":[{"id":1,"n":"a","id":9},{"id":2,"n":"b"}]}`, "rows[2]{id,n}:\n  9,a\n  2,b"},
	{`{"a":1,"\u0061":2}`, "a: 2"},
	{`[{"k":{"p":1,"q":2},"k":{"p":3,"q":4}},{"k":{"p":5,"q":6}}]`, "[2]{k{p,q}}:\n  3,4\n  5,6"},
	{`{"t":[{"a":1,"b":2},{"b":3,"a":4,"b":5}]}`, "t[2]{a,b}:\n  1,2\n  4,5"},
	{`{"m":{"x":{"v":1,"w":2},"y":{"v":3,"w":4},"x":{"v":5,"w":6}}}`, "m[2:]{v,w}:\n  x: 5,6\n  y: 3,4"},
	{`{"a":[1,2],"a":[],"a":"s"}`, "a: s"},
	{`{"o":{"a":1,"a":{"b":{"c":1,"c":2}}}}`, "o:\n  a:\n    b:\n      c: 2"},
}

func TestFromJSONRepeatedNames(t *testing.T) {
	for _, c := range repeatedNameCases {
		var out bytes.Buffer
		if err := FromJSON(&out, strings.NewReader(c.in), WithStrict(false)); err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if out.String() != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.in, out.String(), c.want)
		}
		// Strict mode rejects the document, as before.
		var je *JSONError
		err := FromJSON(io.Discard, strings.NewReader(c.in))
		if !errors.As(err, &je) || !strings.Contains(err.Error(), "duplicate object member name") {
			t.Errorf("%s: strict: %v", c.in, err)
		}
	}
}

// TestFromJSONRepeatedNameErrors: past a repeated name, malformed input
// gets the error that the same input without the repetition gets.
func TestFromJSONRepeatedNameErrors(t *testing.T) {
	for _, c := range [][2]string{
		{`{"a":1,"a":2,`, `{"a":1,"b":2,`},
		{`{"a":1,"a":2,"b":[1,2,}`, `{"a":1,"c":2,"b":[1,2,}`},
		{`{"a":1,"a":2,"b":"\ud800"}`, `{"a":1,"c":2,"b":"\ud800"}`},
		{"{\"a\":1,\"a\":2,\n\"b\":\"\xff\"}", "{\"a\":1,\"c\":2,\n\"b\":\"\xff\"}"},
		{`{"a":1,"a":2}}`, `{"a":1,"c":2}}`},
		{`[{"a":1,"a":2}`, `[{"a":1,"c":2}`},
		{`{"a":1,"a":2} 3`, `{"a":1,"c":2} 3`},
	} {
		err := FromJSON(io.Discard, strings.NewReader(c[0]), WithStrict(false))
		want := FromJSON(io.Discard, strings.NewReader(c[1]), WithStrict(false))
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%q: %v, want %v", c[0], err, want)
		}
		var je, wje *JSONError
		if errors.As(want, &wje) {
			line := strings.Split(c[0], "\n")[wje.Line-1]
			if !errors.As(err, &je) || je.Line != wje.Line || je.Column != wje.Column || je.Offset != wje.Offset || !strings.HasPrefix(line, je.Source) {
				t.Errorf("%q: %#v, want %#v", c[0], je, wje)
			}
		}
	}
	// The depth limit holds.
	deep := strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20)
	deep = `{"x":1,"x":` + deep + "}"
	if err := FromJSON(io.Discard, strings.NewReader(deep), WithStrict(false), WithMaxDepth(10)); err == nil || !strings.Contains(err.Error(), "deeper than 10") {
		t.Errorf("depth: %v", err)
	}
}

// lwwObject reads JSON into a toon.Object tree as JSON parsers do: a
// repeated name keeps its first position and takes its last value. It is
// the oracle of TestFromJSONRepeatedNamesRandom.
func lwwObject(t *testing.T, in []byte) any {
	dec := jsontext.NewDecoder(bytes.NewReader(in), jsontext.AllowDuplicateNames(true))
	var value func() any
	value = func() any {
		tok, err := dec.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		switch tok.Kind() {
		case '{':
			o := toon.Object{}
			for dec.PeekKind() != '}' {
				tok, _ := dec.ReadToken()
				k := tok.String() // before the value's tokens
				v := value()
				i := 0
				for i < len(o) && o[i].Key != k {
					i++
				}
				if i < len(o) {
					o[i].Value = v
				} else {
					o = append(o, toon.Member{Key: k, Value: v})
				}
			}
			dec.ReadToken()
			return o
		case '[':
			a := []any{}
			for dec.PeekKind() != ']' {
				a = append(a, value())
			}
			dec.ReadToken()
			return a
		case '"':
			return tok.String()
		case '0':
			return toon.Number(tok.String())
		case 't', 'f':
			return tok.Bool()
		}
		return nil
	}
	return value()
}

// randomRepeats builds a JSON document of objects and tables whose
// objects often repeat names, with values of changing shapes.
func randomRepeats(rng *rand.Rand, rows int) []byte {
	var b bytes.Buffer
	names := []string{"a", "b", "c", "d"}
	var val func(depth int)
	obj := func(depth int) {
		b.WriteByte('{')
		n := 1 + rng.Intn(5)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(names[rng.Intn(len(names))]) + ":")
			val(depth + 1)
		}
		b.WriteByte('}')
	}
	val = func(depth int) {
		switch r := rng.Intn(10); {
		case depth < 3 && r < 3:
			obj(depth)
		case depth < 3 && r == 3:
			b.WriteByte('[')
			for i := 0; i < rng.Intn(4); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				val(depth + 1)
			}
			b.WriteByte(']')
		case r < 6:
			b.WriteString(strconv.Itoa(rng.Intn(100)))
		case r < 8:
			b.WriteString(strconv.Quote([]string{"x", "y z", "a,b", ""}[rng.Intn(4)]))
		default:
			b.WriteString([]string{"true", "null", "1.50"}[rng.Intn(3)])
		}
	}
	b.WriteString(`{"meta":`)
	obj(1)
	b.WriteString(`,"rows":[`)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		// Rows of a table, most with the fields id and v once, some with
		// one of them repeated.
		switch rng.Intn(4) {
		case 0:
			b.WriteString(`{"id":` + strconv.Itoa(i) + `,"v":"x","id":` + strconv.Itoa(-i) + `}`)
		case 1:
			b.WriteString(`{"v":1,"id":` + strconv.Itoa(i) + `,"v":2}`)
		default:
			b.WriteString(`{"id":` + strconv.Itoa(i) + `,"v":` + strconv.Itoa(i%7) + `}`)
		}
	}
	b.WriteString(`],"meta":`)
	val(1)
	b.WriteString("}")
	return b.Bytes()
}

// TestFromJSONRepeatedNamesRandom converts random documents with repeated
// names and compares the output with Marshal of the tree that a JSON
// parser reads, with a spool small enough to move to its file.
func TestFromJSONRepeatedNamesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	for i := 0; i < 60; i++ {
		rows := rng.Intn(20)
		if i%10 == 0 {
			rows = 3000
		}
		in := randomRepeats(rng, rows)
		want, err := toon.Marshal(lwwObject(t, in))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := FromJSON(&out, bytes.NewReader(in), WithStrict(false), withSpoolBudget(4096), WithTempDir(t.TempDir())); err != nil {
			t.Fatalf("%.200s: %v", in, err)
		}
		if out.String() != string(want) {
			t.Fatalf("%.300s:\n got %.300q\nwant %.300q", in, out.String(), want)
		}
	}
}

// TestFromJSONNonStrictSame: without a repeated name, non-strict FromJSON
// writes what strict FromJSON writes.
func TestFromJSONNonStrictSame(t *testing.T) {
	for _, in := range []string{`{"a":1,"b":[{"x":1},{"x":2}]}`, `[1,2,3]`, `"s"`, `{"m":{"p":{"v":1},"q":{"v":2}}}`} {
		var a, b bytes.Buffer
		if err := FromJSON(&a, strings.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if err := FromJSON(&b, strings.NewReader(in), WithStrict(false)); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: %q, strict %q", in, b.String(), a.String())
		}
	}
}
