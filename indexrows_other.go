//go:build !amd64 || purego

package toon

// The kernels are never called here (see kernels_other.go).

func indexAVX2(src []byte, delim byte, st *idxState, out []uint32) int {
	panic("toon: indexAVX2 without assembly")
}

func indexAVX512(src []byte, delim byte, st *idxState, out []uint32) int {
	panic("toon: indexAVX512 without assembly")
}
