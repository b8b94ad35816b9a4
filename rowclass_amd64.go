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

// The layout of a Value that the kernel reads: the string's data
// at 0 and its length at 8, the kind at 24, 32 bytes in all, and vString
// 1. Each line is a constant that overflows, and so does not compile,
// if its part of that layout changes.
const (
	_ = uint(unsafe.Offsetof(Value{}.s)) - 0
	_ = 0 - uint(unsafe.Offsetof(Value{}.s))
	_ = uint(unsafe.Offsetof(Value{}.kind)) - 24
	_ = 24 - uint(unsafe.Offsetof(Value{}.kind))
	_ = uint(unsafe.Sizeof(Value{})) - 32
	_ = 32 - uint(unsafe.Sizeof(Value{}))
	_ = uint(vString) - 1
	_ = 1 - uint(vString)
)
