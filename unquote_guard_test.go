//go:build linux

package toon

import (
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestUnquoteNoOverread places quoted tokens of every length up to 300
// bytes, escapes throughout, directly against inaccessible pages, ending
// at the first byte of one and starting right after another, closed and
// unclosed, for every set of kernels that runs here: a read of a single
// byte outside the token faults and the test binary dies.
func TestUnquoteNoOverread(t *testing.T) {
	page := guardpage.Page(t)
	body := []byte(`ab\"cd\\ef\ngh\tij`)
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		for n := 2; n <= 300; n++ {
			src := make([]byte, n)
			src[0] = '"'
			for i := 1; i < n; i++ {
				src[i] = body[(i-1)%len(body)]
			}
			for _, closed := range []bool{false, true} {
				if closed {
					src[n-1] = '"'
				}
				for _, b := range guardedCopies(page, src) {
					scratch := make([]byte, 0, 2*n+64)
					s, next, bad, err := unquote(b, &scratch)
					ws, wnext, wbad, werr := unquoteRef(b)
					if string(s) != string(ws) || next != wnext || bad != wbad || (err == nil) != (werr == nil) {
						t.Fatalf("%s: unquote(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", mode, b, s, next, bad, err, ws, wnext, wbad, werr)
					}
				}
			}
		}
		restore()
	}
}
