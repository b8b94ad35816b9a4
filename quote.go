package toon

// The quoting rules of §7.2 and §7.3 (and the delimiter rule of §11.1):
// which bytes of a string force quotes or need an escape, which shapes of
// a string force quotes, and which keys may stand bare. charClass is the
// one table of the byte rules; the word-at-a-time tests below (special,
// strFlags) and the row kernel's tables are tested against it.

import "github.com/toonstream/toon/internal/mem"

// Byte classes for the quoting decisions, one bit per reason, looked up in
// charClass. A string is scanned once, OR-ing the classes of its bytes; the
// accumulated mask then answers every "contains" question of §7.2 at once.
const (
	clsQuote  uint8 = 1 << iota // forces quotes on a value: U+0000–U+001F, : " \ [ ] { }
	clsEscape                   // needs an escape inside quotes: " \ U+0000–U+001F
	clsComma                    // ','
	clsPipe                     // '|'
	clsHigh                     // a byte ≥ 0x80 (UTF-8 is checked only then)
	clsKeyBad                   // not in [A-Za-z0-9_.]: the key must be quoted (§7.3)
	clsFirst                    // at position 0, calls for a closer look: - # space digit + t f n
)

var charClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c < 0x20:
			k = clsQuote | clsEscape
		case c == '"' || c == '\\':
			k = clsQuote | clsEscape
		case c == ':' || c == '[' || c == ']' || c == '{' || c == '}':
			k = clsQuote
		case c == ',':
			k = clsComma
		case c == '|':
			k = clsPipe
		case c >= 0x80:
			k = clsHigh
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.') {
			k |= clsKeyBad
		}
		if c == '-' || c == '#' || c == ' ' || c >= '0' && c <= '9' || c == '+' || c == 't' || c == 'f' || c == 'n' {
			k |= clsFirst
		}
		t[c] = k
	}
	return t
}()

// quoteMask returns the classes that force quotes on a value when delim is
// the relevant delimiter (§11.1). A tab is a control character, which is
// always quoted, so it needs no class of its own.
func quoteMask(delim Delimiter) uint8 {
	switch delim {
	case Comma:
		return clsQuote | clsComma
	case Pipe:
		return clsQuote | clsPipe
	}
	return clsQuote
}

// classify ORs the classes of every byte of s. The bytes are read as
// words, the last of them overlapping the one before where the length is
// not a multiple of 8 (a string of fewer than 8 bytes as smallWord's or two
// 4-byte words): a byte counted twice does not change the OR, and no loop
// runs over single bytes.
func classify(s string) uint8 {
	p := mem.StringData(s)
	n := len(s)
	var x uint64
	switch {
	case n >= 8:
		var a uint8
		for i := 0; i < n-8; i += 8 {
			a |= wordClass8(p.Load64(i))
		}
		return a | wordClass8(p.Load64(n-8))
	case n >= 4:
		x = uint64(p.Load32(0)) | uint64(p.Load32(n-4))<<32
	case n > 0:
		x = smallWord(p, n)
	default:
		return 0
	}
	return wordClass8(x)
}

// wordClass8 ORs the classes (charClass) of the eight bytes of x.
func wordClass8(x uint64) uint8 {
	a := charClass[uint8(x)] | charClass[uint8(x>>8)] | charClass[uint8(x>>16)] | charClass[uint8(x>>24)]
	b := charClass[uint8(x>>32)] | charClass[uint8(x>>40)] | charClass[uint8(x>>48)] | charClass[uint8(x>>56)]
	return a | b
}

// delimWords holds the active delimiter repeated in every byte of a word,
// indexed by quoteMask(d)>>2&3 (tab, comma, pipe).
var delimWords = [4]uint64{'\t' * lo8, ',' * lo8, '|' * lo8, '\t' * lo8}

// delimWord returns the delimiter word for a quoting mask.
func delimWord(mask uint8) uint64 { return delimWords[mask>>2&3] }

