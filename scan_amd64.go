//go:build !purego

package toon

import (
	"slices"

	"github.com/klauspost/cpuid/v2"
)

// CPU features, resolved once at start-up. Each kernel in scan_amd64.s lists
// what it requires; these are exactly those lists.
var (
	// useAVX2Scan: scanAVX2 can run.
	useAVX2Scan = cpuid.CPU.Supports(cpuid.AVX2, cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT, cpuid.CLMUL)
	// useAVX512Scan: scanAVX512 can run.
	useAVX512Scan = useAVX2Scan && cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW)
	// useAVX512Index: indexAVX512 can run.
	useAVX512Index = useAVX512Scan && cpuid.CPU.Supports(cpuid.AVX512VBMI2)
)

// scanState is the state the kernels carry from one block to the next and
// from one call to the next. Its layout is known to scan_amd64.s (ST_*
// offsets): do not reorder or resize its fields.
type scanState struct {
	pos     int    // offset of the next block to scan
	inq     uint64 // ^0 when the next block starts inside a quoted region, else 0
	esc     uint64 // 1 when the next block's first byte is escaped by an odd backslash run
	colon   int    // first unquoted ':' so far, or -1
	bracket int    // first unquoted '[' so far, or -1
	quote   uint64 // nonzero once a '"' has been seen
}

// scanAVX2 scans the line src[st.pos:] a 64-byte block at a time, storing
// separator positions into out and returning how many it stored. It stops
// early, with st.pos at the first block not scanned, when a block's
// delimiters might not fit in out. It requires len(src) >= 64. See
// scan_amd64.s.
//
//go:noescape
func scanAVX2(src []byte, delim byte, st *scanState, out []int32) int

// scanAVX512 is scanAVX2 for AVX-512 (BW) CPUs; it accepts lines of any
// length, reading the last partial block with a masked load.
//
//go:noescape
func scanAVX512(src []byte, delim byte, st *scanState, out []int32) int

// scanShortGeneric is the line length below which the dispatching wrappers
// hand a line to scanLineGeneric: for such short lines the call into the
// kernel and the padding copy cost more than they save (measured with
// BenchmarkScanLine).
const scanShortGeneric = 0

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

// scanLineAVX2 is scanLine on the AVX2 kernel.
func scanLineAVX2(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	if len(line) < scanShortGeneric {
		return scanLineGeneric(line, delim, seps)
	}
	return scanLineAsm(line, delim, seps, false)
}

// scanLineAVX512 is scanLine on the AVX-512 kernel.
func scanLineAVX512(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	if len(line) < scanShortGeneric {
		return scanLineGeneric(line, delim, seps)
	}
	return scanLineAsm(line, delim, seps, true)
}

// archScanImpls lists the kernels this CPU can run, best first.
var archScanImpls = func() []scanImpl {
	var l []scanImpl
	if useAVX512Scan {
		l = append(l, scanImpl{"avx512", scanLineAVX512})
	}
	if useAVX2Scan {
		l = append(l, scanImpl{"avx2", scanLineAVX2})
	}
	return l
}()

// scanRawKernels lists the kernels without the short-line shortcut to
// scanLineGeneric, so the tests exercise them on every length.
var scanRawKernels = func() []scanImpl {
	var l []scanImpl
	if useAVX512Scan {
		l = append(l, scanImpl{"avx512-raw", func(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
			return scanLineAsm(line, delim, seps, true)
		}})
	}
	if useAVX2Scan {
		l = append(l, scanImpl{"avx2-raw", func(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
			return scanLineAsm(line, delim, seps, false)
		}})
	}
	return l
}()

// indexAVX2 is the index kernel for AVX2 CPUs (see indexImpl). It requires
// len(src) to be a multiple of 64. See scan_amd64.s.
//
//go:noescape
func indexAVX2(src []byte, delim byte, st *idxState, out []uint32) int

// indexAVX512 is indexAVX2 for CPUs with AVX-512 (BW and VBMI2), storing
// each block's offsets without a loop over them. See scan_amd64.s.
//
//go:noescape
func indexAVX512(src []byte, delim byte, st *idxState, out []uint32) int

// The index kernels of this architecture, as indexImpl.kernel numbers them.
const (
	idxAVX2   = 1
	idxAVX512 = 2
)

// archIndexImpls lists the index kernels this CPU can run, best first,
// named as the scanLine kernels are, so that setScanImpl selects the
// index kernel of the same name.
var archIndexImpls = func() []indexImpl {
	var l []indexImpl
	if useAVX512Index {
		l = append(l, indexImpl{"avx512", idxAVX512})
	}
	if useAVX2Scan {
		l = append(l, indexImpl{"avx2", idxAVX2})
	}
	return l
}()

// indexBlocksArch runs the index kernel numbered k; indexKernel is only
// set to the number of a kernel that can run.
func indexBlocksArch(k uint8, src []byte, delim byte, st *idxState, out []uint32) int {
	if k == idxAVX512 {
		return indexAVX512(src, delim, st, out)
	}
	return indexAVX2(src, delim, st, out)
}
