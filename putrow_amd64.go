//go:build !purego

package toon

import "unsafe"

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
// 10^-8. TestRowDigitConstants checks them for every number below 10^8.
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

// rowDigitMul32 holds the lane constants of putRowAVX2's DIGITS
// (putrow_amd64.s): lane j of each half of four makes the j-th digit from
// the left of a number h below 10^4, as ceil(2^32/10^(4-j)), so that the
// low 32 bits of h times it are the fraction of h/10^(4-j) in 32-bit fixed
// point, too large by at most h/2^32. TestRowDigitConstants checks them
// for every number below 10^4.
var rowDigitMul32 = func() (mul [8]uint32) {
	for j := range mul {
		p := uint64(1)
		for range 4 - j%4 {
			p *= 10
		}
		mul[j] = uint32((1<<32 + p - 1) / p)
	}
	return mul
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
