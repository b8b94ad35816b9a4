//go:build !amd64 || purego

package toon

// utf8AVX2 is never called here (see kernels_other.go).
func utf8AVX2(b []byte) bool { panic("toon: utf8AVX2 without assembly") }

// utf8ShortAVX2 is never called here (see kernels_other.go).
func utf8ShortAVX2(p *byte, n int) bool { panic("toon: utf8ShortAVX2 without assembly") }
