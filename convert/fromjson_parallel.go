package convert

import (
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
	opipe "github.com/toonstream/toon/internal/ordered" // (convert_test.go has a function called ordered)
)

// This file encodes the rows of large flat tables on several goroutines,
// in FromJSON's second pass.
//
// JSON cannot be cut at any byte (a string may hold anything), but the
// first pass reads every byte anyway. When the input can be read at any
// offset (a mapping, or an io.ReaderAt) and more than one goroutine may
// encode (encWorkers), it records the table's row ranges: runs of rows
// that it matched whole with the table's template (lexer.matchRow), of
// about encRangeBytes of input each. A range is where its first row
// starts, just after the row before it (the lexer's state is lxAfter
// there), where its last row ends, and how many rows it holds. The far
// half's helper (ahead.go) records the ranges of the rows it reads. The
// ranges go to a spill of their own, and the table's record in the table
// stream says which are its own.
//
// In the second pass, when the lexer stands at the start of the table's
// next range, the range goes to the workers of an ordered pipeline
// (internal/ordered) and the lexer jumps to its end. A worker reads the
// range with a lexer of its own, matching each row with the same template
// as the serial path (lexer.matchNext), and gives its cells the values
// the serial path gives them (cellValues), written into a toon.RowBlock by
// AppendRow, which writes what WriteRow writes. The emitter writes the
// blocks in order (Encoder.WriteRowBlock), and the rows between ranges
// itself, after the blocks before them. While it waits for the oldest
// block, it encodes ranges no worker has taken yet, so that it is never
// much slower than the serial path when the workers' threads get no CPU.
//
// Nothing of a range is taken on trust: a worker that does not read
// exactly the range's rows, each matched with the template and ending at
// the range's end, or meets any error (a line too long, a cell that
// cannot be written), fails the range. The emitter then drops the ranges
// after it, moves its lexer back to the failed range's start and encodes
// the rest of the table on the serial path, which writes the same rows or
// reports the error exactly as it would have without the workers.
//
// Memory stays bounded: encAhead ranges (or 2*workers) are in flight
// past the one being written, each with a block of about half its
// input; the emitter releases the pages of a mapping as it takes back
// the ranges that read them, in order (releaseTo).

// encRangeBytes is the input of a range, unless a test sets another size.
const encRangeBytes = 512 << 10

// encAhead is the least number of ranges in flight past the one being
// written. Under load a worker's thread may wait for a CPU for many
// milliseconds while it holds the oldest range; meanwhile the emitter
// encodes the next ranges itself, as many as the window holds, rather
// than wait (and then wait again for a CPU once woken).
const encAhead = 16

// helperRanges is the most ranges the first pass's helper keeps in
// memory: past it, it joins them two by two.
const helperRanges = 1 << 14

// encRange is a run of rows of a table, at input offsets [start, end).
type encRange struct {
	start, end int64
	rows       int64
}

// encRangeLen is the size of a range in the range stream.
const encRangeLen = 24

