package toon

import (
	"io"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
)

// This file holds ParallelRows: Rows over a table split into ranges
// (split.go), each decoded into values by a worker, the values yielded in
// order on the caller's goroutine.

// parRowsRange is the bytes of TOON per range of ParallelRows.
var parRowsRange = 256 << 10

// ParallelRows is Rows with the rows decoded by up to workers goroutines
// (GOMAXPROCS when workers is 0), for a table whose rows cost more to
// decode into T than the caller's work on them: the table is split into
// ranges (Decoder.StreamTable), a worker decodes each range into values
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
	r      Range
	vals   []T
	errs   []error
	sticky bool // the last error ends the rows (RowDecoder's sticky error)
	panic  any
	done   chan struct{}
	taken  atomic.Bool // set by the goroutine that decodes it: a worker, or the caller (help)
}

// parallelRows yields the rows of the table whose ArrayStart d has just
// returned, decoded by workers.
func parallelRows[T any](d *Decoder, workers int, yield func(T, error) bool) {
	ahead := 2 * workers
	jobs := make(chan *rowsOut[T], ahead+2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var pending []*rowsOut[T]
	var panicked any
	defer func() {
		close(stop)
		close(jobs)
		wg.Wait()
		if panicked != nil {
			panic(panicked)
		}
	}()
	done := false // the caller stopped, or an error ended the rows
	// give yields the values of the oldest range once they are made.
	var hrd *Decoder // the caller's range decoder, when it helps
	var tab *Table
	give := func() bool {
		o := pending[0]
		// While it waits, the caller decodes the oldest range no worker
		// has taken, so that ranges go on being decoded when the workers'
		// threads get no CPU.
	wait:
		for {
			select {
			case <-o.done:
				break wait
			default:
			}
			helped := false
			for _, h := range pending {
				if h.taken.CompareAndSwap(false, true) {
					if hrd == nil {
						hrd = tab.RangeDecoder(h.r)
					} else {
						tab.ResetRange(hrd, h.r)
					}
					decodeRange(hrd, h)
					close(h.done)
					helped = true
					break
				}
			}
			if !helped {
				<-o.done
				break
			}
		}
		pending = pending[1:]
		if o.panic != nil {
			panicked = o.panic
			return false
		}
		for i := range o.vals {
			if !yield(o.vals[i], o.errs[i]) {
				done = true
				return false
			}
		}
		if o.sticky {
			done = true
			return false
		}
		return true
	}
	started := 0
	_, err := d.StreamTable(parRowsRange, func(t *Table, r Range) bool {
		tab = t
		if started < max(workers-1, 1) { // the caller is one of the workers (help)
			started++
			wg.Add(1)
			go rowsWorker(tab, jobs, stop, &wg)
		}
		o := &rowsOut[T]{r: r, done: make(chan struct{})}
		pending = append(pending, o)
		jobs <- o
		for len(pending) > ahead {
			if !give() {
				return false
			}
		}
		return true
	})
	if err != nil {
		return // stopped: the caller or an error ended the rows
	}
	for len(pending) > 0 {
		if !give() {
			return
		}
	}
	if !done {
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

// rowsWorker decodes the ranges it takes from jobs until jobs is closed;
// once stop is closed it only hands them back.
func rowsWorker[T any](tab *Table, jobs <-chan *rowsOut[T], stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	var rd *Decoder
	for o := range jobs {
		if !o.taken.CompareAndSwap(false, true) {
			continue // the caller took it
		}
		select {
		case <-stop:
		default:
			if rd == nil {
				rd = tab.RangeDecoder(o.r)
			} else {
				tab.ResetRange(rd, o.r)
			}
			decodeRange(rd, o)
		}
		close(o.done)
	}
}

// decodeRange decodes the rows of o's range from rd, as Rows does.
func decodeRange[T any](rd *Decoder, o *rowsOut[T]) {
	defer func() {
		if v := recover(); v != nil {
			o.panic = v
		}
	}()
	r := NewRowDecoder[T](rd)
	for {
		var v T
		err := r.Next(&v)
		if err == io.EOF {
			return
		}
		o.vals = append(o.vals, v)
		o.errs = append(o.errs, err)
		if r.err != nil {
			o.sticky = true
			return
		}
	}
}
