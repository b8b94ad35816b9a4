//go:build linux

package toon

import (
	"math/rand"
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestScanLineNoOverread places lines directly against inaccessible pages,
// ending at the first byte of one and starting right after another, so an
// implementation that reads a single byte outside its line faults and the
// test binary dies.
func TestScanLineNoOverread(t *testing.T) {
	data := guardpage.Page(t)
	page := len(data)
	impls := testedScanImpls()
	rng := rand.New(rand.NewSource(11))
	for n := 0; n <= 300; n++ {
		src := randomLine(rng, n, 8)
		end := data[page-n : page : page] // ends against the guard page after
		copy(end, src)
		start := data[:n:n] // starts against the guard page before
		copy(start, src)
		for _, d := range testDelims {
			checkScan(t, impls, end, d)
			checkScan(t, impls, start, d)
		}
	}
}
