package main

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon/internal/tokencount"
)

// statsRun counts bytes and tokens of the JSON and the TOON side of a
// conversion while it runs. Each side is counted in its own goroutine as
// the text streams by (see counter); the JSON side is first made compact,
// so the count is that of the JSON as a program would send it.
type statsRun struct {
	c      *config
	json   *counter
	toon   *counter
	jsonIn *io.PipeWriter // decode with --json-indent: output to compact
	wg     sync.WaitGroup
	cerr   error       // error of the compaction goroutine
	stop   atomic.Bool // set when the conversion failed: compaction stops
}

func newStatsRun(c *config, in *input) *statsRun {
	enc, err := tokencount.Get(c.tokenizer)
	if err != nil { // not reached: the flag is checked, and both encodings are built in
		panic(err)
	}
	s := &statsRun{c: c}
	s.json = newCounter(enc)
	s.toon = newCounter(enc)
	if c.encode {
		// The JSON is the input: read it a third time, compacting it.
		r := io.NewSectionReader(in.f, 0, 1<<62)
		if in.size >= 0 {
			if off, err := in.f.Seek(0, io.SeekCurrent); err == nil {
				r = io.NewSectionReader(in.f, off, in.size)
			}
		}
		s.compactFrom(&stoppable{r: r, stop: &s.stop})
	} else if c.jsonIndent > 0 {
		pr, pw := io.Pipe()
		s.jsonIn = pw
		s.compactFrom(pr)
	}
	return s
}

// compactFrom writes the JSON read from r, compacted, to the JSON counter.
// It goes token by token, so that it holds no more than a token of a
// document whatever its size.
func (s *statsRun) compactFrom(r io.Reader) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		enc := jsontext.NewEncoder(s.json, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		for {
			tok, err := dec.ReadToken()
			if err == io.EOF {
				break
			}
			if err == nil {
				err = enc.WriteToken(tok)
			}
			if err != nil {
				s.cerr = err
				if pr, ok := r.(*io.PipeReader); ok {
					pr.CloseWithError(err)
				}
				return
			}
		}
	}()
}

// stoppable reads r until stop is set.
type stoppable struct {
	r    io.Reader
	stop *atomic.Bool
}

var errStopped = errors.New("stopped")

func (r *stoppable) Read(p []byte) (int, error) {
	if r.stop.Load() {
		return 0, errStopped
	}
	return r.r.Read(p)
}

// outputSink receives the converted output.
func (s *statsRun) outputSink() io.Writer {
	switch {
	case s.c.encode:
		return s.toon
	case s.jsonIn != nil:
		return s.jsonIn
	}
	return s.json
}

// inputSink receives the input when decoding.
func (s *statsRun) inputSink() io.Writer { return s.toon }

// finish waits for the counts. ok is false when the conversion failed, in
// which case the counts are abandoned.
func (s *statsRun) finish(ok bool) error {
	if s.jsonIn != nil {
		s.jsonIn.Close()
	}
	if !ok {
		s.stop.Store(true)
	}
	s.wg.Wait()
	s.json.close()
	s.toon.close()
	if !ok {
		return nil
	}
	return s.cerr
}

// print writes the table.
func (s *statsRun) print(w io.Writer) {
	jb, jt := s.json.bytes, s.json.tokens
	tb, tt := s.toon.bytes, s.toon.tokens
	fmt.Fprintf(w, "%-16s %15s %15s\n", "", "bytes", "tokens")
	fmt.Fprintf(w, "%-16s %15d %15d\n", "JSON (compact)", jb, jt)
	fmt.Fprintf(w, "%-16s %15d %15d\n", "TOON", tb, tt)
	fmt.Fprintf(w, "%-16s %15s %15s\n", "saved", percent(jb-tb, jb), percent(jt-tt, jt))
	fmt.Fprintf(w, "tokenizer: %s\n", s.c.tokenizer)
}

func percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

// counter counts the bytes and tokens of the text written to it. Write
// gathers the text into chunks that a goroutine of the counter's own hands
// to a tokencount.Counter, which counts each piece of the text as soon as
// what follows decides it, so the text is never held whole and the count
// is that of the whole text. A final newline is not counted (jsontext ends
// its output with one).
type counter struct {
	tc     *tokencount.Counter
	buf    []byte      // text gathered for the next chunk
	full   chan []byte // chunks to count
	free   chan []byte // counted chunks, for reuse
	done   chan struct{}
	bytes  int64
	tokens int64 // set by the worker; read after close
	last   byte
}

const (
	chunkSize = 64 << 10 // text handed to the worker at a time
	chunks    = 4        // chunks in use at most: the memory of a counter
)

func newCounter(enc *tokencount.Encoding) *counter {
	c := &counter{
		tc:   enc.NewCounter(),
		full: make(chan []byte, chunks),
		free: make(chan []byte, chunks),
		done: make(chan struct{}),
	}
	for i := 0; i < chunks; i++ {
		c.free <- make([]byte, 0, chunkSize)
	}
	c.buf = <-c.free
	go c.work()
	return c
}

func (c *counter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := len(p)
	c.bytes += int64(n)
	c.last = p[n-1]
	for len(p) > 0 {
		k := copy(c.buf[len(c.buf):cap(c.buf)], p)
		c.buf = c.buf[:len(c.buf)+k]
		p = p[k:]
		if len(c.buf) == cap(c.buf) {
			c.full <- c.buf
			c.buf = <-c.free
		}
	}
	return n, nil
}

// close counts what is left and waits for the worker.
func (c *counter) close() {
	if c.last == '\n' {
		c.bytes--
	}
	if len(c.buf) > 0 {
		c.full <- c.buf
	}
	close(c.full)
	<-c.done
}

// work counts the chunks. It holds a chunk's final newline back until
// more text follows, so that the last newline of the text goes uncounted.
func (c *counter) work() {
	defer close(c.done)
	newline := false
	for chunk := range c.full {
		if newline {
			c.tc.Write([]byte{'\n'})
		}
		n := len(chunk)
		newline = chunk[n-1] == '\n'
		if newline {
			n--
		}
		c.tc.Write(chunk[:n])
		c.free <- chunk[:0]
	}
	c.tokens = c.tc.Close()
}
