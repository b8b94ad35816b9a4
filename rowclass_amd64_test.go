//go:build !purego

package toon

import "testing"

// TestRowCellsWithoutAVX512 runs the row writer's reference tests with the
// strings tested by special as putCells copies them, the way of machines
// without AVX-512, where the other tests take the kernel's classes.
func TestRowCellsWithoutAVX512(t *testing.T) {
	if !useRowClassAVX512 {
		t.Skip("the other tests already run this way")
	}
	useRowClassAVX512 = false
	defer func() { useRowClassAVX512 = true }()
	TestRowCellsMatchReference(t)
	TestWriteRowMatchesReference(t)
}
