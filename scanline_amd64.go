//go:build !purego

package toon

import "slices"

// scanState is the state the kernels carry from one block to the next and
// from one call to the next. scanline_amd64.s finds its fields through
// go_asm.h.
type scanState struct {
	pos     int    // offset of the next block to scan
	inq     uint64 // ^0 when the next block starts inside a quoted region, else 0
	colon   int    // first unquoted ':' so far, or -1
	bracket int    // first unquoted '[' so far, or -1
	quote   uint64 // nonzero once a '"' has been seen
	//lint:ignore U1000 read and written by the kernels only
	esc uint64 // 1 when the next block's first byte is escaped by an odd backslash run
}

// scanAVX2 scans the line src[st.pos:] a 64-byte block at a time, storing
// separator positions into out and returning how many it stored. It stops
// early, with st.pos at the first block not scanned, when a block's
// delimiters might not fit in out. It requires len(src) >= 64. See
// scanline_amd64.s.
//
//go:noescape
func scanAVX2(src []byte, delim byte, st *scanState, out []int32) int

// scanAVX512 is scanAVX2 for AVX-512 (BW) CPUs; it accepts lines of any
// length, reading the last partial block with a masked load.
//
//go:noescape
func scanAVX512(src []byte, delim byte, st *scanState, out []int32) int

// scanLineAsm runs a kernel over line, growing seps between calls when it
// runs out of room. avx512 selects scanAVX512, else scanAVX2 (with lines
// shorter than a block copied into a zero-padded block on the stack: zero
// bytes match nothing, as delim 0 means no delimiter).
func scanLineAsm(line []byte, delim byte, seps []int32, avx512 bool) ([]int32, lineScan) {
	if delim == '"' {
		// The kernels treat an opening quote as quoted; the contract counts
		// it as an unquoted delimiter. No TOON delimiter is '"'.
		return scanLineGeneric(line, delim, seps)
	}
	if len(line) < 64 && !avx512 {
		var pad [64]byte
		copy(pad[:], line)
		return scanBlocks(pad[:], delim, seps, false)
	}
	return scanBlocks(line, delim, seps, avx512)
}

// scanBlocks is scanLineAsm after the choice of input: src is the line, or
// for scanAVX2 a line shorter than a block padded to one. It is kept apart
// so that the common path does not zero a padding block it does not use.
func scanBlocks(src []byte, delim byte, seps []int32, avx512 bool) ([]int32, lineScan) {
	st := scanState{colon: -1, bracket: -1}
	for {
		var n int
		if avx512 {
			n = scanAVX512(src, delim, &st, seps[len(seps):cap(seps)])
		} else {
			n = scanAVX2(src, delim, &st, seps[len(seps):cap(seps)])
		}
		seps = seps[:len(seps)+n]
		if st.pos >= len(src) {
			break
		}
		seps = slices.Grow(seps, 64)
	}
	return seps, lineScan{colon: st.colon, bracket: st.bracket, quote: st.quote != 0, open: st.inq != 0}
}
