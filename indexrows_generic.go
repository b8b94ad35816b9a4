package toon

import (
	"encoding/binary"
	"math/bits"
)

// This file is the portable index kernel, indexBlocksGeneric, and the
// specification the kernels of indexrows_amd64.s must match byte for byte.

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
//
// Only delimiters and colons depend on the quoted regions, so the other
// bytes of interest that are not quotes or backslashes (line ends and the
// first byte of each run of high bytes, found within each word with the
// last byte of the word before carried in) share one mask: four masks a
// block (blockMasks), each packed from the words' high bits at one
// multiply a word (packWord); three for a block inside a quoted region
// (regionMasks), and the fourth (delimMasks) only when it leaves it.
func indexBlocksGeneric(src []byte, delim byte, st *idxState, out []uint32) int {
	delimW := uint64(delim) * swarLo
	// After a block of ASCII bytes, the next is tested for being one too,
	// to take it with asciiMasks (a text of several scripts has few, and
	// is spared the test after every other block).
	asciiDelim := delim < 0x80
	tryASCII := asciiDelim
	n := 0
	for ; st.pos+64 <= len(src) && len(out)-n >= 64; st.pos += 64 {
		blk := (*[64]byte)(src[st.pos : st.pos+64])
		// A block that starts inside a quoted region (a long quoted
		// text) often ends inside it: its delimiters and colons are
		// looked for only when some of it is outside.
		inside := st.inq != 0
		var q, bs, dc, o, last, high uint64
		switch {
		case tryASCII && asciiBlock(blk):
			if inside {
				q, bs, o = asciiRegionMasks(blk)
			} else {
				q, bs, dc, o = asciiMasks(blk, delimW)
			}
		case inside:
			q, bs, o, last, high = regionMasks(blk, st.high<<7)
		default:
			q, bs, dc, o, last, high = blockMasks(blk, delimW, st.high<<7)
		}
		tryASCII = high == 0 && asciiDelim
		st.high = last >> 7
		region := st.inq
		if q|bs|st.esc != 0 {
			region = quoteRegions(q, bs, st)
		}
		if inside && region != ^uint64(0) {
			dc = delimMasks(blk, delimW)
		}
		e := dc&^region | q | bs | o
		for ; e != 0; e &= e - 1 {
			out[n] = uint32(st.pos + bits.TrailingZeros64(e))
			n++
		}
	}
	return n
}

// packWord packs the high bits of a SWAR mask (0x80 or 0 in each byte)
// into the top 8 bits, byte k of m becoming bit 56+k, the others 0; eight
// of them shifted in from the top make the mask of 64 bytes. The multiply
// moves bit 8k+7 to 56+k: each of its terms adds a shift of 7i, and the
// terms that do not land there land below bit 56 or beyond bit 63,
// without carries, since no two of them share a position.
func packWord(m uint64) uint64 { return m * 0x02040810204081 & 0xff00000000000000 }

// SWAR words of the bytes the index looks for.
const (
	quoteIdxW  = '"' * swarLo
	bslashIdxW = '\\' * swarLo
	colonIdxW  = ':' * swarLo
	lfIdxW     = '\n' * swarLo
	crIdxW     = '\r' * swarLo
)

// wordMasks returns the SWAR masks (0x80 in each byte that is one, else
// 0) of a word's quotes, backslashes and other bytes of interest (line
// ends and the first byte of each run of high bytes), from h, the word's
// high bits, lo, its low seven bits, and prev, 0x80 when the byte before
// the word is >= 0x80, else 0. A byte with its high bit set is none of the
// ASCII bytes; it starts a run when the byte before it is not high.
func wordMasks(lo, h, prev uint64) (q, bs, o uint64) {
	q = ^((lo ^ quoteIdxW) + swar7f | h) & swarHi
	bs = ^((lo ^ bslashIdxW) + swar7f | h) & swarHi
	ns := ((lo ^ lfIdxW) + swar7f) & ((lo ^ crIdxW) + swar7f)
	o = ^(ns|h)&swarHi | h&^(h<<8|prev)
	return q, bs, o
}

