package bench

import (
	"io"
	"testing"

	"github.com/toonstream/toon"
)

// TestMarshalAllocs checks, on every dataset, that Encode and Marshal
// allocate nothing per record: of the typed document and of the generic
// values, an Encoder reused for each document allocates nothing once warm,
// and Marshal only its result.
func TestMarshalAllocs(t *testing.T) {
	eachDataset(t, testScale, func(name string, d *Dataset) {
		for _, v := range []struct {
			form string
			v    any
		}{{"typed", d.Typed}, {"generic", d.Value}} {
			enc := toon.NewEncoder(io.Discard, d.Opts...)
			encode := testing.AllocsPerRun(10, func() {
				enc.Reset(io.Discard)
				if err := enc.Encode(v.v); err != nil {
					t.Fatal(err)
				}
			})
			if encode != 0 {
				t.Errorf("%s, %s: Encode with a reused Encoder made %v allocations for %d records", name, v.form, encode, d.Records)
			}
			marshal := testing.AllocsPerRun(10, func() {
				if _, err := toon.Marshal(v.v, d.Opts...); err != nil {
					t.Fatal(err)
				}
			})
			if marshal > 1 {
				t.Errorf("%s, %s: Marshal made %v allocations for %d records, want only its result", name, v.form, marshal, d.Records)
			}
		}
	})
}
