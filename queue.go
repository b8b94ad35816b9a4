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
//
// Both memories are pointer-free: the garbage collector does not scan
// them, and tokens are stored there without write barriers (appendToken,
// appendTokens, pushToken, setToken, and below them putToken and
// rawCopy). A barrier costs little on its own, but the decoder queues two
// or more tokens a line, and while the collector marks
// (much of the time when decoding into values it allocates, as Unmarshal
// does) every one of those stores would take the barrier's slow path.
// That is sound because every pointer in a queued token also lives in
// memory the collector does scan, for as long as the queue holds it:
//   - text points into the line reader's buffer (lr.buf), which does not
//     move until the queue is empty (the line reader refills only from
//     step, which runs only then); into scratch, whose arrays outgrown
//     while the queue may view them are kept in scratchPins until scratch
//     is emptied with the queue empty (scratchRoom, resetScratch); or at
//     zeroByte;
//   - keys and headers point at field names and field lists the decoder
//     keeps: the row template (rowTmpl) and the header parser's memory,
//     which only a header that step parses, after the queue is empty,
//     replaces (a header of the same fields keeps the template, and so the
//     copies of it in the queue: headerProg).
//
// No token points into the Decoder itself, which may live on a stack:
// a stack moves, and the queue's pointers, hidden from the compiler, would
// not move with it. Tokens leave the queue by copy (Token, Row), into
// memory the collector sees. Nothing may store into the queue's memory
// with a typed store (an assignment, append, copy), whose write barrier
// would read the stale pointer it overwrites. TestQueueViewsHeld checks
// the first rule after every token, TestQueueUnderGC the whole.

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

// fastQueue is the fast path's token memory: a []uint64 that the fast path
// views as []Token, unscanned as the general queue's memory is (see
// queueMemory), so that typeRows, which cannot call the collector's write
// barrier, may store tokens' pointers there. bulkRows grows scratch before
// it takes rows, so that scratch does not move under them. Every store goes
// through putToken or setRows. refill and Reset switch the decoder's queue
// back to the general queue (generalQueue) before anything else is queued,
// and grow drops the old memory only after that switch.
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
// through putToken and setRows.
func (f *fastQueue) tokens() []Token { return tokensOf(f.mem) }

// tokensOf views m, three words a token, as tokens: the queue's memory.
func tokensOf(m []uint64) []Token { return mem.SliceAt[Token](mem.SliceData(m), len(m)/3) }

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

// putToken stores t at p, in the queue's memory, without a write barrier
// (see queueMemory).
func putToken(p mem.Ptr, t Token) {
	mem.Store(p, rawToken{t.h, t.p.Uintptr(), t.n})
}

// rawCopy copies src into dst, in the queue's memory, without write
// barriers (see queueMemory).
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

// appendToken appends t to q, a view of the queue's memory, without a
// write barrier (see queueMemory).
func appendToken(q []Token, t Token) []Token {
	if len(q) == cap(q) {
		q = growTokens(q, 1)
	}
	return pushToken(q, t)
}

// queueRoom makes room in the queue for n more tokens. The decoder's hot
// loops make room once for a line's tokens and then push them (pushToken):
// appendToken does not inline.
func (d *Decoder) queueRoom(n int) {
	if cap(d.queue)-len(d.queue) < n {
		d.queue = growTokens(d.queue, n)
	}
}

// pushToken appends t to q, which has room for it (queueRoom).
func pushToken(q []Token, t Token) []Token {
	n := len(q)
	q = q[:n+1]
	putToken(mem.Of(&q[n]), t)
	return q
}

// appendTokens appends ts to q, as appendToken appends one.
func appendTokens(q []Token, ts ...Token) []Token {
	n := len(q)
	if cap(q)-n < len(ts) {
		q = growTokens(q, len(ts))
	}
	q = q[:n+len(ts)]
	rawCopy(q[n:], ts)
	return q
}

// setToken stores t as q[i], without a write barrier.
func setToken(q []Token, i int, t Token) { putToken(mem.Of(&q[i]), t) }

// growTokens returns q's tokens in new pointer-free memory with room for
// n more. The memory past len(q) is copied too: it may start with the
// kept row (rowKept).
func growTokens(q []Token, n int) []Token {
	c := max(2*cap(q), len(q)+n, 64)
	g := tokensOf(make([]uint64, 3*c))
	rawCopy(g, q[:cap(q)])
	return g[:len(q)]
}
