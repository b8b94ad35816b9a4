package toon

import (
	"strings"
	"testing"
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
					hard, quo := special(x, dw)
					if got := hard&hi8 != 0; got != (cls == wordHard) {
						t.Fatalf("special(%q in lane %d of %q, %q): hard %v, wordClass %#x", c, lane, f, d, got, cls)
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

// TestRowClassTablesMatchWordClass checks the row kernel's class tables
// against wordClass, the statement of the byte rules they encode.
func TestRowClassTablesMatchWordClass(t *testing.T) {
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		tbl := &rowClassTables[rowClassIndex(delimWord(quoteMask(d)))]
		for c := 0; c < 128; c++ {
			if got, want := tbl[c], wordClass(byte(c), d); got != want {
				t.Errorf("rowClassTables[%q][%q] = %#x, wordClass says %#x", d, c, got, want)
			}
		}
	}
}
