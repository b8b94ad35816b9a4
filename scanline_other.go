//go:build !amd64 || purego

package toon

// The kernels are never called here (see kernels_other.go).

func scanLineAsm(line []byte, delim byte, seps []int32, avx512 bool) ([]int32, lineScan) {
	panic("toon: scanLineAsm without assembly")
}
