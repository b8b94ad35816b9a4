package toon

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// This file is the portable implementation of scanLine and the
// specification every other implementation (scanline_amd64.s) must match
// byte for byte. It works a word (8 bytes) at a time: each comparison turns a
// word into a mask with 0x80 in every matching byte, and
// bits.TrailingZeros64 turns a mask into a byte index, so there is no
// per-byte branch outside quoted regions and only one branch per '"' or '\'
// inside them.

// SWAR constants: the low bit, the high bit and the low seven bits of every
// byte of a word.
const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
	swar7f = 0x7f7f7f7f7f7f7f7f
)

// swarEq returns a word with 0x80 in each byte of w equal to the
// corresponding byte of b (b is one byte value broadcast to all eight) and
// zero elsewhere. Unlike the classic has-zero trick it is exact per byte: a
// borrow never marks a neighbour, so every set bit is a real match.
func swarEq(w, b uint64) uint64 {
	x := w ^ b
	// For each byte, (x&0x7f)+0x7f sets the high bit iff the low seven bits
	// are not all zero; or-ing x adds the byte's own high bit. A byte is
	// zero iff neither sets it. The sum never carries into the next byte.
	return ^((x&swar7f + swar7f) | x | swar7f)
}

// swarLoad returns the word at line[i:] (little-endian) and the mask of the
// bytes that belong to the line: swarHi for a full word, fewer high bits
// for the last 1..7 bytes, which are read one at a time (never past the
// slice) and zero-padded.
func swarLoad(line []byte, i int) (w, valid uint64) {
	if len(line)-i >= 8 {
		return binary.LittleEndian.Uint64(line[i:]), swarHi
	}
	t := line[i:]
	for k := len(t) - 1; k >= 0; k-- {
		w = w<<8 | uint64(t[k])
	}
	return w, swarHi >> (64 - 8*uint(len(t)))
}

// swarPrefilterMin is the line length from which scanLineGeneric first
// checks the whole line for quotes with bytes.IndexByte (measured with
// BenchmarkScanLine: below it the extra calls cost more than they save).
const swarPrefilterMin = 32

// scanLineGeneric is the portable implementation of scanLine and the
// reference every other implementation must match.
//
// Outside a quoted region it handles a word per step: the bytes before the
// word's first '"' (all of them when there is none) are searched for delim,
// ':' and '['; the quote, if any, opens a region. Inside a region it looks
// for the next '"' or '\' a word per step: a '"' closes the region, a '\'
// skips the byte after it.
func scanLineGeneric(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	const (
		quoteW  = '"' * swarLo
		bslashW = '\\' * swarLo
		colonW  = ':' * swarLo
		brackW  = '[' * swarLo
	)
	r := lineScan{colon: -1, bracket: -1}
	delimW := uint64(delim) * swarLo
	n := len(line)
	if n >= swarPrefilterMin && bytes.IndexByte(line, '"') < 0 {
		// No quoted region: every structural byte counts. The standard
		// library's IndexByte is vectorised on most architectures, so three
		// calls and a delimiter-only word loop beat the general loop
		// unless the line is short.
		r.colon = bytes.IndexByte(line, ':')
		r.bracket = bytes.IndexByte(line, '[')
		if delim == 0 {
			return seps, r
		}
		for i := 0; i < n; i += 8 {
			w, valid := swarLoad(line, i)
			for m := swarEq(w, delimW) & valid; m != 0; m &= m - 1 {
				seps = append(seps, int32(i+bits.TrailingZeros64(m)>>3))
			}
		}
		return seps, r
	}
	inq := false
	for i := 0; i < n; {
		w, valid := swarLoad(line, i)
		if inq {
			m := (swarEq(w, quoteW) | swarEq(w, bslashW)) & valid
			if m == 0 {
				i += 8
				continue
			}
			j := i + bits.TrailingZeros64(m)>>3
			if line[j] == '"' {
				inq = false
				i = j + 1
			} else {
				i = j + 2 // the byte after '\' is literal, whatever it is
			}
			continue
		}
		// lim selects the bytes of this word that are outside any region:
		// those before the first '"'.
		lim := valid
		q := swarEq(w, quoteW) & valid
		if q != 0 {
			r.quote = true
			lim = q&-q - 1
		}
		if delim != 0 {
			for m := swarEq(w, delimW) & lim; m != 0; m &= m - 1 {
				seps = append(seps, int32(i+bits.TrailingZeros64(m)>>3))
			}
		}
		if r.colon < 0 {
			if m := swarEq(w, colonW) & lim; m != 0 {
				r.colon = i + bits.TrailingZeros64(m)>>3
			}
		}
		if r.bracket < 0 {
			if m := swarEq(w, brackW) & lim; m != 0 {
				r.bracket = i + bits.TrailingZeros64(m)>>3
			}
		}
		if q == 0 {
			i += 8
			continue
		}
		j := i + bits.TrailingZeros64(q)>>3
		if delim == '"' {
			// An opening quote is itself an unquoted byte.
			seps = append(seps, int32(j))
		}
		inq = true
		i = j + 1
	}
	r.open = inq
	return seps, r
}
