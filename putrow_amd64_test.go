//go:build !purego

package toon

import (
	"math/bits"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// TestRowDigitConstants checks the kernel's digit constants the way DIGITS
// uses them, for every number below 10^8 (every 97th in the short form) and
// each of the eight lanes:
// the low 52 bits of u*rowDigitMul[j] + rowDigitBias[j], times ten, have
// digit j of digits8(u) above bit 52.
func TestRowDigitConstants(t *testing.T) {
	const m52 = 1<<52 - 1
	stride := uint64(longtest.Size(t, 97, 1))
	for u := uint64(0); u < 1e8; u += stride {
		w := digits8(u)
		for j := 0; j < 8; j++ {
			lo := (u*rowDigitMul[j] + rowDigitBias[j]) & m52
			if hi, _ := bits.Mul64(lo<<12, 10); hi != w>>(8*j)&0xff {
				t.Fatalf("digit %d of %d: %d, want %d", j, u, hi, w>>(8*j)&0xff)
			}
		}
	}
}

// TestPutRowKernel checks the row kernel as TestPutCellsGo checks
// putCellsGo, on the same kinds of rows (strings at the end of a buffer
// and of a page among them), for every delimiter.
func TestPutRowKernel(t *testing.T) {
	if !usePutRow {
		t.Skip("putRowAVX512 does not run here (the CPU lacks what it needs, or TOON_KERNELS says no)")
	}
	checkRandomRows(t, "putRowAVX512", 32, longtest.Size(t, 5000, 50000), func(p unsafe.Pointer, cells []Value, dw uint64) (int, int) {
		return putRow(mem.FromUnsafe(p), cells, dw)
	})
}

// TestRowCellsWithoutKernel runs the row writer's reference tests with
// putCellsGo, the way of machines without the kernel, where the other
// tests take the kernel.
func TestRowCellsWithoutKernel(t *testing.T) {
	if !usePutRow {
		t.Skip("the other tests already run this way")
	}
	defer useKernels("generic")()
	TestRowCellsMatchReference(t)
	TestWriteRowMatchesReference(t)
}

// TestRowBytes checks the bounds of rowBytes that the row kernel's UTF-8
// test compares bytes with, against the utf8 package: each byte of 0x80
// and above is a continuation byte, a lead byte of a sequence of 2, 3 or
// 4 bytes, or never in UTF-8, as the bounds 0xC0, 0xC2, 0xE0, 0xF0 and
// 0xF5 class it; and the second-byte bounds after E0, ED, F0 and F4
// (0x90, 0xA0) give the second bytes that utf8 accepts after them.
func TestRowBytes(t *testing.T) {
	for i, row := range rowBytes {
		for _, c := range row {
			if c != row[0] {
				t.Fatalf("rowBytes[%d] is not one byte repeated: %x", i, row)
			}
		}
	}
	c0, c2, e0, f0, f5 := rowBytes[0][0], rowBytes[1][0], rowBytes[2][0], rowBytes[3][0], rowBytes[4][0]
	b90, ba0 := rowBytes[5][0], rowBytes[6][0]
	if rowBytes[7][0] != 0xED || rowBytes[8][0] != 0xF4 || rowBytes[9][0] != '0' || rowBytes[10][0] != ':' {
		t.Fatalf("rowBytes[7:]: %#x %#x %#x %#x", rowBytes[7][0], rowBytes[8][0], rowBytes[9][0], rowBytes[10][0])
	}
	for b := 0x80; b < 0x100; b++ {
		// The length of the valid sequences that start with b, if any,
		// and the second bytes they may have.
		n, seconds := 0, [2]int{0x100, -1}
		for s := 0x80; s < 0xc0; s++ {
			if r, size := utf8.DecodeRune([]byte{byte(b), byte(s), 0x80, 0x80}); r != utf8.RuneError {
				n = size
				seconds = [2]int{min(seconds[0], s), max(seconds[1], s)}
			}
		}
		c := byte(b)
		var want int
		switch {
		case c < c0:
			want = -1 // a continuation byte
		case c < c2 || c >= f5:
			want = 0
		case c < e0:
			want = 2
		case c < f0:
			want = 3
		default:
			want = 4
		}
		if want == -1 {
			if _, size := utf8.DecodeRune([]byte{c}); size != 1 || utf8.RuneStart(c) {
				t.Errorf("byte %#x: the bounds make it a continuation byte", c)
			}
			continue
		}
		if n != want {
			t.Errorf("byte %#x: the bounds make it lead %d bytes, utf8 %d", c, want, n)
		}
		lo, hi := 0x80, 0xbf
		switch c {
		case 0xE0:
			lo = int(ba0)
		case 0xED:
			hi = int(ba0) - 1
		case 0xF0:
			lo = int(b90)
		case 0xF4:
			hi = int(b90) - 1
		}
		if n > 0 && (seconds[0] != lo || seconds[1] != hi) {
			t.Errorf("byte %#x: second bytes %#x-%#x, utf8 %#x-%#x", c, lo, hi, seconds[0], seconds[1])
		}
	}
}
