package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

func TestMarshalForms(t *testing.T) {
	tests := []struct {
		name string
		v    any
		opts []Option
		want string
	}{
		{"root string", "hello", nil, "hello"},
		{"root string quoted against the document delimiter", "a|b", []Option{WithDelimiter(Pipe)}, `"a|b"`},
		{"root number", 42, nil, "42"},
		{"root null", nil, nil, "null"},
		{"root empty object", map[string]any{}, nil, ""},
		{"root nil map", map[string]any(nil), nil, ""},
		{"root empty Object", Object{}, nil, ""},
		{"root empty array", []any{}, nil, "[]"},
		{"map keys sorted", map[string]any{"b": 1, "a": 2, "c": map[string]any{"z": 1, "y": 2}}, nil,
			"a: 2\nb: 1\nc:\n  y: 2\n  z: 1"},
		{"Object keeps order", Object{{"b", 1}, {"a", 2}}, nil, "b: 1\na: 2"},
		{"empty nested object", Object{{"a", map[string]any{}}, {"b", 1}}, nil, "a:\nb: 1"},
		{"empty array field", Object{{"a", []any{}}}, nil, "a: []"},
		{"inline array", Object{{"t", []any{"a", "b,c", 1, true, nil}}}, nil, `t[5]: a,"b,c",1,true,null`},
		{"inline array, pipe", Object{{"t", []any{"a", "b,c", "d|e"}}}, []Option{WithDelimiter(Pipe)}, `t[3|]: a|b,c|"d|e"`},
		{"object field value quoting uses the document delimiter", Object{{"v", "a|b"}, {"w", "a,b"}}, []Option{WithDelimiter(Pipe)}, "v: \"a|b\"\nw: a,b"},
		{"tabular", Object{{"u", []any{Object{{"id", 1}, {"n", "A"}}, Object{{"n", "B"}, {"id", 2}}}}}, nil,
			"u[2]{id,n}:\n  1,A\n  2,B"},
		{"tabular with tab", Object{{"u", []any{Object{{"id", 1}, {"n", "a\tb"}}, Object{{"id", 2}, {"n", "a,b"}}}}}, []Option{WithDelimiter(Tab)},
			"u[2\t]{id\tn}:\n  1\t\"a\\tb\"\n  2\ta,b"},
		{"tabular from maps", []any{map[string]any{"b": 1, "a": 2}, map[string]any{"a": 3, "b": 4}}, nil,
			"[2]{a,b}:\n  2,1\n  3,4"},
		{"nested field groups", []any{
			Object{{"id", 1}, {"c", Object{{"n", "A"}, {"g", Object{{"x", 1}, {"y", 2}}}}}},
			Object{{"id", 2}, {"c", Object{{"g", Object{{"y", 4}, {"x", 3}}}, {"n", "B"}}}},
		}, nil, "[2]{id,c{n,g{x,y}}}:\n  1,A,1,2\n  2,B,3,4"},
		{"mixed null and object column is not tabular", []any{Object{{"c", Object{{"n", 1}}}}, Object{{"c", nil}}}, nil,
			"[2]:\n  - c:\n      n: 1\n  - c: null"},
		{"keyed root", Object{{"a", Object{{"x", 1}}}, {"b", Object{{"x", 2}}}}, nil, "[2:]{x}:\n  a: 1\n  b: 2"},
		{"keyed field with pipe", Object{{"m", Object{{"a", Object{{"x", "p|q"}}}, {"b", Object{{"x", "r,s"}}}}}}, []Option{WithDelimiter(Pipe)},
			"m[2:|]{x}:\n  a: \"p|q\"\n  b: r,s"},
		{"single-entry object stays nested", Object{{"m", Object{{"a", Object{{"x", 1}}}}}}, nil, "m:\n  a:\n    x: 1"},
		{"list item: first field on the hyphen line", []any{Object{{"a", 1}, {"b", Object{{"c", 2}}}}, 3}, nil,
			"[2]:\n  - a: 1\n    b:\n      c: 2\n  - 3"},
		{"list item: nested object first", []any{Object{{"b", Object{{"c", 2}}}, {"a", 1}}, 3}, nil,
			"[2]:\n  - b:\n      c: 2\n    a: 1\n  - 3"},
		{"list item: tabular first field", []any{Object{{"t", []any{Object{{"k", 1}}, Object{{"k", 2}}}}, {"s", "x"}}, "y"}, nil,
			"[2]:\n  - t[2]{k}:\n      1\n      2\n    s: x\n  - y"},
		{"list item: keyed first field", []any{Object{{"m", Object{{"a", Object{{"x", 1}}}, {"b", Object{{"x", 2}}}}}, {"s", 1}}, 0}, nil,
			"[2]:\n  - m[2:]{x}:\n      a: 1\n      b: 2\n    s: 1\n  - 0"},
		{"list item: keyed-eligible element is not keyed", []any{Object{{"a", Object{{"x", 1}}}, {"b", Object{{"x", 2}}}}, 5}, nil,
			"[2]:\n  - a:\n      x: 1\n    b:\n      x: 2\n  - 5"},
		{"list item: empty object", []any{map[string]any{}, 1}, nil, "[2]:\n  -\n  - 1"},
		{"arrays of arrays", Object{{"p", []any{[]any{1, 2}, []any{}, []any{Object{{"a", 1}}, Object{{"a", 2}}}}}}, nil,
			"p[3]:\n  - [2]: 1,2\n  - [0]:\n  - [2]:\n    - a: 1\n    - a: 2"},
		{"arrays of arrays, pipe", []any{[]any{}, []any{"a|b"}}, []Option{WithDelimiter(Pipe)},
			"[2|]:\n  - [0|]:\n  - [1|]: \"a|b\""},
		{"list primitive quoting", []any{"-", "#", Object{{"a", "x"}}}, nil, "[3]:\n  - \"-\"\n  - \"#\"\n  - a: x"},
		{"indent 4", Object{{"a", Object{{"b", []any{Object{{"c", 1}, {"d", []any{1}}}, 2}}}}}, []Option{WithIndent(4)},
			"a:\n    b[2]:\n        - c: 1\n            d[1]: 1\n        - 2"},
		{"quoted keys in headers", Object{{"my-key", []any{Object{{"full name", 1}}}}}, nil, "\"my-key\"[1]{\"full name\"}:\n  1"},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.v, tt.opts...)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n got: %q\nwant: %q", tt.name, got, tt.want)
		}
	}
}

