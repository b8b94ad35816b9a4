package toon

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"testing/iotest"
	"unsafe"
)

// traceDecoder reads d to the end of its document, or to its first error,
// and records its tokens with their positions (renderWithLines), then
// what two more calls of Token give (the token's kind and text, or the
// error) with Line and InputOffset after each, and what More, Skip and
// Decode give after the end.
func traceDecoder(t *testing.T, d *Decoder) []string {
	toks, err := renderWithLines(t, d, math.MaxInt)
	tr := []string{toks, fmt.Sprint(err)}
	for range 2 {
		tok, err := d.Token()
		tr = append(tr, fmt.Sprintf("err %v token %v %q line %d off %d", err, tok.Kind(), tok.Bytes(), d.Line(), d.InputOffset()))
	}
	var v any
	tr = append(tr, fmt.Sprintf("more %v skip %v decode %v line %d off %d", d.More(), d.Skip(), d.Decode(&v), d.Line(), d.InputOffset()))
	return tr
}

// spareDocs are the documents of poolDocs, and a table large enough for
// the fast path to grow its memory, with a nested document after it.
func spareDocs() [][]byte {
	var docs [][]byte
	for _, s := range poolDocs() {
		docs = append(docs, []byte(s))
	}
	var b bytes.Buffer
	b.WriteString("rows[3000]{id,name,score,day}:\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "  %d,name %d,%d.5,2025-05-%02d\n", i, i, i%97, i%28+1)
	}
	b.WriteString("meta:\n  a: 1\n  b:\n    c: x\n")
	docs = append(docs, b.Bytes())
	return docs
}

// spareTraces are the traces of the documents read by decoders that keep
// their buffers.
func spareTraces(t *testing.T, docs [][]byte) [][]string {
	t.Helper()
	handOnOff = true
	defer func() { handOnOff = false }()
	want := make([][]string, len(docs))
	for i, doc := range docs {
		want[i] = traceDecoder(t, NewDecoder(bytes.NewReader(doc)))
	}
	return want
}

func sameTrace(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d calls traced, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: call %d gave %s, want %s", what, i, got[i], want[i])
		}
	}
}

// TestSparesHandedOn holds decoders that hand their buffers on at the
// end of their input, and take those of finished decoders, to decoders
// that keep their own: the same tokens, errors, lines and offsets, on
// documents of every shape taken in turns, from readers that give their
// bytes whole or a few at a time, and from decoders made new or Reset.
func TestSparesHandedOn(t *testing.T) {
	docs := spareDocs()
	want := spareTraces(t, docs)
	readers := map[string]func([]byte) io.Reader{
		"whole": func(b []byte) io.Reader { return bytes.NewReader(b) },
		"half":  func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
	}
	for name, reader := range readers {
		for round := 0; round < 3; round++ {
			for i, doc := range docs {
				got := traceDecoder(t, NewDecoder(reader(doc)))
				sameTrace(t, fmt.Sprintf("%s reader, round %d, document %d", name, round, i), got, want[i])
			}
		}
		d := NewDecoder(reader(docs[0]))
		for round := 0; round < 3; round++ {
			for i, doc := range docs {
				d.Reset(reader(doc))
				sameTrace(t, fmt.Sprintf("%s reader, Reset, round %d, document %d", name, round, i), traceDecoder(t, d), want[i])
			}
		}
	}
}

// TestSparesAfterTheEnd checks a decoder that has handed its buffers on
// while other decoders write into them: it stays at its end, and reports
// the line and offset it reported there.
func TestSparesAfterTheEnd(t *testing.T) {
	docs := spareDocs()
	for i, doc := range docs {
		a := NewDecoder(bytes.NewReader(doc))
		ta := traceDecoder(t, a)
		for _, other := range docs {
			drain(NewDecoder(bytes.NewReader(other))) // some end in errors
		}
		// A call after the end, and More, Skip and Decode, as they were
		// before the others ran.
		got := traceDecoder(t, a)
		if len(got) != 5 || got[0] != "" || got[1] != ta[1] || got[2] != ta[len(ta)-2] || got[4] != ta[len(ta)-1] {
			t.Fatalf("document %d: after the end, %q; before, %q", i, got, ta[len(ta)-2:])
		}
	}
}

