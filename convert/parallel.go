package convert

import (
	"errors"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/toonstream/toon"
)

// This file converts the rows of a large table on several goroutines. When
// ToJSONBytes or ToJSONFile meets a flat table of many rows (compact
// output, strict mode, more than one CPU), toon.ParallelTable cuts the
// table into ranges of whole rows and hands them to goroutines that each
// convert ranges with a jsonWriter of their own, writing into an in-memory
// buffer; the converting goroutine writes the buffers to the output in
// order. The JSON of a range is what the serial loop (tableRows) writes
// for its rows, so the output is the serial output, byte for byte; a range
// whose conversion failed is converted again by ParallelTable once its
// place in the table is known, so that its error is the whole document's
// decoder's, and the first range with an error, in order, ends the
// conversion with it, after the output of the ranges before it (and what
// its own conversion wrote before the error).
//
// Memory is bounded: ParallelTable holds a few ranges past the one being
// written, each of about parRange bytes of TOON.

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

// parOut is what the conversion of one range made.
type parOut struct {
	buf  *[]byte // the range's JSON
	rows bool    // the range wrote at least one row
	err  error   // a decoding error
	werr error   // an error of the output (never expected: buf is memory)
}

// table converts the rows of the flat table whose ArrayStart jw has just
// written, if the decoder can split it, and reports whether it did; dec
// is then past the table's rows, its next token the table's ArrayEnd, and
// jw's state is after the last row. It returns the first decoding error;
// an error of the output is in jw.err.
func (p *parallel) table(jw *jsonWriter, dec *toon.Decoder) (bool, error) {
	if p.size-dec.InputOffset() < int64(p.minBytes) {
		return false, nil
	}
	depth := jw.depth // the array's: rows are one deeper
	var states []*workerState
	defer func() {
		for _, ws := range states {
			ws.release()
		}
	}()
	wrote := false // a row has been written
	var failed error
	err := toon.ParallelTable(dec, p.workers, p.rng, func() func(*toon.Decoder, *parOut) bool {
		ws := &workerState{}
		states = append(states, ws)
		return func(rd *toon.Decoder, o *parOut) bool {
			if p.mapped {
				// A fault in the mapping (the file shrank) must be a
				// panic here too, which ParallelTable raises again on the
				// goroutine whose guard turns it into an error
				// (mapped.go).
				defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			}
			if o.buf == nil {
				// A new range's buffer: ParallelTable hands the buffers
				// of the ranges written to the ranges cut after them.
				// It is made about the size of a range's JSON, which
				// is about twice its TOON in a table: grown from
				// empty, it was copied a dozen times on the way.
				b := make([]byte, 0, 2*p.rng+jsonBufSize)
				o.buf = &b
			}
			p.convert(ws, rd, depth, o)
			return o.err != nil || o.werr != nil
		}
	}, func(r toon.Range, o *parOut) bool {
		out := *o.buf
		if o.rows && !wrote {
			out = out[1:] // the table's first row: no comma before it
		}
		jw.write(out)
		wrote = wrote || o.rows
		p.ranges++
		switch {
		case o.err != nil:
			failed = o.err
		case o.werr != nil:
			failed = o.werr
		case jw.err != nil:
		default:
			if p.done != nil {
				p.done(r.Start, r.End)
			}
			return true
		}
		return false
	})
	if errors.Is(err, toon.ErrNotSplittable) {
		return false, nil
	}
	if failed != nil || jw.err != nil {
		return true, failed
	}
	jw.depth = depth
	jw.next = needNothing
	if wrote {
		jw.next = needComma
	}
	return true, nil
}

// workerState is what a goroutine that converts ranges keeps from one
// range to the next: a JSON writer with the table's prefixes.
type workerState struct {
	wj   *jsonWriter
	flat bool
}

func (ws *workerState) release() {
	if ws.wj != nil {
		ws.wj.release()
	}
}

// convert writes the JSON of the rows dec reads into o.buf, as tableRows
// writes them after the table's ArrayStart (or the rows before an error),
// without the table's ArrayEnd.
func (p *parallel) convert(ws *workerState, dec *toon.Decoder, depth int, o *parOut) {
	*o.buf = (*o.buf)[:0]
	o.err, o.werr, o.rows = nil, nil, false
	start, err := dec.Token() // the range's ArrayStart
	if err != nil {
		o.err = err
		return
	}
	if ws.wj == nil {
		ws.wj = newJSONWriter(nil, 0)
		ws.flat = ws.wj.tab.setTable(start.Fields())
	}
	wj, flat := ws.wj, ws.flat
	wj.err = nil
	wj.keepOutput(o.buf)
	// A range's first row has a comma before it, which emit drops in the
	// first range with rows: the ranges' output then goes out whole,
	// with nothing written between them.
	wj.depth, wj.next = depth, needComma
	if flat {
		err = tableRows(wj, dec, &wj.tab)
	} else {
		err = errors.New("convert: parallel table with nested fields")
	}
	closed := wj.depth < depth // tableRows wrote the table's ArrayEnd
	wj.flushEnd()
	o.werr = wj.err
	if err == nil && o.werr == nil {
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
			*o.buf = (*o.buf)[:len(*o.buf)-cut]
		}
	}
	o.err = err
	o.rows = len(*o.buf) > 0 && (*o.buf)[0] == ','
}
