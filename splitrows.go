package toon

import (
	"io"
	"iter"
	"runtime"
)

// This file holds ParallelRows: Rows over a table split into ranges
// (split.go), each decoded into values by a worker, the values yielded in
// order on the caller's goroutine.

// parRowsRange is the bytes of TOON per range of ParallelRows.
var parRowsRange = 256 << 10

// ParallelRows is Rows with the rows decoded by up to workers goroutines
// (GOMAXPROCS when workers is 0), for a table whose rows cost more to
// decode into T than the caller's work on them: the table is split into
// ranges (ParallelTable), a worker decodes each range into values
// with a RowDecoder of its own, and the values are yielded in order, on
// the caller's goroutine, with the errors Rows would yield, at the same
// lines and columns. It splits the table when d reads a byte slice in
// place in strict mode (NewBytesDecoder) and the next token starts a
// tabular array; otherwise, or with workers 1, it is Rows.
//
// Values are decoded ahead of the caller, at most a few ranges. When the
// iteration ends before the table's end (the caller breaks out of the
// loop, or an error that ends the rows), the workers stop and d then
// returns ErrSplitStopped; at the table's end, d is after the array, as
// Rows leaves it. Every goroutine it starts has ended when the iteration
// ends.
func ParallelRows[T any](d *Decoder, workers int) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		if t, err := d.peek(); workers <= 1 || err != nil || t.Kind() != KindArrayStart || t.Form() != FormTabular ||
			d.lr.r != nil || !d.opts.strict {
			for v, err := range Rows[T](d) {
				if !yield(v, err) {
					return
				}
			}
			return
		}
		d.Token() // the ArrayStart, for StreamTable
		if !d.atTableStart() {
			// A tabular header's line ends with its ArrayStart, so this
			// does not happen; were it to, the rows are not skipped.
			var zero T
			yield(zero, ErrNotSplittable)
			return
		}
		parallelRows(d, workers, yield)
	}
}

// rowsOut is what a worker made of one range: its values, each with the
// error Rows yields beside it.
type rowsOut[T any] struct {
	vals   []T
	errs   []error
	sticky bool // the last error ends the rows (RowDecoder's sticky error)
}

// parallelRows yields the rows of the table whose ArrayStart d has just
// returned, decoded by workers (ParallelTable).
func parallelRows[T any](d *Decoder, workers int, yield func(T, error) bool) {
	done := false // the caller stopped, or an error ended the rows
	err := ParallelTable(d, workers, parRowsRange, func() func(*Decoder, *rowsOut[T]) bool {
		return func(rd *Decoder, out *rowsOut[T]) bool {
			clear(out.vals)
			out.vals, out.errs, out.sticky = out.vals[:0], out.errs[:0], false
			decodeRange(rd, out)
			// An error's text may hold a line number, which only the
			// placed range's decoder knows.
			for _, e := range out.errs {
				if e != nil {
					return true
				}
			}
			return false
		}
	}, func(_ Range, out *rowsOut[T]) bool {
		for i := range out.vals {
			if !yield(out.vals[i], out.errs[i]) {
				done = true
				return false
			}
		}
		if out.sticky {
			done = true
			return false
		}
		return true
	})
	if err == nil && !done {
		// The table's ArrayEnd: d is after the array, as Rows leaves it.
		// The serial decoder found it with the line after the table,
		// whose error RowDecoder reports with the end (pendingErr): the
		// line is read here too.
		d.Token()
		d.peek()
		if err := d.pendingErr(); err != nil {
			var zero T
			yield(zero, err)
		}
	}
}

// decodeRange decodes the rows of o's range from rd, as Rows does.
func decodeRange[T any](rd *Decoder, o *rowsOut[T]) {
	r := NewRowDecoder[T](rd)
	for {
		// Each row is decoded in its place in vals: a value of its own
		// would escape to the heap, a row at a time.
		var zero T
		o.vals = append(o.vals, zero)
		err := r.Next(&o.vals[len(o.vals)-1])
		if err == io.EOF {
			o.vals = o.vals[:len(o.vals)-1]
			return
		}
		o.errs = append(o.errs, err)
		if r.err != nil {
			o.sticky = true
			return
		}
	}
}
