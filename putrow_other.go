//go:build !amd64 || purego

package toon

import "unsafe"

// putRowAVX512 is never called here (see kernels_other.go).
func putRowAVX512(p unsafe.Pointer, cells []Value, dw uint64) (m, k int) {
	panic("toon: putRowAVX512 without assembly")
}

// putRowAVX2 is never called here (see kernels_other.go).
func putRowAVX2(p unsafe.Pointer, cells []Value, dw uint64) (m, k int) {
	panic("toon: putRowAVX2 without assembly")
}
