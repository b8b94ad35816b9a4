package toon

import "os"

// The assembly kernels and how one is chosen.
//
// Each kernel is one package-level boolean (use*, declared in
// kernels_amd64.go, or as false constants in kernels_other.go where there
// is no assembly), set once at start-up by setKernels from the CPU's
// features and the TOON_KERNELS environment variable. The code that calls
// a kernel tests its boolean and otherwise runs the kernel's Go twin, which
// is always compiled and is the kernel's specification (the index twin
// may stop short of a block where the kernels do not; through indexRows
// their results are the same):
//
//	kernel (amd64)                 boolean              Go twin
//	scanAVX512, scanAVX2           useScanAVX512/2      scanLineGeneric (scanline_generic.go)
//	indexAVX512, indexAVX2         useIndexAVX512/2     indexBlocksGeneric (indexrows_generic.go)
//	typeRows                       useTypeRows          bulkLine (fastrows.go)
//	putRowAVX512, putRowAVX2       usePutRow(AVX512)    putCellsGo (tablewriter.go)
//	unescapeAVX512, unescapeAVX2   useUnescapeAVX512/2  unescape's scalar loop (primitive.go)
//	utf8AVX2, utf8ShortAVX2        useUTF8AVX2          utf8Valid's automaton (utf8.go)
//	lineMasksAVX2                  useLineMasksAVX2     runFields's reading by words (lineruns.go)
//
// Tests switch the kernels with useKernels (kernels_export_test.go),
// which takes the same values as TOON_KERNELS.

// kernelsMode is how far TOON_KERNELS lets the kernels go.
type kernelsMode uint8

const (
	kernelsGeneric kernelsMode = iota // no assembly: every kernel's Go twin
	kernelsAVX2                       // no kernel that needs AVX-512
	kernelsAll                        // every kernel the CPU can run
)

// parseKernelsMode reads a value of TOON_KERNELS: empty (unset), "all" or
// "native" for every kernel the CPU can run, "avx2" for none that needs
// AVX-512, and "generic" or "off" for no assembly. Any other value also
// means no assembly, so that a mistyped value errs on the side of the
// portable code.
func parseKernelsMode(s string) kernelsMode {
	switch s {
	case "", "all", "native":
		return kernelsAll
	case "avx2":
		return kernelsAVX2
	}
	return kernelsGeneric
}

// startKernels is the mode TOON_KERNELS asked for at start-up.
var startKernels = parseKernelsMode(os.Getenv("TOON_KERNELS"))

func init() { setKernels(startKernels) }
