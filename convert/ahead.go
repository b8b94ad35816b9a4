package convert

import (
	"bytes"
	"io"
	"math"
	"runtime/debug"
	"sync/atomic"

	"github.com/toonstream/toon"
)

// The first pass spends its time on the rows of big tables, matching them
// against their template (lexer.matchRow) only to count them. When the
// input can be read at any offset (io.ReaderAt, as files can) and more
// than one CPU may run, a helper goroutine counts the far half of a big
// table while the first pass reads the near half:
//
//   - The helper guesses a row boundary in the middle of what is left of
//     the input: the first place where a ',' is followed by the template's
//     first piece (`,{"id":`). It publishes the guess, then matches rows
//     from there, exactly as the first pass would, until a row does not
//     match or it is told to stop.
//   - The first pass goes on matching rows. If it reaches the guessed
//     offset exactly between two rows of the table, with the lexer in the
//     state the helper assumed, the helper read the same text the same
//     way: the pass stops the helper, adds its count and jumps to where
//     the helper stopped, and starts a new helper for what is left. If the guess was wrong (inside a string, beyond the table),
//     the pass never lands on it, passes it or leaves the table, and
//     cancels the helper.
//
// matchRow is a function of the text and the template only, and a row it
// takes contributes nothing to the plan but its count, so the plan and the
// errors are the same as without the helper: every byte is still checked,
// the skipped rows by the helper.

// aheadMin is the least input left after a table's first row for the
// first pass to start a helper.
const aheadMin = 4 << 20

// ahead is a helper at work on the table whose frame is at depth.
type ahead struct {
	depth int
	lines bool          // the table is the root array of JSON Lines: rows follow recSep
	from  atomic.Int64  // the guessed boundary; MaxInt64 until known
	stop  atomic.Bool   // set by the first pass to cancel the helper
	found chan struct{} // closed once from is known or will never be
	done  chan struct{}
	rows  int   // rows matched, set before done is closed
	to    int64 // offset after the last of them
	// The row ranges of the rows matched, when the first pass records
	// them (fromjson_parallel.go): ranges of size bytes, set before done
	// is closed.
	size   int64
	ranges []encRange
}

// startAhead starts a helper for the table at the top of the stack, whose
// template is t, if the input allows it and is large enough.
func (p *planner) startAhead(t *rowTemplate) {
	if p.ra == nil || !p.c.pipeline() || len(p.lx.stack) >= lexMaxDepth {
		return
	}
	cur := p.lx.base + int64(p.lx.i)
	left := p.size - cur
	if left < int64(p.c.aheadMin) {
		return
	}
	a := &ahead{depth: len(p.stack), lines: p.lx.lines && len(p.stack) == 1, found: make(chan struct{}), done: make(chan struct{})}
	if p.ranges != nil {
		a.size = p.rangeSize
	}
	a.from.Store(math.MaxInt64)
	var tc rowTemplate // the helper's own copy
	for j, end := range t.ends {
		from := 0
		if j > 0 {
			from = t.ends[j-1]
		}
		tc.add(t.text[from:end])
	}
	tc.finish()
	p.ahead = a
	go a.run(p.ra, p.raStart, cur+left/2, &tc, p.c.bufSize)
}

func (a *ahead) run(ra io.ReaderAt, start, from int64, t *rowTemplate, bufSize int) {
	defer close(a.done)
	buf := make([]byte, 64<<10)
	n, _ := ra.ReadAt(buf, start+from)
	sep := byte(',')
	if a.lines {
		sep = recSep
	}
	pat := append([]byte{sep}, t.pieces[:t.pends[0]]...)
	k := bytes.Index(buf[:n], pat)
	if k < 0 {
		close(a.found)
		return
	}
	// The boundary is where the row before ends: the whitespace before
	// the separator (a CR or blank lines between JSON Lines records) is
	// the helper's to skip, so that the first pass, just after that row,
	// lands on it.
	for k > 0 && (buf[k-1] == ' ' || buf[k-1] == '\t' || buf[k-1] == '\r' || buf[k-1] == '\n') {
		k--
	}
	at := from + int64(k)
	var lx *lexer
	in, mapped := ra.(*fileInput)
	if mapped = mapped && in.data != nil && start == 0; mapped {
		// A mapping is read in place, as the first pass reads it, and
		// the pages passed are released as the window moves on.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		lx = &lexer{mem: in.data, win: max(bufSize, 16), maxTok: toon.DefaultMaxLineLength}
		rel := at
		lx.slid = func(base int64) {
			in.release(rel, base)
			rel = max(rel, base)
		}
		lx.window(at)
	} else {
		lx = newLexer(io.NewSectionReader(ra, start+at, math.MaxInt64-start-at), make([]byte, 0, bufSize))
		lx.base = at
	}
	lx.lines = a.lines
	lx.stack = append(lx.stack, '[')
	lx.state = lxAfter
	a.from.Store(at)
	close(a.found)
	cells := make([]mcell, len(t.ends))
	var run runRanges
	run.start(a.size, at)
	defer func() { // rows, to and ranges always agree
		if v := recover(); v != nil {
			if fe, ok := v.(interface{ Addr() uintptr }); !mapped || !ok || !in.holds(fe.Addr()) {
				panic(v)
			}
			// The file shrank: the first pass reads these rows itself,
			// and reports it.
			a.rows, a.ranges = 0, nil
			return
		}
		a.to = lx.base + int64(lx.i)
		a.ranges = run.end(a.to, a.rows)
	}()
	for !a.stop.Load() {
		for r := 0; r < 256; r++ {
			if !lx.matchNext(t, cells) {
				return
			}
			a.rows++
			run.row(lx.base+int64(lx.i), a.rows)
		}
	}
}

// cancelAhead stops the helper, if any, and forgets it.
func (p *planner) cancelAhead() {
	if a := p.ahead; a != nil {
		a.stop.Store(true)
		<-a.done
		p.ahead = nil
	}
}

// joinAhead is called before each row the first pass matches in the table
// f at the top of the stack. At the helper's boundary it takes the
// helper's rows and moves the lexer past them; past the boundary it
// cancels the helper. It reports whether it moved the lexer.
func (p *planner) joinAhead(f *p1frame) (bool, error) {
	a := p.ahead
	if a == nil || a.depth != len(p.stack) {
		return false, nil
	}
	if p.c.aheadWait {
		<-a.found // tests: take the helper's rows whenever its guess is right
	}
	at := a.from.Load()
	off := p.lx.base + int64(p.lx.i)
	switch {
	case off < at:
		return false, nil
	case off > at || p.lx.state != lxAfter:
		p.cancelAhead()
		return false, nil
	}
	if !p.c.aheadWait {
		// The helper stops where it is: the first pass goes on from
		// there (with a new helper for the far half of what is left),
		// rather than wait for a helper whose thread gets no CPU.
		// (Tests wait, so that the helper's rows are taken.)
		a.stop.Store(true)
	}
	<-a.done
	p.ahead = nil
	if a.rows == 0 {
		return false, nil
	}
	f.n += a.rows
	p.joined += a.rows
	return true, p.lx.jump(a.to)
}
