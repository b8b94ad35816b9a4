package convert

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// lexer is the JSON tokenizer of both passes of FromJSON. It accepts
// exactly the documents jsontext.Decoder accepts with its default options,
// less the duplicate-name check, which the first pass does itself: RFC 8259
// grammar, strings of valid UTF-8 without control characters, escapes that
// are well formed with surrogates paired, nesting at most 10,000 deep. It
// exists because jsontext's general machinery (token values, the state
// machine's namespace, per-call buffer bookkeeping) cost most of FromJSON's
// time, while the conversion only needs each token's kind and raw text.
//
// The lexer validates but does not explain: its errors carry an offset and
// a short reason, and FromJSON re-reads a rejected input with jsontext to
// report jsontext's own error (see referenceError). The differential tests
// and FuzzLexer hold the two to the same language.
type lexer struct {
	r     io.Reader
	seek  func(off int64) error // moves r to input offset off, if it can
	buf   []byte                // buffered input; buf[i:] is unread
	i     int
	base  int64 // input offset of buf[0]
	eof   bool  // r is exhausted (or failed: rerr)
	rerr  error // a read error other than io.EOF
	state uint8
	stack []byte // open containers, '{' or '['

	// The last token is buf[lo:hi]: a key's or string's contents between
	// the quotes (still escaped when esc), a number's or literal's text.
	// Offsets rather than slices spare the hot path pointer writes.
	lo, hi int
	esc    bool  // the string has escapes
	off    int64 // input offset of the token

	// maxTok is the longest string (between its quotes) or number the
	// lexer reads: each becomes part of one TOON line, so it is the TOON
	// line limit. The buffer never grows past what such a token needs, and
	// long is set when a longer one fills it.
	maxTok int
	long   bool

	// mem, when not nil, is the whole input, read in place: buf is a
	// window of it that slide moves along in place of fill's reads (see
	// mapped.go), win the window's size and slid, if set, is told of each
	// move.
	mem  []byte
	win  int
	slid func(base int64)

	// lines is set for JSON Lines read as an array (jsonl.go): the
	// elements of the root array must be objects and are separated by
	// recSep instead of ','. recSep is not JSON whitespace, so a line
	// break between records is accepted only where a new element of the
	// root array may start.
	lines bool
}

// text returns the last token's text; for a key or string, its contents
// without the quotes, escaped if l.esc. It is valid until the next call.
func (l *lexer) text() []byte { return l.buf[l.lo:l.hi] }

// quoted returns the last key or string with its quotes.
func (l *lexer) quoted() []byte { return l.buf[l.lo-1 : l.hi+1] }

// Token kinds returned by lexer.next.
const (
	tkEOF      = 0 // the end of the input after the root value
	tkObjStart = '{'
	tkObjEnd   = '}'
	tkArrStart = '['
	tkArrEnd   = ']'
	tkKey      = ':' // an object member name
	tkString   = '"'
	tkNumber   = '0'
	tkTrue     = 't'
	tkFalse    = 'f'
	tkNull     = 'n'
)

// Grammar states: what the next token may be.
const (
	lxValue     uint8 = iota // a value: the root, after ':' or after ',' in an array
	lxFirstItem              // after '[': a value or ']'
	lxFirstKey               // after '{': a name or '}'
	lxKey                    // after ',' in an object: a name
	lxColon                  // after a name: ':'
	lxAfter                  // after a member or element: ',' or the end of the container
	lxDone                   // after the root value: nothing but whitespace
)

// lexMaxDepth is jsontext's nesting limit, which the lexer shares so that
// both accept the same documents.
const lexMaxDepth = 10000

const lexBufSize = 256 << 10

// newLexer returns a lexer of r that reads into buf (a new buffer if buf
// has less than 16 bytes of capacity; tests use small ones to exercise
// refills).
func newLexer(r io.Reader, buf []byte) *lexer {
	if cap(buf) < 16 {
		buf = make([]byte, 0, lexBufSize)
	}
	return &lexer{r: r, buf: buf[:0], maxTok: toon.DefaultMaxLineLength}
}

