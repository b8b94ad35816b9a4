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
	page := guardpage.Page(t)
	impls := testedScanImpls()
	rng := rand.New(rand.NewSource(11))
	for n := 0; n <= 300; n++ {
		for _, line := range guardedCopies(page, randomLine(rng, n, 8)) {
			for _, d := range testDelims {
				checkScan(t, impls, line, d)
			}
		}
	}
}