// TestSparesConcurrent decodes the documents on several goroutines at
// once, each with decoders of its own, which share decoders (run it with
// -race).
func TestSparesConcurrent(t *testing.T) {
	docs := spareDocs()
	want := spareTraces(t, docs)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 5; round++ {
				for i := range docs {
					k := (i + g + round) % len(docs)
					got := traceDecoder(t, NewDecoder(bytes.NewReader(docs[k])))
					if fmt.Sprint(got) != fmt.Sprint(want[k]) {
						errs <- fmt.Errorf("goroutine %d, round %d, document %d: traces differ", g, round, k)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestSparesMemory checks that a decoder made for each document, once a
// decoder before it has finished, allocates little but itself: its line
// buffer, the fast path's memory, the general queue, the row programs,
// the header parser's arenas and the run's values all come from the
// decoder before. On each document that ends without an error (a table of
// 3,000 rows, nested lists of small tables, a keyed object, inline arrays,
// a lone primitive), a document allocates at most 1 KiB beyond the
// Decoder (2.8 KiB in all, with the Decoder); decoders that keep their
// buffers allocate 68 to 225 KiB, their line buffer included. The
// collector is off while it measures, so that it does not empty the pool
// in between.
func TestSparesMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	docs := spareDocs()
	docs = append(docs[:5:5], docs[len(poolDocs())]) // the documents that end without an error
	for i, doc := range docs {
		perDocument := func() uint64 {
			run := func() {
				if _, err := drain(NewDecoder(bytes.NewReader(doc))); err != nil {
					t.Fatal(err)
				}
			}
			run()
			return allocatedEach(20, run)
		}
		handOnOff = true
		kept := perDocument()
		handOnOff = false
		handed := perDocument()
		if limit := uint64(unsafe.Sizeof(Decoder{})) + 1024; handed > limit {
			t.Errorf("document %d: %d bytes allocated a document, want %d at most (%d by decoders that keep their buffers)", i, handed, limit, kept)
		}
	}
}

// allocatedEach returns the bytes f allocates a call: the least of three
// rounds of runs calls, as a round in which the pool of decoders lost one
// (to a collection already under way, or to another goroutine) also
// counts its replacement. It does not collect first, as allocated does:
// a collection empties the pool whose use is measured.
func allocatedEach(runs int, f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			f()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/uint64(runs))
	}
	return least
}

// TestSparesAfterReset checks the two ways of Reset: a decoder that has
// handed its memory on and is Reset takes memory from the pool and hands
// it on again at its end, so that a program that reads two documents with
// a decoder and drops it allocates little more than the decoder; a decoder
// Reset while it holds its memory keeps it, and a third document read that
// way allocates nothing.
func TestSparesAfterReset(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	doc := spareDocs()[len(poolDocs())]
	r := bytes.NewReader(doc)
	read := func(d *Decoder) {
		if _, err := drain(d); err != nil {
			t.Fatal(err)
		}
	}
	twice := func() {
		r.Reset(doc)
		d := NewDecoder(r)
		read(d)
		r.Reset(doc)
		d.Reset(r)
		read(d)
	}
	twice()
	if per, limit := allocatedEach(20, twice), uint64(unsafe.Sizeof(Decoder{}))+1024; per > limit {
		t.Errorf("a decoder that reads two documents, Reset between them: %d bytes allocated, want %d at most", per, limit)
	}
	d := NewDecoder(bytes.NewReader(doc))
	again := func() {
		r.Reset(doc)
		d.Reset(r)
		read(d)
	}
	again()
	if per := allocatedEach(20, again); per != 0 {
		t.Errorf("a decoder Reset while it holds its memory: %d bytes allocated a document, want 0", per)
	}
}