func TestMarshalNumbers(t *testing.T) {
	v := Object{
		{"i", int(-1)}, {"i8", int8(-128)}, {"i16", int16(-32768)}, {"i32", int32(math.MinInt32)}, {"i64", int64(math.MinInt64)},
		{"u", uint(1)}, {"u8", uint8(255)}, {"u16", uint16(65535)}, {"u32", uint32(math.MaxUint32)}, {"u64", uint64(math.MaxUint64)},
		{"up", uintptr(7)},
		{"f32", float32(0.1)}, {"f64", 0.1}, {"neg0", math.Copysign(0, -1)}, {"nan", math.NaN()}, {"inf", math.Inf(-1)},
		{"small", 1e-7}, {"big", 1e21},
		{"jn", json.Number("123456789012345678901234567890")}, {"jn2", json.Number("1.50e2")},
		{"n", Number("-0.0")}, {"n2", Number("9007199254740993")},
		{"v", Value(Uint(math.MaxUint64))}, {"vs", String("-x")},
	}
	want := strings.Join([]string{
		"i: -1", "i8: -128", "i16: -32768", "i32: -2147483648", "i64: -9223372036854775808",
		"u: 1", "u8: 255", "u16: 65535", "u32: 4294967295", "u64: 18446744073709551615", "up: 7",
		"f32: 0.1", "f64: 0.1", "neg0: 0", "nan: null", "inf: null", "small: 1e-7", "big: 1e+21",
		"jn: 1.2345678901234567890123456789e+29", "jn2: 150", "n: 0", "n2: 9007199254740993",
		"v: 18446744073709551615", `vs: "-x"`,
	}, "\n")
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarshalErrors(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	cyclicArr := []any{nil}
	cyclicArr[0] = cyclicArr
	deep := any(1)
	for i := 0; i < 50; i++ {
		deep = []any{deep, "x"}
	}
	tests := []struct {
		name string
		v    any
		opts []Option
		want string
	}{
		{"chan", make(chan int), nil, "unsupported type chan int"},
		{"func", func() {}, nil, "unsupported type func()"},
		{"chan in a struct", struct{ C chan int }{}, nil, "unsupported type chan int"},
		{"[]func", []func(){nil}, nil, "unsupported type func()"},
		{"nested unsupported", Object{{"a", []any{1, Object{{"f", func() {}}}}}}, nil, "unsupported type func()"},
		{"unsupported in tabular column", []any{Object{{"a", 1}}, Object{{"a", make(chan int)}}}, nil, "unsupported type chan int"},
		{"duplicate key", Object{{"a", 1}, {"a", 2}}, nil, `duplicate key "a"`},
		{"duplicate key in a list item", []any{Object{{"a", 1}, {"b", 2}, {"a", 3}}}, nil, `duplicate key "a"`},
		{"duplicate key in the first row", []any{Object{{"a", 1}, {"a", 2}}, Object{{"a", 1}, {"b", 2}}}, nil, `duplicate key "a"`},
		{"bad json.Number", json.Number("1.2.3"), nil, "invalid number"},
		{"bad Number", Object{{"n", Number("05")}}, nil, "invalid number"},
		{"bad NumberValue", []any{Value(NumberValue("x"))}, nil, "invalid number"},
		{"cyclic map", cyclic, nil, "encountered a cycle via map"},
		{"cyclic map, max depth 20", cyclic, []Option{WithMaxDepth(20)}, "nested deeper"},
		{"cyclic slice", cyclicArr, nil, "encountered a cycle via []interface"},
		{"too deep", deep, []Option{WithMaxDepth(20)}, "nested deeper"},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.v, tt.opts...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Marshal = %q, %v; want error containing %q", tt.name, got, err, tt.want)
		}
		if got != nil {
			t.Errorf("%s: Marshal returned output with an error", tt.name)
		}
	}
	dup := Object{}
	for i := 0; i < 40; i++ {
		dup = append(dup, Member{Key: "k" + strconv.Itoa(i%39), Value: i})
	}
	if _, err := Marshal(dup); err == nil || !strings.Contains(err.Error(), `duplicate key "k0"`) {
		t.Errorf("large Object with a duplicate key: %v", err)
	}
}

