package toon

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Native fuzz targets. Their seed corpora (the f.Add calls below and the
// files under testdata/fuzz/<FuzzName>/) run as ordinary tests in every
// `go test`; `go test -run=^$ -fuzz=^FuzzName$ -fuzztime=20s .` explores
// further. The scanner's SIMD-versus-generic target is FuzzScanLine in
// scanline_test.go.

// sentinels lists the causes a SyntaxError may carry.
var sentinels = []error{ErrCount, ErrWidth, ErrHeader, ErrDelimiter, ErrIndent, ErrBlankLine, ErrTrailing,
	ErrDuplicateKey, ErrUTF8, ErrMissingColon, ErrEscape, ErrUnterminated, ErrQuote, ErrStructure,
	ErrLineTooLong, ErrDepth}

// checkSyntaxError fails unless err is a *SyntaxError with a position
// inside the input and a cause that is one of the sentinels.
func checkSyntaxError(t *testing.T, data []byte, err error) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%q: error %T %v is not a *SyntaxError", data, err, err)
	}
	lines := bytes.Count(data, []byte{'\n'}) + 1
	if se.Line < 1 || se.Line > lines || se.Column < 1 || se.Offset < 0 || se.Offset > int64(len(data)) {
		t.Fatalf("%q: position out of the input (%d lines, %d bytes): line %d, column %d, offset %d: %v",
			data, lines, len(data), se.Line, se.Column, se.Offset, err)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%q: cause %v is none of the sentinel errors", data, se.Err)
}

// fuzzTokenLimit bounds the tokens an input of n bytes may produce: a row
// repeats its header's field program, which is at most a few hundred tokens
// (nested field groups are limited in depth), so a decoder that produces
// more is looping.
func fuzzTokenLimit(n int) int { return 512 * (n + 16) }

// renderTokens reads d to the end and renders every token, with all it
// carries (form, length, delimiter, fields, text), into one string; err is
// the first error other than io.EOF.
func renderTokens(t *testing.T, d *Decoder, limit int) (string, error) {
	t.Helper()
	var sb strings.Builder
	for n := 0; ; n++ {
		if n > limit {
			t.Fatalf("more than %d tokens: the decoder does not terminate", limit)
		}
		tok, err := d.Token()
		if err == io.EOF {
			if _, again := d.Token(); again != io.EOF {
				t.Fatalf("Token after io.EOF returned %v", again)
			}
			return sb.String(), nil
		}
		if err != nil {
			if _, again := d.Token(); again == nil || again.Error() != err.Error() {
				t.Fatalf("error %v is not sticky: then %v", err, again)
			}
			return sb.String(), err
		}
		sb.WriteByte(byte(tok.Kind()))
		switch tok.Kind() {
		case KindArrayStart, KindObjectStart:
			sb.WriteString(tok.Form().String() + ":" + strconv.Itoa(tok.Len()) + ":" + strconv.Itoa(int(tok.Delim())))
			sb.WriteString(fieldText(tok.Fields()))
		case KindKey, KindString, KindNumber:
			sb.WriteString(strconv.Quote(string(tok.Bytes())))
		case KindBool:
			sb.WriteString(tok.String())
		}
		sb.WriteByte(' ')
	}
}

// chunkReader returns 1 to 7 bytes per Read, cycling through sizes taken
// from a pattern.
type chunkReader struct {
	data    []byte
	pattern []byte
	i       int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(r.pattern) > 0 {
		n = 1 + int(r.pattern[r.i%len(r.pattern)]%7)
		r.i++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

var fuzzDecodeSeeds = []string{
	"",
	"a: 1\nb:\n  c: [x]\n  d[2]: \"e,f\",g",
	"t[3]{id,name,meta{x,y}}:\n  1,Ada,1,2\n  2,\"B\\\"ob\",3,4\n  3,Cy,5,6",
	"l[2]:\n  - k: v\n    w: 1\n  - [1]: z",
	"m[2:]{v}:\n  p: 1\n  q: 2",
	"[2|]{a|b}:\n  1|x,y\n  2|\"\"",
	"[1:]{v,w}:\n  a: 1,2",
	"scalar",
	"-1.5e3",
	"a: \"\\u00e9\\ud83d\"",
	"l[1]:\n  - t[1]{x}:\n      9\n    b: 2",
	"a:\r\n  b: 1\r\n",
	"a: 1\na: 2",
	"t[99999999999]{a}:\n  1",
	"a: \xff\xfe",
	"x[2\t]{a\tb}:\n  1\t2\n  3\t4",
}

// FuzzDecode feeds arbitrary bytes to the decoder, strict and not: it must
// terminate without panicking, every error must be a *SyntaxError with a
// line number and a sentinel cause, Unmarshal must fail exactly when the
// token stream does, and a document that decodes must encode and decode
// again to an equal value (§2 equality).
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzDecodeSeeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		opts := []Option{WithStrict(strict)}
		_, err := renderTokens(t, NewDecoder(bytes.NewReader(data), opts...), fuzzTokenLimit(len(data)))
		if err != nil {
			checkSyntaxError(t, data, err)
		}
		var v any
		uerr := Unmarshal(data, &v, opts...)
		if (err == nil) != (uerr == nil) || err != nil && err.Error() != uerr.Error() {
			t.Fatalf("%q: Token loop error %v, Unmarshal error %v", data, err, uerr)
		}
		if uerr != nil || !utf8.Valid(data) {
			return // the encoder replaces ill-formed UTF-8, so equality cannot hold
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("%q decoded to %#v, which Marshal rejects: %v", data, v, err)
		}
		var back any
		if err := Unmarshal(out, &back); err != nil {
			t.Fatalf("%q decoded to %#v; Marshal wrote %q, which does not decode: %v", data, v, out, err)
		}
		if !modelEqual(v, back) {
			t.Fatalf("%q decoded to %#v; Marshal wrote %q, which decodes to %#v", data, v, out, back)
		}
	})
}

