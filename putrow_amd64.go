//go:build !purego

package toon

import (
	"unsafe"

	"github.com/toonstream/toon/internal/mem"
)

// putRow runs putRowAVX512 over cells, writing at p with the delimiter
// word dw: it returns the number of bytes it wrote, up to the last
// delimiter, and of cells (see putCells).
func putRow(p mem.Ptr, cells []Value, dw uint64) (m, k int) {
	return putRowAVX512(p.Unsafe(), cells, dw)
}

// putRowAVX512 is putCellsGo's work for cells, written at p, with the
// byte classes of rowClassTables[rowClassIndex(dw)]: it returns the number
// of bytes it wrote, up to the last delimiter, and of cells. See
// putrow_amd64.s.
//
//go:noescape
func putRowAVX512(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)

// rowDigitMul and rowDigitBias are the lane constants of the kernel's
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

// rowBytes holds the bytes the row kernel compares a string's bytes with,
// each repeated in the 64 bytes of a vector, in the order of the B_
// names of putrow_amd64.s: the bounds of the classes of UTF-8 bytes, of
// the second bytes after E0, ED, F0 and F4, and of the digits.
var rowBytes = func() (t [11][64]byte) {
	for i, c := range [11]byte{0xC0, 0xC2, 0xE0, 0xF0, 0xF5, 0x90, 0xA0, 0xED, 0xF4, '0', ':'} {
		for j := range t[i] {
			t[i][j] = c
		}
	}
	return t
}()