func TestEncodeOnce(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := enc.Encode(map[string]any{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(1); !errors.Is(err, ErrComplete) {
		t.Fatalf("second Encode: %v", err)
	}
	if err := enc.WriteToken(NullToken()); !errors.Is(err, ErrComplete) {
		t.Fatalf("WriteToken after Encode: %v", err)
	}
	if err := enc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if buf.String() != "a: 1" {
		t.Fatalf("output %q", buf.String())
	}
	enc.Reset(&buf)
	if err := enc.Encode([]any{1}); err != nil || buf.String() != "a: 1[1]: 1" {
		t.Fatalf("after Reset: %v %q", err, buf.String())
	}
}

// ---- token streams ----

// The JSON-model kinds of generic values, for the tests.
type vkind uint8

const (
	kBad vkind = iota
	kPrim
	kObj
	kArr
)

// kindOf returns the JSON-model kind of a generic value.
func kindOf(v any) vkind {
	switch v.(type) {
	case nil, string, bool, float64, float32, int, int64, int32, int16, int8,
		uint, uint64, uint32, uint16, uint8, uintptr, json.Number, Number, Value:
		return kPrim
	case map[string]any, Object:
		return kObj
	case []any:
		return kArr
	}
	return kBad
}

// genericMember returns the member k of the generic object v.
func genericMember(v any, k string) any {
	switch x := v.(type) {
	case map[string]any:
		return x[k]
	case Object:
		m, _ := x.Get(k)
		return m
	}
	return nil
}

// valueTokens appends to out the token stream of v with the forms Encode
// chooses, using the encoder's own form detection.
func valueTokens(t *testing.T, cls *Encoder, v any, item bool, out []Token) []Token {
	t.Helper()
	switch kindOf(v) {
	case kPrim:
		switch x := v.(type) {
		case nil:
			return append(out, NullToken())
		case string:
			return append(out, StringToken([]byte(x)))
		case bool:
			return append(out, BoolToken(x))
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return append(out, NullToken())
			}
			return append(out, NumberToken([]byte(strconv.FormatFloat(x, 'g', -1, 64))))
		case json.Number:
			return append(out, NumberToken([]byte(x)))
		case int:
			return append(out, NumberToken([]byte(strconv.Itoa(x))))
		}
		t.Fatalf("valueTokens: %T", v)
	case kObj:
		pl, p, err := cls.resolveAny(v)
		if err != nil {
			t.Fatal(err)
		}
		var ov objView
		err = cls.open(&ov, pl, p)
		defer cls.closeView(&ov)
		if err != nil {
			t.Fatal(err)
		}
		if !item {
			if root, ok := cls.keyedTree(&ov); ok {
				fields := treeFields(cls, root)
				out = append(out, KeyedStartToken(ov.n, 0, fields))
				for i := 0; i < ov.n; i++ {
					out = append(out, KeyToken([]byte(cls.key(&ov, i))))
					out = rowTokens(t, cls, genericMember(v, cls.key(&ov, i)), root, out)
				}
				cls.sc.nodes = cls.sc.nodes[:root]
				return append(out, ObjectEndToken())
			}
		}
		out = append(out, ObjectStartToken())
		for i := 0; i < ov.n; i++ {
			out = append(out, KeyToken([]byte(cls.key(&ov, i))))
			out = valueTokens(t, cls, genericMember(v, cls.key(&ov, i)), false, out)
		}
		return append(out, ObjectEndToken())
	case kArr:
		a := v.([]any)
		if len(a) == 0 {
			return append(out, ArrayStartToken(0, FormEmpty, 0, nil), ArrayEndToken())
		}
		prims := true
		for _, x := range a {
			prims = prims && kindOf(x) == kPrim
		}
		if prims {
			out = append(out, ArrayStartToken(len(a), FormInline, 0, nil))
			for _, x := range a {
				out = valueTokens(t, cls, x, true, out)
			}
			return append(out, ArrayEndToken())
		}
		if !item {
			if root, ok := cls.tabularTree(anyPlan, mem.Of(&a[0]), len(a)); ok {
				out = append(out, ArrayStartToken(len(a), FormTabular, 0, treeFields(cls, root)))
				for _, x := range a {
					out = rowTokens(t, cls, x, root, out)
				}
				cls.sc.nodes = cls.sc.nodes[:root]
				return append(out, ArrayEndToken())
			}
		}
		out = append(out, ArrayStartToken(len(a), FormList, 0, nil))
		for _, x := range a {
			out = valueTokens(t, cls, x, true, out)
		}
		return append(out, ArrayEndToken())
	}
	t.Fatalf("valueTokens: %T", v)
	return nil
}

func treeFields(cls *Encoder, root int) []Field {
	var fs []Field
	end := root + cls.sc.nodes[root].size
	for c := root + 1; c < end; c += cls.sc.nodes[c].size {
		f := Field{Name: []byte(cls.sc.nodes[c].name)}
		if cls.sc.nodes[c].nchild > 0 {
			f.Fields = treeFields(cls, c)
		}
		fs = append(fs, f)
	}
	return fs
}

func rowTokens(t *testing.T, cls *Encoder, x any, root int, out []Token) []Token {
	out = append(out, ObjectStartToken())
	end := root + cls.sc.nodes[root].size
	for c := root + 1; c < end; c += cls.sc.nodes[c].size {
		n := cls.sc.nodes[c]
		out = append(out, KeyToken([]byte(n.name)))
		v := genericMember(x, n.name)
		if n.nchild > 0 {
			out = rowTokens(t, cls, v, c, out)
		} else {
			out = valueTokens(t, cls, v, true, out)
		}
	}
	return append(out, ObjectEndToken())
}

// writeTokens writes toks through a fresh Encoder and returns the output.
// Every token's bytes are overwritten after the call, as a Decoder would
// reuse its buffers.
func writeTokens(toks []Token, opts ...Option) ([]byte, error) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf, opts...)
	for _, tk := range toks {
		tk = tk.Clone()
		err := enc.WriteToken(tk)
		for i := range tk.Bytes() {
			tk.Bytes()[i] = '!'
		}
		for _, f := range tk.Fields() {
			for i := range f.Name {
				f.Name[i] = '!'
			}
		}
		if err != nil {
			return buf.Bytes(), err
		}
	}
	return buf.Bytes(), enc.Close()
}

