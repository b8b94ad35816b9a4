package toon

// The text of primitives as the encoder writes it: strings quoted and
// escaped as quote.go decides (§7.1, §7.2), keys (§7.3), numbers in
// canonical form (§2), indentation and the parts of headers. Everything
// here appends to a []byte and returns it; nothing allocates on the
// common paths.

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/toonstream/toon/internal/mem"
)

// SWAR constants: a byte value repeated in every byte of a word.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
	lo4 = 0x01010101 // lo8 in the low 4 bytes only
)

// appendStr appends the string value s, in quotes and escaped where §7.1
// and §7.2 require it. mask is quoteMask of the relevant delimiter.
// Ill-formed UTF-8 is replaced by U+FFFD, so the output is always UTF-8.
func appendStr(b []byte, s string, mask uint8) []byte {
	return appendStrW(b, s, delimWord(mask))
}

// appendStrW is appendStr with the delimiter given as a word (delimWord).
func appendStrW(b []byte, s string, dw uint64) []byte {
	b, p, o := spare(b, len(s)+2, false)
	if n := putStr(p, s, dw); n >= 0 {
		return b[:o+n]
	}
	return appendStrSlow(b, s, dw)
}

// putStr writes the string value s at p, in quotes if §7.2 requires them,
// and returns how many bytes it wrote; p must have room for len(s)+2. It
// settles the common cases, strings of valid UTF-8 with no byte that needs
// an escape: the special test on the first and last 8 bytes (4 for
// strings of 4 to 7 bytes; the words overlap when the string is short)
// and on the words between them if any, validString if a byte is not
// ASCII, and the shapes of §7.2 (shapeOf, and numericLike for text that
// starts as a number does). For every other string it writes nothing and
// returns -1, for appendStrSlow.
//
// The text is stored a word at a time from the words just tested, after an
// opening quote that the first word overwrites when no quotes are needed;
// the closing quote lands just past the text, where it is counted only if
// the string is quoted.
func putStr(p mem.Ptr, s string, dw uint64) int {
	n := len(s)
	sp := mem.StringData(s)
	var x0, x1, hard, quo, high uint64
	switch {
	case n > 16:
		return putLongStr(p, s, dw)
	case n >= 8:
		// Unaligned loads are fine where Go runs.
		x0, x1 = sp.Load64(0), sp.Load64(n-8)
		h0, q0, g0 := special(x0, dw)
		h1, q1, g1 := special(x1, dw)
		hard, quo, high = h0|h1, q0|q1, g0|g1
	case n >= 4:
		x0, x1 = uint64(sp.Load32(0)), uint64(sp.Load32(n-4))
		hard, quo, high = special(x0|x1<<32, dw)
	case n > 0:
		hard, quo, high = special(smallWord(sp, n), dw)
	default:
		p.Store16(0, '"'|'"'<<8)
		return 2
	}
	if (hard|high)&hi8 != 0 && (hard&hi8 != 0 || !validString(s)) {
		return -1
	}
	q := 0
	if quo&hi8 != 0 {
		q = 1
	} else if k := shapeOf(s); k == shapeQuoted || k == shapeNumber && numericLike(s) {
		q = 1
	}
	p.SetByte(0, '"')
	d := p.Add(q)
	switch {
	case n >= 8:
		d.Store64(0, x0)
		d.Store64(n-8, x1)
	case n >= 4:
		d.Store32(0, uint32(x0))
		d.Store32(n-4, uint32(x1))
	default:
		d.SetByte(0, s[0])
		d.SetByte(n>>1, s[n>>1])
		d.SetByte(n-1, s[n-1])
	}
	d.SetByte(n, '"')
	return n + 2*q
}

// putLongStr is putStr for strings of more than 16 bytes.
func putLongStr(p mem.Ptr, s string, dw uint64) int {
	n := len(s)
	sp := mem.StringData(s)
	last := sp.Load64(n - 8)
	hard, quo, high := special(last, dw)
	for i := 0; i < n-8 && hard&hi8 == 0; i += 8 {
		h, q, g := special(sp.Load64(i), dw)
		hard, quo, high = hard|h, quo|q, high|g
	}
	if (hard|high)&hi8 != 0 && (hard&hi8 != 0 || !validString(s)) {
		return -1
	}
	q := 0
	if quo&hi8 != 0 {
		q = 1
	} else if k := shapeOf(s); k == shapeQuoted || k == shapeNumber && numericLike(s) {
		q = 1
	}
	p.SetByte(0, '"')
	d := p.Add(q)
	if n <= 64 {
		for i := 0; i < n-8; i += 8 {
			d.Store64(i, sp.Load64(i))
		}
		d.Store64(n-8, last)
	} else {
		copy(mem.BytesAt(d, n), s)
	}
	d.SetByte(n, '"')
	return n + 2*q
}

