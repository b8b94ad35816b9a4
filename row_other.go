//go:build !amd64 || purego

package toon

import "unsafe"

// useRowKernel is false where there is no assembly (other architectures,
// or the purego build tag): putCells is putCellsGo. As a constant, it
// leaves putCells without the kernel's call.
const useRowKernel = false

// putRowAVX512 is never called here; it writes no cell.
func putRowAVX512(unsafe.Pointer, *Value, int, uint64, *[128]uint8) (m, k int) { return 0, 0 }
