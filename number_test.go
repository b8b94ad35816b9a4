package toon

import (
	"math"
	"math/big"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// numberRE is the number grammar of §4 as a regular expression: the
// specification isNumber, which reads digits a word at a time, must match.
var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// TestIsNumberGrammar holds isNumber to numberRE over every string of up
// to five bytes from the bytes that matter to numbers, and over random
// strings of up to 40 bytes, mostly digits, so that every part of a number
// and every byte out of place falls at every place in a word and in the
// word that ends the text.
// eachString calls f with every string of up to n bytes from alphabet,
// the empty one included (in a buffer f must not keep).
func eachString(alphabet string, n int, f func([]byte)) {
	var b []byte
	var walk func(n int)
	walk = func(n int) {
		f(b)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			b = append(b, alphabet[i])
			walk(n - 1)
			b = b[:len(b)-1]
		}
	}
	walk(n)
}

func TestIsNumberGrammar(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		if got, want := isNumber(b), numberRE.Match(b); got != want {
			t.Fatalf("isNumber(%q) = %v, want %v", b, got, want)
		}
	}
	const alphabet = "019.eE+-/:x"
	eachString(alphabet, 5, check)
	var b []byte
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 300000; i++ {
		b = b[:0]
		if rng.Intn(3) == 0 {
			b = append(b, '-')
		}
		n := rng.Intn(40)
		for j := 0; j < n; j++ {
			if rng.Intn(12) == 0 {
				b = append(b, alphabet[rng.Intn(len(alphabet))])
			} else {
				b = append(b, byte('0'+rng.Intn(10)))
			}
		}
		if rng.Intn(4) == 0 {
			b = append(b, 'e')
			if rng.Intn(2) == 0 {
				b = append(b, "+-"[rng.Intn(2)])
			}
			for j := rng.Intn(4); j > 0; j-- {
				b = append(b, byte('0'+rng.Intn(10)))
			}
		}
		check(b)
		// The same text inside a longer buffer: bytes after the end
		// must not count.
		buf := append(append([]byte{}, b...), "1234567890"...)
		if got, want := isNumber(buf[:len(b)]), numberRE.Match(b); got != want {
			t.Fatalf("isNumber(%q) before digits = %v, want %v", b, got, want)
		}
	}
}

// numberByStep runs the automaton of numStep over b, as typeRows does.
func numberByStep(b []byte) bool {
	st := uint64(numStart)
	for _, c := range b {
		st = numStep[c] >> (st & 63)
	}
	return numAccept>>(st&63)&1 != 0
}

// TestNumStep holds the automaton typeRows runs on cells to the grammar,
// over every string of up to six bytes from the bytes that matter to
// numbers, and over every byte in every place of a few numbers.
func TestNumStep(t *testing.T) {
	eachString("019.eE+-x", 6, func(b []byte) {
		if got, want := numberByStep(b), numberRE.Match(b); got != want {
			t.Fatalf("numStep on %q: %v, want %v", b, got, want)
		}
	})
	for _, s := range []string{"-12.5e+7", "0.25", "1735689600360", "0e0"} {
		for i := range len(s) + 1 {
			for c := 0; c < 256; c++ {
				b := []byte(s[:i] + string(rune(0)) + s[i:])
				b[i] = byte(c)
				if got, want := numberByStep(b), numberRE.Match(b); got != want {
					t.Fatalf("numStep on %q: %v, want %v", b, got, want)
				}
			}
		}
	}
}

func FuzzIsNumber(f *testing.F) {
	f.Add([]byte("-1234567890.123456e+21"))
	f.Add([]byte("2025-05-09"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := isNumber(b), numberRE.Match(b); got != want {
			t.Fatalf("isNumber(%q) = %v, want %v", b, got, want)
		}
	})
}

// numberAtBuf runs numberAt on b (at most 24 bytes) copied to the start of
// a buffer whose bytes after it are fill, so that they must not count.
func numberAtBuf(b []byte, fill byte) bool {
	var buf [24]byte
	for i := range buf {
		buf[i] = fill
	}
	copy(buf[:], b)
	return numberAt(mem.Of(&buf[0]), len(b))
}

