package toon

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"strconv"

	"github.com/toonstream/toon/internal/mem"
)

// Number is the text of a TOON number, kept exactly as written so that no
// precision is lost (an integer beyond 2^53, a long decimal). Decode returns
// Numbers instead of float64 values when the UseNumber option is set, and the
// Encoder writes a Number in canonical form (§2) without passing it through
// float64 where it is an integer or an exact decimal.
type Number string

// String returns the number's text.
func (n Number) String() string { return string(n) }

// Valid reports whether n is a number in the grammar of §4 (JSON's): an
// optional '-', an integer part without a leading zero, an optional
// fraction and an optional exponent. NumberValue, Encode and Marshal
// reject a Number that is not.
func (n Number) Valid() bool { return isNumber(mem.Bytes(string(n))) }

// Float64 returns the nearest float64 to the number. A number float64
// cannot hold (see Decoder.Decode) is an error wrapping strconv.ErrRange,
// with ±Inf or 0.
func (n Number) Float64() (float64, error) {
	return parseFloat(mem.Bytes(string(n)), 64)
}

// Int64 returns the number as an int64. Numbers written with a fraction or an
// exponent are accepted when their value is a whole number in range
// ("1.0", "1e3"); others are an error.
func (n Number) Int64() (int64, error) {
	if v, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return v, nil
	}
	return wholeNumber[int64](string(n))
}

// Uint64 returns the number as a uint64, with the same rules as Int64.
func (n Number) Uint64() (uint64, error) {
	if v, err := strconv.ParseUint(string(n), 10, 64); err == nil {
		return v, nil
	}
	return wholeNumber[uint64](string(n))
}

// wholeNumber converts a number written with a fraction or exponent to an
// integer type when its exact value is whole and in range.
func wholeNumber[T int64 | uint64](s string) (T, error) {
	mant, exp, neg, ok := splitNumber(s)
	if !ok {
		return 0, &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrSyntax}
	}
	// Strip trailing zeros from the mantissa, raising the exponent.
	for len(mant) > 1 && mant[len(mant)-1] == '0' {
		mant = mant[:len(mant)-1]
		exp++
	}
	for len(mant) > 1 && mant[0] == '0' {
		mant = mant[1:]
	}
	if mant == "0" {
		return 0, nil
	}
	if exp < 0 || exp > 40 {
		return 0, &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrRange}
	}
	var buf [64]byte
	digits := append(buf[:0], mant...)
	for ; exp > 0; exp-- {
		digits = append(digits, '0')
	}
	if neg {
		digits = append([]byte{'-'}, digits...)
	}
	var zero T
	switch any(zero).(type) {
	case int64:
		v, err := strconv.ParseInt(string(digits), 10, 64)
		return T(v), err
	default:
		if neg {
			return 0, &strconv.NumError{Func: "ParseUint", Num: s, Err: strconv.ErrRange}
		}
		v, err := strconv.ParseUint(string(digits), 10, 64)
		return T(v), err
	}
}

// splitNumber splits a number in the §4 grammar into its significant digits
// (integer and fraction parts joined) and a decimal exponent.
func splitNumber(s string) (mant string, exp int, neg bool, ok bool) {
	if !isNumber(mem.Bytes(s)) {
		return "", 0, false, false
	}
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		frac = s[i+1 : j]
		i = j
	}
	if i < len(s) { // exponent
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return "", 0, false, false
		}
		exp = e
	}
	return intPart + frac, exp - len(frac), neg, true
}

// isNumber reports whether b is a number in the grammar of §4:
// /^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i without a forbidden leading zero
// (a zero integer part may only stand alone or before a fraction or
// exponent). It reads the runs of digits eight bytes at a time
// (digitsEnd), so that a long number costs a few word tests, and a
// digit-leading string ("2025-05-09", "1.2.3") is settled at its first
// byte out of place.
func isNumber(b []byte) bool {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i++
	}
	start := i
	i = digitsEnd(b, i)
	if i == start || b[start] == '0' && i-start > 1 {
		return false // no digit, or a leading zero: "05", "-007"
	}
	if i == len(b) {
		return true
	}
	if b[i] == '.' {
		i++
		s := i
		if i = digitsEnd(b, i); i == s {
			return false
		}
		if i == len(b) {
			return true
		}
	}
	if b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		if i = digitsEnd(b, i); i == s {
			return false
		}
	}
	return i == len(b)
}

