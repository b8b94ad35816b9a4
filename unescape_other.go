//go:build !amd64 || purego

package toon

// unescapeAVX512 is never called here (see kernels_other.go).
func unescapeAVX512(src, dst []byte) (in, out int) {
	panic("toon: unescapeAVX512 without assembly")
}

// unescapeAVX2 is never called here (see kernels_other.go).
func unescapeAVX2(src, dst []byte) (in, out int) {
	panic("toon: unescapeAVX2 without assembly")
}
