package convert

import (
	"errors"
	"os"
	"testing"
)

// setMapGuard makes the mappings of the test end with a page past the
// file's end (mapGuard).
func setMapGuard(t *testing.T) {
	mapGuard = int64(os.Getpagesize())
	t.Cleanup(func() { mapGuard = 0 })
}

// TestMapGuardFaults checks what TestFilePageBoundary relies on: with
// mapGuard set, the byte after an input that ends on a page boundary is in
// the mapping, and reading it faults, which copyAt reports as errShrunk.
func TestMapGuardFaults(t *testing.T) {
	setMapGuard(t)
	page := os.Getpagesize()
	f := writeInput(t, t.TempDir(), make([]byte, page), 0)
	in, err := openFileInput(f)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	if len(in.data) != page || len(in.mem) != 2*page {
		t.Fatalf("mapped %d bytes for an input of %d (data %d)", len(in.mem), page, len(in.data))
	}
	var b [1]byte
	if _, err := in.copyAt(b[:], 0); err != nil {
		t.Fatalf("reading the input: %v", err)
	}
	in.data = in.mem // as a reader that reads past the input's end would
	if _, err := in.copyAt(b[:], int64(page)); !errors.Is(err, errShrunk) {
		t.Fatalf("reading past the end: %v, want a fault", err)
	}
}
