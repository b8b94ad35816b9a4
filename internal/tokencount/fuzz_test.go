package tokencount

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// FuzzCounter compares the tokens of a text with the reference's, and its
// count streamed in writes of random sizes with the reference's count.
func FuzzCounter(f *testing.F) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20; i++ {
		f.Add([]byte(randomText(r, 20)), uint64(i))
	}
	f.Add([]byte(randomDocument(r)), uint64(99))
	f.Add([]byte("it's\r\n\r\n  \t x  'RE\u0301\u0301A 1234"), uint64(7))
	encs := encodings(f)
	f.Fuzz(func(t *testing.T, text []byte, seed uint64) {
		if len(text) > 4096 { // the reference is quadratic in a piece
			return
		}
		r := rand.New(rand.NewPCG(seed, seed>>32))
		for _, e := range encs {
			want := refTokens(t, e.ref, string(text))
			if got := e.enc.tokens(text); !slices.Equal(got, want) {
				t.Fatalf("%s: tokens of %q:\n got %v\nwant %v", e.enc.name, text, got, want)
			}
			sizes := make([]int, 1+r.IntN(8))
			for k := range sizes {
				sizes[k] = 1 + r.IntN(1+len(text)/2)
			}
			if got := streamCount(e.enc, string(text), sizes); got != int64(len(want)) {
				t.Fatalf("%s: %q in writes of %v: %d tokens, want %d", e.enc.name, text, sizes, got, len(want))
			}
		}
	})
}
