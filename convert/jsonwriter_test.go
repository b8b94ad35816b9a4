package convert

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
)

// jsontextQuote is the reference for appendQuoted: the string as the
// jsontext.Encoder that ToJSON used before jsonWriter writes it.
func jsontextQuote(t testing.TB, s []byte) []byte {
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if err := enc.WriteToken(jsontext.String(string(s))); err != nil {
		t.Fatalf("jsontext: %v", err)
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// stringPieces are the parts random strings are made of: plain text, every
// byte that has an escape, the characters some encoders escape and
// jsontext by default does not, valid multi-byte UTF-8 and several kinds of
// ill-formed UTF-8.
var stringPieces = func() []string {
	p := []string{
		"a", "User 1", "example.com", "0123456789", " ", "\x7f", "<", ">", "&", "'", "/",
		"é", "€", "😀", "\u2028", "\u2029", "\uFFFD", "\u00a0", "\ufeff",
		"\xff", "\xfe", "\x80", "\xbf", "\xc3", "\xe2\x82", "\xf0\x9f\x98", // truncated and stray bytes
		"\xed\xa0\x80", "\xed\xbf\xbf", // surrogates
		"\xc0\xaf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf", // overlong
		"\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", // beyond U+10FFFF, five bytes
	}
	for c := 0; c < 0x20; c++ {
		p = append(p, string(rune(c)))
	}
	return append(p, `"`, `\`, `\\`, `\"`)
}()

// randomString joins up to max random pieces, after a run of plain bytes
// that moves the pieces across the 8-byte words special reads.
func randomString(rng *rand.Rand, max int) []byte {
	b := bytes.Repeat([]byte("x"), rng.Intn(9))
	for n := rng.Intn(max + 1); n > 0; n-- {
		b = append(b, stringPieces[rng.Intn(len(stringPieces))]...)
	}
	return b
}

// quoteCases are fixed strings for appendQuoted.
var quoteCases = []string{
	"", "a", "abcdefg", "abcdefgh", "abcdefghi", "\"", "\\", "\x00", "\x1f", "\x20", "\x7f", "\x80",
	"abcdefg\"", "abcdefgh\"", "abcdefg\x00", "abcdefgh\x01ij", "\x01abcdefgh", "ab\"cd\\ef\ngh",
	"\b\f\n\r\t\v\x1b", "é", "日本語のテキスト", "ab€cdefghijk€", "\u2028\u2029", "\uFFFD\xff",
	"x\xffy\xc3", "\xed\xa0\x80", "\xc0\xaf", strings.Repeat("\xf0\x9f\x98\x80", 5),
	// Bytes that make the word tests borrow: 0x00 and 0x21/0x23 next to '"'.
	"\x00\"\x21\x23\x5b\x5d\x5c\x1f\x20", "\x21\x21\x21\x21\x21\x21\x21\x22", "\x5d\x5d\x5d\x5d\x5d\x5d\x5d\x5c",
	"\x20\x20\x20\x20\x20\x20\x20\x1f", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x80",
}

// quoteInto runs appendQuoted after a prefix, in a buffer with exactly the
// room it asks for, and returns what it appended after checking that the
// prefix is intact.
func quoteInto(s []byte) []byte {
	const prefix = "prefix"
	dst := make([]byte, len(prefix), len(prefix)+maxEscape*len(s)+quoteSlack)
	copy(dst, prefix)
	out := appendQuoted(dst, s)
	if string(out[:len(prefix)]) != prefix {
		panic("appendQuoted changed the bytes before it")
	}
	return out[len(prefix):]
}

// TestAppendQuotedMatchesJSONText compares appendQuoted with jsontext on
// fixed and random strings.
func TestAppendQuotedMatchesJSONText(t *testing.T) {
	check := func(s []byte) {
		t.Helper()
		want := jsontextQuote(t, s)
		got := quoteInto(s)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendQuoted(%q)\n got %q\nwant %q", s, got, want)
		}
		if len(got) > maxEscape*len(s)+2 {
			t.Fatalf("appendQuoted(%q) wrote %d bytes, more than maxEscape allows", s, len(got))
		}
	}
	for _, s := range quoteCases {
		check([]byte(s))
	}
	for _, s := range stringPieces {
		check([]byte(s))
		check([]byte("abcdefg" + s + "abcdefgh" + s))
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		check(randomString(rng, 24))
	}
	// Every single byte and every pair after each alignment in the word.
	for c := 0; c < 256; c++ {
		for pad := 0; pad < 9; pad++ {
			check(append(bytes.Repeat([]byte("y"), pad), byte(c), 'z'))
		}
	}
}

// TestSpecial checks the word-at-a-time search against a byte loop at every
// starting index.
func TestSpecial(t *testing.T) {
	ref := func(s []byte, i int) int {
		for ; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return i
			}
		}
		return i
	}
	rng := rand.New(rand.NewSource(4))
	for n := 0; n < 20000; n++ {
		s := make([]byte, rng.Intn(40))
		for j := range s {
			// Mostly bytes next to the special ones, where borrows and
			// carries of the word tests would show.
			s[j] = []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xff, 'a'}[rng.Intn(14)]
			if rng.Intn(3) == 0 {
				s[j] = byte(rng.Intn(256))
			}
		}
		for i := 0; i <= len(s); i++ {
			if got, want := special(s, i), ref(s, i); got != want {
				t.Fatalf("special(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
}

// toonQuote quotes s for a TOON document: '"' and '\\' get a backslash,
// control characters a \u escape.
func toonQuote(s []byte) []byte {
	q := []byte{'"'}
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			q = append(q, '\\', c)
		case c < 0x20:
			q = append(q, fmt.Sprintf("\\u%04x", c)...)
		default:
			q = append(q, c)
		}
	}
	return append(q, '"')
}

// TestWordStrings checks the word-at-a-time strings of streamJSON and
// of appendQuoted (which the indented and non-strict paths use): keys,
// values and array elements of every length up to maxFast+9, plain and
// with a byte that needs an escape (or a multi-byte character) at each
// position, against jsontext.
func TestWordStrings(t *testing.T) {
	check := func(s []byte) {
		t.Helper()
		q := toonQuote(s)
		in := fmt.Sprintf("%s: %s\nzz[2]: %s,%s\n", q, q, q, q)
		for _, opts := range [][]Option{nil, {WithJSONIndent(2)}, {WithStrict(false)}} {
			var got, want bytes.Buffer
			gerr := ToJSON(&got, strings.NewReader(in), opts...)
			werr := jsontextToJSON(&want, strings.NewReader(in), opts...)
			if gerr != nil || werr != nil {
				t.Fatalf("input %q: errors %v, %v", in, gerr, werr)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("input %q, %d options:\n got %q\nwant %q", in, len(opts), got.Bytes(), want.Bytes())
			}
		}
	}
	rng := rand.New(rand.NewSource(8))
	for n := 0; n <= maxFast+9; n++ {
		plain := bytes.Repeat([]byte("m"), n)
		check(plain)
		for j := 0; j < n; j++ {
			for _, c := range []string{"\x00", "\x1f", `"`, `\`, "é", "\x7f", " "} {
				s := append(append(append([]byte(nil), plain[:j]...), c...), plain[j+1:]...)
				check(s)
			}
		}
		for k := 0; k < 4; k++ {
			s := make([]byte, n)
			for j := range s {
				s[j] = byte(0x21 + rng.Intn(0x5e)) // printable, '"' and '\\' included
			}
			check(s)
		}
	}
}

// TestPutRaw checks putRaw at every length around its word boundaries.
func TestPutRaw(t *testing.T) {
	for n := 0; n <= maxFast+1; n++ {
		v := make([]byte, n)
		for i := range v {
			v[i] = byte('0' + i%10)
		}
		b := bytes.Repeat([]byte{0xAA}, maxFast+wordSlack)
		k := putRaw(b, v)
		if (k < 0) != (n > maxFast) || k >= 0 && !bytes.Equal(b[:k], v) {
			t.Fatalf("putRaw(%q) = %d, %q", v, k, b[:max(k, 0)])
		}
	}
}

// TestSpecialMask checks specialMask's lowest mark for every byte value
// at every position of a word, after every plain or special filler.
func TestSpecialMask(t *testing.T) {
	isSpecial := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80 }
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{'a', ' ', '!', '#', 0x7f, 0x21, 0x5b, 0x5d, 0x00, '"', 0xff} {
				var w [8]byte
				for i := range w {
					w[i] = 'a'
				}
				for i := pos + 1; i < 8; i++ {
					w[i] = fill // bytes above c: a match there must not hide c
				}
				w[pos] = byte(c)
				m := specialMask(binary.LittleEndian.Uint64(w[:]))
				want := 8
				for i, b := range w {
					if isSpecial(b) {
						want = i
						break
					}
				}
				got := 8
				if m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("specialMask(% x): first mark at %d, want %d", w, got, want)
				}
			}
		}
	}
}

// FuzzAppendQuoted compares appendQuoted with jsontext on any bytes.
func FuzzAppendQuoted(f *testing.F) {
	for _, s := range quoteCases {
		f.Add([]byte(s))
	}
	for _, s := range stringPieces {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		want := jsontextQuote(t, s)
		if got := quoteInto(s); !bytes.Equal(got, want) {
			t.Fatalf("appendQuoted(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}

// chunkRecorder is an io.Writer that keeps what it is given and the size of
// the largest write.
type chunkRecorder struct {
	bytes.Buffer
	max int
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	c.max = max(c.max, len(p))
	return c.Buffer.Write(p)
}

// TestQuoteLong writes strings too long for the buffer, which quote escapes
// in pieces, with multi-byte and ill-formed sequences placed across the
// places where the pieces are cut, and checks the chunks stay within the
// buffer size.
func TestQuoteLong(t *testing.T) {
	const piece = (jsonBufSize - 1) / maxEscape
	var cases [][]byte
	for _, tail := range []string{"😀", "€", "é", "\xf0\x9f\x98", "\x80\x80\x80\x80\x80", "\xff", "\n", `"`} {
		for k := piece - 5; k <= piece+1; k++ {
			s := append(bytes.Repeat([]byte("a"), k), strings.Repeat(tail, 3000)...)
			cases = append(cases, s)
		}
	}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 5; i++ {
		var s []byte
		for len(s) < 200000 {
			s = append(s, randomString(rng, 50)...)
		}
		cases = append(cases, s)
	}
	cases = append(cases, bytes.Repeat([]byte{1}, 3*jsonBufSize)) // all \u0001: six times longer
	for _, s := range cases {
		for _, pre := range []int{0, 100, jsonBufSize - 3} {
			var out chunkRecorder
			jw := newJSONWriter(&out, 0)
			jw.open('[')
			jw.str(bytes.Repeat([]byte("p"), pre))
			jw.str(s)
			jw.close(']')
			jw.flush()
			if jw.err != nil {
				t.Fatal(jw.err)
			}
			want := "[" + string(jsontextQuote(t, bytes.Repeat([]byte("p"), pre))) + "," + string(jsontextQuote(t, s)) + "]\n"
			if out.String() != want {
				t.Fatalf("string of %d bytes after %d: output differs from jsontext (lengths %d, %d)", len(s), pre, out.Len(), len(want))
			}
			if out.max > jsonBufSize {
				t.Fatalf("a write of %d bytes, more than the %d buffer", out.max, jsonBufSize)
			}
		}
	}
}

// jsontextToJSON is ToJSON through the jsontext path, the reference.
func jsontextToJSON(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithStrict(c.strict), toon.WithMaxDepth(c.maxDepth))
	return toJSONText(w, dec, c)
}

// sameAsJSONText converts in with ToJSON and with the jsontext path under
// each JSON indentation, strict and not, and fails if the output of a
// successful conversion or the error of a failed one differ. It reports
// how many of the two modes converted without error.
func sameAsJSONText(t *testing.T, in []byte, opts ...Option) (ok int) {
	t.Helper()
	for _, strict := range []bool{true, false} {
		for _, ind := range []int{0, 1, 2, 4} {
			o := append(append([]Option(nil), opts...), WithStrict(strict), WithJSONIndent(ind))
			var got, want bytes.Buffer
			gerr := ToJSON(&got, bytes.NewReader(in), o...)
			werr := jsontextToJSON(&want, bytes.NewReader(in), o...)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("strict %v indent %d, input %q:\nerror %v\n want %v", strict, ind, in, gerr, werr)
			}
			if gerr == nil && !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("strict %v indent %d, input %q:\n got %q\nwant %q", strict, ind, in, got.Bytes(), want.Bytes())
			}
			if gerr == nil && ind == 0 {
				ok++
			}
		}
	}
	return ok
}

