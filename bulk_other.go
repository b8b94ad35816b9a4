//go:build !amd64 || purego

package toon

// haveTypeRows is false where there is no assembly: bulkRows types every
// row with bulkLine.
const haveTypeRows = false

// typeRows is never called here.
func typeRows(st *typeState) int { panic("toon: typeRows without assembly") }