func TestWriteTokenFixtures(t *testing.T) {
	cases := loadEncodeCases(t)
	passed := 0
	for _, c := range cases {
		v, err := jsonToValue(c.input, false)
		if err != nil {
			t.Fatal(err)
		}
		cls := NewEncoder(nil, c.opts...)
		cls.sc = new(encScratch)
		toks := valueTokens(t, cls, v, false, nil)
		got, err := writeTokens(toks, c.opts...)
		if err != nil || string(got) != c.expected {
			t.Errorf("%s/%s: WriteToken:\n got: %q, %v\nwant: %q", c.file, c.name, got, err, c.expected)
			continue
		}
		passed++
	}
	t.Logf("WriteToken reproduces %d of %d encode fixtures", passed, len(cases))
}

// genValue builds a random value of Encode's generic types, biased towards
// the shapes that select tabular, keyed and list forms.
type valueGen struct {
	r     *rand.Rand
	exact bool // numbers as json.Number
}

var genStrings = []string{"", "a", "Ada", "hello world", " pad", "pad ", "a,b", "a|b", "a\tb", "a:b", "-", "-x", "#c",
	"true", "null", "42", "-3.5", "1e5", "05", "[x]", "{y}", `q"t`, `b\s`, "l\nf", "\x01", "café", "🚀", "x y z"}

func (g *valueGen) key() string {
	if g.r.Intn(4) == 0 {
		return genStrings[g.r.Intn(len(genStrings))]
	}
	return string(rune('a' + g.r.Intn(6)))
}

func (g *valueGen) prim() any {
	switch g.r.Intn(6) {
	case 0:
		return nil
	case 1:
		return g.r.Intn(2) == 0
	case 2:
		return genStrings[g.r.Intn(len(genStrings))]
	case 3:
		f := float64(g.r.Intn(100000)-50000) / math.Pow10(g.r.Intn(8))
		if g.exact {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return f
	case 4:
		if g.exact {
			return json.Number(strconv.FormatInt(g.r.Int63()-g.r.Int63(), 10))
		}
		return float64(g.r.Intn(1 << 20))
	}
	f := math.Float64frombits(g.r.Uint64())
	if math.IsNaN(f) || math.IsInf(f, 0) {
		f = 1e300
	}
	if g.exact {
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return f
}

func (g *valueGen) object(depth int, keys []string) Object {
	if keys == nil {
		n := g.r.Intn(4)
		for i := 0; i < n; i++ {
			keys = append(keys, g.key())
		}
	}
	o := Object{}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		o = append(o, Member{k, g.value(depth + 1)})
	}
	return o
}

// shape returns a value with a fixed shape: a primitive or an object of
// shapes, so that arrays of copies are tabular.
func (g *valueGen) shape(depth int, template any) any {
	if o, ok := template.(Object); ok {
		out := Object{}
		for _, m := range o {
			out = append(out, Member{m.Key, g.shape(depth+1, m.Value)})
		}
		if g.r.Intn(2) == 0 && len(out) > 1 { // key order may vary per row
			out[0], out[len(out)-1] = out[len(out)-1], out[0]
		}
		return out
	}
	return g.prim()
}

func (g *valueGen) template(depth int) any {
	if depth > 2 || g.r.Intn(3) > 0 {
		return g.prim()
	}
	o := Object{}
	n := 1 + g.r.Intn(3)
	for i := 0; i < n; i++ {
		if _, dup := o.Get(g.key()); !dup {
			o = append(o, Member{string(rune('p' + i)), g.template(depth + 1)})
		}
	}
	return o
}

func (g *valueGen) value(depth int) any {
	if depth > 4 {
		return g.prim()
	}
	switch g.r.Intn(8) {
	case 0, 1:
		return g.prim()
	case 2:
		return g.object(depth, nil)
	case 3: // uniform rows: tabular
		tmpl := Object{}
		for i := 0; i < 1+g.r.Intn(3); i++ {
			tmpl = append(tmpl, Member{string(rune('a' + i)), g.template(depth)})
		}
		a := []any{}
		for i := 0; i < 1+g.r.Intn(4); i++ {
			a = append(a, g.shape(depth, tmpl))
		}
		return a
	case 4: // uniform entries: keyed
		tmpl := Object{{"x", g.template(depth)}, {"y", g.template(depth)}}
		o := Object{}
		for i := 0; i < 2+g.r.Intn(3); i++ {
			o = append(o, Member{g.key() + strconv.Itoa(i), g.shape(depth, tmpl)})
		}
		return o
	case 5:
		a := []any{}
		for i := 0; i < g.r.Intn(4); i++ {
			a = append(a, g.prim())
		}
		return a
	}
	a := []any{}
	for i := 0; i < g.r.Intn(4); i++ {
		a = append(a, g.value(depth+1))
	}
	return a
}

func TestWriteTokenRandom(t *testing.T) {
	g := &valueGen{r: rand.New(rand.NewSource(4))}
	delims := []Delimiter{Comma, Tab, Pipe}
	for n := 0; n < 3000; n++ {
		g.exact = n%2 == 0
		v := g.value(0)
		opts := []Option{WithDelimiter(delims[n%3]), WithIndent(1 + n%4)}
		want, err := Marshal(v, opts...)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		cls := NewEncoder(nil, opts...)
		cls.sc = new(encScratch)
		got, err := writeTokens(valueTokens(t, cls, v, false, nil), opts...)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("value %d: WriteToken:\n got: %q, %v\nwant: %q", n, got, err, want)
		}
	}
}

