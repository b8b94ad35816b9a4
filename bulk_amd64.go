//go:build !purego

package toon

// haveTypeRows tells whether typeRows is implemented here (it is scalar
// amd64 code, with no CPU feature beyond the base instruction set).
const haveTypeRows = true

// typeRows types the cells of whole table rows for bulkRows, from the
// index entries of a window, writing one record per cell (see typeState).
// It takes only the common rows (plain cells, numbers and keywords that the
// word tests decide, quoted strings without escapes) and returns at the
// first line that needs anything else, leaving that line untouched; see
// bulk_amd64.s and bulkLine, which is its specification.
//
//go:noescape
func typeRows(st *typeState) int