// TestNonDigits holds nonDigits to a byte-by-byte test over every pair
// of bytes side by side, at each place in the word: a sum that carried
// into the next byte would flag, or unflag, its neighbour.
func TestNonDigits(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for at := 0; at < 7; at++ {
				w := uint64(0x3132333435363738) // digits around the pair
				w &^= 0xffff << (8 * at)
				w |= uint64(a)<<(8*at) | uint64(b)<<(8*at+8)
				var want uint64
				for k := 0; k < 8; k++ {
					if c := byte(w >> (8 * k)); c < '0' || c > '9' {
						want |= 0x80 << (8 * k)
					}
				}
				if got := nonDigits(w); got != want {
					t.Fatalf("nonDigits(%#016x) = %#016x, want %#016x", w, got, want)
				}
			}
		}
	}
}

// TestNumberAt holds numberAt to numberRE over every string of 1 to 6
// bytes from the bytes that matter to numbers, and over random strings of
// up to 24 bytes, mostly digits with a sign, a '.', an exponent or a byte
// out of place anywhere, so that each falls at every place of the three
// words; the bytes after the text are digits or a '.', which must not
// count.
func TestNumberAt(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		want := numberRE.Match(b)
		for _, fill := range []byte{'0', '7', '.', 'e'} {
			if got := numberAtBuf(b, fill); got != want {
				t.Fatalf("numberAt(%q) with %q after = %v, want %v", b, fill, got, want)
			}
		}
	}
	eachString("019.eE+-x", 6, func(b []byte) {
		if len(b) > 0 {
			check(b)
		}
	})
	const odd = "0.eE+-x\x80/:"
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 300000; i++ {
		b := make([]byte, 1+rng.Intn(24))
		for j := range b {
			b[j] = '0' + byte(rng.Intn(10))
		}
		if rng.Intn(3) == 0 {
			b[0] = '-'
		}
		for j := rng.Intn(4); j > 0; j-- {
			b[rng.Intn(len(b))] = odd[rng.Intn(len(odd))]
		}
		if rng.Intn(3) == 0 && len(b) > 3 {
			e := 1 + rng.Intn(len(b)-2)
			b[e] = "eE"[rng.Intn(2)]
			if rng.Intn(2) == 0 {
				b[e+1] = "+-"[rng.Intn(2)]
			}
		}
		check(b)
	}
}

func FuzzNumberAt(f *testing.F) {
	f.Add([]byte("-1.7800806919969214"))
	f.Add([]byte("5.02e+23"))
	f.Add([]byte("2025-05-09"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || len(b) > 24 {
			return
		}
		if got, want := numberAtBuf(b, '1'), numberRE.Match(b); got != want {
			t.Fatalf("numberAt(%q) = %v, want %v", b, got, want)
		}
	})
}

