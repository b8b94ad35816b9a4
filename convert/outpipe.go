package convert

import (
	"io"
	"sync/atomic"
)

// outPipe hands a jsonWriter's full buffers to a goroutine of its own,
// which writes them to the io.Writer in order. Writing a large output to
// a file costs the process about half as much (system) time again as
// producing it: measured on bench/cli.sh's table, 1.35 s of system time
// beside 2.2 s of user time. With a second CPU, that time overlaps the
// conversion instead of adding to it.
//
// The io.Writer is called from the pipe's goroutine only, and never
// concurrently; the jsonWriter waits for every buffer to be written
// (drain) before it writes anything itself, so the output is in order.
// Its memory is outBufs buffers of jsonBufSize bytes.
type outPipe struct {
	w    io.Writer
	todo chan []byte                 // full buffers to write, in order
	free chan *[jsonBufSize]byte     // written buffers, to be filled again
	done chan struct{}               // closed when the goroutine has ended
	err  error                       // the first error of w; set before failed
	bad  atomic.Bool                 // err is set
	bufs [outBufs]*[jsonBufSize]byte // every buffer, for release
}

// outBufs is how many buffers a piped jsonWriter uses: one being filled,
// one being written and a spare, so that a short stall of either side
// does not stop the other.
const outBufs = 3

// startPipe makes w write its full buffers on a goroutine of its own from
// now on; stopPipe ends it. w's current buffer is one of the pipe's.
func (w *jsonWriter) startPipe() {
	p := &outPipe{
		w:    w.w,
		todo: make(chan []byte, outBufs),
		free: make(chan *[jsonBufSize]byte, outBufs),
		done: make(chan struct{}),
	}
	p.bufs[0] = (*[jsonBufSize]byte)(w.buf[:jsonBufSize])
	for i := 1; i < outBufs; i++ {
		p.bufs[i] = jsonBufs.Get().(*[jsonBufSize]byte)
		p.free <- p.bufs[i]
	}
	w.pipe = p
	go p.loop()
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
		p.free <- (*[jsonBufSize]byte)(b[:jsonBufSize])
	}
}

// handOff gives the pending output to the pipe and takes an empty buffer,
// waiting for one if the pipe is behind. It notes an error of w, seen on
// an earlier buffer, in w.err.
func (w *jsonWriter) handOff() {
	p := w.pipe
	p.todo <- w.buf
	w.buf = (<-p.free)[:0]
	if p.bad.Load() {
		w.err = p.err
	}
}

// drain waits until the pipe has written every buffer handed to it, so
// that w may be written directly.
func (w *jsonWriter) drain() {
	p := w.pipe
	var held [outBufs - 1]*[jsonBufSize]byte
	for i := range held {
		held[i] = <-p.free
	}
	for _, b := range held {
		p.free <- b
	}
	if p.bad.Load() && w.err == nil {
		w.err = p.err
	}
}

// stopPipe writes what is pending, ends the pipe's goroutine and notes an
// error of w in w.err. It is a no-op without a pipe.
func (w *jsonWriter) stopPipe() {
	p := w.pipe
	if p == nil {
		return
	}
	if len(w.buf) > 0 && w.err == nil {
		w.handOff()
	}
	close(p.todo)
	<-p.done
	if p.bad.Load() && w.err == nil {
		w.err = p.err
	}
	// Every buffer is back: the one in w.buf and the free ones.
	cur := (*[jsonBufSize]byte)(w.buf[:jsonBufSize])
	for _, b := range p.bufs {
		if b != cur {
			jsonBufs.Put(b)
		}
	}
	w.pipe = nil
}