// tooLong returns the error for the string or number at buf[at], which is
// longer than maxTok bytes.
func (l *lexer) tooLong(at int, what string) error {
	err := fmt.Errorf("%w: a JSON %s of more than %d bytes would not fit on a TOON line (toon.DefaultMaxLineLength)",
		toon.ErrLineTooLong, what, l.maxTok)
	return &syntaxError{off: l.base + int64(at), msg: err.Error(), err: err}
}

// fail returns the error at buf[at], or the read error if the input ended
// early because reading failed.
func (l *lexer) fail(at int, msg string) error {
	if l.rerr != nil && at >= len(l.buf) {
		return l.rerr
	}
	return &syntaxError{off: l.base + int64(at), msg: msg}
}

func (l *lexer) failChar(at int, where string) error {
	if at >= len(l.buf) {
		return l.fail(at, "unexpected end of input "+where)
	}
	return l.fail(at, "invalid character "+strconv.QuoteRune(rune(l.buf[at]))+" "+where)
}

// fill reads more input, keeping buf[keep:], which moves to the front. It
// returns how far the kept bytes moved and whether anything new was read.
func (l *lexer) fill(keep int) (shift int, ok bool) {
	if l.eof {
		return 0, false
	}
	if l.mem != nil {
		return l.slide(keep)
	}
	if keep > 0 {
		n := copy(l.buf[:cap(l.buf)], l.buf[keep:])
		l.buf = l.buf[:n]
		l.base += int64(keep)
		l.i -= keep
		shift = keep
	}
	if len(l.buf) == cap(l.buf) { // one token fills the buffer: grow it
		if len(l.buf) >= l.maxTok+2 { // more than a string of maxTok bytes with its quotes
			l.long = true
			return shift, false
		}
		nb := make([]byte, len(l.buf), min(2*cap(l.buf), l.maxTok+2))
		copy(nb, l.buf)
		l.buf = nb
	}
	for tries := 0; tries < maxEmptyReads; tries++ {
		n, err := l.r.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		if err != nil {
			l.eof = true
			if err != io.EOF {
				l.rerr = err
			}
			return shift, n > 0
		}
		if n > 0 {
			return shift, true
		}
	}
	l.eof = true
	l.rerr = io.ErrNoProgress
	return shift, false
}

// peek skips whitespace and returns the next byte, unread; ok is false at
// the end of the input.
func (l *lexer) peek() (c byte, ok bool) {
	for {
		for l.i < len(l.buf) {
			c = l.buf[l.i]
			if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return c, true
			}
			l.i++
		}
		if _, ok := l.fill(l.i); !ok {
			return 0, false
		}
	}
}

// next reads the next token and returns its kind. At the end of a complete
// document it returns tkEOF; any other end is an error.
func (l *lexer) next() (byte, error) {
	var c byte
	var ok bool
	if l.i < len(l.buf) && l.buf[l.i] > ' ' {
		c, ok = l.buf[l.i], true
	} else {
		c, ok = l.peek()
	}
	for {
		switch l.state {
		case lxAfter:
			top := l.stack[len(l.stack)-1]
			switch {
			case c == ',' && ok:
				if l.lines && len(l.stack) == 1 {
					return 0, l.failChar(l.i, "between two JSON Lines records")
				}
				l.i++
				l.state = lxValue
				if top == '{' {
					l.state = lxKey
				}
				if l.i < len(l.buf) && l.buf[l.i] > ' ' {
					c = l.buf[l.i]
				} else {
					c, ok = l.peek()
				}
				continue
			case ok && (c == '}' && top == '{' || c == ']' && top == '['):
				l.off = l.base + int64(l.i)
				l.i++
				l.pop()
				return c, nil
			case c == recSep && ok && l.lines && len(l.stack) == 1:
				l.i++
				l.state = lxValue
				c, ok = l.peek()
				continue
			}
			if top == '{' {
				return 0, l.failChar(l.i, "after object value (expecting ',' or '}')")
			}
			return 0, l.failChar(l.i, "after array element (expecting ',' or ']')")
		case lxColon:
			if !ok || c != ':' {
				return 0, l.failChar(l.i, "after object name (expecting ':')")
			}
			l.i++
			l.state = lxValue
			if l.i < len(l.buf) && l.buf[l.i] > ' ' {
				c = l.buf[l.i]
			} else {
				c, ok = l.peek()
			}
			continue
		case lxKey, lxFirstKey:
			if ok && c == '}' && l.state == lxFirstKey {
				l.off = l.base + int64(l.i)
				l.i++
				l.pop()
				return c, nil
			}
			if !ok || c != '"' {
				return 0, l.failChar(l.i, "at start of object name (expecting '\"')")
			}
			if err := l.str(); err != nil {
				return 0, err
			}
			l.state = lxColon
			return tkKey, nil
		case lxDone:
			if !ok {
				if l.rerr != nil {
					return 0, l.rerr
				}
				return tkEOF, nil
			}
			return 0, l.failChar(l.i, "after top-level value")
		}
		// lxValue, lxFirstItem
		if !ok {
			return 0, l.failChar(l.i, "(expecting a value)")
		}
		if c == ']' && l.state == lxFirstItem {
			l.off = l.base + int64(l.i)
			l.i++
			l.pop()
			return c, nil
		}
		return l.value(c)
	}
}

