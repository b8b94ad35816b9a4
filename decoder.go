package toon

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"io"
	"slices"
	"strconv"
	"unsafe"
)

// A Decoder reads a TOON document from an input stream as a sequence of
// tokens in the JSON data model. It reads through its own buffer (64 KiB,
// grown only for a longer line) and holds nothing beyond it but the open
// scopes' bookkeeping and a bounded queue of tokens, so its memory does not
// grow with the size of the document. It takes most lines one at a time;
// inside a table, it takes the rows already in its buffer many at a time
// (see bulk.go).
//
// Tokens refer to the decoder's buffers: their bytes are valid until the next
// call to Token, More, Skip or Decode (see Token.Clone).
type Decoder struct {
	lx   lexer
	opts options

	line  rawLine // the current line
	stack []frame // open scopes, innermost last
	root  rootState
	// cur is the last content line taken; end, while a line is being
	// handled, the content line before it, where the scopes that the line
	// closes end (count errors are reported there).
	cur, end lineRef

	// Pending tokens: the queue, then (for very wide rows and long inline
	// arrays, which are produced a chunk at a time) the row program over
	// cells, or the inline values over cells followed by an ArrayEnd.
	queue   []Token
	gq      []Token // the general queue's memory while queue views the fast path's
	qi      int
	qerr    error   // the sticky error, once the queue holds its placeholder
	prog    []rowOp // row program of the open tabular or keyed header
	rowTmpl []Token // the program's tokens, cells left blank
	flat    bool    // no nested field groups: cell c sits at 2+2c in rowTmpl
	// tmplRows flat-row templates (keys and braces) of the open header
	// stand at the start of the queue's backing array.
	tmplRows int
	cellAt   []int32 // index in rowTmpl of each leaf cell, in cell order
	pi       int     // next op of prog; len(prog) when no row is pending
	cells    []int32 // cell spans of the current row or inline array: start, end pairs
	cellsOf  []byte  // the text the cell spans index
	cellCol  int     // column of cellsOf[0] in the line
	ci       int     // next inline value; len(cells)/2 when none pending
	// inlineEnd asks for an ArrayEnd after the pending inline values.
	inlineEnd bool

	bulk      bulkRun // the fast path over table rows (bulk.go)
	seps      []int32
	scratch   []byte // unescaped strings of the current line
	hdr       header
	farena    []Field  // fields of the current header
	fstack    []Field  // group parsing stack
	groupKeys []keySet // field names of the groups being parsed, by level (strict)
	names     []byte   // field names of the current header

	blank     int // line number of the first blank line since the last content line, or 0
	blankOff  int64
	scalarBuf []byte // a root scalar line, kept while looking for more lines
	scalarCol int
	scalarNum int
	scalarOff int64
	ahead     int   // bytes of slice capacity given before the elements were read, not yet filled (preallocLen)
	err       error // sticky
	done      bool
	began     bool // a queue of tokens has been used up: Token has been called
	// ranged: the input is a range of a table's rows (Table.RangeDecoder),
	// whose end closes the table's scope and no other; partial: the range
	// is not the table's last, so its end skips the count check, which the
	// last range makes.
	ranged, partial bool
}

// lineRef locates a line: its number and its input offset.
type lineRef struct {
	num int
	off int64
}

type rootState uint8

const (
	rootStart  rootState = iota // no content line yet
	rootObject                  // the root is an object (a frame is open)
	rootArray                   // the root is an array or keyed object (a frame is open)
	rootScalar                  // the root is a primitive, held in scalarBuf
	rootDone                    // the root value is complete
)

type frameKind uint8

const (
	fObject  frameKind = iota // ordinary object
	fItem                     // object that is a list item; its first field was on the hyphen line
	fList                     // expanded list of "- " items
	fTabular                  // tabular rows
	fKeyed                    // keyed entry rows
)

// frame is one open scope. depth is the depth of the scope's content lines.
type frame struct {
	kind  frameKind
	depth int
	n     int // declared length
	count int // items, rows or entries seen
	line  int // line number of the header, for count errors
	keys  keySet
	// fresh: no line of the scope's content has been read, and none was on
	// the line that opened it, so in non-strict mode its first line may be
	// deeper than depth and then sets it.
	fresh bool
}

// rowOp is one step of a row program: a ready-made token, or (cell >= 0)
// the token of a cell.
type rowOp struct {
	tok  Token
	cell int32
}

// NewDecoder returns a decoder that reads from r, buffering its input.
func NewDecoder(r io.Reader, opts ...Option) *Decoder {
	d := &Decoder{opts: makeOptions(opts)}
	d.lx.init(r, &d.opts)
	return d
}

// NewBytesDecoder returns a decoder of the TOON document in data that reads
// it in place: its lines are taken straight out of data, which is never
// copied into a buffer of the decoder's and never written to, so data may
// be a read-only memory mapping of a file. (The decoder may read bytes
// past len(data) within cap(data), never beyond: slice a mapping to its
// end.) Its tokens and errors are those of NewDecoder over the same bytes.
//
// A token's bytes may be a view of data itself. They are valid for as long
// as a token's bytes are (until the next call to Token, More, Skip or
// Decode), and only while data is unchanged: data must not be modified, or
// its memory released, while the decoder is used, because each line is
// checked once, when it is read, and its tokens are views of what was
// checked. Reset makes the decoder read from a reader into a buffer of its
// own; data is not used after that.
func NewBytesDecoder(data []byte, opts ...Option) *Decoder {
	return newBytesDecoder(data, opts)
}

// newBytesDecoder returns a decoder that reads lines straight out of data.
func newBytesDecoder(data []byte, opts []Option) *Decoder {
	d := &Decoder{opts: makeOptions(opts)}
	d.lx.initBytes(data, &d.opts)
	return d
}

