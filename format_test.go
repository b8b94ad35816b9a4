package toon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

func TestAppendStrQuoting(t *testing.T) {
	tests := []struct {
		in    string
		delim Delimiter
		want  string
	}{
		{"hello", Comma, `hello`},
		{"Ada_99", Comma, `Ada_99`},
		{"", Comma, `""`},
		{" ", Comma, `" "`},
		{" a", Comma, `" a"`},
		{"a ", Comma, `"a "`},
		{"a b", Comma, `a b`},
		{"\ta", Tab, `"\ta"`},
		{"true", Comma, `"true"`},
		{"false", Comma, `"false"`},
		{"null", Comma, `"null"`},
		{"True", Comma, `True`},
		{"nullx", Comma, `nullx`},
		{"42", Comma, `"42"`},
		{"-3.14", Comma, `"-3.14"`},
		{"1e-6", Comma, `"1e-6"`},
		{"1E+6", Comma, `"1E+6"`},
		{"05", Comma, `"05"`},
		{"+1", Comma, `"+1"`},
		{"+", Comma, `+`},
		{"1.", Comma, `1.`},
		{".5", Comma, `.5`},
		{"1e", Comma, `1e`},
		{"1.5.2", Comma, `1.5.2`},
		{"12abc", Comma, `12abc`},
		{"0x10", Comma, `0x10`},
		{"a:b", Comma, `"a:b"`},
		{`say "hi"`, Comma, `"say \"hi\""`},
		{`C:\path`, Comma, `"C:\\path"`},
		{"[5]", Comma, `"[5]"`},
		{"a]", Comma, `"a]"`},
		{"{k}", Comma, `"{k}"`},
		{"a}", Comma, `"a}"`},
		{"line1\nline2", Comma, `"line1\nline2"`},
		{"cr\rx", Comma, `"cr\rx"`},
		{"a\x04b", Comma, `"a\u0004b"`},
		{"x\x1fy", Comma, `"x\u001fy"`},
		{"\x00", Comma, `"\u0000"`},
		{"a\x7fb", Comma, "a\x7fb"}, // DEL is not a control of §7.1
		{"a,b", Comma, `"a,b"`},
		{"a,b", Pipe, `a,b`},
		{"a,b", Tab, `a,b`},
		{"a|b", Pipe, `"a|b"`},
		{"a|b", Comma, `a|b`},
		{"a\tb", Tab, `"a\tb"`},
		{"a\tb", Comma, `"a\tb"`},
		{"-", Comma, `"-"`},
		{"- item", Comma, `"- item"`},
		{"-x", Comma, `"-x"`},
		{"a-b", Comma, `a-b`},
		{"#", Comma, `"#"`},
		{"#hello", Comma, `"#hello"`},
		{"a#", Comma, `a#`},
		{"café", Comma, `café`},
		{"你好", Comma, `你好`},
		{"🚀", Comma, `🚀`},
		{"hello 👋 world", Comma, `hello 👋 world`},
		{"bad\xffbyte", Comma, "bad\uFFFDbyte"},
		{"bad\xff:", Comma, "\"bad\uFFFD:\""},
		{"\xed\xa0\x80", Comma, "\uFFFD"}, // an encoded surrogate is not UTF-8
		{"a long string with no special bytes at all, but a comma", Pipe, `a long string with no special bytes at all, but a comma`},
	}
	for _, tt := range tests {
		got := string(appendStr(nil, tt.in, quoteMask(tt.delim)))
		if got != tt.want {
			t.Errorf("appendStr(%q, %q) = %s, want %s", tt.in, tt.delim, got, tt.want)
		}
	}
}