func (l *lexer) pop() {
	l.stack = l.stack[:len(l.stack)-1]
	l.afterValue()
}

func (l *lexer) afterValue() {
	if len(l.stack) == 0 {
		l.state = lxDone
	} else {
		l.state = lxAfter
	}
}

// value reads the value that starts with c at buf[i].
func (l *lexer) value(c byte) (byte, error) {
	l.off = l.base + int64(l.i)
	if l.lines && len(l.stack) == 1 && c != '{' {
		return 0, l.failChar(l.i, "at start of a JSON Lines record (expecting '{')")
	}
	switch c {
	case '{', '[':
		if len(l.stack) == lexMaxDepth {
			return 0, l.fail(l.i, "exceeded max depth")
		}
		l.stack = append(l.stack, c)
		l.i++
		l.state = lxFirstKey
		if c == '[' {
			l.state = lxFirstItem
		}
		return c, nil
	case '"':
		if err := l.str(); err != nil {
			return 0, err
		}
		l.afterValue()
		return tkString, nil
	case 't', 'f', 'n':
		if err := l.literal(c); err != nil {
			return 0, err
		}
		l.afterValue()
		return c, nil
	}
	if c == '-' || c-'0' < 10 {
		if err := l.number(); err != nil {
			return 0, err
		}
		l.afterValue()
		return tkNumber, nil
	}
	return 0, l.failChar(l.i, "at start of value")
}

func (l *lexer) literal(c byte) error {
	if len(l.buf)-l.i < 5 {
		for len(l.buf)-l.i < 5 {
			if _, ok := l.fill(l.i); !ok {
				break
			}
		}
	}
	lit := "null"
	switch c {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	}
	b := l.buf[l.i:]
	for j := 1; j < len(lit); j++ {
		if j >= len(b) || b[j] != lit[j] {
			return l.failChar(l.i+j, "in literal "+lit)
		}
	}
	l.lo, l.hi = l.i, l.i+len(lit)
	l.i += len(lit)
	return nil
}

// numChar marks the bytes that can appear in a JSON number. A run of them
// that is not exactly one number is an error: no number may be followed
// by another number byte.
var numChar = [256]bool{'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true, '-': true, '+': true, '.': true, 'e': true, 'E': true}

func (l *lexer) number() error {
	j := l.i
	for {
		for j < len(l.buf) && numChar[l.buf[j]] {
			j++
		}
		if j < len(l.buf) {
			break
		}
		shift, ok := l.fill(l.i)
		j -= shift
		if !ok {
			break
		}
	}
	if l.long || j-l.i > l.maxTok {
		return l.tooLong(l.i, "number")
	}
	s := l.buf[l.i:j]
	if bad, ok := validNumber(s); !ok {
		return l.failChar(l.i+bad, "in number")
	}
	l.lo, l.hi = l.i, j
	l.i = j
	return nil
}

// validNumber reports whether s is exactly one JSON number; if not, bad
// is the index of the first byte at which it stops being one (len(s) if s
// ends too early).
func validNumber(s []byte) (bad int, ok bool) {
	i, ok := scanNumber(s, 0)
	return i, ok && i == len(s)
}

// scanNumber reads the JSON number grammar from b[i] and returns the index
// after the longest prefix that is a number, or false and the index of the
// first byte at which it stops being one (len(b) if b ends too early).
func scanNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return i, false
	case b[i] == '0':
		i++
	case b[i]-'1' < 9:
		i++
		for i < len(b) && b[i]-'0' < 10 {
			i++
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i]-'0' < 10 {
			i++
		}
		if i == d {
			return i, false
		}
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i]-'0' < 10 {
			i++
		}
		if i == d {
			return i, false
		}
	}
	return i, true
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// strStop marks, in a little-endian word of string bytes, the bytes the
// string loop must look at: '"', '\\', control characters and non-ASCII
// bytes. Only the lowest mark is exact, which is all the callers use: a
// byte below it is in 0x20..0x7f and neither '"' nor '\\', so none of the
// subtractions borrows from it or sets its top bit, and the first byte
// that is to be looked at sets its top bit in one of the four terms. (A
// non-ASCII byte can also set it through the xor terms, and borrows only
// mark bytes above a marked one.)
func strStop(x uint64) uint64 {
	return ((x - lsb*0x20) | (x ^ (lsb * '"') - lsb) | (x ^ (lsb * '\\') - lsb) | x) & msb
}