// Reset discards the decoder's state and makes it read a new document
// from r with the same options, keeping its buffers.
func (d *Decoder) Reset(r io.Reader) {
	buf := d.lx.buf
	if d.lx.r == nil {
		buf = nil // the buffer was the caller's byte slice
	}
	d.lx = lexer{buf: buf}
	d.lx.init(r, &d.opts)
	d.line = rawLine{}
	d.stack = d.stack[:0]
	d.root = rootStart
	d.generalQueue()
	d.queue, d.qi = d.queue[:0], 0
	d.tmplRows = 0
	d.bulk.newTemplate()
	d.prog, d.pi = d.prog[:0], 0
	d.cells, d.ci = d.cells[:0], 0
	d.inlineEnd = false
	d.blank = 0
	d.err = nil
	d.qerr = nil
	d.done = false
	d.began = false
	d.ahead = 0
	d.bulk.n, d.bulk.win, d.bulk.cool = 0, 0, 0
}

// InputOffset returns the input offset of the start of the current line.
func (d *Decoder) InputOffset() int64 {
	d.syncLine()
	return d.line.off
}

// Line returns the 1-based number of the line the last token came from.
func (d *Decoder) Line() int {
	d.syncLine()
	return d.line.num
}

// Token returns the next token of the document, or io.EOF after the last
// one. Errors in the input are *SyntaxError; errors from the reader are
// returned as they are. Errors are sticky. In strict mode, an array or
// keyed object whose declared count is wrong gets the error (ErrCount)
// in place of its end token, and the scopes around it are not closed.
//
// The returned token's bytes are valid until the next call to Token, More,
// Skip or Decode.
func (d *Decoder) Token() (Token, error) {
	// Small enough to be inlined into the caller's loop (its cost is at
	// Go's inlining budget exactly; check with -gcflags=-m after editing):
	// every token goes through the queue, which fillQueue tops up a line or
	// a chunk at a time, and qerr is nil unless the queue holds the single
	// placeholder of an error.
	if d.qi >= len(d.queue) {
		d.fillQueue()
	}
	d.qi++
	return d.queue[d.qi-1], d.qerr
}

// Row returns the tokens of the next row of the open table, from its
// ObjectStart to its ObjectEnd, when the decoder has them ready (the rows
// of a tabular array, typed many at a time), and nil otherwise; the next
// Token call then returns the token after the row. A caller that reads a
// table row by row may call Row before each row and fall back to Token
// when it returns nil. The slice is the decoder's own memory, and it and
// its tokens are valid only until the next call to Row or Token: copy a
// token (or Clone it, to keep its text) to keep it longer.
func (d *Decoder) Row() []Token {
	per := d.bulk.per
	if !d.bulk.inQ || d.qi+per > len(d.queue) || d.qi%per != 0 {
		return nil
	}
	r := d.queue[d.qi : d.qi+per : d.qi+per]
	d.qi += per
	return r
}

// fillQueue is Token's slow path. It refills the queue; when no token is
// left before an error, it leaves one zero Token in the queue for Token to
// return beside the error, which qerr holds from then on.
func (d *Decoder) fillQueue() {
	if len(d.queue) > 0 {
		d.began = true // the queue's tokens have all been taken
	}
	if err := d.refill(); err != nil {
		d.queue = append(d.queue[:0], Token{})
		d.qi = 0
		d.qerr = err
	}
}

// atStart reports whether no token has been taken yet.
func (d *Decoder) atStart() bool { return !d.began && d.qi == 0 }

// peek returns the next token without taking it. It may read a line, as
// Token does, so the tokens returned before are then no longer valid.
func (d *Decoder) peek() (Token, error) {
	if d.qi >= len(d.queue) {
		d.fillQueue()
	}
	return d.queue[d.qi], d.qerr
}

// More reports whether the current array or object has another element or
// member: whether the next token is anything but an ObjectEnd or ArrayEnd.
// Before the first token, it reports true (every document has a root
// value); after the last, or at an error, false (Token or Decode then
// returns io.EOF or the error). More may read the next line, as Token
// does, so tokens returned before it are no longer valid after it.
func (d *Decoder) More() bool {
	t, err := d.peek()
	return err == nil && t.kind() != KindObjectEnd && t.kind() != KindArrayEnd
}

// Skip reads past the next value: after a Key token the key's value,
// inside an array the next element, at the start the whole root value.
// Where the next token is a Key, Skip passes both the key and its value.
// It builds nothing, so a table of any length is skipped in constant
// memory, but it checks the skipped text as Token would, and returns its
// errors (a count error of a skipped array included). Where the next token ends an object or array, Skip consumes
// nothing and returns an error matching ErrNotValue; after the last value
// of the document it returns io.EOF.
func (d *Decoder) Skip() error {
	t, err := d.peek()
	if err != nil {
		return err
	}
	if t.kind() == KindKey {
		d.qi++
	} else if err := d.notValue("Skip", t); err != nil {
		return err
	}
	depth := 0
	for {
		if depth > 0 && d.bulk.inQ && d.qi%d.bulk.per == 0 {
			// The queue holds whole rows of a table inside the value:
			// they leave the depth as it is.
			d.qi = len(d.queue)
		}
		t, err := d.Token()
		if err != nil {
			return unexpectedEOF(err)
		}
		switch t.kind() {
		case KindObjectStart, KindArrayStart:
			depth++
		case KindObjectEnd, KindArrayEnd:
			if depth--; depth == 0 {
				return d.endErr(ObjectStartToken()) // a container ended
			}
		}
		if depth == 0 {
			return nil // a primitive
		}
	}
}

// endErr returns the error, if any, that the decoder met on closing the
// container whose end token it returned last, such as a count error of
// that array: one met before it queued any further token. first is the
// first token of the value just read; a primitive has no such error.
func (d *Decoder) endErr(first Token) error {
	if k := first.kind(); k != KindObjectStart && k != KindArrayStart {
		return nil
	}
	if d.qi >= len(d.queue) {
		return d.pendingErr()
	}
	return nil
}

// notValue returns the error of call (Decode or Skip) where the next
// token, t, does not start a value, or nil.
func (d *Decoder) notValue(call string, t Token) error {
	switch k := t.kind(); k {
	case KindKey, KindObjectEnd, KindArrayEnd:
		return misuse(ErrNotValue, call+" where the next token, on line "+strconv.Itoa(d.Line())+", is "+k.String()+", not a value")
	}
	return nil
}

