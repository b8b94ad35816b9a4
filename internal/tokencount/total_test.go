package tokencount

import (
	"math/rand/v2"
	"testing"
)

// TestCounterTotal checks that Total, after each write of a text written
// in parts, is the count of the text so far, and that it does not change
// the count of what follows.
func TestCounterTotal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, e := range encodings(t) {
		c := e.enc.NewCounter()
		for i := 0; i < 300; i++ {
			var text string
			if i%2 == 0 {
				text = randomDocument(r)
			} else {
				text = randomText(r, 1+r.IntN(60))
			}
			for at := 0; at < len(text); {
				n := min(1+r.IntN(12), len(text)-at)
				c.Write([]byte(text[at : at+n]))
				at += n
				if got, want := c.Total(), e.enc.Count([]byte(text[:at])); got != int64(want) {
					t.Fatalf("%s: Total after %q = %d, want %d", e.enc.name, text[:at], got, want)
				}
			}
			if got, want := c.Close(), e.enc.Count([]byte(text)); got != int64(want) {
				t.Fatalf("%s: Close after Totals of %q = %d, want %d", e.enc.name, text, got, want)
			}
		}
	}
}