// str reads the string (or name) that starts at buf[i] == '"'.
func (l *lexer) str() error {
	for {
		n, esc, st := scanString(l.buf[l.i:])
		switch st {
		case strOK:
			if n-2 > l.maxTok {
				return l.tooLong(l.i, "string")
			}
			l.lo, l.hi, l.esc = l.i+1, l.i+n-1, esc
			l.i += n
			return nil
		case strBad:
			return l.fail(l.i+n, "invalid character, escape or UTF-8 in string")
		}
		// The buffer ends inside the string: read more and scan it again
		// (the buffer at least doubles each time the string fills it, so
		// the rescans cost linear time).
		if _, ok := l.fill(l.i); !ok {
			if l.long {
				return l.tooLong(l.i, "string")
			}
			return l.fail(len(l.buf), "unexpected end of input in string")
		}
	}
}

// scanString's outcomes.
const (
	strOK   = iota // n is the length of the string with its quotes
	strMore        // b ends inside the string
	strBad         // b[n] is not valid in a string
)

// scanString scans the JSON string at the start of b (b[0] == '"'). It
// validates it as jsontext does: no control characters, valid UTF-8, well
// formed escapes with surrogates paired. esc reports escapes.
func scanString(b []byte) (n int, esc bool, st int) {
	i := 1
	for {
		for i+8 <= len(b) {
			if m := strStop(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			i += 8
		}
		for i < len(b) && b[i] >= 0x20 && b[i] < 0x80 && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i == len(b) {
			return i, esc, strMore
		}
	stop:
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, strOK
		case c == '\\':
			n := escapeLen(b[i:])
			if n <= 0 {
				if n < 0 {
					return i, esc, strMore
				}
				return i, esc, strBad
			}
			esc = true
			i += n
		case c < 0x20:
			return i, esc, strBad
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b[i:]) {
					return i, esc, strMore
				}
				return i, esc, strBad
			}
			i += n
		}
	}
}

// escapeLen returns the length of the escape sequence at the start of b,
// 0 if it is malformed (a lone or misordered UTF-16 surrogate is), or -1 if
// b ends before that can be told.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return -1
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
	default:
		return 0
	}
	v, n := hex4(b[2:])
	switch {
	case n <= 0:
		return n
	case v < 0xd800 || v > 0xdfff:
		return 6
	case v >= 0xdc00: // a low surrogate first
		return 0
	}
	// A high surrogate: a low one must follow.
	switch {
	case len(b) < 7:
		return -1
	case b[6] != '\\':
		return 0
	case len(b) < 8:
		return -1
	case b[7] != 'u':
		return 0
	}
	w, n := hex4(b[8:])
	switch {
	case n <= 0:
		return n
	case w < 0xdc00 || w > 0xdfff:
		return 0
	}
	return 12
}

// hex4 decodes four hexadecimal digits. n is 4, or 0 if they are not
// hexadecimal, or -1 if b ends first.
func hex4(b []byte) (v uint32, n int) {
	for j := 0; j < 4; j++ {
		if j >= len(b) {
			return 0, -1
		}
		c := b[j]
		switch {
		case c-'0' < 10:
			c -= '0'
		case c-'a' < 6:
			c -= 'a' - 10
		case c-'A' < 6:
			c -= 'A' - 10
		default:
			return 0, 0
		}
		v = v<<4 | uint32(c)
	}
	return v, 4
}