// randomTOON builds a TOON document of keys and values, nested objects,
// inline, tabular and list arrays, whose strings (quoted or not) contain
// random pieces, ill-formed UTF-8 and control characters included.
func randomTOON(rng *rand.Rand) []byte {
	var b []byte
	var obj func(ind string, depth int)
	str := func() []byte {
		s := randomString(rng, 6)
		s = bytes.ReplaceAll(s, []byte("\n"), nil)
		s = bytes.ReplaceAll(s, []byte("\r"), nil)
		if rng.Intn(2) == 0 {
			return s // unquoted: a string, or a number, literal or error
		}
		return toonQuote(s)
	}
	prim := func() []byte {
		switch rng.Intn(6) {
		case 0:
			return []byte([]string{"0", "-0", "1.5", "-12e3", "1E+2", "0.001", "99999999999999999999"}[rng.Intn(7)])
		case 1:
			return []byte([]string{"true", "false", "null"}[rng.Intn(3)])
		}
		return str()
	}
	obj = func(ind string, depth int) {
		for n := 1 + rng.Intn(4); n > 0; n-- {
			k := "k" + strconv.Itoa(rng.Intn(5))
			switch r := rng.Intn(8); {
			case r == 0 && depth < 4:
				b = append(b, ind+k+":\n"...)
				obj(ind+"  ", depth+1)
			case r == 1:
				m := rng.Intn(4)
				b = append(b, ind+k+"["+strconv.Itoa(m)+"]:"...)
				for i := 0; i < m; i++ {
					if i == 0 {
						b = append(b, ' ')
					} else {
						b = append(b, ',')
					}
					b = append(b, bytes.ReplaceAll(prim(), []byte(","), nil)...)
				}
				b = append(b, '\n')
			case r == 2:
				m := rng.Intn(4)
				b = append(b, ind+k+"["+strconv.Itoa(m)+"]{a,b}:\n"...)
				for i := 0; i < m; i++ {
					b = append(b, ind+"  "...)
					b = append(b, bytes.ReplaceAll(prim(), []byte(","), nil)...)
					b = append(b, ',')
					b = append(b, bytes.ReplaceAll(prim(), []byte(","), nil)...)
					b = append(b, '\n')
				}
			case r == 3 && depth < 4:
				m := rng.Intn(3)
				b = append(b, ind+k+"["+strconv.Itoa(m)+"]:\n"...)
				for i := 0; i < m; i++ {
					b = append(b, ind+"  - "...)
					b = append(b, prim()...)
					b = append(b, '\n')
				}
			default:
				b = append(b, ind+k+": "...)
				b = append(b, prim()...)
				b = append(b, '\n')
			}
		}
	}
	obj("", 0)
	return b
}