// encWorkers returns the number of goroutines, the calling one included,
// that encode a large table's rows.
func (c *config) encWorkers() int {
	if c.workers > 0 {
		return c.workers
	}
	if !c.pipeline() {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// encRangeSize returns the bytes of input per range.
func (c *config) encRangeSize() int64 {
	if c.parRange > 0 {
		return int64(c.parRange)
	}
	return encRangeBytes
}

// ---- First pass ----

// addRange writes r, a range of the rows of the array f, to the range
// stream. An array's ranges are consecutive in the stream (a table's
// rows hold no array, whose ranges could come between); an array whose
// ranges are not has none.
func (p *planner) addRange(f *p1frame, r encRange) error {
	switch {
	case f.rn < 0:
		return nil
	case f.rn == 0:
		f.rfirst = p.ranges.size()
	case p.ranges.size() != f.rfirst+int64(f.rn)*encRangeLen:
		f.rn = -1
		return nil
	}
	f.rn++
	var b [encRangeLen]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(r.start))
	binary.LittleEndian.PutUint64(b[8:], uint64(r.end))
	binary.LittleEndian.PutUint64(b[16:], uint64(r.rows))
	return p.ranges.write(b[:]...)
}

// closeRun ends the open run of matched rows of f, at the lexer's offset,
// writing its rows as a range unless they are too few to be worth one.
func (p *planner) closeRun(f *p1frame) error {
	if f.runAt < 0 {
		return nil
	}
	at := f.runAt
	f.runAt = -1
	if off := p.lx.base + int64(p.lx.i); f.n > f.runRow && off-at >= p.rangeSize/4 {
		return p.addRange(f, encRange{start: at, end: off, rows: int64(f.n - f.runRow)})
	}
	return nil
}

// joinRanges takes the ranges of the helper a, whose rows joinAhead has
// just added to f: the open run ends where the helper's rows start.
func (p *planner) joinRanges(f *p1frame, a *ahead) error {
	if p.ranges == nil {
		return nil
	}
	if f.runAt >= 0 {
		if rows := f.n - a.rows - f.runRow; rows > 0 {
			if err := p.addRange(f, encRange{start: f.runAt, end: a.from.Load(), rows: int64(rows)}); err != nil {
				return err
			}
		}
		f.runAt = -1
	}
	for _, r := range a.ranges {
		if err := p.addRange(f, r); err != nil {
			return err
		}
	}
	return nil
}

// runRanges cuts a run of matched rows into ranges of size bytes (none if
// size is 0), in memory: the helper's.
type runRanges struct {
	size   int64
	at     int64 // where the open range starts
	rowsAt int   // rows before it
	out    []encRange
}

func (r *runRanges) start(size, at int64) { r.size, r.at = size, at }

// row is told of each row matched: off is where it ends, rows the rows so
// far.
func (r *runRanges) row(off int64, rows int) {
	if r.size == 0 || off-r.at < r.size {
		return
	}
	r.out = append(r.out, encRange{start: r.at, end: off, rows: int64(rows - r.rowsAt)})
	r.at, r.rowsAt = off, rows
	if len(r.out) == helperRanges {
		// The ranges are consecutive: join them two by two.
		for i := 0; i+1 < len(r.out); i += 2 {
			a, b := r.out[i], r.out[i+1]
			r.out[i/2] = encRange{start: a.start, end: b.end, rows: a.rows + b.rows}
		}
		r.out = r.out[:len(r.out)/2]
		r.size *= 2
	}
}

// end ends the run at off after rows rows and returns its ranges.
func (r *runRanges) end(off int64, rows int) []encRange {
	if r.size > 0 && rows > r.rowsAt && off-r.at >= r.size/4 {
		r.out = append(r.out, encRange{start: r.at, end: off, rows: int64(rows - r.rowsAt)})
	}
	return r.out
}

// ---- Second pass ----

// encPar is the state of the second pass's parallel encoding.
type encPar struct {
	workers int
	ranges  io.Reader // the range stream
	pos     int64     // bytes of it read
	next    encRange  // the current table's next range, when have
	have    bool

	// The input, for the workers: a mapping read in place (mem), or an
	// io.ReaderAt with the JSON at raStart, size bytes long.
	mem     []byte
	ra      io.ReaderAt
	raStart int64
	size    int64
	// in is the mapped input, if mem is a mapping; relTo is where the
	// pages not yet released start while ranges are in flight (holdPages).
	in    *fileInput
	relTo int64

	lines   bool // the input is JSON Lines: the root array's rows follow recSep
	bufSize int  // the workers' lexer buffers
	maxLine int

	// empty is an empty block of the open table, which a worker copies
	// when it has no block of its own to fill (blocks).
	empty *toon.RowBlock

	jobs   int // ranges encoded by the pipeline (tests)
	redone int // ranges that failed and were encoded again serially (tests)
}

// encJob is a range to encode, and its rows once encoded.
type encJob struct {
	opipe.Job
	r    encRange
	blk  *toon.RowBlock
	ok   bool                        // blk holds the range's rows
	from *opipe.Pool[*toon.RowBlock] // the pool of the worker that made it, which blk goes back to once written
	tmpl *toon.RowBlock              // an empty block of the table, for a worker with none
}

func newEncPar(c *config, src *source, ranges io.Reader, ra io.ReaderAt, raStart, size int64) *encPar {
	p := &encPar{
		workers: c.encWorkers(),
		ranges:  ranges,
		ra:      ra,
		raStart: raStart,
		size:    size,
		lines:   c.lines != nil,
		bufSize: c.bufSize,
		maxLine: c.maxLine,
	}
	if in, ok := src.r.(*fileInput); ok && in.data != nil {
		p.mem, p.in = in.data, in
	}
	return p
}

// readRanges reads the end of a table record: its ranges. The next range
// the emitter takes is the table's first.
func (e *emitter) readRanges() error {
	n, err := binary.ReadUvarint(e.tables)
	if err != nil {
		return errPlan
	}
	e.rn = 0
	if e.par != nil {
		e.par.have = false
		e.par.empty = nil // made for the last table
	}
	if n == 0 {
		return nil
	}
	first, err := binary.ReadUvarint(e.tables)
	if err != nil {
		return errPlan
	}
	p := e.par
	if p == nil || int64(first) < p.pos {
		return nil // not parallel, or not in order: serial
	}
	if _, err := io.CopyN(io.Discard, p.ranges, int64(first)-p.pos); err != nil {
		return errPlan
	}
	p.pos = int64(first)
	e.rn = int(n)
	return nil
}

// nextRange makes the table's next range the current one, if it has one.
func (e *emitter) nextRange() error {
	p := e.par
	if p.have || e.rn == 0 {
		return nil
	}
	var b [encRangeLen]byte
	if _, err := io.ReadFull(p.ranges, b[:]); err != nil {
		return errPlan
	}
	p.pos += encRangeLen
	e.rn--
	p.next = encRange{
		start: int64(binary.LittleEndian.Uint64(b[0:])),
		end:   int64(binary.LittleEndian.Uint64(b[8:])),
		rows:  int64(binary.LittleEndian.Uint64(b[16:])),
	}
	p.have = true
	return nil
}

// encDone, when tests set it, is called at the end of a FromJSON that
// encoded ranges in parallel, with the ranges handed to the pipeline
// and those of them that failed and were encoded again serially.
var encDone func(jobs, redone int)

// errRedo is parallelRows's signal that a range failed: the lexer is
// back at its start, and the table goes on serially.
var errRedo = errors.New("convert: a range to encode serially")

// errPanicked stands for a worker's panic, which the pipeline's End
// raises again.
var errPanicked = errors.New("convert: a range worker panicked")

// parallelRows is matchRows for a table with ranges: it hands each range
// the lexer reaches to the workers, writes their blocks in order, and
// writes the rows between ranges itself.
func (e *emitter) parallelRows(cells []mcell, vals []toon.Value) (err error) {
	p := e.par
	var o *opipe.Pipeline[*encJob]
	defer func() {
		if o != nil {
			o.End()
			p.unholdPages()
		}
	}()
	// drain writes every block in flight.
	drain := func() error {
		for o != nil && !o.Idle() {
			if err := e.writeBlock(o); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		if err := e.nextRange(); err != nil {
			return err
		}
		off := e.lx.base + int64(e.lx.i)
		for p.have && p.next.start < off { // behind the lexer: not a range of these rows
			p.have = false
			if err := e.nextRange(); err != nil {
				return err
			}
		}
		if p.have && p.next.start == off && e.lx.state == lxAfter {
			if o == nil {
				o = e.pipeline()
				p.holdPages(off)
			}
			j := p.job(e)
			j.r = p.next
			p.have = false
			o.Send(j)
			p.jobs++
			if err := e.lx.jump(j.r.end); err != nil {
				return err
			}
			for o.Full() {
				if err := e.writeBlock(o); err != nil {
					return e.redone(err)
				}
			}
			continue
		}
		if !e.lx.matchNext(&e.tmpl, cells) {
			break
		}
		// A row between ranges: it follows the rows in flight.
		if err := drain(); err != nil {
			return e.redone(err)
		}
		if err := cellValues(e.lx.buf, cells, vals, &e.row.data); err != nil {
			return err
		}
		if err := e.enc.WriteRow(vals...); err != nil {
			return err
		}
	}
	return e.redone(drain())
}

// redone turns errRedo into nil: the run loop goes on serially.
func (e *emitter) redone(err error) error {
	if err == errRedo {
		return nil
	}
	return err
}

// pipeline returns an ordered pipeline of the table's workers.
func (e *emitter) pipeline() *opipe.Pipeline[*encJob] {
	p := e.par
	// The rows of JSON Lines's root array follow recSep, not ','.
	lines := p.lines && len(e.lx.stack) == 1
	return opipe.NewAhead(p.workers, max(encAhead, 2*p.workers), func() func(*encJob) {
		w := &encWorker{p: p, t: &e.tmpl, lines: lines, cells: padded[mcell](len(e.tmpl.ends)), vals: padded[toon.Value](len(e.tmpl.ends))}
		return w.encode
	})
}

// The pages of a mapping that ranges in flight read are released by the
// emitter, in order, as it takes the ranges back, rather than by the
// workers and by the emitter's lexer as it jumps past them: each release
// interrupts the process's other running threads to flush their TLBs
// (mapped.go), and one goroutine releasing a few MiB at a time makes a
// few hundred such interrupts over a gigabyte where every worker's
// releases made thousands.

// holdPages starts the workers' reading of the mapping at input offset
// off: from there on, passed leaves the releases to releaseTo.
func (p *encPar) holdPages(off int64) {
	if p.in != nil {
		p.in.held, p.relTo = true, off
	}
}

// releaseTo releases the pages of the mapping before input offset off,
// which the ranges taken back and the rows between them have passed.
func (p *encPar) releaseTo(off int64) {
	if p.in != nil && off > p.relTo {
		p.in.release(p.relTo, off)
		p.relTo = off
	}
}

// unholdPages ends holdPages once no range is in flight: it releases
// what the emitter's lexer has passed since the last range, and gives the
// releases back to passed.
func (p *encPar) unholdPages() {
	if p.in != nil && p.in.held {
		p.releaseTo(p.in.pos)
		p.in.held = false
	}
}

// job returns a job with an empty block for the open table.
func (p *encPar) job(e *emitter) *encJob {
	if p.empty == nil {
		blk, err := e.enc.NewRowBlock()
		if err != nil {
			// The table is open: this cannot happen. The worker fails
			// the range, and the serial path takes it.
			return &encJob{}
		}
		p.empty = blk
	}
	return &encJob{tmpl: p.empty}
}

// writeBlock writes the oldest block in flight, once it is made. If its
// range failed, it drops the ranges in flight, moves the lexer back to
// the range's start, ends the table's parallel encoding and returns
// errRedo.
func (e *emitter) writeBlock(o *opipe.Pipeline[*encJob]) error {
	p := e.par
	j, ok := o.Next()
	if !ok {
		return errPanicked // End raises the panic again
	}
	if !j.ok {
		for !o.Idle() {
			if _, ok := o.Next(); !ok {
				return errPanicked
			}
		}
		p.redone++
		e.rn, p.have = 0, false
		if err := e.lx.jump(j.r.start); err != nil {
			return err
		}
		e.lx.state = lxAfter
		return errRedo
	}
	p.releaseTo(j.r.end)
	if err := e.enc.WriteRowBlock(j.blk); err != nil {
		return err
	}
	j.from.Put(j.blk)
	return nil
}

// encWorker is what a goroutine that encodes ranges keeps from one range
// to the next.
type encWorker struct {
	_     linePad
	p     *encPar
	t     *rowTemplate // the emitter's, which does not change while ranges are in flight
	lines bool         // the table is the root array of JSON Lines
	lx    *lexer
	cells []mcell
	vals  []toon.Value
	data  []byte
	pool  opipe.Pool[*toon.RowBlock] // the blocks it filled, once written
	_     linePad
}

// linePad keeps what lies before it and after it in memory on other
// cache lines: 128 bytes, since a core fetches lines in pairs. The
// pipeline makes its workers' states one after another on the emitter's
// goroutine, where they come out side by side in memory. Unpadded, two
// workers wrote their own fields and cells on each row to the same
// lines, which then went back and forth between the cores: the second
// pass used a third more CPU time with two workers than with one, and
// 7% more CPU and 4.5% more wall time than it does padded.
type linePad [128]byte

// padded returns a slice of n T's with room after them for a linePad
// (see there).
func padded[T any](n int) []T {
	return make([]T, n, n+len(linePad{})/int(mem.Sizeof[T]())+1)
}

// encode writes the rows of j's range into its block, and sets j.ok if
// they are exactly the range's rows, all matched with the template and
// written without an error.
func (w *encWorker) encode(j *encJob) {
	if w.p.mem != nil {
		// A fault in the mapping (the file shrank) must be a panic here
		// too: End raises it again on the emitter's goroutine, whose
		// guard turns it into an error (mapped.go).
		// (The emitter releases the range's pages once it has taken the
		// range back: releaseTo.)
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	j.ok = false
	if j.tmpl == nil {
		return
	}
	blk, ok := w.pool.Get()
	if !ok {
		b := *j.tmpl // an empty block of the table is a value, and a copy of it is another
		blk = &b
	}
	j.blk, j.from = blk, &w.pool
	j.blk.Reset(0) // (a row's index only names it in an error, which the serial path reports)
	lx := w.lexerAt(j.r.start)
	for range j.r.rows {
		if !lx.matchNext(w.t, w.cells) {
			return
		}
		if cellValues(lx.buf, w.cells, w.vals, &w.data) != nil {
			return
		}
		if j.blk.AppendRow(w.vals...) != nil {
			return
		}
	}
	j.ok = lx.base+int64(lx.i) == j.r.end
}

// lexerAt returns the worker's lexer, in an array between two elements at
// input offset off.
func (w *encWorker) lexerAt(off int64) *lexer {
	p := w.p
	lx := w.lx
	if lx == nil {
		lx = &lexer{maxTok: p.maxLine, lines: w.lines, stack: []byte{'['}}
		if p.mem != nil {
			lx.mem, lx.win = p.mem, max(p.bufSize, 16)
		} else {
			lx.buf = make([]byte, 0, max(p.bufSize, 16))
		}
		w.lx = lx
	}
	lx.i, lx.state, lx.long = 0, lxAfter, false
	if p.mem != nil {
		lx.window(off)
		return lx
	}
	lx.r = io.NewSectionReader(p.ra, p.raStart+off, p.size-off)
	lx.buf, lx.base, lx.eof, lx.rerr = lx.buf[:0], off, false, nil
	return lx
}
