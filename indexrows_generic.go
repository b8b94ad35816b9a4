package toon

import (
	"encoding/binary"
	"math/bits"
)

// This file is the portable index kernel, indexBlocksGeneric, and the
// specification the kernels of indexrows_amd64.s must match byte for byte.

// swarBits packs the high bits of a SWAR mask (0x80 or 0 in each byte) into
// the low 8 bits, byte k of the word becoming bit k.
func swarBits(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }

// prefixXor returns the word whose bit i is the parity of bits 0..i of x:
// the quoted regions of a block from the mask of its quotes.
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}

// quoteRegions returns the mask of a block's bytes inside quoted regions
// (an opening quote is inside, a closing one is not), from the masks of its
// quotes and backslashes and the state carried in, which it updates. A
// backslash escapes the next byte; the bytes it escapes are found from the
// parity of the backslash runs, carrying an odd run into the next block.
// An unescaped quote toggles the region, so the regions are the prefix-xor
// of those quotes. A backslash only escapes inside a region, so an escaped
// quote outside every region is real and opens one: the loop at the end
// fixes those up (an encoder never writes them). indexrows_amd64.s computes the
// same with a carry-less multiply for the prefix-xor.
func quoteRegions(q, bs uint64, st *idxState) uint64 {
	const even = 0x5555555555555555
	b := bs &^ st.esc
	follows := b<<1 | st.esc
	oddStarts := b &^ even &^ follows
	sum, carry := bits.Add64(oddStarts, b, 0)
	st.esc = carry
	escaped := (even ^ sum<<1) & follows
	region := prefixXor(q&^escaped) ^ st.inq
	eq := q & escaped
	for bad := eq &^ region; bad != 0; bad = eq &^ region {
		low := bad & -bad
		region ^= -low
		eq &^= bad ^ (bad - 1)
	}
	st.inq = uint64(int64(region) >> 63)
	return region
}

// indexBlocksGeneric is the portable index kernel (see indexBlocks and
// indexRows). It builds each 64-byte block's masks a word at a time, as
// indexrows_amd64.s builds them a vector at a time, then stores the
// offsets of the set bits.
//
// A byte's match with each byte of interest is found from its low seven
// bits, lo, computed once a word: (lo^c)+0x7f has its high bit set when
// lo is not c, and since every byte of interest is below 0x80, the bytes
// that match none of a set of them are those whose sums, and-ed together,
// or-ed with the byte's own high bit, have the high bit set. That is two
// operations a byte of interest, where an exact equality test is five.
func indexBlocksGeneric(src []byte, delim byte, st *idxState, out []uint32) int {
	const (
		quoteW  = '"' * swarLo
		bslashW = '\\' * swarLo
		colonW  = ':' * swarLo
		lfW     = '\n' * swarLo
		crW     = '\r' * swarLo
	)
	delimW := uint64(delim) * swarLo
	n := 0
	for ; st.pos+64 <= len(src) && len(out)-n >= 64; st.pos += 64 {
		blk := src[st.pos : st.pos+64]
		var q, bs, dc, sp, hi uint64
		for k := 0; k < 8; k++ {
			w := binary.LittleEndian.Uint64(blk[8*k:])
			sh := uint(8 * k)
			h := w & swarHi
			lo := w & swar7f
			// High bit set: the byte is not that byte of interest.
			nq := (lo ^ quoteW) + swar7f
			nb := (lo ^ bslashW) + swar7f
			var nd uint64 // with h or-ed in
			if delim < 0x80 {
				nd = ((lo^delimW)+swar7f)&((lo^colonW)+swar7f) | h
			} else {
				// A delimiter that is not ASCII: the exact test.
				x := w ^ delimW
				nd = (x&swar7f + swar7f | x) & ((lo ^ colonW) + swar7f | h)
			}
			ns := ((lo ^ lfW) + swar7f) & ((lo ^ crW) + swar7f)
			q |= swarBits(^(nq|h)&swarHi) << sh
			bs |= swarBits(^(nb|h)&swarHi) << sh
			dc |= swarBits(^nd&swarHi) << sh
			sp |= swarBits(^(ns|h)&swarHi) << sh
			hi |= swarBits(h) << sh
		}
		region := st.inq
		if q|bs|st.esc != 0 {
			region = quoteRegions(q, bs, st)
		}
		e := dc&^region | q | sp | bs | hi&^(hi<<1|st.high)
		st.high = hi >> 63
		for ; e != 0; e &= e - 1 {
			out[n] = uint32(st.pos + bits.TrailingZeros64(e))
			n++
		}
	}
	return n
}
