package toon

import (
	"io"
	"strconv"
)

// A Decoder reads a TOON document from an input stream as a sequence of
// tokens in the JSON data model. It reads through its own buffer (64 KiB,
// grown only for a longer line) and holds nothing beyond it but the open
// scopes' bookkeeping and a bounded queue of tokens, so its memory does not
// grow with the size of the document. It takes the lines already in its
// buffer many at a time where it can: the rows of a table (see
// fastrows.go), and runs of field lines and list items (see lineruns.go);
// other lines one at a time.
//
// Tokens refer to the decoder's buffers: their bytes are valid until the next
// call to Token, More, Skip or Decode (see Token.Clone).
type Decoder struct {
	// The token queue: queue[qi:] are the tokens made and not yet returned
	// (see queue.go). queue, qi and qerr stand in Decoder itself, not in a
	// part, because Token, which reads them, must stay within the
	// inliner's budget, and a field of an embedded struct costs it one more
	// node.
	queue []Token
	qi    int   // the next token to return
	qerr  error // the sticky error, once the queue holds its placeholder
	began bool  // a queue of tokens has been used up: Token has been called

	queueMemory // the memory the queue views (queue.go)

	scopes       // the open scopes (scope.go)
	headerParser // the last header read and its field list (header.go)
	rowProgram   // the open table's row program (rowprog.go)
	lazyCells    // cells of the current line still to be typed (rowprog.go)
	lineRuns     // the lines of a run of simple lines in the queue (lineruns.go)

	prevProg rowProgram // the row program before the open table's (headerProg)

	lr   lineReader // the input, a line at a time (linereader.go)
	line rawLine    // the current line
	// last is the line of the last token returned, once the queue that
	// held it is gone (dropQueue) and until a token of the next is
	// returned: Line and InputOffset report it, as the line the next
	// queue came from may be read before that token is taken.
	last lineRef
	bulk bulkRun // the fast path over table rows (fastrows.go)
	opts options

	seps    []int32 // unquoted delimiters of the current line (scanLine)
	scratch []byte  // unescaped strings of the current line
	// scratchPins holds the arrays scratch outgrew while the queue may
	// view them (scratchRoom).
	scratchPins [][]byte
	// blank is the first blank line since the last content line (num 0
	// when there is none), for the error of a blank line inside an array.
	blank lineRef
	// scalar is a root primitive's line (its own copy), kept while the
	// decoder looks for more lines.
	scalar rawLine
	ahead  int       // bytes of slice capacity given before the elements were read, not yet filled (preallocLen)
	err    error     // sticky
	done   bool      // the input has ended
	rng    rangeMode // set when the input is a range of a table's rows (split.go)
	// handOn: the decoder reads from a reader, took its memory from the
	// pool (or has none yet), and hands it on at the end of its input
	// (recycle.go; Reset).
	handOn bool
	box    *Decoder // the decoder its memory came from, to put it back in
}

// NewDecoder returns a decoder that reads from r, buffering its input.
// Once Token has returned io.EOF, the decoder leaves its buffers to the
// next decoder NewDecoder makes, or to its own Reset: a program that
// makes a decoder for each document reuses their memory. A decoder Reset
// before the end of its input keeps its buffers for the next Reset
// instead.
func NewDecoder(r io.Reader, opts ...Option) *Decoder {
	d := &Decoder{opts: makeOptions(opts), handOn: true}
	d.takeMemory()
	d.lr.init(r, &d.opts)
	d.headerParser.strict = d.opts.strict
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
	d := new(Decoder)
	d.initBytes(data, opts)
	return d
}

// initBytes makes d, a zero Decoder, read data in place with the options
// opts.
func (d *Decoder) initBytes(data []byte, opts []Option) {
	d.opts = makeOptions(opts)
	d.lr.initBytes(data, &d.opts)
	d.headerParser.strict = d.opts.strict
}

