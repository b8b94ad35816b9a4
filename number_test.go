package toon

import (
	"math/rand"
	"regexp"
	"testing"
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