// lazyChunk is how many tokens of a very wide row or a long inline array
// are queued at once.
const lazyChunk = 256

// refill empties the queue and fills it with the next tokens: the next
// chunk of a wide row or long inline array, or the tokens of the next line.
// It returns an error only when no token is left before it.
func (d *Decoder) refill() error {
	d.generalQueue()
	d.queue = d.queue[:0]
	d.qi = 0
	for len(d.queue) == 0 {
		switch {
		case d.pi < len(d.prog):
			d.tmplRows = 0
			end := min(d.pi+lazyChunk, len(d.prog))
			for ; d.pi < end; d.pi++ {
				op := &d.prog[d.pi]
				if op.cell < 0 {
					d.queue = append(d.queue, op.tok)
					continue
				}
				t, err := d.cellToken(int(op.cell))
				if err != nil {
					d.stopLazy(err)
					break
				}
				d.queue = append(d.queue, t)
			}
		case d.ci < len(d.cells)/2:
			d.tmplRows = 0
			n := len(d.cells) / 2
			end := min(d.ci+lazyChunk, n)
			for ; d.ci < end; d.ci++ {
				t, err := d.cellToken(d.ci)
				if err != nil {
					d.stopLazy(err)
					break
				}
				d.queue = append(d.queue, t)
			}
			if d.ci == n && d.inlineEnd {
				d.inlineEnd = false
				d.queue = append(d.queue, ArrayEndToken())
			}
		default:
			if d.err != nil {
				return d.err
			}
			d.bulk.n = 0 // the queue holds no fast-path rows now
			if d.bulkReady() && d.bulkRows() {
				continue
			}
			d.err = d.step()
		}
	}
	return nil
}

// stopLazy ends the lazy token sources of the current line with an error.
func (d *Decoder) stopLazy(err error) {
	d.pi = len(d.prog)
	d.ci = len(d.cells) / 2
	d.inlineEnd = false
	d.err = err
}

// cellToken returns the token of cell i of the current row or inline array.
// Quoted cells go through primitive, the others through plainToken.
func (d *Decoder) cellToken(i int) (Token, error) {
	s, e := int(d.cells[2*i]), int(d.cells[2*i+1])
	b := d.cellsOf[s:e]
	switch {
	case len(b) == 0:
		return Token{h: uint64(KindString), p: unsafe.Pointer(&zeroByte)}, nil
	case b[0] == '"':
		return d.primitive(b, d.cellCol+s)
	}
	return plainToken(b), nil
}

// primStart classifies the first byte of a value token.
var primStart = [256]byte{
	'"': primQuote, 't': primLetter, 'f': primLetter, 'n': primLetter, '-': primDigit,
	'0': primDigit, '1': primDigit, '2': primDigit, '3': primDigit, '4': primDigit,
	'5': primDigit, '6': primDigit, '7': primDigit, '8': primDigit, '9': primDigit,
}

const (
	primPlain  = iota // a plain string
	primDigit         // maybe a number
	primLetter        // maybe true, false or null
	primQuote         // a quoted string
)

// primitive types one value token (already trimmed) per §4. col is its
// column in the current line, for errors.
func (d *Decoder) primitive(b []byte, col int) (Token, error) {
	if len(b) == 0 {
		return textToken(KindString, b), nil
	}
	switch c := b[0]; {
	case c == '"':
		s, next, bad, err := unquote(b, &d.scratch)
		if err != nil {
			return Token{}, d.syntaxErr(col+bad, err)
		}
		if next != len(b) {
			return Token{}, d.syntaxErr(col+next, ErrQuote)
		}
		return textToken(KindString, s), nil
	case c == '-' || c-'0' < 10:
		if isNumber(b) {
			return textToken(KindNumber, b), nil
		}
	case c == 't':
		if string(b) == "true" {
			return Token{h: uint64(KindBool), n: 1}, nil
		}
	case c == 'f':
		if string(b) == "false" {
			return Token{h: uint64(KindBool)}, nil
		}
	case c == 'n':
		if string(b) == "null" {
			return Token{h: uint64(KindNull)}, nil
		}
	}
	return textToken(KindString, b), nil
}

// syntaxErr builds a SyntaxError at byte col (0-based) of the current line.
func (d *Decoder) syntaxErr(col int, cause error) error {
	return d.errAtLine(&d.line, col, cause)
}

func (d *Decoder) errAtLine(ln *rawLine, col int, cause error) error {
	src := ln.full
	if len(src) > 256 {
		src = src[:256]
	}
	if col < 0 {
		col = 0
	}
	return &SyntaxError{Line: ln.num, Column: col + 1, Offset: ln.off + int64(col), Source: string(src), Err: cause}
}

// shortErr reports a scope that ended with fewer items, rows or entries
// than its header declared, at its last line, quoting that line when the
// lexer still has it.
func (d *Decoder) shortErr(f *frame, one, many string) error {
	return &SyntaxError{Line: d.end.num, Column: 1, Offset: d.end.off, Source: string(d.lx.source(d.end.off)),
		Err: countErr(f, one, many, strconv.Itoa(f.count))}
}

// longErr reports an item, row or entry beyond the declared count, at the
// current line.
func (d *Decoder) longErr(f *frame, one, many string) error {
	return d.syntaxErr(0, countErr(f, one, many, "more"))
}

// errAt builds a SyntaxError for a position that is not on the current line.
func errAt(line int, off int64, cause error) error {
	return &SyntaxError{Line: line, Column: 1, Offset: off, Err: cause}
}

// countErr is the cause of a count error of the scope f, which found got
// items (a number, or "more").
func countErr(f *frame, one, many, got string) error {
	return &detailError{ErrCount, "declared " + plural(f.n, one, many) + ", found " + got + " (header at line " + strconv.Itoa(f.line) + ")"}
}

// detailError is a sentinel cause with more words.
type detailError struct {
	cause error
	msg   string
}

func (e *detailError) Error() string { return e.cause.Error() + ": " + e.msg }
func (e *detailError) Unwrap() error { return e.cause }

func detail(cause error, msg string) error { return &detailError{cause, msg} }

