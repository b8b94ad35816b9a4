//go:build !purego

package toon

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// TestTypeRowsTakesCommonRows checks that typeRows, not bulkLine, types the
// rows of the benchmark table (numbers, keywords, plain and quoted
// strings): were it to leave them to bulkLine, every test would still pass
// and only the speed would drop.
func TestTypeRowsTakesCommonRows(t *testing.T) {
	if !useTypeRows {
		t.Skip("typeRows does not run here (the CPU lacks AVX2, BMI1 or BMI2, or TOON_KERNELS=generic): bulkLine types every row")
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

// TestTypeRowsNumbers holds typeRows's typing of cells that start like a
// number to bulkLine's and the general path's: every string of up to 5
// bytes over the bytes a number is made of (and some it is not), alone
// and lengthened with digits before, after or around it so that each part
// of a number meets each byte of a 32-byte load, up to and past the 31
// bytes typeRows checks with a mask. It also checks that typeRows took
// the rows, so that the comparison is not with bulkLine alone.
func TestTypeRowsNumbers(t *testing.T) {
	if !useTypeRows {
		t.Skip("typeRows does not run here: bulkLine types every row")
	}
	var cells []string
	eachString("0-+.eE19x", longtest.Size(t, 4, 5), func(b []byte) {
		if len(b) == 0 || b[0] != '-' && (b[0] < '0' || b[0] > '9') {
			return // typeRows leaves only cells that start with a digit or '-' to its number test
		}
		s := string(b)
		cells = append(cells, s, "12345678"+s, s+"0123456789", "-1234567890123"+s+"98765", s+"1234567890123456789012345")
	})
	const per = 400
	for i := 0; i < len(cells); i += per {
		var b bytes.Buffer
		rows := cells[i:min(i+per, len(cells))]
		fmt.Fprintf(&b, "t[%d]{a,b}:\n", len(rows))
		for _, c := range rows {
			fmt.Fprintf(&b, "  %s,x\n", c)
		}
		took := countTypeRows(t)
		checkBulkOpts(t, b.Bytes(), true)
		if *took == 0 {
			t.Fatalf("typeRows took no row of %q", b.Bytes())
		}
	}
}