// TestToJSONMatchesJSONText compares ToJSON with the jsontext reference
// (toJSONText) on the corpus, on JSON documents converted to TOON, on random
// TOON (valid or not) and on the specification's decode fixtures.
func TestToJSONMatchesJSONText(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for _, doc := range corpus {
		var tn bytes.Buffer
		if err := FromJSON(&tn, strings.NewReader(doc)); err == nil {
			sameAsJSONText(t, tn.Bytes())
		}
		sameAsJSONText(t, []byte(doc)) // JSON text read as TOON: mostly errors
	}
	for i := 0; i < 300; i++ {
		sameAsJSONText(t, fromJSON(t, randomDoc(rng)))
	}
	// Random TOON is often invalid, which tests the errors; make sure
	// enough of it converts to test the output as well.
	const n = 1000
	converted := [3]int{}
	for i := 0; i < n; i++ {
		converted[sameAsJSONText(t, randomTOON(rng))]++
	}
	t.Logf("random TOON converted in neither, one or both modes: %v", converted)
	if converted[1]+converted[2] < n/4 || converted[2] < n/10 {
		t.Fatalf("too few random documents convert: %v of %d", converted, n)
	}
	// Documents larger than the buffer, so that flushes fall between and
	// around tokens: the benchmark table, and a table of random strings.
	sameAsJSONText(t, fromJSON(t, benchRows(3000)))
	var big bytes.Buffer
	big.WriteString("[")
	for i := 0; i < 4000; i++ {
		if i > 0 {
			big.WriteString(",")
		}
		a, _ := json.Marshal(strings.ToValidUTF8(string(randomString(rng, 8)), "?"))
		b, _ := json.Marshal(strings.Repeat("long text ", rng.Intn(12)))
		fmt.Fprintf(&big, `{"a":%s,"n":%d.5,"b":%s,"t":%v}`, a, rng.Intn(1e9), b, i%3 == 0)
	}
	big.WriteString("]")
	sameAsJSONText(t, fromJSON(t, big.Bytes()))
	for _, in := range []string{"", "x", "\"a\\tb\"", "[0]:", "[2]: 1,2", "a[0]:", "a:", "a:\n  b:\n", "- 1",
		"\xff", "a: \xff\n\"\xfe\": \x01", "a: 1\nb: 2\na: 3\n", "a:\n  b: 1\n  b: 2\n"} {
		sameAsJSONText(t, []byte(in))
	}
	eachDecodeInput(t, func(in []byte, opts ...Option) { sameAsJSONText(t, in, opts...) })
}

