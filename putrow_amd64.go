//go:build !purego

package toon

import (
	"math/bits"
	"unsafe"
)

// putRowAVX512 is putCellsGo's work for cells, written at p, with the
// byte classes of rowClassTables[rowClassIndex(dw)]: it returns the number
// of bytes it wrote, up to the last delimiter, and of cells. See
// putrow_amd64.s.
//
//go:noescape
func putRowAVX512(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)

// putRowAVX2 is putRowAVX512 for CPUs with AVX2 and without AVX-512: it
// writes strings of up to 32 bytes, as putCellsGo does. See
// putrow_amd64.s.
//
//go:noescape
func putRowAVX2(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)

// rowDigitMul and rowDigitBias are the lane constants of putRowAVX512's
// DIGITS (putrow_amd64.s). Lane j makes the j-th digit from the left of a
// number below 10^8: it multiplies by ceil(2^52/10^(8-j)), but lane 0,
// whose error would reach the next digit, multiplies by floor(2^52/10^8)
// and adds what that leaves of 2^52, so that it errs upwards by less than
// 10^-8. TestRowDigitConstants checks them for every number below 10^8
// (in its long form).
var rowDigitMul, rowDigitBias = func() (mul, bias [8]uint64) {
	p := uint64(1)
	for j := 7; j >= 0; j-- {
		p *= 10
		mul[j] = (1<<52 + p - 1) / p
	}
	mul[0] = 1 << 52 / 100_000_000
	bias[0] = 1<<52 - 1e8*mul[0]
	return mul, bias
}()

// rowDigitLanes holds the lane constants of putRowAVX2's DIGITS
// (putrow_amd64.s), those of digit j (the j-th from the left of a number
// below 10^8) in lane j of each: with d = 10^(8-j) and k = 32 plus the
// bit length of d less one, the multiplier ceil(2^k/d), below 2^32; the
// mask of the product's low k bits, the fraction of u/d in k-bit fixed
// point; and k-1, by which five times the fraction is shifted down to
// the digit. For u below 10^8 < 2^27, the fraction is too large by
// u*(ceil(2^k/d)-2^k/d)/2^k, less than 2^27/2^k < 1/(16d); ten times the
// exact fraction is a multiple of 10/d, so at least 10/d below the next
// whole number, and the digit comes out exact.
// TestRowDigitConstants checks them for every number below 10^8 (in its
// long form).
var rowDigitLanes = func() (c struct{ mul, mask, shift [8]uint64 }) {
	d := uint64(1e8)
	for j := range 8 {
		k := 32 + bits.Len64(d) - 1
		c.mul[j] = (1<<k + d - 1) / d
		c.mask[j] = 1<<k - 1
		c.shift[j] = uint64(k - 1)
		d /= 10
	}
	return c
}()

// rowPointShuffle[n] is the VPSHUFB control with which the row kernels
// make room for a decimal point after the first n of 16 digits: byte i of
// the result is digit i before n and digit i-1 from n on (the byte at n,
// a copy of digit n-1, is then overwritten by the point).
//
//lint:ignore U1000 read by the assembly kernels only
var rowPointShuffle = func() (t [17][16]byte) {
	for n := range t {
		for i := range t[n] {
			t[n][i] = byte(i)
			if i >= n && i > 0 {
				t[n][i] = byte(i - 1)
			}
		}
	}
	return t
}()

// rowBytes holds the bytes the row kernels compare a string's bytes with,
// each repeated in the 64 bytes of a vector, in the order of the B_
// names of putrow_amd64.s: the bounds of the classes of UTF-8 bytes, of
// the second bytes after E0, ED, F0 and F4, and of the digits; then the
// bytes putRowAVX2 tests byteHard and the digits with (as special tests
// them on words).
var rowBytes = func() (t [15][64]byte) {
	for i, c := range [15]byte{0xC0, 0xC2, 0xE0, 0xF0, 0xF5, 0x90, 0xA0, 0xED, 0xF4, '0', ':', 0x02, 0x20, 0x7B, 9} {
		for j := range t[i] {
			t[i][j] = c
		}
	}
	return t
}()
