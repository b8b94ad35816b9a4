package toon

import (
	"math/rand"
	"regexp"
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
