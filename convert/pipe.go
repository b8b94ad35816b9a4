package convert

import (
	"runtime"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// In the second pass the rows of a flat table cost two things of about
// the same size: reading them (lexer.matchRow) and writing them
// (Encoder.WriteRow, then the output's Write). When the process may use
// more than one CPU, a rowWriter does the writing on its own goroutine:
// the reading side copies each matched row's cells into a batch and hands
// full batches over. The encoder is only ever used by one goroutine at a
// time: the reading side waits for every batch to be written (sync)
// before it touches the encoder itself. So w, the caller's writer, may be
// called from that goroutine, though never concurrently.

// batch is a run of rows of one table: the text of their cells, one after
// another (strings unescaped), and each cell's kind and place in data.
type batch struct {
	data  []byte
	cells []bcell
}

type bcell struct {
	kind   byte
	lo, hi int32
}

const (
	batchBytes = 32 << 10 // a batch is handed over at this much text...
	batchCells = 4096     // ... or this many cells
	batches    = 3        // in flight: one filling, one being written, one spare
)

type rowWriter struct {
	enc  *toon.Encoder
	todo chan *batch
	free chan *batch
	done chan struct{}
	cur  *batch // being filled; nil when none is
	w    int    // cells per row of the current table

	// err is the first error of WriteRow. The writing goroutine sets it
	// before it hands the batch back, so the reading side may read it once
	// it has every batch back.
	err error
}

// pipeline reports whether FromJSON writes table rows on a goroutine of
// their own: by default when more than one CPU may run Go code.
func (c *config) pipeline() bool {
	if c.pipe != 0 {
		return c.pipe > 0
	}
	return runtime.GOMAXPROCS(0) > 1
}

func newRowWriter(enc *toon.Encoder) *rowWriter {
	rw := &rowWriter{
		enc:  enc,
		todo: make(chan *batch, batches),
		free: make(chan *batch, batches),
		done: make(chan struct{}),
	}
	for i := 0; i < batches; i++ {
		rw.free <- &batch{data: make([]byte, 0, batchBytes+1024), cells: make([]bcell, 0, batchCells)}
	}
	go rw.loop()
	return rw
}

func (rw *rowWriter) loop() {
	defer close(rw.done)
	var vals []toon.Value
	for b := range rw.todo {
		if rw.err == nil {
			vals, rw.err = rw.write(b, vals)
		}
		rw.free <- b
	}
}

// write writes the rows of b.
func (rw *rowWriter) write(b *batch, vals []toon.Value) ([]toon.Value, error) {
	w := rw.w
	if cap(vals) < w {
		vals = make([]toon.Value, w)
	}
	vals = vals[:w]
	for r := 0; r+w <= len(b.cells); r += w {
		for j, c := range b.cells[r : r+w] {
			text := b.data[c.lo:c.hi]
			switch c.kind {
			case tkString:
				vals[j] = toon.Bytes(text)
			case tkNumber:
				vals[j] = numberValue(text)
			case tkTrue:
				vals[j] = toon.Bool(true)
			case tkFalse:
				vals[j] = toon.Bool(false)
			default:
				vals[j] = toon.Null()
			}
		}
		if err := rw.enc.WriteRow(vals...); err != nil {
			return vals, err
		}
	}
	return vals, nil
}

// add copies a matched row, whose cells are in the lexer's buffer, into
// the current batch, and hands the batch over when it is full.
func (rw *rowWriter) add(lx *lexer, cells []mcell) error {
	if rw.cur == nil {
		rw.cur = <-rw.free
		rw.cur.data, rw.cur.cells = rw.cur.data[:0], rw.cur.cells[:0]
	}
	b := rw.cur
	for j := range cells {
		c := &cells[j]
		lo := len(b.data)
		switch {
		case c.kind == tkString && c.esc:
			var err error
			if b.data, err = jsontext.AppendUnquote(b.data, lx.buf[c.lo-1:c.hi+1]); err != nil {
				return err
			}
		case c.kind == tkString || c.kind == tkNumber:
			b.data = append(b.data, lx.buf[c.lo:c.hi]...)
		}
		b.cells = append(b.cells, bcell{kind: c.kind, lo: int32(lo), hi: int32(len(b.data))})
	}
	if len(b.data) >= batchBytes || len(b.cells)+len(cells) > batchCells {
		rw.todo <- b
		rw.cur = nil
	}
	return nil
}

// sync hands over the current batch and waits until every batch is
// written; it returns the first error of WriteRow.
func (rw *rowWriter) sync() error {
	if rw.cur != nil {
		if len(rw.cur.cells) > 0 {
			rw.todo <- rw.cur
		} else {
			rw.free <- rw.cur
		}
		rw.cur = nil
	}
	// Every batch is back once the free list holds them all.
	var all [batches]*batch
	for i := range all {
		all[i] = <-rw.free
	}
	for _, b := range all {
		rw.free <- b
	}
	return rw.err
}

// stop ends the writing goroutine.
func (rw *rowWriter) stop() {
	close(rw.todo)
	<-rw.done
}
