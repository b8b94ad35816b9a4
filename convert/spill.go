package convert

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// spill is an append-only byte stream that stays in memory up to a budget
// and then moves to an unlinked temporary file. Bytes already written can
// be patched in place (the slot stream of the plan) and the stream can be
// cut back (the table stream). Offsets are absolute from the stream's
// start.
//
// Invariant: the stream is the file's first base bytes followed by buf.
type spill struct {
	dir  string
	max  int      // bytes of buf before it is flushed to the file
	f    *os.File // nil until the first flush
	base int64
	buf  []byte
}

func newSpill(dir string, max int) *spill {
	return &spill{dir: dir, max: max, buf: make([]byte, 0, 4096)}
}

// size returns the length of the stream.
func (s *spill) size() int64 { return s.base + int64(len(s.buf)) }

// write appends p.
func (s *spill) write(p ...byte) error {
	s.buf = append(s.buf, p...)
	if len(s.buf) >= s.max {
		return s.flush()
	}
	return nil
}

func (s *spill) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	if s.f == nil {
		f, err := tempFile(s.dir, "toon-plan-*")
		if err != nil {
			return err
		}
		s.f = f
	}
	if _, err := s.f.WriteAt(s.buf, s.base); err != nil {
		return err
	}
	s.base += int64(len(s.buf))
	s.buf = s.buf[:0]
	return nil
}

// patch overwrites the bytes at off with p.
func (s *spill) patch(off int64, p []byte) error {
	if off >= s.base {
		copy(s.buf[off-s.base:], p)
		return nil
	}
	if end := off + int64(len(p)); end > s.base { // straddles the flush point
		k := s.base - off
		copy(s.buf, p[k:])
		p = p[:k]
	}
	_, err := s.f.WriteAt(p, off)
	return err
}

// truncate cuts the stream back to n bytes.
func (s *spill) truncate(n int64) error {
	if n >= s.base {
		s.buf = s.buf[:n-s.base]
		return nil
	}
	s.buf = s.buf[:0]
	s.base = n
	return s.f.Truncate(n)
}

// reader returns a reader of the whole stream. Nothing may be written
// afterwards.
func (s *spill) reader() (io.Reader, error) {
	if s.f == nil {
		return bytes.NewReader(s.buf), nil
	}
	if err := s.flush(); err != nil {
		return nil, err
	}
	return bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.base), 64<<10), nil
}

func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// tempFile creates a temporary file and unlinks it at once: it lives as
// long as it is open and never outlives the process.
func tempFile(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}
