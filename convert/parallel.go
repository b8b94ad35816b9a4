package convert

import (
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/toonstream/toon"
)

// This file converts the rows of a large table on several goroutines. When
// ToJSONBytes or ToJSONFile meets a flat table of many rows (compact
// output, strict mode, more than one CPU), the decoder splits the table
// into ranges of whole rows (toon.Decoder.SplitTable) and steps past
// them; workers convert ranges, each with a decoder of its own
// (Table.RangeDecoder) and a jsonWriter of its own that writes into an
// in-memory buffer, and the converting goroutine writes the buffers to
// the output in order. The JSON of a range is what the serial loop
// (tableRows) writes for its rows, so the output is the serial output,
// byte for byte; a range's decoder reports the errors of its lines as the
// whole document's decoder does, and the first range with an error, in
// order, ends the conversion with it, after the output of the ranges
// before it (and what its own worker wrote before the error).
//
// Memory is bounded: at most parAhead ranges past the one being written
// are converted or waiting, each of about parRange bytes of TOON.

const (
	parMinRows  = 4096      // tables with fewer declared rows are converted in line
	parMinBytes = 1 << 20   // ... and so are tables in smaller inputs
	parRange    = 512 << 10 // bytes of TOON per range
)

// parallel is the state of parallel table conversion for one ToJSON call.
type parallel struct {
	workers  int   // goroutines that convert ranges
	size     int64 // the input's size
	rng      int   // bytes per range (parRange; smaller in tests)
	minRows  int   // tables with fewer declared rows stay serial
	minBytes int   // ... and so do tables followed by fewer bytes of input
	mapped   bool  // the input is a mapping: workers turn faults into panics
	// done, when not nil, is called on the converting goroutine after the
	// output of each range, with the range's bytes of input (mapped.go
	// releases the pages and reports progress).
	done func(start, end int64)

	ranges int // ranges converted, for tests

	free []*[]byte // output buffers not in use (buffer)
}

// parallelFor returns the parallel state for a conversion of an input of
// size bytes held in memory, or nil when the conversion stays serial.
func parallelFor(c *config, size int) *parallel {
	workers := c.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers < 2 || !c.strict || c.jsonIndent != 0 || (size < parMinBytes && c.workers == 0) {
		return nil
	}
	rng := parRange
	if c.parRange > 0 {
		rng = c.parRange
	}
	p := &parallel{workers: workers, size: int64(size), rng: rng, minRows: parMinRows, minBytes: parMinBytes}
	if c.workers > 0 {
		p.minRows, p.minBytes = minTableRows, 0
	}
	return p
}

// parJob is one range to convert, and what came of it.
type parJob struct {
	r     toon.Range
	out   *[]byte // the range's JSON
	rows  bool    // the range wrote at least one row
	err   error   // a decoding error
	werr  error   // an error of the output (never expected: out is memory)
	panic any     // a panic of the worker, raised again by the writer
	done  chan struct{}
	// taken is set by the goroutine that converts the range: a worker, or
	// the converting goroutine when it helps.
	taken atomic.Bool
}

// buffer returns an output buffer for a range: one a range before used,
// one a conversion before used, or a new one. Within a conversion the
// buffers are kept by the parallel state, not only in a sync.Pool, which
// drops them at every collection: a few megabytes allocated again and
// again would make the collector run often, and each run stops the
// workers.
func (p *parallel) buffer() *[]byte {
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		*b = (*b)[:0]
		return b
	}
	if b, ok := parBufs.Get().(*[]byte); ok {
		*b = (*b)[:0]
		return b
	}
	return new([]byte)
}

// parBufs keeps output buffers from one conversion to the next, for as
// long as the collector lets it (a conversion keeps its own in free).
var parBufs sync.Pool

// putBuffers hands the conversion's buffers to parBufs.
func (p *parallel) putBuffers() {
	for i, b := range p.free {
		parBufs.Put(b)
		p.free[i] = nil
	}
	p.free = p.free[:0]
}