// unescaped returns the text of the last key or string, unescaped into *scr if
// it has escapes.
func (l *lexer) unescaped(scr *[]byte) ([]byte, error) {
	if !l.esc {
		return l.text(), nil
	}
	return unquoteInto(scr, l.quoted())
}

// rowTemplate is the key sequence of a flat row: an object whose members
// are all primitives. Row after row of a JSON table repeats it, and
// matchRow reads such a row in one go.
type rowTemplate struct {
	text []byte // the names, one after another
	ends []int  // where each name ends in text
	ok   bool   // the template is set

	// The row in compact JSON, without its values: `{"a":`, `,"b":`, ...,
	// one piece per name, ending at pends[j] in pieces; words holds each
	// piece's first 16 bytes as two masked little-endian words.
	pieces []byte
	pends  []int
	words  []pieceWords

	src []byte // what the first pass made the template from, to reuse it
}

type pieceWords struct {
	w0, w1, m0, m1 uint64
	n              int // the piece's length
}

func (t *rowTemplate) addWords(p []byte) {
	var pw pieceWords
	pw.n = len(p)
	for k := 0; k < len(p) && k < 16; k++ {
		sh := uint(k%8) * 8
		if k < 8 {
			pw.w0 |= uint64(p[k]) << sh
			pw.m0 |= 0xff << sh
		} else {
			pw.w1 |= uint64(p[k]) << sh
			pw.m1 |= 0xff << sh
		}
	}
	t.words = append(t.words, pw)
}

// reset empties the template.
func (t *rowTemplate) reset() {
	t.text, t.ends, t.ok = t.text[:0], t.ends[:0], false
	t.pieces, t.pends, t.words = t.pieces[:0], t.pends[:0], t.words[:0]
}

// add appends a name, given unescaped. It refuses, emptying the template,
// a name that would not appear verbatim between quotes in JSON (one with
// '"', '\\' or a control character): a verbatim match of it could be a
// different name or an invalid one.
func (t *rowTemplate) add(name []byte) bool {
	for _, c := range name {
		if c < 0x20 || c == '"' || c == '\\' {
			t.reset()
			return false
		}
	}
	t.text = append(t.text, name...)
	t.ends = append(t.ends, len(t.text))
	if len(t.pends) == 0 {
		t.pieces = append(t.pieces, '{')
	} else {
		t.pieces = append(t.pieces, ',')
	}
	t.pieces = append(t.pieces, '"')
	t.pieces = append(t.pieces, name...)
	t.pieces = append(t.pieces, '"', ':')
	from := 0
	if len(t.pends) > 0 {
		from = t.pends[len(t.pends)-1]
	}
	t.pends = append(t.pends, len(t.pieces))
	t.addWords(t.pieces[from:])
	return true
}

// finish marks the template complete, if it has names.
func (t *rowTemplate) finish() { t.ok = len(t.ends) > 0 }

// mcell is a primitive read by matchRow: its kind (tkString, tkNumber,
// tkTrue, tkFalse or tkNull) and its text, buf[lo:hi] (a string's
// contents without the quotes, escaped if esc).
type mcell struct {
	kind   byte
	esc    bool
	lo, hi int
}