// FuzzToJSONMatchesJSONText compares ToJSON with the jsontext path on any
// input.
func FuzzToJSONMatchesJSONText(f *testing.F) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 20; i++ {
		f.Add(randomTOON(rng))
	}
	f.Add([]byte("a[2]{x,y}:\n  1,\"\\n\"\n  \xff,true\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		sameAsJSONText(t, in)
	})
}

// nestedTOON returns depth levels of objects (WithIndent(1)) around a
// key with an array of two numbers.
func nestedTOON(depth int) []byte {
	var b []byte
	for i := 0; i < depth-2; i++ {
		b = append(b, strings.Repeat(" ", i)+"k:\n"...)
	}
	return append(b, strings.Repeat(" ", depth-2)+"v[2]: 1,2\n"...)
}

// TestToJSONDeep checks deep documents: indentation past what streamJSON
// writes itself (maxIndentFast) and longer than the buffer.
func TestToJSONDeep(t *testing.T) {
	// 1100 levels of 64 spaces need 70,400 bytes of indentation per line.
	in := nestedTOON(1100)
	for _, ind := range []int{0, 2, 7, 64} {
		var got, want bytes.Buffer
		if err := ToJSON(&got, bytes.NewReader(in), WithIndent(1), WithJSONIndent(ind)); err != nil {
			t.Fatal(err)
		}
		if err := jsontextToJSON(&want, bytes.NewReader(in), WithIndent(1), WithJSONIndent(ind)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("indent %d: outputs differ (lengths %d, %d)", ind, got.Len(), want.Len())
		}
	}
}

