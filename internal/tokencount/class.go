package tokencount

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Character classes of the pre-tokenizers' patterns, as bits. The patterns
// are matched by github.com/dlclark/regexp2, which tests \p{..} with the
// standard unicode package's tables and \s with unicode.IsSpace, so these
// classes are built from the same functions.
const (
	cUpper   = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]: o200k's "upper" class
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]: o200k's "lower" class
	cLetter              // \p{L}
	cNumber              // \p{N}
	cSpace               // \s
	cNewline             // [\r\n]
)

// classOf computes the classes of r from the unicode tables.
func classOf(r rune) uint8 {
	var c uint8
	lu, lt, lm, lo := unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r), unicode.Is(unicode.Lm, r), unicode.Is(unicode.Lo, r)
	ll, m := unicode.Is(unicode.Ll, r), unicode.Is(unicode.M, r)
	if lu || lt || lm || lo || m {
		c |= cUpper
	}
	if ll || lm || lo || m {
		c |= cLower
	}
	if unicode.Is(unicode.L, r) {
		c |= cLetter
	}
	if unicode.Is(unicode.N, r) {
		c |= cNumber
	}
	if unicode.IsSpace(r) {
		c |= cSpace
	}
	if r == '\r' || r == '\n' {
		c |= cNewline
	}
	return c
}

// bmpClass holds the classes of every rune of the Basic Multilingual
// Plane; the rarer runes above it are classified on each use.
var (
	bmpClass     [0x10000]uint8
	bmpClassOnce sync.Once
)

func initClasses() {
	bmpClassOnce.Do(func() {
		for r := range bmpClass {
			bmpClass[r] = classOf(rune(r))
		}
	})
}

// runeClass returns the classes and the length in bytes of the rune that
// starts b[i:]. A length of 0 means the end of the text; a negative length
// means that b ends before the rune does (or at i) and more text may follow
// (eof is false), so the caller cannot decide yet.
//
// A byte that does not start a valid UTF-8 sequence counts as one rune of
// its own, U+FFFD (a symbol: none of the classes), as Go's conversion of a
// string to []rune, which regexp2 matches, makes it.
func runeClass(b []byte, i int, eof bool) (uint8, int) {
	if i >= len(b) {
		if eof {
			return 0, 0
		}
		return 0, -1
	}
	if c := b[i]; c < utf8.RuneSelf {
		return bmpClass[c], 1
	}
	if !eof && !utf8.FullRune(b[i:]) {
		return 0, -1
	}
	r, n := utf8.DecodeRune(b[i:])
	if r < 0x10000 {
		return bmpClass[r], n
	}
	return classOf(r), n
}

// asciiRun returns the end of the run of ASCII bytes at b[i:] that have
// one of the classes of mask: the fast start of the scans of runs.
func asciiRun(b []byte, i int, mask uint8) int {
	for i < len(b) && b[i] < utf8.RuneSelf && bmpClass[b[i]]&mask != 0 {
		i++
	}
	return i
}