// flatFields is a header's field list of the names given, with no group.
func flatFields(names ...string) []Field {
	var fs []Field
	for _, n := range names {
		fs = append(fs, Field{Name: []byte(n)})
	}
	return fs
}

func TestWriteTokenForms(t *testing.T) {
	f := flatFields
	k := func(s string) Token { return KeyToken([]byte(s)) }
	s := func(s string) Token { return StringToken([]byte(s)) }
	num := func(s string) Token { return NumberToken([]byte(s)) }
	os, oe, ae := ObjectStartToken(), ObjectEndToken(), ArrayEndToken()
	tests := []struct {
		name string
		toks []Token
		want string
	}{
		{"legacy empty inline", []Token{os, k("a"), ArrayStartToken(0, FormInline, 0, nil), ae, oe}, "a[0]:"},
		{"declared delimiter", []Token{os, k("a"), ArrayStartToken(2, FormInline, Pipe, nil), s("x,y"), s("p|q"), ae, oe}, `a[2|]: x,y|"p|q"`},
		{"numbers canonicalised", []Token{ArrayStartToken(4, FormInline, 0, nil), num("1.500"), num("-0"), num("1E+3"), num("0.0000001"), ae}, "[4]: 1.5,0,1000,1e-7"},
		{"list with an inner tab array", []Token{ArrayStartToken(2, FormList, Comma, nil), ArrayStartToken(2, FormInline, Tab, nil), s("a"), s("b,c"), ae, ArrayStartToken(0, FormEmpty, 0, nil), ae, ae},
			"[2]:\n  - [2\t]: a\tb,c\n  - [0]:"},
		{"empty root array", []Token{ArrayStartToken(0, FormEmpty, 0, nil), ae}, "[]"},
		{"keyed with nested group", []Token{KeyedStartToken(2, 0, []Field{{Name: []byte("g"), Fields: f("x", "y")}, {Name: []byte("z")}}),
			k("a"), os, k("g"), os, k("x"), num("1"), k("y"), num("2"), oe, k("z"), s("q"), oe,
			k("b c"), os, k("g"), os, k("x"), num("3"), k("y"), num("4"), oe, k("z"), NullToken(), oe, oe},
			"[2:]{g{x,y},z}:\n  a: 1,2,q\n  \"b c\": 3,4,null"},
		{"single-entry keyed as declared", []Token{os, k("m"), KeyedStartToken(1, 0, f("v")), k("e"), os, k("v"), BoolToken(true), oe, oe, oe}, "m[1:]{v}:\n  e: true"},
		{"list item with tabular first field", []Token{os, k("items"), ArrayStartToken(1, FormList, 0, nil), os, k("t"), ArrayStartToken(1, FormTabular, 0, f("a")), os, k("a"), num("1"), oe, ae, k("s"), s("x"), oe, ae, oe},
			"items[1]:\n  - t[1]{a}:\n      1\n    s: x"},
		{"empty list item object", []Token{ArrayStartToken(1, FormList, 0, nil), os, oe, ae}, "[1]:\n  -"},
		{"empty object field", []Token{os, k("a"), os, oe, k("b"), num("1"), oe}, "a:\nb: 1"},
		{"root primitive", []Token{s("true")}, `"true"`},
	}
	for _, tt := range tests {
		got, err := writeTokens(tt.toks)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s:\n got: %q, %v\nwant: %q", tt.name, got, err, tt.want)
		}
	}
}

