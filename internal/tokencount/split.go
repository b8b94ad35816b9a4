package tokencount

import "unicode/utf8"

// The pre-tokenizers cut text into pieces as the encodings' regular
// expressions do in github.com/tiktoken-go/tokenizer, where regexp2 tries
// the alternatives in order at each position, backtracking as .NET does:
//
// o200k_base:
//
//	1  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	2  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	3  \p{N}{1,3}
//	4   ?[^\s\p{L}\p{N}]+[\r\n/]*
//	5  \s*[\r\n]+
//	6  \s+(?!\S)
//	7  \s+
//
// cl100k_base:
//
//	1  (?i:'s|'t|'re|'ve|'m|'ll|'d)
//	2  [^\r\n\p{L}\p{N}]?\p{L}+
//	3  \p{N}{1,3}
//	4   ?[^\s\p{L}\p{N}]+[\r\n]*
//	5  \s*[\r\n]+
//	6  \s+(?!\S)
//	7  \s+
//
// Every rune starts a match of one alternative (a letter 1 or 2, a number
// 3, white space 5 to 7, anything else 4), so the pieces cover the text.
// Below, "prefix" is the class [^\r\n\p{L}\p{N}], "upper" and "lower" are
// o200k's two letter classes (cUpper, cLower; marks and the letters of
// Lm and Lo are in both), and "punct" is [^\s\p{L}\p{N}].
//
// Each splitter returns the length in bytes of the piece that starts b,
// or needMore when b ends before the piece is decided and eof is false.
// What decides a piece is the text the pattern looks at past its end: the
// rune after it, up to three bytes after a word (a contraction), and after
// white space the rest of the run (alternative 5 looks for the run's last
// newline). So a stream is counted piece by piece, and only the piece that
// the end of the text so far leaves undecided, with what was looked at
// past it, has to be kept for the next part of the stream.

// needMore is returned by the splitters and matchers when the text so far
// does not decide the piece.
const needMore = -1

// noMatch is returned by a matcher whose alternative does not match.
const noMatch = 0

func isPunct(c uint8) bool { return c&(cLetter|cNumber|cSpace) == 0 }

// splitO200k returns the length of the o200k_base piece that starts b (b
// is not empty), or needMore.
func splitO200k(b []byte, eof bool) int {
	c0, n0 := runeClass(b, 0, eof)
	if n0 < 0 {
		return needMore
	}
	switch {
	case c0&cLetter != 0: // a letter is no prefix: 1 or 2 from here
		if e := o200kWord(b, 0, eof); e != noMatch {
			return e
		}
		panic("tokencount: a letter starts no o200k word") // not reached: a letter is upper or lower
	case c0&cNumber != 0:
		return numbers(b, n0, eof)
	case c0&cNewline != 0:
		return spaces(b, eof)
	}
	// c0 is a prefix: alternatives 1 and 2 with it, then (for a mark,
	// which is also upper and lower) without it.
	if e := o200kWordAfterPrefix(b, n0, c0, eof); e != noMatch {
		return e
	}
	return punctOrSpaces(b, c0, n0, true, eof)
}

// o200kWordAfterPrefix tries alternatives 1 and 2 in regexp2's order at b,
// whose first rune (class c0, n0 bytes) is a prefix: 1 with the prefix, 1
// without, 2 with, 2 without.
func o200kWordAfterPrefix(b []byte, n0 int, c0 uint8, eof bool) int {
	if e := upperLower(b, n0, eof); e != noMatch {
		return contraction(b, e, eof)
	}
	if c0&cLower != 0 {
		if e := upperLower(b, 0, eof); e != noMatch {
			return contraction(b, e, eof)
		}
	}
	if e := upperThenLower(b, n0, eof); e != noMatch {
		return contraction(b, e, eof)
	}
	if c0&cUpper != 0 {
		if e := upperThenLower(b, 0, eof); e != noMatch {
			return contraction(b, e, eof)
		}
	}
	return noMatch
}

// o200kWord matches alternative 1, then 2, without a prefix at b[s:].
func o200kWord(b []byte, s int, eof bool) int {
	e := upperLower(b, s, eof)
	if e == noMatch {
		e = upperThenLower(b, s, eof)
	}
	if e <= noMatch {
		return e
	}
	return contraction(b, e, eof)
}

// upperLower matches upper*lower+ at b[s:] and returns where the match
// ends. upper* takes the longest run of upper runes; when no lower rune
// follows it, it gives runes back until the one after it is lower. The
// greedy lower+ then runs on.
func upperLower(b []byte, s int, eof bool) int {
	i, lastLower := s, -1 // lastLower: start of the last run rune that is also lower
	for {
		i = asciiRun(b, i, cUpper) // the ASCII upper runes, A to Z, are not lower
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cUpper == 0 {
			if n > 0 && c&cLower != 0 {
				return lowerRun(b, i, eof)
			}
			if lastLower < 0 {
				return noMatch
			}
			// Back to lastLower: lower+ takes it, and the rune after it
			// (upper and not lower, or the end of the run) stops lower+.
			_, m := runeClass(b, lastLower, eof)
			return lastLower + m
		}
		if c&cLower != 0 {
			lastLower = i
		}
		i += n
	}
}

