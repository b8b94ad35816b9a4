package toon

import (
	"iter"
	"reflect"
	"runtime"

	"github.com/toonstream/toon/internal/mem"
	"github.com/toonstream/toon/internal/ordered"
)

// This file holds WriteRowsParallel: WriteRows with the rows' text made by
// several goroutines. The calling goroutine takes the rows from the
// sequence into batches (copies of the structs), workers turn each batch
// into the text WriteRow writes for its rows (leafValues, then
// appendRowCells, the functions WriteRow's own paths use), and the
// calling goroutine appends the batches' rows to the encoder's output in
// order, a row at a time, with WriteRow's checks between rows. So the
// output is WriteRows's, byte for byte, and so is the error: the first,
// in row order, with the rows before it written as WriteRows writes them.

const (
	parBatchRows = 2048 // rows per batch
)

// WriteRowsParallel is WriteRows with the cells of the rows typed and
// formatted by up to workers goroutines (GOMAXPROCS when workers is 0),
// which makes a large table faster to write when more than one CPU is
// free; with workers 1, or a pointer type T, it is WriteRows. The rows are
// taken from rows on the calling goroutine, in order, and the text, the
// count checks and the errors are WriteRows's for the same rows.
//
// A row is read by a worker after the sequence has yielded it (and later
// rows): the memory it refers to (the bytes of a []byte field, the values
// behind its pointer fields) must not change after it is yielded, and the
// methods that give its cells their text (MarshalText, MarshalJSON, ...)
// are called on the workers, several at a time. Every goroutine it starts
// has ended when it returns.
func WriteRowsParallel[T any](e *Encoder, key string, n int, rows iter.Seq[T], workers int) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	t := reflect.TypeFor[T]()
	pl := encPlanOf(t)
	if workers <= 1 || pl.kind != ekStruct || len(pl.fields) == 0 {
		return WriteRows(e, key, n, rows)
	}
	leaves := pl.leaves
	if pl.shape != shapeObj {
		var err error
		if leaves, err = rowLeaves(pl, 0, nil); err != nil {
			return WriteRows(e, key, n, rows) // WriteRows reports it
		}
	}
	if err := e.tableFree("WriteRows"); err != nil {
		return err
	}
	if err := e.beginTable(key, n, len(leaves), nil, pl); err != nil {
		return err
	}
	w := &rowWorkers[T]{e: e, leaves: leaves, rs: e.tbl.rowStyle, maxLine: e.opts.maxLine, name: e.tbl.name}
	err := w.run(rows, workers)
	if err != nil {
		e.dropTable()
		return e.fail(err)
	}
	return e.EndTable()
}

// rowBatch is a batch of rows and, once a worker has made it, their text.
type rowBatch[T any] struct {
	ordered.Job
	first int    // the index in the table of the first row
	rows  []T    // the rows (copies)
	text  []byte // the rows' text, each with its leading LF and indentation
	ends  []int  // where each row's text ends
	err   error  // the error of row len(ends), if any
	early bool   // err came from the row's values, before WriteRow's checks
}

// rowWorkers is the state of one WriteRowsParallel call.
type rowWorkers[T any] struct {
	e       *Encoder
	leaves  []encLeaf
	rs      rowStyle
	maxLine int
	name    string

	free []*rowBatch[T] // batches written, to reuse (calling goroutine only)
}

// run takes the rows into batches, has them made by workers (internal/ordered),
// and writes them in order; it returns the first error, in row order.
func (w *rowWorkers[T]) run(rows iter.Seq[T], workers int) (err error) {
	o := ordered.New(workers, func() func(*rowBatch[T]) {
		cells := make([]Value, len(w.leaves))
		setLeafKinds(cells, w.leaves)
		var text []byte
		return func(b *rowBatch[T]) { w.make(b, cells, &text) }
	})
	defer o.End()
	// write writes the oldest batch once it is made.
	write := func() error {
		b, ok := o.Next()
		if !ok {
			return errPanicked
		}
		if err := w.write(b); err != nil {
			return err
		}
		w.free = append(w.free, b)
		return nil
	}
	var cur *rowBatch[T]
	next := 0 // index of the next row
	for row := range rows {
		if cur == nil {
			cur = w.batch(next)
		}
		cur.rows = append(cur.rows, row)
		next++
		if len(cur.rows) == parBatchRows {
			o.Send(cur)
			cur = nil
			for o.Full() {
				if err = write(); err != nil {
					return err
				}
			}
		}
	}
	if cur != nil {
		o.Send(cur)
	}
	for !o.Idle() {
		if err = write(); err != nil {
			return err
		}
	}
	return nil
}

// batch returns an empty batch whose first row is first.
func (w *rowWorkers[T]) batch(first int) *rowBatch[T] {
	if k := len(w.free); k > 0 {
		b := w.free[k-1]
		w.free = w.free[:k-1]
		clear(b.rows) // let the collector have what the old rows refer to
		rows, text, ends := b.rows[:0], b.text[:0], b.ends[:0]
		b = &rowBatch[T]{first: first, rows: rows, text: text, ends: ends}
		return b
	}
	return &rowBatch[T]{first: first, rows: make([]T, 0, parBatchRows)}
}

// make writes the text of b's rows into b.text, up to the first row that
// is an error.
func (w *rowWorkers[T]) make(b *rowBatch[T], cells []Value, text *[]byte) {
	for i := range b.rows {
		*text = (*text)[:0]
		if err := leafValues(cells, w.leaves, mem.Of(&b.rows[i]), text); err != nil {
			b.err, b.early = err, true
			return
		}
		start := len(b.text)
		t, bad := appendRowCells(b.text, cells, &w.rs)
		if bad >= 0 {
			b.text, b.err = t[:start], invalidNumber(cells[bad].str())
			return
		}
		if k := len(t) - start; k-1 > w.maxLine {
			b.text = t[:start]
			b.err = lineTooLongRow(b.first+i, w.name, k-1, w.maxLine)
			return
		}
		b.text = t
		b.ends = append(b.ends, len(t))
	}
}

// write appends b's rows to the encoder's output as WriteRow does, with
// its checks, and returns the first error.
func (w *rowWorkers[T]) write(b *rowBatch[T]) error {
	e := w.e
	t := &e.tbl
	s := 0
	for _, end := range b.ends {
		if e.err != nil {
			return e.err
		}
		if t.rows == t.n {
			return &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.n + 1}
		}
		e.b = append(e.b, b.text[s:end]...)
		s = end
		t.rows++
		if len(e.b) >= flushSize {
			if err := e.flushRows(); err != nil {
				return err
			}
		}
	}
	if b.err != nil {
		if b.early {
			return b.err // WriteRows finds it before calling WriteRow
		}
		if e.err != nil {
			return e.err
		}
		if t.rows == t.n {
			return &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.n + 1}
		}
		return b.err
	}
	return nil
}
