package convert

import (
	"io"
	"sync"
	"sync/atomic"
)

// outPipe hands a jsonWriter's output to a goroutine of its own, which
// writes it to the io.Writer in order. Writing a large output to a file
// costs system time of the same order as the conversion's own; with a
// second CPU, that time overlaps the conversion instead of adding to it.
//
// The pipe's buffers are larger than the jsonWriter's (chunk bytes, 1 MiB
// by default): the writer fills a window of jsonBufSize bytes of the
// current pipe buffer, and a flush only moves the window on, to start
// where the output ends, until the next window would not fit. Only then
// does the buffer go to the goroutine, so that the io.Writer gets writes of
// about chunk bytes and the two goroutines meet once per chunk: each
// meeting may wake the other goroutine's thread, which costs more than
// copying a small buffer. The window keeps the jsonWriter's buffer a
// jsonBufSize array for its loops.
//
// The io.Writer is called from the pipe's goroutine only, and never
// concurrently; the jsonWriter waits for every buffer to be written
// (drain) before it writes anything itself, so the output is in order.
// Its memory is at most outBufs buffers of chunk bytes, made as they are
// first needed.
type outPipe struct {
	w     io.Writer
	todo  chan []byte   // filled buffers to write, in order
	free  chan []byte   // written buffers, to be filled again
	done  chan struct{} // closed when the goroutine has ended
	err   error         // the first error of w; set before bad
	bad   atomic.Bool   // err is set
	chunk int           // bytes per buffer, at least jsonBufSize
	made  int           // buffers made so far, at most outBufs
	cur   []byte        // the buffer being filled, chunk bytes long
	off   int           // bytes of cur before the jsonWriter's window
}

// outBufs is how many buffers a pipe uses at most: one being filled, one
// being written and a spare, so that a short stall of either side does
// not stop the other.
const outBufs = 3

// pipeChunk is the size of a pipe's buffers, and so of its writes, unless
// a test sets another (withPipeChunk).
const pipeChunk = 1 << 20

// pipeBufs keeps buffers of pipeChunk bytes between conversions.
var pipeBufs = sync.Pool{New: func() any { return new([pipeChunk]byte) }}

// startPipe makes w write its output on a goroutine of its own from now
// on; stopPipe ends it. What w.buf holds moves to the pipe's first buffer,
// and w.buf becomes the window after it.
func (w *jsonWriter) startPipe() {
	p := &outPipe{
		w:     w.w,
		todo:  make(chan []byte, outBufs),
		free:  make(chan []byte, outBufs),
		done:  make(chan struct{}),
		chunk: pipeChunk,
	}
	if w.chunk != 0 {
		p.chunk = max(w.chunk, jsonBufSize)
	}
	p.cur = p.get()
	p.off = copy(p.cur, w.buf)
	w.pipe = p
	go p.loop()
	w.buf = w.buf[:0]
	w.handOff()
}

func (p *outPipe) loop() {
	defer close(p.done)
	for b := range p.todo {
		if !p.bad.Load() {
			if err := writeAll(p.w, b); err != nil {
				p.err = err
				p.bad.Store(true)
			}
		}
		p.free <- b[:cap(b)]
	}
}

// get returns an empty buffer: a written one, or a new one while fewer
// than outBufs are made, or else the first to be written.
func (p *outPipe) get() []byte {
	select {
	case b := <-p.free:
		return b
	default:
	}
	if p.made < outBufs {
		p.made++
		if p.chunk == pipeChunk {
			return pipeBufs.Get().(*[pipeChunk]byte)[:]
		}
		return make([]byte, p.chunk)
	}
	return <-p.free
}

// put gives a buffer of the pipe back for reuse by later conversions.
func (p *outPipe) put(b []byte) {
	if len(b) == pipeChunk && p.chunk == pipeChunk {
		pipeBufs.Put((*[pipeChunk]byte)(b))
	}
}

// window is the jsonWriter's buffer: the jsonBufSize bytes of cur after
// the output, empty.
func (p *outPipe) window() []byte {
	return p.cur[p.off : p.off : p.off+jsonBufSize]
}

// send gives cur, as far as it is filled, to the goroutine and takes an
// empty buffer, waiting for one if the goroutine is behind.
func (p *outPipe) send() {
	p.todo <- p.cur[:p.off]
	p.cur, p.off = p.get(), 0
}

// handOff adds the window's output to the pipe's buffer, sends the buffer
// if another window would not fit after it, and makes w.buf the next
// window. It notes an error of w, seen on an earlier buffer, in w.err.
func (w *jsonWriter) handOff() {
	p := w.pipe
	p.off += len(w.buf)
	if p.off > p.chunk-jsonBufSize {
		p.send()
	}
	w.buf = p.window()
	if p.bad.Load() {
		w.err = p.err
	}
}

// drain sends what is pending and waits until the pipe has written every
// buffer handed to it, so that w may be written directly.
func (w *jsonWriter) drain() {
	p := w.pipe
	if p.off += len(w.buf); p.off > 0 {
		p.send()
	}
	w.buf = p.window()
	// Every buffer but cur is with the goroutine or in free: holding them
	// all means the goroutine is done with them.
	var held [outBufs][]byte
	for i := range p.made - 1 {
		held[i] = <-p.free
	}
	for _, b := range held[:p.made-1] {
		p.free <- b
	}
	if p.bad.Load() && w.err == nil {
		w.err = p.err
	}
}

// stopPipe writes what is pending, ends the pipe's goroutine and notes an
// error of w in w.err; w.buf is w's own buffer again, empty. It is a no-op
// without a pipe.
func (w *jsonWriter) stopPipe() {
	p := w.pipe
	if p == nil {
		return
	}
	if p.off += len(w.buf); p.off > 0 && w.err == nil {
		p.todo <- p.cur[:p.off]
	} else {
		p.put(p.cur)
	}
	close(p.todo)
	<-p.done
	if p.bad.Load() && w.err == nil {
		w.err = p.err
	}
	// Every buffer sent is back in free.
	for len(p.free) > 0 {
		p.put(<-p.free)
	}
	w.pipe = nil
	w.buf = w.home[:0]
}
