package main

import (
	"bytes"
	"sync/atomic"
	"testing"
)

// chunkRecorder keeps a copy of every slice written to it, and where the
// slice's first byte was.
type chunkRecorder struct {
	chunks [][]byte
	first  []*byte
}

func (r *chunkRecorder) Write(p []byte) (int, error) {
	r.chunks = append(r.chunks, bytes.Clone(p))
	r.first = append(r.first, &p[0])
	return len(p), nil
}

// TestOutputWritesLargeChunksThrough: a chunk of half the buffer or more,
// written while the buffer is empty, reaches the writer as it is, not
// copied into the buffer; other writes are buffered; the bytes keep their
// order either way.
func TestOutputWritesLargeChunksThrough(t *testing.T) {
	var rec chunkRecorder
	var published atomic.Pointer[output]
	o, err := openOutput("", &rec, &published)
	if err != nil {
		t.Fatal(err)
	}
	small := []byte("abc")
	big := bytes.Repeat([]byte("x"), bufSize/2)
	big2 := bytes.Repeat([]byte("y"), bufSize)
	var want []byte
	for _, p := range [][]byte{small, big, big2} {
		if _, err := o.Write(p); err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	// small was buffered, so big went through the buffer too; big2 did not
	// fit after it and was flushed with it.
	if err := o.bw.Flush(); err != nil {
		t.Fatal(err)
	}
	n := len(rec.chunks)
	if _, err := o.Write(big); err != nil { // the buffer is empty now
		t.Fatal(err)
	}
	want = append(want, big...)
	if len(rec.chunks) != n+1 || rec.first[n] != &big[0] {
		t.Fatalf("a large chunk written to an empty buffer did not reach the writer as it was: %d new writes", len(rec.chunks)-n)
	}
	if _, err := o.Write(small[:1]); err != nil {
		t.Fatal(err)
	}
	want = append(want, small[0])
	if len(rec.chunks) != n+1 {
		t.Fatal("a small write was not buffered")
	}
	if err := o.commit(); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Join(rec.chunks, nil); !bytes.Equal(got, want) {
		t.Fatalf("output differs: %d bytes, want %d", len(got), len(want))
	}
}