// wordDelims returns the SWAR mask of a word w's delimiters (delimW, a
// word of the delimiter; ascii reports whether it is < 0x80) and colons,
// with h and lo as for wordMasks.
func wordDelims(w, lo, h, delimW uint64, ascii bool) uint64 {
	var nd uint64 // with h or-ed in
	if ascii {
		nd = ((lo^delimW)+swar7f)&((lo^colonIdxW)+swar7f) | h
	} else {
		// A delimiter that is not ASCII: the exact test.
		x := w ^ delimW
		nd = (x&swar7f + swar7f | x) & ((lo ^ colonIdxW) + swar7f | h)
	}
	return ^nd & swarHi
}

// blockMasks returns the bit masks of a block's quotes, backslashes,
// delimiters and colons, and other bytes of interest (wordMasks), for the
// delimiter delimW (a word of it) and prev, 0x80 when the byte before the
// block is >= 0x80, else 0; and last, the same for the block's last byte.
// It is a function of its own so that its loop has the registers to
// itself. Each word's masks enter at the top (packWord); after the eighth,
// word k's are in bits 8k to 8k+7.
func blockMasks(blk *[64]byte, delimW, prev uint64) (q, bs, dc, o, last, high uint64) {
	ascii := delimW < 0x80*swarLo
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		h := w & swarHi
		high |= h
		lo := w & swar7f
		wq, wbs, wo := wordMasks(lo, h, prev)
		q = q>>8 | packWord(wq)
		bs = bs>>8 | packWord(wbs)
		o = o>>8 | packWord(wo)
		dc = dc>>8 | packWord(wordDelims(w, lo, h, delimW, ascii))
		prev = h >> 56
	}
	return q, bs, dc, o, prev, high
}

// regionMasks is blockMasks without the delimiters and colons, for a block
// that starts inside a quoted region.
func regionMasks(blk *[64]byte, prev uint64) (q, bs, o, last, high uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		h := w & swarHi
		high |= h
		wq, wbs, wo := wordMasks(w&swar7f, h, prev)
		q = q>>8 | packWord(wq)
		bs = bs>>8 | packWord(wbs)
		o = o>>8 | packWord(wo)
		prev = h >> 56
	}
	return q, bs, o, prev, high
}

// delimMasks is the mask of blockMasks's delimiters and colons alone.
func delimMasks(blk *[64]byte, delimW uint64) (dc uint64) {
	ascii := delimW < 0x80*swarLo
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		dc = dc>>8 | packWord(wordDelims(w, w&swar7f, w&swarHi, delimW, ascii))
	}
	return dc
}

// asciiBlock reports whether a block's bytes are all below 0x80.
func asciiBlock(blk *[64]byte) bool {
	var or uint64
	for k := 0; k < 64; k += 8 {
		or |= binary.LittleEndian.Uint64(blk[k:])
	}
	return or&swarHi == 0
}

// asciiMasks is blockMasks for a block of ASCII bytes (asciiBlock) and an
// ASCII delimiter: with no high bits, each byte is its own low seven
// bits, no comparison needs them masked out, and no run of high bytes
// starts (the block's last byte is not one either).
func asciiMasks(blk *[64]byte, delimW uint64) (q, bs, dc, o uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		q = q>>8 | packWord(^((w^quoteIdxW)+swar7f)&swarHi)
		bs = bs>>8 | packWord(^((w^bslashIdxW)+swar7f)&swarHi)
		o = o>>8 | packWord(^(((w^lfIdxW)+swar7f)&((w^crIdxW)+swar7f))&swarHi)
		dc = dc>>8 | packWord(^(((w^delimW)+swar7f)&((w^colonIdxW)+swar7f))&swarHi)
	}
	return q, bs, dc, o
}

// asciiRegionMasks is asciiMasks without the delimiters and colons, as
// regionMasks is blockMasks without them.
func asciiRegionMasks(blk *[64]byte) (q, bs, o uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		q = q>>8 | packWord(^((w^quoteIdxW)+swar7f)&swarHi)
		bs = bs>>8 | packWord(^((w^bslashIdxW)+swar7f)&swarHi)
		o = o>>8 | packWord(^(((w^lfIdxW)+swar7f)&((w^crIdxW)+swar7f))&swarHi)
	}
	return q, bs, o
}
