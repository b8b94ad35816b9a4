package convert

import (
	"encoding/binary"
	"io"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// jsonWriter writes the JSON text of a token stream that is already known to
// be well formed (it comes from toon.Decoder, which checks the structure), so
// it keeps no stack: a depth and what the previous token asks of the next one
// are enough to place commas, colons and indentation.
//
// Its output is byte for byte what jsontext.Encoder writes for the same
// tokens with AllowInvalidUTF8 and AllowDuplicateNames (and WithIndent of n
// spaces when indent > 0): the same escapes, the same whitespace and the
// newline after the root value; the tests compare the two. Unlike jsontext
// it does not check the tokens again: the decoder has.
//
// Output collects in a buffer of fixed size and goes to the io.Writer in
// chunks of up to jsonBufSize bytes (with a pipe, of up to the pipe's
// buffer size); a string longer than the buffer is written in pieces, so
// memory does not depend on the document.
type jsonWriter struct {
	w      io.Writer
	buf    []byte // pending output; its capacity is always jsonBufSize
	err    error  // the first error from w; once set, nothing more is written
	depth  int    // open objects and arrays
	next   byte   // what comes before the next key or value: one of the need* values
	indent int    // spaces per level; 0 writes compact JSON

	// pipe, when not nil, writes full buffers on a goroutine of its own
	// (outpipe.go); piped asks for one to be started at the first flush
	// of a buffer before the document ends.
	pipe  *outPipe
	piped bool
	chunk int // the pipe's buffer size; 0 for pipeChunk

	home *[jsonBufSize]byte // the buffer from jsonBufs, buf's when there is no pipe

	flushed func() // called after each flush of output, when not nil (config.flushed)

	tab tableKeys // the current table's prefixes (tabjson.go)

	par *parallel // large tables' rows converted on several goroutines, or nil (parallel.go)

	// out, when not nil, keeps the output in memory instead of writing it
	// to w (a parallel range's, parallel.go): buf is then a window of
	// jsonBufSize bytes at the end of *out, and a flush takes the bytes
	// written there into *out where they already are, without a copy.
	out *[]byte

	// lines ends each root value with its newline without flushing it:
	// ToJSONLines writes every element of an array as a root value.
	lines bool
}

// The states of jsonWriter.next. streamJSON computes where a token starts
// as next&needComma, so needComma must be the only state with bit 0 set.
const (
	needNothing = iota // first member of a container, or the root value
	needComma          // a member was written before: a comma goes first
	needValue          // a key was written (with its colon): the value follows directly
)

// jsonBufSize is the size of the output buffer and so of the chunks written.
const jsonBufSize = 64 << 10

// jsonBufs keeps output buffers between conversions: a small document
// would otherwise cost a zeroed 64 KiB allocation for a few bytes of JSON.
var jsonBufs = sync.Pool{New: func() any { return new([jsonBufSize]byte) }}

// newJSONWriter returns a writer to w with a buffer from jsonBufs; release
// gives the buffer back.
func newJSONWriter(w io.Writer, indent int) *jsonWriter {
	home := jsonBufs.Get().(*[jsonBufSize]byte)
	return &jsonWriter{w: w, buf: home[:0], home: home, indent: indent}
}

// release returns the buffer to jsonBufs. The writer must not be used
// afterwards.
func (w *jsonWriter) release() {
	jsonBufs.Put(w.home)
	w.buf, w.home = nil, nil
}

// flush hands the buffered output to w, or to the pipe. The buffer may
// change: callers that hold it must take it again from w.buf.
func (w *jsonWriter) flush() {
	if w.out != nil {
		w.extend()
		return
	}
	if len(w.buf) > 0 && w.err == nil {
		switch {
		case w.pipe != nil:
			w.handOff()
		case w.piped:
			w.startPipe()
		default:
			w.err = writeAll(w.w, w.buf)
		}
	}
	w.buf = w.buf[:0]
	if w.flushed != nil {
		w.flushed()
	}
}

// flushEnd is flush at the end of the document. A small document, which
// never filled the buffer, is written at once, without a pipe.
func (w *jsonWriter) flushEnd() {
	if w.out != nil {
		w.extend()
		return
	}
	if w.pipe == nil && len(w.buf) > 0 && w.err == nil {
		w.err = writeAll(w.w, w.buf)
		w.buf = w.buf[:0]
		return
	}
	w.flush()
}

// keepOutput makes w keep its output in *out, after what *out holds,
// until it is told otherwise (w.out = nil, with a buffer of its own).
func (w *jsonWriter) keepOutput(out *[]byte) {
	w.out, w.buf = out, w.buf[:0]
	w.extend()
}

// extend takes the bytes written in the window buf into *w.out and makes
// buf the window after them, growing *w.out when it has no room for one.
func (w *jsonWriter) extend() {
	o := *w.out
	o = o[:len(o)+len(w.buf)]
	if cap(o)-len(o) < jsonBufSize {
		o = slices.Grow(o, jsonBufSize)
	}
	*w.out = o
	w.buf = o[len(o) : len(o) : len(o)+jsonBufSize]
}

// writeAll writes b, reporting a short write without an error as
// io.ErrShortWrite, as bufio.Writer does.
func writeAll(w io.Writer, b []byte) error {
	n, err := w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	return err
}

// room makes sure n more bytes fit in the buffer, flushing it if needed. n
// must not exceed jsonBufSize.
func (w *jsonWriter) room(n int) {
	if cap(w.buf)-len(w.buf) < n {
		w.flush()
	}
}

// before writes what precedes a key or value: a comma after an earlier
// member and, when indenting, the line break and indentation of a member.
// A value that follows its key needs nothing, its colon being written with
// the key.
func (w *jsonWriter) before() {
	switch w.next {
	case needComma:
		w.room(1)
		w.buf = append(w.buf, ',')
		if w.indent > 0 {
			w.newline(w.depth)
		}
	case needNothing:
		if w.indent > 0 && w.depth > 0 {
			w.newline(w.depth)
		}
	}
}

// nlSpaces is a line break and a run of indentation: most lines start
// with a prefix of it.
var nlSpaces = "\n" + strings.Repeat(" ", 255)

// newline starts a line indented for level: a line break and level times
// indent spaces, like jsontext's indentation without a prefix. Deep levels
// can need more spaces than nlSpaces or the buffer holds, so they go in
// pieces.
func (w *jsonWriter) newline(level int) {
	n := 1 + level*w.indent
	if n <= len(nlSpaces) && n <= cap(w.buf)-len(w.buf) {
		w.buf = append(w.buf, nlSpaces[:n]...)
		return
	}
	w.room(1)
	w.buf = append(w.buf, '\n')
	for n--; n > 0; {
		k := min(n, len(nlSpaces)-1)
		w.room(k)
		w.buf = append(w.buf, nlSpaces[1:1+k]...)
		n -= k
	}
}

// open writes '{' or '['.
func (w *jsonWriter) open(c byte) {
	w.before()
	w.room(1)
	w.buf = append(w.buf, c)
	w.depth++
	w.next = needNothing
}

// close writes '}' or ']'. An empty container closes on the same line; a
// non-empty one on a line of its own when indenting.
func (w *jsonWriter) close(c byte) {
	w.depth--
	if w.indent > 0 && w.next == needComma {
		w.newline(w.depth)
	}
	w.room(1)
	w.buf = append(w.buf, c)
	w.valueDone()
}

// valueDone notes that a value is complete. The root value ends with a
// newline and is flushed at once, as jsontext does at the top level.
func (w *jsonWriter) valueDone() {
	if w.depth > 0 {
		w.next = needComma
		return
	}
	w.next = needNothing
	w.room(1)
	w.buf = append(w.buf, '\n')
	if !w.lines {
		w.flushEnd()
	}
}

// The methods below write the tokens that streamCompact and streamJSON
// leave to the writer, and every token of a non-strict conversion
// (writeLenient). Those that write a key or a value first try a fast path:
// compact output with room in the buffer for the worst case, where the
// separator, the token and the state change are written without further
// checks. Indented output, a nearly full buffer and long strings take the
// general path.

// key writes an object key and its colon (and the space after it when
// indenting).
func (w *jsonWriter) key(s []byte) {
	if w.indent == 0 && maxEscape*len(s)+quoteSlack+2 <= cap(w.buf)-len(w.buf) {
		b := w.buf
		if w.next == needComma {
			b = append(b, ',')
		}
		b = appendQuoted(b, s)
		w.buf = append(b, ':')
		w.next = needValue
		return
	}
	w.before()
	w.quote(s)
	w.room(2)
	if w.indent > 0 {
		w.buf = append(w.buf, ':', ' ')
	} else {
		w.buf = append(w.buf, ':')
	}
	w.next = needValue
}

// str writes a string value.
func (w *jsonWriter) str(s []byte) {
	if w.indent == 0 && w.depth > 0 && maxEscape*len(s)+quoteSlack+1 <= cap(w.buf)-len(w.buf) {
		b := w.buf
		if w.next == needComma {
			b = append(b, ',')
		}
		w.buf = appendQuoted(b, s)
		w.next = needComma
		return
	}
	w.before()
	w.quote(s)
	w.valueDone()
}

// raw writes a number (or literal) whose text is already valid JSON.
func (w *jsonWriter) raw(v []byte) {
	if w.indent == 0 && w.depth > 0 && len(v)+wordSlack+1 <= cap(w.buf)-len(w.buf) {
		b := w.buf
		if w.next == needComma {
			b = append(b, ',')
		}
		w.buf = appendRaw(b, v)
		w.next = needComma
		return
	}
	w.before()
	w.write(v)
	w.valueDone()
}

// write copies b to the output, bypassing the buffer when b is larger than
// it.
func (w *jsonWriter) write(b []byte) {
	if len(b) > cap(w.buf)-len(w.buf) {
		w.flush()
		if len(b) > cap(w.buf) {
			if w.out != nil {
				*w.out = append(*w.out, b...)
				w.buf = w.buf[:0]
				w.extend()
				return
			}
			if w.pipe != nil {
				w.drain() // what is in the pipe goes first
			}
			if w.err == nil {
				w.err = writeAll(w.w, b)
			}
			return
		}
	}
	w.buf = append(w.buf, b...)
}

// wordSlack is the room appendRaw and appendQuoted may need beyond what
// they append: they store whole words, whose bytes past the end are
// scratch.
const wordSlack = 8

// appendRaw appends v to dst, which must have room for len(v)+wordSlack
// more bytes. Short texts, most numbers, are stored as one word instead of
// going through memmove.
func appendRaw(dst, v []byte) []byte {
	if n := len(v); n <= 8 {
		l := len(dst)
		binary.LittleEndian.PutUint64(dst[l:l+8], loadShort(v))
		return dst[:l+n]
	}
	return append(dst, v...)
}

// maxFast is the longest string or number streamJSON writes itself, and
// fastRoom the most such a token takes: the quoted text, a colon and a
// space, and the scratch of a word store.
const (
	maxFast  = 48
	fastRoom = maxFast + 2 + 2 + wordSlack
)

// putRaw writes v at the start of b, eight bytes at a time with the last
// word overlapping the one before it, and returns len(v); or returns -1 if
// v is longer than maxFast. b must hold at least maxFast+wordSlack bytes,
// which may all be written.
func putRaw(b, v []byte) int {
	n := len(v)
	if n > maxFast {
		return -1
	}
	b = b[:maxFast+wordSlack]
	if n < 8 {
		binary.LittleEndian.PutUint64(b, loadShort(v))
		return n
	}
	for i := 0; i < n-8; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], binary.LittleEndian.Uint64(v[i:]))
	}
	binary.LittleEndian.PutUint64(b[n-8:], binary.LittleEndian.Uint64(v[n-8:]))
	return n
}

