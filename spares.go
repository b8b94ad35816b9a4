package toon

import "sync"

// This file hands the largest buffers of a Decoder that NewDecoder made on
// to the next one. Once a decoder has returned io.EOF it reads nothing
// more, and no token it returned is valid any longer (a token's bytes are
// valid until the next call to Token), so its line buffer and the fast
// path's memory can serve another decoder. A program that decodes one
// document after another, each with a decoder of its own (a file or a
// request each), then reuses memory the cache still holds instead of
// allocating its own (a line buffer of 64 KiB and the fast path's
// memory: some 190 KiB a document on a table of 3,000 rows) for the
// collector to reclaim. Unmarshal recycles whole decoders instead
// (decode.go).

// spares are the buffers a finished decoder hands on.
type spares struct {
	buf  []byte   // the line reader's buffer
	fast []uint64 // the fast path's token memory (fastQueue)
	idx  []uint32 // the fast path's index of a window (bulkRun)
	at   []int32  // the fast path's row starts (bulkRun)
}

// sparePool holds the spares of finished decoders.
var sparePool sync.Pool

// handOnOff turns the handing on off: only tests set it (spares_test.go),
// to compare decoders that hand their buffers on with decoders that keep
// them.
var handOnOff bool

// takeSpares gives d, a decoder whose buffers are all yet to be made (a
// new one, or one that handed its own on), those of a finished decoder,
// if one left any. The line buffer is taken only when it has the size the
// line reader makes.
func (d *Decoder) takeSpares() {
	if d.lr.buf != nil || d.fast.mem != nil || d.bulk.idx != nil || d.bulk.at != nil {
		return
	}
	s, _ := sparePool.Get().(*spares)
	if s == nil {
		return
	}
	if len(s.buf) == d.lr.bufSize(&d.opts) {
		d.lr.buf = s.buf
	}
	d.fast.mem, d.bulk.idx, d.bulk.at = s.fast, s.idx[:0], s.at[:0]
	*s = spares{}
	d.box = s // for the buffers to go back in, without an allocation
}

// handOnSpares puts d's buffers in sparePool, at the end of its input. It
// leaves them only when nothing may still view them: no row of the fast
// path is queued, and the line of the last token is known without them.
// d keeps no view of them: the lines it holds keep their numbers and
// offsets (Line and InputOffset), not their text.
func (d *Decoder) handOnSpares() {
	if handOnOff || !d.handOn || d.bulk.n != 0 || len(d.marks) != 0 || d.lr.r == nil {
		return
	}
	d.handOn = false
	d.generalQueue() // d.queue may view the fast queue's memory
	s := d.box
	if s == nil {
		s = new(spares)
	}
	d.box = nil
	*s = spares{buf: d.lr.buf, fast: d.fast.mem, idx: d.bulk.idx, at: d.bulk.at}
	d.lr.buf, d.lr.pos, d.lr.end, d.lr.scanned = nil, 0, 0, 0
	d.fast = fastQueue{}
	d.bulk.idx, d.bulk.at, d.bulk.src = nil, nil, nil
	d.line.full, d.line.text = nil, nil
	d.first.full, d.first.text = nil, nil
	d.at.full, d.at.text = nil, nil
	sparePool.Put(s)
}
