package convert

import (
	"encoding/binary"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf8"
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
	buf   []byte // buffered input; buf[i:] is unread
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

// syntaxError is the lexer's rejection of its input.
type syntaxError struct {
	off int64
	msg string
}

func (e *syntaxError) Error() string {
	return "json: " + e.msg + " at offset " + strconv.FormatInt(e.off, 10)
}

// newLexer returns a lexer of r that reads into buf (a new buffer if buf
// has less than 16 bytes of capacity; tests use small ones to exercise
// refills).
func newLexer(r io.Reader, buf []byte) *lexer {
	if cap(buf) < 16 {
		buf = make([]byte, 0, lexBufSize)
	}
	return &lexer{r: r, buf: buf[:0]}
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
	if keep > 0 {
		n := copy(l.buf[:cap(l.buf)], l.buf[keep:])
		l.buf = l.buf[:n]
		l.base += int64(keep)
		l.i -= keep
		shift = keep
	}
	if len(l.buf) == cap(l.buf) { // one token fills the buffer: grow it
		nb := make([]byte, len(l.buf), 2*cap(l.buf))
		copy(nb, l.buf)
		l.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
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
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return i, false
	case s[i] == '0':
		i++
	case s[i]-'1' < 9:
		i++
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
		if i == d {
			return i, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
		if i == d {
			return i, false
		}
	}
	return i, i == len(s)
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// strStop marks, in a little-endian word of string bytes, the bytes the
// string loop must look at: '"', '\\', control characters and non-ASCII
// bytes. The lowest marked byte is exact (borrows only reach upwards).
func strStop(x uint64) uint64 {
	q := x ^ (lsb * '"')
	bs := x ^ (lsb * '\\')
	return ((q-lsb)&^q | (bs-lsb)&^bs | (x-lsb*0x20)&^x | x) & msb
}

// str reads the string (or name) that starts at buf[i] == '"'.
func (l *lexer) str() error {
	for {
		n, esc, st := scanString(l.buf[l.i:])
		switch st {
		case strOK:
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
