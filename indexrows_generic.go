package toon

import (
	"encoding/binary"
	"math/bits"

	"github.com/toonstream/toon/internal/mem"
)

// This file is the portable index kernel, indexBlocksGeneric, the
// specification of the kernels of indexrows_amd64.s: their results,
// through indexRows, must match its byte for byte (per call they may
// differ: this kernel can stop short of a block, see quotedRun). The masks
// it builds on the way need not be theirs.

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
// lo is not c, and the bytes that match none of a set of them are those
// whose sums, and-ed together, have the high bit set. That is two
// operations a byte of interest, where an exact equality test is five.
// Every byte of interest is below 0x80, so a byte >= 0x80 that matches by
// its low bits is no match: highMasks ORs each word into its sums, which
// sets their high bits at such bytes, and regionMasks's masks are cleared
// once a block with the block's mask of high bytes.
//
// A block of ASCII bytes alone, common in most tables, needs no mask of
// high bytes. One that also has no quote or backslash and starts outside
// quoted regions needs a single mask for all its offsets (plainMasks),
// packed from the words' high bits at one multiply a word (packWord).
// Otherwise only delimiters and colons depend on the quoted regions, and
// the block's quotes, backslashes and line ends are told apart from them:
// four masks (asciiMasks), or three for a block that starts inside a
// region (regionMasks), and the fourth (delimMasks) only when it
// leaves it. A block with bytes >= 0x80 takes two masks (highMasks): its
// bytes of interest all in one, and its high bytes, from which the first
// byte of each run of them comes; its quotes, backslashes and line ends
// are told apart (regionMasks) only when a quoted region may touch it.
//
// Where a block would start inside a long quoted region, quotedRun takes
// the region's text a word at a time, up to its end or to a byte that only
// the masks handle; the blocks then go on from where it stopped, at any
// offset, so this kernel may leave fewer than 64 bytes of src unindexed.
func indexBlocksGeneric(src []byte, delim byte, st *idxState, out []uint32) int {
	delimW := uint64(delim) * swarLo
	// After a block of ASCII bytes, the next is tested for being one too,
	// to take it with asciiMasks (a text of several scripts has few, and
	// is spared the test after every other block). After one with no
	// quote or backslash either (st.dirty, nonzero after a block with a
	// quote, a backslash or a byte >= 0x80, is 0), the next is tried as a
	// plain block (plainMasks) when it starts outside quoted regions;
	// never with a delimiter >= 0x80, with which no block is tried as
	// ASCII. (No escape is then pending: it would come from a backslash,
	// which makes st.dirty nonzero.)
	asciiDelim := delim < 0x80
	tryASCII := asciiDelim
	n := 0
	for ; st.pos+64 <= len(src) && len(out)-n >= 64; st.pos += 64 {
		blk := (*[64]byte)(src[st.pos : st.pos+64])
		if tryASCII && st.dirty|st.inq == 0 {
			if e, ok := plainMasks(blk, delimW); ok {
				st.high = 0
				n = putOffsets(out, n, e, st.pos)
				continue
			}
		}
		// A block that starts inside a quoted region (a long quoted
		// text) often ends inside it: its delimiters and colons are
		// looked for only when some of it is outside.
		inside := st.inq != 0
		if inside && tryASCII {
			// Not after a block with bytes >= 0x80 (tryASCII false): a
			// text with some most often has more, at which quotedRun
			// would stop; nor with a delimiter >= 0x80, with which
			// tryASCII is always false. The block starts where quotedRun
			// stops (a whole block, with room for it, follows).
			n += quotedRun(src, st, out[n:])
			blk, inside = (*[64]byte)(src[st.pos:st.pos+64]), st.inq != 0
		}
		if tryASCII && asciiBlock(blk) {
			var q, bs, dc, o uint64
			if inside {
				q, bs, o = regionMasks(blk) // exact: no byte is >= 0x80
			} else {
				q, bs, dc, o = asciiMasks(blk, delimW)
			}
			st.dirty, st.high = q|bs, 0
			region := st.inq
			if q|bs|st.esc != 0 {
				region = quoteRegions(q, bs, st)
			}
			if inside && region != ^uint64(0) {
				dc = delimMasks(blk, delimW)
			}
			n = putOffsets(out, n, dc&^region|q|bs|o, st.pos)
			continue
		}
		// A block with bytes >= 0x80, one after such a block, or any
		// block with a delimiter >= 0x80. Its offsets but the runs' first
		// bytes are in one mask (e); only where a quoted region may touch
		// it are its quotes, backslashes and line ends told apart from its
		// delimiters and colons.
		e, hm, qb := highMasks(blk, delimW)
		runs := hm &^ (hm<<1 | st.high)
		tryASCII = hm == 0 && asciiDelim
		st.dirty = qb | hm
		st.high = hm >> 63
		if qb|st.inq|st.esc != 0 {
			q, bs, o := regionMasks(blk)
			q, bs, o = q&^hm, bs&^hm, o&^hm
			region := st.inq
			if q|bs|st.esc != 0 {
				region = quoteRegions(q, bs, st)
			}
			e &^= region &^ (q | bs | o)
		}
		n = putOffsets(out, n, e|runs, st.pos)
	}
	return n
}