// maxEscape is the most output one input byte can become: a control
// character is written \u00XX.
const maxEscape = 6

// quote writes s as a JSON string.
func (w *jsonWriter) quote(s []byte) {
	if maxEscape*len(s)+quoteSlack <= cap(w.buf)-len(w.buf) {
		w.buf = appendQuoted(w.buf, s)
		return
	}
	if maxEscape*len(s)+quoteSlack <= cap(w.buf) {
		w.flush()
		w.buf = appendQuoted(w.buf, s)
		return
	}
	// Too long to be sure it fits in the buffer: escape it in pieces that
	// do fit. A piece never ends inside a valid UTF-8 sequence (see
	// utf8Cut), so each piece decodes exactly as the whole string would.
	w.room(1)
	w.buf = append(w.buf, '"')
	const piece = (jsonBufSize - 1) / maxEscape
	for len(s) > 0 {
		n := len(s)
		if n > piece {
			n = utf8Cut(s, piece)
		}
		w.room(maxEscape * n)
		w.buf = appendEscaped(w.buf, s[:n])
		s = s[n:]
	}
	w.room(1)
	w.buf = append(w.buf, '"')
}

// utf8Cut returns a length n, close to and at most max (< len(s)), at which
// s can be cut without splitting a valid UTF-8 sequence: s[n] does not
// continue a sequence that starts before it. A valid sequence has at most
// three continuation bytes, so if s[max-3:max+1] are all continuation bytes
// no valid sequence crosses max.
func utf8Cut(s []byte, max int) int {
	for n := max; n > max-utf8.UTFMax && n > 0; n-- {
		if !utf8.RuneStart(s[n]) {
			continue
		}
		return n
	}
	return max
}