// Word classes: what the word-at-a-time tests (special, and the row
// kernel's tables) make of a byte. wordHard is an ASCII byte after which
// only the exact test can tell whether and how the string is quoted: one
// that may need an escape, or one of '[', ']', '{', '|' and '}', which the
// word test cannot tell from '\\' (see special). wordQuote is any other
// byte that forces quotes: ':' and the delimiter. wordHigh is a byte of
// 0x80 and above, which is an ordinary byte of the string's text (§7.2
// quotes for none) when the string is valid UTF-8, and is replaced with
// the rest of its ill-formed sequence otherwise (appendStrSlow): a string
// with one is written as it is once validString accepts it.
const (
	wordHard  = 0x80
	wordHigh  = 0x40
	wordQuote = 0x01
)

// wordClass returns the word class of byte c under delimiter d, from
// charClass: the one statement of what special flags, which the row
// kernel's class tables must equal (TestWordClass checks special and
// strFlags against it for every byte in every lane).
func wordClass(c byte, d Delimiter) uint8 {
	k := charClass[c]
	switch {
	case k&clsHigh != 0:
		return wordHigh
	case k&clsEscape != 0 || (c|0x20)-'{' < 3:
		return wordHard
	case k&quoteMask(d) != 0:
		return wordQuote
	}
	return 0
}

// special tests the bytes of a word of a string for §7.1 and §7.2. In the
// high bit of some byte lane, hard has a bit if some ASCII byte may need
// an escape or force quotes: a control U+0000–U+001F, '"', '[', '\\',
// ']', '{', '|' or '}'; quo has one if some byte is ':' or the delimiter
// repeated in dw, which force quotes (§7.2, §11.1); and high, which is x,
// if some byte is not ASCII. Only the high bits mean anything, and only
// for the word as a whole, not for which lane holds them.
//
// The tests are the "has a byte less than n" (y-n*lo8)&^y of Hacker's
// Delight, applied to y = x XOR a repeated byte. With n = 1 that is "has
// that byte"; with x^0x02 and n = 0x21 it is "has a control or '"'", as
// x^0x02 maps U+0000–U+001F onto 0x00–0x1f, '"' onto 0x20 and every other
// ASCII byte onto 0x21 or above. x|0x20 folds '[', '\\' and ']' onto '{',
// '|' and '}', and for ASCII bytes (z+5)&^(z+2) has the high bit set
// exactly for those three. The lanes of bytes of 0x80 and above are
// masked off (&^x), so that a string of any script passes as its ASCII
// bytes do. A borrow can flag the lane above a true hit, which only adds
// bits to a word that has one; a carry out of z+5 (a byte 0xdb–0xdf or
// 0xfb–0xff) can flag the ASCII byte after it, which in UTF-8 it never is
// (0xdb–0xdf lead a sequence, 0xfb–0xff are never valid): that only sends
// an ill-formed string to the exact test, which it goes to anyway.
func special(x, dw uint64) (hard, quo, high uint64) {
	z := x | 0x20*lo8
	hard = (((x ^ 0x02*lo8) - 0x21*lo8) | (z+0x05*lo8)&^(z+0x02*lo8)) &^ x
	quo = (((x ^ ':'*lo8) - lo8) | ((x ^ dw) - lo8)) &^ x
	return hard, quo, x
}

// smallWord returns a word of the bytes of s for 0 < n < 4, repeated.
func smallWord(p mem.Ptr, n int) uint64 {
	v := uint64(p.Byte(0)) | uint64(p.Byte(n>>1))<<8 | uint64(p.Byte(n-1))<<16
	return v | v<<24 | (v&0xffff)<<48
}