// digitsEnd returns the index of the first byte of b at or after i
// (i <= len(b)) that is not an ASCII digit, or len(b). Where b has eight
// bytes, it tests a word at a time, the last one the word that ends b.
func digitsEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if nd := nonDigits(binary.LittleEndian.Uint64(b[i:])); nd != 0 {
			return i + bits.TrailingZeros64(nd)>>3
		}
	}
	if i == len(b) {
		return i
	}
	if n := len(b); n >= 8 {
		// The word b[n-8:] without its bytes before i.
		nd := nonDigits(binary.LittleEndian.Uint64(b[n-8:])) >> (8 * uint(i-(n-8)) & 63)
		if nd == 0 {
			return n
		}
		return i + bits.TrailingZeros64(nd)>>3
	}
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	return i
}

// numberAt reports whether the n bytes at p are a number, as isNumber
// does, for 1 <= n <= 24, with the bytes at p readable up to the next
// multiple of eight at or after n (their values after the n bytes do not
// matter). It settles a cell without a loop over its bytes: the mask of
// its bytes that are not digits, one bit a byte (packBits), leaves at
// most a leading '-', a '.', an 'e' or 'E' and the exponent's sign to be
// looked at, each where the grammar allows it.
func numberAt(p mem.Ptr, n int) bool {
	m := packBits(nonDigits(p.Load64(0)))
	if n > 8 {
		m |= packBits(nonDigits(p.Load64(8))) << 8
		if n > 16 {
			m |= packBits(nonDigits(p.Load64(16))) << 16
		}
	}
	m &= 1<<uint(n) - 1
	// The sign, without a branch: in data of both signs one on it is
	// mispredicted half the time.
	neg := b2u(p.Byte(0) == '-')
	s := int(neg) // where the integer part starts
	m &^= neg
	// The integer part: a digit first, and a leading '0' alone.
	if s == n || m>>uint(s)&1 != 0 || p.Byte(s) == '0' && s+1 < n && m>>uint(s+1)&1 == 0 {
		return false
	}
	if m == 0 {
		return true
	}
	i := bits.TrailingZeros64(m)
	c := p.Byte(i)
	if c == '.' {
		// A fraction: at least one digit after the '.'.
		m &^= 1 << uint(i)
		if i+1 >= n || m>>uint(i+1)&1 != 0 {
			return false
		}
		if m == 0 {
			return true
		}
		i = bits.TrailingZeros64(m)
		c = p.Byte(i)
	}
	if c|0x20 != 'e' {
		return false
	}
	// An exponent: an optional sign, then digits to the end.
	m &^= 1 << uint(i)
	i++
	if i < n && (p.Byte(i) == '+' || p.Byte(i) == '-') {
		m &^= 1 << uint(i)
		i++
	}
	return i < n && m == 0
}

// nonDigits returns the mask of the bytes of w that are not ASCII digits:
// 0x80 in each of them, 0 in the others.
func nonDigits(w uint64) uint64 {
	// XOR-ed with '0', the digits are the bytes 0 to 9: of the others,
	// those below 0x80 are 10 to 0x7f, whose sum with 0x76 sets the
	// high bit without a carry into the next byte, and the rest have
	// the high bit set already (as w has).
	return ((w^'0'*swarLo)&swar7f + 0x76*swarLo | w) & swarHi
}

