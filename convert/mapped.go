package convert

import (
	"bufio"
	"errors"
	"io"
	"os"
	"runtime/debug"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// This file reads input files through a read-only memory mapping
// (mapped_linux.go makes it; elsewhere files are read with ReadAt):
//
//   - FromJSONFile hands FromJSON a fileInput, its seekable input, whose
//     passes lex the mapping in place (lexerFor: the lexer's buffer is a
//     window of the mapping); the far-half helper (ahead.go) and the
//     re-reading of an input with an error copy from it with ReadAt and
//     Read;
//   - ToJSONFile decodes the mapping in place (ToJSONBytes).
//
// Pages of a mapping count in the process's resident memory once touched,
// so that reading a whole file through one would make the process look as
// large as the file. The readers release what they have passed, a block of
// releaseBlock bytes at a time (releasePages: the pages stay in the page
// cache, and come back from it if they are read again), and memory stays
// flat.
//
// A mapping goes on reading the file: if another process makes the file
// shorter while it is mapped, reading a page past the new end raises a
// fault (SIGBUS), which would end the program. The readers of a mapping
// run with debug.SetPanicOnFault, turn such a fault into errShrunk, and
// stop. A file changed in place (not shortened) is read as it is at each
// moment: the output is then unspecified, as the text read is, and since
// the lexer and the decoder read the mapping in place, text that changes
// after they checked it breaks what they assume of it, which may end in a
// panic. A file replaced by another (renamed over, as editors and the toon
// command do) is not affected: the mapping keeps the file that was opened.

// releaseBlock is the unit in which the pages of a mapping that a reader
// has passed are released: a multiple of any page size. Each release of
// a multi-threaded process's pages interrupts its other running threads
// to flush their TLBs (an inter-processor interrupt, dear in a virtual
// machine), so the unit is not small: with 1 MiB, and the workers
// releasing their own ranges, FromJSON's parallel pass over a 798 MB
// table made about 3,000 such interrupts and took 8% more wall time than
// with 4 MiB released by one goroutine (fromjson_parallel.go); larger,
// more of the input stays resident.
const releaseBlock = 4 << 20

// WithProgress makes FromJSONFile and ToJSONFile report how far they have
// read: f is called now and then, on the goroutine that called them, with
// the pass over the input (FromJSONFile reads it twice, ToJSONFile once;
// an error in the input may be located by one more) and the offset in the
// input, from its start, that the pass has reached. Offsets grow within a
// pass and start again from 0 with the next. FromJSON and ToJSON ignore it.
func WithProgress(f func(pass int, off int64)) Option {
	return func(c *config) { c.progress = f }
}

// progressFunc is the function WithProgress sets.
type progressFunc = func(pass int, off int64)

// ToJSONBytes is ToJSON of the TOON document in data, decoded in place
// (see toon.NewBytesDecoder): data is neither copied nor written to, so it
// may be a read-only memory mapping, and it must not change until
// ToJSONBytes returns.
func ToJSONBytes(w io.Writer, data []byte, opts ...Option) error {
	c := makeConfig(opts)
	c.par = parallelFor(&c, len(data))
	return toJSON(w, toon.NewBytesDecoder(data, c.decoderOptions()...), c)
}

// FromJSONFile is FromJSON of the JSON in f, from its current offset to
// its end; it does not move f's offset. A regular file is mapped (on
// Linux; elsewhere, or if the mapping fails, f is read with ReadAt), and
// both passes read the mapping. If another process makes the file shorter
// meanwhile, the error says so (it is not a fault that ends the program;
// see the top of mapped.go).
func FromJSONFile(w io.Writer, f *os.File, opts ...Option) (err error) {
	in, err := openFileInput(f)
	if err != nil {
		return err
	}
	defer in.close()
	c := makeConfig(opts)
	in.progress = c.progress
	if in.data != nil {
		// FromJSON's passes read the mapping in place (lexerFor).
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer in.guard(&err)
	}
	if err := FromJSON(w, in, opts...); err != nil {
		return err
	}
	if in.progress != nil && in.size >= 0 {
		in.progress(in.pass, in.size)
	}
	return nil
}

// ToJSONFile is ToJSON of the TOON document in f, from its current offset
// to its end; it does not move f's offset. A regular file is mapped (on
// Linux; elsewhere, or if the mapping fails, f is read with ReadAt) and
// decoded in place, as ToJSONBytes decodes. If another process makes the
// file shorter meanwhile, the error says so (it is not a fault that ends
// the program; see the top of mapped.go).
func ToJSONFile(w io.Writer, f *os.File, opts ...Option) (err error) {
	in, err := openFileInput(f)
	if err != nil {
		return err
	}
	defer in.close()
	c := makeConfig(opts)
	in.progress = c.progress
	if in.data == nil {
		return toJSON(w, toon.NewDecoder(bufio.NewReaderSize(in, 64<<10), c.decoderOptions()...), c)
	}
	dec := toon.NewBytesDecoder(in.data, c.decoderOptions()...)
	// reached is the end of the last range of a table converted in
	// parallel (parallel.go), during which the decoder stays at the
	// table's header.
	var reached int64
	if c.par = parallelFor(&c, len(in.data)); c.par != nil {
		c.par.mapped = true
		c.par.done = func(start, end int64) {
			reached = end
			in.release(start, end)
			if in.progress != nil {
				in.progress(1, end)
			}
		}
	}
	var last int64 // the offset at the last flush
	c.flushed = func() {
		off := max(dec.InputOffset(), reached)
		in.release(last, off)
		last = off
		if in.progress != nil {
			in.progress(1, off)
		}
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer in.guard(&err)
	if err := toJSON(w, dec, c); err != nil {
		return err
	}
	if in.progress != nil {
		in.progress(1, in.size)
	}
	return nil
}

// fileInput is the part of a file from start to its end, read from a
// mapping of it or, when data is nil, with ReadAt. It is FromJSON's input
// (an io.Reader, io.Seeker and io.ReaderAt, with offsets from the start of
// the part); Read and Seek serve the goroutine of FromJSON's passes, whose
// in-place lexers move pos along (passed), and ReadAt its helper
// (ahead.go).
type fileInput struct {
	f        *os.File
	start    int64
	size     int64
	mem      []byte // the mapping, from a page boundary; nil if none
	data     []byte // the part in mem
	pos      int64  // Read's offset
	pass     int    // the pass Read is in, from 1
	moved    bool   // Read has read in this pass
	held     bool   // passed leaves the releases to FromJSON's parallel pass (holdPages)
	progress progressFunc
}

func openFileInput(f *os.File) (*fileInput, error) {
	in := &fileInput{f: f, pass: 1, size: -1}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		// Not a file whose size is known: FromJSON and ToJSON read it as
		// a stream (FromJSON spools it first).
		return in, nil
	}
	if in.start, err = f.Seek(0, io.SeekCurrent); err != nil {
		return nil, err
	}
	in.size = max(fi.Size()-in.start, 0)
	if in.size > 0 {
		if mem, data, err := mapFile(f, in.start, in.size); err == nil {
			in.mem, in.data = mem, data
		}
	}
	return in, nil
}

// release releases the pages of the blocks of the mapping that a reader
// moving from offset from to offset to has passed.
func (in *fileInput) release(from, to int64) {
	if in.mem == nil {
		return
	}
	shift := int64(len(in.mem) - len(in.data)) // mem starts on a page boundary
	lo := (from + shift) / releaseBlock * releaseBlock
	hi := (to + shift) / releaseBlock * releaseBlock
	if lo < hi {
		releasePages(in.mem[lo:hi])
	}
}

func (in *fileInput) close() {
	if in.mem != nil {
		unmapFile(in.mem)
		in.mem, in.data = nil, nil
	}
}

// guard turns a fault in the mapping, which panics under
// debug.SetPanicOnFault, into errShrunk in *err; any other panic goes on.
// A function that reads the mapping calls debug.SetPanicOnFault(true)
// and defers the restoring of the setting, then defers guard.
func (in *fileInput) guard(err *error) {
	p := recover()
	if p == nil {
		return
	}
	if fe, ok := p.(interface{ Addr() uintptr }); ok && in.holds(fe.Addr()) {
		*err = errShrunk
		return
	}
	panic(p)
}

// holds reports whether addr is in the mapping.
func (in *fileInput) holds(addr uintptr) bool {
	if len(in.mem) == 0 {
		return false
	}
	lo := mem.BytesData(in.mem).Uintptr()
	return addr >= lo && addr-lo < uintptr(len(in.mem))
}

// copyAt copies the data at off to b. It returns errShrunk instead of
// faulting if the file became shorter than the mapping.
func (in *fileInput) copyAt(b []byte, off int64) (n int, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer in.guard(&err)
	return copy(b, in.data[off:]), nil
}

func (in *fileInput) Read(b []byte) (n int, err error) {
	switch {
	case in.size < 0:
		n, err = in.f.Read(b)
	case in.pos >= in.size:
		return 0, io.EOF
	case in.data != nil:
		n, err = in.copyAt(b, in.pos)
		in.release(in.pos, in.pos+int64(n))
	default:
		n, err = in.f.ReadAt(b[:min(int64(len(b)), in.size-in.pos)], in.start+in.pos)
		if err == io.EOF && n > 0 {
			err = nil
		}
	}
	in.pos += int64(n)
	in.moved = in.moved || n > 0
	if in.progress != nil && n > 0 {
		in.progress(in.pass, in.pos)
	}
	return n, err
}

func (in *fileInput) ReadAt(b []byte, off int64) (int, error) {
	if in.size < 0 {
		return 0, errors.New("convert: ReadAt on a file that is not regular")
	}
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off >= in.size {
		return 0, io.EOF
	}
	k := min(int64(len(b)), in.size-off)
	var n int
	var err error
	if in.data != nil {
		n, err = in.copyAt(b[:k], off)
		in.release(off, off+int64(n))
	} else if n, err = in.f.ReadAt(b[:k], in.start+off); err == io.EOF && int64(n) == k {
		err = nil
	}
	if err == nil && int64(n) < int64(len(b)) {
		err = io.EOF
	}
	return n, err
}

// Seek moves Read's offset. A seek back to the start after Read has read
// begins the next pass.
func (in *fileInput) Seek(off int64, whence int) (int64, error) {
	if in.size < 0 {
		return 0, errors.New("convert: the input cannot seek")
	}
	switch whence {
	case io.SeekCurrent:
		off += in.pos
	case io.SeekEnd:
		off += in.size
	}
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off == 0 && in.moved {
		in.pass++
		in.moved = false
	}
	in.pos = off
	return off, nil
}

// lexerFor returns the lexer of FromJSON's passes over r: if r is a mapped
// fileInput, one that reads the mapping in place, through a window of win
// bytes, from r's offset; else newLexer(r, buf).
func lexerFor(r io.Reader, buf []byte, win int) *lexer {
	in, ok := r.(*fileInput)
	if !ok || in.data == nil {
		return newLexer(r, buf)
	}
	l := &lexer{mem: in.data, win: max(win, 16), slid: in.passed, maxTok: toon.DefaultMaxLineLength}
	l.window(in.pos)
	return l
}

// window moves the lexer's window to input offset off.
func (l *lexer) window(off int64) {
	end := min(int64(len(l.mem)), off+int64(l.win))
	l.buf = l.mem[off:end:end]
	l.base = off
	l.eof = end == int64(len(l.mem))
	if l.slid != nil {
		l.slid(off)
	}
}

// slide is fill for a lexer of mem: it moves the window to start at
// buf[keep] (nothing is copied), widening it as fill grows its buffer when
// the bytes kept fill it. fill has checked that mem goes on past the
// window, so the new window ends further on.
func (l *lexer) slide(keep int) (shift int, ok bool) {
	if kept := len(l.buf) - keep; kept == l.win {
		if kept >= l.maxTok+2 { // more than a string of maxTok bytes with its quotes
			l.long = true
			return 0, false
		}
		l.win = min(2*l.win, l.maxTok+2)
	}
	l.window(l.base + int64(keep))
	l.i -= keep
	return keep, true
}

// passed is told by an in-place lexer of each move of its window to
// offset off: the pass has read the input that far, which is where Read
// and Seek take it from.
func (in *fileInput) passed(off int64) {
	if !in.held {
		in.release(in.pos, off)
	}
	in.pos = off
	in.moved = in.moved || off > 0
	if in.progress != nil {
		in.progress(in.pass, off)
	}
}