// TestWriteTokenHeaderReuse writes two tables in a row, of every pair of
// field lists that differ in a name, in a name's quoting, in the order,
// in a group, by a field more or less, in the delimiter or not at all, or
// that repeat a name: the second table's header and rows must be what
// they are when it is written alone, as if no list had been compiled
// before it (compile keeps the last list's program, and tableHeader its
// fields segment).
func TestWriteTokenHeaderReuse(t *testing.T) {
	f := flatFields
	type list struct {
		fs    []Field
		delim Delimiter
	}
	lists := []list{
		{f("a", "b"), 0}, {f("a", "b"), 0}, {f("a", "b", "c"), 0}, {f("a"), 0}, {f("b", "a"), 0},
		{f("a", "b c"), 0}, {f("a", "b"), Pipe},
		{[]Field{{Name: []byte("a"), Fields: f("b")}}, 0},
		{[]Field{{Name: []byte("a"), Fields: f("b", "c")}}, 0},
		{[]Field{{Name: []byte("a"), Fields: f("b")}, {Name: []byte("c")}}, 0},
		{[]Field{{Name: []byte("a")}, {Name: []byte("b"), Fields: f("c")}}, 0},
		{f("a", "a"), 0},
	}
	os, oe := ObjectStartToken(), ObjectEndToken()
	var row func(fs []Field, n int) []Token
	row = func(fs []Field, n int) []Token {
		toks := []Token{os}
		for _, fd := range fs {
			toks = append(toks, KeyToken(fd.Name))
			if fd.Fields != nil {
				toks = append(toks, row(fd.Fields, n)...)
			} else {
				toks = append(toks, NumberToken([]byte(strconv.Itoa(n))))
			}
		}
		return append(toks, oe)
	}
	table := func(key string, l list) []Token {
		toks := []Token{KeyToken([]byte(key)), ArrayStartToken(2, FormTabular, l.delim, l.fs)}
		toks = append(toks, row(l.fs, 1)...)
		toks = append(toks, row(l.fs, 2)...)
		return append(toks, ArrayEndToken())
	}
	doc := func(tables ...[]Token) []Token {
		toks := []Token{os}
		for _, tb := range tables {
			toks = append(toks, tb...)
		}
		return append(toks, oe)
	}
	for i, x := range lists {
		wantX, errX := writeTokens(doc(table("x", x)))
		for j, y := range lists {
			wantY, errY := writeTokens(doc(table("y", y)))
			got, err := writeTokens(doc(table("x", x), table("y", y)))
			switch {
			case errX != nil:
				if !errors.Is(err, ErrDuplicateKey) {
					t.Errorf("lists %d, %d: error %v, want the first list's, %v", i, j, err, errX)
				}
			case errY != nil:
				if !errors.Is(err, ErrDuplicateKey) {
					t.Errorf("lists %d, %d: error %v, want the second list's, %v", i, j, err, errY)
				}
			case err != nil || string(got) != string(wantX)+"\n"+string(wantY):
				t.Errorf("lists %d, %d:\n got: %q, %v\nwant: %q", i, j, got, err, string(wantX)+"\n"+string(wantY))
			}
		}
	}
}

func TestWriteTokenErrors(t *testing.T) {
	k := func(s string) Token { return KeyToken([]byte(s)) }
	num := func(s string) Token { return NumberToken([]byte(s)) }
	os, oe, ae := ObjectStartToken(), ObjectEndToken(), ArrayEndToken()
	tests := []struct {
		name string
		toks []Token
		want string
	}{
		{"value where a key belongs", []Token{os, num("1")}, "unexpected Number"},
		{"key at the root", []Token{k("a")}, "unexpected Key"},
		{"array end in an object", []Token{os, ae}, "unexpected ArrayEnd"},
		{"too many inline values", []Token{ArrayStartToken(1, FormInline, 0, nil), num("1"), num("2")}, "declared 1 value, got more than 1"},
		{"too few list items", []Token{ArrayStartToken(2, FormList, 0, nil), num("1"), ae}, "declared 2 items, got 1"},
		{"object in an inline array", []Token{ArrayStartToken(1, FormInline, 0, nil), os}, "unexpected ObjectStart"},
		{"too many rows", []Token{ArrayStartToken(0, FormTabular, 0, []Field{{Name: []byte("a")}}), os}, "declared 0 rows"},
		{"row key mismatch", []Token{ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("a")}}), os, k("b")}, `row key "b" where the header has field "a"`},
		{"array in a row", []Token{ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("a")}}), os, k("a"), ArrayStartToken(0, FormEmpty, 0, nil)}, "primitive cell"},
		{"tabular list item", []Token{ArrayStartToken(1, FormList, 0, nil), ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("a")}})}, "cannot be a list item"},
		{"keyed list item", []Token{ArrayStartToken(1, FormList, 0, nil), KeyedStartToken(1, 0, []Field{{Name: []byte("a")}})}, "cannot be a list item"},
		{"empty fields", []Token{ArrayStartToken(1, FormTabular, 0, nil)}, "empty field list"},
		{"empty nested group", []Token{ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("a"), Fields: []Field{}}})}, "empty field list"},
		{"repeated field", []Token{ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("a")}, {Name: []byte("a")}})}, "repeated field"},
		{"fields on a list", []Token{ArrayStartToken(1, FormList, 0, []Field{{Name: []byte("a")}})}, "with a field list"},
		{"form none array", []Token{ArrayStartToken(1, FormNone, 0, nil)}, "form none"},
		{"non-empty empty array", []Token{ArrayStartToken(1, FormEmpty, 0, nil)}, "form empty with length 1"},
		{"negative length", []Token{ArrayStartToken(-1, FormList, 0, nil)}, "negative length"},
		{"bad delimiter", []Token{ArrayStartToken(1, FormInline, ';', nil)}, "invalid delimiter"},
		{"bad number", []Token{num("0x1")}, "invalid number"},
		{"element in an empty array", []Token{ArrayStartToken(0, FormEmpty, 0, nil), num("1")}, "empty array"},
		{"keyed entry without object", []Token{KeyedStartToken(1, 0, []Field{{Name: []byte("a")}}), k("e"), num("1")}, "where an object belongs"},
		{"keyed count", []Token{KeyedStartToken(2, 0, []Field{{Name: []byte("a")}}), oe}, "declared 2 entries, got 0"},
		{"invalid token", []Token{{}}, "unexpected Invalid"},
		{"duplicate key", []Token{os, k("a"), num("1"), k("b"), num("2"), k("a")}, `duplicate key "a" in an object`},
		{"keys written alike", []Token{os, k("\x90"), num("1"), k("\x9a")}, "a key the object already has"},
		{"replacement character after a bad key", []Token{os, k("\xff"), num("1"), k("a"), num("2"), k("\uFFFD")}, "duplicate key \"\uFFFD\""},
		{"bad key after the replacement character", []Token{os, k("\uFFFD"), num("1"), k("\xff")}, "a key the object already has"},
		{"duplicate key after a nested one", []Token{os, k("a"), os, k("a"), num("1"), oe, k("a")}, `duplicate key "a"`},
		{"duplicate entry key", []Token{KeyedStartToken(2, 0, []Field{{Name: []byte("x")}}), k("e"), os, k("x"), num("1"), oe, k("e")}, `duplicate key "e"`},
		{"fields written alike", []Token{ArrayStartToken(1, FormTabular, 0, []Field{{Name: []byte("\xff")}, {Name: []byte("\xfe")}})}, "both written as"},
	}
	for _, tt := range tests {
		_, err := writeTokens(tt.toks)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	// Count errors match ErrCount, and are sticky.
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	enc.WriteToken(ArrayStartToken(2, FormInline, 0, nil))
	enc.WriteToken(num("1"))
	err := enc.WriteToken(ae)
	if !errors.Is(err, ErrCount) {
		t.Fatalf("count error %v does not match ErrCount", err)
	}
	if err2 := enc.Close(); err2 != err {
		t.Fatalf("Close after a count error: %v", err2)
	}
	if buf.Len() != 0 {
		t.Fatalf("output after a count error: %q", buf.String())
	}
	// The document ends with its root value.
	enc = NewEncoder(&buf)
	if err := enc.WriteToken(num("1")); err != nil {
		t.Fatal(err)
	}
	if err := enc.WriteToken(num("2")); !errors.Is(err, ErrComplete) {
		t.Fatalf("token after the root value: %v", err)
	}
	// Close with an open container.
	enc = NewEncoder(&buf)
	enc.WriteToken(os)
	if err := enc.Close(); err == nil {
		t.Fatal("Close with an open object succeeded")
	}
}

