//go:build !purego

package toon

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// useRowClassAVX512: strClassesAVX512 can run (the features it lists in
// rowclass_amd64.s). Resolved once; tests may turn it off to compare the
// two ways of putCells.
var useRowClassAVX512 = cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VBMI, cpuid.BMI2)

// strClassesAVX512 is strClassesGeneric for the n cells at cells, with the
// byte classes of tbl (rowClassTables[rowClassIndex(dw)]). See
// rowclass_amd64.s.
//
//go:noescape
func strClassesAVX512(cells *Value, n int, tbl *[128]uint8, cls *[maxClassCells]uint8)

// strClasses is strClassesGeneric, by strClassesAVX512; it requires
// useRowClassAVX512.
func strClasses(cells []Value, dw uint64, cls *[maxClassCells]uint8) {
	strClassesAVX512(unsafe.SliceData(cells), len(cells), &rowClassTables[rowClassIndex(dw)], cls)
}
