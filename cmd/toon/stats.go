package main

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tiktoken-go/tokenizer"
)

// statsRun counts bytes and tokens of the JSON and the TOON side of a
// conversion while it runs. Each side is counted in its own goroutine
// from chunks of text; the JSON side is first made compact, so the count
// is that of the JSON as a program would send it.
type statsRun struct {
	c      *config
	codec  tokenizer.Codec
	json   *counter
	toon   *counter
	jsonIn *io.PipeWriter // decode with --json-indent: output to compact
	wg     sync.WaitGroup
	cerr   error // error of the compaction goroutine
}

func newStatsRun(c *config, in *input) *statsRun {
	enc := tokenizer.O200kBase
	if c.tokenizer == "cl100k_base" {
		enc = tokenizer.Cl100kBase
	}
	codec, err := tokenizer.Get(enc)
	if err != nil { // not reached: both encodings are built in
		panic(err)
	}
	s := &statsRun{c: c, codec: codec}
	s.json = newCounter(codec)
	s.toon = newCounter(codec)
	if c.encode {
		// The JSON is the input: read it a third time, compacting it.
		r := io.NewSectionReader(in.f, 0, 1<<62)
		if in.size >= 0 {
			if off, err := in.f.Seek(0, io.SeekCurrent); err == nil {
				r = io.NewSectionReader(in.f, off, in.size)
			}
		}
		s.compactFrom(r)
	} else if c.jsonIndent > 0 {
		pr, pw := io.Pipe()
		s.jsonIn = pw
		s.compactFrom(pr)
	}
	return s
}

// compactFrom writes the JSON read from r, compacted, to the JSON counter.
func (s *statsRun) compactFrom(r io.Reader) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		enc := jsontext.NewEncoder(s.json, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		for {
			v, err := dec.ReadValue()
			if err == io.EOF {
				break
			}
			if err == nil {
				err = enc.WriteValue(v)
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
	s.wg.Wait()
	jerr := s.json.close()
	terr := s.toon.close()
	if !ok {
		return nil
	}
	return errors.Join(s.cerr, jerr, terr)
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

// counter counts the bytes and tokens of the text written to it. Text is
// gathered into chunks that a goroutine tokenizes; a chunk is cut only
// where the tokenizer's pre-tokenizer splits the text anyway (see
// safeCut), so the sum over the chunks is the count of the whole text.
// A final newline is not counted (jsontext ends its output with one).
type counter struct {
	codec  tokenizer.Codec
	buf    []byte
	ch     chan []byte
	done   chan struct{}
	bytes  int64
	tokens int64 // set by the worker; read after close
	err    error // likewise
	last   byte
	trim   bool // drop a final newline: set before ch is closed
}

const (
	chunkSize = 256 << 10 // text handed to the worker at a time
	maxPend   = 4 << 20   // text held without a safe cut before one is forced
)

func newCounter(codec tokenizer.Codec) *counter {
	c := &counter{codec: codec, ch: make(chan []byte, 4), done: make(chan struct{})}
	go c.work()
	return c
}

func (c *counter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.bytes += int64(len(p))
	c.last = p[len(p)-1]
	c.buf = append(c.buf, p...)
	if len(c.buf) >= chunkSize {
		c.ch <- c.buf
		c.buf = nil
	}
	return len(p), nil
}

// close counts what is left and waits for the worker.
func (c *counter) close() error {
	if c.last == '\n' {
		c.bytes--
		c.trim = true
	}
	if len(c.buf) > 0 {
		c.ch <- c.buf
		c.buf = nil
	}
	close(c.ch)
	<-c.done
	return c.err
}

func (c *counter) work() {
	defer close(c.done)
	var pend []byte // text not yet counted
	for chunk := range c.ch {
		pend = append(pend, chunk...)
		cut := safeCut(pend)
		if cut == 0 && len(pend) >= maxPend {
			cut = len(pend) // no safe place in 4 MiB: cut anyway
		}
		if cut > 0 {
			c.count(pend[:cut])
			pend = append(pend[:0], pend[cut:]...)
		}
	}
	// A cut always leaves the byte after it uncounted, so a final newline
	// is still in pend.
	if n := len(pend); c.trim && n > 0 && pend[n-1] == '\n' {
		pend = pend[:n-1]
	}
	c.count(pend)
}

func (c *counter) count(b []byte) {
	if len(b) == 0 || c.err != nil {
		return
	}
	n, err := c.codec.Count(string(b))
	if err != nil {
		c.err = err
	}
	c.tokens += int64(n)
}

// safeCut returns the last position in b, or 0, where both the o200k_base
// and the cl100k_base pre-tokenizers split b whatever follows it, so that
// counting the tokens before and after it separately gives the count of the
// whole. Two kinds of places qualify:
//
//   - the end of a run of ASCII digits followed by an ASCII byte that is not
//     a digit: only the \p{N}{1,3} branch consumes digits, in groups of
//     three from the start of the run, and nothing extends a match across
//     the last digit;
//   - after a newline followed by an ASCII letter or digit: the match that
//     holds the newline (\s*[\r\n]+, or punctuation followed by [\r\n/]*)
//     ends at the last newline, and a letter cannot take a newline as its
//     optional leading character.
//
// The byte after the place must already be in b, since it decides.
func safeCut(b []byte) int {
	for i := len(b) - 1; i > 0; i-- {
		c, p := b[i], b[i-1]
		if c >= 0x80 || isDigit(c) {
			continue
		}
		if isDigit(p) {
			return i
		}
		if p == '\n' && isAlnum(c) {
			return i
		}
	}
	return 0
}

func isDigit(c byte) bool { return c-'0' < 10 }

func isAlnum(c byte) bool {
	return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z'
}
