package toon

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/toonstream/toon/internal/toonref"
)

// inPlaceDocs exercise the line reader, the table fast path, quoted
// strings with escapes, inline arrays and a last line without LF.
var inPlaceDocs = []string{
	"name: Ada\nage: 36\ntags[2]: x,y\nq: \"a\\tb\"\n",
	"users[3]{id,name,ok}:\n  1,Ada,true\n  2,\"B, c\",false\n  3,Cy,null\nend: 1",
	"[2]:\n  - a: 1\n    b: two\n  - [2]: 3,4",
	"t[2]{a,b}:\n  1,2\n  3",
}

// TestNewBytesDecoderInPlace checks that the strings a bytes decoder
// returns are views of its data when they need no unescaping, and that the
// tokens and errors are those of NewDecoder.
func TestNewBytesDecoderInPlace(t *testing.T) {
	for _, doc := range inPlaceDocs {
		data := []byte(doc)
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		hi := lo + uintptr(len(data))
		d := NewBytesDecoder(data)
		views := 0
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			if k := tok.Kind(); (k == KindString || k == KindKey) && len(tok.Bytes()) > 0 {
				p := uintptr(unsafe.Pointer(unsafe.SliceData(tok.Bytes())))
				if p >= lo && p < hi {
					views++
				}
			}
		}
		if views == 0 {
			t.Errorf("%q: no string token is a view of the data", doc)
		}
		if string(data) != doc {
			t.Errorf("%q: the data changed to %q", doc, data)
		}
		want := readEvents(NewDecoder(strings.NewReader(doc)))
		got := readEvents(NewBytesDecoder(data))
		if !sameVerdict(got, want) {
			t.Errorf("%q: bytes decoder %v, reader %v", doc, got.err, want.err)
		}
	}
}

// sameVerdict reports whether two decodings gave the same events and the
// same error.
func sameVerdict(a, b refVerdict) bool {
	return (a.err == nil) == (b.err == nil) && (a.err == nil || a.err.Error() == b.err.Error()) && toonref.EventsEqual(a.events, b.events)
}

// TestNewBytesDecoderReset checks that Reset makes a bytes decoder read
// from a reader, leaving its former data alone.
func TestNewBytesDecoderReset(t *testing.T) {
	data := []byte("a: 1\n")
	d := NewBytesDecoder(data)
	if _, err := d.Token(); err != nil {
		t.Fatal(err)
	}
	d.Reset(strings.NewReader("b: 2\n"))
	var keys []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind() == KindKey {
			keys = append(keys, string(tok.Bytes()))
		}
	}
	if len(keys) != 1 || keys[0] != "b" || !bytes.Equal(data, []byte("a: 1\n")) {
		t.Errorf("after Reset: keys %q, data %q", keys, data)
	}
}