func (d *Decoder) emit(t Token) {
	d.tmplRows = 0
	d.queue = append(d.queue, t)
}

// push opens a scope.
func (d *Decoder) push(kind frameKind, depth, n int) (*frame, error) {
	if len(d.stack) >= d.opts.maxDepth {
		return nil, d.syntaxErr(0, detail(ErrDepth, "more than "+strconv.Itoa(d.opts.maxDepth)+" levels"))
	}
	if len(d.stack) < cap(d.stack) {
		d.stack = d.stack[:len(d.stack)+1]
	} else {
		d.stack = append(d.stack, frame{})
	}
	f := &d.stack[len(d.stack)-1]
	f.kind, f.depth, f.n, f.count = kind, depth, n, 0
	f.fresh = kind != fObject && kind != fItem // see fieldValue for fObject
	f.line = d.line.num
	f.keys.reset()
	return f, nil
}

// pop closes the innermost scope, checking its count and emitting its end
// token. A scope whose count is wrong is not closed: its end token would
// let a consumer that writes as it reads (ToJSON) complete a document
// whose data is missing, so the error comes instead.
func (d *Decoder) pop() error {
	f := &d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	if d.opts.strict && f.count != f.n {
		switch f.kind {
		case fList:
			return d.shortErr(f, "item", "items")
		case fTabular:
			return d.shortErr(f, "row", "rows")
		case fKeyed:
			return d.shortErr(f, "entry", "entries")
		}
	}
	switch f.kind {
	case fObject, fItem, fKeyed:
		d.emit(ObjectEndToken())
	case fList, fTabular:
		d.emit(ArrayEndToken())
	}
	if len(d.stack) == 0 && d.root != rootScalar {
		d.root = rootDone
	}
	return nil
}

// step reads the next line and turns it into pending tokens.
func (d *Decoder) step() error {
	if d.done {
		return io.EOF
	}
	ln := &d.line
	d.scratch = d.scratch[:0]
	d.cells = d.cells[:0]
	d.ci = 0
	err := d.lx.readLine(ln)
	if err == io.EOF {
		return d.finish()
	}
	if err != nil {
		if err == errCommentUTF8 {
			return d.syntaxErr(firstInvalidUTF8(ln.full), ErrUTF8)
		}
		if err == errLineTooLong {
			return errAt(ln.num, ln.off, detail(ErrLineTooLong, "longer than "+strconv.Itoa(d.opts.maxLine)+" bytes"))
		}
		return err
	}
	// The indentation is spaces and tabs, so only the text needs checking.
	if d.opts.strict && !validUTF8(ln.text) {
		return d.syntaxErr(firstInvalidUTF8(ln.full), ErrUTF8)
	}
	if ln.blank {
		if d.blank == 0 {
			d.blank = ln.num
			d.blankOff = ln.off
		}
		return nil
	}
	if d.opts.strict {
		if ln.tab {
			return d.syntaxErr(0, detail(ErrIndent, "tab in indentation"))
		}
		if ln.odd {
			return d.syntaxErr(0, detail(ErrIndent, strconv.Itoa(ln.spaces)+" spaces is not a multiple of "+strconv.Itoa(d.opts.indent)))
		}
	}
	blank := d.blank
	d.blank = 0
	d.end, d.cur = d.cur, lineRef{ln.num, ln.off}
	d.lx.keepOff = ln.off

	switch d.root {
	case rootStart:
		return d.rootLine()
	case rootScalar:
		// §5: a document of more than one line is an object, whose lines
		// must all be fields; the first was not. (In non-strict mode too:
		// dropping the line, or the primitive, would lose data silently,
		// and the reference implementation rejects it as well.)
		return d.syntaxErr(0, detail(ErrStructure, "more than one line after a root primitive"))
	case rootDone:
		// Content after a complete root []: an error in both modes, as
		// below after a root array.
		return d.syntaxErr(0, ErrTrailing)
	}

	depth := ln.depth
	// Close the scopes this line is outside of.
	for len(d.stack) > 0 && d.stack[len(d.stack)-1].depth > depth {
		if err := d.pop(); err != nil {
			return err
		}
	}
	if len(d.stack) == 0 {
		// A root array or keyed object is complete; this line trails it.
		// §5 lets non-strict decoders ignore such lines, but that would
		// drop them silently: they are an error in both modes, as in the
		// reference implementation.
		return d.syntaxErr(0, ErrTrailing)
	}
	if blank != 0 && d.opts.strict {
		for i := range d.stack {
			switch f := &d.stack[i]; f.kind {
			case fList, fTabular, fKeyed:
				if f.count > 0 {
					return errAt(blank, d.blankOff, ErrBlankLine)
				}
			}
		}
	}
	f := &d.stack[len(d.stack)-1]
	if f.depth < depth {
		if !f.fresh || d.opts.strict {
			// A depth jump (§8), or a line that belongs to no scope. §8
			// lets non-strict decoders skip the latter, but that would
			// drop it silently: it is an error in both modes, as in the
			// reference implementation.
			return d.syntaxErr(0, detail(ErrIndent, "line is deeper than its scope"))
		}
		// Non-strict: the first line of a scope sets its depth, however
		// deep (§8 requires depth+1 only in strict mode).
		f.depth = depth
	}
	f.fresh = false
	switch f.kind {
	case fTabular:
		return d.tabularLine(f)
	case fKeyed:
		return d.keyedLine(f)
	case fList:
		return d.listLine(f)
	}
	return d.fieldLine(f, ln.text, 0, depth)
}

// finish closes every open scope at the end of the input.
func (d *Decoder) finish() error {
	d.done = true
	switch d.root {
	case rootStart:
		d.emit(ObjectStartToken())
		d.emit(ObjectEndToken())
		d.root = rootDone
		return nil
	case rootScalar:
		d.line = rawLine{full: d.scalarBuf, text: d.scalarBuf[d.scalarCol:], num: d.scalarNum, off: d.scalarOff}
		t, err := d.primitive(trimSpaces(d.line.text), d.scalarCol)
		if err != nil {
			return err
		}
		d.emit(t)
		d.root = rootDone
		return nil
	}
	// The scopes close from the innermost out; the first that fails
	// ends the document there, leaving the outer ones open.
	d.end = d.cur
	if d.ranged {
		return d.endRange()
	}
	for len(d.stack) > 0 {
		if err := d.pop(); err != nil {
			return err
		}
	}
	return nil
}

