//go:build !amd64 || purego

package toon

import "github.com/toonstream/toon/internal/mem"

// putRow is never called here (see kernels_other.go).
func putRow(p mem.Ptr, cells []Value, dw uint64) (m, k int) {
	panic("toon: putRow without assembly")
}