// FuzzChunkedReader checks that the tokens and the error are the same
// whether the input is decoded from a byte slice, through a reader that
// hands over everything it can, or through a reader that returns 1 to 7
// bytes at a time, also with a line limit small enough to force the
// buffer to be refilled and grown.
func FuzzChunkedReader(f *testing.F) {
	for i, s := range fuzzDecodeSeeds {
		f.Add([]byte(s), []byte{byte(i), 3, 6, 1}, i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, data, pattern []byte, strict bool) {
		limit := fuzzTokenLimit(len(data))
		for _, maxLine := range []int{64 << 20, 100} {
			opts := []Option{WithStrict(strict), WithMaxLineLength(maxLine)}
			want, wantErr := renderTokens(t, newBytesDecoder(data, opts), limit)
			for name, r := range map[string]io.Reader{
				"whole":   bytes.NewReader(data),
				"chunked": &chunkReader{data: data, pattern: pattern},
			} {
				got, err := renderTokens(t, NewDecoder(r, opts...), limit)
				if got != want {
					t.Fatalf("%q, max line %d, %s reader:\n got %s\nwant %s", data, maxLine, name, got, want)
				}
				if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Fatalf("%q, max line %d, %s reader: error %v, want %v", data, maxLine, name, err, wantErr)
				}
			}
		}
	})
}

// FuzzRoundTrip builds a generic value (map[string]any, []any, string,
// float64, bool, nil) from the fuzzer's bytes, biased towards the shapes
// that select the tabular, keyed, list and inline forms, and requires
// Unmarshal(Marshal(v)) to equal v under §2 equality, with every
// delimiter and several indentation widths. It also requires that
// replaying the decoded tokens through WriteToken writes Marshal's bytes
// again.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x03a\x00b\x01c\x02"))
	f.Add([]byte("\x07\x03\x02\x05\x05\x05\x05\x05\x05\x05"))
	f.Add([]byte("\x08\x03\x03\x04\x04\x04\x04\x04\x04\x04\x04"))
	f.Add([]byte("\x16\x06\x04\x02\x01\x00\x09\x03\x04"))
	f.Add([]byte("\x00\x04\x11:,|\t\"\\\n -#[]{}"))
	f.Add([]byte("\x01\x02\x00\x00\x00\x00\x00\x00\xf0\x7f\x02\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		cfg := g.next()
		delim := []Delimiter{Comma, Tab, Pipe}[cfg%3]
		indent := 1 + int(cfg/3%4)
		v := g.value(0)
		opts := []Option{WithDelimiter(delim), WithIndent(indent)}
		out, err := Marshal(v, opts...)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		var back any
		if err := Unmarshal(out, &back, WithIndent(indent)); err != nil {
			t.Fatalf("Marshal(%#v) wrote %q, which does not decode: %v", v, out, err)
		}
		if !modelEqual(v, back) {
			t.Fatalf("Marshal(%#v) wrote %q, which decodes to %#v", v, out, back)
		}
		var buf bytes.Buffer
		enc := NewEncoder(&buf, opts...)
		d := NewDecoder(bytes.NewReader(out), WithIndent(indent))
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q: %v", out, err)
			}
			if err := enc.WriteToken(tok); err != nil {
				t.Fatalf("%q: WriteToken(%v): %v", out, tok, err)
			}
		}
		if err := enc.Close(); err != nil {
			t.Fatalf("%q: Close: %v", out, err)
		}
		if !bytes.Equal(buf.Bytes(), out) {
			t.Fatalf("replaying the tokens of\n%q\nthrough WriteToken wrote\n%q", out, buf.Bytes())
		}
	})
}

// fuzzGen turns fuzzer bytes into a generic value. When the bytes run out
// it reads zeros, which give nulls, so every input makes a finite value.
type fuzzGen struct {
	data []byte
}

func (g *fuzzGen) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	c := g.data[0]
	g.data = g.data[1:]
	return c
}

var fuzzStrings = []string{"", "a", "Ada Lovelace", " pad", "pad ", "a,b", "a|b", "a\tb", "a:b", "-", "- x", "#", "#c",
	"true", "false", "null", "42", "-3.5", "1e5", "05", "+1", ".5", "[x]", "{y}", "[]", `q"t`, `b\s`, "l\nf", "cr\r",
	"\x00\x1f", "café", "🚀", "x y z", "\u2028", "a: b", "\"", "k[2]"}

