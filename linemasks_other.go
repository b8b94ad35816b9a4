//go:build !amd64 || purego

package toon

// The kernel is never called here (see kernels_other.go).

func lineMasksAVX2(b *[64]byte, m *lineMasks) {
	panic("toon: lineMasksAVX2 without assembly")
}