// TestToJSONDeepest checks nesting at and beyond jsontext's limit, which
// ToJSON rejects as an input error even when WithMaxDepth allows more.
func TestToJSONDeepest(t *testing.T) {
	longtest.Skip(t, "documents of 10,000 levels and more (50 MB)")
	for _, depth := range []int{jsontextMaxDepth, jsontextMaxDepth + 1} {
		in := nestedTOON(depth)
		var out bytes.Buffer
		err := ToJSON(&out, bytes.NewReader(in), WithIndent(1), WithMaxDepth(2*jsontextMaxDepth))
		if depth <= jsontextMaxDepth {
			if err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
			if want := strings.Repeat(`{"k":`, depth-2) + `{"v":[1,2]}` + strings.Repeat("}", depth-2) + "\n"; out.String() != want {
				t.Fatalf("depth %d: wrong output", depth)
			}
			continue
		}
		var se *toon.SyntaxError
		// The array on the last line, depth-1, opens the level too many.
		if !errors.As(err, &se) || !errors.Is(err, toon.ErrDepth) || se.Line != depth-1 {
			t.Fatalf("depth %d: got error %.200v, want ErrDepth on line %d", depth, err, depth-1)
		}
	}
}

// failWriter accepts n bytes and then fails with err.
type failWriter struct {
	n   int
	err error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, w.err
}

