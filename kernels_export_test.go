package toon

import (
	"slices"
	"unsafe"
)

// useKernels makes the kernels that mode allows run, mode being a value
// of TOON_KERNELS ("generic", "avx2", "all"), and returns a function that
// restores the kernels chosen at start-up. It is the one switch tests and
// benchmarks use to compare a kernel with its Go twin; it can only narrow
// what the CPU runs, and must not be called while another goroutine
// decodes or encodes.
func useKernels(mode string) (restore func()) {
	setKernels(min(parseKernelsMode(mode), startKernels))
	return func() { setKernels(startKernels) }
}

// kernelModes lists the values of useKernels that run different sets of
// kernels here, from the most kernels to none, within what TOON_KERNELS
// allowed at start-up (so "generic" alone under -tags purego).
func kernelModes() []string {
	var modes []string
	var seen [][11]bool
	for _, m := range []string{"all", "avx2", "generic"} {
		if parseKernelsMode(m) > startKernels {
			continue
		}
		restore := useKernels(m)
		set := [11]bool{useScanAVX2, useScanAVX512, useIndexAVX2, useIndexAVX512, useTypeRows, usePutRow, usePutRowAVX512, useUnescapeAVX512, useUnescapeAVX2, useUTF8AVX2, useLineMasksAVX2}
		restore()
		if !slices.Contains(seen, set) {
			seen = append(seen, set)
			modes = append(modes, m)
		}
	}
	return modes
}

// indexKernelName names the index kernel that runs: "avx512", "avx2" or
// "generic".
func indexKernelName() string {
	switch {
	case useIndexAVX512:
		return "avx512"
	case useIndexAVX2:
		return "avx2"
	}
	return "generic"
}

// scanImpl is one implementation of scanLine, for the tests that call
// each directly.
type scanImpl struct {
	name string
	fn   func(line []byte, delim byte, seps []int32) ([]int32, lineScan)
}

// scanKernels lists the block kernels of scanLine that run here, called
// directly (at every length, where scanLine takes short lines to
// scanLineShort), then scanLineGeneric.
func scanKernels() []scanImpl {
	var l []scanImpl
	if useScanAVX512 {
		l = append(l, scanImpl{"avx512", func(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
			return scanLineAsm(line, delim, seps, true)
		}})
	}
	if useScanAVX2 {
		l = append(l, scanImpl{"avx2", func(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
			return scanLineAsm(line, delim, seps, false)
		}})
	}
	return append(l, scanImpl{"generic", scanLineGeneric})
}

// unescapeImpl is one block kernel of unescape, for the tests that call
// each directly, with the rules in which the kernels differ: each stops
// when dst has room for fewer than block more bytes and writes nothing
// past out+block, and one with shortSrc decodes nothing from a src
// shorter than a block.
type unescapeImpl struct {
	name     string
	fn       func(src, dst []byte) (in, out int)
	block    int
	shortSrc bool
}

// unescapeKernels lists the block kernels of unescape that run here.
func unescapeKernels() []unescapeImpl {
	var l []unescapeImpl
	if useUnescapeAVX512 {
		l = append(l, unescapeImpl{"avx512", unescapeAVX512, 64, false})
	}
	if useUnescapeAVX2 {
		l = append(l, unescapeImpl{"avx2", unescapeAVX2, 32, true})
	}
	return l
}

// rowKernel is one row kernel (putrow_amd64.s), for the tests that call
// each directly (rowKernels): its name, the longest string it takes, and
// the kernel.
type rowKernel struct {
	name string
	max  int
	put  func(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)
}

// rowKernels lists the row kernels that run here, each called directly:
// putRowAVX512 where it runs, and putRowAVX2 where either does (a CPU with
// AVX-512 has what the AVX2 kernel needs).
func rowKernels() []rowKernel {
	var l []rowKernel
	if usePutRowAVX512 {
		l = append(l, rowKernel{"putRowAVX512", 63, putRowAVX512})
	}
	if usePutRow {
		l = append(l, rowKernel{"putRowAVX2", 32, putRowAVX2})
	}
	return l
}
