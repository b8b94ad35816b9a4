//go:build !purego

package toon

import (
	"math/rand"
	"testing"
	"unsafe"
)

// TestPutRowKernel checks the row kernel as TestPutCellsGo checks
// putCellsGo, on the same kinds of rows (strings at the end of a buffer
// and of a page among them), for every delimiter.
func TestPutRowKernel(t *testing.T) {
	if !useRowKernel {
		t.Skip("the CPU lacks what putRowAVX512 needs")
	}
	r := rand.New(rand.NewSource(32))
	floats := floatCases(r)
	back := make([]byte, 8192)
	for k := 0; k < 50000; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		dw := delimWord(quoteMask(d))
		cells := kernelCells(r, floats, back)
		checkRowWriter(t, "putRowAVX512", cells, d, func(p unsafe.Pointer, cells []Value) (int, int) {
			return putRowAVX512(p, unsafe.SliceData(cells), len(cells), dw, &rowClassTables[rowClassIndex(dw)])
		})
	}
}

// TestRowCellsWithoutKernel runs the row writer's reference tests with
// putCellsGo, the way of machines without the kernel, where the other
// tests take the kernel.
func TestRowCellsWithoutKernel(t *testing.T) {
	if !useRowKernel {
		t.Skip("the other tests already run this way")
	}
	useRowKernel = false
	defer func() { useRowKernel = true }()
	TestRowCellsMatchReference(t)
	TestWriteRowMatchesReference(t)
}

// useRowKernelAtStart is useRowKernel as the CPU set it.
var useRowKernelAtStart = useRowKernel

// setRowKernel turns the row kernel on or off.
func setRowKernel(on bool) { useRowKernel = on }