func TestNumericLikeMatchesPattern(t *testing.T) {
	// The §7.2 pattern, checked by a straightforward reference.
	ref := func(s string) bool {
		i := 0
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		digits := func() int {
			j := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			return i - j
		}
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			if digits() == 0 {
				return false
			}
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			i++
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			if digits() == 0 {
				return false
			}
		}
		return i == len(s)
	}
	alphabet := "0123456789+-.eEx"
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 200000; n++ {
		b := make([]byte, 1+r.Intn(7))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		s := string(b)
		if s[len(s)-1] == ' ' {
			continue
		}
		if got, want := numericLike(s), ref(s); got != want {
			t.Fatalf("numericLike(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestAppendKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"id", `id`},
		{"_x", `_x`},
		{"user.name", `user.name`},
		{"a1_b.c", `a1_b.c`},
		{"__proto__", `__proto__`},
		{"", `""`},
		{"1a", `"1a"`},
		{"123", `"123"`},
		{".a", `".a"`},
		{"my-key", `"my-key"`},
		{"full name", `"full name"`},
		{"order:id", `"order:id"`},
		{"[index]", `"[index]"`},
		{"{key}", `"{key}"`},
		{"a,b", `"a,b"`},
		{"a|b", `"a|b"`},
		{"-lead", `"-lead"`},
		{" a ", `" a "`},
		{"line\nbreak", `"line\nbreak"`},
		{"tab\there", `"tab\there"`},
		{`he said "hi"`, `"he said \"hi\""`},
		{"a\x04b", `"a\u0004b"`},
		{"x\x1fy", `"x\u001fy"`},
		{"café", `"café"`},
		{"bad\xff", "\"bad\uFFFD\""},
	}
	for _, tt := range tests {
		if got := string(appendKey(nil, tt.in)); got != tt.want {
			t.Errorf("appendKey(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-7, "-7"},
		{3.14, "3.14"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"},
		{1e6, "1000000"},
		{1e-6, "0.000001"},
		{1.5e-6, "0.0000015"},
		{9.99e-7, "9.99e-7"},
		{1e-7, "1e-7"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{1.5e300, "1.5e+300"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740991, "9007199254740991"},
		{9007199254740993, "9007199254740992"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	}
	for _, tt := range tests {
		if got := string(appendFloat(nil, tt.f, 64)); got != tt.want {
			t.Errorf("appendFloat(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
	if got := string(appendFloat(nil, float64(float32(0.1)), 32)); got != "0.1" {
		t.Errorf("float32 0.1 = %s", got)
	}
	if got := string(appendFloat(nil, float64(float32(1e-7)), 32)); got != "1e-7" {
		t.Errorf("float32 1e-7 = %s", got)
	}
}

// TestAppendFloatRoundTrip checks, over random bit patterns and random
// short decimals, that the output is a §4 number, reads back as the same
// float64, is plain decimal exactly inside the canonical range, and has no
// trailing fractional zeros, leading zeros or padded exponents.
func TestAppendFloatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	check := func(f float64) {
		s := appendFloat(nil, f, 64)
		if !isNumber(s) {
			t.Fatalf("appendFloat(%v) = %q is not a number", f, s)
		}
		back, err := strconv.ParseFloat(string(s), 64)
		if err != nil || back != f && !(f == 0 && back == 0) {
			t.Fatalf("appendFloat(%v) = %q reads back as %v", f, s, back)
		}
		a := math.Abs(f)
		plain := !bytes.ContainsAny(s, "eE")
		if inRange := f == 0 || a >= 1e-6 && a < 1e21; plain != inRange {
			t.Fatalf("appendFloat(%v) = %q: plain=%v in range=%v", f, s, plain, inRange)
		}
		if i := bytes.IndexByte(s, '.'); i >= 0 && plain && s[len(s)-1] == '0' {
			t.Fatalf("appendFloat(%v) = %q has trailing zeros", f, s)
		}
		if i := bytes.IndexByte(s, 'e'); i >= 0 && (s[i+1] != '+' && s[i+1] != '-' || s[i+2] == '0') {
			t.Fatalf("appendFloat(%v) = %q: exponent not signed or padded", f, s)
		}
		// Shortest: the same significant digits as strconv's shortest form.
		if got, want := sigDigits(string(s)), sigDigits(strconv.FormatFloat(f, 'e', -1, 64)); got != want {
			t.Fatalf("appendFloat(%v) = %q: digits %s, shortest are %s", f, s, got, want)
		}
	}
	for n := 0; n < 200000; n++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		check(f)
	}
	for n := 0; n < 200000; n++ {
		f := float64(r.Int63n(1e9)) / math.Pow10(r.Intn(12))
		if r.Intn(2) == 0 {
			f = -f
		}
		check(f)
	}
}

// sigDigits returns the significant digits of number text.
func sigDigits(s string) string {
	s = strings.TrimPrefix(s, "-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.Trim(strings.ReplaceAll(s, ".", ""), "0")
}

func TestAppendNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"0.0", "0"},
		{"-0.000", "0"},
		{"0e10", "0"},
		{"-0e-10", "0"},
		{"42", "42"},
		{"-7", "-7"},
		{"1.5000", "1.5"},
		{"1.0", "1"},
		{"-1E+03", "-1000"},
		{"1e6", "1000000"},
		{"1e-6", "0.000001"},
		{"0.000001", "0.000001"},
		{"1.5e-6", "0.0000015"},
		{"1e-7", "1e-7"},
		{"0.0000001", "1e-7"},
		{"12.5e-8", "1.25e-7"},
		{"100000000000000000000", "100000000000000000000"},
		{"1e20", "100000000000000000000"},
		{"999999999999999999999", "999999999999999999999"},
		{"1e21", "1e+21"},
		{"1000000000000000000000", "1e+21"},
		{"12345678901234567890123", "1.2345678901234567890123e+22"},
		{"9007199254740993", "9007199254740993"},
		{"18446744073709551616", "18446744073709551616"},
		{"3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"},
		{"0.30000000000000004", "0.30000000000000004"},
		{"123.456e1", "1234.56"},
		{"123.456e-2", "1.23456"},
		{"123.456e3", "123456"},
		{"123.456E5", "12345600"},
		{"0.00123", "0.00123"},
		{"-0.5", "-0.5"},
		{"1e+100", "1e+100"},
		{"1E-100", "1e-100"},
		{"2.50e-400", "2.5e-400"},
		{"1e999999999999999", "1e+999999999999999"},
		{"1e9999999999999999", "1e+9999999999999999"},
		{"-4.20e-99999999999999999999", "-4.2e-99999999999999999999"},
	}
	for _, tt := range tests {
		got, ok := appendNumber([]byte("x"), []byte(tt.in))
		if !ok || string(got) != "x"+tt.want {
			t.Errorf("appendNumber(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{"", "-", "05", "-05", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "1_000", " 1"} {
		got, ok := appendNumber([]byte("x"), []byte(bad))
		if ok || string(got) != "x" {
			t.Errorf("appendNumber(%q) = %q, %v; want failure", bad, got, ok)
		}
	}
}

// TestAppendNumberExact checks against math/big that canonicalisation keeps
// the exact value, over random digit strings and exponents.
func TestAppendNumberExact(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.Intn(10))
		}
		return string(b)
	}
	for n := 0; n < 50000; n++ {
		s := digits(1 + r.Intn(30))
		if len(s) > 1 && s[0] == '0' {
			s = "1" + s[1:]
		}
		if r.Intn(2) == 0 {
			s += "." + digits(1+r.Intn(20))
		}
		if r.Intn(2) == 0 {
			s += "e" + strconv.Itoa(r.Intn(60)-30)
		}
		if r.Intn(2) == 0 {
			s = "-" + s
		}
		out, ok := appendNumber(nil, []byte(s))
		if !ok || !isNumber(out) {
			t.Fatalf("appendNumber(%q) = %q, %v", s, out, ok)
		}
		a, _ := new(big.Rat).SetString(s)
		b, _ := new(big.Rat).SetString(string(out))
		if a.Cmp(b) != 0 {
			t.Fatalf("appendNumber(%q) = %q changes the value", s, out)
		}
		// Idempotent, and plain exactly within the canonical range.
		again, _ := appendNumber(nil, out)
		if string(again) != string(out) {
			t.Fatalf("appendNumber not idempotent: %q -> %q -> %q", s, out, again)
		}
		abs := new(big.Rat).Abs(a)
		inRange := abs.Sign() == 0 || abs.Cmp(big.NewRat(1, 1000000)) >= 0 && abs.Cmp(new(big.Rat).SetFloat64(1e21)) < 0
		if plain := !bytes.ContainsRune(out, 'e'); plain != inRange {
			t.Fatalf("appendNumber(%q) = %q: plain=%v in range=%v", s, out, plain, inRange)
		}
	}
}

// failWriter fails after accepting limit bytes; short makes it report a
// short write without an error instead.
type failWriter struct {
	limit  int
	short  bool
	buf    bytes.Buffer
	writes int
}

var errBoom = errors.New("boom")

func (w *failWriter) Write(p []byte) (int, error) {
	w.writes++
	room := w.limit - w.buf.Len()
	if len(p) <= room {
		return w.buf.Write(p)
	}
	w.buf.Write(p[:room])
	if w.short {
		return room, nil
	}
	return room, errBoom
}

func bigValue(rows int) []any {
	a := make([]any, rows)
	for i := range a {
		a[i] = map[string]any{"id": i, "name": "row " + strconv.Itoa(i), "ok": i%2 == 0}
	}
	return a
}

func TestStickyWriteError(t *testing.T) {
	for _, short := range []bool{false, true} {
		w := &failWriter{limit: 100000, short: short}
		enc := NewEncoder(w)
		err := enc.Encode(map[string]any{"rows": bigValue(20000)})
		want := errBoom
		if short {
			want = io.ErrShortWrite
		}
		if !errors.Is(err, want) {
			t.Fatalf("short=%v: Encode error = %v, want %v", short, err, want)
		}
		writes := w.writes
		for _, e2 := range []error{enc.Flush(), enc.Close(), enc.WriteToken(NullToken()), enc.BeginTable("t", 1, "a"), enc.WriteRow(Int(1)), enc.EndTable(), enc.Encode(1)} {
			if !errors.Is(e2, want) {
				t.Fatalf("short=%v: later call returned %v, want the sticky %v", short, e2, want)
			}
		}
		if w.writes != writes {
			t.Fatalf("writes after the error: %d", w.writes-writes)
		}
	}
}

// chunkWriter records the size of every write.
type chunkWriter struct {
	sizes []int
	buf   bytes.Buffer
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.buf.Write(p)
}

// TestFlushInChunks checks that Encode flushes a large document in chunks
// of about flushSize: a generic one, and lists of arrays (writeInlineItems)
// whose items are Go arrays, or slices most of them nil.
func TestFlushInChunks(t *testing.T) {
	sparse := make([][]int, 100000)
	for i := 0; i < len(sparse); i += 1000 {
		sparse[i] = []int{i, -i}
	}
	for name, v := range map[string]any{
		"generic": map[string]any{"rows": bigValue(50000)},
		"points":  make([][2]float64, 50000),
		"sparse":  sparse,
	} {
		want, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		w := &chunkWriter{}
		if err := NewEncoder(w).Encode(v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.buf.Bytes(), want) {
			t.Fatalf("%s: Encode and Marshal differ", name)
		}
		if len(w.sizes) < len(want)/(2*flushSize) {
			t.Fatalf("%s: %d bytes in %d writes", name, len(want), len(w.sizes))
		}
		for _, n := range w.sizes {
			if n > flushSize+1024 {
				t.Fatalf("%s: a write of %d bytes: output is not flushed in chunks", name, n)
			}
		}
	}
}

func TestNilWriter(t *testing.T) {
	if err := NewEncoder(nil).Encode(map[string]any{"a": 1}); err == nil {
		t.Fatal("no error for a nil io.Writer")
	}
}

// TestAppendFloatMatchesStrconv checks the short-decimal fast path: inside
// the canonical range the output must be exactly strconv's shortest 'f'
// text, for short decimals (the fast path), random doubles (mostly the
// fallback) and the values around them.
func TestAppendFloatMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	check := func(f float64) {
		a := math.Abs(f)
		if !(a >= 1e-6 && a < 1e21) {
			return
		}
		got := appendFloat(nil, f, 64)
		want := strconv.AppendFloat(nil, f, 'f', -1, 64)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendFloat(%v) = %s, strconv gives %s", f, got, want)
		}
	}
	for n := 0; n < 1000000; n++ {
		var f float64
		switch n % 4 {
		case 0: // a decimal with up to 15 significant digits
			f = float64(r.Int63n(int64(math.Pow10(1+r.Intn(15))))) / math.Pow10(r.Intn(22))
		case 1:
			f = math.Float64frombits(r.Uint64())
		case 2: // neighbours of short decimals
			f = math.Nextafter(float64(r.Intn(1e6))/math.Pow10(r.Intn(8)), math.Inf(1-2*r.Intn(2)))
		case 3:
			f = r.Float64() * math.Pow10(r.Intn(36)-15)
		}
		if r.Intn(2) == 0 {
			f = -f
		}
		check(f)
	}
	for _, f := range []float64{1e-6, 1e15 - 1, 1e15, 999999999999999.9, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.005, 2.675, 123.45, 0.000123, 5e-6, 9.999999999999999e14} {
		check(f)
		check(math.Nextafter(f, 0))
		check(math.Nextafter(f, 2*f))
	}
}

// refAppendStr is the straightforward reading of §7.1, §7.2 and §11.1
// that appendStr must match byte for byte.
func refAppendStr(s string, d Delimiter) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	quote := s == "" || s == "true" || s == "false" || s == "null" ||
		strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") ||
		strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") ||
		strings.HasPrefix(s, "-") || strings.HasPrefix(s, "#") ||
		numericLikeRE.MatchString(s) ||
		strings.ContainsAny(s, ":\"\\[]{}") || strings.ContainsRune(s, rune(d))
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			quote = true
		}
	}
	if !quote {
		return s
	}
	return refQuoted(s)
}