// Reset discards the decoder's state and makes it read a new document
// from r with the same options, keeping its buffers.
func (d *Decoder) Reset(r io.Reader) {
	// A decoder Reset while it holds its memory keeps it at the end of its
	// input, for its next Reset: memory handed on and taken back goes
	// through a pool that the collector empties and whose decoders come
	// back by goroutine (sync.Pool), and so may be another decoder's, too
	// small for this one's documents. A decoder that has handed its memory
	// on takes a pooled decoder's, and hands it on at its end, as a new
	// decoder does.
	d.handOn = d.lr.buf == nil
	if d.handOn {
		d.takeMemory()
	}
	d.lr.reset(r, &d.opts)
	d.line, d.last = rawLine{}, lineRef{}
	d.resetScratch()
	d.generalQueue()
	d.queue, d.qi, d.qerr, d.began = d.queue[:0], 0, nil, false
	d.scopes.reset()
	d.newTemplate()
	d.prog = d.prog[:0]
	d.prevProg.prog = d.prevProg.prog[:0]
	d.lazyCells.reset()
	d.marks = d.marks[:0]
	d.bulk.reset()
	d.blank = lineRef{}
	d.err, d.done, d.ahead = nil, false, 0
}

// InputOffset returns the input offset of the start of the line the last
// token came from (Line's).
func (d *Decoder) InputOffset() int64 {
	return d.tokenRef().off
}

