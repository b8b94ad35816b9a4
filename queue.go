package toon

import "unsafe"

// The fast path's queue.
//
// bulkRows queues its tokens in memory the garbage collector does not scan
// (bulk.mem, a []uint64 seen as []Token), so that typeRows, which cannot
// call the collector's write barrier, may store their pointers, and so that
// the Go code that stores them needs no barrier either. That is sound
// because every pointer stored there also lives in memory the collector
// does scan, for as long as the queue holds it:
//   - cells point into the line reader's buffer (lr.buf), which does not move
//     until the queue is empty, or into scratch, which bulkRows grows
//     beforehand so that it does not move either, or at zeroByte;
//   - keys and headers come from the row template, kept in d.rowTmpl
//     until the next header, which is read after the queue is empty.
// Tokens leave the queue by copy (Token), into memory the collector sees.
// Nothing may store into that memory with a typed store, whose write
// barrier would read the stale pointer it overwrites: stores go through
// putToken and rawCopy. refill and Reset switch d.queue back to the general
// queue (generalQueue) before anything else is queued.

// bulkQueue returns the fast path's queue with room for n tokens.
func (d *Decoder) bulkQueue(n int) []Token {
	if len(d.bulk.mem) < 3*n {
		d.generalQueue() // d.queue may view the old memory: let it go
		d.bulk.mem = make([]uint64, 3*max(n, bulkTokens))
		d.bulk.tmplRows = 0
	}
	return unsafe.Slice((*Token)(unsafe.Pointer(unsafe.SliceData(d.bulk.mem))), len(d.bulk.mem)/3)[:n]
}

// generalQueue makes d.queue the general queue's memory again when it
// views the fast path's (its length is to be set by the caller): the fast
// path's tokens are done with, and the general path queues into memory of
// its own (see bulkQueue).
func (d *Decoder) generalQueue() {
	if d.bulk.inQ {
		d.queue, d.bulk.inQ = d.gq, false
	}
}

// newTemplate forgets what the fast path's queue holds of the last row
// template, when there is a new one.
func (b *bulkRun) newTemplate() {
	b.tmplRows = 0
	b.slots = b.slots[:0]
}

// bulkTemplate makes the rows of q before upto copies of the row template
// (keys and braces, whose cells the fast path then writes).
func (d *Decoder) bulkTemplate(q []Token, upto int) {
	per := len(d.rowTmpl)
	for r := d.bulk.tmplRows; r < upto; r++ {
		rawCopy(q[r*per:r*per+per], d.rowTmpl)
	}
	d.bulk.tmplRows = max(d.bulk.tmplRows, upto)
}

// putToken stores t at p, in the fast path's queue, without a write
// barrier (see bulkQueue).
func putToken(p unsafe.Pointer, t Token) {
	*(*rawToken)(p) = rawToken{t.h, uintptr(t.p), t.n}
}

// rawCopy copies src into dst, in the fast path's queue, without write
// barriers (see bulkQueue).
func rawCopy(dst, src []Token) {
	n := min(len(dst), len(src))
	if n == 0 {
		return
	}
	copy(unsafe.Slice((*rawToken)(unsafe.Pointer(&dst[0])), n), unsafe.Slice((*rawToken)(unsafe.Pointer(&src[0])), n))
}

// rawToken is a Token's layout without a pointer type.
type rawToken struct {
	h uint64
	p uintptr
	n int
}
