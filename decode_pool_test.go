package toon

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// poolDocs are documents of every shape the decoder has paths for: a
// large table (its fast path), escaped cells, nested objects with tables
// in list items, keyed tables, inline arrays, a root primitive, and
// documents with syntax and count errors.
func poolDocs() []string {
	var b strings.Builder
	b.WriteString("rows[600]{id,name,note}:\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "  %d,name %d,\"a \\\"quoted\\\" note,\\n%d\"\n", i, i, i)
	}
	table := b.String()
	b.Reset()
	b.WriteString("orders[40]:\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "  - id: %d\n    customer:\n      name: C%d\n    items[2]{sku,qty}:\n      S%d,1\n      T%d,2\n    tags[%d]: %s\n",
			i, i, i, i, i%3, strings.Repeat("x,", i%3)[:max(0, 2*(i%3)-1)])
	}
	return []string{
		table,
		b.String(),
		"services[2:]{cpu,mem}:\n  a: 1,2\n  b: 3,4\nversion: 3\n",
		"a:\n  b:\n    c:\n      d: deep\n  e[3]: 1,2,3\n",
		"42\n",
		"rows[3]{id,name}:\n  1,a\n  2,b\n", // a count error
		"a: 1\n  b: 2\n",                    // a syntax error
		"rows[2]{id,name}:\n  1,\"unterminated\n  2,b\n", // an error inside a row
		table[:len(table)/2],                             // a table cut short
	}
}

// TestUnmarshalPooledDecoder holds Unmarshal, whose decoders are
// recycled from call to call, to a Decoder made for each document, on
// documents of every shape taken in turns, errors included.
func TestUnmarshalPooledDecoder(t *testing.T) {
	docs := poolDocs()
	for round := 0; round < 3; round++ {
		for i, doc := range docs {
			var want, got any
			werr := NewBytesDecoder([]byte(doc)).Decode(&want)
			gerr := Unmarshal([]byte(doc), &got)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(want, got) {
				t.Fatalf("round %d, document %d: Unmarshal gave %v, %v; a new Decoder %v, %v", round, i, got, gerr, want, werr)
			}
			var wantS, gotS struct {
				Rows []struct {
					ID   int    `toon:"id"`
					Name string `toon:"name"`
					Note string `toon:"note"`
				} `toon:"rows"`
				Orders []struct {
					ID    int               `toon:"id"`
					Cust  map[string]string `toon:"customer"`
					Items []struct {
						SKU string `toon:"sku"`
						Qty int    `toon:"qty"`
					} `toon:"items"`
					Tags []string `toon:"tags"`
				} `toon:"orders"`
			}
			werr = NewBytesDecoder([]byte(doc)).Decode(&wantS)
			gerr = Unmarshal([]byte(doc), &gotS)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(wantS, gotS) {
				t.Fatalf("round %d, document %d into a struct: Unmarshal gave %v; a new Decoder %v", round, i, gerr, werr)
			}
		}
	}
}

// TestUnmarshalKeepsNoView checks that a decoder Unmarshal recycles
// holds no view of the document it read: the document's memory is free
// once Unmarshal has returned.
func TestUnmarshalKeepsNoView(t *testing.T) {
	for i, doc := range poolDocs() {
		// At least 16 bytes: smaller ones may share a block of the
		// allocator's with other objects, which keep it.
		data := make([]byte, len(doc), max(len(doc), 64))
		copy(data, doc)
		freed := make(chan struct{})
		runtime.SetFinalizer(&data[0], func(*byte) { close(freed) })
		var v any
		_ = Unmarshal(data, &v)
		data = nil
		runtime.GC()
		select {
		case <-freed:
		case <-time.After(2 * time.Second):
			t.Errorf("document %d: still in memory after Unmarshal returned", i)
		}
		runtime.KeepAlive(v)
	}
}
