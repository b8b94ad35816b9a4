//go:build !purego

package toon

import "github.com/klauspost/cpuid/v2"

// Which kernels run (see kernels.go). Each is true only when the CPU has
// every feature its assembly lists under "Requires" and the mode allows it.
var (
	useScanAVX2    bool // scanAVX2 (scanline_amd64.s)
	useScanAVX512  bool // scanAVX512 (scanline_amd64.s)
	useIndexAVX2   bool // indexAVX2 (indexrows_amd64.s)
	useIndexAVX512 bool // indexAVX512 (indexrows_amd64.s)
	useTypeRows    bool // typeRows (typerows_amd64.s)
	usePutRow      bool // putRowAVX512 or putRowAVX2 (putrow_amd64.s)

	usePutRowAVX512 bool // putRowAVX512 rather than putRowAVX2

	useUnescapeAVX2   bool // unescapeAVX2 (unescape_amd64.s)
	useUnescapeAVX512 bool // unescapeAVX512 (unescape_amd64.s)
	useUTF8AVX2       bool // utf8AVX2 and utf8ShortAVX2 (utf8_amd64.s)
	useLineMasksAVX2  bool // lineMasksAVX2 (linemasks_amd64.s)
)

// setKernels sets the use* booleans from the CPU's features, as far as
// mode allows. It runs once at start-up, and in tests through useKernels.
func setKernels(mode kernelsMode) {
	cpu := &cpuid.CPU
	avx2 := mode >= kernelsAVX2 && cpu.Supports(cpuid.AVX2, cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT, cpuid.CLMUL)
	avx512 := mode >= kernelsAll && avx2 && cpu.Supports(cpuid.AVX512F, cpuid.AVX512BW)
	useScanAVX2 = avx2
	useScanAVX512 = avx512
	useIndexAVX2 = avx2
	useIndexAVX512 = avx512 && cpu.Supports(cpuid.AVX512VBMI2)
	useTypeRows = mode >= kernelsAVX2 && cpu.Supports(cpuid.AVX2, cpuid.BMI1, cpuid.BMI2)
	useUTF8AVX2 = avx2
	useLineMasksAVX2 = mode >= kernelsAVX2 && cpu.Supports(cpuid.AVX2)
	useUnescapeAVX2 = avx2
	useUnescapeAVX512 = avx512 && cpu.Supports(cpuid.AVX512VBMI, cpuid.AVX512VBMI2)
	rowAVX2 := mode >= kernelsAVX2 && cpu.Supports(cpuid.AVX2, cpuid.FMA3, cpuid.BMI1, cpuid.BMI2, cpuid.LZCNT)
	usePutRowAVX512 = mode >= kernelsAll && rowAVX2 && cpu.Supports(cpuid.AVX512F, cpuid.AVX512BW,
		cpuid.AVX512VBMI, cpuid.AVX512IFMA)
	usePutRow = rowAVX2
}

// byteOffsets holds the bytes 0 to 63 in order, the offsets of the bytes
// of a 64-byte block, for the kernels: indexAVX512 compresses them, and
// utf8ShortAVX2 compares them with a text's length.
//
//lint:ignore U1000 read by the assembly kernels only
var byteOffsets = [64]byte{
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
}
