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
	if !useTypeRows {
		t.Skip("typeRows does not run here (the CPU lacks BMI1, or TOON_KERNELS=generic): bulkLine types every row")
	}
	bt := genBenchTable(5000)
	// The table, and the same with '|' for its delimiter.
	pipes := append([]byte("[5000|]"), bytes.ReplaceAll(bt.toon[len("[5000]"):], []byte(","), []byte("|"))...)
	for _, data := range [][]byte{bt.toon, pipes} {
		took := countTypeRows(t)
		d := NewDecoder(bytes.NewReader(data))
		n, err := drain(d)
		if err != nil || n != 5000*20+2 {
			t.Fatalf("%d tokens, %v", n, err)
		}
		if *took < 4950 {
			t.Errorf("typeRows took %d of 5000 rows", *took)
		}
	}
	// Empty cells, "" and quoted strings with escapes are taken as well.
	var b bytes.Buffer
	b.WriteString("[3000]{a,b,c,d}:\n")
	for i := 0; i < 3000; i++ {
		b.WriteString(`  ,"","say \"hi\" \\ \u00e9",x` + "\n")
	}
	took := countTypeRows(t)
	d := NewDecoder(bytes.NewReader(b.Bytes()))
	if n, err := drain(d); err != nil || n != 3000*10+2 {
		t.Fatalf("%d tokens, %v", n, err)
	}
	if *took < 2950 {
		t.Errorf("typeRows took %d of 3000 rows with escapes and empty cells", *took)
	}
}
