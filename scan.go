package toon

import "bytes"

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
			prevFn, prevName := scanLineImpl, scanImplName
			scanLineImpl, scanImplName = im.fn, im.name
			return func() { scanLineImpl, scanImplName = prevFn, prevName }
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