// upperThenLower matches upper+lower* at b[s:].
func upperThenLower(b []byte, s int, eof bool) int {
	c, n := runeClass(b, s, eof)
	if n < 0 {
		return needMore
	}
	if n == 0 || c&cUpper == 0 {
		return noMatch
	}
	i := s + n
	for {
		i = asciiRun(b, i, cUpper)
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cUpper == 0 {
			return lowerRun(b, i, eof)
		}
		i += n
	}
}

// lowerRun returns the end of the run of lower runes at b[i:].
func lowerRun(b []byte, i int, eof bool) int {
	for {
		i = asciiRun(b, i, cLower)
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cLower == 0 {
			return i
		}
		i += n
	}
}

// contraction extends a word that ends at e (or passes needMore through)
// by (?i:'s|'t|'re|'ve|'m|'ll|'d) if one follows. regexp2 compares
// unicode.ToLower of each rune with the pattern, and only the ASCII
// capitals lower to these letters (TestContractionLetters checks).
func contraction(b []byte, e int, eof bool) int {
	if e < 0 {
		return e
	}
	if n := contractionLen(b[e:], eof); n > 0 {
		return e + n
	} else if n == needMore {
		return needMore
	}
	return e
}

// contractionLen returns the length of the contraction that starts b, 0
// if none does, or needMore.
func contractionLen(b []byte, eof bool) int {
	if len(b) == 0 {
		if eof {
			return 0
		}
		return needMore
	}
	if b[0] != '\'' {
		return 0
	}
	if len(b) < 2 {
		if eof {
			return 0
		}
		return needMore
	}
	var second byte
	switch b[1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		second = 'e'
	case 'l':
		second = 'l'
	default:
		return 0
	}
	if len(b) < 3 {
		if eof {
			return 0
		}
		return needMore
	}
	if b[2]|0x20 == second {
		return 3
	}
	return 0
}

// numbers matches \p{N}{1,3} at b, whose first rune, a number, is n0 bytes.
func numbers(b []byte, n0 int, eof bool) int {
	i := n0
	for k := 1; k < 3; k++ {
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cNumber == 0 {
			break
		}
		i += n
	}
	return i
}

// punctOrSpaces matches, at b whose first rune (class c0, n0 bytes) is not
// a letter, a number or a newline and starts no word, alternative 4, then
// 5 to 7. slash says whether a slash may follow the punctuation (o200k).
func punctOrSpaces(b []byte, c0 uint8, n0 int, slash bool, eof bool) int {
	if c0&cSpace == 0 { // punctuation: alternative 4 without the space
		return punct(b, 0, slash, eof)
	}
	if b[0] == ' ' {
		c1, n1 := runeClass(b, 1, eof)
		if n1 < 0 {
			return needMore
		}
		if n1 > 0 && isPunct(c1) {
			return punct(b, 1, slash, eof)
		}
	}
	return spaces(b, eof)
}

// punct matches [^\s\p{L}\p{N}]+[\r\n/]* (or [\r\n]* without slash) at
// b[i:], whose first rune is punctuation.
func punct(b []byte, i int, slash bool, eof bool) int {
	for {
		for i < len(b) && b[i] < utf8.RuneSelf && isPunct(bmpClass[b[i]]) {
			i++
		}
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || !isPunct(c) {
			break
		}
		i += n
	}
	for ; ; i++ {
		if i == len(b) {
			if eof {
				return i
			}
			return needMore
		}
		if c := b[i]; c != '\r' && c != '\n' && !(slash && c == '/') {
			return i
		}
	}
}

// spaces matches alternatives 5 to 7 at b, which starts with white space:
// up to the last newline of the white space run if it has one (5); else
// the whole run at the end of the text (6), the run but its last rune when
// the run has two runes or more (6), or the one rune (7).
func spaces(b []byte, eof bool) int {
	i, lastNewline, last := 0, -1, 0
	for {
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cSpace == 0 {
			switch {
			case lastNewline >= 0:
				return lastNewline + 1 // \r and \n are one byte
			case n == 0, last == 0:
				return i
			}
			return last
		}
		if c&cNewline != 0 {
			lastNewline = i
		}
		last = i
		i += n
	}
}

// splitCl100k returns the length of the cl100k_base piece that starts b
// (b is not empty), or needMore.
func splitCl100k(b []byte, eof bool) int {
	if b[0] == '\'' { // alternative 1
		if n := contractionLen(b, eof); n != 0 {
			return n
		}
	}
	c0, n0 := runeClass(b, 0, eof)
	if n0 < 0 {
		return needMore
	}
	switch {
	case c0&cLetter != 0:
		return letterRun(b, n0, eof)
	case c0&cNumber != 0:
		return numbers(b, n0, eof)
	case c0&cNewline != 0:
		return spaces(b, eof)
	}
	// c0 is a prefix, and not a letter, so alternative 2 needs a letter
	// after it.
	c1, n1 := runeClass(b, n0, eof)
	if n1 < 0 {
		return needMore
	}
	if n1 > 0 && c1&cLetter != 0 {
		return letterRun(b, n0+n1, eof)
	}
	return punctOrSpaces(b, c0, n0, false, eof)
}

// letterRun returns the end of the run of letters at b[i:].
func letterRun(b []byte, i int, eof bool) int {
	for {
		i = asciiRun(b, i, cLetter)
		c, n := runeClass(b, i, eof)
		if n < 0 {
			return needMore
		}
		if n == 0 || c&cLetter == 0 {
			return i
		}
		i += n
	}
}
