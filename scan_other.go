//go:build !amd64 || purego

package toon

// archScanImpls is empty where there is no assembly (other architectures, or
// the purego build tag): scanLine always runs scanLineGeneric.
var archScanImpls []scanImpl

// scanRawKernels is empty for the same reason (see scan_amd64.go).
var scanRawKernels []scanImpl

// archIndexImpls is empty for the same reason: indexRows runs
// indexBlocksGeneric.
var archIndexImpls []indexImpl

// indexBlocksArch is never called here: indexKernel stays 0.
func indexBlocksArch(k uint8, src []byte, delim byte, st *idxState, out []uint32) int {
	return indexBlocksGeneric(src, delim, st, out)
}