// The number grammar of §4 (isNumber's) as an automaton over bytes, in the
// layout of utf8Valid's: numStep[c] holds, in its 6 bits from bit s, the
// state that byte c leads to from state s. A text is a number when the
// state after its last byte is one that numAccept marks. typeRows
// (typerows_amd64.s) runs it on the cells its word tests do not settle, a
// byte costing one load and one shift; TestNumStep holds it to isNumber.
const (
	numStart = 6 * iota // nothing read
	numMinus            // after the leading '-'
	numZero             // an integer part "0" (accepts)
	numInt              // in an integer part that starts with 1-9 (accepts)
	numDot              // after the '.'
	numFrac             // in the fraction (accepts)
	numE                // after the 'e' or 'E'
	numESign            // after the exponent's sign
	numExp              // in the exponent's digits (accepts)
	numError            // not a number, whatever follows
)

// numAccept has bit s set for each accepting state s.
const numAccept = 1<<numZero | 1<<numInt | 1<<numFrac | 1<<numExp

var numStep = func() (t [256]uint64) {
	set := func(c byte, from, to uint64) { t[c] = t[c]&^(63<<from) | to<<from }
	for c := range t {
		for s := uint64(numStart); s <= numError; s += 6 {
			t[c] |= numError << s // unless set below
		}
	}
	for c := byte('0'); c <= '9'; c++ {
		first := uint64(numInt)
		if c == '0' {
			first = numZero
		}
		set(c, numStart, first)
		set(c, numMinus, first)
		set(c, numInt, numInt)
		set(c, numDot, numFrac)
		set(c, numFrac, numFrac)
		set(c, numE, numExp)
		set(c, numESign, numExp)
		set(c, numExp, numExp)
	}
	set('-', numStart, numMinus)
	set('-', numE, numESign)
	set('+', numE, numESign)
	set('.', numZero, numDot)
	set('.', numInt, numDot)
	for _, c := range []byte{'e', 'E'} {
		set(c, numZero, numE)
		set(c, numInt, numE)
		set(c, numFrac, numE)
	}
	return t
}()

// parseFloat parses number text as a float of the given bit size (32 or
// 64), without copying it to a string, and says whether that float type
// holds it. A number it cannot hold is out of range (§4 asks for a documented
// policy): its magnitude rounds to infinity, or it is not zero but rounds
// to zero. Then the result is ±Inf or 0, as strconv.ParseFloat gives it,
// and the error wraps strconv.ErrRange. Every float the decoder produces
// goes through here, so that Decode into an interface (Number then),
// into a float field (a mismatch then) and Token.Float agree.
func parseFloat(b []byte, bits int) (float64, error) {
	if f, ok := decimalFloat(b, bits); ok {
		return f, nil
	}
	s := mem.String(b)
	f, err := strconv.ParseFloat(s, bits)
	if err == nil && f == 0 && !zeroDigits(b) {
		err = &strconv.NumError{Func: "ParseFloat", Num: string(b), Err: strconv.ErrRange}
	}
	return f, err
}

// zeroDigits reports whether the number text b (the §4 grammar) has no
// non-zero digit before its exponent: whether its value is zero.
func zeroDigits(b []byte) bool {
	for _, c := range b {
		switch {
		case c|0x20 == 'e':
			return true
		case c >= '1' && c <= '9':
			return false
		}
	}
	return true
}

func errNotNumber(k Kind) error {
	return errors.New("toon: token is " + k.String() + ", not Number")
}

