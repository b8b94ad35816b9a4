package bench

import (
	"io"
	"testing"

	"github.com/toonstream/toon"
)

// TestWriteRowAllocs checks, on every table of the matrix, that WriteRow
// and WriteRows[T] allocate nothing per row: writing all of a dataset's
// rows costs no allocation but the few of the Encoder and the table,
// whatever the rows hold.
func TestWriteRowAllocs(t *testing.T) {
	eachDataset(t, testScale, func(name string, d *Dataset) {
		if d.Rows == nil {
			return // not a table
		}
		enc := toon.NewEncoder(io.Discard, d.Opts...)
		rows := testing.AllocsPerRun(10, func() {
			enc.Reset(io.Discard)
			if err := enc.BeginTable(d.Key, len(d.Rows), d.Fields...); err != nil {
				t.Fatal(err)
			}
			for _, row := range d.Rows {
				if err := enc.WriteRow(row...); err != nil {
					t.Fatal(err)
				}
			}
			if err := enc.EndTable(); err != nil {
				t.Fatal(err)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
		})
		// A few for the table's header and the encoder's buffers as
		// they grow, none per row (every table has 60 rows or more).
		if rows > 8 {
			t.Errorf("%s: WriteRow made %v allocations for %d rows", name, rows, len(d.Rows))
		}
		// WriteRows[T] on a new Encoder each time: its fixed cost, and
		// none per row.
		typed := testing.AllocsPerRun(10, func() {
			if err := d.kit.writeRows(io.Discard, d.Typed, d.Key, d.Opts); err != nil {
				t.Fatal(err)
			}
		})
		if typed > 16 {
			t.Errorf("%s: WriteRows made %v allocations for %d rows", name, typed, len(d.Rows))
		}
		t.Logf("%s: %d rows: WriteRow %v allocations, WriteRows %v", name, len(d.Rows), rows, typed)
	})
}