// quotedRun indexes src from st.pos, which is inside a quoted region, a
// word at a time, for as long as the region's text is ASCII with no byte
// at or below CR: its offsets are then those of its quotes and
// backslashes alone, found with one test a word, where a block inside a
// region costs indexBlocksGeneric three masks packed at a multiply a word
// (regionMasks). Long quoted texts, such as messages and
// descriptions, are mostly such words, with an escape or two among them.
// It stops after the closing quote, before the first word with a byte
// >= 0x80 or at or below CR (a tab, an LF, a CR and the control bytes
// below them), or where fewer than 64 bytes of src or 64 places of out
// would be left after it, so that the kernel's next block is whole and
// has room; it updates st and returns the number of offsets stored into
// out.
func quotedRun(src []byte, st *idxState, out []uint32) int {
	const ctlW = (0x80 - '\r' - 1) * swarLo // + ctlW: high bit clear in bytes <= CR
	lim := min(len(src), st.pos+len(out)) - 64
	esc := -1 // the offset of the byte an unescaped backslash escapes
	if st.esc != 0 {
		esc = st.pos
	}
	sp := mem.BytesData(src) // every load below ends at or before lim, 64 bytes before src ends
	n, p := 0, st.pos
	if p+16 > lim {
		return 0
	}
	// A region whose next 16 bytes are ASCII with no quote most likely
	// goes on into a long text; one that ends sooner is left to the block.
	if w0, w1 := sp.Load64(p), sp.Load64(p+8); (w0|w1|^((w0^quoteIdxW)+swar7f)|^((w1^quoteIdxW)+swar7f))&swarHi != 0 {
		return 0
	}
	for ; p+8 <= lim; p += 8 {
		w := sp.Load64(p)
		// Where w is ASCII, the sums have no carries, and the high bit
		// of qb is clear at its quotes and backslashes alone.
		qb := ((w ^ quoteIdxW) + swar7f) & ((w ^ bslashIdxW) + swar7f)
		if (w|^(qb&(w+ctlW)))&swarHi == 0 {
			continue // most words
		}
		if (w|^(w+ctlW))&swarHi != 0 {
			break
		}
		for m := ^qb & swarHi; m != 0; m &= m - 1 {
			i := p + bits.TrailingZeros64(m)>>3
			out[n] = uint32(i)
			n++
			switch {
			case i == esc:
			case src[i] == '\\':
				esc = i + 1
			default: // the closing quote (st.dirty is set by the block that follows)
				st.pos, st.inq, st.esc, st.high = i+1, 0, 0, 0
				return n
			}
		}
	}
	if p == st.pos {
		return 0
	}
	st.pos, st.high, st.esc = p, 0, 0
	if esc == p {
		st.esc = 1
	}
	return n
}

