//go:build !purego

package toon

import (
	"math/bits"
	"testing"
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
