package bench

import (
	"bytes"
	"testing"

	"github.com/toonstream/toon"
)

// TestDecodeAllocs checks, on every dataset, that the Token loop and the
// Row loop allocate nothing: a Decoder reused for each document, once
// warm, reads the whole document without an allocation. The datasets hold
// the shapes the fast path must take whole (non-ASCII text, quoted and
// escaped cells, numbers of every form, digit-leading strings, empty
// cells), so a shape that fell to code that allocates would show here.
func TestDecodeAllocs(t *testing.T) {
	eachDataset(t, 4*testScale, func(name string, d *Dataset) {
		r := bytes.NewReader(d.TOON)
		dec := toon.NewDecoder(r)
		for _, loop := range []struct {
			name string
			read func(*toon.Decoder) (int, error)
		}{
			{"Token", readTokens},
			{"Row", func(dec *toon.Decoder) (int, error) { return readRows(dec, nil) }},
		} {
			allocs := testing.AllocsPerRun(5, func() {
				r.Reset(d.TOON)
				dec.Reset(r)
				if _, err := loop.read(dec); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s: the %s loop made %v allocations for %d records", name, loop.name, allocs, d.Records)
			}
		}
	})
}
