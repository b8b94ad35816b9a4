package toon

import "github.com/toonstream/toon/internal/mem"

// The token queue is Decoder.queue[qi:]: the tokens the decoder has made
// and Token has not yet returned. Token copies them out one at a time; when
// the queue is empty, the decoder refills it with the tokens of the next
// line, the next chunk of a long line, or the next rows of a table.
//
// The general path queues into memory of its own (a []Token that grows as
// a line needs). The fast path queues whole table rows into fast (a
// fastQueue), and the queue then views fast's memory until its tokens are
// taken; generalQueue switches back.

// queueMemory is the memory the token queue views.
type queueMemory struct {
	gq []Token // the general queue's memory while the queue views fast's
	// inFast reports that the queue views fast's memory.
	inFast bool
	// rowKept reports that the general queue's memory starts with a flat
	// row whose keys and braces are the open table's (see row), so that
	// the next row there needs only its cells written.
	rowKept bool
	fast    fastQueue
}

// generalQueue makes d.queue the general queue's memory again when it
// views the fast path's (its length is to be set by the caller): the fast
// path's tokens are done with, and the general path queues into memory of
// its own.
func (d *Decoder) generalQueue() {
	if d.inFast {
		d.queue, d.inFast = d.gq, false
	}
}

// dropQueue empties the queue, in the general queue's memory, and keeps
// the line of the last token returned in d.last, which Line and
// InputOffset report until a token of the next queue is taken. If the
// fast path queued that token, lineRefOf also makes its line d.line,
// which then stays the line of the tokens that come from no new line
// (where the input ends after the rows, the end of their table and of
// the scopes around it).
func (d *Decoder) dropQueue() {
	if d.qi > 0 {
		d.last = d.lineRefOf(d.qi - 1)
	}
	d.generalQueue()
	d.queue, d.qi = d.queue[:0], 0
}

// bulkQueue returns the fast path's queue with room for n tokens, making
// d.queue the general queue's memory first when fast's must grow. The
// memory grows by doubling, from what the first table needs, so that a
// document of small tables (and a decoder made for one document, as
// Unmarshal's) does not pay for a queue of bulkTokens.
func (d *Decoder) bulkQueue(n int) []Token {
	if d.fast.len() < n {
		d.generalQueue() // d.queue may view the old memory: let it go
		d.fast.grow(max(n, min(2*d.fast.len(), bulkTokens), 64))
	}
	return d.fast.tokens()[:n]
}

// fastQueue is the fast path's token memory. The garbage collector does
// not scan it: it is a []uint64 that the fast path views as []Token, so
// that typeRows, which cannot call the collector's write barrier, may store
// tokens' pointers there, and so that the Go code that stores them needs no
// barrier either. That is sound because every pointer stored there also
// lives in memory the collector does scan, for as long as the queue holds
// it:
//   - cells point into the line reader's buffer (lr.buf), which does not
//     move until the queue is empty (the line reader refills only from
//     step, which runs only then), or into scratch, which bulkRows grows
//     beforehand so that it does not move either, or at zeroByte;
//   - keys and headers come from the row template, kept in rowTmpl until
//     a header of other fields, which is read after the queue is empty
//     (a header of the same fields keeps the template, and so the copies
//     of it here: headerProg).
//
// Tokens leave the queue by copy (Token, Row), into memory the collector
// sees. Nothing may store into this memory with a typed store, whose write
// barrier would read the stale pointer it overwrites: every store goes
// through put or setRows. refill and Reset switch the decoder's queue back
// to the general queue (generalQueue) before anything else is queued, and
// grow drops the old memory only after that switch.
//
// The memory layout is the one typeRows (typerows_amd64.s) writes: a Token's
// three words, row after row.
type fastQueue struct {
	mem []uint64 // three words per token
	// templated is how many rows at the start of mem hold the open
	// table's row template (its keys and braces; see setRows).
	templated int
}

// len is how many tokens the memory holds.
func (f *fastQueue) len() int { return len(f.mem) / 3 }

// grow replaces the memory with room for n tokens; the old memory must no
// longer be viewed.
func (f *fastQueue) grow(n int) {
	f.mem = make([]uint64, 3*n)
	f.templated = 0
}

// tokens is the memory viewed as tokens. The view must be written only
// through put and setRows.
func (f *fastQueue) tokens() []Token {
	return mem.SliceAt[Token](mem.SliceData(f.mem), len(f.mem)/3)
}

// setRows makes the rows of q (f's memory) before upto copies of the row
// template tmpl, whose length is the row's, and records that they are.
func (f *fastQueue) setRows(q, tmpl []Token, upto int) {
	if upto > f.templated {
		f.copyRows(q, tmpl, upto)
	}
}

// copyRows is setRows's loop, kept out of it so that setRows inlines.
func (f *fastQueue) copyRows(q, tmpl []Token, upto int) {
	per := len(tmpl)
	for r := f.templated; r < upto; r++ {
		rawCopy(q[r*per:r*per+per], tmpl)
	}
	f.templated = upto
}

// newTemplate forgets what f holds of the last row template, when there is
// a new one.
func (f *fastQueue) newTemplate() { f.templated = 0 }

// putToken stores t at p, in the fast path's queue, without a write
// barrier (see fastQueue).
func putToken(p mem.Ptr, t Token) {
	mem.Store(p, rawToken{t.h, t.p.Uintptr(), t.n})
}

// rawCopy copies src into dst, in the fast path's queue, without write
// barriers (see fastQueue).
func rawCopy(dst, src []Token) {
	n := min(len(dst), len(src))
	if n == 0 {
		return
	}
	copy(mem.SliceAt[rawToken](mem.SliceData(dst), n), mem.SliceAt[rawToken](mem.SliceData(src), n))
}

// rawToken is a Token's layout without a pointer type.
type rawToken struct {
	h uint64
	p uintptr
	n int
}
