package toon

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// This file is the lexer's whole interface to byte scanning. The lexer never
// loops over a line's bytes itself to find structure; it calls scanLine, so
// that the implementations behind it (scanLineGeneric in
// scanline_generic.go, and the kernels of scanline_amd64.s where the CPU
// allows) can be replaced without touching the lexer's logic.

// lineScan is what scanLine reports about a line besides its separators.
type lineScan struct {
	colon   int  // index of the first unquoted ':', or -1
	bracket int  // index of the first unquoted '[', or -1
	quote   bool // the line contains at least one '"'
	open    bool // a quoted region is still open at the end of the line
}

// scanLine finds the structural bytes of one line (no LF in it), ignoring
// those inside quoted regions. A '"' opens or closes a quoted region wherever
// it stands; inside a region a '\' makes the next byte literal. It appends to
// seps the index of every unquoted occurrence of delim (none when delim is
// 0) and returns the extended slice with the line's other facts.
//
// Only seps[len(seps):] up to the new length is written; capacity beyond it
// is left untouched. When seps has too little capacity it grows as append
// would, so a caller that reuses seps across lines stops allocating once it
// is large enough.
//
// The result must not depend on which implementation runs: the assembly
// kernels are tested against scanLineGeneric byte for byte.
func scanLine(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	if len(line) < scanShortMax {
		return scanLineShort(line, delim, seps)
	}
	switch {
	case useScanAVX512:
		return scanLineAsm(line, delim, seps, true)
	case useScanAVX2:
		return scanLineAsm(line, delim, seps, false)
	}
	return scanLineGeneric(line, delim, seps)
}

// scanShortMax is the line length below which scanLine hands a line to
// scanLineShort instead of a block kernel. Most lines of nested documents
// ("key: value", "- item") are this short, and for them a kernel's fixed
// cost (its call, zero-padding the line to a block, building every mask)
// is more than the work. Measured with callgrind (the whole program) on
// the nested shape of BenchmarkDecodeShapes, whose lines hold about 11
// bytes after the indentation: 1,219 instructions a line with the AVX2
// kernel for every line, 1,103 with scanLineShort below this length.
const scanShortMax = 64

// scanLineShort is scanLine for short lines: a word at a time like
// scanLineGeneric, but with one combined mask per word and no byte-by-byte
// tail (the last partial word is read as the line's last eight bytes,
// shifted), so that a line of a word or two costs a few dozen
// instructions. It gives the same results as scanLineGeneric for every
// line and delimiter (the scan tests hold it to the oracle at every
// length), but is only faster for short lines.
func scanLineShort(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	if delim == 0 {
		return seps, scanLineNoDelim(line)
	}
	const (
		quoteW = '"' * swarLo
		colonW = ':' * swarLo
		brackW = '[' * swarLo
	)
	r := lineScan{colon: -1, bracket: -1}
	n := len(line)
	delimW := uint64(delim) * swarLo
	for i := 0; i < n; {
		var w, valid uint64
		if n >= 8 {
			w, valid = swarLoadShort(line, i)
		} else {
			w, valid = swarLoadTiny(line, i)
		}
		m := swarCandidates(w^quoteW, w^colonW, w^brackW, w^delimW) & valid
		next := i + 8
		for ; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			c := line[j]
			if c == '"' {
				if delim == '"' {
					seps = append(seps, int32(j)) // an opening quote is unquoted
				}
				r.quote = true
				e := skipQuoted(line, j+1)
				if e >= n {
					r.open = true
				}
				next = e + 1
				break
			}
			if c == delim {
				seps = append(seps, int32(j))
			}
			if c == ':' && r.colon < 0 {
				r.colon = j
			}
			if c == '[' && r.bracket < 0 {
				r.bracket = j
			}
		}
		i = next
	}
	return seps, r
}