// putOffsets stores at out[n:] the offsets, from pos, of the set bits of
// a block's mask e, and returns n past them. It stores them eight at a
// time, whatever is left of e: the loop then ends after the eighth store
// in most blocks, where a loop of a store a bit ends after a number of
// stores that varies from block to block, which the CPU mispredicts. A
// spent mask's stores write garbage into the room the caller keeps (64
// places from out[n]), at most indexSlack places past the last offset.
// The eight stores are written out: so they cost 0.8% more instructions
// a Token pass on intl under purego than a store a bit, and as a loop of
// eight 7% more.
func putOffsets(out []uint32, n int, e uint64, pos int) int {
	o := (*[64]uint32)(out[n : n+64])
	cnt := bits.OnesCount64(e)
	for i := 0; e != 0; i += 8 {
		k := i & 56
		o[k] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+1] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+2] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+3] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+4] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+5] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+6] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
		o[k+7] = uint32(pos + bits.TrailingZeros64(e))
		e &= e - 1
	}
	return n + cnt
}

// plainMasks returns the mask of the offsets of a plain block, and
// reports whether the block is one: a block of ASCII bytes with no quote
// or backslash, which starts outside quoted regions with no escape
// pending (the caller's to know), is outside them throughout, and its
// offsets are those of its delimiters (delimW, a word of an ASCII
// delimiter), colons and line ends alone. So one mask holds them, packed
// at one multiply a word where asciiMasks packs four; most blocks of a
// table of numbers, dates and names are plain. It gives up at the first
// word with a quote, a backslash or a byte >= 0x80 (whose sums may carry
// into the next byte's), reporting false.
func plainMasks(blk *[64]byte, delimW uint64) (e uint64, ok bool) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		if (w|^(((w^quoteIdxW)+swar7f)&((w^bslashIdxW)+swar7f)))&swarHi != 0 {
			return 0, false
		}
		m := ((w ^ delimW) + swar7f) & ((w ^ colonIdxW) + swar7f) & ((w ^ lfIdxW) + swar7f) & ((w ^ crIdxW) + swar7f)
		e = e>>8 | packWord(^m&swarHi)
	}
	return e, true
}

// packWord packs the high bits of a SWAR mask (0x80 or 0 in each byte)
// into the top 8 bits, byte k of m becoming bit 56+k, the others 0; eight
// of them shifted in from the top make the mask of 64 bytes. The multiply
// moves bit 8k+7 to 56+k: each of its terms adds a shift of 7i, and the
// terms that do not land there land below bit 56 or beyond bit 63,
// without carries, since no two of them share a position.
func packWord(m uint64) uint64 { return m * 0x02040810204081 & 0xff00000000000000 }

// packBits is packWord's byte at the bottom: the high bits of m's bytes
// (m holds no others), byte i's as bit i.
func packBits(m uint64) uint64 { return m * 0x02040810204081 >> 56 }

// SWAR words of the bytes the index looks for.
const (
	quoteIdxW  = '"' * swarLo
	bslashIdxW = '\\' * swarLo
	colonIdxW  = ':' * swarLo
	lfIdxW     = '\n' * swarLo
	crIdxW     = '\r' * swarLo
)

// wordMasks returns the SWAR masks (0x80 in each byte that is one, else
// 0) of a word's quotes, backslashes and line ends (LF or CR), from lo,
// its low seven bits: a byte >= 0x80 that matches by its low bits is
// reported too, for the caller to clear with the block's mask of high
// bytes (none in a block of ASCII bytes, whose words are their own low
// bits).
func wordMasks(lo uint64) (q, bs, o uint64) {
	q = ^((lo ^ quoteIdxW) + swar7f) & swarHi
	bs = ^((lo ^ bslashIdxW) + swar7f) & swarHi
	o = ^(((lo ^ lfIdxW) + swar7f) & ((lo ^ crIdxW) + swar7f)) & swarHi
	return q, bs, o
}

// asciiDelims returns the SWAR mask (0x80 in each byte that is one, else
// 0) of the delimiters (delimW, a word of an ASCII delimiter) and colons
// of a word of ASCII bytes, each its own low seven bits.
func asciiDelims(w, delimW uint64) uint64 {
	return ^(((w ^ delimW) + swar7f) & ((w ^ colonIdxW) + swar7f)) & swarHi
}

