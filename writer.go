package toon

// This file is the byte-level half of the encoder: the pooled output buffer
// and the append functions that render keys, strings and numbers exactly as
// §2, §7.1, §7.2, §7.3 and §11.1 require. Everything here appends to a
// []byte and returns it; nothing allocates on the common paths.
//
// Buffer invariants: Encoder.b is the working slice of a ByteBuffer taken
// from outPool (Encoder.bb). Text is appended to it a line at a time and
// handed to the io.Writer once it holds flushSize bytes or more, at a line
// boundary, so memory stays flat at about flushSize plus one line whatever
// the size of the document. The first error from the io.Writer (or a short
// write) is kept in Encoder.err and returned from every later call.

import (
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/valyala/bytebufferpool"
)

// flushSize is the amount of buffered output that triggers a write to the
// underlying io.Writer.
const flushSize = 64 << 10

// outPool holds the encoders' output buffers, and the row buffers of tables
// whose length is not known in advance. It is the encoder's own pool, so its
// size calibration is not disturbed by other users of bytebufferpool.
var outPool bytebufferpool.Pool

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

// classify ORs the classes of every byte of s.
func classify(s string) uint8 {
	p := unsafe.Pointer(unsafe.StringData(s))
	n := uintptr(len(s))
	var a, b uint8
	i := uintptr(0)
	for ; i+8 <= n; i += 8 {
		x := *(*uint64)(unsafe.Add(p, i))
		a |= charClass[uint8(x)] | charClass[uint8(x>>8)] | charClass[uint8(x>>16)] | charClass[uint8(x>>24)]
		b |= charClass[uint8(x>>32)] | charClass[uint8(x>>40)] | charClass[uint8(x>>48)] | charClass[uint8(x>>56)]
	}
	for ; i < n; i++ {
		a |= charClass[*(*uint8)(unsafe.Add(p, i))]
	}
	return a | b
}

// SWAR constants: a byte value repeated in every byte of a word.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// plainWords reports, for a string of at least 8 bytes, that no byte of s
// can force quotes or needs a closer look: none is a control, non-ASCII,
// '"', ',', ':', '[', '\\', ']', '{', '|' or '}'. It reads 8 bytes
// at a time (the last word overlapping the one before) and may report false
// for strings that need no quotes; it never reports true for one that does,
// whatever the delimiter.
func plainWords(s string) bool {
	p := unsafe.Pointer(unsafe.StringData(s))
	n := uintptr(len(s))
	var bad uint64
	for i := uintptr(0); ; i += 8 {
		if i+8 > n {
			i = n - 8
		}
		x := *(*uint64)(unsafe.Add(p, i)) // unaligned loads are fine on the platforms Go supports
		y := x | 0x20*lo8                 // folds [ \ ] onto { | }
		q := y ^ '"'*lo8
		c := y ^ ','*lo8
		o := y ^ ':'*lo8
		bad |= x | // non-ASCII
			(x-0x20*lo8)&^x | // controls
			(y+0x05*lo8)&^(y+0x02*lo8) | // { | } and, folded, [ \ ]
			(q-lo8)&^q | (c-lo8)&^c | (o-lo8)&^o
		if i+8 >= n {
			break
		}
	}
	return bad&hi8 == 0
}

// appendStr appends the string value s, quoted and escaped if §7.2 requires
// it. mask is quoteMask of the relevant delimiter. Ill-formed UTF-8 is
// replaced by U+FFFD, so the output is always UTF-8.
func appendStr(b []byte, s string, mask uint8) []byte {
	n := len(s)
	if n == 0 {
		return append(b, '"', '"')
	}
	var plain bool
	if n >= 8 {
		plain = plainWords(s)
	} else {
		plain = classify(s)&(mask|clsHigh) == 0
	}
	if plain && s[n-1] != ' ' && (charClass[s[0]]&clsFirst == 0 || !quoteByShape(s)) {
		return append(b, s...) // the common case: nothing to quote
	}
	cls := classify(s)
	if cls&clsHigh != 0 && !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		cls = classify(s)
	}
	if cls&mask != 0 || quoteByShape(s) {
		return appendQuoted(b, s, cls)
	}
	return append(b, s...)
}