// refQuoted is s in double quotes with the escapes of §7.1, a byte at a
// time.
func refQuoted(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '"':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c < 0x20:
			fmt.Fprintf(&sb, `\u%04x`, c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

var numericLikeRE = regexp.MustCompile(`(?i)^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$`)

// TestAppendStrEveryByte puts every byte value at every position of
// strings of length 1 to 40 (on fillers that are plain, numeric-like and
// quoted for other reasons) and compares appendStr with refAppendStr for
// every delimiter. It covers the word tests of special and strFlags in
// every lane, the overlapping first and last words, and the short paths.
func TestAppendStrEveryByte(t *testing.T) {
	fillers := []byte{'a', '7', ':', ' ', 0xc3}
	buf := make([]byte, 0, 256)
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		mask := quoteMask(d)
		for _, fill := range fillers {
			for n := 0; n <= 40; n++ {
				if !longtest.On() && n > 9 && n%16 > 1 && n%16 != 15 && n != 40 {
					continue // the short form: lengths up to 9 and around 16 and 32
				}
				s := bytes.Repeat([]byte{fill}, n)
				if fill == 0xc3 { // valid two-byte UTF-8 (é) with room for one byte
					s = bytes.Repeat([]byte("é"), n/2)
				}
				for i := 0; i < len(s); i++ {
					old := s[i]
					for c := 0; c < 256; c++ {
						s[i] = byte(c)
						str := string(s)
						got := appendStr(buf[:0], str, mask)
						if want := refAppendStr(str, d); string(got) != want {
							t.Fatalf("appendStr(%q, %q) = %q, want %q", str, d, got, want)
						}
					}
					s[i] = old
				}
			}
		}
	}
}

// TestAppendStrRandom compares appendStr with refAppendStr on random
// strings over an alphabet of the bytes that matter, and checks that it
// appends to what the buffer holds, with or without spare capacity.
func TestAppendStrRandom(t *testing.T) {
	alphabet := []string{"a", "Z", "0", "9", "+", "-", ".", "e", "E", "#", " ", "\t", "\n", "\r", "\x00", "\x1f", "\x7f",
		":", ",", "|", "\"", "\\", "[", "]", "{", "}", "é", "🚀", "\xff", "\xc3", "true", "null", "false", "~", "@", "`", ";", "<", "^"}
	r := rand.New(rand.NewSource(7))
	for k := 0; k < 300000; k++ {
		s := randomJoin(r, alphabet, 12)
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		got := appendStr(randomPrefix(r, 60), s, quoteMask(d))
		if want := "xy" + refAppendStr(s, d); string(got) != want {
			t.Fatalf("appendStr(%q, %q) = %q, want %q", s, d, got, want)
		}
	}
}

// randomJoin returns up to max-1 of parts, picked at random, end to end.
func randomJoin(r *rand.Rand, parts []string, max int) string {
	var sb strings.Builder
	for n := r.Intn(max); n > 0; n-- {
		sb.WriteString(parts[r.Intn(len(parts))])
	}
	return sb.String()
}

// randomPrefix returns "xy" in a buffer of its own length, or, half the
// time, with up to room-1 bytes of spare capacity.
func randomPrefix(r *rand.Rand, room int) []byte {
	if r.Intn(2) == 0 {
		return append(make([]byte, 0, 2+r.Intn(room)), "xy"...)
	}
	return []byte("xy")
}

// TestAppendStrEscapeRoom compares appendStr with refAppendStr on long
// strings dense with escapes, the six-byte ones (\u00XX) included, which
// take more room than appendEscaped makes at first: runs of control
// bytes, quotes and newlines between plain text, appended to buffers with
// no spare capacity and with some.
func TestAppendStrEscapeRoom(t *testing.T) {
	parts := []string{"\x01", "\x1f\x02\x03", "\"", "\n\n", "\\", "ab", "plain text ", "é", "\t"}
	r := rand.New(rand.NewSource(3))
	for k := 0; k < 20000; k++ {
		s := randomJoin(r, parts, 120)
		got := appendStr(randomPrefix(r, 3*len(s)+2), s, quoteMask(Comma))
		if want := "xy" + refAppendStr(s, Comma); string(got) != want {
			t.Fatalf("appendStr(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzAppendStr compares appendStr, whose long strings with escapes go
// through appendEscaped's word loop, with refAppendStr, a byte at a time,
// appending after a prefix with spare capacity from none to some. It also
// checks the high bits appendEscaped reports against the bytes of s.
func FuzzAppendStr(f *testing.F) {
	for _, s := range []string{"", "a", "Hi team,\n\nplain text \"quoted\" then\ttab\\", "\x00\x01\x1f", "é\n", "\xff\n\xc3",
		"0123456789abcdef\n0123456789abcdef\"", "exactly-16-bytes", "- a, b: [c] {d} | e"} {
		f.Add(s, uint8(0), uint8(0))
		f.Add(s, uint8(1), uint8(40))
	}
	f.Fuzz(func(t *testing.T, s string, delim, room uint8) {
		d := []Delimiter{Comma, Tab, Pipe}[delim%3]
		prefix := append(make([]byte, 0, 2+int(room)), "xy"...)
		got := appendStr(prefix, s, quoteMask(d))
		if want := "xy" + refAppendStr(s, d); string(got) != want {
			t.Fatalf("appendStr(%q, %q) = %q, want %q", s, d, got, want)
		}
		if !utf8.ValidString(s) {
			return
		}
		got, high := appendEscaped(prefix[:2], s)
		want := "xy" + refQuoted(s)
		ascii := utf8.RuneCountInString(s) == len(s) // s is valid UTF-8
		if string(got) != want || (high&hi8 == 0) != ascii {
			t.Fatalf("appendEscaped(%q) = %q, high %#x; want %q, ASCII %v", s, got, high, want, ascii)
		}
	})
}

// TestDigits8 checks the lane divisions digits8 rests on, for every value
// they meet, digits8 itself at and around every power of ten and on
// random values, and digits4 on all its values.
func TestDigits8(t *testing.T) {
	for u := uint64(0); u < 1e8; u++ {
		if u*109951163>>40 != u/1e4 {
			t.Fatalf("%d*109951163>>40 != %d/1e4", u, u)
		}
	}
	for x := uint64(0); x < 1e4; x++ {
		if x*10486>>20 != x/100 {
			t.Fatalf("%d*10486>>20 != %d/100", x, x)
		}
	}
	for x := uint64(0); x < 100; x++ {
		if x*103>>10 != x/10 {
			t.Fatalf("%d*103>>10 != %d/10", x, x)
		}
	}
	check := func(u uint64) {
		d := digits8(u) + '0'*lo8
		var got [8]byte
		for i := range got {
			got[i] = byte(d >> (8 * i))
		}
		if want := strconv.FormatUint(u+1e8, 10)[1:]; string(got[:]) != want {
			t.Fatalf("digits8(%d) = %q, want %q", u, got, want)
		}
	}
	for p := uint64(1); p < 1e8; p *= 10 {
		for u := p - min(p, 3); u < p+3; u++ {
			check(u)
		}
	}
	r := rand.New(rand.NewSource(8))
	for i := 0; i < 1000000; i++ {
		check(uint64(r.Int63n(1e8)))
	}
	// digits4, on every value it takes: the same digits, and nothing
	// above the low four bytes.
	for u := uint64(0); u < 1e4; u++ {
		if got, want := digits4(u), digits8(u)>>32; got != want {
			t.Fatalf("digits4(%d) = %#x, want %#x", u, got, want)
		}
	}
}

// TestDecLen checks decLen against strconv at every boundary its two
// steps have: each power of ten and its neighbours (where the comparison
// with pow10u decides) and each power of two and its neighbours (where
// the bit length, and so the estimate, changes).
func TestDecLen(t *testing.T) {
	check := func(u uint64) {
		if got, want := decLen(u), len(strconv.FormatUint(u, 10)); got != want {
			t.Fatalf("decLen(%d) = %d, want %d", u, got, want)
		}
	}
	for p := uint64(1); ; p *= 10 {
		for u := p - min(p, 2); u <= p+2; u++ {
			check(u)
		}
		if p == 1e19 {
			break
		}
	}
	for k := 0; k < 64; k++ {
		p := uint64(1) << k
		for u := p - min(p, 2); u <= p+2; u++ {
			check(u)
		}
	}
	check(math.MaxUint64)
}

// TestAppendIntUint compares appendInt and appendUint with strconv at the
// edges of every digit count and on random values of every size, appending
// to buffers with and without spare capacity.
func TestAppendIntUint(t *testing.T) {
	check := func(u uint64) {
		for _, b := range [][]byte{nil, []byte("x"), append(make([]byte, 0, 64), 'x')} {
			pre := string(b)
			if got, want := string(appendUint(b, u)), pre+strconv.FormatUint(u, 10); got != want {
				t.Fatalf("appendUint(%q, %d) = %q", pre, u, got)
			}
			i := int64(u)
			if got, want := string(appendInt(b, i)), pre+strconv.FormatInt(i, 10); got != want {
				t.Fatalf("appendInt(%q, %d) = %q", pre, i, got)
			}
		}
	}
	for _, u := range []uint64{0, 1, 9, math.MaxInt64, 1 << 63, math.MaxUint64, math.MaxUint64 - 1} {
		check(u)
		check(-u)
	}
	for p := uint64(1); p <= 1e19; p *= 10 {
		for u := p - min(p, 2); u < p+2; u++ {
			check(u)
			check(-u)
		}
		if p == 1e19 {
			break
		}
	}
	r := rand.New(rand.NewSource(9))
	for i := 0; i < 500000; i++ {
		check(r.Uint64() >> r.Intn(64))
	}
}

// TestAppendFloatShortPaths aims at the plain layouts of putFloat8 and
// putDigits (a point after the integer part, a whole number, 0.000ddd)
// and their edges, appended to slices of every kind, against strconv.
func TestAppendFloatShortPaths(t *testing.T) {
	check := func(f float64) {
		a := math.Abs(f)
		if !(a >= 1e-6 && a < 1e21) {
			return
		}
		for _, b := range [][]byte{nil, []byte("x"), append(make([]byte, 0, 64), 'x')} {
			pre := string(b)
			got := appendFloat(b, f, 64)
			if want := pre + strconv.FormatFloat(f, 'f', -1, 64); string(got) != want {
				t.Fatalf("appendFloat(%q, %v) = %q, want %q", pre, f, got, want)
			}
		}
	}
	r := rand.New(rand.NewSource(10))
	for k := 0; k <= 21; k++ {
		for i := 0; i < 20000; i++ {
			m := r.Int63n(int64(math.Pow10(1 + r.Intn(15))))
			f := float64(m) / math.Pow10(k)
			check(f)
			check(-f)
			check(math.Nextafter(f, 0))
			check(math.Nextafter(f, math.Inf(1)))
		}
	}
	for _, f := range []float64{1e8, 1e8 - 1, 1e8 - 0.5, 99999999.99999999, 99999999.9999999, 1e8 + 0.5, 12345678.12345678,
		0.1, 0.12345678, 0.123456789, 1.00000001, 1e-6, 1.5e-6, 0.000001234567890123, 999999999999999, 999999999999999.9,
		123456789012345, 1e14, 1e15 - 0.125, 5e-324, 0.30000000000000004} {
		check(f)
		check(-f)
	}
}

// refFloat is the canonical text of §2 for a float64, made by strconv's
// general formatting alone: the reference the fast float paths must match.
func refFloat(f float64) string { return refFloatBits(f, 64) }

// refFloatBits is refFloat for a float of the given bits, 32 or 64.
func refFloatBits(f float64, bits int) string {
	switch a := math.Abs(f); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "null"
	case f == 0:
		return "0"
	case a >= 1e-6 && a < 1e21:
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	s := strconv.FormatFloat(f, 'e', -1, bits)
	if i := strings.IndexByte(s, 'e'); s[i+2] == '0' { // e-07 -> e-7
		s = s[:i+2] + s[i+3:]
	}
	return s
}

// floatCases returns float64s aimed at the fast float paths and their
// edges: -0, NaN and the infinities, both ends of putFloat8's range (1e-6
// and 1e7) and of the plain range (1e21), decimals with 7, 8 and 9
// fraction digits, decimals below 1e4 with up to 4 and with 5, the
// neighbours of all of these, and random bit patterns and decimals of
// every scale.
func floatCases(r *rand.Rand) []float64 {
	fs := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-6, 1e-7, 9.99999e-7, 1e7, 1e7 - 1e-8, 9999999.99999999,
		9999999.999999999, 1e7 + 1, 1e21, 1e21 - 65536, 1e15, 1e16, 0.1, 0.2, 0.1 + 0.2, 0.12345678, 0.123456789, 1.00000001,
		1.000000001, 0.00000123, 0.0000012345678, 12345.6789, 1234567.12345678, 5e-324, math.MaxFloat64, 2.5, 1e-5 + 1e-13,
		1e-4, 5e-5, 1.5e-4, 0.1234, 0.12345, 123.45, 9999.9999, 9999.99995, 9999.99999, 1e4, 1e4 - 1e-4, 1e4 + 1e-4, 9999, 1000.0001}
	for i := 0; i < 24000; i++ {
		switch i % 6 {
		case 5: // below 1e4 with up to 4 fraction digits, and just past them
			f := float64(r.Int63n(1e8)) / 1e4
			if r.Intn(4) == 0 {
				f = float64(r.Int63n(1e9)) / 1e5
			}
			fs = append(fs, f)
		case 0: // up to 8 fraction digits, under 1e7
			fs = append(fs, float64(r.Int63n(1e15))/1e8/math.Pow10(r.Intn(8)))
		case 1: // an integer part below 1e7 and k fraction digits
			k := r.Intn(10)
			fs = append(fs, float64(r.Int63n(int64(1e7*math.Pow10(k))))/math.Pow10(k))
		case 2:
			fs = append(fs, math.Float64frombits(r.Uint64()))
		case 3:
			fs = append(fs, r.Float64()*math.Pow10(r.Intn(30)-10))
		case 4: // integers of every size
			fs = append(fs, float64(r.Int63()>>r.Intn(63)))
		}
	}
	for _, f := range fs[:len(fs):len(fs)] {
		fs = append(fs, -f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)))
	}
	return fs
}

// TestPutFloat8MatchesStrconv compares the fixed-scale float path, alone
// and through appendFloat, with strconv's general path on floatCases, and
// checks that it declines exactly the floats it cannot write: those
// outside [1e-6, 1e7) and those whose shortest text has more than 8
// fraction digits.
func TestPutFloat8MatchesStrconv(t *testing.T) {
	var buf [numRoom]byte
	for _, f := range floatCases(rand.New(rand.NewSource(11))) {
		want := refFloat(f)
		if got := string(appendFloat(nil, f, 64)); got != want {
			t.Fatalf("appendFloat(%v) = %s, want %s", f, got, want)
		}
		a := math.Abs(f)
		n := -1
		if a >= 1e-6 && a < 1e7 {
			n = putFloat8(mem.Of(&buf), f, a)
		}
		frac := 0
		if i := strings.IndexByte(want, '.'); i >= 0 {
			frac = len(want) - i - 1
		}
		if fits := a >= 1e-6 && a < 1e7 && frac <= 8; fits != (n >= 0) {
			t.Fatalf("putFloat8(%v) = %d, want it to take the float: %v", f, n, fits)
		}
		if n >= 0 && string(buf[:n]) != want {
			t.Fatalf("putFloat8(%v) = %s, want %s", f, buf[:n], want)
		}
	}
}

// TestFloatRangeBits checks the high words putCellsGo tests putFloat8's
// range on: those of 1e-6 and 1e7, the low word of 1e7 zero, so that the
// floats it hands putFloat8 are those from 1e-6 up to but not including
// 1e7 and those below 1e-6 with its high word, which putFloat8 must
// decline: both ends of that sliver and random floats in it.
func TestFloatRangeBits(t *testing.T) {
	b6, b7 := math.Float64bits(1e-6), math.Float64bits(1e7)
	if hi1em6 != b6>>32 || hi1e7 != b7>>32 || uint32(b7) != 0 {
		t.Fatalf("hi1em6 = %#x, hi1e7 = %#x, want %#x, %#x (and 1e7's low word 0)", hi1em6, hi1e7, b6>>32, b7>>32)
	}
	var buf [numRoom]byte
	r := rand.New(rand.NewSource(12))
	lo := uint64(hi1em6) << 32
	for i := 0; i < 100000; i++ {
		u := lo + uint64(r.Int63n(int64(b6-lo)))
		switch i {
		case 0:
			u = lo
		case 1:
			u = b6 - 1
		}
		for _, f := range []float64{math.Float64frombits(u), -math.Float64frombits(u)} {
			if n := putFloat8(mem.Of(&buf), f, math.Abs(f)); n >= 0 {
				t.Fatalf("putFloat8(%v) = %s, want it declined", f, buf[:n])
			}
		}
	}
}

// TestEscIndex checks escIndex, the word-at-a-time search of the escape
// loop, against charClass byte by byte: every byte value at every
// position of strings of 0 to 24 bytes, on fillers ASCII and not, with a
// second byte that needs an escape after it or not.
func TestEscIndex(t *testing.T) {
	ref := func(s string) int {
		for i := 0; i < len(s); i++ {
			if charClass[s[i]]&clsEscape != 0 {
				return i
			}
		}
		return len(s)
	}
	for _, f := range []byte{'a', ' ', 0xc3, 0xff, '!', '#', '[', 0x7f} {
		for n := 0; n <= 24; n++ {
			for i := 0; i < n; i++ {
				for c := 0; c < 256; c++ {
					for _, tail := range []int{-1, 0, 1, 7} {
						b := bytes.Repeat([]byte{f}, n)
						b[i] = byte(c)
						if j := i + tail; tail >= 0 && j < n && j > i {
							b[j] = '\n'
						}
						if got, want := escIndex(string(b)), ref(string(b)); got != want {
							t.Fatalf("escIndex(%q) = %d, want %d", b, got, want)
						}
					}
				}
			}
		}
	}
}

// TestShortestDigits checks putFloatRest, the path of every float64 that
// putFloat8 does not take (shortestDigits and putDigits, putFloatScaled,
// and the whole numbers below 2^53), against strconv (refFloat): on random bit patterns
// of every exponent, subnormals included (which it leaves to strconv), on
// decimals of 1 to 17 digits at every scale and their neighbours, on the
// powers of ten and of two and their neighbours, and on the edges of the
// plain range (1e-6, 1e-7, 1e21). Each text is written into numRoom bytes
// followed by a guard, which must stay as it was.
func TestShortestDigits(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	var buf [numRoom + 16]byte
	check := func(f float64) {
		t.Helper()
		for i := range buf {
			buf[i] = 0xAA
		}
		want := refFloat(f)
		n := putFloatRest(mem.Of(&buf), f)
		if n < 0 {
			if a := math.Abs(f); a >= 0x1p-1022 && a <= math.MaxFloat64 || f == 0 {
				t.Fatalf("putFloatRest(%v) left it", f)
			}
		} else if got := string(buf[:n]); got != want {
			t.Fatalf("putFloatRest(%v) = %s, want %s", f, got, want)
		}
		for _, c := range buf[numRoom:] {
			if c != 0xAA {
				t.Fatalf("putFloatRest(%v) wrote past its room: %q", f, buf[numRoom:])
			}
		}
		if got := string(appendFloatRest(nil, f)); got != want {
			t.Fatalf("appendFloatRest(%v) = %s, want %s", f, got, want)
		}
		if got := string(appendFloat([]byte("x"), f, 64)); got != "x"+want {
			t.Fatalf("appendFloat(%v) = %s, want x%s", f, got, want)
		}
	}
	count := longtest.Size(t, 300000, 3000000)
	for i := 0; i < count; i++ {
		check(math.Float64frombits(r.Uint64()))
		// A decimal of 1 to 17 digits, at any scale.
		digits := 1 + r.Intn(17)
		m := r.Int63n(int64(pow10u[digits]))
		s := strconv.FormatInt(m, 10) + "e" + strconv.Itoa(r.Intn(650)-340)
		g, _ := strconv.ParseFloat(s, 64)
		check(g)
		check(-g)
		check(math.Nextafter(g, 0))
		check(math.Nextafter(g, math.Inf(1)))
		// Whole numbers around 2^53.
		check(float64(r.Int63() >> r.Intn(20)))
	}
	// putFloatScaled takes every decimal of at most 15 digits from 10^7 to
	// 10^15 (and putFloatRest writes strconv's text of it, above).
	var one [numRoom]byte
	for i := 0; i < count/10; i++ {
		digits := 8 + r.Intn(8)
		m := r.Int63n(int64(pow10u[digits]))
		g, _ := strconv.ParseFloat(strconv.FormatInt(m, 10)+"e-"+strconv.Itoa(r.Intn(digits-7)), 64)
		if g < 1e7 || g >= 1e15 {
			continue
		}
		if putFloatScaled(mem.Of(&one), g) < 0 {
			t.Fatalf("putFloatScaled(%v) left it", g)
		}
		check(g)
	}
	for e := -325; e <= 309; e++ {
		f := math.Pow10(e)
		check(f)
		check(math.Nextafter(f, 0))
		check(math.Nextafter(f, math.Inf(1)))
	}
	for e := -1075; e <= 1024; e++ {
		f := math.Ldexp(1, e)
		check(f)
		check(-f)
		check(math.Nextafter(f, 0))
		check(math.Nextafter(f, math.Inf(1)))
	}
	for _, f := range []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		1e-6, 1e-7, 9.999999999999999e-7, 1e21, 999999999999999900000, 1e21 - 65536, 1e22, 1e23,
		5e-324, 1e-323, 0x1p-1022, math.MaxFloat64, math.SmallestNonzeroFloat64, 1 << 53, 1<<53 + 2, 1<<53 - 1,
		0.1 + 0.2, 1.6438799976812822e15, 3.7e-9, 123456789012345680, 2.2250738585072014e-308} {
		check(f)
		check(-f)
		check(math.Nextafter(f, 0))
		check(math.Nextafter(f, math.Inf(1)))
	}
}

// TestPow10Table checks pow10Table against its definition, with math/big:
// g = floor(10^-k·2^-r) + 1, r = floorLog2Pow10(-k) - 125, between 2^125
// and 2^126, for each k from floorLog10Pow2 of the least normal exponent
// to that of the greatest.
func TestPow10Table(t *testing.T) {
	if lo, hi := floorLog10Pow2(-1074), floorLog10Pow2(971); pow10Min != lo || pow10Min+len(pow10Table)-1 != hi {
		t.Fatalf("pow10Table covers k from %d to %d, want %d to %d", pow10Min, pow10Min+len(pow10Table)-1, lo, hi)
	}
	for i, g := range pow10Table {
		k := pow10Min + i
		r := floorLog2Pow10(-k) - 125
		num, den := big.NewInt(1), big.NewInt(1)
		if k <= 0 {
			num.Exp(big.NewInt(10), big.NewInt(int64(-k)), nil)
		} else {
			den.Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		}
		if r <= 0 {
			num.Lsh(num, uint(-r))
		} else {
			den.Lsh(den, uint(r))
		}
		want := new(big.Int).Quo(num, den)
		want.Add(want, big.NewInt(1))
		got := new(big.Int).Lsh(new(big.Int).SetUint64(g[0]), 63)
		got.Or(got, new(big.Int).SetUint64(g[1]))
		if got.Cmp(want) != 0 || got.BitLen() != 126 || g[1]>>63 != 0 {
			t.Fatalf("pow10Table[%d] (k = %d) = %#x, want %#x", i, k, got, want)
		}
	}
}

// TestFloorLogs checks floorLog10Pow2, floorLog10ThreeQuartersPow2 and
// floorLog2Pow10 against exact comparisons of powers, with math/big, over
// the ranges shortestDigits gives them and more.
func TestFloorLogs(t *testing.T) {
	pow := func(b, e int64) *big.Rat { // b^e
		x := new(big.Int).Exp(big.NewInt(b), big.NewInt(max(e, -e)), nil)
		if e < 0 {
			return new(big.Rat).SetFrac(big.NewInt(1), x)
		}
		return new(big.Rat).SetInt(x)
	}
	// floorOf reports whether k = floor(log_b(x)): b^k ≤ x < b^(k+1).
	floorOf := func(k int, b int64, x *big.Rat) bool {
		return pow(b, int64(k)).Cmp(x) <= 0 && x.Cmp(pow(b, int64(k+1))) < 0
	}
	for q := -1100; q <= 1100; q++ {
		x := pow(2, int64(q))
		if k := floorLog10Pow2(q); !floorOf(k, 10, x) {
			t.Fatalf("floorLog10Pow2(%d) = %d", q, k)
		}
		x.Mul(x, big.NewRat(3, 4))
		if k := floorLog10ThreeQuartersPow2(q); !floorOf(k, 10, x) {
			t.Fatalf("floorLog10ThreeQuartersPow2(%d) = %d", q, k)
		}
	}
	for e := -400; e <= 400; e++ {
		if k := floorLog2Pow10(e); !floorOf(k, 2, pow(10, int64(e))) {
			t.Fatalf("floorLog2Pow10(%d) = %d", e, k)
		}
	}
}

// TestAppendFloat32 holds appendFloat's text of float32s (putFloat32) to
// strconv's shortest for 32 bits (refFloatBits): in the long form every
// seventh float32 (all of them took 4 minutes here, and passed), in the
// short one the edges of its paths (whole numbers
// below and above 2^24, the least significand, where the interval below
// is tighter, subnormals and the least normal, both ends of the plain
// range) with their neighbours, and a million random ones.
//
// Where two shortest decimals are as near to the float, the one with the
// even last digit is written (tieToEven). strconv breaks one such tie of
// Go 1.26 the other way: ±2^-12, 0.000244140625, is written
// 0.00024414063 where 0.00024414062 is as near, as short, and even.
func TestAppendFloat32(t *testing.T) {
	var bad atomic.Int64
	check := func(u uint32) {
		f := float64(math.Float32frombits(u))
		got, want := string(appendFloat(nil, f, 32)), refFloatBits(f, 32)
		if got != want && !tieToEven(got, want, f) && bad.Add(1) <= 10 {
			t.Errorf("appendFloat(float32 %v, bits %#x) = %s, want %s", float32(f), u, got, want)
		}
	}
	if longtest.On() {
		// Every seventh float32 with its sign bit clear, and some of
		// their negations.
		eachBits(0, 1<<31-1, 7, func(u uint32) {
			check(u)
			if u&0xfff == 0 {
				check(u | 1<<31)
			}
		})
		return
	}
	r := rand.New(rand.NewSource(32))
	var edges []float32
	for e := -149; e <= 127; e++ {
		edges = append(edges, float32(math.Ldexp(1, e)))
	}
	edges = append(edges, 0.1, 0.2, 0.3, 1e-6, 1e-7, 1e21, 1e20, 16777215, 16777216, 16777217, 3.4028235e38,
		1.1754944e-38, 1.4e-45, 123.45, 0.000123, 1e7, 33554432, 1e10)
	for _, f := range edges {
		u := math.Float32bits(f)
		for d := uint32(0); d < 3; d++ {
			check(u + d)
			check(u - d)
			check((u + d) | 1<<31)
		}
	}
	for n := 0; n < 1000000; n++ {
		check(r.Uint32())
	}
}

// TestShortestDigits32 holds shortestDigits for a float32, whose products
// are one multiplication of the table's upper bits, to shortestDigits for
// a float64, which keeps all of them, on normal float32s: every one in the long form, and in the
// short form a million random ones and the least and greatest
// significands at every exponent. (The two would part where the shorter
// products lost a comparison with a multiple of 4.)
func TestShortestDigits32(t *testing.T) {
	var bad atomic.Int64
	check := func(u uint32) {
		c := uint64(u&(1<<23-1) | 1<<23)
		q := int(u>>23) - 150
		tight := c == 1<<23 && q != -149
		n, e := shortestDigits(c, q, tight, true)
		wn, we := shortestDigits(c, q, tight, false)
		if (n != wn || e != we) && bad.Add(1) <= 10 {
			t.Errorf("float32 %v (bits %#x): as a float32 %d·10^%d, as a float64 %d·10^%d", math.Float32frombits(u), u, n, e, wn, we)
		}
	}
	const first, last = 1 << 23, 0xff<<23 - 1 // the normal floats' bits
	if longtest.On() {
		eachBits(first, last, 1, check)
		return
	}
	for b := uint32(1); b < 0xff; b++ {
		for d := uint32(0); d < 4; d++ {
			check(b<<23 + d)
			check(b<<23 + 1<<23 - 1 - d)
		}
	}
	r := rand.New(rand.NewSource(23))
	for i := 0; i < 1000000; i++ {
		check(first + r.Uint32()%(last-first+1))
	}
}

// eachBits calls check for lo, lo+step, ... up to hi, in a goroutine per
// CPU, and returns when all have returned.
func eachBits(lo, hi, step uint32, check func(uint32)) {
	var wg sync.WaitGroup
	cpus := uint32(runtime.GOMAXPROCS(0))
	for w := uint32(0); w < cpus; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := uint64(lo) + uint64(w*step); u <= uint64(hi); u += uint64(step * cpus) {
				check(uint32(u))
			}
		}()
	}
	wg.Wait()
}

