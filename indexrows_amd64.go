//go:build !purego

package toon

// indexAVX2 is the index kernel for AVX2 CPUs (see indexBlocks). It requires
// len(src) to be a multiple of 64. See indexrows_amd64.s.
//
//go:noescape
func indexAVX2(src []byte, delim byte, st *idxState, out []uint32) int

// indexAVX512 is indexAVX2 for CPUs with AVX-512 (BW and VBMI2), storing
// each block's offsets without a loop over them. See indexrows_amd64.s.
//
//go:noescape
func indexAVX512(src []byte, delim byte, st *idxState, out []uint32) int
