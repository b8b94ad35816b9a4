//go:build !purego

package toon

// lineMasksAVX2 is lineMasksGeneric for CPUs with AVX2. See
// linemasks_amd64.s.
//
//go:noescape
func lineMasksAVX2(b *[64]byte, m *lineMasks)
