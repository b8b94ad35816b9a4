//go:build !purego

package toon

// lineMasksAVX2 sets m to the masks of the 64 bytes of b (lineMasks), on
// CPUs with AVX2. See linemasks_amd64.s.
//
//go:noescape
func lineMasksAVX2(b *[64]byte, m *lineMasks)
