package toon

import (
	"bytes"
	"slices"
)

// This file is the lexer's whole interface to byte scanning. The lexer never
// loops over a line's bytes itself to find structure; it calls scanLine, so
// that the kernels behind it (scan_generic.go, and scan_amd64.s where the CPU
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
	return scanLineImpl(line, delim, seps)
}

// scanImpl is one implementation of scanLine.
type scanImpl struct {
	name string
	fn   func(line []byte, delim byte, seps []int32) ([]int32, lineScan)
}

// scanImpls lists the implementations that can run on this CPU, best first.
// archScanImpls (scan_amd64.go, or scan_other.go where there is no assembly)
// holds the CPU-specific ones, already filtered by CPU features at start-up.
var scanImpls = append(append([]scanImpl(nil), archScanImpls...),
	scanImpl{"generic", scanLineGeneric})

// scanLineImpl is chosen once at start-up: the first (best) entry of
// scanImpls. Tests and benchmarks switch it with setScanImpl.
var scanLineImpl = scanImpls[0].fn

// scanImplName is the name of the implementation in scanLineImpl.
var scanImplName = scanImpls[0].name

// setScanImpl makes scanLine use the implementation called name (see
// scanImpls) and returns a function that restores the previous choice. It
// panics when name cannot run on this CPU. It is meant for tests and
// benchmarks only, and is not safe to call while scanLine may be running.
func setScanImpl(name string) (restore func()) {
	for _, im := range scanImpls {
		if im.name == name {
			prevFn, prevName, prevIdx := scanLineImpl, scanImplName, indexAsm
			scanLineImpl, scanImplName = im.fn, im.name
			indexAsm = name != "generic" && indexImpls[0].asm
			return func() { scanLineImpl, scanImplName, indexAsm = prevFn, prevName, prevIdx }
		}
	}
	panic("toon: scan implementation " + name + " is not available on this CPU")
}

// indexNewline returns the index of the first LF in b, or -1: the lexer's
// line splitter. bytes.IndexByte is already vectorised on every platform
// Go supports, so it is the implementation on every path.
func indexNewline(b []byte) int { return bytes.IndexByte(b, '\n') }

// indexByte returns the index of the first c in b, or -1: the search for
// quotes and backslashes inside quoted tokens.
func indexByte(b []byte, c byte) int { return bytes.IndexByte(b, c) }

// The row index: a second scanning interface, for the decoder's fast path
// over runs of plain table rows (bulk.go). Where scanLine looks at one line,
// indexRows looks at many at once and lists the bytes the fast path must see
// to split them into lines and cells and to notice anything it must leave
// to the general path.

// idxState is what the index kernels carry from one block to the next. Its
// layout is known to scan_amd64.s (IX_* offsets).
type idxState struct {
	pos  int    // offset of the next block to index
	inq  uint64 // ^0 when the next block starts inside a quoted region, else 0
	high uint64 // 1 when the byte before the next block is >= 0x80, else 0
	esc  uint64 // 1 when the next block's first byte is escaped by an odd backslash run
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
	var st idxState
	full := len(src) &^ 63
	for st.pos < full {
		if cap(out)-len(out) < 64 {
			out = slices.Grow(out, 64)
		}
		n := indexBlocks(src[:full], delim, &st, out[len(out):cap(out)])
		out = out[:len(out)+n]
	}
	if full < len(src) {
		// The last partial block goes through a zero-padded copy: a zero
		// byte is of no interest, as delim is not 0.
		var pad [64]byte
		copy(pad[:], src[full:])
		if cap(out)-len(out) < 64 {
			out = slices.Grow(out, 64)
		}
		st.pos = 0
		k := len(out)
		n := indexBlocks(pad[:], delim, &st, out[k:cap(out)])
		out = out[:k+n]
		for i := k; i < len(out); i++ {
			out[i] += uint32(full)
		}
	}
	return out
}

// indexImpl names one implementation of the index kernel, which indexes
// src[st.pos:] a 64-byte block at a time (len(src) is a multiple of 64),
// storing offsets into out, stops before a block when out has fewer than
// 64 free places, and returns the number stored. asm selects the
// architecture's kernel (indexBlocksArch), else indexBlocksGeneric runs.
type indexImpl struct {
	name string
	asm  bool
}

// indexImpls lists the index kernels that can run on this CPU, best first.
var indexImpls = append(append([]indexImpl(nil), archIndexImpls...),
	indexImpl{"generic", false})

// indexAsm is chosen once at start-up, like scanLineImpl, and switched with
// setScanImpl, which selects the assembly kernel for every name but
// "generic" where there is one (the AVX2 kernel serves AVX-512 CPUs too).
var indexAsm = indexImpls[0].asm

// indexBlocks runs the chosen index kernel. The kernels are called
// directly rather than through a function value, which would make st and
// the caller's padding block escape to the heap.
func indexBlocks(src []byte, delim byte, st *idxState, out []uint32) int {
	if indexAsm {
		return indexBlocksArch(src, delim, st, out)
	}
	return indexBlocksGeneric(src, delim, st, out)
}
