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

// TestUnescapeKernelsNoOverread calls each block kernel of unescape that
// runs here on strings' bodies of every length up to 200 bytes, escapes
// throughout (none that stops the kernels) and a backslash or not at the
// end, placed directly against inaccessible pages as in
// TestUnquoteNoOverread: a kernel that reads a byte outside src faults.
func TestUnescapeKernelsNoOverread(t *testing.T) {
	kernels := unescapeKernels()
	if len(kernels) == 0 {
		t.Skip("no unescape kernel here")
	}
	page := guardpage.Page(t)
	body := []byte(`ab\"cd\\ef\ngh\tij\\\\\\kl`)
	for _, k := range kernels {
		for n := 0; n <= 200; n++ {
			src := make([]byte, n)
			for i := range src {
				src[i] = body[i%len(body)]
			}
			for _, tail := range []byte{'x', '\\'} {
				if n > 0 {
					src[n-1] = tail
				}
				for _, b := range guardedCopies(page, src) {
					checkUnescapeKernel(t, k, b, n+64)
				}
			}
		}
	}
}
