//go:build !purego

package toon

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// useRowKernel: putRowAVX512 can run (the features it lists in
// row_amd64.s). Resolved once; tests may turn it off to compare the
// kernel with putCellsGo.
var useRowKernel = cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VBMI, cpuid.BMI1, cpuid.BMI2, cpuid.LZCNT)

// putRowAVX512 is putCellsGo's work for the n cells at cells, written at p,
// with the byte classes tbl (rowClassTables[rowClassIndex(dw)]): it
// returns the number of bytes it wrote, up to the last delimiter, and of
// cells. See row_amd64.s.
//
//go:noescape
func putRowAVX512(p unsafe.Pointer, cells *Value, n int, dw uint64, tbl *[128]uint8) (m, k int)