// tieToEven reports whether got and want are plain decimals of the same
// length and as near to the float f, both read back as f's float32, and
// got's last digit is even: want broke a tie the other way.
func tieToEven(got, want string, f float64) bool {
	if len(got) != len(want) || (got[len(got)-1]-'0')%2 != 0 {
		return false
	}
	for _, s := range []string{got, want} {
		if x, err := strconv.ParseFloat(s, 32); err != nil || x != f {
			return false
		}
	}
	v, g, w := new(big.Rat).SetFloat64(f), new(big.Rat), new(big.Rat)
	if _, ok := g.SetString(got); !ok {
		return false
	}
	if _, ok := w.SetString(want); !ok {
		return false
	}
	return g.Sub(g, v).Abs(g).Cmp(w.Sub(w, v).Abs(w)) == 0
}

// FuzzAppendFloat requires appendFloat's text of any float64 (its bits
// from the fuzzer) to be refFloat's, strconv's: the fast paths
// (putFloat8, shortestDigits and putDigits) and the fallbacks alike.
func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{1.6438799976812822e15, 3.7e-9, 1e21, 1e23, 5e-324, 0.1 + 0.2, -1e-7, 123.45} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		x := math.Float64frombits(u)
		if got, want := string(appendFloat(nil, x, 64)), refFloat(x); got != want {
			t.Fatalf("appendFloat(%v) = %s, want %s", x, got, want)
		}
	})
}

