//go:build !amd64 || purego

package toon

// There is no assembly here (another architecture, or the purego build
// tag): every kernel's Go twin runs. As constants, the booleans leave the
// callers without the kernels' calls.
const (
	useScanAVX2    = false
	useScanAVX512  = false
	useIndexAVX2   = false
	useIndexAVX512 = false
	useTypeRows    = false
	usePutRow      = false

	usePutRowAVX512 = false

	useUnescapeAVX2   = false
	useUnescapeAVX512 = false
	useUTF8AVX2       = false
	useLineMasksAVX2  = false
)

// setKernels has nothing to set here.
func setKernels(kernelsMode) {}
