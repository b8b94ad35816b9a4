package bench

import (
	"bytes"
	"testing"

	"github.com/toonstream/toon"
)

// TestStreamingAllocs checks, on every dataset, that the streaming paths
// allocate nothing per row: a reused Decoder reading the whole document
// with Token and with Row, and, on the tables, a reused Encoder writing
// every row with WriteRow. Each may allocate a few times in all (a
// buffer grown for a longer line than before), never in proportion to the
// rows: at most 4 times, on datasets of at least 10 records (scale 0.1).
func TestStreamingAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, name := range Names {
		d, err := Generate(name, allocScale)
		if err != nil {
			t.Fatal(err)
		}
		const bound = 4
		r := bytes.NewReader(d.TOON)
		dec := toon.NewDecoder(r)
		for _, p := range []struct {
			path string
			read func(*toon.Decoder) (int, error)
		}{{"Token", readTokens}, {"Row", func(d *toon.Decoder) (int, error) { return readRows(d, nil) }}} {
			allocs := testing.AllocsPerRun(5, func() {
				r.Reset(d.TOON)
				dec.Reset(r)
				if _, err := p.read(dec); err != nil {
					t.Fatal(err)
				}
			})
			if allocs > bound {
				t.Errorf("%s: %s made %v allocations for %d records", name, p.path, allocs, d.Records)
			}
		}
		if d.Rows == nil {
			continue
		}
		var w countWriter
		enc := toon.NewEncoder(&w, d.Opts...)
		allocs := testing.AllocsPerRun(5, func() {
			enc.Reset(&w)
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
		if allocs > bound {
			t.Errorf("%s: WriteRow made %v allocations for %d rows", name, allocs, len(d.Rows))
		}
	}
}

// allocScale gives every dataset at least 10 records.
const allocScale = 0.1