// shortWriter takes at most half of each write and reports no error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

// TestToJSONWriteErrors checks that an error of w comes back as it is, and
// that a short write without an error is io.ErrShortWrite.
func TestToJSONWriteErrors(t *testing.T) {
	in := fromJSON(t, benchRows(5000))
	errDisk := errors.New("disk full")
	for _, strict := range []bool{true, false} {
		for _, n := range []int{0, 10, jsonBufSize + 5} {
			err := ToJSON(&failWriter{n: n, err: errDisk}, bytes.NewReader(in), WithStrict(strict))
			if err != errDisk {
				t.Fatalf("strict %v, fail after %d bytes: got %v", strict, n, err)
			}
		}
		if err := ToJSON(shortWriter{}, bytes.NewReader(in), WithStrict(strict)); err != io.ErrShortWrite {
			t.Fatalf("strict %v, short write: got %v", strict, err)
		}
	}
}

// BenchmarkToJSONText is BenchmarkToJSON through the jsontext path, the
// peer to compare with.
func BenchmarkToJSONText(b *testing.B) { benchToJSON(b, jsontextToJSON) }

// BenchmarkToJSONIndent and BenchmarkToJSONTextIndent compare the two with
// indented output (WithJSONIndent(2)).
func BenchmarkToJSONIndent(b *testing.B) { benchToJSON(b, ToJSON, WithJSONIndent(2)) }

func BenchmarkToJSONTextIndent(b *testing.B) { benchToJSON(b, jsontextToJSON, WithJSONIndent(2)) }

// benchToJSON converts the TOON of benchRows(20000) with conv.
func benchToJSON(b *testing.B, conv func(io.Writer, io.Reader, ...Option) error, opts ...Option) {
	var t bytes.Buffer
	if err := FromJSON(&t, bytes.NewReader(benchRows(20000))); err != nil {
		b.Fatal(err)
	}
	in := t.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := conv(io.Discard, bytes.NewReader(in), opts...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToJSONDecodeOnly reads the same TOON tokens without writing
// anything: the decoder's share, and so the floor, of BenchmarkToJSON.
func BenchmarkToJSONDecodeOnly(b *testing.B) { benchToJSON(b, drainTokens) }

// drainTokens reads every token of the document in r.
func drainTokens(_ io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithStrict(c.strict), toon.WithMaxDepth(c.maxDepth))
	for {
		if _, err := dec.Token(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// BenchmarkToJSONSmall and BenchmarkToJSONTextSmall convert a document of
// a few lines, where the fixed costs of a conversion show.
func BenchmarkToJSONSmall(b *testing.B) { benchSmall(b, ToJSON) }

func BenchmarkToJSONTextSmall(b *testing.B) { benchSmall(b, jsontextToJSON) }

func benchSmall(b *testing.B, conv func(io.Writer, io.Reader, ...Option) error) {
	const in = "id: 7\nname: Ada\ntags[2]: x,y\n"
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := conv(io.Discard, strings.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