// highMasks returns the masks of a block that may hold bytes >= 0x80,
// for the delimiter delimW (a word of it): e, its quotes, backslashes,
// delimiters, colons and line ends, all in one; hm, its bytes >= 0x80;
// and qb, nonzero when it holds a quote or a backslash. The tests are on
// the bytes' low seven bits, as elsewhere, but each word's ORed in before
// its mask is taken, so that a byte >= 0x80 matches none of them; with a
// delimiter >= 0x80 (never one of a document's), the delimiters are found
// exactly, by all eight bits. Two masks are packed a word, where telling the
// quotes, backslashes, line ends and delimiters apart takes four.
func highMasks(blk *[64]byte, delimW uint64) (e, hm, qb uint64) {
	ascii := delimW < 0x80*swarLo
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		lo := w & swar7f
		t := ((lo ^ quoteIdxW) + swar7f) & ((lo ^ bslashIdxW) + swar7f)
		qb |= ^(t | w)
		t &= ((lo ^ lfIdxW) + swar7f) & ((lo ^ crIdxW) + swar7f)
		var m uint64
		if ascii {
			m = ^(t&((lo^delimW)+swar7f)&((lo^colonIdxW)+swar7f) | w) & swarHi
		} else {
			// x's bytes are 0 at the delimiters alone; a colon is
			// found by its low bits, in a byte with no high bit.
			x := w ^ delimW
			m = ^(t|w)&swarHi | ^((x&swar7f+swar7f|x)&((lo^colonIdxW)+swar7f|w))&swarHi
		}
		e = e>>8 | packWord(m)
		hm = hm>>8 | packWord(w&swarHi)
	}
	return e, hm, qb & swarHi
}

// regionMasks returns the masks of a block's quotes, backslashes and line
// ends, found by the bytes' low seven bits: a byte >= 0x80 may match, for
// the caller to clear with the block's mask of them (none in a block of
// ASCII bytes). It is the rest of highMasks's work for a block that a
// quoted region may touch, and all the work of a block of ASCII bytes
// that starts inside one.
func regionMasks(blk *[64]byte) (q, bs, o uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		wq, wbs, wo := wordMasks(w & swar7f)
		q = q>>8 | packWord(wq)
		bs = bs>>8 | packWord(wbs)
		o = o>>8 | packWord(wo)
	}
	return q, bs, o
}

// delimMasks is the mask of asciiMasks's delimiters and colons alone, for
// a block of ASCII bytes that starts inside a quoted region and leaves it.
func delimMasks(blk *[64]byte, delimW uint64) (dc uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		dc = dc>>8 | packWord(asciiDelims(w, delimW))
	}
	return dc
}

// asciiBlock reports whether a block's bytes are all below 0x80.
// Written out, not as a loop: the loop's sum would live in memory when
// inlined into indexBlocksGeneric, whose registers are all taken.
func asciiBlock(blk *[64]byte) bool {
	le := binary.LittleEndian
	or := le.Uint64(blk[0:]) | le.Uint64(blk[8:]) | le.Uint64(blk[16:]) | le.Uint64(blk[24:]) |
		le.Uint64(blk[32:]) | le.Uint64(blk[40:]) | le.Uint64(blk[48:]) | le.Uint64(blk[56:])
	return or&swarHi == 0
}

// asciiMasks returns the masks of the quotes, backslashes, delimiters and
// colons, and line ends of a block of ASCII bytes (asciiBlock), for an
// ASCII delimiter (delimW, a word of it): with no high bits, each byte is
// its own low seven bits, and no comparison needs them masked out.
func asciiMasks(blk *[64]byte, delimW uint64) (q, bs, dc, o uint64) {
	for k := 0; k < 64; k += 8 {
		w := binary.LittleEndian.Uint64(blk[k:])
		wq, wbs, wo := wordMasks(w)
		q = q>>8 | packWord(wq)
		bs = bs>>8 | packWord(wbs)
		o = o>>8 | packWord(wo)
		dc = dc>>8 | packWord(asciiDelims(w, delimW))
	}
	return q, bs, dc, o
}