// strFlags tells apart what special lumps together, exactly, for the whole
// of s: in the high bits of each byte lane, esc has a bit if some byte needs
// an escape inside quotes, quo if some byte forces quotes without one, and
// high if some byte is not ASCII.
func strFlags(s string, dw uint64) (esc, quo, high uint64) {
	p := mem.StringData(s)
	n := len(s)
	i, last := 0, n-8
	var x uint64
	switch {
	case n >= 8:
		x = p.Load64(0)
	case n >= 4:
		x, last = uint64(p.Load32(0))|uint64(p.Load32(n-4))<<32, 0
	case n > 0:
		x, last = smallWord(p, n), 0
	default:
		return 0, 0, 0
	}
	for {
		t := x ^ '"'*lo8
		esc |= (x-0x20*lo8)&^x | (t-lo8)&^t
		t = x ^ '\\'*lo8
		esc |= (t - lo8) &^ t
		t = x ^ ':'*lo8
		quo |= (t - lo8) &^ t
		t = x ^ dw
		quo |= (t - lo8) &^ t
		z := x | 0x20*lo8
		t = z ^ '{'*lo8
		quo |= (t - lo8) &^ t
		t = z ^ '}'*lo8
		quo |= (t - lo8) &^ t
		high |= x
		if i == last {
			break
		}
		i = min(i+8, last)
		x = p.Load64(i)
	}
	return esc & hi8, quo & hi8, high & hi8
}

// The answers of shapeOf.
const (
	shapePlain  = iota // the shape asks for no quotes
	shapeQuoted        // the shape asks for quotes
	shapeNumber        // s starts and ends as a number does: quoted if numericLike(s)
)

// shapeOf applies the §7.2 reasons to quote a non-empty string that do not
// come from the bytes it contains, but for the numeric-like test, which it
// leaves to numericLike when the first byte is a digit or '+' and the last
// a digit: leading or trailing space, a leading hyphen or number sign, and
// the literals true, false and null. (Tabs are control characters and
// force quotes through charClass.) It is small enough to inline, so that
// the row writer's loop can use it without a call.
func shapeOf(s string) int {
	c := s[0]
	switch {
	case s[len(s)-1] == ' ': // trailing whitespace, whatever the first byte
		return shapeQuoted
	case charClass[c]&clsFirst == 0:
		return shapePlain
	case c-'0' < 10 || c == '+':
		// A numeric-like string ends in a digit (numericLike): "10m" or
		// "25%" needs no closer look.
		if s[len(s)-1]-'0' >= 10 {
			return shapePlain
		}
		return shapeNumber
	case s == "true" || s == "false" || s == "null":
		return shapeQuoted
	case c >= 'a': // t, f or n, not starting a literal
		return shapePlain
	}
	return shapeQuoted // '-', '#' or ' '
}

// quoteByShape reports whether the shape of the non-empty string s asks for
// quotes (§7.2): shapeOf, with the numeric-like test.
func quoteByShape(s string) bool {
	switch shapeOf(s) {
	case shapeQuoted:
		return true
	case shapeNumber:
		return numericLike(s)
	}
	return false
}

// bareKey reports whether the key k, whose classes are cls = classify(k),
// may stand unquoted (§7.3): it matches /^[A-Za-z_][A-Za-z0-9_.]*$/.
func bareKey(k string, cls uint8) bool {
	return len(k) > 0 && cls&clsKeyBad == 0 && (k[0] == '_' || (k[0]|0x20)-'a' < 26)
}

// numericLike reports whether s matches
// /^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i (§7.2). It is only called
// for strings that do not end in a space.
func numericLike(s string) bool {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	j := i
	for j < len(s) && s[j]-'0' < 10 {
		j++
	}
	if j == i {
		return false
	}
	if j < len(s) && s[j] == '.' {
		j++
		k := j
		for j < len(s) && s[j]-'0' < 10 {
			j++
		}
		if j == k {
			return false
		}
	}
	if j < len(s) && s[j]|0x20 == 'e' {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for j < len(s) && s[j]-'0' < 10 {
			j++
		}
		if j == k {
			return false
		}
	}
	return j == len(s)
}