// appendStrSlow is appendStrW for the strings its fast test does not
// settle: those with a byte that may need an escape or force quotes, and
// those that are not valid UTF-8. A string with a byte that needs an
// escape is written by appendEscaped, which also tells whether it met a
// byte that is not ASCII: only then is the string checked for UTF-8, and
// written again with its ill-formed bytes replaced if it is not valid.
func appendStrSlow(b []byte, s string, dw uint64) []byte {
	if len(s) == 0 {
		return append(b, '"', '"')
	}
	if escIndex(s) < len(s) {
		o := len(b)
		b, high := appendEscaped(b, s)
		if high&hi8 == 0 || validString(s) {
			return b
		}
		b, _ = appendEscaped(b[:o], strings.ToValidUTF8(s, "\uFFFD"))
		return b
	}
	// quo comes from ASCII bytes only, which replacing ill-formed bytes
	// leaves alone.
	_, quo, high := strFlags(s, dw)
	if high&hi8 != 0 && !validString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if quo != 0 || quoteByShape(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	return append(b, s...)
}

// validString reports whether s is well-formed UTF-8: utf8Valid, the
// module's validator (faster than utf8.ValidString on text that is not
// ASCII), on the bytes of s.
func validString(s string) bool { return utf8Valid(mem.Bytes(s)) }

// escWord has the high bit set in the lane of the first byte of x that
// needs an escape inside quotes (§7.1: a control U+0000–U+001F, '"' or
// '\\'), and maybe in lanes above it, or is 0 if none does: the tests of
// special, (y-n*lo8)&^y, whose borrows only flag lanes above a true hit,
// and whose lanes of bytes of 0x80 and above are masked off.
func escWord(x uint64) uint64 {
	t := x ^ 0x02*lo8 // U+0000–U+001F and '"' onto 0x00–0x20
	u := x ^ '\\'*lo8
	return ((t - 0x21*lo8) | (u - lo8)) &^ x & hi8
}

// escIndex returns the index of the first byte of s that needs an escape
// inside quotes, or len(s) if none does: a word at a time, the words
// tested by escWord.
func escIndex(s string) int {
	p := mem.StringData(s)
	n := len(s)
	i := 0
	for ; i+8 <= n; i += 8 {
		if m := escWord(p.Load64(i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if n >= 8 {
		// The last bytes, in the word that ends with them; the lanes
		// before i were tested already and had nothing.
		if m := escWord(p.Load64(n-8)) >> (8 * (i - n + 8)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		return n
	}
	for ; i < n; i++ {
		if charClass[p.Byte(i)]&clsEscape != 0 {
			return i
		}
	}
	return n
}

// escRoom is the room appendEscaped keeps past the rest of the text
// while it writes: an escape stored as a whole word (8 bytes), the word
// that may end the text, and the closing quote.
const escRoom = 17

// escSeqs holds the escape of §7.1 of each byte that needs one (a control
// U+0000–U+001F, '"' or '\\'), in the low bytes of a word, with its length
// (2, or 6 for \u00xx) in the top byte; the other entries are unused.
var escSeqs = func() (t [0x80]uint64) {
	put := func(c byte, seq string) {
		var w uint64
		for k := len(seq) - 1; k >= 0; k-- {
			w = w<<8 | uint64(seq[k])
		}
		t[c] = w | uint64(len(seq))<<56
	}
	for c := byte(0); c < 0x20; c++ {
		put(c, `\u00`+string(hexDigits[c>>4])+string(hexDigits[c&15]))
	}
	put('\n', `\n`)
	put('\r', `\r`)
	put('\t', `\t`)
	put('"', `\"`)
	put('\\', `\\`)
	return t
}()

// appendEscaped appends s in double quotes with the escapes of §7.1 (see
// appendQuoted), and returns with it the OR of the words of s it read,
// whose high bits tell whether s has a byte that is not ASCII. The text
// between the bytes that need an escape is copied a word at a time (two
// at a time while 16 bytes remain) as escWord tests it: each word is
// stored whole, and the escape of the first byte that needs one
// overwrites the bytes of the word from its own on. The last bytes of a
// string of 8 bytes or more are read in the word that ends with them.
// The output is written through a pointer into b's spare capacity, which
// is kept at least escRoom bytes past the rest of the text at each
// escape; an escape is stored as a word of escSeqs.
func appendEscaped(b []byte, s string) ([]byte, uint64) {
	n := len(s)
	if cap(b)-len(b) < n+n/8+escRoom {
		b = slices.Grow(b, n+n/8+escRoom)
	}
	b = append(b, '"')
	d, j, c := mem.BytesData(b), len(b), cap(b)
	sp := mem.StringData(s)
	var high uint64
	i := 0
	for {
		// A run of bytes that need no escape, from i.
		for i+16 <= n {
			x0, x1 := sp.Load64(i), sp.Load64(i+8)
			d.Store64(j, x0)
			d.Store64(j+8, x1)
			high |= x0 | x1
			m0, m1 := escWord(x0), escWord(x1)
			if m0|m1 != 0 {
				k := bits.TrailingZeros64(m0) >> 3
				if m0 == 0 {
					k = 8 + bits.TrailingZeros64(m1)>>3
				}
				i, j = i+k, j+k
				goto escape
			}
			i, j = i+16, j+16
		}
		if i+8 <= n {
			x := sp.Load64(i)
			d.Store64(j, x)
			high |= x
			if m := escWord(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				i, j = i+k, j+k
				goto escape
			}
			i, j = i+8, j+8
		}
		if i == n {
			break
		}
		if n >= 8 {
			// The r < 8 bytes left, in the low lanes of the word
			// that ends the string; the lanes above them (zeros,
			// which escWord flags) are masked off.
			r := n - i
			x := sp.Load64(n-8) >> (64 - 8*r)
			d.Store64(j, x)
			high |= x
			m := escWord(x) & (1<<(8*r) - 1)
			if m == 0 {
				i, j = n, j+r
				break
			}
			k := bits.TrailingZeros64(m) >> 3
			i, j = i+k, j+k
		} else {
			for i < n && charClass[sp.Byte(i)]&clsEscape == 0 {
				d.SetByte(j, sp.Byte(i))
				high |= uint64(sp.Byte(i))
				i, j = i+1, j+1
			}
			if i == n {
				break
			}
		}
	escape:
		// s[i] needs an escape.
		if c-j < n-i+escRoom {
			b = slices.Grow(b[:j], n-i+(n-i)/8+escRoom)
			d, c = mem.BytesData(b), cap(b)
		}
		e := escSeqs[sp.Byte(i)&0x7f]
		d.Store64(j, e)
		i, j = i+1, j+int(e>>56)
	}
	d.SetByte(j, '"')
	return b[:j+1], high
}

// appendBytesStr is appendStr for a byte slice.
func appendBytesStr(b []byte, s []byte, mask uint8) []byte {
	return appendStr(b, mem.String(s), mask)
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s in double quotes with the escapes of §7.1: \\, \",
// \n, \r, \t, and \u00xx (lowercase hex) for the other controls. cls is
// classify(s); when it has no clsEscape bit the bytes are copied as they are.
func appendQuoted(b []byte, s string, cls uint8) []byte {
	if cls&clsEscape != 0 {
		b, _ = appendEscaped(b, s)
		return b
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendShort appends s, copying a text of 1 to 16 bytes by words (mem's
// copies, which write its bytes alone), without the call to memmove, where
// b has room for it: most keys and numbers are that short.
func appendShort(b []byte, s string) []byte {
	n, o := len(s), len(b)
	if uint(n-1) >= 16 || cap(b)-o < n {
		return append(b, s...)
	}
	b = b[:o+n]
	switch q, p := mem.BytesData(b).Add(o), mem.StringData(s); {
	case n >= 8:
		mem.Copy8To16(q, p, n)
	case n >= 4:
		mem.Copy4To7(q, p, n)
	default:
		mem.Copy1To3(q, p, n)
	}
	return b
}

// appendKey appends an object key, entry key or field name: bare when it
// matches /^[A-Za-z_][A-Za-z0-9_.]*$/ (§7.3), quoted and escaped otherwise.
// A key that is not valid UTF-8 has its bad bytes replaced by U+FFFD.
func appendKey(b []byte, k string) []byte {
	b, _ = appendKeyR(b, k)
	return b
}

// appendKeyR is appendKey, and reports whether k had bad bytes replaced:
// its text is then that of writtenKey(k), which other keys may share.
func appendKeyR(b []byte, k string) ([]byte, bool) {
	cls := classify(k)
	if bareKey(k, cls) {
		return appendShort(b, k), false
	}
	if cls&clsHigh != 0 && !validString(k) {
		k = strings.ToValidUTF8(k, "\uFFFD")
		return appendQuoted(b, k, classify(k)), true
	}
	return appendQuoted(b, k, cls), false
}

// writtenKey returns the key that appendKey writes for k: k itself, or k
// with its bad bytes replaced by U+FFFD. Distinct keys that are not valid
// UTF-8 can have the same written key; in one object (or one field list)
// that would be a duplicate key, which a strict decoder rejects (§14.3),
// so the writers report it as an error instead (keyClash).
func writtenKey(k string) string {
	if validString(k) {
		return k
	}
	return strings.ToValidUTF8(k, "\uFFFD")
}

// appendFloat appends f as a canonical number (§2): the shortest text that
// reads back as the same value (bits is 32 for float32, 64 for float64),
// plain decimal for 0 and for 1e-6 ≤ |f| < 1e21, exponent notation with a
// lowercase e and an explicit sign outside that range, -0 as 0, and NaN and
// the infinities as null (§3).
func appendFloat(b []byte, f float64, bits int) []byte {
	b, p, o := spare(b, numRoom, false)
	if bits == 64 {
		// putFloat8 is called here rather than through a function of
		// both (which would not inline): a call less for the common float.
		if a := math.Abs(f); a >= 1e-6 && a < 1e7 {
			if n := putFloat8(p, f, a); n >= 0 {
				return b[:o+n]
			}
		}
		if n := putFloatRest(p, f); n >= 0 {
			return b[:o+n]
		}
	} else if n := putFloat32(p, float32(f)); n >= 0 {
		return b[:o+n]
	}
	return appendFloatSlow(b[:o], f, bits)
}

// appendFloatRest is appendFloat of a float64 without its first fast
// path, putFloat8, for callers that have tried it.
func appendFloatRest(b []byte, f float64) []byte {
	b, p, o := spare(b, numRoom, false)
	if n := putFloatRest(p, f); n >= 0 {
		return b[:o+n]
	}
	return appendFloatSlow(b, f, 64)
}

// appendFloatSlow is appendFloat for the floats putFloatRest and putFloat32
// leave: NaN, the infinities and subnormals, through strconv.
func appendFloatSlow(b []byte, f float64, bits int) []byte {
	if f == 0 {
		return append(b, '0')
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, bits)
	}
	b = strconv.AppendFloat(b, f, 'e', -1, bits)
	// strconv writes at least two exponent digits ("1e-07"); drop the
	// padding zero so the exponent is as short as it can be ("1e-7").
	n := len(b)
	if b[n-4] == 'e' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// putFloatRest writes the canonical text of the float64 f (see
// appendFloat) at p, which has numRoom bytes of room, and returns its
// length, for the floats putFloat8 does not take; for NaN, the infinities
// and subnormals it writes nothing and returns -1. It writes 0, the whole
// numbers below 2^53 as integers, the decimals from 10^7 to 10^15 of at
// most 15 digits (putFloatScaled), and every other normal float64 as
// shortestDigits finds its digits, laid out by putDigits.
func putFloatRest(p mem.Ptr, f float64) int {
	fb := math.Float64bits(f)
	neg, c, q, normal := floatParts(fb, 11, 52) // |f| = c·2^q
	if !normal {
		return putZero(p, fb<<1 == 0)
	}
	p.SetByte(0, '-')
	p = p.Add(neg)
	if q < 0 && q > -53 && c<<(64+q) == 0 {
		// A whole number below 2^53: its digits are its own shortest
		// decimal (another with fewer significant digits would be a
		// multiple of a higher power of ten, at least 1 away).
		return neg + putUint(p, c>>-q)
	}
	a := math.Abs(f)
	if a >= 1e7 && a < 1e15 {
		if n := putFloatScaled(p, a); n >= 0 {
			return neg + n
		}
	}
	n, e := shortestDigits(c, q, c == 1<<52 && q != -1074, false)
	// h and top from n each, rather than top from h: two short chains
	// of multiplications in place of one long one.
	h, top := n/1e8, n/1e16
	return neg + putDigits(p, top, digits8(h-top*1e8), digits8(n-h*1e8), e, a >= 1e-6 && a < 1e21)
}

// putFloat32 is putFloatRest for a float32, and the whole of appendFloat's
// fast path for one: the text of f is that of the shortest decimal that
// reads back as f when read as a float32 (float32(0.1) is 0.1, where the
// same value as a float64 is 0.10000000149011612). For NaN, the
// infinities and subnormals it writes nothing and returns -1.
func putFloat32(p mem.Ptr, f float32) int {
	fb := math.Float32bits(f)
	neg, c, q, normal := floatParts(uint64(fb), 8, 23)
	if !normal {
		return putZero(p, fb<<1 == 0)
	}
	p.SetByte(0, '-')
	p = p.Add(neg)
	if q < 0 && q > -24 && c<<(64+q) == 0 {
		return neg + putUint(p, c>>-q) // a whole number below 2^24 (see putFloatRest)
	}
	n, e := shortestDigits(c, q, c == 1<<23 && q != -149, true)
	// n has 7 to 9 digits (c·2^q/10^k, with 2^23 ≤ c < 2^24 and
	// 1 ≤ 2^q/10^k < 10): made 9, they are the first 9 of the 17 that
	// putDigits takes, n·10^8, whose last 8 are zeros.
	for n < 1e8 {
		n, e = n*10, e-1
	}
	top := n / 1e8
	a := math.Abs(float64(f))
	return neg + putDigits(p, top, digits8(n-top*1e8), 0, e-8, a >= 1e-6 && a < 1e21)
}

// floatParts splits the bits fb of a binary float of ebits exponent bits
// and mbits fraction bits (its sign bit above them): neg is 1 when it is
// negative; for a normal float, c and q are such that |f| = c·2^q; normal
// is false for 0, subnormals, the infinities and NaN.
func floatParts(fb uint64, ebits, mbits uint) (neg int, c uint64, q int, normal bool) {
	be := fb >> mbits & (1<<ebits - 1) // the biased exponent
	neg = int(fb >> (ebits + mbits))
	c = fb&(1<<mbits-1) | 1<<mbits
	q = int(be) - (1<<(ebits-1) - 1) - int(mbits)
	return neg, c, q, be-1 < 1<<ebits-2 // not 0, nor all ones
}

// putZero writes the text of a float that is not normal when it is a zero
// ("0", of either sign) and returns its length; for the others (NaN, the
// infinities and subnormals) it writes nothing and returns -1.
func putZero(p mem.Ptr, zero bool) int {
	if zero {
		p.SetByte(0, '0')
		return 1
	}
	return -1
}

// putFloatScaled writes a, for 10^7 ≤ a < 10^15, at p (numRoom-1 bytes of
// room) when a decimal with at most K = 15 - (the digits of its integer
// part) fraction digits reads back as a, and returns its length; else it
// writes nothing and returns -1. It is putFloat8's way with the scale
// 10^K that keeps a·10^K below 10^15 (see there why it is exact and
// shortest: a decimal with more fraction digits has more than 15
// significant ones).
func putFloatScaled(p mem.Ptr, a float64) int {
	ip := uint64(a)      // the integer part, 8 to 15 digits
	k := 15 - decLen(ip) // 0 to 7
	m := uint64(a*exactPow10[k] + 0.5)
	fp := m - ip*pow10u[k] // the k fraction digits
	if float64(m)/exactPow10[k] != a || fp >= pow10u[k] {
		return -1
	}
	ni := putUint(p, ip)
	if fp == 0 {
		return ni
	}
	// The fraction's k digits, the last k of digits8(fp); its trailing
	// zeros are the high zero bytes, cut off by the length.
	w := digits8(fp)
	p.SetByte(ni, '.')
	p.Store64(ni+1, (w+'0'*lo8)>>(64-8*k))
	return ni + 1 + k - bits.LeadingZeros64(w)>>3
}

// putFloat8 writes f, for 1e-6 ≤ a = |f| < 1e7, at p (numRoom bytes of
// room) when some decimal with at most 8 fraction digits reads back as f,
// and returns its length; otherwise it writes nothing and returns -1.
// These are the common shapes of prices, ratios and measures, written
// with one multiplication and one division where shortestDigits needs
// three products of 128 bits.
//
// Why it is exact: let K be a scale with p = fl(a·10^K) < 10^15 (here 8).
// If a decimal m·10^-k (k ≤ K) reads back as f, then f is the double
// nearest to it, so |m·10^(K-k) - a·10^K| ≤ ½ulp(f)·10^K ≤ 2^50·2^-53,
// and rounding the product adds at most ½ulp(p) ≤ 2^-3 more: m·10^(K-k)
// is n, the integer nearest to p. And since n < 2^53 and 10^K are exact,
// the division n/10^K is correctly rounded: it equals a exactly when
// n·10^-K reads back as f. It is then also the shortest decimal that
// reads back as f: one with fewer significant digits would need more than
// 8 fraction digits and a first digit one place lower, so it would lie
// below a power of ten that n·10^-8 reaches, at least 10^-9 away from it,
// while both lie within half an ulp of a, and an ulp of a number near a
// power of ten below 10^7 is less than 2·10^-10.
//
// A decimal with at most 4 fraction digits is one whose n ends in 4
// zeros (by the argument above, n is that decimal times 10^8), so one
// division decides both forms, and a float that is no short decimal (most
// of an embedding's) costs one. Below 10^4 such a decimal's at most 8
// digits are one digits8, the integer part in the low 4 bytes and the
// fraction in the high 4, where 8 fraction digits need two.
func putFloat8(p mem.Ptr, f, a float64) int {
	neg := int(math.Float64bits(f) >> 63)
	// Through int64: the machine converts floats to signed integers
	// directly, and to unsigned ones only through a correction sequence;
	// a·10^8 < 10^15 fits either.
	m := int64(a*1e8 + 0.5)
	if float64(m)/1e8 != a {
		return -1
	}
	n := uint64(m)
	p.SetByte(0, '-')
	p = p.Add(neg)
	if a < 1e4 && n%1e4 == 0 {
		d := digits8(n / 1e4)
		ni := putLead4(p, d)
		if d>>32 == 0 {
			return neg + ni
		}
		// The fraction's 4 digits, the last in the highest byte: its
		// trailing zeros are the high zero bytes, cut off by the length.
		p.SetByte(ni, '.')
		p.Store32(ni+1, uint32(d>>32+'0'*lo4))
		return neg + ni + 9 - bits.LeadingZeros64(d>>32)>>3
	}
	ni := putLead8(p, digits8(n/1e8))
	fp := n % 1e8
	if fp == 0 {
		return neg + ni
	}
	// The fraction's 8 digits, as above.
	d := digits8(fp)
	p.SetByte(ni, '.')
	p.Store64(ni+1, d+'0'*lo8)
	return neg + ni + 9 - bits.LeadingZeros64(d)>>3
}

// pow10u holds the powers of ten that fit a uint64, in an array of 32 so
// that an index masked to 5 bits needs no bounds check (the entries past
// 10^19 are not used).
var pow10u = [32]uint64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

//go:generate go run pow10_gen.go

// shortestDigits returns the decimal n·10^e that strconv's shortest
// formatting writes for the normal float v = c·2^q, a float64 (2^52 ≤ c <
// 2^53) or a float32 (2^23 ≤ c < 2^24): of the decimals that read back as
// v, one with the fewest significant digits and, of those, the one
// nearest to v, or of two as near the one with an even last digit. tight
// is true when c is the least significand and v is not the least normal
// float, where the floats below v are twice as dense as those above; f32
// is true for a float32. n has 16 or 17 digits for a float64, 7 to 9 for
// a float32, trailing zeros included (putDigits drops them).
//
// It is R. Giulietti's Schubfach ("The Schubfach way to render doubles",
// 2020). The decimals that read back as v are those in its rounding
// interval, (c ± 1/2)·2^q (c - 1/4 below a power of two, where the
// doubles below are twice as dense), ends included when c is even (they
// round to it, ties going to the even significand). With k =
// floor(log10 of the interval's width), the interval holds at least one
// multiple of 10^k and at most one of 10^(k+1). So the shortest decimal
// in it is the multiple of 10^(k+1) it holds, if it holds one; otherwise
// it has the digits of s or s+1, the multiples of 10^k on either side of
// v, and is the one of them inside, or the nearer if both are. All of
// this is decided on vb, vbl and vbr, four times v and the interval's
// ends over 10^k: each is the product of the end (in quarters, cb, cbl,
// cbr) and 10^-k, as g·2^r from pow10Table, rounded to odd (roundOdd),
// which the paper shows keeps every comparison with a multiple of 4
// exact.
func shortestDigits(c uint64, q int, tight, f32 bool) (n uint64, e int) {
	open := c & 1 // an odd c does not own its interval's ends
	cb := c << 2
	cbr := cb + 2
	var cbl uint64
	var k int
	if !tight {
		cbl = cb - 2
		k = floorLog10Pow2(q)
	} else {
		cbl = cb - 1
		k = floorLog10ThreeQuartersPow2(q)
	}
	var vb, vbl, vbr uint64
	if f32 {
		// A float32's products need fewer bits: as the paper does for
		// floats, g is the table's upper 63 bits plus one, and each
		// product one 64-bit multiplication (roundOdd32).
		h := q + floorLog2Pow10(-k) + 33 // 33 to 36
		g := pow10Table[k-pow10Min][0] + 1
		vb, vbl, vbr = roundOdd32(g, cb<<h), roundOdd32(g, cbl<<h), roundOdd32(g, cbr<<h)
	} else {
		h := q + floorLog2Pow10(-k) + 2 // 2 to 5
		g := &pow10Table[k-pow10Min]
		vb, vbl, vbr = roundOdd(g, cb<<h), roundOdd(g, cbl<<h), roundOdd(g, cbr<<h)
	}

	s := vb >> 2
	lo := s / 10 * 10 // the multiples of 10^(k+1) on either side
	hi := lo + 10
	// When just one of lo and hi is inside, it is the shortest; else it
	// is s or t = s+1, the one inside, or the nearer if both are (of two
	// as near, the even). Both choices are made without a branch: for
	// random digits each is a coin toss for the predictor.
	loIn := b2u(vbl+open <= lo<<2)
	hiIn := b2u(hi<<2+open <= vbr)
	t := s + 1
	sOut := b2u(vbl+open > s<<2)
	tIn := b2u(t<<2+open <= vbr)
	side := int64(vb-(s+t)<<1) + int64(s&1) // > 0: t is nearer, or as near and even
	n = s + (sOut | tIn&b2u(side > 0))
	one := hi - 10*loIn // lo or hi, when just one of them is inside
	return n ^ (n^one)&-(loIn^hiIn), k
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// roundOdd returns g·cp/2^127 rounded to odd, g = g[0]·2^63 + g[1]: its
// integer part, with the lowest bit set if anything is left over. As the
// paper computes it, the low 64 bits of g[1]·cp and the lowest bit of
// g[0]·cp are left out: g is one more than 10^-k·2^-r rounded down, and
// the paper shows that with them left out the result is that of the exact
// product (looking at them would set the lowest bit for exact products).
func roundOdd(g *[2]uint64, cp uint64) uint64 {
	x1, _ := bits.Mul64(g[1], cp)
	y1, y0 := bits.Mul64(g[0], cp)
	z := y0>>1 + x1 // g·cp/2^64, less what is left out
	rest := z << 1  // its bits below 2^63, shifted up
	return y1 + z>>63 | (rest|-rest)>>63
}

// roundOdd32 returns g·cp/2^95 rounded to odd, for a float32's products:
// the high 64 bits of the product over 2^31, with the lowest bit set if
// any of the 32 bits below them is.
func roundOdd32(g, cp uint64) uint64 {
	x1, _ := bits.Mul64(g, cp)
	return x1>>31 | (x1&(1<<32-1)+(1<<32-1))>>32
}

// floorLog10Pow2 is floor(q·log10(2)), for |q| ≤ 1650 (TestFloorLogs).
func floorLog10Pow2(q int) int { return q * 78913 >> 18 }

// floorLog10ThreeQuartersPow2 is floor(log10(3/4·2^q)), for |q| ≤ 1100.
func floorLog10ThreeQuartersPow2(q int) int { return (q*661971961083 - 274743187321) >> 41 }

// floorLog2Pow10 is floor(e·log2(10)), for |e| ≤ 400.
func floorLog2Pow10(e int) int { return e * 913124641741 >> 38 }

// putDigits writes n·10^e at p, which has numRoom-1 bytes of room, and
// returns its length: as a plain decimal if plain (then 10^-7 ≤ n·10^e <
// 10^21), else as d.ddde±x with the exponent's digits alone. n (10^15 ≤ n
// < 10^17, trailing zeros allowed) is given as top, its 17th digit from
// the right (0 if it has 16), and w1 and w2, the digits8 of its next 8
// digits and of its last 8, whose high zero bytes count n's trailing
// zeros.
//
// They are put together in registers as the text of the three words d0,
// d1, d2; the text with a point after the first i digits is made from
// them by shifts, so that nothing written is read back.
func putDigits(p mem.Ptr, top, w1, w2 uint64, e int, plain bool) int {
	// The digits without the trailing zeros, the high zero bytes of the
	// words (w1 is 0 only when n is a digit and 16 zeros).
	sig := -(bits.LeadingZeros64(w2) >> 3)
	if w2 == 0 {
		sig = -8 - bits.LeadingZeros64(w1)>>3
	}
	w1 += '0' * lo8
	w2 += '0' * lo8
	// The digits, trailing zeros included: 16, or 17 with top's in
	// front, chosen without a branch (as likely as not for random ones).
	t17 := b2u(top != 0)
	nd := 16 + int(t17)
	m := -t17
	d0 := w1 ^ (w1^(top+'0'|w1<<8))&m
	d1 := w2 ^ (w2^(w1>>56|w2<<8))&m
	d2 := w2 >> 56 & m
	sig += nd
	x := nd - 1 + e // the exponent of the first digit
	switch {
	case !plain:
		// The first digit, the point, the rest, and the exponent.
		i := 1
		if sig > 1 {
			putPointed(p, d0, d1, d2, 1)
			i = sig + 1
		} else {
			p.Store64(0, d0)
		}
		sign := byte('+')
		if x < 0 {
			sign, x = '-', -x
		}
		p.SetByte(i, 'e')
		p.SetByte(i+1, sign)
		return i + 2 + putLead4(p.Add(i+2), digits4(uint64(x)))
	case x < 0:
		// "0." and -x-1 zeros (at most 6) before the digits.
		p.Store64(0, '0'*lo8^('0'^'.')<<8)
		q := p.Add(1 - x)
		q.Store64(0, d0)
		q.Store64(8, d1)
		q.SetByte(16, byte(d2))
		return 1 - x + sig
	case x >= sig-1:
		// A whole number: its digits, and zeros up to x+1 ≤ 21 of them.
		p.Store64(0, d0)
		p.Store64(8, d1)
		p.SetByte(16, byte(d2))
		p.Store64(nd, '0'*lo8)
		return x + 1
	}
	putPointed(p, d0, d1, d2, x+1)
	return sig + 1
}

// putPointed stores the text of the words d0, d1, d2 (17 bytes; the last
// is in the low byte of d2) at p with a point after its first i bytes
// (1 ≤ i ≤ 16): 18 bytes, the words merged from the text and the text
// moved up a byte (s0, s1, s2).
func putPointed(p mem.Ptr, d0, d1, d2 uint64, i int) {
	s0, s1, s2 := d0<<8|'.', d1<<8|d0>>56, d2<<8|d1>>56
	// pointed merges the first j bytes of d, the point, and the rest of
	// s (j < 8; a shift by 64 is 0).
	pointed := func(d, s uint64, j int) uint64 {
		keep := uint64(1)<<(8*j) - 1
		return d&keep | '.'<<(8*j) | s&^(keep<<8|0xff)
	}
	switch {
	case i < 8:
		s0 = pointed(d0, s0, i)
	case i < 16:
		s0, s1 = d0, pointed(d1, s1, i-8)
	default:
		s0, s1, s2 = d0, d1, d2<<8|'.'
	}
	p.Store64(0, s0)
	p.Store64(8, s1)
	p.Store16(16, uint16(s2))
}

// plainCanonical reports whether the number text s is its own canonical
// form (§2), as most are: an integer part with no leading zero of at most
// 21 digits, and no exponent; a fraction, if any, that does not end in 0,
// and, after an integer part of 0, has at most five zeros before its first
// other digit (|n| >= 1e-6). "-0" is not ("0" is).
//
// A text of 4 to 24 bytes (most numbers: prices, identifiers, coordinates,
// measures, a float64's shortest form) is read as two or three words, or
// two halves of one, whose bytes that are not digits must be a leading
// minus and one point: no loop over its bytes, whose exits, at lengths
// that vary from number to number, the CPU mispredicts. The others are
// read a byte at a time.
func plainCanonical(s []byte) bool {
	n := len(s)
	var nd uint64 // bit i is set where byte i of s is no digit
	// Where the words, or halves, overlap, they read the same bytes, which
	// set the same bits.
	switch p := mem.BytesData(s); {
	case n >= 8 && n <= 24:
		nd = packBits(nonDigits(p.Load64(0))) | packBits(nonDigits(p.Load64(n-8)))<<(uint(n-8)&31)
		if n > 16 {
			nd |= packBits(nonDigits(p.Load64(8))) << 8
		}
	case n >= 4 && n < 8:
		m := packBits(nonDigits(uint64(p.Load32(0)) | uint64(p.Load32(n-4))<<32))
		nd = m&0xf | m>>4<<(uint(n-4)&3)
	default:
		return plainCanonicalBytes(s)
	}
	start := 0
	if s[0] == '-' {
		start, nd = 1, nd&^1
	}
	if nd == 0 {
		// An integer of 3 to 24 digits: canonical when it has no leading
		// zero and at most 21 digits.
		return s[start] != '0' && n-start <= 21
	}
	// A fraction: one point, after 1 to 21 digits and before the last
	// byte, which is no 0. An integer part that starts with 0 is that
	// digit alone, and the fraction's first six bytes are not all 0 (its
	// last byte, no 0, may be one of them).
	d := bits.TrailingZeros64(nd)
	return nd&(nd-1) == 0 && s[d] == '.' && uint(d-start-1) < 21 && d < n-1 && s[n-1] != '0' &&
		(s[start] != '0' || d == start+1 && (d+6 >= n-1 || string(s[d+1:d+7]) != "000000"))
}

// plainCanonicalBytes is plainCanonical for any length, read a byte at a
// time.
func plainCanonicalBytes(s []byte) bool {
	n, i := len(s), 0
	if n > 0 && s[0] == '-' {
		i = 1
	}
	start := i
	for i < n && s[i]-'0' < 10 {
		i++
	}
	digits := i - start
	if digits == 0 || digits > 21 || digits > 1 && s[start] == '0' {
		return false
	}
	if i == n {
		return start == 0 || s[start] != '0'
	}
	if s[i] != '.' {
		return false
	}
	i++
	f := i
	for i < n && s[i]-'0' < 10 {
		i++
	}
	if i != n || i == f || s[n-1] == '0' {
		return false
	}
	if s[start] != '0' {
		return true
	}
	z := f // the fraction's first digit that is not 0
	for z < n && s[z] == '0' {
		z++
	}
	return z-f <= 5
}

// appendNumber appends the number text s (the §4 grammar) in canonical
// form (§2), computed from its digits without passing through float64, so
// no precision is lost: the value is exactly the value of s. It returns
// false, appending nothing, if s is not a number or its exponent is beyond
// ±10^15.
func appendNumber(b []byte, s []byte) ([]byte, bool) {
	if plainCanonical(s) {
		return appendShort(b, mem.String(s)), true
	}
	return appendNumberDigits(b, s)
}

// appendNumberDigits is appendNumber for any number text: it works the
// canonical form out of the digits.
func appendNumberDigits(b []byte, s []byte) ([]byte, bool) {
	if !isNumber(s) {
		return b, false
	}
	i := 0
	neg := s[0] == '-'
	if neg {
		i++
	}
	intStart := i
	for i < len(s) && s[i]-'0' < 10 {
		i++
	}
	intPart := s[intStart:i]
	var frac []byte
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j]-'0' < 10 {
			j++
		}
		frac = s[i+1 : j]
		i = j
	}
	// The significant digits are intPart ++ frac, indexed as one sequence;
	// lead and trail are the first and last non-zero ones.
	lead, trail := -1, -1
	for j, c := range intPart {
		if c != '0' {
			lead = j
			break
		}
	}
	if lead < 0 {
		for j, c := range frac {
			if c != '0' {
				lead = len(intPart) + j
				break
			}
		}
		if lead < 0 {
			return append(b, '0'), true // zero, whatever its sign and exponent
		}
	}
	for j := len(frac) - 1; j >= 0; j-- {
		if frac[j] != '0' {
			trail = len(intPart) + j
			break
		}
	}
	if trail < 0 {
		for j := len(intPart) - 1; j >= 0; j-- {
			if intPart[j] != '0' {
				trail = j
				break
			}
		}
	}
	var exp int64
	if i < len(s) { // exponent: isNumber has checked its form
		i++
		eneg := false
		if s[i] == '+' || s[i] == '-' {
			eneg = s[i] == '-'
			i++
		}
		for j := i; j < len(s); j++ {
			exp = exp*10 + int64(s[j]-'0')
			if exp > 1e15 {
				// Far outside every plain range: exponent form, with the
				// exponent worked out on its decimal digits.
				return appendHugeExp(b, neg, intPart, frac, lead, trail, eneg, s[i:]), true
			}
		}
		if eneg {
			exp = -exp
		}
	}
	// point is the position of the decimal point relative to the first
	// significant digit: the value is 0.D × 10^point, D = digits[lead..trail].
	point := int64(len(intPart)-lead) + exp
	k := int64(trail - lead + 1)
	if neg {
		b = append(b, '-')
	}
	switch {
	case point >= -5 && point <= 21: // 1e-6 ≤ |n| < 1e21: plain decimal
		switch {
		case point <= 0:
			b = append(b, '0', '.')
			b = append(b, zeros[:-point]...)
			b = appendDigits(b, intPart, frac, lead, trail+1)
		case point >= k:
			b = appendDigits(b, intPart, frac, lead, trail+1)
			b = append(b, zeros[:point-k]...)
		default:
			b = appendDigits(b, intPart, frac, lead, lead+int(point))
			b = append(b, '.')
			b = appendDigits(b, intPart, frac, lead+int(point), trail+1)
		}
	default:
		b = appendDigits(b, intPart, frac, lead, lead+1)
		if k > 1 {
			b = append(b, '.')
			b = appendDigits(b, intPart, frac, lead+1, trail+1)
		}
		b = append(b, 'e')
		if e := point - 1; e < 0 {
			b = append(b, '-')
			b = strconv.AppendInt(b, -e, 10)
		} else {
			b = append(b, '+')
			b = strconv.AppendInt(b, e, 10)
		}
	}
	return b, true
}

// appendHugeExp writes a number whose exponent text (edigits, negative if
// eneg) is beyond 1e15 in exponent form: d.ddd e±E, where E is the
// exponent adjusted for the position of the first significant digit. The
// adjustment is at most the length of the number, far smaller than the
// exponent, so E has the exponent's sign, and its digits are worked out on
// the exponent's decimal digits in time linear in their number.
func appendHugeExp(b []byte, neg bool, intPart, frac []byte, lead, trail int, eneg bool, edigits []byte) []byte {
	if neg {
		b = append(b, '-')
	}
	b = appendDigits(b, intPart, frac, lead, lead+1)
	if trail > lead {
		b = append(b, '.')
		b = appendDigits(b, intPart, frac, lead+1, trail+1)
	}
	adj := int64(len(intPart) - lead - 1)
	if eneg {
		b = append(b, 'e', '-')
		adj = -adj
	} else {
		b = append(b, 'e', '+')
	}
	for len(edigits) > 1 && edigits[0] == '0' {
		edigits = edigits[1:]
	}
	return appendDecimalSum(b, edigits, adj)
}

// appendDecimalSum appends the decimal digits of x + d, where x is the
// decimal digits of a number larger than |d|, without leading zeros.
func appendDecimalSum(b, x []byte, d int64) []byte {
	start := len(b)
	b = append(b, x...)
	digits := b[start:]
	if d >= 0 {
		carry := uint64(d)
		for i := len(digits) - 1; i >= 0 && carry > 0; i-- {
			sum := uint64(digits[i]-'0') + carry
			digits[i] = '0' + byte(sum%10)
			carry = sum / 10
		}
		if carry > 0 { // the sum is longer than x: its first digits go in front
			var head [20]byte
			h := strconv.AppendUint(head[:0], carry, 10)
			b = append(b, h...)
			copy(b[start+len(h):], b[start:len(b)-len(h)])
			copy(b[start:], h)
		}
		return b
	}
	borrow := uint64(-d)
	for i := len(digits) - 1; borrow > 0; i-- { // x > |d|: the borrow ends within x
		v := int64(digits[i]-'0') - int64(borrow%10)
		borrow /= 10
		if v < 0 {
			v += 10
			borrow++
		}
		digits[i] = '0' + byte(v)
	}
	k := 0
	for k < len(digits)-1 && digits[k] == '0' {
		k++
	}
	copy(digits, digits[k:])
	return b[:len(b)-k]
}

// appendDigits appends digits [from, to) of the sequence intPart ++ frac.
func appendDigits(b, intPart, frac []byte, from, to int) []byte {
	if from < len(intPart) {
		e := min(to, len(intPart))
		b = append(b, intPart[from:e]...)
		from = e
	}
	if from < to {
		b = append(b, frac[from-len(intPart):to-len(intPart)]...)
	}
	return b
}

// zeros holds enough zeros for the padding of any plain-decimal number.
const zeros = "000000000000000000000000"

// spaces is sliced for indentation.
const spaces = "                                                                                                                                "

// fieldGroup is a cursor over the fields of a header's field list, for
// appendFieldSeg: whether a field is left, its name, the group it heads
// if it is not a primitive, and the cursor at the next field; and the
// group's segment if it is already made (cached). The encoder's field
// lists (names given to BeginTable, a token's []Field, a struct's plan,
// the tree built for a generic table) each have one.
type fieldGroup[G any] interface {
	more() bool
	name() string
	sub() (G, bool)
	next() G
	cached(d Delimiter) []byte
}

// appendFieldSeg appends the fields segment of a header (§6, §9.3): the
// fields of g from its cursor on, separated by delimiter d, each nested
// group in braces after its name, "{a,b{c,d}}", without the colon.
func appendFieldSeg[G fieldGroup[G]](b []byte, g G, d Delimiter) []byte {
	if seg := g.cached(d); seg != nil {
		return append(b, seg...)
	}
	b = append(b, '{')
	for first := true; g.more(); g, first = g.next(), false {
		if !first {
			b = append(b, byte(d))
		}
		b = appendKey(b, g.name())
		if s, ok := g.sub(); ok {
			b = appendFieldSeg(b, s, d)
		}
	}
	return append(b, '}')
}

// appendTableHeader appends the header of a tabular array (keyed false)
// or of a keyed object (keyed true) of n rows or entries after its key, if
// any: the bracket, the fields segment of g and the colon (§6).
func appendTableHeader[G fieldGroup[G]](b []byte, n int, keyed bool, g G, d Delimiter) []byte {
	b = appendBracket(b, n, keyed, d)
	b = appendFieldSeg(b, g, d)
	return append(b, ':')
}

// nameFields is a flat list of names as a fieldGroup.
type nameFields []string

func (g nameFields) more() bool              { return len(g) > 0 }
func (g nameFields) name() string            { return g[0] }
func (g nameFields) sub() (nameFields, bool) { return nil, false }
func (g nameFields) next() nameFields        { return g[1:] }
func (g nameFields) cached(Delimiter) []byte { return nil }

// tokenFields is a token's field list as a fieldGroup.
type tokenFields []Field

func (g tokenFields) more() bool               { return len(g) > 0 }
func (g tokenFields) name() string             { return mem.String(g[0].Name) }
func (g tokenFields) sub() (tokenFields, bool) { return g[0].Fields, g[0].Fields != nil }
func (g tokenFields) next() tokenFields        { return g[1:] }
func (g tokenFields) cached(Delimiter) []byte  { return nil }

// appendIndent appends n spaces.
func appendIndent(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}

// fieldLit returns a struct field's text before its value, the key and
// what follows it in form f (encField.lit), padded so that putText may
// read it a word at a time.
func fieldLit(key []byte, f fieldForm) []byte {
	t := make([]byte, 0, len(key)+2+8)
	t = append(t, key...)
	switch f {
	case formPrim:
		t = append(t, ':', ' ')
	case formStatic, formStruct:
		t = append(t, ':')
	}
	return t
}

// fieldLineRoom is the room putFieldLine needs beyond the text it writes.
const fieldLineRoom = 16

// putFieldLine writes, at p, the start of a field line: LF, n spaces of
// indentation and the field's text lit (fieldLit), and returns its
// length. It stores whole words, the first two of the indentation
// whatever its length, and lit as putText does, so p must have room for
// fieldLineRoom more bytes than it writes: a field line, the most common
// line of a nested document, costs a few stores rather than three appends.
func putFieldLine(p mem.Ptr, n int, lit []byte) int {
	p.Store64(0, '\n'|' '*(lo8&^0xff))
	p.Store64(8, ' '*lo8)
	for i := 16; i <= n; i += 8 {
		p.Store64(i, ' '*lo8)
	}
	return n + 1 + putText(p.Add(n+1), lit)
}

// padText returns a copy of t that putText may read a word at a time: its
// capacity is its length rounded up to a whole word.
func padText(t []byte) []byte {
	return append(make([]byte, 0, (len(t)+7)&^7), t...)
}

// textRoom is the room putText needs beyond the text it writes.
const textRoom = 8

// putText writes t, whose capacity reaches its length rounded up to a
// whole word (padText, fieldLit), at p, and returns its length. It stores
// whole words, so p must have room for textRoom more bytes than it writes.
func putText(p mem.Ptr, t []byte) int {
	s := mem.BytesData(t)
	for i := 0; i < len(t); i += 8 {
		p.Store64(i, s.Load64(i))
	}
	return len(t)
}

// appendDelimSym appends the delimiter symbol of a bracket segment (§6):
// nothing for a comma.
func appendDelimSym(b []byte, d Delimiter) []byte {
	if d != Comma {
		b = append(b, byte(d))
	}
	return b
}

// appendInt appends a signed integer; integers are always canonical.
func appendInt(b []byte, i int64) []byte {
	b, p, o := spare(b, numRoom, false)
	return b[:o+putInt(p, i)]
}

// spare makes room for n more bytes of b and returns b, the address of its
// first free byte and that byte's index; with neg it first appends '-',
// and the address and index are those of the byte after it. The caller
// writes through the address and then reslices b. It is small enough to
// inline, which the writers of strings and numbers, called for every
// value, rely on.
func spare(b []byte, n int, neg bool) ([]byte, mem.Ptr, int) {
	if cap(b)-len(b) < n {
		b = slices.Grow(b, n)
	}
	if neg {
		b = append(b, '-')
	}
	return b, mem.BytesData(b).Add(len(b)), len(b)
}

// numRoom is the room putInt, putUint and putFloat8 need: a sign and 20
// digits, stored 8 bytes at a time, end at most 25 bytes on.
const numRoom = 32

// appendUint appends an unsigned integer, eight digits at a time
// (digits8), straight into b's spare capacity.
func appendUint(b []byte, u uint64) []byte {
	b, p, o := spare(b, numRoom, false)
	return b[:o+putUint(p, u)]
}

// putInt writes the decimal text of i at p, which has numRoom bytes of
// room, and returns its length.
func putInt(p mem.Ptr, i int64) int {
	m := uint64(i >> 63) // all ones for a negative i
	return putDec(p, uint64(i)^m-m, int(m&1))
}

// putUint writes the decimal text of u at p, which has numRoom bytes of
// room, and returns its length.
func putUint(p mem.Ptr, u uint64) int { return putDec(p, u, 0) }

// putDec writes the decimal text of u at p, after a '-' if neg is 1, and
// returns its length; p has numRoom bytes of room. The '-' is stored
// whatever neg is and counted only when it is 1, which spares a branch
// on the sign. Below 10^8 the digits are one word of digits8, written by
// putLead8. Longer numbers have n = decLen(u) digits, stored as words of
// digits8 (and of digits4 for the first 1 to 4 of 17 to 20), the first
// shifted down past its leading zeros and each later one stored over the
// bytes the one before wrote past the digits: their length comes from
// u's magnitude, not from their digits, so the cell after such a number
// need not wait for its two or three words.
func putDec(p mem.Ptr, u uint64, neg int) int {
	p.SetByte(0, '-')
	p = p.Add(neg)
	if u < 1e8 {
		return neg + putLead8(p, digits8(u))
	}
	n := decLen(u)
	switch {
	case n <= 16:
		hi, lo := u/1e8, u%1e8
		p.Store64(0, (digits8(hi)+'0'*lo8)>>((128-8*n)&63))
		p.Store64(n-8, digits8(lo)+'0'*lo8)
	default:
		top, mid := u/1e16, u%1e16 // top < 1845
		p.Store64(0, (digits4(top)+'0'*lo4)>>((160-8*n)&63))
		p.Store64(n-16, digits8(mid/1e8)+'0'*lo8)
		p.Store64(n-8, digits8(mid%1e8)+'0'*lo8)
	}
	return neg + n
}

// decLen returns the number of decimal digits of u (1 for 0): that of
// the least number of u's bit length, decLenBase, or one more, which a
// comparison with pow10u settles.
func decLen(u uint64) int {
	u |= 1 // 0 has the one digit of 1
	t := int(decLenBase[bits.Len64(u)])
	return t + int(b2u(u >= pow10u[t&31]))
}

// decLenBase holds, for each bit length b from 1 to 64, the number of
// decimal digits of 2^(b-1), the least number of that length.
var decLenBase = func() (t [65]uint8) {
	for b := 1; b <= 64; b++ {
		t[b] = uint8(len(strconv.FormatUint(1<<(b-1), 10)))
	}
	return t
}()

// putLead8 writes the digits d of digits8, without their leading zeros
// but for the last digit, at p, and returns how many it wrote. It stores 8
// bytes whatever the count, so p must have 8 bytes of room. The leading
// zeros are the low zero bytes of d; bit 56 is in the last digit's byte.
func putLead8(p mem.Ptr, d uint64) int {
	z := uint(bits.TrailingZeros64(d|1<<56)) &^ 7
	p.Store64(0, (d+'0'*lo8)>>z)
	return 8 - int(z>>3)
}

// putLead4 is putLead8 for the 4 digits in the low half of d (digits4,
// or the low half of digits8).
func putLead4(p mem.Ptr, d uint64) int {
	z := uint(bits.TrailingZeros64(d|1<<24)) &^ 7
	p.Store64(0, (d&0xffffffff+'0'*lo4)>>z)
	return 4 - int(z>>3)
}

// digits4 is digits8 for u < 1e4: its four digits in the low four bytes,
// by the same steps on one lane.
func digits4(u uint64) uint64 {
	q := u * 10486 >> 20   // the first two digits
	x := q | (u-q*100)<<16 // 2-digit halves in 16-bit lanes
	q = x * 103 >> 10 & 0x000f000f
	return q | (x-q*10)<<8
}

// digits8 returns the eight decimal digits of u < 1e8, zero-padded, one
// per byte with the most significant in the lowest byte (so that stored
// little-endian they read in order) and without the '0' offset. It splits
// u into halves, quarters and single digits in parallel lanes of one word,
// dividing by multiplication: u*109951163>>40 is u/10^4 for u < 10^8 (one
// multiplication where the compiler's u/1e4 takes a 128-bit one),
// x*10486>>20 is x/100 for x < 10^4, and x*103>>10 is x/10 for x < 100
// (checked exhaustively by TestDigits8).
func digits8(u uint64) uint64 {
	hi := u * 109951163 >> 40
	x := hi | (u-hi*1e4)<<32                  // 4-digit halves in 32-bit lanes
	q := x * 10486 >> 20 & 0x0000007f0000007f // their first two digits
	x = q | (x-q*100)<<16                     // 2-digit quarters in 16-bit lanes
	q = x * 103 >> 10 & 0x000f000f000f000f    // their tens
	return q | (x-q*10)<<8                    // digits in bytes
}