// table converts the rows of the flat table whose ArrayStart jw has just
// written, if the decoder can split it, and reports whether it did; dec
// is then past the table's rows, its next token the table's ArrayEnd, and
// jw's state is after the last row. It returns the first decoding error;
// an error of the output is in jw.err.
//
// The table is split as it is converted (toon.Decoder.StreamTable): each
// range is handed to the workers as soon as it is found, and the output
// of the oldest is written whenever more than ahead ranges are in flight,
// so that the input touched and the output held stay bounded.
func (p *parallel) table(jw *jsonWriter, dec *toon.Decoder) (bool, error) {
	if p.size-dec.InputOffset() < int64(p.minBytes) {
		return false, nil
	}
	depth := jw.depth      // the array's: rows are one deeper
	ahead := 2 * p.workers // ranges in flight past the one being written
	jobs := make(chan *parJob, ahead+2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var pending []*parJob
	var panicked any
	// The workers have ended when table returns, whatever happens; a
	// panic of one is raised again here, after they have.
	defer func() {
		close(stop)
		close(jobs)
		wg.Wait()
		for _, j := range pending {
			p.free = append(p.free, j.out)
		}
		p.putBuffers()
		if panicked != nil {
			panic(panicked)
		}
	}()

	wrote := false // a row has been written
	var failed error
	// write writes the output of the oldest range in flight, once it is
	// done, and reports whether the conversion goes on.
	var helper workerState // the converting goroutine's, when it helps
	defer helper.release()
	var tab *toon.Table // set by the first range
	write := func() bool {
		j := pending[0]
	wait:
		for {
			select {
			case <-j.done:
				break wait
			default:
			}
			if !p.help(&helper, tab, depth, pending) {
				<-j.done
				break
			}
		}
		if j.panic != nil {
			panicked = j.panic
			return false
		}
		if j.rows && wrote {
			jw.write([]byte{','})
		}
		jw.write(*j.out)
		wrote = wrote || j.rows
		pending = pending[1:]
		p.free = append(p.free, j.out)
		p.ranges++
		switch {
		case j.err != nil:
			failed = j.err
		case j.werr != nil:
			failed = j.werr
		case jw.err != nil:
		default:
			if p.done != nil {
				p.done(j.r.Start, j.r.End)
			}
			return true
		}
		return false
	}
	started := 0
	_, err := dec.StreamTable(p.rng, func(t *toon.Table, r toon.Range) bool {
		tab = t
		// The converting goroutine is one of the workers (help).
		if started < max(p.workers-1, 1) {
			started++
			wg.Add(1)
			go p.worker(tab, depth, jobs, stop, &wg)
		}
		j := &parJob{r: r, out: p.buffer(), done: make(chan struct{})}
		pending = append(pending, j)
		jobs <- j
		for len(pending) > ahead {
			if !write() {
				return false
			}
		}
		return true
	})
	if errors.Is(err, toon.ErrNotSplittable) {
		return false, nil
	}
	for err == nil && len(pending) > 0 {
		if !write() {
			break
		}
	}
	if panicked != nil || failed != nil || jw.err != nil {
		return true, failed
	}
	jw.depth = depth
	jw.next = needNothing
	if wrote {
		jw.next = needComma
	}
	return true, nil
}

// worker converts the jobs it takes from jobs until jobs is closed; once
// stop is closed it only marks them not run.
func (p *parallel) worker(tab *toon.Table, depth int, jobs <-chan *parJob, stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	if p.mapped {
		// A fault in the mapping (the file shrank) must be a panic here
		// too, which the writer raises again on the goroutine whose
		// guard turns it into an error (mapped.go).
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	var ws workerState
	defer ws.release()
	for j := range jobs {
		if !j.taken.CompareAndSwap(false, true) {
			continue // the converting goroutine took it (help)
		}
		select {
		case <-stop:
			j.err = errStopped
		default:
			p.convert(&ws, tab, depth, j)
		}
		close(j.done)
	}
}

// workerState is what a goroutine that converts ranges keeps from one
// range to the next: a JSON writer with the table's prefixes, and a range
// decoder.
type workerState struct {
	wj   *jsonWriter
	flat bool
	rd   *toon.Decoder
}

func (ws *workerState) release() {
	if ws.wj != nil {
		ws.wj.release()
	}
}

// help converts, on the converting goroutine, the oldest range in
// pending that no worker has taken, and reports whether there was one.
// The converting goroutine helps while it waits for the range it is to
// write next, so that ranges go on being converted when the workers'
// threads do not get a CPU (a loaded machine): the conversion is then no
// slower than the serial one, less what the workers did.
func (p *parallel) help(ws *workerState, tab *toon.Table, depth int, pending []*parJob) bool {
	for _, j := range pending {
		if j.taken.CompareAndSwap(false, true) {
			p.convert(ws, tab, depth, j)
			close(j.done)
			return true
		}
	}
	return false
}

// convert writes the JSON of j's rows into j.out, as tableRows writes them
// after the table's ArrayStart (or the rows before an error), without the
// table's ArrayEnd.
func (p *parallel) convert(ws *workerState, tab *toon.Table, depth int, j *parJob) {
	defer func() {
		if v := recover(); v != nil {
			j.panic = v
		}
	}()
	if ws.wj == nil {
		ws.wj = newJSONWriter(nil, 0)
		ws.flat = ws.wj.tab.setTable(tab.Fields)
	}
	wj, flat := ws.wj, ws.flat
	if ws.rd == nil {
		ws.rd = tab.RangeDecoder(j.r)
	} else {
		tab.ResetRange(ws.rd, j.r)
	}
	dec := ws.rd
	dec.Token() // the range's ArrayStart
	wj.err = nil
	wj.keepOutput(j.out)
	wj.depth, wj.next = depth, needNothing
	var err error
	if flat {
		err = tableRows(wj, dec, &wj.tab)
	} else {
		err = errors.New("convert: parallel table with nested fields")
	}
	closed := wj.depth < depth // tableRows wrote the table's ArrayEnd
	wj.flushEnd()
	j.werr = wj.err
	if err == nil && j.werr == nil {
		// The range's decoder ends after its ArrayEnd, unless the line
		// that ended the rows is an error (as the serial decoder
		// reports it after the ArrayEnd too).
		if _, err = dec.Token(); err == io.EOF {
			err = nil
		}
		if err == nil && closed {
			// Drop the range's ArrayEnd: the table's own is written
			// after the last range.
			cut := 1
			if depth == 1 {
				cut = 2 // a root array's ']' and its newline
			}
			*j.out = (*j.out)[:len(*j.out)-cut]
		}
	}
	j.err = err
	j.rows = len(*j.out) > 0 && (*j.out)[0] == '{'
}
