package toon

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
// The result must not depend on which implementation runs: the assembly
// kernels are tested against scanLineGeneric byte for byte.
func scanLine(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	return scanLineImpl(line, delim, seps)
}

// scanLineImpl is chosen once at start-up (see scan_amd64.go); tests may
// switch it to compare paths.
var scanLineImpl = scanLineGeneric