// rootLine decides the root form from the first content line (§5).
func (d *Decoder) rootLine() error {
	ln := &d.line
	text := ln.text
	if ln.depth != 0 {
		return d.syntaxErr(0, detail(ErrIndent, "first line is indented"))
	}
	if string(trimSpaces(text)) == "[]" {
		d.emit(ArrayStartToken(0, FormEmpty, 0, nil))
		d.emit(ArrayEndToken())
		d.root = rootDone
		return nil
	}
	var sc lineScan
	d.seps, sc = scanLine(text, 0, d.seps[:0])
	if sc.bracket == 0 && sc.colon > 0 {
		ok, herr := d.parseHeader(text, 0, &d.hdr)
		if ok && herr.err == nil {
			d.root = rootArray
			return d.openArray(&d.hdr, 0, true)
		}
		if ok && d.opts.strict {
			return d.syntaxErr(herr.at, herr.err)
		}
	}
	if sc.colon < 0 {
		// A single primitive, if nothing else follows. A quote that
		// leaves a region open does not matter here: only a token that
		// starts with '"' is a quoted string (§4), which primitive checks
		// when the document ends.
		d.root = rootScalar
		d.scalarBuf = append(d.scalarBuf[:0], ln.full...)
		d.scalarCol = len(ln.full) - len(text)
		d.scalarNum = ln.num
		d.scalarOff = ln.off
		return nil
	}
	d.root = rootObject
	d.emit(ObjectStartToken())
	f, err := d.push(fObject, 0, -1)
	if err != nil {
		return err
	}
	return d.fieldLine(f, text, 0, 0)
}

// fieldLine handles a line in an object scope: a header with a key, a
// key-value line, or an error. text is the content (after "- " for a first
// field on a hyphen line, where col is the content's offset in the line's
// text). depth is the depth at which the field stands.
func (d *Decoder) fieldLine(f *frame, text []byte, col, depth int) error {
	base := len(d.line.full) - len(d.line.text) + col
	var sc lineScan
	d.seps, sc = scanLine(text, 0, d.seps[:0])
	if sc.bracket >= 0 && sc.colon > sc.bracket {
		ok, herr := d.parseHeader(text, sc.bracket, &d.hdr)
		if ok {
			if herr.err == nil {
				if !d.hdr.hasKey {
					if d.opts.strict {
						return d.syntaxErr(base, detail(ErrStructure, "array header without a key inside an object"))
					}
				} else {
					if err := d.addKey(f, d.hdr.key, base); err != nil {
						return err
					}
					d.emit(KeyToken(d.hdr.key))
					d.hdr.restCol += col
					return d.openArray(&d.hdr, depth, false)
				}
			} else if d.opts.strict {
				return d.syntaxErr(base+herr.at, herr.err)
			}
			// Non-strict: read the line as a key-value line with a literal key.
			k := trimSpaces(text[:sc.colon])
			if err := d.addKey(f, k, base); err != nil {
				return err
			}
			d.emit(KeyToken(k))
			return d.fieldValue(text[sc.colon+1:], base+sc.colon+1, depth)
		}
	}
	if sc.colon < 0 {
		if text[0] == '"' && sc.open {
			return d.syntaxErr(base+len(text), ErrUnterminated) // a quoted key without its closing quote
		}
		return d.syntaxErr(base, detail(ErrMissingColon, "expected key: value"))
	}
	k, err := d.key(text[:sc.colon], base)
	if err != nil {
		return err
	}
	if err := d.addKey(f, k, base); err != nil {
		return err
	}
	d.emit(KeyToken(k))
	return d.fieldValue(text[sc.colon+1:], base+sc.colon+1, depth)
}

// key decodes the key token before a colon (§7.4).
func (d *Decoder) key(raw []byte, col int) ([]byte, error) {
	s, e := trimSpan(raw, 0, len(raw))
	k := raw[s:e]
	if len(k) > 0 && k[0] == '"' {
		u, next, bad, err := unquote(k, &d.scratch)
		if err != nil {
			return nil, d.syntaxErr(col+s+bad, err)
		}
		if next != len(k) {
			return nil, d.syntaxErr(col+s+next, ErrQuote)
		}
		return u, nil
	}
	return k, nil
}

// addKey records a key of the object f, failing on a duplicate in strict
// mode (§14.3).
func (d *Decoder) addKey(f *frame, k []byte, col int) error {
	if d.opts.strict && !f.keys.add(k) {
		return d.syntaxErr(col, detail(ErrDuplicateKey, strconv.Quote(string(k))))
	}
	return nil
}

// fieldValue handles what follows "key:" on a field line at depth.
func (d *Decoder) fieldValue(raw []byte, col, depth int) error {
	s, e := trimSpan(raw, 0, len(raw))
	v := raw[s:e]
	if len(v) == 0 {
		d.emit(ObjectStartToken())
		f, err := d.push(fObject, depth+1, -1)
		if err == nil {
			f.fresh = true
		}
		return err
	}
	if string(v) == "[]" {
		d.emit(ArrayStartToken(0, FormEmpty, 0, nil))
		d.emit(ArrayEndToken())
		return nil
	}
	t, err := d.primitive(v, col+s)
	if err != nil {
		return err
	}
	d.emit(t)
	return nil
}