// checkDecimalFloat compares decimalFloat with strconv.ParseFloat on the
// number text s at both sizes, bit for bit (the sign of zero included).
// It reports whether decimalFloat took s at 64 bits and at 32.
func checkDecimalFloat(t testing.TB, s string) (took64, took32 bool) {
	t.Helper()
	for _, size := range []int{64, 32} {
		got, ok := decimalFloat([]byte(s), size)
		if !ok {
			continue
		}
		if size == 64 {
			took64 = true
		} else {
			took32 = true
		}
		want, err := strconv.ParseFloat(s, size)
		if err != nil {
			t.Fatalf("%s: decimalFloat took a number strconv rejects: %v", s, err)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s at %d bits: got %v (%#x), want %v (%#x)", s, size, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	return took64, took32
}

// midpoint returns the exact decimal text of the number halfway between
// a·2^e and (a+1)·2^e, adjusted by delta units of its last digit (0: the
// tie itself, ±1: just above or below it).
func midpoint(a uint64, e int, delta int64) string {
	v := new(big.Int).SetUint64(2*a + 1) // the midpoint is (2a+1)·2^(e-1)
	if e-1 >= 0 {
		v.Lsh(v, uint(e-1))
		return v.Add(v, big.NewInt(delta)).String()
	}
	k := 1 - e // (2a+1)·5^k / 10^k
	v.Mul(v, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil))
	v.Add(v, big.NewInt(delta))
	s := v.String()
	for len(s) <= k {
		s = "0" + s
	}
	return s[:len(s)-k] + "." + s[len(s)-k:]
}

// TestDecimalFloat holds decimalFloat to strconv.ParseFloat: on numbers
// of 1 to 19 significant digits with the point at every place and
// exponents from -30 to 30, on ties between two floats of each size (and
// the numbers just beside them) whose digits a uint64 holds, and on edges
// of the ways it takes. The numbers that must take the fast path (at most
// 19 digits, a value m·10^q with q from -19 to 0, ties included) are
// checked to take it at both sizes, so that a fast path that gives up
// fails.
func TestDecimalFloat(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for i := 0; i < 200000; i++ {
		digits := 1 + rng.Intn(19)
		var m uint64
		for d := 0; d < digits; d++ {
			m = m*10 + uint64(rng.Intn(10))
		}
		s := strconv.FormatUint(m, 10)
		point := rng.Intn(len(s) + 1)
		if point < len(s) {
			s = s[:point] + "." + s[point:]
			if point == 0 {
				s = "0" + s
			}
		}
		if rng.Intn(3) == 0 {
			exp, mark := rng.Intn(61)-30, []string{"e", "E"}[rng.Intn(2)]
			switch {
			case exp < 0:
				s += mark + "-" + strconv.Itoa(-exp)
			case rng.Intn(2) == 0:
				s += mark + "+" + strconv.Itoa(exp)
			default:
				s += mark + strconv.Itoa(exp)
			}
		}
		if rng.Intn(2) == 0 {
			s = "-" + s
		}
		if !numberRE.MatchString(s) {
			continue // a leading zero such as "05": not a number of §4
		}
		took64, took32 := checkDecimalFloat(t, s)
		if q := fracExp(s); !(took64 && took32) && q >= -19 && q <= 0 && significantDigits(s) <= 19 {
			t.Fatalf("%s: not taken by the fast path (64 bits %v, 32 bits %v)", s, took64, took32)
		}
	}
	// Fractions below 1 with runs of 0 to 20 zeros after "0." (read a
	// word at a time), then 0 to 19 digits, some with an exponent.
	for zeros := 0; zeros <= 20; zeros++ {
		for digits := 0; digits <= 19; digits++ {
			for k := 0; k < 4; k++ {
				var b strings.Builder
				if k&1 != 0 {
					b.WriteByte('-')
				}
				b.WriteString("0.")
				b.WriteString(strings.Repeat("0", zeros))
				for d := 0; d < digits; d++ {
					b.WriteByte(byte('1' + rng.Intn(9)))
				}
				if k&2 != 0 {
					b.WriteString("e" + strconv.Itoa(rng.Intn(41)-20))
				}
				if s := b.String(); numberRE.MatchString(s) {
					checkDecimalFloat(t, s)
				}
			}
		}
	}
	// Ties and their neighbours: significands of each size at the binary
	// exponents whose midpoints have at most 19 digits (and at most 16
	// after the point), all of which must be taken.
	for i := 0; i < 20000; i++ {
		for _, p := range []struct {
			bits   uint
			lo, hi int
		}{{53, -2, 10}, {24, -15, 39}} {
			a := uint64(1)<<(p.bits-1) | rng.Uint64()&(uint64(1)<<(p.bits-1)-1)
			if i < 8 {
				a = uint64(1)<<p.bits - 1 - uint64(i) // near a carry into the next binade
			}
			e := p.lo + rng.Intn(p.hi-p.lo+1)
			for delta := int64(-1); delta <= 1; delta++ {
				s := midpoint(a, e, delta)
				if took64, took32 := checkDecimalFloat(t, s); !took64 || !took32 {
					t.Fatalf("%s: not taken by the fast path (64 bits %v, 32 bits %v)", s, took64, took32)
				}
			}
		}
	}
	for _, s := range []string{"0", "-0", "0.0", "-0.000", "0e-400", "1", "-1", "0.1", "0.3", "4.35", "0.07",
		"9007199254740993", "9007199254740993.0", "18014398509481986", "16777217", "16777217.0",
		"9999999999999999999", "0.9999999999999999999", "1e22", "1.5E+21", "1e+21", "1.5e-21", "1e-19",
		"1.000000000000000001", "123456789012345678.9", "1.7976931348623157", "0.000000000000000000123", "2.5E-7",
		// Within half a float64's place of the float32 midpoint 0.5+2^-25,
		// above and below it: their float64 is the midpoint itself.
		"0.5000000298023224", "0.5000000298023223"} {
		if took64, _ := checkDecimalFloat(t, s); !took64 {
			t.Errorf("%q: not taken by the fast path", s)
		}
	}
	// Texts it must give up on: no number, digits that overflow a uint64
	// (some of which wrap it to 0), and numbers beyond its ways (a power
	// of ten past 10^22, subnormals, the largest floats), left to strconv.
	for _, s := range []string{"", "-", ".5", "5.", "1e", "1e+", "--1", "1.2.3", "0x10", "1_000", "inf", "NaN",
		"12345678901234567890", "1.0000000000000000000", "1e10000", "18446744073709551615", "1844674407370955161.5",
		"18446744073709551616", "1" + strings.Repeat("0", 64), "1" + strings.Repeat("0", 64) + ".5", "1234567:", "0.1;345678", "12345678?",
		"1e23", "1.5e-22", "5e-324", "1e308"} {
		if _, ok := decimalFloat([]byte(s), 64); ok {
			t.Errorf("%q: taken by the fast path", s)
		}
	}
}

// fracExp returns q of a number text m·10^q, m its digits as written.
func fracExp(s string) int {
	q := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		q, _ = strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		s = s[:i]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		q -= len(s) - i - 1
	}
	return q
}

// significantDigits counts the digits of a number text from its first that is
// not 0, up to its exponent.
func significantDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	return len(s)
}

