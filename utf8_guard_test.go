//go:build linux

package toon

import (
	"testing"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestUTF8ValidNoOverread places texts of every length up to 300 bytes,
// well-formed and cut short, directly against inaccessible pages, ending
// at the first byte of one and starting right after another, for every
// set of kernels that runs here: a read of a single byte outside the text
// faults and the test binary dies.
func TestUTF8ValidNoOverread(t *testing.T) {
	page := guardpage.Page(t)
	text := []byte("Łódź, 福岡 👍 abc Москва ")
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		for n := 0; n <= 300; n++ {
			src := make([]byte, n)
			for i := range src {
				src[i] = text[i%len(text)]
			}
			for _, b := range guardedCopies(page, src) {
				if got, want := utf8Valid(b), utf8.Valid(b); got != want {
					t.Fatalf("%s: utf8Valid(%x) = %v, want %v", mode, b, got, want)
				}
			}
		}
		restore()
	}
}
