package toon

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"unicode/utf8"
)

// This file holds the decoder's line reader: it reads lines from an
// io.Reader through a refillable buffer (or straight out of a byte slice),
// drops comment lines and measures indentation. It never looks at more
// than one line at a time.
//
// Buffer invariants: the unread input is buf[pos:end]; base is the input
// offset of buf[0]. A line returned by readLine is a view into buf and stays
// valid until the next call to readLine, which may move or overwrite the
// buffer's contents.

// firstInvalidUTF8 returns the index of the first byte of b that does not
// begin a valid UTF-8 sequence.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			i++
			continue
		}
		r, n := decodeRune(b[i:])
		if r < 0 {
			return i
		}
		i += n
	}
	return len(b)
}

const defaultBufSize = 64 << 10

// lineReader reads lines.
type lineReader struct {
	r       io.Reader
	buf     []byte
	pos     int   // start of unread data
	end     int   // end of valid data
	scanned int   // buf[pos:scanned] is known to hold no LF
	base    int64 // input offset of buf[0]
	eof     bool  // the reader has reported io.EOF
	maxLine int
	indent  int
	strict  bool
	lineNum int

	// shift is log2 of the indent size when it is a power of two (the
	// default 2 among them), else -1; then the depth of the last
	// indentation width seen.
	shift      int
	lastSpaces int
	lastDepth  int
	lastOdd    bool

	// keepOff is the input offset of a line whose text errors may still
	// need (the decoder's last content line): fill copies the first
	// keptLen <= sourceMax bytes of it to kept, and keptOff records whose
	// they are, before moving the buffer over it.
	keepOff int64
	keptOff int64
	keptLen int
	kept    [sourceMax]byte
}

// sourceMax is the most bytes of a line an error quotes.
const sourceMax = 256

// rawLine is one line of input after comment removal.
type rawLine struct {
	full   []byte // the whole line without its terminator (view)
	text   []byte // content after the indentation (view)
	num    int    // 1-based line number
	off    int64  // input offset of full[0]
	spaces int    // width of the indentation (tabs count as one indent unit)
	depth  int
	blank  bool
	tab    bool // the indentation contains a tab
	odd    bool // spaces is not a multiple of the indent size
}

func (l *lineReader) init(r io.Reader, o *options) {
	l.r = r
	l.maxLine = o.maxLine
	l.setIndent(o.indent)
	l.strict = o.strict
	if l.buf == nil {
		l.buf = make([]byte, l.bufSize(o))
	}
}

// bufSize is the size of the buffer init makes: defaultBufSize, or less
// where the longest line allowed is shorter.
func (l *lineReader) bufSize(o *options) int {
	return min(defaultBufSize, o.maxLine+1)
}

// reset makes l read from r, as init does, keeping its buffer unless it
// was the caller's byte slice.
func (l *lineReader) reset(r io.Reader, o *options) {
	buf := l.buf
	if l.r == nil {
		buf = nil // the buffer was the caller's byte slice
	}
	*l = lineReader{buf: buf}
	l.init(r, o)
}

// initBytes makes the line reader read lines straight out of data, without a
// reader and without copying.
func (l *lineReader) initBytes(data []byte, o *options) {
	l.r = nil
	l.buf = data
	l.end = len(data)
	l.eof = true
	l.maxLine = o.maxLine
	l.setIndent(o.indent)
	l.strict = o.strict
}

// setIndent sets the indent size, n >= 1.
func (l *lineReader) setIndent(n int) {
	l.indent, l.shift = n, -1
	if n&(n-1) == 0 {
		l.shift = bits.TrailingZeros(uint(n))
	}
}

// readRaw returns the next line without its LF, or io.EOF. A read error
// other than io.EOF is returned as it is, and the partial line before it is
// not returned as a line.
func (l *lineReader) readRaw() ([]byte, int64, error) {
	for {
		if i := indexNewline(l.buf[l.scanned:l.end]); i >= 0 {
			stop := l.scanned + i
			line := l.buf[l.pos:stop]
			off := l.base + int64(l.pos)
			l.pos = stop + 1
			l.scanned = l.pos
			if len(line) > l.maxLine {
				return nil, off, ErrLineTooLong
			}
			return line, off, nil
		}
		l.scanned = l.end
		if l.end-l.pos > l.maxLine {
			return nil, l.base + int64(l.pos), ErrLineTooLong
		}
		if l.eof {
			if l.pos < l.end {
				line := l.buf[l.pos:l.end]
				off := l.base + int64(l.pos)
				l.pos = l.end
				l.scanned = l.end
				return line, off, nil
			}
			return nil, l.base + int64(l.end), io.EOF
		}
		if err := l.fill(); err != nil {
			return nil, l.base + int64(l.end), err
		}
	}
}