// openArray emits the start of the array or keyed object that header h
// declares and opens its scope. depth is the depth at which the header
// stands as a field (its content is one level deeper); root headers pass
// -1. keyless reports a header in root or list-item position.
func (d *Decoder) openArray(h *header, depth int, keyless bool) error {
	delim := Delimiter(h.delim)
	if h.keyed {
		d.emit(KeyedStartToken(h.n, delim, h.fields))
		if _, err := d.push(fKeyed, depth+1, h.n); err != nil {
			return err
		}
		d.buildProg(h.fields)
		return nil
	}
	if h.fields != nil {
		d.emit(ArrayStartToken(h.n, FormTabular, delim, h.fields))
		if _, err := d.push(fTabular, depth+1, h.n); err != nil {
			return err
		}
		d.buildProg(h.fields)
		return nil
	}
	if len(h.rest) == 0 && (h.n > 0 || !d.opts.strict) {
		// A header with nothing after its colon opens a list. So does
		// key[0]: in non-strict mode, where the declared length is not
		// checked: items under it are read as under any other length (and
		// without them it is the empty list).
		d.emit(ArrayStartToken(h.n, FormList, delim, nil))
		_, err := d.push(fList, depth+1, h.n)
		return err
	}
	// Inline primitive array (§9.1), possibly empty.
	d.emit(ArrayStartToken(h.n, FormInline, delim, nil))
	if len(d.stack) >= d.opts.maxDepth {
		return d.syntaxErr(0, detail(ErrDepth, "more than "+strconv.Itoa(d.opts.maxDepth)+" levels"))
	}
	base := len(d.line.full) - len(d.line.text)
	if len(h.rest) > 0 {
		rest := d.line.text[h.restCol : h.restCol+len(h.rest)]
		d.splitCells(rest, h.delim, base+h.restCol)
	}
	if got := len(d.cells) / 2; d.opts.strict && got != h.n {
		d.cells = d.cells[:0]
		return d.syntaxErr(base+h.restCol, detail(ErrCount, "declared "+plural(h.n, "value", "values")+", found "+strconv.Itoa(got)))
	}
	d.ci = 0
	if len(d.cells) == 0 {
		d.emit(ArrayEndToken())
	} else {
		d.inlineEnd = true
	}
	if d.root == rootArray && len(d.stack) == 0 {
		d.root = rootDone
	}
	return nil
}

// splitCells splits text at its unquoted delimiters into trimmed cell spans.
// A quote opens a region that hides delimiters wherever it stands (Appendix
// B.3), but only a cell that starts with '"' is a quoted string, which
// cellToken checks: a region left open at the end of the line is an error
// only there.
func (d *Decoder) splitCells(text []byte, delim byte, col int) {
	d.seps, _ = scanLine(text, delim, d.seps[:0])
	d.cellsOf = text
	d.cellCol = col
	cells := d.cells[:0]
	s := 0
	for _, p := range d.seps {
		a, b := trimSpan(text, s, int(p))
		cells = append(cells, int32(a), int32(b))
		s = int(p) + 1
	}
	a, b := trimSpan(text, s, len(text))
	cells = append(cells, int32(a), int32(b))
	d.cells = cells
}

// buildProg compiles the field list of a tabular or keyed header into the
// row program: the tokens of one row, with cells in leaf order.
func (d *Decoder) buildProg(fields []Field) {
	prog := d.prog[:0]
	prog = append(prog, rowOp{tok: ObjectStartToken(), cell: -1})
	var cell int32
	var walk func(fs []Field)
	walk = func(fs []Field) {
		for _, f := range fs {
			prog = append(prog, rowOp{tok: KeyToken(f.Name), cell: -1})
			if f.Fields == nil {
				prog = append(prog, rowOp{cell: cell})
				cell++
				continue
			}
			prog = append(prog, rowOp{tok: ObjectStartToken(), cell: -1})
			walk(f.Fields)
			prog = append(prog, rowOp{tok: ObjectEndToken(), cell: -1})
		}
	}
	walk(fields)
	prog = append(prog, rowOp{tok: ObjectEndToken(), cell: -1})
	d.prog = prog
	d.pi = len(prog)
	// The same program as a template of tokens with a slot per cell.
	d.flat = true
	d.tmplRows = 0
	d.bulk.newTemplate()
	for _, f := range fields {
		if f.Fields != nil {
			d.flat = false
		}
	}
	d.rowTmpl = d.rowTmpl[:0]
	d.cellAt = d.cellAt[:0]
	for i, op := range prog {
		d.rowTmpl = append(d.rowTmpl, op.tok)
		if op.cell >= 0 {
			d.cellAt = append(d.cellAt, int32(i))
		}
	}
}

// tabularLine handles a line at row depth of a tabular array (§9.3).
func (d *Decoder) tabularLine(f *frame) error {
	text := d.line.text
	col := len(d.line.full) - len(text)
	delim := d.hdrDelim()
	var sc lineScan
	d.seps, sc = scanLine(text, delim, d.seps[:0])
	if sc.colon >= 0 && (len(d.seps) == 0 || int(d.seps[0]) > sc.colon) {
		// A key-value line: the rows are over, and the line has no scope
		// (an error in both modes, as in step).
		if err := d.pop(); err != nil {
			return err
		}
		return d.syntaxErr(0, detail(ErrIndent, "line is deeper than its scope"))
	}
	// A quote left open at the end of the line only hid the delimiters
	// after it: the cell it stands in is a string unless it starts with
	// '"', which row checks.
	return d.row(f, text, col, delim)
}