// quoteSlack is the room appendQuoted needs beyond maxEscape*len(s): the
// quotes and the scratch of a word store.
const quoteSlack = 2 + wordSlack

// appendQuoted appends s to dst as a quoted JSON string. dst must have
// room for maxEscape*len(s)+quoteSlack more bytes.
func appendQuoted(dst, s []byte) []byte {
	l, n := len(dst), len(s)
	if n <= maxFast && putPlain(dst[l:l+n+2+wordSlack], s) {
		return dst[:l+n+2]
	}
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// putPlain writes s into d as a quoted JSON string and reports whether it
// could: s must be at most maxFast bytes and need no escape, as most
// strings are. d must have room for len(s)+2+wordSlack bytes; what it
// holds after a false result, and past the closing quote, is scratch.
//
// s is checked and copied a word at a time: the last word overlaps the
// one before it, and a string shorter than a word is read with loadShort
// and stored as one word.
func putPlain(d, s []byte) bool {
	if usePlainAVX512 {
		return putPlainAVX512(d, s)
	}
	return putPlainGeneric(d, s)
}

// putPlainGeneric is putPlain a word at a time, and its specification:
// plain_amd64.s must give the same result and the same bytes up to the
// closing quote.
func putPlainGeneric(d, s []byte) bool {
	n := len(s)
	if n > maxFast {
		return false
	}
	d = d[:n+2+wordSlack]
	if n < 8 {
		x := loadShort(s)
		if specialMask(x)&(uint64(1)<<(8*n)-1) != 0 { // only s's bytes count
			return false
		}
		binary.LittleEndian.PutUint64(d[1:], x)
	} else {
		i := 0
		for ; i < n-8; i += 8 {
			x := binary.LittleEndian.Uint64(s[i:])
			if specialMask(x) != 0 {
				return false
			}
			binary.LittleEndian.PutUint64(d[1+i:], x)
		}
		x := binary.LittleEndian.Uint64(s[n-8:])
		if specialMask(x) != 0 {
			return false
		}
		binary.LittleEndian.PutUint64(d[n-7:], x) // s[n-8:] goes to d[1+n-8:]
	}
	d[0] = '"'
	d[n+1] = '"'
	return true
}

// appendEscaped appends the JSON escaping of s, without quotes, to dst.
//
// The escapes are jsontext's defaults (jsonwire.AppendQuote without
// EscapeForHTML or EscapeForJS): '"' and '\\' get a backslash; \b, \f, \n,
// \r and \t their short forms; other bytes below 0x20 \u00XX with lowercase
// hex; each byte of ill-formed UTF-8 becomes U+FFFD, written as its UTF-8
// bytes. Everything else, including DEL, '<', '>', '&', U+2028 and U+2029,
// is copied as it is.
func appendEscaped(dst, s []byte) []byte {
	start := 0 // s[start:i] is pending verbatim output
	i := 0
	for {
		i = special(s, i)
		if i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(s[i:])
			if r != utf8.RuneError || n != 1 {
				i += n // valid UTF-8 (U+FFFD itself included) is copied
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscape[c]; e != 0 {
			dst = append(dst, '\\', e)
		} else {
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	return append(dst, s[start:]...)
}

// shortEscape is the letter after the backslash for the bytes that have a
// two-byte escape; the other control characters have 0.
var shortEscape = [utf8.RuneSelf]byte{
	'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't',
}

// Word masks for specialMask: every byte set to 0x01, 0x80, and the values
// it uses.
const (
	byte01s    = 0x0101010101010101
	byte80s    = 0x8080808080808080
	bslashWord = '\\' * byte01s
	flipWord   = 0x02 * byte01s // maps '"' to 0x20, control characters to control characters
	belowWord  = 0x21 * byte01s
)

// specialMask marks the bytes of the word x (little-endian) that are not
// copied as they are: control characters, '"', '\\' and bytes >= 0x80. The
// mark is the top bit of the byte.
//
// For a word v, (v - n*byte01s) & ^v & byte80s marks the bytes of v below
// n (for n <= 0x80). Flipping bit 1 of every byte (v = x^flipWord) keeps
// the control characters below 0x20 and turns '"' (0x22) into 0x20, while
// no other byte lands below 0x21, so one such test with n = 0x21 finds
// both; another, with n = 1 on x^bslashWord, finds '\\'; and x & byte80s
// marks the bytes >= 0x80. The subtractions can also mark a byte above a real match
// (through a borrow), never one below, so the lowest mark is always a real
// one and a word without marks has no special byte.
func specialMask(x uint64) uint64 {
	v := x ^ flipWord
	b := x ^ bslashWord
	return ((v-belowWord)&^v | (b-byte01s)&^b | x) & byte80s
}

// loadShort returns the bytes of t, at most 8, as a little-endian word
// whose bytes above len(t) are zero. It reads t with at most two
// overlapping loads instead of a byte at a time.
func loadShort(t []byte) uint64 {
	switch n := len(t); {
	case n >= 8:
		return binary.LittleEndian.Uint64(t)
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(t)) | uint64(binary.LittleEndian.Uint32(t[n-4:]))<<((8*(n-4))&63)
	case n >= 2:
		return uint64(binary.LittleEndian.Uint16(t)) | uint64(binary.LittleEndian.Uint16(t[n-2:]))<<((8*(n-2))&63)
	case n == 1:
		return uint64(t[0])
	}
	return 0
}

// special returns the index of the first byte at or after i that is not
// copied as it is (see specialMask), or len(s). It tests eight bytes per
// step; the last, partial word is loaded with zero bytes above the end of
// s, which specialMask marks, so that a mark there means "none".
func special(s []byte, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := specialMask(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	rem := len(s) - i
	if rem == 0 {
		return i
	}
	var x uint64
	if len(s) >= 8 {
		// The last eight bytes, shifted so that s[i] is the lowest.
		x = binary.LittleEndian.Uint64(s[len(s)-8:]) >> ((8 * (8 - rem)) & 63)
	} else {
		x = loadShort(s[i:])
	}
	return i + bits.TrailingZeros64(specialMask(x))>>3
}