// matchRow reads the next element of the innermost array if it is an
// object whose names are exactly t's, in t's order, each with a primitive
// value, and the whole object is in the buffer. It then returns true with
// the values in cells (which must have room for them) and the whole row
// as the last token (text), valid until the next read. Otherwise it returns false and has read nothing: the caller
// reads the element token by token. The checks are the ones next makes,
// so that the lexer accepts and rejects the same documents either way.
func (l *lexer) matchRow(t *rowTemplate, cells []mcell) bool {
	if !t.ok || len(l.stack) == 0 || len(l.stack) >= lexMaxDepth || l.stack[len(l.stack)-1] != '[' {
		return false
	}
	b := l.buf
	i := l.i
	switch l.state {
	case lxAfter:
		sep := byte(',')
		if l.lines && len(l.stack) == 1 {
			sep = recSep
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != sep {
			return false
		}
		i = skipSpace(b, i+1)
	case lxFirstItem, lxValue:
		i = skipSpace(b, i)
	default:
		return false
	}
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if end, ok := t.matchCompact(b, i, cells); ok {
		l.lo, l.hi = i, end
		l.i = end
		l.state = lxAfter
		return true
	}
	l.lo = i
	i++
	from := 0
	for j, end := range t.ends {
		i = skipSpace(b, i)
		if j > 0 {
			if i >= len(b) || b[i] != ',' {
				return false
			}
			i = skipSpace(b, i+1)
		}
		name := t.text[from:end]
		from = end
		if i+len(name)+2 > len(b) || b[i] != '"' || string(b[i+1:i+1+len(name)]) != string(name) || b[i+1+len(name)] != '"' {
			return false
		}
		i = skipSpace(b, i+len(name)+2)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		c := &cells[j]
		switch b[i] {
		case '"':
			n, esc, st := scanString(b[i:])
			if st != strOK {
				return false
			}
			*c = mcell{kind: tkString, esc: esc, lo: i + 1, hi: i + n - 1}
			i += n
		case 't':
			if i+4 > len(b) || string(b[i:i+4]) != "true" {
				return false
			}
			*c = mcell{kind: tkTrue, lo: i, hi: i + 4}
			i += 4
		case 'f':
			if i+5 > len(b) || string(b[i:i+5]) != "false" {
				return false
			}
			*c = mcell{kind: tkFalse, lo: i, hi: i + 5}
			i += 5
		case 'n':
			if i+4 > len(b) || string(b[i:i+4]) != "null" {
				return false
			}
			*c = mcell{kind: tkNull, lo: i, hi: i + 4}
			i += 4
		default:
			k := i
			for k < len(b) && numChar[b[k]] {
				k++
			}
			if k == len(b) { // the number may go on
				return false
			}
			if _, ok := validNumber(b[i:k]); !ok {
				return false
			}
			*c = mcell{kind: tkNumber, lo: i, hi: k}
			i = k
		}
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '}' {
		return false
	}
	l.hi = i + 1
	l.i = i + 1
	l.state = lxAfter
	return true
}

// matchCompact is matchRow's fast path, for a row at b[i] written without
// whitespace: it compares the row with the template's pieces and scans the
// values between them. It returns the index after the row, or false if
// the row differs in any way (whitespace included) or comes near the end
// of b, leaving matchRow's general path to decide. It is written for
// speed: tables of millions of rows spend most of their time here.
func (t *rowTemplate) matchCompact(b []byte, i int, cells []mcell) (int, bool) {
	ws := t.words
	if len(cells) < len(ws) {
		return 0, false
	}
	cells = cells[:len(ws)]
	// The loads go through base, each after an explicit bounds check: the
	// slice expressions they replace cost more here than the work itself.
	n := len(b)
	base := mem.BytesData(b)
	for j := range ws {
		p := &ws[j]
		if n-i < 24 {
			return 0, false
		}
		if base.Load64(i)&p.m0 != p.w0 || base.Load64(i+8)&p.m1 != p.w1 {
			return 0, false
		}
		if p.n > 16 {
			end := t.pends[j]
			if !equalAt(b, i+16, t.pieces[end-p.n+16:end]) || n-i-p.n < 8 {
				return 0, false
			}
		}
		i += p.n // now n-i >= 8
		c := &cells[j]
		switch ch := base.Byte(i); {
		case ch == '"':
			k := i + 1
			for {
				if n-k < 8 {
					return 0, false
				}
				if m := strStop(base.Load64(k)); m != 0 {
					k += bits.TrailingZeros64(m) >> 3
					break
				}
				k += 8
			}
			if base.Byte(k) == '"' {
				c.kind, c.esc, c.lo, c.hi = tkString, false, i+1, k
				i = k + 1
				continue
			}
			m, esc, st := scanString(b[i:])
			if st != strOK {
				return 0, false
			}
			c.kind, c.esc, c.lo, c.hi = tkString, esc, i+1, i+m-1
			i += m
		case ch-'0' < 10 || ch == '-':
			// Integer and fraction digits here; exponents, rarer, and
			// errors in numberAt.
			k := i
			if ch == '-' {
				k++
			}
			if k >= n {
				return 0, false
			}
			switch d := base.Byte(k); {
			case d == '0':
				k++
			case d-'1' < 9:
				k++
				for k < n && base.Byte(k)-'0' < 10 {
					k++
				}
			default:
				return 0, false
			}
			if k < n && base.Byte(k) == '.' {
				k++
				f := k
				for k < n && base.Byte(k)-'0' < 10 {
					k++
				}
				if k == f {
					return 0, false
				}
			}
			if k >= n {
				return 0, false
			}
			if numChar[base.Byte(k)] {
				var ok bool
				if k, ok = numberAt(b, i); !ok {
					return 0, false
				}
			}
			c.kind, c.esc, c.lo, c.hi = tkNumber, false, i, k
			i = k
		case ch == 't':
			if base.Load32(i) != 't'|'r'<<8|'u'<<16|'e'<<24 {
				return 0, false
			}
			c.kind, c.esc = tkTrue, false
			i += 4
		case ch == 'f':
			if base.Load32(i+1) != 'a'|'l'<<8|'s'<<16|'e'<<24 {
				return 0, false
			}
			c.kind, c.esc = tkFalse, false
			i += 5
		case ch == 'n':
			if base.Load32(i) != 'n'|'u'<<8|'l'<<16|'l'<<24 {
				return 0, false
			}
			c.kind, c.esc = tkNull, false
			i += 4
		default:
			return 0, false
		}
	}
	if i >= n || base.Byte(i) != '}' {
		return 0, false
	}
	return i + 1, true
}

// equalAt reports whether b[i:] starts with p, comparing words: p is
// usually a short piece of a row.
func equalAt(b []byte, i int, p []byte) bool {
	n := len(p)
	if n > len(b)-i {
		return false
	}
	q := b[i : i+n]
	switch {
	case n >= 8:
		for j := 0; j < n-8; j += 8 {
			if binary.LittleEndian.Uint64(q[j:]) != binary.LittleEndian.Uint64(p[j:]) {
				return false
			}
		}
		// The last word may overlap the one before it.
		return binary.LittleEndian.Uint64(q[n-8:]) == binary.LittleEndian.Uint64(p[n-8:])
	case n >= 4:
		return binary.LittleEndian.Uint32(q) == binary.LittleEndian.Uint32(p) &&
			binary.LittleEndian.Uint32(q[n-4:]) == binary.LittleEndian.Uint32(p[n-4:])
	}
	for j := range q {
		if q[j] != p[j] {
			return false
		}
	}
	return true
}

// numberAt scans the number at b[i] and returns the index after it. It
// reports false if the number is malformed, if a number byte follows it
// (as in "01" or "1-"), or if b ends with it (the number may go on).
func numberAt(b []byte, i int) (int, bool) {
	j, ok := scanNumber(b, i)
	if !ok || j >= len(b) || numChar[b[j]] {
		return 0, false
	}
	return j, true
}

// jump moves the lexer to input offset off, between two elements of the
// innermost array (its state stays lxAfter). It is for the first pass's
// helper (ahead.go), which has checked the elements in between.
func (l *lexer) jump(off int64) error {
	if off >= l.base && off <= l.base+int64(len(l.buf)) {
		l.i = int(off - l.base)
		return nil
	}
	if l.mem != nil {
		l.window(off)
		l.i = 0
		return nil
	}
	if l.seek == nil {
		return errors.New("convert: internal error: the input cannot seek")
	}
	if err := l.seek(off); err != nil {
		return err
	}
	l.buf, l.i, l.base, l.eof = l.buf[:0], 0, off, false
	return nil
}

// matchNext is matchRow that, when the buffer's unread part runs short,
// reads ahead and tries again, so that rows across a refill are matched
// too. The unread part is then at most a quarter of the buffer, so the
// refill moves it or reads after it but never grows the buffer.
func (l *lexer) matchNext(t *rowTemplate, cells []mcell) bool {
	if l.matchRow(t, cells) {
		return true
	}
	if l.eof || len(l.buf)-l.i > cap(l.buf)/4 {
		return false
	}
	l.fill(l.i)
	return l.matchRow(t, cells)
}

// skipSpace returns the index of the first byte at or after i in b that is
// not JSON whitespace, or len(b).
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