// str returns a string from the pool or up to 15 raw bytes of input, made
// valid UTF-8.
func (g *fuzzGen) str() string {
	c := g.next()
	if c < 128 {
		return fuzzStrings[int(c)%len(fuzzStrings)]
	}
	n := int(c % 16)
	n = min(n, len(g.data))
	s := string(g.data[:n])
	g.data = g.data[n:]
	return strings.ToValidUTF8(s, "\uFFFD")
}

func (g *fuzzGen) num() float64 {
	switch c := g.next(); c % 4 {
	case 0:
		return float64(int(c) - 128)
	case 1:
		return float64(int(g.next())<<8|int(g.next())) / math.Pow10(int(g.next()%12))
	}
	var u uint64
	for i := 0; i < 8; i++ {
		u = u<<8 | uint64(g.next())
	}
	f := math.Float64frombits(u)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0 // Marshal writes these as null; only finite numbers round-trip
	}
	return f
}

func (g *fuzzGen) prim() any {
	switch g.next() % 4 {
	case 0:
		return nil
	case 1:
		return g.next()%2 == 0
	case 2:
		return g.num()
	}
	return g.str()
}

// shape returns a template for uniform objects: nil for a primitive leaf,
// or field names with sub-templates (nested field groups).
type shape struct {
	keys []string
	subs []*shape
}

func (g *fuzzGen) shape(depth int) *shape {
	s := &shape{}
	n := 1 + int(g.next()%3)
	for i := 0; i < n; i++ {
		k := g.str()
		if containsStr(s.keys, k) {
			continue
		}
		var sub *shape
		if depth < 2 && g.next()%4 == 0 {
			sub = g.shape(depth + 1)
		}
		s.keys = append(s.keys, k)
		s.subs = append(s.subs, sub)
	}
	return s
}

func (g *fuzzGen) fill(s *shape) map[string]any {
	m := make(map[string]any, len(s.keys))
	for i, k := range s.keys {
		if s.subs[i] != nil {
			m[k] = g.fill(s.subs[i])
		} else {
			m[k] = g.prim()
		}
	}
	return m
}

func containsStr(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

func (g *fuzzGen) value(depth int) any {
	if depth > 5 {
		return g.prim()
	}
	switch g.next() % 10 {
	case 0, 1, 2:
		return g.prim()
	case 3, 4: // object
		n := int(g.next() % 5)
		m := make(map[string]any, n)
		for i := 0; i < n; i++ {
			m[g.str()] = g.value(depth + 1)
		}
		return m
	case 5: // array of anything
		n := int(g.next() % 5)
		a := make([]any, n)
		for i := range a {
			a[i] = g.value(depth + 1)
		}
		return a
	case 6: // array of primitives: inline
		n := int(g.next() % 6)
		a := make([]any, n)
		for i := range a {
			a[i] = g.prim()
		}
		return a
	case 7: // uniform objects: tabular
		s := g.shape(0)
		n := 1 + int(g.next()%4)
		a := make([]any, n)
		for i := range a {
			a[i] = g.fill(s)
		}
		return a
	case 8: // object of uniform objects: keyed
		s := g.shape(0)
		n := 2 + int(g.next()%3)
		m := make(map[string]any, n)
		for i := 0; i < n; i++ {
			m[g.str()+strconv.Itoa(i)] = g.fill(s)
		}
		return m
	}
	// array of arrays
	n := int(g.next() % 4)
	a := make([]any, n)
	for i := range a {
		m := int(g.next() % 4)
		inner := make([]any, m)
		for j := range inner {
			inner[j] = g.prim()
		}
		a[i] = inner
	}
	return a
}

// modelEqual is JSON-model equality (§2) over decoded generic values:
// objects by key set, arrays in order, and numbers (float64 or Number) by
// mathematical value, so -0 equals 0 and an out-of-range number kept as
// Number equals its re-encoded text.
func modelEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !modelEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !modelEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64, Number:
		p, ok1 := numValue(a)
		q, ok2 := numValue(b)
		return ok1 && ok2 && p == q
	}
	return a == b
}

// numValue renders a float64 or Number as a canonical decimal: sign,
// significant digits without leading or trailing zeros, and the exponent of
// the last digit (arbitrary size), so equal values give equal strings.
func numValue(v any) (string, bool) {
	var s string
	switch x := v.(type) {
	case float64:
		if x == 0 {
			return "0", true
		}
		s = strconv.FormatFloat(x, 'e', -1, 64)
	case Number:
		s = string(x)
	default:
		return "", false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	e := new(big.Int)
	if exp != "" {
		if _, ok := e.SetString(strings.TrimPrefix(exp, "+"), 10); !ok {
			return "", false
		}
	}
	e.Sub(e, big.NewInt(int64(len(frac))))
	if digits == "" {
		return "0", true
	}
	trimmed := strings.TrimRight(digits, "0")
	e.Add(e, big.NewInt(int64(len(digits)-len(trimmed))))
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + trimmed + "e" + e.String(), true
}
