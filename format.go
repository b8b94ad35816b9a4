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
	"unicode/utf8"

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
// and on the words between them if any, utf8.ValidString if a byte is not
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
	if (hard|high)&hi8 != 0 && (hard&hi8 != 0 || !utf8.ValidString(s)) {
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
	if (hard|high)&hi8 != 0 && (hard&hi8 != 0 || !utf8.ValidString(s)) {
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
// those that are not valid UTF-8.
func appendStrSlow(b []byte, s string, dw uint64) []byte {
	if len(s) == 0 {
		return append(b, '"', '"')
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if i := escIndex(s); i < len(s) {
		return appendEscaped(b, s, i)
	}
	if _, quo, _ := strFlags(s, dw); quo != 0 || quoteByShape(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	return append(b, s...)
}

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

// appendEscaped appends s in double quotes with the escapes of §7.1 (see
// appendQuoted); s[:i] needs none, and s[i] does. Between the bytes that
// need an escape, the text is copied a word at a time as escWord tests
// it: each word is stored whole, and the next escape overwrites the bytes
// of the word from its own on.
func appendEscaped(b []byte, s string, i int) []byte {
	n := len(s)
	b = slices.Grow(b, n+8)
	b = append(b, '"')
	b = append(b, s[:i]...)
	sp := mem.StringData(s)
	for i < n {
		b = appendEscape(b, s[i])
		i++
		// Room for the rest of s, which the word stores below stay
		// within: they store 8 bytes only where 8 remain.
		var d mem.Ptr
		var o int
		b, d, o = spare(b, n-i, false)
		j := 0
	words:
		for i+8 <= n {
			x := sp.Load64(i)
			d.Store64(j, x)
			if m := escWord(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				i, j = i+k, j+k
				break words
			}
			i, j = i+8, j+8
		}
		if i+8 > n {
			for i < n && charClass[sp.Byte(i)]&clsEscape == 0 {
				d.SetByte(j, sp.Byte(i))
				i, j = i+1, j+1
			}
		}
		b = b[:o+j]
	}
	return append(b, '"')
}

// appendEscape appends the escape of §7.1 of c, a byte that needs one.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
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
		if i := escIndex(s); i < len(s) {
			return appendEscaped(b, s, i)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
		return append(b, k...), false
	}
	if cls&clsHigh != 0 && !utf8.ValidString(k) {
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
	if utf8.ValidString(k) {
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
	if a := math.Abs(f); bits == 64 && a >= 1e-6 && a < 1e7 {
		b, p, o := spare(b, numRoom, false)
		if n := putFloat8(p, f, a); n >= 0 {
			return b[:o+n]
		}
	}
	return appendFloatRest(b, f, bits)
}

// appendFloatRest is appendFloat without its first fast path, putFloat8,
// for callers that have tried it.
func appendFloatRest(b []byte, f float64, bits int) []byte {
	if bits == 64 {
		a := math.Abs(f)
		if a >= 1e-6 && a < 1e15 {
			if b, ok := appendShortFloat(b, f); ok {
				return b
			}
		}
		if n, k, ok := shortestDecimal(a); ok {
			return appendDecimal(b, f < 0, n, k)
		}
		if a >= 1e-6 && a < 1e15 {
			return strconv.AppendFloat(b, f, 'f', -1, 64)
		}
	}
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

// putFloat8 writes f, for 1e-6 ≤ a = |f| < 1e7, at p (numRoom bytes of
// room) when some decimal with at most 8 fraction digits reads back as f,
// and returns its length; otherwise it writes nothing and returns -1.
// These are the common shapes of prices, ratios and measures, written
// without appendShortFloat's search for the scale.
//
// Why it is exact: p = fl(a·10^8) < 10^15, so by the argument given at
// appendShortFloat (which holds for any scale K with a·10^K < 10^15, not
// only the largest) a decimal with at most 8 fraction digits that reads
// back as f is n·10^-8, n the integer nearest to p, and it does exactly
// when the correctly rounded n/10^8 is a. It is then also the shortest
// decimal that reads back as f: one with fewer significant digits would
// need more than 8 fraction digits and a first digit one place lower, so
// it would lie below a power of ten that n·10^-8 reaches, at least 10^-9
// away from it, while both lie within half an ulp of a, and an ulp of a
// number near a power of ten below 10^7 is less than 2·10^-10.
//
// Below 10^4, a decimal with at most 4 fraction digits is tried first, by
// the same argument with 10^4 for 10^8: its at most 8 digits are one
// digits8, the integer part in the low 4 bytes and the fraction in the
// high 4, where a scale of 10^8 needs two.
func putFloat8(p mem.Ptr, f, a float64) int {
	neg := int(math.Float64bits(f) >> 63)
	if a < 1e4 {
		if m := int64(a*1e4 + 0.5); float64(m)/1e4 == a {
			p.SetByte(0, '-')
			p = p.Add(neg)
			d := digits8(uint64(m))
			ni := putLead4(p, d)
			if d>>32 == 0 {
				return neg + ni
			}
			// The fraction's 4 digits, the last in the highest byte:
			// its trailing zeros are the high zero bytes, cut off by
			// the length.
			p.SetByte(ni, '.')
			p.Store32(ni+1, uint32(d>>32+'0'*lo4))
			return neg + ni + 9 - bits.LeadingZeros64(d>>32)>>3
		}
	}
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

// pow10u holds the powers of ten that fit a uint64.
var pow10u = [20]uint64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// appendShortFloat appends f, for 1e-6 ≤ |f| < 1e15, when the shortest
// decimal that reads back as f has at most 15 significant digits (ok is
// false otherwise and nothing is appended). The text is strconv's 'f', -1
// text (checked by TestAppendFloatMatchesStrconv).
//
// Why it is exact: let K be the largest scale with p = fl(|f|·10^K) < 1e15.
// If a decimal m·10^-k (k ≤ K, m < 1e15) reads back as f, then f is the
// double nearest to it, so |m·10^(K-k) - |f|·10^K| ≤ ½ulp(f)·10^K ≤
// 2^50·2^-53, and rounding the product adds at most ½ulp(p) ≤ 2^-3 more:
// m·10^(K-k) is n, the integer nearest to p. Two decimals with k fraction
// digits cannot both read back as f, so n with its trailing zeros dropped
// is the shortest such decimal. And since n < 2^53 and 10^K are exact, the
// division n/10^K is correctly rounded: it equals |f| exactly when n·10^-K
// reads back as f. When it does not, no decimal of 15 digits does.
//
// The digits of n are made 8 at a time (digits8) into a buffer that has
// 16 '0' bytes before them, so that the leading zeros of 0.000ddd come from
// the buffer; the integer part and the fraction, its trailing zeros
// dropped, are copied out a word at a time.
func appendShortFloat(b []byte, f float64) ([]byte, bool) {
	a := math.Abs(f)
	// floor(log10(a)) is d or d+1, where d = floor(e2·log10(2)) from the
	// binary exponent e2; so K is 14-d or 13-d. 1e-6 ≤ a < 1e15 keeps K in
	// [0, 21].
	e2 := int(math.Float64bits(a)>>52&0x7ff) - 1023
	k := 14 - (e2*78913)>>18 // 78913/2^18 ≈ log10(2); >> rounds down
	if uint(k) >= uint(len(pow10)) {
		return b, false
	}
	p := a * pow10[k]
	if p >= 1e15 {
		k--
		if k < 0 {
			return b, false
		}
		p = a * pow10[k]
		if p >= 1e15 {
			return b, false
		}
	}
	n := uint64(p + 0.5) // at most 1e15
	if float64(n)/pow10[k] != a {
		return b, false
	}
	if ip := uint64(a); k <= 8 && ip < 1e8 {
		// The common case, in registers: the integer part is a's (no
		// integer lies between a and n·10^-k, or it would be a) and n
		// minus it scaled is the k fraction digits, which the check
		// below confirms.
		if fp := n - ip*pow10u[k]; fp < pow10u[k] {
			b, dst, o := spare(b, 24, f < 0)
			ni := putLead8(dst, digits8(ip))
			if fp == 0 {
				return b[:o+ni], true
			}
			d := digits8(fp) // the fraction in the last k of 8 digits
			dst.SetByte(ni, '.')
			dst.Store64(ni+1, (d+'0'*lo8)>>(64-8*k))
			return b[:o+ni+1+k-bits.LeadingZeros64(d)>>3], true
		}
	}
	// buf[0:16] is zeros and buf[16:32] the 16 digits of n, with k of them
	// (and up to 5 of the zeros before them) after the point; the copies
	// below read up to buf[55].
	var buf [56]byte
	bp := mem.Of(&buf)
	hi, lo := digits8(n/1e8), digits8(n%1e8)
	bp.Store64(0, '0'*lo8)
	bp.Store64(8, '0'*lo8)
	bp.Store64(16, hi+'0'*lo8)
	bp.Store64(24, lo+'0'*lo8)
	// lead: zero digits before n's first; trail: zero digits after its last.
	var lead, trail int
	if hi != 0 {
		lead = bits.TrailingZeros64(hi) >> 3
	} else {
		lead = 8 + bits.TrailingZeros64(lo)>>3
	}
	if lo != 0 {
		trail = bits.LeadingZeros64(lo) >> 3
	} else {
		trail = 8 + bits.LeadingZeros64(hi)>>3
	}
	point := 32 - k               // index in buf of the first fraction digit
	from := min(16+lead, point-1) // first digit of the integer part
	end := max(32-trail, point)   // end of the fraction, zeros dropped
	b, dst, o := spare(b, 48, f < 0)
	// The integer part has at most 16 digits, the fraction at most 21.
	src := bp.Add(from)
	dst.Store64(0, src.Load64(0))
	dst.Store64(8, src.Load64(8))
	ni := point - from
	if end == point {
		return b[:o+ni], true
	}
	dst = dst.Add(ni)
	dst.SetByte(0, '.')
	src = bp.Add(point)
	dst.Store64(1, src.Load64(0))
	dst.Store64(9, src.Load64(8))
	dst.Store64(17, src.Load64(16))
	return b[:o+ni+1+end-point], true
}

// appendNumber appends the number text s (the §4 grammar) in canonical
// form (§2), computed from its digits without passing through float64, so
// no precision is lost: the value is exactly the value of s. It returns
// false, appending nothing, if s is not a number or its exponent is beyond
// ±10^15.
func appendNumber(b []byte, s []byte) ([]byte, bool) {
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
// room, and returns its length. The '-' is stored whatever the sign and
// counted only for a negative i, which spares a branch on the sign.
func putInt(p mem.Ptr, i int64) int {
	u, neg := uint64(i), int(uint64(i)>>63)
	if neg != 0 {
		u = -u
	}
	p.SetByte(0, '-')
	if u < 1e8 { // the common case, without a call
		return neg + putLead8(p.Add(neg), digits8(u))
	}
	return neg + putUint(p.Add(neg), u)
}

// putUint writes the decimal text of u at p, which has numRoom bytes of
// room, and returns its length.
func putUint(p mem.Ptr, u uint64) int {
	if u < 1e16 {
		return putDec16(p, u)
	}
	top, mid := u/1e16, u%1e16
	k := putLead8(p, digits8(top))
	p.Store64(k, digits8(mid/1e8)+'0'*lo8)
	p.Store64(k+8, digits8(mid%1e8)+'0'*lo8)
	return k + 16
}

// putDec16 writes the decimal digits of u < 1e16 at p, which has 24 bytes
// of room, and returns how many there are.
func putDec16(p mem.Ptr, u uint64) int {
	switch {
	case u < 1e4:
		return putLead4(p, digits4(u))
	case u < 1e8:
		return putLead8(p, digits8(u))
	}
	k := putLead8(p, digits8(u/1e8))
	p.Store64(k, digits8(u%1e8)+'0'*lo8)
	return k + 8
}

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
// dividing by multiplication: x*10486>>20 is x/100 for x < 10^4, and
// x*103>>10 is x/10 for x < 100 (checked exhaustively by TestDigits8).
func digits8(u uint64) uint64 {
	hi := u / 1e4
	x := hi | (u-hi*1e4)<<32                  // 4-digit halves in 32-bit lanes
	q := x * 10486 >> 20 & 0x0000007f0000007f // their first two digits
	x = q | (x-q*100)<<16                     // 2-digit quarters in 16-bit lanes
	q = x * 103 >> 10 & 0x000f000f000f000f    // their tens
	return q | (x-q*10)<<8                    // digits in bytes
}

// pow5 holds the powers of five that fit a uint64.
var pow5 = func() (t [28]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 5
	}
	return t
}()

// shortestDecimal returns, for a finite a > 0, the decimal n·10^-k (n not
// a multiple of 10) that strconv's shortest formatting writes: of the
// decimals that read back as a, one with the fewest significant digits
// and, of those, the nearest to a. It tries 15, 16 and 17 digits, each the
// way appendShortFloat argues for 15: with K the scale that gives a·10^K
// that many digits before the point, the decimal of that many digits
// nearest to a is n = round(a·10^K), and if any of that many digits (or
// fewer) reads back as a, n does. Here round(a·10^K) and whether n·10^-K
// reads back as a are computed exactly, on integers (scaled), so the
// argument holds at every scale those reach, -19 ≤ K ≤ 27. ok is false
// where they do not reach, where the scale is in doubt (n at a power of
// ten), and for powers of two, whose interval of numbers that read back as
// them is lopsided (the nearest decimal may lie on its short side and the
// next one on its long side read back): strconv writes those.
func shortestDecimal(a float64) (n uint64, k int, ok bool) {
	fb := math.Float64bits(a)
	e2 := int(fb >> 52 & 0x7ff)
	m := fb&(1<<52-1) | 1<<52
	if e2 == 0 || e2 == 0x7ff || m == 1<<52 {
		return 0, 0, false
	}
	e := e2 - 1075 // a = m·2^e
	// floor(log10(a)) is d or d+1 (see appendShortFloat).
	d := ((e2 - 1023) * 78913) >> 18
	for digits := 15; digits <= 17; digits++ {
		// d+1 may be the right floor where d is past the last scale.
		k = min(digits-1-d, len(pow5)-1)
		n, back, ok := scaled(m, e, k)
		if ok && n >= pow10u[digits] {
			k--
			n, back, ok = scaled(m, e, k)
		}
		if !ok || n >= pow10u[digits] || n < pow10u[digits-1] {
			return 0, 0, false
		}
		if back {
			// The trailing zeros, by halves: at most 14 of them, as
			// n has at most 15 digits when it has any.
			if n%1e8 == 0 {
				n, k = n/1e8, k-8
			}
			if n%1e4 == 0 {
				n, k = n/1e4, k-4
			}
			if n%100 == 0 {
				n, k = n/100, k-2
			}
			if n%10 == 0 {
				n, k = n/10, k-1
			}
			return n, k, true
		}
	}
	return 0, 0, false
}

// scaled returns n = round(a·10^k), for a = m·2^e (2^52 < m < 2^53) and
// -19 ≤ k ≤ 27, and whether n·10^-k reads back as a: whether it lies
// within half an ulp of a, 2^(e-1), ties included when m is even (they
// round to it). ok is false where the integers below do not reach, or n
// would not be below 2^63.
func scaled(m uint64, e, k int) (n uint64, back, ok bool) {
	switch {
	case k >= 0 && k < len(pow5):
		// a·10^k = X/2^s, X = m·5^k exact in 128 bits. n is off it by
		// dist/2^s, so n·10^-k is off a by dist·2^-s·10^-k, which is
		// within 2^(e-1) when 2·dist ≤ 5^k: never equal, 5^k being odd.
		p := pow5[k]
		hi, lo := bits.Mul64(m, p)
		s := -(k + e)
		if s <= 0 { // an integer: n·10^-k is a
			if s < -63 || hi != 0 || lo>>(63+s) != 0 {
				return 0, false, false
			}
			return lo << -s, true, true
		}
		if s >= 128 {
			return 0, false, false
		}
		// q = X>>s, and rem = X mod 2^s in rh:rl.
		var q, rh, rl uint64
		if s < 64 {
			q, rh, rl = hi<<(64-s)|lo>>s, 0, lo&(1<<s-1)
			if hi>>s != 0 {
				return 0, false, false
			}
		} else {
			q, rh, rl = hi>>(s-64), hi&(1<<(s-64)-1), lo
		}
		// half = 2^(s-1) in hh:hl.
		var hh, hl uint64
		if s-1 < 64 {
			hl = 1 << (s - 1)
		} else {
			hh = 1 << (s - 65)
		}
		var dh, dl uint64 // dist; a tie goes to the even n, as strconv's
		if rh < hh || rh == hh && rl < hl || rh == hh && rl == hl && q&1 == 0 {
			n, dh, dl = q, rh, rl
		} else {
			n = q + 1
			var b uint64
			dl, b = bits.Sub64(0, rl, 0) // 2^s - rem
			if s < 64 {
				dl &= 1<<s - 1
				dh = 0
			} else {
				dh, _ = bits.Sub64(0, rh, b)
				dh &= 1<<(s-64) - 1
			}
		}
		if n>>63 != 0 {
			return 0, false, false
		}
		return n, dh == 0 && dl <= p/2, true
	case k < 0 && -k < len(pow10u):
		dv := pow10u[-k]
		if e < 0 {
			// a·10^k = m/D, D = 10^-k·2^-e, and n·10^-k is off a by
			// |n·D - m|·2^e, within 2^(e-1) only when 0.
			if -e >= 64 || dv > math.MaxUint64>>-e {
				return 0, false, false
			}
			dv <<= -e
			q, rem := m/dv, m%dv
			if rem > dv-rem || rem == dv-rem && q&1 != 0 {
				q++
			}
			return q, rem == 0, true
		}
		// a·10^k = X/10^-k, X = m·2^e, and n·10^-k is off a by dist,
		// the distance from n·10^-k to X in units.
		if e >= 64+11 {
			return 0, false, false
		}
		hi, lo := m>>(64-e), m<<e // (m>>64 is 0)
		if e >= 64 {
			hi, lo = m<<(e-64), 0
		}
		if hi >= dv {
			return 0, false, false
		}
		q, rem := bits.Div64(hi, lo, dv)
		dist := rem
		if rem > dv-rem || rem == dv-rem && q&1 != 0 {
			q, dist = q+1, dv-rem
		}
		if q>>63 != 0 {
			return 0, false, false
		}
		// dist ≤ 2^(e-1), strictly when m is odd.
		switch {
		case e == 0:
			back = dist == 0
		case e-1 >= 64:
			back = true
		case m&1 == 0:
			back = dist <= 1<<(e-1)
		default:
			back = dist < 1<<(e-1)
		}
		return q, back, true
	}
	return 0, false, false
}

// appendDecimal appends the canonical text (§2) of n·10^-k, negative if
// neg, for n > 0 not a multiple of 10: plain decimal for 1e-6 ≤ |x| <
// 1e21, else exponent notation d.ddde±x with the exponent's digits alone.
func appendDecimal(b []byte, neg bool, n uint64, k int) []byte {
	var buf [32]byte
	nd := putUint(mem.Of(&buf), n)
	digits := buf[:nd]
	x := nd - 1 - k // the exponent of the first digit
	if neg {
		b = append(b, '-')
	}
	switch {
	case x < -6 || x >= 21:
		b = append(b, digits[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if x < 0 {
			return strconv.AppendInt(append(b, '-'), int64(-x), 10)
		}
		return strconv.AppendInt(append(b, '+'), int64(x), 10)
	case x < 0:
		b = append(b, '0', '.')
		b = append(b, zeros[:-x-1]...)
		return append(b, digits...)
	case x+1 >= nd:
		b = append(b, digits...)
		return append(b, zeros[:x+1-nd]...)
	}
	b = append(b, digits[:x+1]...)
	b = append(b, '.')
	return append(b, digits[x+1:]...)
}