// decimalFloat is parseFloat's fast path: the float of the given bit size
// (32 or 64) nearest to the number text b, ties to even, the float that
// strconv.ParseFloat returns, for the numbers most data is written with.
// b's value is ±m·10^q, m its digits; ok is false, for strconv to parse
// b, where m has more than 19 digits from its first that is not 0 (a
// uint64 holds 19) or where none of these gives the float exactly:
//   - for a float64, m below 2^53 and 10^|q| at most 10^22, both exact:
//     their quotient (q < 0) or product, which IEEE arithmetic rounds
//     correctly (Clinger's fast path), the common case; for a float32,
//     the same quotient rounded again to 32 bits where float32Safe shows
//     the second rounding gives what one would;
//   - m·10^q with q >= 0 in a uint64: converted, which rounds once;
//   - m/10^-q with -q <= 19: divided in integers (roundQuotient).
//
// It gives up on any text outside the §4 grammar, a leading zero in the
// integer part included ("05", which strconv reads as 5): so it takes the
// text of a cell only when the cell is a number.
func decimalFloat(b []byte, size int) (float64, bool) {
	// b's bytes are read through p, at indexes the loops check against
	// n: b[i]'s bounds checks were an eighth of the instructions here.
	n, p := len(b), mem.BytesData(b)
	if n == 0 {
		return 0, false
	}
	neg := p.Byte(0) == '-'
	i := int(b2u(neg))
	// The digits, before and after the point, into m; sig counts those
	// that may make m wrap: all but the zero integer part "0" and the
	// zeros after "0.", which are skipped.
	var m uint64
	start := i
	for ; i < n; i++ {
		c := p.Byte(i) - '0'
		if c > 9 {
			break
		}
		m = m*10 + uint64(c)
	}
	sig := i - start
	if sig == 0 {
		return 0, false
	}
	if p.Byte(start) == '0' {
		if sig > 1 {
			return 0, false // a leading zero
		}
		sig = 0 // the integer part "0": no significant digit
	}
	q := 0
	if i < n && p.Byte(i) == '.' {
		i++
		start = i
		if m == 0 {
			// The zeros after "0.", a word's run of them at once where
			// eight bytes follow: a loop's exit would be mispredicted
			// as their count varies. (leadingSpaces's method, for '0',
			// on p: leadingSpaces generalized to any byte and called
			// here cost 4.4% more instructions on vectors' Unmarshal.)
			if i+8 <= n {
				i += bits.TrailingZeros64(p.Load64(i)^'0'*swarLo) >> 3
			}
			for i < n && p.Byte(i) == '0' {
				i++
			}
		}
		digits := i
		// Eight digits at a time while eight follow (digitsValue).
		for ; i+8 <= n; i += 8 {
			w := p.Load64(i)
			if nonDigits(w) != 0 {
				break
			}
			m = m*100000000 + digitsValue(w)
		}
		for ; i < n; i++ {
			c := p.Byte(i) - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
		}
		if i == start {
			return 0, false
		}
		sig += i - digits
		q = start - i
	}
	if i < n && p.Byte(i)|0x20 == 'e' {
		e, next, ok := exponent(b, i+1)
		if !ok {
			return 0, false
		}
		q, i = q+e, next
	}
	if i != n || sig > 19 {
		return 0, false // digits that overflowed m, say
	}
	var f float64
	ok := true
	if m < 1<<53 && uint(-q) <= 22 {
		f = float64(m) / exactPow10[-q]
		if size == 32 {
			if float32Safe(f) {
				f = float64(float32(f))
			} else {
				f, ok = scaledFloat(m, q, size)
			}
		}
	} else {
		f, ok = scaledFloat(m, q, size)
	}
	if !ok {
		return 0, false
	}
	// The sign is set without a branch, for numberAt's reason: in data
	// of both signs a branch on it is mispredicted half the time.
	return math.Float64frombits(math.Float64bits(f) | b2u(neg)<<63), true
}

// float32Safe reports whether the float32 nearest to the float64 f,
// itself the float64 nearest to a decimal v, is the float32 nearest to v:
// whether the two roundings give the one rounding's result. They do
// unless f lies exactly halfway between two float32s (then v may lie on
// either side; a float32's midpoint is a float64, so no float64 nearer to
// v lies between them otherwise), or f is outside the float32s' normal
// range (a subnormal float32 has fewer bits, an overflow none).
func float32Safe(f float64) bool {
	const half = 1 << 28 // the 29 bits a float32 drops, at half of its last place
	a := math.Abs(f)
	return math.Float64bits(f)&(1<<29-1) != half && a >= 0x1p-126 && a < math.MaxFloat32
}