// row emits one tabular row or the cells of an entry row. d.seps holds the
// positions of text's unquoted delimiters.
func (d *Decoder) row(f *frame, text []byte, col int, delim byte) error {
	f.count++
	if d.opts.strict && f.count > f.n {
		if f.kind == fKeyed {
			return d.longErr(f, "entry", "entries")
		}
		return d.longErr(f, "row", "rows")
	}
	ncell := len(d.seps) + 1
	if len(text) == 0 && f.kind == fKeyed {
		ncell = 0 // a bare "key:" entry has no cells
	}
	if want := d.hdr.nleaf; ncell != want {
		// In both modes: §14.1 requires the error in strict mode, and
		// reading the row anyway would invent or drop cells silently (the
		// reference implementation rejects it in non-strict mode too).
		return d.syntaxErr(0, detail(ErrWidth, "header has "+plural(want, "field", "fields")+", row has "+plural(ncell, "cell", "cells")))
	}
	d.cellsOf = text
	d.cellCol = col
	if len(d.prog) > maxQueuedRow {
		// A very wide row: its tokens are made one at a time as they are
		// asked for, so the queue does not grow with the row.
		cells := d.cells[:0]
		for c := 0; c < d.hdr.nleaf; c++ {
			s, e := cellSpan(text, d.seps, c)
			cells = append(cells, int32(s), int32(e))
		}
		d.cells = cells
		d.ci = len(cells) / 2 // consumed by the program, not as inline values
		d.pi = 0
		return nil
	}
	// The usual row: copy the row's template (its keys and braces) into the
	// queue, then type every cell into its slot, which keeps Token itself
	// down to a copy.
	base := len(d.queue)
	var q []Token
	if d.flat {
		// Flat fields: the row is ObjectStart, (key, cell)..., ObjectEnd,
		// written straight into place.
		n := len(d.cellAt)
		q = slices.Grow(d.queue, 2*n+2)[:base+2*n+2]
		if base != 0 || d.tmplRows == 0 {
			row := q[base:]
			row[0] = d.rowTmpl[0]
			row[2*n+1] = d.rowTmpl[len(d.rowTmpl)-1]
			keys := d.rowTmpl[1 : 2*n+1]
			for c := 0; c < n; c++ {
				row[1+2*c] = keys[2*c]
			}
			// The previous row's keys and braces stay in place for the
			// next row at the start of the queue, which only needs its
			// cells rewritten.
			d.tmplRows = 0
			if base == 0 {
				d.tmplRows = 1
			}
		}
	} else {
		q = append(d.queue, d.rowTmpl...)
		if base != 0 {
			d.tmplRows = 0 // the templates at the start may be overwritten
		}
	}
	row := q[base:]
	seps := d.seps
	next := 0 // start of the next cell
	for c, at := range d.cellAt {
		s, e := next, len(text)
		if c < len(seps) {
			e = int(seps[c])
			next = e + 1
		} else {
			next = len(text) // the last cell
		}
		for s < e && text[s] == ' ' {
			s++
		}
		for e > s && text[e-1] == ' ' {
			e--
		}
		if s == e {
			row[at] = Token{h: uint64(KindString), p: unsafe.Pointer(&zeroByte)}
			continue
		}
		b := text[s:e]
		if b[0] == '"' {
			t, err := d.primitive(b, col+s)
			if err != nil {
				d.queue = q[:base]
				return err
			}
			row[at] = t
			continue
		}
		row[at] = plainToken(b)
	}
	d.queue = q
	return nil
}

// plainToken types a cell or value that is not quoted: b is trimmed, not
// empty, and b[0] != '"'.
func plainToken(b []byte) Token {
	k := KindString
	switch primStart[b[0]] {
	case primDigit:
		// Plain integers and decimals without a leading zero are the
		// common case; signs and exponents go through isNumber.
		i := 0
		for i < len(b) && b[i]-'0' < 10 {
			i++
		}
		n := i
		if i > 0 && i < len(b) && b[i] != '.' && b[i]|0x20 != 'e' {
			// Digits then anything but a fraction or an exponent, as in
			// a date: a string, without isNumber's second look.
			break
		}
		if i > 0 && i < len(b) && b[i] == '.' {
			i++
			f := i
			for i < len(b) && b[i]-'0' < 10 {
				i++
			}
			if i == f {
				i = -1 // "1." is a string
			}
		}
		if i == len(b) && (b[0] != '0' || n == 1) || i >= 0 && i < len(b) && isNumber(b) {
			k = KindNumber
		}
	case primLetter:
		switch string(b) {
		case "true":
			return Token{h: uint64(KindBool), n: 1}
		case "false":
			return Token{h: uint64(KindBool)}
		case "null":
			return Token{h: uint64(KindNull)}
		}
	}
	return Token{h: uint64(k), p: unsafe.Pointer(&b[0]), n: len(b)}
}

// cellSpan returns the bounds of cell c of text, spaces trimmed, given the
// positions of its separators. A cell past the last one is empty.
func cellSpan(text []byte, seps []int32, c int) (int, int) {
	s, e := 0, len(text)
	if c > 0 {
		if c > len(seps) {
			return len(text), len(text)
		}
		s = int(seps[c-1]) + 1
	}
	if c < len(seps) {
		e = int(seps[c])
	}
	for s < e && text[s] == ' ' {
		s++
	}
	for e > s && text[e-1] == ' ' {
		e--
	}
	return s, e
}

// maxQueuedRow is the widest row program whose tokens are queued at once.
const maxQueuedRow = 4096

func (d *Decoder) hdrDelim() byte { return d.hdr.delim }

// keyedLine handles a line at entry depth of a keyed object (§9.5).
func (d *Decoder) keyedLine(f *frame) error {
	text := d.line.text
	col := len(d.line.full) - len(text)
	// One scan finds the entry key's colon and the cells' delimiters.
	delim := d.hdr.delim
	var sc lineScan
	d.seps, sc = scanLine(text, delim, d.seps[:0])
	if sc.colon < 0 {
		if text[0] == '"' && sc.open {
			return d.syntaxErr(col+len(text), ErrUnterminated) // a quoted key without its closing quote
		}
		// §9.5 requires the error in strict mode; skipping the line would
		// drop it silently, so it is an error in both modes (as in the
		// reference implementation).
		return d.syntaxErr(0, detail(ErrStructure, "entry row without a colon"))
	}
	k, err := d.key(text[:sc.colon], col)
	if err != nil {
		return err
	}
	if err := d.addKey(f, k, col); err != nil {
		return err
	}
	d.emit(KeyToken(k))
	start, _ := trimSpan(text, sc.colon+1, len(text)) // the cells start here
	rest := text[start:]
	// Keep the delimiters after the colon, counted from the start of rest.
	// The quote state at an unquoted colon is outside any quote, so they
	// are what a scan of rest alone would find.
	off := int32(start)
	j := 0
	for j < len(d.seps) && d.seps[j] < off {
		j++
	}
	n := copy(d.seps, d.seps[j:])
	d.seps = d.seps[:n]
	for i := range d.seps {
		d.seps[i] -= off
	}
	return d.row(f, rest, col+start, delim)
}

