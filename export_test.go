package toon

import (
	"math"
	"testing"
)

// Test hooks: ways for tests to switch a fast path off, so that its
// results can be compared with the general path's, and to look inside.
// Production code never calls these.

// withoutFastPath turns the table fast path off for d, until d is Reset:
// every row then goes through the general path (step, row). It sets the
// count of refills the fast path leaves to the general path, which it
// otherwise sets after a stop, so high that it never runs down.
func withoutFastPath(d *Decoder) *Decoder {
	d.bulk.cool = math.MaxInt
	return d
}

// withoutTypeRows runs f with typeRows off: the fast path then types
// every row it takes with bulkLine.
func withoutTypeRows(f func()) {
	typeRowsOff = true
	defer func() { typeRowsOff = false }()
	f()
}

// countTypeRows returns a count, kept until the test ends, of the rows
// that typeRows takes.
func countTypeRows(t testing.TB) *int {
	n := new(int)
	typeRowsTook = func(rows int) { *n += rows }
	t.Cleanup(func() { typeRowsTook = nil })
	return n
}

// smallRanges makes SplitTable cut ranges of a few bytes, so that small
// documents have many.
func smallRanges(t testing.TB, n int) {
	old := splitMin
	splitMin = n
	t.Cleanup(func() { splitMin = old })
}

// parallelRowsRange makes ParallelRows stream ranges of about n bytes
// (at least splitMin), until the test ends.
func parallelRowsRange(t testing.TB, n int) {
	old := parRowsRange
	parRowsRange = n
	t.Cleanup(func() { parRowsRange = old })
}