// TestWriteTokenStreams checks that a long token stream is written out as
// it goes, not held until the end.
func TestWriteTokenStreams(t *testing.T) {
	w := &chunkWriter{}
	enc := NewEncoder(w)
	const n = 200000
	enc.WriteToken(ArrayStartToken(n, FormList, 0, nil))
	for i := 0; i < n; i++ {
		if err := enc.WriteToken(StringToken([]byte("item number " + strconv.Itoa(i)))); err != nil {
			t.Fatal(err)
		}
		if i == n/2 && w.buf.Len() < n/4*len("  - item number 100000\n") {
			t.Fatalf("only %d bytes written halfway", w.buf.Len())
		}
	}
	if err := enc.WriteToken(ArrayEndToken()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(w.buf.String(), "\n  - item number 199999") {
		t.Fatal("document not flushed at its end")
	}
}

// ---- round trip through the decoder ----

// sameValue compares an encoded value with its decoded form under the §2
// equality rule: objects by key set (a decoded map has no order), numbers
// by mathematical value, NaN and the infinities as null.
func sameValue(orig, dec any) bool {
	switch kindOf(orig) {
	case kObj:
		m, ok := dec.(map[string]any)
		if !ok {
			return false
		}
		switch o := orig.(type) {
		case Object:
			if len(o) != len(m) {
				return false
			}
			for _, mb := range o {
				d, ok := m[mb.Key]
				if !ok || !sameValue(mb.Value, d) {
					return false
				}
			}
		case map[string]any:
			if len(o) != len(m) {
				return false
			}
			for k, v := range o {
				d, ok := m[k]
				if !ok || !sameValue(v, d) {
					return false
				}
			}
		}
		return true
	case kArr:
		a, b := orig.([]any), dec
		bb, ok := b.([]any)
		if !ok || len(a) != len(bb) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], bb[i]) {
				return false
			}
		}
		return true
	}
	var num string
	switch x := orig.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return dec == nil
		}
		num = strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		num = string(x)
	case int:
		num = strconv.Itoa(x)
	default:
		return orig == dec
	}
	n, ok := dec.(Number)
	if !ok {
		return false
	}
	a, okA := new(big.Rat).SetString(num)
	b, okB := new(big.Rat).SetString(string(n))
	return okA && okB && a.Cmp(b) == 0
}