// listLine handles a line at item depth of an expanded list (§9.4, §10).
func (d *Decoder) listLine(f *frame) error {
	text := d.line.text
	depth := d.line.depth
	var rest []byte
	switch {
	case len(text) == 1 && text[0] == '-':
		rest = nil
	case len(text) >= 2 && text[0] == '-' && text[1] == ' ':
		rest = text[2:]
	default:
		// A line at item depth that is not an item belongs to no scope:
		// an error in both modes (see step).
		return d.syntaxErr(0, detail(ErrStructure, "expected a list item"))
	}
	f.count++
	if d.opts.strict && f.count > f.n {
		return d.longErr(f, "item", "items")
	}
	col := 2
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
		col++
	}
	rest = trimSpaces(rest)
	if len(rest) == 0 {
		// Empty object item.
		d.emit(ObjectStartToken())
		d.emit(ObjectEndToken())
		return nil
	}
	if string(rest) == "[]" {
		d.emit(ArrayStartToken(0, FormEmpty, 0, nil))
		d.emit(ArrayEndToken())
		return nil
	}
	base := len(d.line.full) - len(text) + col
	_, sc := scanLine(rest, 0, d.seps[:0])
	if sc.bracket == 0 && sc.colon > 0 {
		ok, herr := d.parseHeader(rest, 0, &d.hdr)
		if ok && herr.err == nil {
			if d.hdr.keyed || d.hdr.fields != nil {
				if d.opts.strict {
					return d.syntaxErr(base, detail(ErrStructure, "keyless tabular header in a list item"))
				}
				// Non-strict: an object with a literal key.
			} else {
				// Adjust restCol: parseHeader indexed rest, openArray indexes the line's text.
				d.hdr.restCol += col
				return d.openArray(&d.hdr, depth, true)
			}
		} else if ok && d.opts.strict {
			return d.syntaxErr(base+herr.at, herr.err)
		}
	}
	if sc.colon < 0 {
		t, err := d.primitive(rest, base)
		if err != nil {
			return err
		}
		d.emit(t)
		return nil
	}
	// An object whose first field is on the hyphen line.
	d.emit(ObjectStartToken())
	item, err := d.push(fItem, depth+1, -1)
	if err != nil {
		return err
	}
	return d.fieldLine(item, rest, col, depth+1)
}

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

// keySet remembers the keys of one object to find duplicates. Small sets are
// searched linearly, through a word per key (its first eight bytes and its
// length) so that most keys are told apart without comparing their bytes;
// larger ones through an open-addressing table, so a million sibling keys
// cost linear time.
type keySet struct {
	arena []byte
	ends  []int32
	fps   []uint64 // per key, keyPrint of it (small sets only)
	spare []byte   // toTable's other arena, kept for its capacity
	table []int32  // slot: index+1 into ends, 0 empty
}

var keySeed = maphash.MakeSeed()

func (s *keySet) reset() {
	s.arena = s.arena[:0]
	s.ends = s.ends[:0]
	s.fps = s.fps[:0]
	s.table = s.table[:0]
}

func (s *keySet) key(i int) []byte {
	start := int32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.arena[start:s.ends[i]]
}

// keyPrint packs a key's length and its first bytes into a word: keys
// with different prints differ, and keys of up to seven bytes with equal
// prints are equal. A short key whose slice has room is read as a whole
// word (the bytes past its length, inside its capacity, are masked off).
func keyPrint(k []byte) uint64 {
	n := len(k)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(k)&^(0xff<<56) | uint64(min(n, 255))<<56
	case cap(k) >= 8:
		return binary.LittleEndian.Uint64(k[:8])&(1<<(8*uint(n))-1) | uint64(n)<<56
	}
	var w uint64
	for i := n - 1; i >= 0; i-- {
		w = w<<8 | uint64(k[i])
	}
	return w | uint64(n)<<56
}

// add records k and reports whether it was new. Keys shorter than eight
// bytes are kept as their prints alone; longer ones also in the arena.
func (s *keySet) add(k []byte) bool {
	if len(s.table) == 0 {
		fp := keyPrint(k)
		for i, f := range s.fps {
			if f == fp && (len(k) < 8 || bytes.Equal(s.key(i), k)) {
				return false
			}
		}
		if len(k) >= 8 {
			s.arena = append(s.arena, k...)
		}
		s.ends = append(s.ends, int32(len(s.arena)))
		s.fps = append(s.fps, fp)
		if len(s.ends) > 16 {
			s.rehash(64)
		}
		return true
	}
	mask := len(s.table) - 1
	for i := int(maphash.Bytes(keySeed, k)) & mask; ; i = (i + 1) & mask {
		v := s.table[i]
		if v == 0 {
			s.arena = append(s.arena, k...)
			s.ends = append(s.ends, int32(len(s.arena)))
			s.table[i] = int32(len(s.ends))
			if 2*len(s.ends) > len(s.table) {
				s.rehash(2 * len(s.table))
			}
			return true
		}
		if bytes.Equal(s.key(int(v-1)), k) {
			return false
		}
	}
}

// toTable moves a small set's short keys, kept as prints only, into the
// arena, so that every key has its bytes there: the hash table needs them.
func (s *keySet) toTable() {
	arena := s.spare[:0]
	start := int32(0) // of key i in the old arena
	for i, fp := range s.fps {
		end := s.ends[i]
		if n := int(fp >> 56); n < 8 {
			for j := 0; j < n; j++ {
				arena = append(arena, byte(fp>>(8*uint(j))))
			}
		} else {
			arena = append(arena, s.arena[start:end]...)
		}
		start = end
		s.ends[i] = int32(len(arena))
	}
	s.arena, s.spare = arena, s.arena[:0] // both keep their capacity
	s.fps = s.fps[:0]
}

func (s *keySet) rehash(size int) {
	if len(s.fps) > 0 {
		s.toTable()
	}
	if cap(s.table) >= size {
		s.table = s.table[:size]
		clear(s.table)
	} else {
		s.table = make([]int32, size)
	}
	mask := size - 1
	for j := range s.ends {
		for i := int(maphash.Bytes(keySeed, s.key(j))) & mask; ; i = (i + 1) & mask {
			if s.table[i] == 0 {
				s.table[i] = int32(j + 1)
				break
			}
		}
	}
}
