package toon

import "sync"

// This file passes the memory of finished decoders on to new ones. A
// Decoder allocates its queues and buffers as a document needs them (a
// line buffer of 64 KiB for a reader, the fast path's memory, the general
// queue, the row programs, the header parser's arenas, the scopes: all
// but 3 KiB of the 225 KiB a document of 3,000 table rows allocates), which
// for a program that decodes one document after another is most of what
// decoding allocates, in memory the cache no longer holds. So:
//   - Unmarshal takes its decoders from decoders, and puts each back when
//     it is done (pooledDecoder, recycle);
//   - a decoder of a reader takes the memory of one from decoders
//     (NewDecoder, and Reset when it has none), and once it has returned
//     io.EOF, when it reads nothing more and no token it returned is
//     valid any longer, puts its memory back (takeMemory, handOnMemory).
//     A decoder Reset while it holds its memory keeps it instead, for its
//     next document.

// decoders holds Decoders that are zero but for the memory of their
// buffers, emptied (moveMemory), and the line buffer of a decoder of a
// reader that left it.
var decoders sync.Pool

// handOnOff turns handOnMemory off: only tests set it (recycle_test.go),
// to compare decoders that hand their memory on with decoders that keep
// it.
var handOnOff bool

// moveMemory gives d, which has none of its own, the memory of from's
// buffers, emptied, and leaves from without it. They are the buffers whose
// contents are rewritten before they are read: no view of the document
// from read (of data, which Unmarshal's caller may change or free as soon
// as it returns) is carried, nor any state of it. The memory of the run's
// values is cleared, as the collector scans it; the tokens of the row
// programs view field names in the header parser's memory, which moves
// with them. The token queue's memory may hold stale views, but the
// collector does not scan it (queueMemory), so they keep nothing alive.
// The callers move the line buffer themselves: it is a decoder's own only
// when it reads a reader. Whatever is not named here starts from zero, as
// in a Decoder just made, so state added to Decoder later is never
// carried from one document to the next.
func (d *Decoder) moveMemory(from *Decoder) {
	from.generalQueue() // the queue may view the fast queue's memory
	d.queue = from.queue[:0]
	d.fast.mem = from.fast.mem // words the collector does not scan; rewritten before they are read
	d.stack = from.stack[:0]   // frames: counts, and key sets of copied keys, reset by push
	d.scratch = from.scratch[:0]
	d.seps = from.seps[:0]
	d.marks = from.marks[:0]
	d.bulk.idx, d.bulk.at = from.bulk.idx[:0], from.bulk.at[:0]
	d.bulk.slots = from.bulk.slots[:0]
	d.cells = from.cells[:0]
	clear(from.vals[:cap(from.vals)]) // its tokens view the document, and the collector scans them
	d.vals = from.vals[:0]
	d.rowProgram.takeMemory(&from.rowProgram)
	d.prevProg.takeMemory(&from.prevProg)
	d.headerParser.takeMemory(&from.headerParser)
	from.queue, from.fast.mem, from.stack, from.scratch, from.seps, from.marks = nil, nil, nil, nil, nil, nil
	from.bulk.idx, from.bulk.at, from.bulk.slots, from.cells, from.vals = nil, nil, nil, nil, nil
}

// takeMemory gives p, a row program with no memory of its own, the memory
// of from's, emptied, and leaves from without it.
func (p *rowProgram) takeMemory(from *rowProgram) {
	p.prog, p.rowTmpl, p.cellAt = from.prog[:0], from.rowTmpl[:0], from.cellAt[:0]
	from.prog, from.rowTmpl, from.cellAt = nil, nil, nil
}

// takeMemory gives p, a header parser with no memory of its own, the
// memory of from's arenas and of its record of segments seen, emptied,
// and its key sets, which parseGroup resets before use, and leaves from
// without them. The segments seen are not carried: p parses each header
// of its document again, once.
func (p *headerParser) takeMemory(from *headerParser) {
	p.farena, p.fstack, p.names = from.farena[:0], from.fstack[:0], from.names[:0]
	p.groupKeys, p.seen, p.segs = from.groupKeys, from.seen[:0], from.segs[:0]
	from.farena, from.fstack, from.names = nil, nil, nil
	from.groupKeys, from.seen, from.segs = nil, nil, nil
}

// pooledDecoder returns a Decoder of data with the options opts, as
// newBytesDecoder does, made from a recycled one when there is one.
func pooledDecoder(data []byte, opts []Option) *Decoder {
	d, _ := decoders.Get().(*Decoder)
	if d == nil {
		return newBytesDecoder(data, opts)
	}
	d.initBytes(data, opts)
	return d
}

// recycle puts d, which Unmarshal is done with, into decoders: d becomes
// a zero Decoder with the memory moveMemory moves.
func recycle(d *Decoder) {
	var n Decoder
	n.moveMemory(d)
	*d = n
	decoders.Put(d)
}

// takeMemory gives d, a decoder of a reader with no buffers of its own (a
// new one, or one that handed its memory on), the memory of a decoder in
// decoders, if there is one, and keeps that decoder to put the memory
// back in (handOnMemory), without an allocation. The line buffer is taken
// only when it has the size d's line reader makes.
func (d *Decoder) takeMemory() {
	p, _ := decoders.Get().(*Decoder)
	if p == nil {
		return
	}
	d.moveMemory(p)
	if len(p.lr.buf) == d.lr.bufSize(&d.opts) {
		d.lr.buf = p.lr.buf
	}
	p.lr.buf = nil
	d.box = p
}

// handOnMemory puts d's memory and line buffer in decoders, at the end of
// its input. It does so only when nothing may still view them: no row of
// the fast path is queued, and the line of the last token is known
// without them. d keeps no view of them: the lines it holds keep their
// numbers and offsets (Line and InputOffset), not their text, and its
// header and the header runs read last are emptied. It makes a queue of
// one token for the io.EOF placeholder.
func (d *Decoder) handOnMemory() {
	if handOnOff || !d.handOn || d.bulk.n != 0 || len(d.marks) != 0 || d.lr.r == nil {
		return
	}
	d.handOn = false
	p := d.box
	if p == nil {
		p = new(Decoder)
	}
	d.box = nil
	p.moveMemory(d)
	p.lr.buf, d.lr.buf = d.lr.buf, nil
	// A queue of one token, for the placeholder Token returns with io.EOF
	// from now on (fillQueue).
	d.queue = tokensOf(make([]uint64, 3))[:0]
	d.lr.pos, d.lr.end, d.lr.scanned = 0, 0, 0
	d.bulk.src = nil
	// gq views the queue's memory; it is set again on entering the fast path.
	d.gq = nil
	d.hdr, d.head = header{}, runHead{} // views of the line, the field lists and the segments seen
	d.line.full, d.line.text = nil, nil
	d.first.full, d.first.text = nil, nil
	d.at.full, d.at.text = nil, nil
	decoders.Put(p)
}
