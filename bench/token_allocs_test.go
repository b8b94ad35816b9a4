package bench

import (
	"bytes"
	"testing"

	"github.com/toonstream/toon"
)

// TestTokenAllocs checks, on every dataset, that the Token loop and the
// Row loop allocate nothing: a Decoder reused (Reset) for each pass over
// the document allocates nothing once warm.
func TestTokenAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, name := range Names {
		ds, err := Generate(name, testScale)
		if err != nil {
			t.Fatal(err)
		}
		r := bytes.NewReader(ds.TOON)
		d := toon.NewDecoder(r)
		for _, loop := range []struct {
			name string
			read func(*toon.Decoder) (int, error)
		}{{"Token", readTokens}, {"Row", func(d *toon.Decoder) (int, error) { return readRows(d, nil) }}} {
			pass := func() {
				r.Reset(ds.TOON)
				d.Reset(r)
				if _, err := loop.read(d); err != nil {
					t.Fatal(err)
				}
			}
			pass() // warm: the decoder's memory grows to what the document needs
			if a := testing.AllocsPerRun(5, pass); a != 0 {
				t.Errorf("%s: the %s loop made %v allocations for %d records", name, loop.name, a, ds.Records)
			}
		}
	}
}