// Line returns the 1-based number of the line the last token came from.
func (d *Decoder) Line() int {
	return d.tokenRef().num
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
// when it returns nil. The slice is the decoder's own memory, which the
// caller must not write to, and it and its tokens are valid only until the
// next call to Row or Token: copy a token (or Clone it, to keep its text)
// to keep it longer.
func (d *Decoder) Row() []Token {
	per := d.bulk.per
	if !d.inFast || d.qi+per > len(d.queue) || d.qi%per != 0 {
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
		if err == io.EOF {
			d.handOnMemory()
		}
		d.rowKept = false // the placeholder takes the kept row's place
		d.queue = appendToken(d.queue[:0], Token{})
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
// errors (a count error of a skipped array included). Where the next token
// ends an object or array, Skip consumes nothing and returns an error
// matching ErrNotValue; after the last value of the document it returns
// io.EOF.
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
		if depth > 0 && d.inFast && d.qi%d.bulk.per == 0 {
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
		return misuse(ErrNotValue, call+" where the next token, on line "+strconv.Itoa(d.lineRefOf(d.qi).num)+", is "+k.String()+", not a value")
	}
	return nil
}

// refill empties the queue and fills it with the next tokens: the next
// chunk of a wide row or long inline array, the next rows of a table (the
// fast path), or the tokens of the next line. It returns an error only
// when no token is left before it.
func (d *Decoder) refill() error {
	d.dropQueue()
	d.marks = d.marks[:0]
	ran := false // runLines has run since the last line step handled
	for len(d.queue) == 0 {
		switch {
		case d.pi < len(d.prog):
			d.rowChunk()
		case d.ci < len(d.cells)/2:
			d.inlineChunk()
		default:
			if d.err != nil {
				return d.err
			}
			d.bulk.n = 0 // the queue holds no fast-path rows now
			if d.bulkReady() && d.bulkRows() {
				d.halted = false
				continue
			}
			if !d.halted && !d.rng.on {
				// The last run stopped for room, or other lines were taken
				// since it stopped (the fast path's rows): a run may take
				// the next lines before any step. The queue is empty, so
				// nothing views scratch (readLine empties it too).
				d.resetScratch()
				d.runLines()
				ran = true
				if len(d.queue) > 0 {
					continue
				}
			}
			d.err = d.step()
			ran = false
		}
	}
	if d.err == nil && !ran {
		d.runLines()
	}
	return nil
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
// line reader still has it.
func (d *Decoder) shortErr(f *frame, one, many string) error {
	return &SyntaxError{Line: d.end.num, Column: 1, Offset: d.end.off, Source: string(d.lr.source(d.end.off)),
		Err: countErr(f, one, many, strconv.Itoa(f.count))}
}

// longErr reports an item, row or entry beyond the declared count, at the
// current line.
func (d *Decoder) longErr(f *frame, one, many string) error {
	return d.syntaxErr(0, countErr(f, one, many, "more"))
}

func (d *Decoder) emit(t Token) {
	d.rowKept = false
	d.queue = appendToken(d.queue, t)
}

// step reads the next line and turns it into pending tokens: the next
// content line, checked (readLine) and taken (takeLine), is handled by the
// root (rootStep) or by the scope it belongs to (scopeOf), as that scope's
// kind of line. Blank lines are only recorded; at the end of the input,
// finish closes the document.
func (d *Decoder) step() error {
	if d.done {
		return io.EOF
	}
	content, err := d.readLine()
	if !content || err != nil {
		return err
	}
	if d.rng.cut && d.line.depth < d.rng.depth {
		return d.stopRange() // the line ends the table, and the range
	}
	blank := d.takeLine()
	if d.root != rootObject && d.root != rootArray {
		return d.rootStep()
	}
	var f *frame
	if n := len(d.stack); n > 0 && blank.num == 0 && d.stack[n-1].depth == d.line.depth {
		// The usual line: at the depth of the innermost scope, after no
		// blank line (scopeOf's result, without the call).
		f = &d.stack[n-1]
		f.fresh = false
	} else if f, err = d.scopeOf(blank); err != nil {
		return err
	}
	switch f.kind {
	case fTabular:
		return d.tabularLine(f)
	case fKeyed:
		return d.keyedLine(f)
	case fList:
		return d.listLine(f)
	}
	return d.fieldLine(f, d.line.text, 0, d.line.depth)
}

// readLine reads the next line into d.line and checks what every line
// must be: UTF-8 in strict mode, and in strict mode an indentation of
// spaces, a multiple of the indent size. It reports whether the line is a
// content line; a blank line is recorded in d.blank. At the end of the
// input it finishes the document (finish).
func (d *Decoder) readLine() (content bool, err error) {
	ln := &d.line
	d.resetScratch()
	d.cells, d.ci, d.numbers = d.cells[:0], 0, 0
	err = d.lr.readLine(ln)
	if err == io.EOF {
		return false, d.finish()
	}
	if err != nil {
		if err == errCommentUTF8 {
			return false, d.syntaxErr(firstInvalidUTF8(ln.full), ErrUTF8)
		}
		if err == ErrLineTooLong {
			return false, errAt(ln.num, ln.off, detail(ErrLineTooLong, "longer than "+strconv.Itoa(d.opts.maxLine)+" bytes"))
		}
		return false, err
	}
	// The indentation is spaces and tabs, so only the text needs checking.
	if d.opts.strict && !validUTF8(ln.text) {
		return false, d.syntaxErr(firstInvalidUTF8(ln.full), ErrUTF8)
	}
	if ln.blank {
		if d.blank.num == 0 {
			d.blank = lineRef{ln.num, ln.off}
		}
		return false, nil
	}
	if d.opts.strict {
		if ln.tab {
			return false, d.syntaxErr(0, detail(ErrIndent, "tab in indentation"))
		}
		if ln.odd {
			return false, d.syntaxErr(0, detail(ErrIndent, strconv.Itoa(ln.spaces)+" spaces is not a multiple of "+strconv.Itoa(d.opts.indent)))
		}
	}
	return true, nil
}

// takeLine makes the current line the last content line, and returns the
// blank line before it, if any (num 0 when none).
func (d *Decoder) takeLine() lineRef {
	blank := d.blank
	d.blank = lineRef{}
	d.end, d.cur = d.cur, lineRef{d.line.num, d.line.off}
	d.lr.keepOff = d.line.off // errors may quote it after the buffer moves
	return blank
}

// rootStep handles a content line where no scope is open: the first line
// of the document, or a line after a root that is complete.
func (d *Decoder) rootStep() error {
	switch d.root {
	case rootStart:
		return d.rootLine()
	case rootScalar:
		// §5: a document of more than one line is an object, whose lines
		// must all be fields; the first was not. (In non-strict mode too:
		// dropping the line, or the primitive, would lose data silently,
		// and the reference implementation rejects it as well.)
		return d.syntaxErr(0, detail(ErrStructure, "more than one line after a root primitive"))
	}
	// Content after a complete root []: an error in both modes, as in
	// scopeOf after a root array.
	return d.syntaxErr(0, ErrTrailing)
}

// scopeOf closes the scopes that the current line is outside of, and
// returns the scope the line belongs to. blank is the blank line before
// the line, if any, an error in strict mode inside an array that has
// begun.
func (d *Decoder) scopeOf(blank lineRef) (*frame, error) {
	depth := d.line.depth
	for len(d.stack) > 0 && d.stack[len(d.stack)-1].depth > depth {
		if err := d.pop(); err != nil {
			return nil, err
		}
	}
	if len(d.stack) == 0 {
		// A root array or keyed object is complete; this line trails it.
		// §5 lets non-strict decoders ignore such lines, but that would
		// drop them silently: they are an error in both modes, as in the
		// reference implementation.
		return nil, d.syntaxErr(0, ErrTrailing)
	}
	if blank.num != 0 && d.opts.strict {
		for i := range d.stack {
			switch f := &d.stack[i]; f.kind {
			case fList, fTabular, fKeyed:
				if f.count > 0 {
					return nil, errAt(blank.num, blank.off, ErrBlankLine)
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
			return nil, d.syntaxErr(0, detail(ErrIndent, "line is deeper than its scope"))
		}
		// Non-strict: the first line of a scope sets its depth, however
		// deep (§8 requires depth+1 only in strict mode).
		f.depth = depth
	}
	f.fresh = false
	return f, nil
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
		d.line = d.scalar
		t, err := d.primitive(trimSpaces(d.line.text), len(d.line.full)-len(d.line.text))
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
	if d.rng.on {
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
		full := append(d.scalar.full[:0], ln.full...)
		d.scalar = rawLine{full: full, text: full[len(ln.full)-len(text):], num: ln.num, off: ln.off}
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
	if i := plainKeyColon(text); i > 0 {
		// The usual field line: an unquoted key, then its colon. No quote
		// or bracket stands before the colon, so it is the line's first
		// unquoted colon and the line is no header: the scan below would
		// find the same, and the value needs no scan of its own.
		k := text[:i]
		if err := d.addKey(f, k, base); err != nil {
			return err
		}
		d.emit(KeyToken(k))
		return d.fieldValue(text[i+1:], base+i+1, depth)
	}
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
		u, next, bad, err := d.unquote(k)
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
		d.headerProg(h)
		return nil
	}
	if h.fields != nil {
		d.emit(ArrayStartToken(h.n, FormTabular, delim, h.fields))
		if _, err := d.push(fTabular, depth+1, h.n); err != nil {
			return err
		}
		d.headerProg(h)
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
		d.cells, d.numbers = d.cells[:0], 0
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
	if plainKeyColon(rest) > 0 {
		// An object whose first field, with an unquoted key, is on the
		// hyphen line (the scan below would say the same).
		return d.itemObject(rest, col, depth)
	}
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
	return d.itemObject(rest, col, depth)
}

// itemObject opens the object of a list item at depth whose first field,
// rest, is on the hyphen line at column col of the line's text.
func (d *Decoder) itemObject(rest []byte, col, depth int) error {
	d.emit(ObjectStartToken())
	item, err := d.push(fItem, depth+1, -1)
	if err != nil {
		return err
	}
	return d.fieldLine(item, rest, col, depth+1)
}

// plainKeyColon returns the index of the colon that ends an unquoted key
// (§7.3's pattern) at the start of text, when the colon follows the key
// at once, and 0 otherwise.
func plainKeyColon(text []byte) int {
	if i := plainKeyEnd(text); i > 0 && i < len(text) && text[i] == ':' {
		return i
	}
	return 0
}
