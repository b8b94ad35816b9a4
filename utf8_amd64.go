//go:build !purego

package toon

// utf8AVX2 checks b, whose length is a multiple of 32, as UTF-8, for
// utf8Valid where the CPU allows (useUTF8AVX2), all but a sequence cut
// short at its end. See utf8_amd64.s.
//
//go:noescape
func utf8AVX2(b []byte) bool

// utf8ShortAVX2 reports whether the n bytes at p, 0 < n < 64, are
// well-formed UTF-8, for utf8Valid where the CPU allows (useUTF8AVX2). It
// reads 32 bytes from p, or 64 when n > 32, past the text: they must be
// readable. See utf8_amd64.s.
//
//go:noescape
func utf8ShortAVX2(p *byte, n int) bool