// TestPlainCanonical holds appendNumber's shortcut, plainCanonical, to
// the digits' rule (appendNumberDigits): a text it passes as it is must be
// what the rule writes, on numbers built from the pieces where the forms
// part (signs, zeros, 21 and 22 digits, five and six zeros after "0.",
// trailing zeros, exponents); and the common forms must take it.
func TestPlainCanonical(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	ints := []string{"0", "00", "1", "10", "7", "100", "012", "123456789012345678901", "1234567890123456789012", "100000000000000000000", "1000000000000000000000"}
	fracs := []string{"", ".", ".0", ".5", ".50", ".05", ".000001", ".0000001", ".00000100", ".123", ".1230", ".000009"}
	exps := []string{"", "", "", "e5", "E-3", "e+0"}
	for _, sign := range []string{"", "-", "+"} {
		for _, in := range ints {
			for _, fr := range fracs {
				for _, ex := range exps {
					s := sign + in + fr + ex
					want, ok := appendNumberDigits(nil, []byte(s))
					if plainCanonical([]byte(s)) && (!ok || string(want) != s) {
						t.Fatalf("plainCanonical(%q) passes it as it is; the rule writes %q (ok %v)", s, want, ok)
					}
				}
			}
		}
	}
	for round := 0; round < 100000; round++ {
		var b []byte
		if rng.Intn(3) == 0 {
			b = append(b, '-')
		}
		for n := 1 + rng.Intn(24); n > 0; n-- {
			b = append(b, "0123456789000"[rng.Intn(13)])
		}
		if rng.Intn(2) == 0 {
			b = append(b, '.')
			for n := 1 + rng.Intn(10); n > 0; n-- {
				b = append(b, "0123456789000"[rng.Intn(13)])
			}
		}
		want, ok := appendNumberDigits(nil, b)
		if plainCanonical(b) && (!ok || !bytes.Equal(want, b)) {
			t.Fatalf("plainCanonical(%q) passes it as it is; the rule writes %q (ok %v)", b, want, ok)
		}
		if ok && bytes.Equal(want, b) && len(b) > 0 && !bytes.ContainsAny(b, "eE") && !plainCanonical(b) {
			t.Fatalf("plainCanonical(%q) is false for a canonical plain number", b)
		}
	}
	for _, s := range []string{"0", "7", "-3", "42", "1.5", "-0.25", "0.000001", "19.99",
		"0.0000012", "-0.000001234", "16.924774", "-0.12345678901234567"} {
		if !plainCanonical([]byte(s)) {
			t.Errorf("plainCanonical(%q) = false", s)
		}
	}
	// The words' reading of 4 to 24 bytes against the loop's, on texts
	// of the bytes where the rule parts (and some no number has), of
	// every length around those.
	const alphabet = "0000123456789-.eE+\xb0\xff"
	for round := 0; round < 200000; round++ {
		b := make([]byte, rng.Intn(31))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		if rng.Intn(2) == 0 && len(b) > 2 {
			copy(b, "0.")
		}
		if got, want := plainCanonical(b), plainCanonicalBytes(b); got != want {
			t.Fatalf("plainCanonical(%q) = %v, byte by byte %v", b, got, want)
		}
	}
}

// FuzzAppendNumber holds appendNumber, with its shortcut for numbers
// already canonical, to the digits' rule alone on any text.
func FuzzAppendNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "1.50", "0.0000001", "0.000001", "1234567890123456789012", "1e5", "-0.25", "007", "1.",
		// plainCanonical's words: 4 to 7 bytes, 8 to 16, 17 to 24
		"59.12", "-404.8", "0.0050", "16.924774", "-0.013044195", "0.00000012", "-0.12345678901234567", "123456789012345678901.5"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		// The room after "x" lets appendShort copy by words: room to
		// spare, and room for the number alone.
		want, wantOK := appendNumberDigits([]byte("x"), s)
		for _, room := range []int{64, len(s)} {
			got, ok := appendNumber(append(make([]byte, 0, 1+room), 'x'), s)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("appendNumber(%q) = %q, %v; the digits' rule writes %q, %v", s, got, ok, want, wantOK)
			}
		}
	})
}
