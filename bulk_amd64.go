//go:build !purego

package toon

import "github.com/klauspost/cpuid/v2"

// haveTypeRows tells whether typeRows can run: it is scalar amd64 code
// that needs BMI1.
var haveTypeRows = cpuid.CPU.Supports(cpuid.BMI1)

// typeRows types the cells of whole table rows for bulkRows, from the
// index entries of a window, writing one record per cell (see typeState).
// It takes only the common rows (plain cells, numbers and keywords that the
// word tests decide, quoted strings without escapes) and returns at the
// first line that needs anything else, leaving that line untouched; see
// bulk_amd64.s and bulkLine, which is its specification.
//
//go:noescape
func typeRows(st *typeState) int
