package toon

import (
	"github.com/toonstream/toon/internal/ordered"
)

// This file runs the work on a table's rows on several goroutines without
// finding the rows first, as StreamTable does on the caller's goroutine
// (reading the first bytes of every line once more than the decoders do).
//
// Ranges are cut by size (cutRange: the first line start after a line
// that stands as a row, about size bytes on) and handed to workers at once.
// A worker decodes a cut range as if it were the next range of the table:
// its decoder counts lines and rows from the range's first, makes no
// count check, and ends at a line that ends the table (rangeMode). The
// caller takes the ranges back in order and places each: once the ranges
// before it are placed, its first line number, its first row's index and
// the content line before it are known. A range is made again, placed (an
// exact Range, as StreamTable gives it), when its work reported a failure
// (an error, whose line numbers were not the document's), when its rows
// would take the table past its declared count, or when it ends the table
// with another count; its output and error are then the serial decoder's.
// The range that ends the table ends the run; the ranges cut after it are
// dropped.

// ParallelTable runs work on the rows of the table whose ArrayStart Token
// d has just returned, a range of about size bytes (at least 64 KiB) at a
// time, on up to workers goroutines, the caller's included: each range's
// output is handed to emit, on the caller's goroutine, in the order of the
// rows. The table must be one StreamTable splits (d reads a byte slice in
// place, in strict mode); otherwise the error is one of
// ErrNotSplittable's and d is unchanged.
//
// newWork is called on the caller's goroutine, once for each goroutine
// that makes ranges; the function it returns makes one range at a time.
// It reads the range's tokens from rd (an ArrayStart, whose length is not
// the table's, the rows, an ArrayEnd, then io.EOF) and writes what it
// makes of them to *out, which holds what an earlier range's work left
// there once emit has had it (or is the zero O): work clears it first.
// It reports whether the range failed: an error,
// or anything else whose output depends on where the range stands in the
// table (a line number). A range that failed, or whose row count does not
// fit the table's, is made again on the caller's goroutine with rd the
// decoder of the placed range (Table.RangeDecoder), whose errors and
// line numbers are those of the whole document's decoder; work then
// starts with *out as the failed attempt left it and must clear it. The
// second attempt's report is not acted on: emit gets its output.
//
// emit gets each range once, placed (its Line, FirstRow and Rows are the
// table's), with what work made of it; it returns false to stop. When it
// does, ParallelTable returns ErrSplitStopped, and d then fails with that
// error. Otherwise ParallelTable returns nil with d past the rows, as
// StreamTable leaves it: the next token is the table's ArrayEnd.
//
// Every goroutine it starts has ended when ParallelTable returns; a panic
// of work is raised again on the caller's goroutine.
func ParallelTable[O any](d *Decoder, workers, size int, newWork func() func(rd *Decoder, out *O) (failed bool),
	emit func(r Range, out *O) bool) error {
	t, line0, err := d.newTable()
	if err != nil {
		return err
	}
	if !runTable(t, line0, max(workers, 1), max(size, splitMin), newWork, emit) {
		d.err = ErrSplitStopped
		return ErrSplitStopped
	}
	d.skipTable(t)
	return nil
}

// cutJob is one range of a run: cut, made by a worker, placed by the caller.
type cutJob[O any] struct {
	ordered.Job
	r      Range
	out    O
	failed bool
	found  rangeMode        // what the range's decoder found (rows, last, stopped)
	from   *ordered.Pool[O] // the pool of the goroutine that made it, which out goes back to
}

// runTable is ParallelTable's work on t, whose rows start at line line0; it
// reports whether emit took every range. On true, t.End, t.Rows and
// t.Ranges (the last range alone, placed) are set, for skipTable.
func runTable[O any](t *Table, line0, workers, size int, newWork func() func(*Decoder, *O) bool, emit func(Range, *O) bool) bool {
	o := ordered.New(workers, func() func(*cutJob[O]) {
		work := newWork()
		rd := &Decoder{}
		pool := &ordered.Pool[O]{}
		fresh := true
		return func(j *cutJob[O]) {
			if !fresh {
				t.ResetRange(rd, j.r)
			} else {
				t.initRange(rd, j.r)
				fresh = false
			}
			j.out, _ = pool.Get() // or the zero O
			j.from = pool
			j.failed = work(rd, &j.out)
			j.found = rd.rng
		}
	})
	defer o.End()
	var again func(*Decoder, *O) bool // the caller's work, for ranges made again
	var rd *Decoder

	// The place of the next range to take back: its first line's number,
	// its first row's index, and the content line before it.
	next := Range{Line: line0, prev: t.hdrOff, prevLine: t.HeaderLine}
	at, end := int(t.Start), len(t.data)
	for sent := false; ; {
		// (A table with no rows, at the input's end, has one empty range.)
		for (at < end || !sent) && !o.Full() {
			sent = true
			e := t.cutRange(at, size)
			j := &cutJob[O]{r: Range{Start: int64(at), End: int64(e), Line: 1, FirstRow: min(at-int(t.Start), 1), cut: true}}
			o.Send(j)
			at = e
		}
		j, ok := o.Next()
		if !ok {
			return false // work panicked: o.End raises it again
		}
		r, f := next, &j.found
		r.Start, r.End = j.r.Start, j.r.End
		r.Rows = f.rows
		stops := f.stopped || r.End == int64(end)
		// A range whose work did not read it to its end failed too.
		redo := j.failed || !f.ended || next.FirstRow+f.rows > t.Len
		if stops || redo {
			p := t.place(r)
			redo = redo || p.Rows != f.rows || (p.final && p.FirstRow+p.Rows != t.Len)
			r = p
		}
		if redo {
			if again == nil {
				again = newWork()
				rd = t.RangeDecoder(r)
			} else {
				t.ResetRange(rd, r)
			}
			again(rd, &j.out)
		}
		if !emit(r, &j.out) {
			return false
		}
		j.from.Put(j.out)
		if r.final {
			t.End, t.Rows, t.Ranges = r.End, r.FirstRow+r.Rows, []Range{r}
			return true
		}
		// The next range starts where this one ends.
		switch {
		case redo:
			if r.Rows > 0 {
				next.prevLine, next.prev = r.after(t)
			}
			next.Line += r.lines
		default:
			if f.rows > 0 {
				next.prevLine, next.prev = next.Line+f.last.num-1, f.last.off
			}
			next.Line += f.lines
		}
		next.FirstRow += r.Rows
	}
}

// cutRange returns the end of the range that starts at at and holds about
// size bytes: the first line start at or after at+size whose line before
// it stands as a row (boundary), or the end of the input. Past the table's
// end, where the range's decoder stops, the search may read far (to the
// input's end when no line there stands as a row); it reads each byte at
// most once in a run, as the next range starts where it stopped.
func (t *Table) cutRange(at, size int) int {
	end := len(t.data)
	if at+size >= end {
		return end
	}
	if e := t.boundary(at+size, end); e > 0 {
		return e
	}
	return end
}

// place returns r, a range that was cut and whose place in the table is
// now known (Line, FirstRow, prev), as StreamTable would have found it:
// its rows and lines counted, and, when the table ends in it, cut short
// after its last row (or what stands as one) and final.
func (t *Table) place(r Range) Range {
	sc := t.scan(int(r.Start), int(r.End))
	r.cut = false
	r.Rows, r.lines = sc.rows, sc.lines
	if sc.stopped || int(r.End) == len(t.data) {
		t.endAt(&r, sc.end)
	}
	return r
}
