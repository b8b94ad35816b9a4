//go:build !purego

package toon

// utf8AVX2 checks b, whose length is a multiple of 32, as UTF-8, for
// utf8Valid where the CPU allows (useUTF8AVX2), all but a sequence cut
// short at its end. See utf8_amd64.s.
//
//go:noescape
func utf8AVX2(b []byte) bool
