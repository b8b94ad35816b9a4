package toon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"unicode/utf8"
)

// This file holds the line layer of the decoder: reading lines from an
// io.Reader through a refillable buffer, removing comment lines, measuring
// indentation, and the lexical pieces of a line (keys, headers, cells,
// quoted tokens). It never looks at more than one line at a time.
//
// Buffer invariants: the unread input is buf[pos:end]; base is the input
// offset of buf[0]. A line returned by readLine is a view into buf and stays
// valid until the next call to readLine, which may move or overwrite the
// buffer's contents.

const defaultBufSize = 64 << 10

// lexer reads lines.
type lexer struct {
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

	// The depth of the last indentation width seen.
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

func (l *lexer) init(r io.Reader, o *options) {
	l.r = r
	l.maxLine = o.maxLine
	l.indent = o.indent
	l.strict = o.strict
	if l.buf == nil {
		size := defaultBufSize
		if size > o.maxLine+1 {
			size = o.maxLine + 1
		}
		l.buf = make([]byte, size)
	}
}

// initBytes makes the lexer read lines straight out of data, without a
// reader and without copying.
func (l *lexer) initBytes(data []byte, o *options) {
	l.r = nil
	l.buf = data
	l.end = len(data)
	l.eof = true
	l.maxLine = o.maxLine
	l.indent = o.indent
	l.strict = o.strict
}

// readRaw returns the next line without its LF, or io.EOF. A read error
// other than io.EOF is returned as it is, and the partial line before it is
// not returned as a line.
func (l *lexer) readRaw() ([]byte, int64, error) {
	for {
		if i := indexNewline(l.buf[l.scanned:l.end]); i >= 0 {
			stop := l.scanned + i
			line := l.buf[l.pos:stop]
			off := l.base + int64(l.pos)
			l.pos = stop + 1
			l.scanned = l.pos
			if len(line) > l.maxLine {
				return nil, off, errLineTooLong
			}
			return line, off, nil
		}
		l.scanned = l.end
		if l.end-l.pos > l.maxLine {
			return nil, l.base + int64(l.pos), errLineTooLong
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

var errLineTooLong = ErrLineTooLong

// errCommentUTF8 reports ill-formed UTF-8 in a comment line; the line is
// left in the rawLine for the error's position.
var errCommentUTF8 = errors.New("comment line is not UTF-8")

// fill reads more input, moving unread data to the front of the buffer and
// growing it (up to maxLine+1 bytes) when a line does not fit.
func (l *lexer) fill() error {
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
			return errLineTooLong
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
func (l *lexer) source(off int64) []byte {
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
func (l *lexer) readLine(ln *rawLine) error {
	for {
		line, off, err := l.readRaw()
		if err != nil {
			if err == errLineTooLong {
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
			if l.strict && !utf8.Valid(line) {
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
		if spaces != l.lastSpaces {
			// Divisions are slow; consecutive lines mostly share an indent,
			// and the default indent of 2 needs none.
			l.lastSpaces = spaces
			if l.indent == 2 {
				l.lastDepth, l.lastOdd = spaces>>1, spaces&1 != 0
			} else {
				l.lastDepth, l.lastOdd = spaces/l.indent, spaces%l.indent != 0
			}
		}
		ln.depth = l.lastDepth
		ln.odd = l.lastOdd
		return nil
	}
}

// validUTF8 reports whether b is well-formed UTF-8 (no surrogates). Lines
// are mostly short and ASCII: a word-at-a-time check settles those before
// utf8.Valid is called. The last partial word is checked as the line's
// last eight bytes, which overlap bytes already known to be ASCII.
func validUTF8(b []byte) bool {
	n := len(b)
	i := 0
	for ; i+8 <= n; i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&swarHi != 0 {
			return utf8.Valid(b[i:])
		}
	}
	if i == n {
		return true
	}
	if n >= 8 {
		if binary.LittleEndian.Uint64(b[n-8:])&swarHi != 0 {
			return utf8.Valid(b[i:])
		}
		return true
	}
	for ; i < n; i++ {
		if b[i] >= utf8.RuneSelf {
			return utf8.Valid(b[i:])
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

// unquote decodes the quoted token that starts at b[0] == '"'. It returns
// the string's bytes (a view into b when there are no escapes, otherwise
// appended to *scratch) and the index just past the closing quote. bad is
// the index in b of the problem when err is not nil. Its time is linear in
// the token's length however many escapes it holds.
func unquote(b []byte, scratch *[]byte) (s []byte, next int, bad int, err error) {
	q := indexByte(b[1:], '"') + 1 // the next '"' at or after i
	if q == 0 {
		return nil, len(b), 0, ErrUnterminated
	}
	e := indexByte(b[1:q], '\\')
	if e < 0 {
		return b[1:q], q + 1, 0, nil // no escapes: a view
	}
	start := len(*scratch)
	out := append(*scratch, b[1:1+e]...)
	i := 1 + e
	for {
		// b[i] is a backslash inside the string.
		if i+1 >= len(b) {
			*scratch = out
			return nil, len(b), 0, ErrUnterminated
		}
		switch b[i+1] {
		case '\\':
			out = append(out, '\\')
		case '"':
			out = append(out, '"')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+6 > len(b) {
				return nil, 0, i, ErrEscape
			}
			r := rune(0)
			for k := i + 2; k < i+6; k++ {
				h := hexVal(b[k])
				if h < 0 {
					return nil, 0, i, ErrEscape
				}
				r = r<<4 | rune(h)
			}
			if r >= 0xD800 && r <= 0xDFFF {
				return nil, 0, i, ErrEscape
			}
			out = utf8.AppendRune(out, r)
			i += 4
		default:
			return nil, 0, i, ErrEscape
		}
		i += 2
		if q < i {
			// The escape covered the quote found before: find the next.
			j := indexByte(b[i:], '"')
			if j < 0 {
				*scratch = out
				return nil, len(b), 0, ErrUnterminated
			}
			q = i + j
		}
		j := indexByte(b[i:q], '\\')
		if j < 0 {
			out = append(out, b[i:q]...)
			*scratch = out
			return out[start:], q + 1, 0, nil
		}
		out = append(out, b[i:i+j]...)
		i += j
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// isUnquotedKey reports whether b matches the unquoted-key rule of §6/§7.3:
// [A-Za-z_][A-Za-z0-9_.]*.
func isUnquotedKey(b []byte) bool {
	if len(b) == 0 || keyStart[b[0]] == 0 {
		return false
	}
	for _, c := range b[1:] {
		if keyChar[c] == 0 {
			return false
		}
	}
	return true
}

var keyStart, keyChar [256]byte

func init() {
	for c := 0; c < 256; c++ {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' {
			keyStart[c] = 1
			keyChar[c] = 1
		}
		if c >= '0' && c <= '9' || c == '.' {
			keyChar[c] = 1
		}
	}
}

// header is a parsed array or keyed header line (§6).
type header struct {
	key     []byte // unescaped key; empty for a keyless header
	hasKey  bool
	n       int
	keyed   bool
	delim   byte
	fields  []Field // nil without a fields segment
	nleaf   int
	rest    []byte // content after the colon, spaces trimmed
	restCol int    // index of rest in the line's text
}

// headerError is a malformed header: the cause and where in the text.
type headerError struct {
	err error
	at  int
}

// parseHeader parses text as a header whose bracket segment starts at
// text[bracket]. It reports isHeader false when the text before the bracket
// is not a key, in which case the line is an ordinary key-value line (§5.2).
// Field names are copied into d's field storage, which stays valid until the
// next header is parsed.
//
// In strict mode a key is what §6's grammar admits: a quoted key or an
// unquoted one of the §7.3 pattern, so foo-bar[2]: a,b is the key-value line
// of the literal key "foo-bar[2]" (§7.4). Non-strict mode reads keys as the
// reference implementation does (see literalHeaderKey): foo-bar[2]: a,b is
// the array "foo-bar".
func (d *Decoder) parseHeader(text []byte, bracket int, h *header) (isHeader bool, herr headerError) {
	*h = header{}
	prefix := text[:bracket]
	switch {
	case len(prefix) == 0:
	case prefix[0] == '"':
		k, next, _, err := unquote(prefix, &d.scratch)
		if err != nil || next != len(prefix) {
			return false, headerError{}
		}
		h.key, h.hasKey = k, true
	case isUnquotedKey(prefix), !d.opts.strict && literalHeaderKey(prefix):
		h.key, h.hasKey = prefix, true
	default:
		return false, headerError{}
	}
	i := bracket + 1
	bad := func(at int) (bool, headerError) { return true, headerError{ErrHeader, at} }
	start := i
	for i < len(text) && text[i]-'0' < 10 {
		i++
	}
	if i == start || (text[start] == '0' && i-start > 1) || i-start > 18 {
		return bad(start)
	}
	n := 0
	for _, c := range text[start:i] {
		n = n*10 + int(c-'0')
	}
	h.n = n
	if i < len(text) && text[i] == ':' {
		h.keyed = true
		i++
	}
	h.delim = ','
	if i < len(text) && (text[i] == '\t' || text[i] == '|') {
		h.delim = text[i]
		i++
	}
	if i >= len(text) || text[i] != ']' {
		return bad(i)
	}
	i++
	d.farena = d.farena[:0]
	d.names = d.names[:0]
	if i < len(text) && text[i] == '{' {
		fs, next, herr := d.parseGroup(text, i, h.delim, 0)
		if herr.err != nil {
			return true, herr
		}
		h.fields = fs
		i = next
		h.nleaf = countLeaves(fs)
	}
	if i >= len(text) || text[i] != ':' {
		return bad(i)
	}
	i++
	j := i
	for j < len(text) && text[j] == ' ' {
		j++
	}
	h.rest = trimSpaces(text[j:])
	h.restCol = j
	if h.keyed && h.fields == nil {
		return bad(i - 1)
	}
	if h.fields != nil && len(h.rest) > 0 {
		return bad(j)
	}
	return true, headerError{}
}

// literalHeaderKey reports whether prefix, the text before a header's
// bracket that is neither empty nor quoted, is a key in non-strict mode:
// any text that does not end in a space or a tab. (The reference
// implementation reads every such prefix as the key; it rejects the line
// when the prefix ends in whitespace, where §5.2 makes foo [2]: bar the
// key-value line of the key "foo [2]", as this decoder does.)
func literalHeaderKey(prefix []byte) bool {
	c := prefix[len(prefix)-1]
	return c != ' ' && c != '\t'
}

// parseGroup parses a fields segment starting at text[i] == '{'. Entries of
// one group are collected on d.fstack and then moved into d.farena, so that
// each group's fields are contiguous.
//
// An unquoted field name runs to the next delimiter or brace outside quoted
// regions (a '"' inside it opens one, as in a row: Appendix B.3), spaces
// trimmed. In strict mode it must match §7.3's unquoted-key pattern, as §6's
// grammar requires ({c,#k} is an error); in non-strict mode any such text is
// a name, as the reference implementation reads it. In both modes a
// delimiter other than the active one is a delimiter mismatch (§6), and
// whitespace between a name and its nested group is a header error.
func (d *Decoder) parseGroup(text []byte, i int, delim byte, level int) ([]Field, int, headerError) {
	if level > 64 {
		return nil, i, headerError{ErrHeader, i}
	}
	mark := len(d.fstack)
	defer func() { d.fstack = d.fstack[:mark] }()
	i++ // '{'
	for {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i >= len(text) {
			return nil, i, headerError{ErrHeader, i}
		}
		var name []byte
		nameAt := i
		if text[i] == '"' {
			k, next, bad, err := unquote(text[i:], &d.scratch)
			if err != nil {
				return nil, i + bad, headerError{err, i + bad}
			}
			name = k
			i += next
		} else {
			j, other := i, -1
			for j < len(text) {
				c := text[j]
				if c == delim || c == '{' || c == '}' {
					break
				}
				switch c {
				case '"':
					j = skipQuoted(text, j+1)
					if j >= len(text) {
						return nil, nameAt, headerError{ErrHeader, nameAt} // the group never closes
					}
				case ',', '|', '\t':
					if other < 0 {
						other = j
					}
				}
				j++
			}
			name = trimSpaces(text[i:j])
			if len(name) == 0 {
				return nil, i, headerError{ErrHeader, i}
			}
			if other >= 0 {
				return nil, other, headerError{ErrDelimiter, other}
			}
			if d.opts.strict && !isUnquotedKey(name) {
				return nil, nameAt, headerError{ErrHeader, nameAt}
			}
			i = j
			if i < len(text) && text[i] == '{' && text[i-1] == ' ' {
				return nil, i - 1, headerError{ErrHeader, i - 1} // a {b}
			}
		}
		sp := i
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i < len(text) && text[i] == '{' && i != sp {
			return nil, sp, headerError{ErrHeader, sp} // "a" {b}
		}
		if d.opts.strict {
			for len(d.groupKeys) <= level {
				d.groupKeys = append(d.groupKeys, keySet{})
			}
			if len(d.fstack) == mark {
				d.groupKeys[level].reset()
			}
			if !d.groupKeys[level].add(name) {
				return nil, nameAt, headerError{ErrDuplicateKey, nameAt}
			}
		}
		ns := len(d.names)
		d.names = append(d.names, name...)
		f := Field{Name: d.names[ns:len(d.names):len(d.names)]}
		if i < len(text) && text[i] == '{' {
			sub, next, herr := d.parseGroup(text, i, delim, level+1)
			if herr.err != nil {
				return nil, next, herr
			}
			f.Fields = sub
			i = next
			for i < len(text) && text[i] == ' ' {
				i++
			}
		}
		d.fstack = append(d.fstack, f)
		if i >= len(text) {
			return nil, i, headerError{ErrHeader, i}
		}
		switch text[i] {
		case delim:
			i++
			continue
		case '}':
			s := len(d.farena)
			d.farena = append(d.farena, d.fstack[mark:]...)
			return d.farena[s:len(d.farena):len(d.farena)], i + 1, headerError{}
		case ',', '|', '\t':
			return nil, i, headerError{ErrDelimiter, i}
		default:
			return nil, i, headerError{ErrHeader, i}
		}
	}
}

func countLeaves(fs []Field) int {
	n := 0
	for _, f := range fs {
		if f.Fields == nil {
			n++
		} else {
			n += countLeaves(f.Fields)
		}
	}
	return n
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
