//go:build !purego

package toon

import (
	"bytes"
	"testing"
)

// TestTypeRowsTakesCommonRows checks that typeRows, not bulkLine, types the
// rows of the benchmark table (numbers, keywords, plain and quoted
// strings): were it to leave them to bulkLine, every test would still pass
// and only the speed would drop.
func TestTypeRowsTakesCommonRows(t *testing.T) {
	if !haveTypeRows {
		t.Skip("this CPU lacks BMI1: bulkLine types every row")
	}
	bt := genBenchTable(5000)
	// The table, and the same with '|' for its delimiter.
	pipes := append([]byte("[5000|]"), bytes.ReplaceAll(bt.toon[len("[5000]"):], []byte(","), []byte("|"))...)
	for _, data := range [][]byte{bt.toon, pipes} {
		d := NewDecoder(bytes.NewReader(data))
		n, err := drain(d)
		if err != nil || n != 5000*20+2 {
			t.Fatalf("%d tokens, %v", n, err)
		}
		if d.bulk.kernelRows < 4950 {
			t.Errorf("typeRows took %d of 5000 rows", d.bulk.kernelRows)
		}
	}
}
