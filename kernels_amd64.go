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
	usePutRow      bool // putRowAVX512 (putrow_amd64.s)

	useUnescapeAVX2   bool // unescapeAVX2 (unescape_amd64.s)
	useUnescapeAVX512 bool // unescapeAVX512 (unescape_amd64.s)
	useUTF8AVX2       bool // utf8AVX2 and utf8ShortAVX2 (utf8_amd64.s)
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
	useUnescapeAVX2 = avx2
	useUnescapeAVX512 = avx512 && cpu.Supports(cpuid.AVX512VBMI, cpuid.AVX512VBMI2)
	usePutRow = mode >= kernelsAll && cpu.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VBMI,
		cpuid.AVX512IFMA, cpuid.FMA3, cpuid.BMI1, cpuid.BMI2, cpuid.LZCNT)
}
