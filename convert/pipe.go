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

// batch is a run of rows of one table: their text, copied from the read
// buffer (strings with escapes unescaped after it), and their cells as
// toon.Values that refer to it, w after w.
type batch struct {
	data []byte
	vals []toon.Value
	// ends, for the rows of a CSV table, holds where each cell's text
	// ends in data (a separator byte follows every cell, so the next one
	// starts one byte further on). Their values are made from them by
	// rowWriter.cells, row by row on the writing goroutine, or all at once
	// into vals on the reading side when typed is set.
	ends  []int32
	typed bool
}

const (
	pipeMinRows = 1024      // tables with fewer rows are written in line
	batchBytes  = 256 << 10 // a batch is handed over at this much text...
	batchCells  = 16 << 10  // ... or this many cells
	batches     = 3         // in flight: one filling, one being written, one spare
)

type rowWriter struct {
	enc  *toon.Encoder
	todo chan *batch
	free chan *batch
	done chan struct{}
	cur  *batch // being filled; nil when none is
	w    int    // cells per row of the current table
	// cells, if set, makes the values of row r of a batch, from its ends,
	// into vals: on the writing goroutine just before the row is written,
	// or, when that one is behind (a full batch already waits for it),
	// for the whole batch on the reading side, so that the two share the
	// work as their speeds allow.
	cells func(b *batch, r int, vals []toon.Value)
	vals  []toon.Value // the writing goroutine's row, for cells

	// err is the first error of WriteRow. The writing goroutine sets it
	// before it hands the batch back, so the reading side may read it once
	// it has every batch back.
	err error
}

// pipeline reports whether FromJSON writes table rows, and ToJSON its
// output, on a goroutine of their own: by default when more than one CPU
// may run Go code.
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
		rw.free <- &batch{data: make([]byte, 0, batchBytes+4096), vals: make([]toon.Value, 0, batchCells)}
	}
	go rw.loop()
	return rw
}

func (rw *rowWriter) loop() {
	defer close(rw.done)
	for b := range rw.todo {
		if rw.cells != nil && !b.typed {
			vals := rw.vals[:rw.w]
			for r := 0; rw.err == nil && r < len(b.ends)/rw.w; r++ {
				rw.cells(b, r, vals)
				rw.err = rw.enc.WriteRow(vals...)
			}
			rw.free <- b
			continue
		}
		for r := 0; rw.err == nil && r+rw.w <= len(b.vals); r += rw.w {
			rw.err = rw.enc.WriteRow(b.vals[r : r+rw.w]...)
		}
		rw.free <- b
	}
}

// add copies a matched row, the lexer's last token, into the current
// batch with its cells as values, and hands the batch over when it is
// full. The values refer to b.data: if a later row makes data grow, they
// go on referring to the old array, which keeps the same bytes.
func (rw *rowWriter) add(lx *lexer, cells []mcell) error {
	b := rw.batch()
	// One copy of the row, names and all, costs less than one per cell.
	shift := len(b.data) - lx.lo
	b.data = append(b.data, lx.text()...)
	vals := b.row(len(cells))
	for j := range cells {
		c := &cells[j]
		switch c.kind {
		case tkString:
			if !c.esc {
				vals[j] = toon.Bytes(b.data[c.lo+shift : c.hi+shift])
				continue
			}
			lo := len(b.data)
			var err error
			if b.data, err = jsontext.AppendUnquote(b.data, lx.buf[c.lo-1:c.hi+1]); err != nil {
				return err
			}
			vals[j] = toon.Bytes(b.data[lo:])
		case tkNumber:
			vals[j] = numberValue(b.data[c.lo+shift : c.hi+shift])
		default:
			vals[j] = literalValue(c.kind)
		}
	}
	rw.handOver(len(cells))
	return nil
}

// batch returns the batch being filled, taking a free one if there is
// none.
func (rw *rowWriter) batch() *batch {
	if rw.cur == nil {
		rw.cur = <-rw.free
		rw.cur.data, rw.cur.vals, rw.cur.ends, rw.cur.typed = rw.cur.data[:0], rw.cur.vals[:0], rw.cur.ends[:0], false
	}
	return rw.cur
}

// row appends the cells of a row of width w to b and returns them.
func (b *batch) row(w int) []toon.Value {
	n := len(b.vals)
	if cap(b.vals)-n < w {
		b.vals = append(b.vals, make([]toon.Value, w)...)
	}
	b.vals = b.vals[:n+w]
	return b.vals[n:]
}

// handOver hands the current batch over when it is full: when its text
// has reached batchBytes or it has no room for another row of w cells.
func (rw *rowWriter) handOver(w int) {
	if b := rw.cur; len(b.data) >= batchBytes || len(b.vals)+len(b.ends)+w > batchCells {
		if rw.cells != nil && len(rw.todo) > 0 {
			b.vals = b.vals[:len(b.ends)]
			for r := 0; r < len(b.ends)/w; r++ {
				rw.cells(b, r, b.vals[r*w:(r+1)*w])
			}
			b.typed = true
		}
		rw.todo <- b
		rw.cur = nil
	}
}

// sync hands over the current batch and waits until every batch is
// written; it returns the first error of WriteRow.
func (rw *rowWriter) sync() error {
	if rw.cur != nil {
		if len(rw.cur.vals) > 0 || len(rw.cur.ends) > 0 {
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
