package tokencount

import (
	"testing"

	"github.com/dlclark/regexp2"
)

// TestClasses compares the class of every rune of the BMP, and of a sample
// above it, with what regexp2 (tiktoken-go's matcher) finds for the
// character classes of the patterns.
func TestClasses(t *testing.T) {
	initClasses()
	classes := []struct {
		bit     uint8
		pattern string
	}{
		{cUpper, `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`},
		{cLower, `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`},
		{cLetter, `\p{L}`},
		{cNumber, `\p{N}`},
		{cSpace, `\s`},
		{cNewline, `[\r\n]`},
	}
	res := make([]*regexp2.Regexp, len(classes))
	for i, c := range classes {
		res[i] = regexp2.MustCompile(`^`+c.pattern+`$`, regexp2.None)
	}
	check := func(r rune) {
		got, _ := runeClass([]byte(string(r)), 0, true)
		for i, c := range classes {
			want, err := res[i].MatchRunes([]rune{r})
			if err != nil {
				t.Fatal(err)
			}
			if got&c.bit != 0 != want {
				t.Fatalf("%U: in %s is %v, want %v", r, c.pattern, got&c.bit != 0, want)
			}
		}
	}
	for r := rune(0); r < 0x10000; r++ {
		if r < 0xd800 || r > 0xdfff { // surrogates are not runes of UTF-8 text
			check(r)
		}
	}
	for r := rune(0x10000); r <= 0x10ffff; r += 97 {
		check(r)
	}
}
