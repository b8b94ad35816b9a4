package toon

// This file holds the general path's handling of table rows: a tabular or
// keyed header compiled into the tokens of one row (the row program), and
// the rows and entries typed through it, one line at a time.

import "github.com/toonstream/toon/internal/mem"

// rowProgram is the open tabular or keyed header compiled (buildProg).
type rowProgram struct {
	prog    []rowOp // the tokens of one row, cells in leaf order
	rowTmpl []Token // the same as tokens, cells left blank
	flat    bool    // no nested field groups: cell c sits at 2+2c in rowTmpl
	cellAt  []int32 // index in rowTmpl of each leaf cell, in cell order
	// progID is the header.fieldsID of the fields prog was compiled from
	// by headerProg (0 when not from a header's).
	progID int
}

// lazyCells holds the tokens of the current line that are made a chunk at
// a time as they are asked for (refill), so that the queue does not grow
// with the line: the row program over the cells of a very wide row, or the
// values of a long inline array followed by its ArrayEnd.
type lazyCells struct {
	pi      int     // next op of prog; len(prog) when no row is pending
	cells   []int32 // cell spans of the current row or inline array: start, end pairs
	cellsOf []byte  // the text the cell spans index
	cellCol int     // column of cellsOf[0] in the line
	ci      int     // next inline value; len(cells)/2 when none pending
	// numbers counts the inline values at the start of cells that
	// numberSpans read: numbers, typed as they were split.
	numbers int
	// inlineEnd asks for an ArrayEnd after the pending inline values.
	inlineEnd bool
}

// reset drops the pending cells, keeping their memory.
func (c *lazyCells) reset() {
	c.pi = 0
	c.cells, c.ci, c.numbers = c.cells[:0], 0, 0
	c.inlineEnd = false
}

// newTemplate forgets the copies of the last row template that the queues
// keep, when there is a new one.
func (d *Decoder) newTemplate() {
	d.rowKept = false
	d.fast.newTemplate()
	d.bulk.slots = d.bulk.slots[:0]
}

// rowOp is one step of a row program: a ready-made token, or (cell >= 0)
// the token of a cell.
type rowOp struct {
	tok  Token
	cell int32
}

// lazyChunk is how many tokens of a very wide row or a long inline array
// are queued at once.
const lazyChunk = 256

// rowChunk queues the next lazyChunk tokens of a very wide row.
func (d *Decoder) rowChunk() {
	d.rowKept = false
	end := min(d.pi+lazyChunk, len(d.prog))
	for ; d.pi < end; d.pi++ {
		op := &d.prog[d.pi]
		if op.cell < 0 {
			d.queue = appendToken(d.queue, op.tok)
			continue
		}
		t, err := d.cellToken(int(op.cell))
		if err != nil {
			d.stopLazy(err)
			break
		}
		d.queue = appendToken(d.queue, t)
	}
}

// inlineChunk queues the next lazyChunk values of an inline array the
// general path reads (a long one, most often), and its ArrayEnd after the
// last. It is cellToken's loop written out, into room made once, after a
// loop over the values that splitCells found to be numbers.
func (d *Decoder) inlineChunk() {
	d.rowKept = false
	n := len(d.cells) / 2
	end := min(d.ci+lazyChunk, n)
	d.queueRoom(end - d.ci + 1)
	text, cells := d.cellsOf, d.cells
	p, room := mem.BytesData(text), cap(text)
	q := d.queue
	ci := d.ci
	for nend := min(end, d.numbers); ci < nend; ci++ {
		s, e := int(cells[2*ci]), int(cells[2*ci+1])
		q = pushToken(q, Token{h: uint64(KindNumber), p: p.Add(s), n: e - s})
	}
	for ; ci < end; ci++ {
		s, e := int(cells[2*ci]), int(cells[2*ci+1])
		switch {
		case s == e:
			q = pushToken(q, emptyString())
		case text[s] != '"':
			q = pushToken(q, plainCell(p.Add(s), e-s, room-s))
		default:
			d.queue, d.ci = q, ci
			t, err := d.primitive(text[s:e], d.cellCol+s)
			if err != nil {
				d.stopLazy(err)
				return
			}
			q = pushToken(d.queue, t)
		}
	}
	d.queue, d.ci = q, ci
	if ci == n && d.inlineEnd {
		d.inlineEnd = false
		d.queue = appendToken(d.queue, ArrayEndToken())
	}
}

// stopLazy ends the lazy token sources of the current line with an error.
func (d *Decoder) stopLazy(err error) {
	d.pi = len(d.prog)
	d.ci = len(d.cells) / 2
	d.inlineEnd = false
	d.err = err
}

// cellToken returns the token of cell i of the current row or inline array.
// Quoted cells go through primitive, the others through plainCell, which
// reads a cell by words up to the capacity of the line's view (its bytes
// are in the line reader's buffer, or the caller's slice).
func (d *Decoder) cellToken(i int) (Token, error) {
	s, e := int(d.cells[2*i]), int(d.cells[2*i+1])
	b := d.cellsOf[s:e]
	switch {
	case len(b) == 0:
		return emptyString(), nil
	case b[0] == '"':
		return d.primitive(b, d.cellCol+s)
	}
	return plainCell(mem.BytesData(b), len(b), cap(d.cellsOf)-s), nil
}

