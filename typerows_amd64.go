//go:build !purego

package toon

// typeRows types the cells of whole table rows for bulkRows, from the
// index entries of a window, writing one record per cell (see typeState).
// It takes only the common rows (plain cells, numbers and keywords that the
// word tests decide, quoted strings without escapes) and returns at the
// first line that needs anything else, leaving that line untouched; see
// typerows_amd64.s and bulkLine, which is its specification.
//
//go:noescape
func typeRows(st *typeState) int
