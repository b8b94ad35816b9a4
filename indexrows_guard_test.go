//go:build linux

package toon

import (
	"math/rand"
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestIndexRowsNoOverread indexes rows that end right against an
// inaccessible page and rows that start right after one, long quoted texts
// (which the portable kernel reads a word at a time) among them: a kernel
// that reads a byte outside its input faults and the test binary dies.
func TestIndexRowsNoOverread(t *testing.T) {
	page := guardpage.Page(t)
	rng := rand.New(rand.NewSource(13))
	for i := 0; i < 200; i++ {
		src := quotedTexts(rng)
		if i%2 == 1 {
			src = randomIndexInput(rng, rng.Intn(1000))
		}
		for _, b := range guardedCopies(page, src[:min(len(src), len(page))]) {
			checkIndex(t, b, ',')
		}
	}
}