// fill reads more input, moving unread data to the front of the buffer and
// growing it (up to maxLine+1 bytes) when a line does not fit.
func (l *lineReader) fill() error {
	if l.pos > 0 {
		if k := l.keepOff - l.base; k >= 0 && k < int64(l.pos) {
			l.keptLen = copy(l.kept[:], lineAt(l.buf[k:l.pos]))
			l.keptOff = l.keepOff
		}
		n := copy(l.buf, l.buf[l.pos:l.end])
		l.base += int64(l.pos)
		l.scanned -= l.pos
		l.end = n
		l.pos = 0
	}
	if l.end == len(l.buf) {
		size := 2 * len(l.buf)
		if limit := l.maxLine + 1; size >= l.maxLine {
			size = limit // go to the limit at once rather than by one byte
		}
		if size <= len(l.buf) {
			return ErrLineTooLong
		}
		nb := make([]byte, size)
		copy(nb, l.buf[:l.end])
		l.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := l.r.Read(l.buf[l.end:])
		if n < 0 || n > len(l.buf)-l.end {
			return io.ErrNoProgress
		}
		l.end += n
		if err == io.EOF {
			l.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}

// source returns the text of the line that starts at input offset off, cut
// at sourceMax bytes: off must be the last line given to keepOff, or a line
// still in the buffer.
func (l *lineReader) source(off int64) []byte {
	if k := off - l.base; k >= 0 && k < int64(l.end) {
		return lineAt(l.buf[k:l.end])
	}
	if off == l.keptOff {
		return l.kept[:l.keptLen]
	}
	return nil
}

// lineAt returns the line at the start of b without its terminator, cut at
// sourceMax bytes.
func lineAt(b []byte) []byte {
	b = b[:min(len(b), sourceMax+1)]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b[:min(len(b), sourceMax)]
}

// readLine returns the next line that is not a comment line (§5.1).
// Blank lines are returned with blank set.
func (l *lineReader) readLine(ln *rawLine) error {
	for {
		line, off, err := l.readRaw()
		if err != nil {
			if err == ErrLineTooLong {
				l.lineNum++
				ln.num = l.lineNum
				ln.off = off
				ln.full = nil
				ln.text = nil
			}
			return err
		}
		l.lineNum++
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		i := leadingSpaces(line)
		if i < len(line) && line[i] == '#' {
			// A comment line (only spaces may precede '#') is dropped, but
			// in strict mode its bytes must still be UTF-8 (§4).
			if l.strict && !utf8Valid(line) {
				ln.full, ln.text, ln.num, ln.off = line, line[i:], l.lineNum, off
				return errCommentUTF8
			}
			continue
		}
		spaces := i
		tab := false
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			if line[i] == '\t' {
				tab = true
				spaces += l.indent
			} else {
				spaces++
			}
			i++
		}
		ln.full = line
		ln.text = line[i:]
		ln.num = l.lineNum
		ln.off = off
		ln.spaces = spaces
		ln.tab = tab
		// A line of spaces is blank (§12). In strict mode a line whose
		// whitespace includes a tab is not: the tab is not trimmed (only
		// U+0020 is), so it stands in the line's indentation, an error.
		ln.blank = i == len(line) && (!tab || !l.strict)
		ln.depth, ln.odd = l.depthOf(spaces)
		return nil
	}
}

// depthOf returns the depth of an indentation of width spaces, and
// whether the width is not a multiple of the indent size.
func (l *lineReader) depthOf(spaces int) (int, bool) {
	if l.shift >= 0 {
		return spaces >> uint(l.shift), spaces&(l.indent-1) != 0
	}
	if spaces != l.lastSpaces {
		// Divisions are slow; consecutive lines mostly share an indent.
		l.lastSpaces = spaces
		l.lastDepth, l.lastOdd = spaces/l.indent, spaces%l.indent != 0
	}
	return l.lastDepth, l.lastOdd
}

// validUTF8 reports whether b is well-formed UTF-8 (no surrogates). Lines
// are mostly ASCII: a check of four words at a time, then of a word at a
// time, settles those before utf8Valid is called. The last partial word is
// checked as the line's last eight bytes, which overlap bytes already
// known to be ASCII.
func validUTF8(b []byte) bool {
	n := len(b)
	i := 0
	for ; i+32 <= n; i += 32 {
		w := b[i : i+32]
		if (binary.LittleEndian.Uint64(w)|binary.LittleEndian.Uint64(w[8:])|
			binary.LittleEndian.Uint64(w[16:])|binary.LittleEndian.Uint64(w[24:]))&swarHi != 0 {
			return utf8Valid(b[i:])
		}
	}
	for ; i+8 <= n; i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&swarHi != 0 {
			return utf8Valid(b[i:])
		}
	}
	if i == n {
		return true
	}
	if n >= 8 {
		if binary.LittleEndian.Uint64(b[n-8:])&swarHi != 0 {
			return utf8Valid(b[i:])
		}
		return true
	}
	for ; i < n; i++ {
		if b[i] >= utf8.RuneSelf {
			return utf8Valid(b[i:])
		}
	}
	return true
}

// leadingSpaces returns the number of ' ' bytes at the start of b, a word
// at a time.
func leadingSpaces(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if x := binary.LittleEndian.Uint64(b[i:]) ^ (' ' * swarLo); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

// trimSpaces removes U+0020 on both sides (§12: no other character).
func trimSpaces(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// trimSpan narrows [s, e) of b to exclude surrounding spaces.
func trimSpan(b []byte, s, e int) (int, int) {
	for s < e && b[s] == ' ' {
		s++
	}
	for e > s && b[e-1] == ' ' {
		e--
	}
	return s, e
}

// decodeRune decodes the UTF-8 sequence at the start of b, returning -1 for
// an ill-formed one.
func decodeRune(b []byte) (rune, int) {
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n <= 1 {
		return -1, 1
	}
	return r, n
}