// scanLineNoDelim is scanLineShort for delim 0 (no separators wanted),
// the common case: fieldLine and listLine only need the line's colon,
// bracket and quotes. With fewer values live in its loop, it keeps them
// all in registers.
func scanLineNoDelim(line []byte) lineScan {
	const (
		quoteW = '"' * swarLo
		colonW = ':' * swarLo
		brackW = '[' * swarLo
	)
	colon, bracket := -1, -1
	quote, open := false, false
	n := len(line)
	for i := 0; i < n; {
		var w, valid uint64
		if n >= 8 {
			w, valid = swarLoadShort(line, i)
		} else {
			w, valid = swarLoadTiny(line, i)
		}
		m := swarCandidates(w^quoteW, w^colonW, w^brackW, w^quoteW) & valid
		next := i + 8
		for ; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			switch line[j] {
			case '"':
				quote = true
				next = skipQuoted(line, j+1) + 1
				if next > n {
					open = true
				}
				m = 0
				continue
			case ':':
				if colon < 0 {
					colon = j
				}
			case '[':
				if bracket < 0 {
					bracket = j
				}
			}
		}
		i = next
	}
	return lineScan{colon: colon, bracket: bracket, quote: quote, open: open}
}

// swarCandidates returns a word with 0x80 in every byte where a, b, c or d
// is zero, and possibly in some bytes above such a byte: the classic
// has-zero test, cheaper than swarEq, whose borrow can mark bytes above a
// zero byte but never below one. So its lowest set bit is always a real
// zero, and callers must check each byte a higher bit points at.
func swarCandidates(a, b, c, d uint64) uint64 {
	return ((a-swarLo)&^a | (b-swarLo)&^b | (c-swarLo)&^c | (d-swarLo)&^d) & swarHi
}

// swarLoadShort is swarLoad without the byte loop, for a line of eight
// bytes or more: a partial last word is read as the line's last eight
// bytes, shifted right so that byte i lands in the low byte as usual.
// Nothing outside line is read.
func swarLoadShort(line []byte, i int) (w, valid uint64) {
	off := min(i, len(line)-8)
	sh := uint(i-off) * 8 & 63
	return binary.LittleEndian.Uint64(line[off:]) >> sh, swarHi >> sh
}

// swarLoadTiny is swarLoad for a line shorter than a word, kept out of
// line so that the short scanners' loops stay small.
//
//go:noinline
func swarLoadTiny(line []byte, i int) (w, valid uint64) {
	return swarLoad(line, i)
}

// skipQuoted returns the index of the '"' that closes the quoted region
// starting at line[i] (just after its opening quote), or len(line) or more
// when the region is still open at the end of the line. A '\\' makes the
// byte after it literal. It looks a word at a time for the next '"' or
// '\\' (the last partial word read as the line's last eight bytes).
func skipQuoted(line []byte, i int) int {
	const (
		quoteW  = '"' * swarLo
		bslashW = '\\' * swarLo
	)
	n := len(line)
	if n < 8 {
		for ; i < n; i++ {
			switch line[i] {
			case '"':
				return i
			case '\\':
				i++
			}
		}
		return i
	}
	for i < n {
		w, valid := swarLoadShort(line, i)
		// The lowest candidate is always a real '"' or '\\'.
		m := ((w^quoteW-swarLo)&^(w^quoteW) | (w^bslashW-swarLo)&^(w^bslashW)) & valid
		if m == 0 {
			i += 8
			continue
		}
		j := i + bits.TrailingZeros64(m)>>3
		if line[j] == '"' {
			return j
		}
		i = j + 2 // the byte after '\\' is literal, whatever it is
	}
	return i
}

// indexNewline returns the index of the first LF in b, or -1: the lexer's
// line splitter. bytes.IndexByte is already vectorised on every platform
// Go supports, so it is the implementation on every path.
func indexNewline(b []byte) int { return bytes.IndexByte(b, '\n') }

// indexByte returns the index of the first c in b, or -1: the search for
// quotes and backslashes inside quoted tokens.
func indexByte(b []byte, c byte) int { return bytes.IndexByte(b, c) }