// exponent returns the value of an exponent's optional sign and digits
// at b[i:], the index after them, and whether a digit was there. It reads
// four digits at most: a fifth is left to the caller, which then finds no
// end where it expects one.
func exponent(b []byte, i int) (e, next int, ok bool) {
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	start := i
	for ; i < len(b) && i-start < 4; i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		e = e*10 + int(c)
	}
	if neg {
		e = -e
	}
	return e, i, i > start
}

// scaledFloat is decimalFloat for the m·10^q (m at most 19 digits) that
// its quotient of Clinger's fast path does not take.
func scaledFloat(m uint64, q, size int) (float64, bool) {
	switch {
	case m == 0:
		return 0, true
	case q >= 0:
		if q < len(pow10u) && pow10u[q] != 0 {
			if hi, p := bits.Mul64(m, pow10u[q]); hi == 0 {
				if size == 32 {
					return float64(float32(p)), true
				}
				return float64(p), true
			}
		}
		if size == 64 && m < 1<<53 && q <= 22 {
			return float64(m) * exactPow10[q], true // 1e22, 1.5e21
		}
		return 0, false
	case q >= -19:
		return roundQuotient(m, pow10u[-q], size), true
	}
	return 0, false
}

// roundQuotient returns the float of the given bit size (32 or 64)
// nearest to m/d, ties to even, for m and d not 0 whose quotient is a
// normal float of that size (d <= 10^19 does it). Both are shifted to
// have their top bit set, and the 128-bit division of m·2^64 (or m·2^63,
// when m's shifted digits are d's or more) by d's gives a quotient of 64
// bits, the top one set, and a remainder: the quotient's bits below the
// float's are rounded with the remainder as the sticky bit, the result
// exact to the last bit.
func roundQuotient(m, d uint64, size int) float64 {
	lm, ld := bits.LeadingZeros64(m), bits.LeadingZeros64(d)
	n, dn := m<<uint(lm), d<<uint(ld)
	e := ld - lm // m/d = n/dn · 2^e
	// n >= dn is as likely as not: the shift and the rounding below are
	// taken without branches, which would be mispredicted half the time.
	ge := b2u(n >= dn)
	hi, lo := n>>ge, n<<63&-ge
	e += int(ge)
	quo, rem := bits.Div64(hi, lo, dn) // m/d = (quo + rem/dn) · 2^(e-64)
	// The float's significand is quo's top p bits (p = 53 or 24), the
	// other shift bits, and the remainder, decide the rounding.
	shift := uint(11)
	if size == 32 {
		shift = 40
	}
	sig, low, half := quo>>shift, quo&(1<<shift-1), uint64(1)<<(shift-1)
	sig += b2u(low > half) | b2u(low == half)&(b2u(rem != 0)|sig&1)
	// Rounded up to the next power of two, sig has a bit above its top,
	// and its significand bits are 0, as sig's below its top.
	e += int(sig >> (64 - shift))
	// m/d = sig · 2^(e-64+shift), sig with its top bit at 63-shift: the
	// unbiased exponent is e-1.
	if size == 32 {
		return float64(math.Float32frombits(uint32(e-1+127)<<23 | uint32(sig)&(1<<23-1)))
	}
	return math.Float64frombits(uint64(e-1+1023)<<52 | sig&(1<<52-1))
}

// digitsValue returns the value of the eight decimal digits of w, read
// little-endian (its first byte the most significant digit), a word whose
// bytes are all digits (nonDigits(w) is 0).
func digitsValue(w uint64) uint64 {
	// The digits' values, paired into 2-digit ones, then 4, then 8; the
	// bytes, then halves, between the pairs hold what the masks drop.
	w -= 0x3030303030303030
	w = w*10 + w>>8&0x00ff00ff00ff00ff
	w = w&0x00ff00ff00ff00ff*100 + w>>16&0x000000ff000000ff
	w = w&0x0000ffff0000ffff*10000 + w>>32&0xffff
	return w & 0xffffffff
}
