package toon

import "slices"

// The row index: a second scanning interface, for the decoder's fast path
// over runs of plain table rows (fastrows.go). Where scanLine looks at one line,
// indexRows looks at many at once and lists the bytes the fast path must see
// to split them into lines and cells and to notice anything it must leave
// to the general path.

// idxState is what the index kernels carry from one block to the next.
// indexrows_amd64.s finds its fields through go_asm.h.
type idxState struct {
	pos  int    // offset of the next block to index
	inq  uint64 // ^0 when the next block starts inside a quoted region, else 0
	high uint64 // 1 when the byte before the next block is >= 0x80, else 0
	esc  uint64 // 1 when the next block's first byte is escaped by an odd backslash run
	// dirty, for indexBlocksGeneric alone: 0 when the last block was of
	// ASCII bytes with no quote or backslash, so that the next is tried
	// as a plain one.
	dirty uint64
}

// indexRows appends to out the offset in src of every byte of interest:
//
//   - every '"', LF, CR and '\';
//   - every delim and ':' outside quoted regions, which are those of
//     scanLine: a '"' opens a region wherever it stands, and inside one a
//     '\' makes the next byte literal and a '"' closes it;
//   - the first byte of every run of bytes >= 0x80.
//
// The offsets are in increasing order. delim must not be 0 or '"'. out
// grows as append would, so a caller that reuses it stops allocating once
// it is large enough. The result must not depend on which implementation
// runs: the kernels are tested against indexBlocksRef.
func indexRows(src []byte, delim byte, out []uint32) []uint32 {
	// The first block is not tried as a plain one (a failed try costs a
	// block's worth of tests, on every call where quoted text comes first).
	st := idxState{dirty: 1}
	for {
		// The whole blocks from st.pos on: the kernels index a block at
		// a time, but the portable one may stop at any offset (quotedRun).
		full := st.pos + (len(src)-st.pos)&^63
		if st.pos == full {
			break
		}
		if cap(out)-len(out) < 64 {
			out = slices.Grow(out, 64)
		}
		n := indexBlocks(src[:full], delim, &st, out[len(out):cap(out)])
		out = out[:len(out)+n]
	}
	if rest := st.pos; rest < len(src) {
		// The last partial block goes through a zero-padded copy: a zero
		// byte is of no interest, as delim is not 0.
		var pad [64]byte
		copy(pad[:], src[rest:])
		if cap(out)-len(out) < 64 {
			out = slices.Grow(out, 64)
		}
		st.pos = 0
		k := len(out)
		n := indexBlocks(pad[:], delim, &st, out[k:cap(out)])
		out = out[:k+n]
		for i := k; i < len(out); i++ {
			out[i] += uint32(rest)
		}
	}
	return out
}

// indexBlocks indexes src[st.pos:] a 64-byte block at a time (len(src) is
// st.pos plus a multiple of 64), storing offsets into out; it stops before
// a block when out has fewer than 64 free places, or when fewer than 64
// bytes are left, and returns the number stored, n. Only the portable
// kernel leaves any: it may advance by less than a block. The assembly
// kernels advance by whole blocks from 0, so st.pos and len(src) stay
// multiples of 64 for them, as they require. The places from out[n] to
// out[n+indexSlack-1] (within out) may be written too, with garbage: the
// AVX2 and portable kernels store a block's offsets eight at a time (see
// putOffsets).
// It runs the best index kernel the CPU allows (see kernels.go), else
// indexBlocksGeneric, whose results are the specification of theirs.
// The kernels are called directly rather than through a function value,
// which would make st and the caller's padding block escape to the heap.
func indexBlocks(src []byte, delim byte, st *idxState, out []uint32) int {
	switch {
	case useIndexAVX512:
		return indexAVX512(src, delim, st, out)
	case useIndexAVX2:
		return indexAVX2(src, delim, st, out)
	}
	return indexBlocksGeneric(src, delim, st, out)
}

// indexSlack is the most places past its result that an index kernel
// writes: a block's last group of eight stores holds at least one offset.
const indexSlack = 7