// appendBytesStr is appendStr for a byte slice.
func appendBytesStr(b []byte, s []byte, mask uint8) []byte {
	return appendStr(b, unsafe.String(unsafe.SliceData(s), len(s)), mask)
}

// quoteByShape reports the §7.2 reasons to quote a non-empty string that do
// not come from the bytes it contains: leading or trailing space, a leading
// hyphen or number sign, the literals true, false and null, and numeric-like
// text. (Tabs are control characters and force quotes through charClass.)
func quoteByShape(s string) bool {
	if s[len(s)-1] == ' ' {
		return true // trailing whitespace, whatever the first byte (§7.2)
	}
	switch c := s[0]; {
	case c == '-' || c == '#' || c == ' ':
		return true
	case c >= '0' && c <= '9' || c == '+':
		return numericLike(s)
	case c == 't':
		return s == "true"
	case c == 'f':
		return s == "false"
	case c == 'n':
		return s == "null"
	}
	return false
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

const hexDigits = "0123456789abcdef"

// appendQuoted appends s in double quotes with the escapes of §7.1: \\, \",
// \n, \r, \t, and \u00xx (lowercase hex) for the other controls. cls is
// classify(s); when it has no clsEscape bit the bytes are copied as they are.
func appendQuoted(b []byte, s string, cls uint8) []byte {
	b = append(b, '"')
	if cls&clsEscape == 0 {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if charClass[c]&clsEscape == 0 {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendKey appends an object key, entry key or field name: bare when it
// matches /^[A-Za-z_][A-Za-z0-9_.]*$/ (§7.3), quoted and escaped otherwise.
func appendKey(b []byte, k string) []byte {
	if len(k) > 0 {
		if c := k[0]; c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' {
			cls := classify(k)
			if cls&clsKeyBad == 0 {
				return append(b, k...)
			}
		}
	}
	cls := classify(k)
	if cls&clsHigh != 0 && !utf8.ValidString(k) {
		k = strings.ToValidUTF8(k, "\uFFFD")
		cls = classify(k)
	}
	return appendQuoted(b, k, cls)
}

// appendBytesKey is appendKey for a byte slice.
func appendBytesKey(b []byte, k []byte) []byte {
	return appendKey(b, unsafe.String(unsafe.SliceData(k), len(k)))
}

// appendFloat appends f as a canonical number (§2): the shortest text that
// reads back as the same value (bits is 32 for float32, 64 for float64),
// plain decimal for 0 and for 1e-6 ≤ |f| < 1e21, exponent notation with a
// lowercase e and an explicit sign outside that range, -0 as 0, and NaN and
// the infinities as null (§3).
func appendFloat(b []byte, f float64, bits int) []byte {
	if f == 0 {
		return append(b, '0')
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		if bits == 64 && a < 1e15 {
			if m, k, ok := shortDecimal(a); ok {
				return appendDecimal(b, f < 0, m, k)
			}
		}
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

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortDecimal finds, for 1e-6 ≤ a < 1e15, the decimal m·10^-k with the
// fewest fraction digits k that reads back as a, provided m < 1e15. That is
// the shortest round-trip form, so the result equals strconv's 'f', -1 text
// (checked by TestAppendFloatMatchesStrconv); ok is false when no such
// decimal exists and the caller must fall back to strconv.
//
// Why it is exact: let K be the largest scale with p = fl(a·10^K) < 1e15. If
// a decimal m·10^-k (k ≤ K, m < 1e15) reads back as a, then a is the double
// nearest to it, so |m·10^(K-k) - a·10^K| ≤ ½ulp(a)·10^K ≤ 2^50·2^-53, and
// rounding the product adds at most ½ulp(p) ≤ 2^-3 more: m·10^(K-k) is the
// integer nearest to p. Stripping its trailing zeros gives the m with the
// fewest fraction digits. No two decimals with k fraction digits can both
// read back as a, and for k ≤ 22 the division m/10^k is correctly rounded,
// so float64(m)/10^k == a tests exactly whether m·10^-k reads back as a.
func shortDecimal(a float64) (m uint64, k int, ok bool) {
	// floor(log10(a)) is d or d+1, where d = floor(e2·log10(2)) from the
	// binary exponent e2; so K is 14-d or 13-d. 1e-6 ≤ a < 1e15 keeps K in
	// [0, 21].
	e2 := int(math.Float64bits(a)>>52&0x7ff) - 1023
	k = 14 - (e2*78913)>>18 // 78913/2^18 ≈ log10(2); >> rounds down
	if uint(k) >= uint(len(pow10)) {
		return 0, 0, false
	}
	p := a * pow10[k]
	if p >= 1e15 {
		k--
		if k < 0 {
			return 0, 0, false
		}
		p = a * pow10[k]
		if p >= 1e15 {
			return 0, 0, false
		}
	}
	n := int64(p + 0.5)
	if k >= 8 && n%100000000 == 0 {
		n /= 100000000
		k -= 8
	}
	if k >= 4 && n%10000 == 0 {
		n /= 10000
		k -= 4
	}
	if k >= 2 && n%100 == 0 {
		n /= 100
		k -= 2
	}
	if k >= 1 && n%10 == 0 {
		n /= 10
		k--
	}
	for k >= 1 && n%10 == 0 { // left over after the steps above
		n /= 10
		k--
	}
	if float64(n)/pow10[k] != a {
		return 0, 0, false
	}
	return uint64(n), k, true
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// pow10u holds the powers of ten that fit a uint64.
var pow10u = [20]uint64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// appendDecimal appends ±m·10^-k in plain decimal notation, for m < 10^19,
// k ≤ len(zeros) and m not a multiple of 10 when k > 0.
func appendDecimal(b []byte, neg bool, m uint64, k int) []byte {
	if neg {
		b = append(b, '-')
	}
	if k == 0 {
		return strconv.AppendUint(b, m, 10)
	}
	ip, fp := uint64(0), m // m < 10^19 ≤ 10^k when k is past the table
	if k < len(pow10u) {
		ip = m / pow10u[k]
		fp = m - ip*pow10u[k]
	}
	b = strconv.AppendUint(b, ip, 10)
	b = append(b, '.')
	b = append(b, zeros[:k]...)
	// The fraction's digits, right-aligned over the zeros.
	i := len(b)
	for fp >= 100 {
		q := fp / 100
		r := fp - q*100
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		fp = q
	}
	if fp >= 10 {
		b[i-2], b[i-1] = digitPairs[2*fp], digitPairs[2*fp+1]
	} else {
		b[i-1] = byte('0' + fp)
	}
	return b
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
				// exponent worked out in arbitrary precision.
				return appendHugeExp(b, neg, intPart, frac, lead, trail, eneg, s[i:]), true
			}
		}
		i = len(s)
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
// eneg) is too large for an int64 in exponent form: d.ddd e±E, where E is
// the exponent adjusted for the position of the first significant digit.
func appendHugeExp(b []byte, neg bool, intPart, frac []byte, lead, trail int, eneg bool, edigits []byte) []byte {
	if neg {
		b = append(b, '-')
	}
	b = appendDigits(b, intPart, frac, lead, lead+1)
	if trail > lead {
		b = append(b, '.')
		b = appendDigits(b, intPart, frac, lead+1, trail+1)
	}
	e, _ := new(big.Int).SetString(string(edigits), 10)
	if eneg {
		e.Neg(e)
	}
	e.Add(e, big.NewInt(int64(len(intPart)-lead-1)))
	b = append(b, 'e')
	if e.Sign() >= 0 {
		b = append(b, '+')
	}
	return e.Append(b, 10)
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

// writeOut writes p to w, turning a short write into io.ErrShortWrite.
func writeOut(w io.Writer, p []byte) error {
	n, err := w.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	return err
}

// appendInt appends a signed integer; integers are always canonical.
func appendInt(b []byte, i int64) []byte { return strconv.AppendInt(b, i, 10) }

// appendUint appends an unsigned integer.
func appendUint(b []byte, u uint64) []byte { return strconv.AppendUint(b, u, 10) }
