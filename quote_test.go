package toon

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/mem"
)

// TestWordClass checks the word-at-a-time tests of quote.go against the
// byte rules of charClass: special against wordClass, and strFlags
// against charClass itself, for every byte value in every lane of a word
// (and at every position of strings of 1 to 17 bytes), among fillers that
// need nothing, under every delimiter.
func TestWordClass(t *testing.T) {
	fillers := []byte{'a', '0', '~', ' ', '.'}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		mask := quoteMask(d)
		dw := delimWord(mask)
		for c := 0; c < 256; c++ {
			cls := wordClass(byte(c), d)
			for _, f := range fillers {
				for lane := 0; lane < 8; lane++ {
					x := uint64(f) * lo8
					x = x&^(0xff<<(8*lane)) | uint64(c)<<(8*lane)
					hard, quo, high := special(x, dw)
					if got := hard&hi8 != 0; got != (cls == wordHard) {
						t.Fatalf("special(%q in lane %d of %q, %q): hard %v, wordClass %#x", c, lane, f, d, got, cls)
					}
					if got := high&hi8 != 0; got != (cls == wordHigh) {
						t.Fatalf("special(%q in lane %d of %q, %q): high %v, wordClass %#x", c, lane, f, d, got, cls)
					}
					if hard&hi8 == 0 && (quo&hi8 != 0) != (cls == wordQuote) {
						t.Fatalf("special(%q in lane %d of %q, %q): quo %v, wordClass %#x", c, lane, f, d, quo&hi8 != 0, cls)
					}
				}
				for n := 1; n <= 17; n++ {
					for i := 0; i < n; i++ {
						b := []byte(strings.Repeat(string(f), n))
						b[i] = byte(c)
						esc, quo, high := strFlags(string(b), dw)
						k := charClass[c]
						if (esc != 0) != (k&clsEscape != 0) || (high != 0) != (c >= 0x80) {
							t.Fatalf("strFlags(%q, %q) = esc %#x, high %#x; charClass %#x", b, d, esc, high, k)
						}
						if esc == 0 && (quo != 0) != (k&mask != 0) {
							t.Fatalf("strFlags(%q, %q) = quo %#x; charClass %#x", b, d, quo, k)
						}
					}
				}
			}
		}
	}
}

// TestSpecialUTF8 checks that special lets the bytes of valid UTF-8
// through: every rune that starts with each lead byte (the first, the
// last and one between of each), with every byte value before and after
// it, in every position of a word, gives hard and quo as the ASCII bytes
// alone do, and high exactly when the rune is in the word.
func TestSpecialUTF8(t *testing.T) {
	var runes []rune
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		// The runes where the lead byte or the length changes, and
		// their neighbours.
		if n := utf8.RuneLen(r); n != utf8.RuneLen(r-1) || n != utf8.RuneLen(r+1) ||
			string(r)[0] != string(r - 1)[0] || string(r)[0] != string(r + 1)[0] {
			runes = append(runes, r)
		}
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		dw := delimWord(quoteMask(d))
		for _, r := range runes {
			enc := string(r)
			for c := 0; c < 256; c++ {
				for _, s := range []string{enc + string(byte(c)), string(byte(c)) + enc} {
					for lane := 0; lane+len(s) <= 8; lane++ {
						w := []byte("aaaaaaaa")
						copy(w[lane:], s)
						x := mem.StringData(string(w)).Load64(0)
						hard, quo, high := special(x, dw)
						want := wordClass(byte(c), d)
						if c >= 0x80 {
							want = 0 // its lane is masked whatever it is
						}
						if (hard&hi8 != 0) != (want == wordHard) || hard&hi8 == 0 && (quo&hi8 != 0) != (want == wordQuote) || high&hi8 == 0 {
							t.Fatalf("special(%q, %q): hard %#x, quo %#x, high %#x; the byte %#x is of class %#x", w, d, hard&hi8, quo&hi8, high&hi8, c, want)
						}
					}
				}
			}
		}
	}
}

// TestShapeOf checks shapeOf and quoteByShape against the shape rules of
// §7.2 read plainly.
func TestShapeOf(t *testing.T) {
	ref := func(s string) bool {
		return s == "true" || s == "false" || s == "null" || strings.HasPrefix(s, " ") ||
			strings.HasSuffix(s, " ") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "#") ||
			numericLikeRE.MatchString(s)
	}
	alphabet := []string{"a", "t", "f", "n", "true", "false", "null", "0", "9", "+", "-", "#", " ", ".", "e", "E", "x", "~"}
	var check func(s string, depth int)
	check = func(s string, depth int) {
		if s != "" {
			if got, want := quoteByShape(s), ref(s); got != want {
				t.Fatalf("quoteByShape(%q) = %v, want %v", s, got, want)
			}
			if k := shapeOf(s); k == shapeNumber && s[0]-'0' >= 10 && s[0] != '+' {
				t.Fatalf("shapeOf(%q) = shapeNumber", s)
			}
		}
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			check(s+a, depth-1)
		}
	}
	check("", 3)
}