// TestRoundTrip checks that Unmarshal(Marshal(v)) equals v in strict mode,
// for generated values, every delimiter and several indent sizes; and that
// piping the decoder's tokens into WriteToken reproduces Marshal's bytes.
func TestRoundTrip(t *testing.T) {
	g := &valueGen{r: rand.New(rand.NewSource(7))}
	delims := []Delimiter{Comma, Tab, Pipe}
	for n := 0; n < 3000; n++ {
		g.exact = n%2 == 0
		v := g.value(0)
		opts := []Option{WithDelimiter(delims[n%3]), WithIndent(1 + n%4)}
		text, err := Marshal(v, opts...)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		var back any
		if err := Unmarshal(text, &back, WithIndent(1+n%4), WithStrict(true), UseNumber()); err != nil {
			t.Fatalf("value %d: Unmarshal: %v\n%s", n, err, text)
		}
		if !sameValue(v, back) {
			t.Fatalf("value %d: round trip changed the value\nencoded:\n%s\ndecoded: %#v", n, text, back)
		}
		// Pipe: Decoder.Token → WriteToken is a fixed point of canonical text.
		dec := NewDecoder(bytes.NewReader(text), WithIndent(1+n%4))
		var out bytes.Buffer
		enc := NewEncoder(&out, opts...)
		for {
			tk, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("value %d: Token: %v\n%s", n, err, text)
			}
			if err := enc.WriteToken(tk); err != nil {
				t.Fatalf("value %d: WriteToken(%v): %v\n%s", n, tk.Kind(), err, text)
			}
		}
		if err := enc.Close(); err != nil {
			t.Fatalf("value %d: Close: %v", n, err)
		}
		if !bytes.Equal(out.Bytes(), text) {
			t.Fatalf("value %d: decoder tokens piped into WriteToken:\n got: %q\nwant: %q", n, out.Bytes(), text)
		}
	}
}

// TestKeysWrittenAlike checks that two keys of one object, or two fields
// of one table, that are distinct but written alike (bad UTF-8 bytes are
// replaced by U+FFFD) are an error, wherever they stand, rather than a
// document with a duplicate key; and that a lone such key is written.
func TestKeysWrittenAlike(t *testing.T) {
	type xy struct{ X, Y int }
	bad := []any{
		map[string]any{"\x90": 1, "\x9a": 2},
		Object{{"\xff", 1}, {"\xfe", 2}},
		map[string]int{"\xff": 1, "\uFFFD": 2},
		map[string]any{"a": map[string]any{"b\x80": true, "b\x81": false}},
		[]any{map[string]any{"\x90": 1, "\x9a": 2}, map[string]any{"\x90": 3, "\x9a": 4}},
		map[string]xy{"\x90": {1, 2}, "\x9a": {3, 4}},
		[]any{Object{{"k", 1}, {"x\xc3", Object{{"\xe2", 1}, {"\xe3", 2}}}}},
	}
	for i, v := range bad {
		out, err := Marshal(v)
		if err == nil || !strings.Contains(err.Error(), "both written as") {
			t.Errorf("case %d: Marshal = %q, %v; want the keys-alike error", i, out, err)
		}
	}
	enc := NewEncoder(io.Discard)
	if err := enc.BeginTable("t", 1, "\x90", "\x9a"); err == nil || !strings.Contains(err.Error(), "both written as") {
		t.Errorf("BeginTable with fields written alike: %v", err)
	}
	out, err := Marshal(map[string]int{"\xff": 1, "a": 2})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]int
	if err := Unmarshal(out, &back); err != nil || len(back) != 2 || back["\uFFFD"] != 1 || back["a"] != 2 {
		t.Errorf("a lone bad key: %q decodes to %v, %v", out, back, err)
	}
}

// TestWriteTokenKeys checks the token writer's duplicate-key check on
// objects large enough for its hash table, and that the same keys in
// different objects, and in the rows of a table, are not duplicates.
func TestWriteTokenKeys(t *testing.T) {
	k := func(s string) Token { return KeyToken([]byte(s)) }
	one := NumberToken([]byte("1"))
	var toks []Token
	toks = append(toks, ObjectStartToken())
	for i := 0; i < 1000; i++ {
		toks = append(toks, k("key"+strconv.Itoa(i)), one)
	}
	// A nested object and a table reuse the keys of the outer object.
	toks = append(toks, k("inner"), ObjectStartToken(), k("key1"), one, k("key2"), one, ObjectEndToken())
	toks = append(toks, k("rows"), ArrayStartToken(2, FormTabular, 0, []Field{{Name: []byte("key3")}}),
		ObjectStartToken(), k("key3"), one, ObjectEndToken(), ObjectStartToken(), k("key3"), one, ObjectEndToken(), ArrayEndToken())
	if _, err := writeTokens(append(toks, ObjectEndToken())); err != nil {
		t.Fatalf("distinct keys: %v", err)
	}
	for _, dup := range []string{"key0", "key999", "key500", "inner", "rows"} {
		_, err := writeTokens(append(toks[:len(toks):len(toks)], k(dup)))
		if err == nil || !strings.Contains(err.Error(), "duplicate key "+strconv.Quote(dup)) {
			t.Errorf("repeated %q after 1000 keys: %v", dup, err)
		}
	}
}

// TestMarshalKeepsBuffer checks that the encoders' output buffers stay
// pooled after many documents (bytebufferpool's Pool, which outPool was,
// calibrates its sizes after 42,000 buffers returned, and then kept none
// of them): Marshal of a document of some kilobytes then still allocates
// only its result, not a buffer grown again from nothing.
func TestMarshalKeepsBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rows := make([]mRow, 300)
	for i := range rows {
		rows[i] = mRow{ID: i, Name: "name " + strconv.Itoa(i), Score: float64(i) / 8}
	}
	var v any = rows
	for i := 0; i < 45000; i++ {
		if _, err := Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := Marshal(v); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("Marshal made %v allocations after the pool's calibration, want only its result", allocs)
	}
}
