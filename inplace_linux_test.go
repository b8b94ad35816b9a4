package toon

import (
	"strings"
	"syscall"
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestNewBytesDecoderReadOnly decodes documents from read-only memory that
// ends against an inaccessible page, as a mapped file that fills its last
// page does: a write to the data, or a read past its end, kills the test
// binary. The tokens and errors must be those of NewDecoder.
func TestNewBytesDecoderReadOnly(t *testing.T) {
	page := guardpage.Page(t)
	page = page[:len(page):len(page)] // the decoder may read up to cap(data)
	docs := append([]string{}, inPlaceDocs...)
	// A table whose last row ends the page, and a long last line.
	var b strings.Builder
	b.WriteString("t[100]{a,b}:\n")
	for i := 0; i < 99; i++ {
		b.WriteString("  12345,abcdef\n")
	}
	b.WriteString("  1,x")
	docs = append(docs, b.String(), "k: "+strings.Repeat("v", len(page)-3))
	for _, doc := range docs {
		if len(doc) > len(page) {
			t.Fatalf("a document of %d bytes does not fit the page", len(doc))
		}
		if err := syscall.Mprotect(page, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			t.Skipf("mprotect: %v", err)
		}
		data := page[len(page)-len(doc):]
		copy(data, doc)
		if err := syscall.Mprotect(page, syscall.PROT_READ); err != nil {
			t.Skipf("mprotect: %v", err)
		}
		want := readEvents(NewDecoder(strings.NewReader(doc)))
		if got := readEvents(NewBytesDecoder(data)); !sameVerdict(got, want) {
			t.Errorf("%.60q: bytes decoder %v, reader %v", doc, got.err, want.err)
		}
	}
}