// splitCells splits text at its unquoted delimiters into trimmed cell spans.
// A quote opens a region that hides delimiters wherever it stands (Appendix
// B.3), but only a cell that starts with '"' is a quoted string, which
// cellToken checks: a region left open at the end of the line is an error
// only there.
//
// The cells at the start of text that are numbers of plainNumber's form,
// as an inline array of numbers is written, are split by reading them
// (numberSpans), which types them too; the scan of the line's bytes
// (scanLine) splits the rest, from the first cell that is not such a
// number: no quote stands before it.
func (d *Decoder) splitCells(text []byte, delim byte, col int) {
	d.cellsOf = text
	d.cellCol = col
	cells, from := numberSpans(text, delim, d.cells[:0])
	d.numbers = len(cells) / 2
	if from <= len(text) {
		d.seps, _ = scanLine(text[from:], delim, d.seps[:0])
		s := from
		for _, p := range d.seps {
			a, b := trimSpan(text, s, from+int(p))
			cells = append(cells, int32(a), int32(b))
			s = from + int(p) + 1
		}
		a, b := trimSpan(text, s, len(text))
		cells = append(cells, int32(a), int32(b))
	}
	d.cells = cells
}

// numberSpans appends to cells the spans of the cells at the start of text
// that are numbers of plainNumber's form, each ended by delim or by the end
// of text, with nothing around it. It returns them and the offset of the
// first cell it did not read, or len(text)+1 when it read every cell. It
// reads a cell only with 24 bytes readable from its start (within
// cap(text)), as plainNumber needs: the last cells of a buffer are left to
// the scan.
func numberSpans(text []byte, delim byte, cells []int32) ([]int32, int) {
	p, room := mem.BytesData(text), cap(text)
	s := 0
	for s+24 <= room {
		e := plainNumber(p.Add(s))
		if e < 0 {
			break
		}
		e += s
		if e == len(text) {
			return append(cells, int32(s), int32(e)), e + 1
		}
		if e > len(text) || text[e] != delim {
			break
		}
		cells = append(cells, int32(s), int32(e))
		s = e + 1
	}
	return cells, s
}

// headerProg makes the row program that of header h's fields: the program
// already built when it was built from the same fields (the same header
// repeated in a list of like objects), else a new one.
//
// The program before the current one is kept too (prevProg), for objects
// that hold two tables each, whose headers alternate. Field segments'
// ids are never given twice (headerParser.ids), so a program found by id
// is that of the same fields, in the same memory.
func (d *Decoder) headerProg(h *header) {
	if h.fieldsID != 0 {
		if h.fieldsID == d.progID && len(d.prog) > 0 {
			// The same program, and so the same template, in the same
			// memory: the copies of it that the fast path's queue holds
			// (its keys and braces; the rows' cells are written anew) and
			// the cells' slots stay valid for the new table's rows. The
			// general queue has been written since the last row.
			d.pi = len(d.prog)
			d.rowKept = false
			return
		}
		if h.fieldsID == d.prevProg.progID && len(d.prevProg.prog) > 0 {
			d.rowProgram, d.prevProg = d.prevProg, d.rowProgram
			d.pi = len(d.prog)
			d.newTemplate()
			return
		}
	}
	// The new program is built in the older one's memory, and the current
	// one, if any, becomes the previous (with none, as after Reset, the
	// memory in use is reused, so that a document of one table uses one).
	if len(d.prog) > 0 {
		d.rowProgram, d.prevProg = d.prevProg, d.rowProgram
	}
	d.buildProg(h.fields)
	d.progID = h.fieldsID
}

// buildProg compiles the field list of a tabular or keyed header into the
// row program: the tokens of one row, with cells in leaf order.
func (d *Decoder) buildProg(fields []Field) {
	d.progID = 0
	prog := d.prog[:0]
	prog = append(prog, rowOp{tok: ObjectStartToken(), cell: -1})
	var cell int32
	walkFields(fields, 0, func(s fieldStep, f *Field, _ int) error {
		switch s {
		case stepKey:
			prog = append(prog, rowOp{tok: KeyToken(f.Name), cell: -1})
		case stepCell:
			prog = append(prog, rowOp{cell: cell})
			cell++
		case stepGroup:
			prog = append(prog, rowOp{tok: ObjectStartToken(), cell: -1})
		case stepGroupEnd:
			prog = append(prog, rowOp{tok: ObjectEndToken(), cell: -1})
		}
		return nil
	})
	prog = append(prog, rowOp{tok: ObjectEndToken(), cell: -1})
	d.prog = prog
	d.pi = len(prog)
	// The same program as a template of tokens with a slot per cell.
	d.flat = true
	d.newTemplate()
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
	delim := d.hdr.delim
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
		d.cells, d.numbers = cells, 0
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
		d.queueRoom(2*n + 2)
		q = d.queue[:base+2*n+2]
		if base != 0 || !d.rowKept {
			row := q[base:]
			setToken(row, 0, d.rowTmpl[0])
			setToken(row, 2*n+1, d.rowTmpl[len(d.rowTmpl)-1])
			keys := d.rowTmpl[1 : 2*n+1]
			for c := 0; c < n; c++ {
				setToken(row, 1+2*c, keys[2*c])
			}
			// The previous row's keys and braces stay in place for the
			// next row at the start of the queue, which only needs its
			// cells rewritten.
			d.rowKept = base == 0
		}
	} else {
		q = appendTokens(d.queue, d.rowTmpl...)
		if base != 0 {
			d.rowKept = false // the template at the start may be overwritten
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
			setToken(row, int(at), emptyString())
			continue
		}
		b := text[s:e]
		if b[0] == '"' {
			t, err := d.primitive(b, col+s)
			if err != nil {
				d.queue = q[:base]
				return err
			}
			setToken(row, int(at), t)
			continue
		}
		setToken(row, int(at), plainCell(mem.BytesData(b), len(b), cap(text)-s))
	}
	d.queue = q
	return nil
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
