package toon

import (
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestKeyPrintGuard puts short keys at the end of a page followed by an
// inaccessible one, in slices whose capacity runs into it: keyPrint must
// read only the key's bytes, or the test binary faults.
func TestKeyPrintGuard(t *testing.T) {
	pg := guardpage.Page(t)
	end := len(pg)
	for i := range pg {
		pg[i] = byte('a' + i%26)
	}
	full := pg[:end:cap(pg)] // the capacity reaches past the page
	for n := 0; n <= 9; n++ {
		k := full[end-n : end]
		if cap(k) < 8 {
			t.Fatalf("key of %d bytes has capacity %d: the test needs a capacity past the page", n, cap(k))
		}
		var want uint64
		for i := min(n, 7) - 1; i >= 0; i-- {
			want = want<<8 | uint64(k[i])
		}
		want |= uint64(n) << 56
		if got := keyPrint(k); got != want {
			t.Fatalf("keyPrint(%q) = %#x, want %#x", k, got, want)
		}
	}
}