// FuzzDecimalFloat holds decimalFloat to strconv.ParseFloat on any number
// text of §4, and parseFloat, which takes it first, too.
func FuzzDecimalFloat(f *testing.F) {
	for _, s := range []string{"0", "-0.5", "123.456", "9007199254740993.0", "1e-7", "1.5E+21", "0.1234567890123456789"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isNumber([]byte(s)) {
			return
		}
		checkDecimalFloat(t, s)
		for _, size := range []int{64, 32} {
			got, err := parseFloat([]byte(s), size)
			want, werr := strconv.ParseFloat(s, size)
			// parseFloat's one difference: a number that rounds to zero
			// but is not zero is out of range.
			underflow := err != nil && werr == nil && want == 0
			if math.Float64bits(got) != math.Float64bits(want) || (err == nil) != (werr == nil) && !underflow {
				t.Fatalf("%s at %d bits: parseFloat %v, %v; strconv %v, %v", s, size, got, err, want, werr)
			}
		}
	})
}

// FuzzFastFloatCells holds fastFloat, which decFloats reads a long inline
// array's cells with, to what that needs: it takes a cell only when the
// cell is a number (isNumber), a leading zero ruling one out, and then
// with strconv's value (checkDecimalFloat).
func FuzzFastFloatCells(f *testing.F) {
	for _, s := range []string{"0", "-0", "05", "-007", "00", "0.5", "-0.0123", "1e5", "0e5", "", `"1"`, "1.2.3", "-", "1.", "12345678901234567890", "1e00001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, size := range []int{64, 32} {
			if got, ok := fastFloat([]byte(s), size); ok && !isNumber([]byte(s)) {
				t.Fatalf("%q at %d bits: fastFloat took it (%v), isNumber rejects it", s, size, got)
			}
		}
		if isNumber([]byte(s)) {
			checkDecimalFloat(t, s)
		}
	})
}
