//go:build !amd64 || purego

package toon

// typeRows is never called here (see kernels_other.go).
func typeRows(st *typeState) int { panic("toon: typeRows without assembly") }
