package convert

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// FromJSON reads one JSON value from r and writes it to w as a TOON
// document (without a trailing newline, §12). The output is byte for byte
// toon.Marshal of the same value as a toon.Object tree that keeps the
// JSON's key order; numbers keep their exact value (they are rewritten in
// canonical form, §2, from their digits, never through float64).
//
// r is read twice (see the package documentation). If r is an io.Seeker
// whose Seek works (a regular file), FromJSON reads it from its current
// offset and seeks back for the second pass; otherwise it first copies r to
// a temporary file. When more than one CPU may run Go code, FromJSON uses
// more goroutines for large tables. If r is also an io.ReaderAt (or was
// copied to a file), a second goroutine reads the far half of a table in
// the first pass (with ReadAt, while it reads the near half), and in the
// second pass the table's rows are read and formatted in ranges by
// GOMAXPROCS goroutines, the calling one included, and written in order
// (see fromjson_parallel.go); the output is the same. Otherwise a second
// goroutine calls w while the first reads the next rows in the second
// pass. w is only called by one goroutine at a time, and every goroutine
// has ended when FromJSON returns. The options that apply are WithIndent,
// WithDelimiter, WithTempDir, WithMaxHeaderSize, WithMaxDepth and
// WithStrict.
//
// Malformed JSON, including a repeated member name in an object, is
// reported as a *JSONError, before anything is written to w. With
// WithStrict(false), a repeated name is not an error: as JSON parsers do,
// the name keeps its first position and takes its last value (the input
// is then rewritten without repeated names to a temporary file first, see
// dupnames.go). A string (between its quotes, as written in the JSON) or
// number longer than toon.DefaultMaxLineLength, the longest line a TOON
// decoder accepts, is a *JSONError too: at its start, wrapping
// toon.ErrLineTooLong, and FromJSON holds no more than that much of it. A
// TOON line that would be longer than that limit (a long string with its
// key and indentation, a wide row) is an error wrapping
// toon.ErrLineTooLong, returned once the lines before it are written.
// Errors from r and w are returned as they are.
func FromJSON(w io.Writer, r io.Reader, opts ...Option) (err error) {
	c := makeConfig(opts)
	src, err := seekable(r, c.tempDir)
	if err != nil {
		return err
	}
	defer src.close()

	p := &planner{c: &c, slots: newSpill(c.tempDir, c.memBudget), tables: newSpill(c.tempDir, c.memBudget)}
	defer p.slots.close()
	defer p.tables.close()
	if ra, size, ok := src.readerAt(); ok {
		p.ra, p.raStart, p.size = ra, src.start, size
		p.seek = src.seekTo
		if c.encWorkers() > 1 {
			p.ranges, p.rangeSize = newSpill(c.tempDir, c.memBudget), c.encRangeSize()
			defer p.ranges.close()
		}
	}
	if err := p.run(src.reader()); err != nil {
		if rn := (repeatedNameError{}); !c.strict && errors.As(err, &rn) {
			return fromLenient(w, src, opts) // see dupnames.go
		}
		if c.lines != nil {
			return c.lines.explain(err)
		}
		return src.jsonError(err, c.maxDepth)
	}
	p.arena = nil
	slots, err := p.slots.reader()
	if err != nil {
		return err
	}
	tables, err := p.tables.reader()
	if err != nil {
		return err
	}
	if err := src.rewind(); err != nil {
		return err
	}
	e := &emitter{
		c:      &c,
		lx:     lexerFor(src.reader(), p.lx.buf, max(cap(p.lx.buf), p.lx.win)),
		enc:    toon.NewEncoder(w, toon.WithIndent(c.indent), toon.WithDelimiter(c.delim), toon.WithMaxDepth(c.maxDepth+1), toon.WithMaxLineLength(c.maxLine)),
		slots:  byteReader(slots),
		tables: byteReader(tables),
	}
	e.lx.lines = c.lines != nil
	if p.ranges != nil && p.ranges.size() > 0 {
		ranges, err := p.ranges.reader()
		if err != nil {
			return err
		}
		e.par = newEncPar(&c, src, ranges, p.ra, p.raStart, p.size)
		e.lx.seek = src.seekTo
	}
	defer func() {
		if e.rw != nil {
			e.rw.stop()
		}
	}()
	if e.par != nil && encDone != nil {
		defer func() { encDone(e.par.jobs, e.par.redone) }()
	}
	if err := e.run(); err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return errChanged(err)
		}
		return err
	}
	return nil
}

func byteReader(r io.Reader) io.ByteReader {
	if br, ok := r.(io.ByteReader); ok {
		return br
	}
	return bufio.NewReader(r)
}

// source is FromJSON's input, readable twice.
type source struct {
	r     io.Reader // the caller's reader, when it seeks
	s     io.Seeker
	start int64
	f     *os.File // the spooled copy otherwise
}

func seekable(r io.Reader, dir string) (*source, error) {
	if s, ok := r.(io.Seeker); ok {
		if off, err := s.Seek(0, io.SeekCurrent); err == nil {
			return &source{r: r, s: s, start: off}, nil
		}
	}
	f, err := tempFile(dir, "toon-input-*")
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(f, progressReader{r}); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &source{r: f, s: f, f: f}, nil
}

// progressReader returns io.ErrNoProgress after maxEmptyReads reads in a
// row that return neither data nor an error, where io.Copy would call Read
// forever. (The lexer gives up as bufio does, after as many.)
type progressReader struct{ r io.Reader }

const maxEmptyReads = 100

func (p progressReader) Read(b []byte) (int, error) {
	for range maxEmptyReads {
		if n, err := p.r.Read(b); n > 0 || err != nil || len(b) == 0 {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// reader returns the input, buffered: jsontext reads in large blocks anyway,
// so this only spares it small reads from slow readers.
func (s *source) reader() io.Reader { return s.r }

// readerAt returns the input as an io.ReaderAt, with the JSON's length,
// if it is one and its end can be found.
func (s *source) readerAt() (io.ReaderAt, int64, bool) {
	ra, ok := s.r.(io.ReaderAt)
	if !ok {
		return nil, 0, false
	}
	end, err := s.s.Seek(0, io.SeekEnd)
	if err != nil || s.rewind() != nil {
		return nil, 0, false
	}
	return ra, end - s.start, true
}

// seekTo moves the input to offset off of the JSON.
func (s *source) seekTo(off int64) error {
	_, err := s.s.Seek(s.start+off, io.SeekStart)
	return err
}

func (s *source) rewind() error {
	_, err := s.s.Seek(s.start, io.SeekStart)
	return err
}

func (s *source) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// emitter runs the second pass: it re-reads the JSON and writes TOON as
// the plan says.
type emitter struct {
	c      *config
	lx     *lexer
	enc    *toon.Encoder
	slots  io.ByteReader
	tables io.ByteReader
	stack  []p2frame
	scr    []byte
	key    []byte // the key whose value comes next, not yet written
	keyed  bool   // key is pending
	tree   table  // the current table's header
	row    rowBuf
	cells  []toon.Value // a row of a flat table, for WriteRow
	names  []string     // a flat table's field names, for BeginTable
	tmpl   rowTemplate  // a flat table's names, for lexer.matchRow
	mcells []mcell
	rw     *rowWriter // writes matched rows on another goroutine, once needed
	par    *encPar    // encodes row ranges on several goroutines; nil if not (fromjson_parallel.go)
	rn     int        // ranges of the current table not yet taken by par

	traw      []byte // scratch for the next table record
	treeGen   int    // counts the headers parsed into tree (0: none valid)
	namesGen  int    // the treeGen that names and tmpl were made for
	keyStr    string // the key of the last flat table, as a string
	tableRows int    // the row count of the flat table being written
}

type p2kind uint8

const (
	p2Object  p2kind = iota
	p2Array          // any array but a tabular one
	p2Tabular        // a tabular array whose header has nested groups: rows as tokens
	p2Table          // a flat tabular array: rows through WriteRow
	p2Keyed
)

type p2frame struct {
	kind p2kind
}

// tableMinRows is the least number of rows for which a flat table is
// written with BeginTable and WriteRow.
const tableMinRows = 8

// readObjectSlot reads the slot of an object that is not an array
// element: whether it is written as a keyed table.
func (e *emitter) readObjectSlot() (keyed bool, err error) {
	c, err := e.slots.ReadByte()
	if err != nil {
		return false, errPlan
	}
	return c == 1, nil
}

// readArraySlot reads the slot of an array: its form and length.
func (e *emitter) readArraySlot() (toon.Form, int, error) {
	var b [slotArray]byte
	for i := range b {
		c, err := e.slots.ReadByte()
		if err != nil {
			return 0, 0, errPlan
		}
		b[i] = c
	}
	return toon.Form(b[0]), int(binary.LittleEndian.Uint64(b[1:])), nil
}

func (e *emitter) run() error {
	for {
		if n := len(e.stack); n > 0 && e.stack[n-1].kind == p2Table && e.tmpl.ok {
			if err := e.matchRows(); err != nil {
				return err
			}
		}
		k, err := e.lx.next()
		if err != nil {
			return err
		}
		if k == tkEOF { // the lexer has seen the root value end
			if len(e.stack) != 0 {
				return errPlan
			}
			return e.enc.Close()
		}
		var top *p2frame
		if len(e.stack) > 0 {
			top = &e.stack[len(e.stack)-1]
			switch top.kind {
			case p2Table:
				if err := e.tableStep(k); err != nil {
					return err
				}
				continue
			case p2Tabular:
				if err := e.tabularStep(k); err != nil {
					return err
				}
				continue
			case p2Keyed:
				if err := e.keyedStep(k); err != nil {
					return err
				}
				continue
			}
		}
		if k == tkKey {
			key, err := e.lx.unescaped(&e.scr)
			if err != nil {
				return err
			}
			e.key = append(e.key[:0], key...)
			e.keyed = true
			continue
		}
		if err := e.value(k, top); err != nil {
			return err
		}
	}
}

// flushKey writes the pending key, if any.
func (e *emitter) flushKey() error {
	if !e.keyed {
		return nil
	}
	e.keyed = false
	return e.enc.WriteToken(toon.KeyToken(e.key))
}

// value writes the next value, or the end of the current container.
func (e *emitter) value(k byte, top *p2frame) error {
	switch k {
	case tkObjStart:
		if len(e.stack) >= e.c.maxDepth {
			return errPlan
		}
		if top == nil || top.kind != p2Array { // not an array element: it has a slot
			keyed, err := e.readObjectSlot()
			if err != nil {
				return err
			}
			if keyed {
				n, err := e.readTable()
				if err != nil {
					return err
				}
				if err := e.flushKey(); err != nil {
					return err
				}
				e.stack = append(e.stack, p2frame{kind: p2Keyed})
				return e.enc.WriteToken(toon.KeyedStartToken(n, 0, e.tree.fields))
			}
		}
		if err := e.flushKey(); err != nil {
			return err
		}
		e.stack = append(e.stack, p2frame{kind: p2Object})
		return e.enc.WriteToken(toon.ObjectStartToken())
	case tkArrStart:
		form, n, err := e.readArraySlot()
		if err != nil {
			return err
		}
		if form == toon.FormTabular {
			tn, err := e.readTable()
			if err != nil {
				return err
			}
			if tn != n {
				return errPlan
			}
			if len(e.tree.groups) == 1 && (e.keyed || top == nil) && n >= tableMinRows {
				// A flat table in an object field or at the root: its rows
				// are written whole with WriteRow, which costs far less
				// than a token per cell. (A small one is written with
				// tokens: BeginTable's own setup would cost more.)
				// The strings BeginTable takes are made once for a run
				// of tables with the same key and header.
				key := ""
				if e.keyed {
					if string(e.key) != e.keyStr {
						e.keyStr = string(e.key)
					}
					key = e.keyStr
					e.keyed = false
				}
				if e.namesGen != e.treeGen {
					e.namesGen = e.treeGen
					e.names = e.names[:0]
					e.tmpl.reset()
					ok := true
					for _, f := range e.tree.fields {
						e.names = append(e.names, string(f.Name))
						ok = ok && e.tmpl.add(f.Name)
					}
					if !ok {
						e.tmpl.reset()
					}
					e.tmpl.finish()
				}
				e.tableRows = n
				e.stack = append(e.stack, p2frame{kind: p2Table})
				return e.enc.BeginTable(key, n, e.names...)
			}
			if err := e.flushKey(); err != nil {
				return err
			}
			e.stack = append(e.stack, p2frame{kind: p2Tabular})
			return e.enc.WriteToken(toon.ArrayStartToken(n, form, 0, e.tree.fields))
		}
		if err := e.flushKey(); err != nil {
			return err
		}
		e.stack = append(e.stack, p2frame{kind: p2Array})
		return e.enc.WriteToken(toon.ArrayStartToken(n, form, 0, nil))
	case tkObjEnd, tkArrEnd:
		if len(e.stack) == 0 || e.keyed {
			return errPlan
		}
		e.stack = e.stack[:len(e.stack)-1]
		if k == tkObjEnd {
			return e.enc.WriteToken(toon.ObjectEndToken())
		}
		return e.enc.WriteToken(toon.ArrayEndToken())
	}
	if err := e.flushKey(); err != nil {
		return err
	}
	t, err := e.primToken(k, &e.scr)
	if err != nil {
		return err
	}
	return e.enc.WriteToken(t)
}

// primToken returns the token of the primitive the lexer has just read;
// string text may be unescaped into *scr.
func (e *emitter) primToken(k byte, scr *[]byte) (toon.Token, error) {
	switch k {
	case tkString:
		if !e.lx.esc {
			return toon.StringToken(e.lx.text()), nil
		}
		s, err := unquoteInto(scr, e.lx.quoted())
		return toon.StringToken(s), err
	case tkTrue:
		return toon.BoolToken(true), nil
	case tkFalse:
		return toon.BoolToken(false), nil
	case tkNull:
		return toon.NullToken(), nil
	}
	return toon.NumberToken(e.lx.text()), nil
}

// readTable reads the next table record: the entry count and the header.
func (e *emitter) readTable() (int, error) {
	n, err := binary.ReadUvarint(e.tables)
	if err != nil {
		return 0, errPlan
	}
	size, err := binary.ReadUvarint(e.tables)
	if err != nil || size > uint64(e.c.maxHeader)+16 {
		return 0, errPlan
	}
	buf := e.traw[:0]
	for i := uint64(0); i < size; i++ {
		c, err := e.tables.ReadByte()
		if err != nil {
			return 0, errPlan
		}
		buf = append(buf, c)
	}
	e.traw = buf
	if err := e.readRanges(); err != nil {
		return 0, err
	}
	if e.treeGen > 0 && bytes.Equal(buf, e.tree.raw) {
		return int(n), nil // the same header again, as in a list of small tables
	}
	e.traw = e.tree.raw // the tree's names point into buf from now on
	e.treeGen++
	if err := e.tree.parse(buf); err != nil {
		e.treeGen = 0
		return 0, err
	}
	return int(n), nil
}

// matchRows writes the rows of a flat table that lexer.matchRow reads:
// those whose names are the header's in the header's order.
func (e *emitter) matchRows() error {
	w := len(e.tmpl.ends)
	if cap(e.mcells) < w {
		e.mcells = make([]mcell, w)
	}
	if cap(e.cells) < w {
		e.cells = make([]toon.Value, w)
	}
	cells, vals := e.mcells[:w], e.cells[:w]
	if e.par != nil && (e.rn > 0 || e.par.have) {
		return e.parallelRows(cells, vals)
	}
	// Handing rows to the other goroutine pays for its waits only in
	// large tables.
	if e.tableRows >= pipeMinRows && e.c.pipeline() {
		if e.rw == nil { // made for the first large table only
			e.rw = newRowWriter(e.enc)
		}
		e.rw.w = w // the writing goroutine is idle: every call ends in sync
		for e.lx.matchNext(&e.tmpl, cells) {
			if err := e.rw.add(e.lx, cells); err != nil {
				e.rw.sync()
				return err
			}
		}
		return e.rw.sync()
	}
	for e.lx.matchNext(&e.tmpl, cells) {
		if err := cellValues(e.lx.buf, cells, vals, &e.row.data); err != nil {
			return err
		}
		if err := e.enc.WriteRow(vals...); err != nil {
			return err
		}
	}
	return nil
}

// literalValue returns the value of a cell of kind true, false or null.
func literalValue(kind byte) toon.Value {
	switch kind {
	case tkTrue:
		return toon.Bool(true)
	case tkFalse:
		return toon.Bool(false)
	}
	return toon.Null()
}

// cellValues sets vals to the values of the cells of a row that
// lexer.matchRow read from buf. The strings with escapes are unescaped
// into *data, emptied first; the values refer to buf and *data.
func cellValues(buf []byte, cells []mcell, vals []toon.Value, data *[]byte) error {
	escaped := false
	for j := range cells {
		c := &cells[j]
		switch c.kind {
		case tkString:
			vals[j] = toon.Bytes(buf[c.lo:c.hi])
			escaped = escaped || c.esc
		case tkNumber:
			vals[j] = numberValue(buf[c.lo:c.hi])
		default:
			vals[j] = literalValue(c.kind)
		}
	}
	if !escaped {
		return nil
	}
	d := (*data)[:0]
	for j := range cells {
		if c := &cells[j]; c.kind == tkString && c.esc {
			lo := len(d)
			var err error
			if d, err = jsontext.AppendUnquote(d, buf[c.lo-1:c.hi+1]); err != nil {
				return err
			}
			// The values are made once all are unescaped: appending may
			// move d.
			c.lo, c.hi = lo, len(d)
		}
	}
	*data = d
	for j := range cells {
		if c := &cells[j]; c.kind == tkString && c.esc {
			vals[j] = toon.Bytes(d[c.lo:c.hi])
		}
	}
	return nil
}

// numberValue returns the value of the JSON number b (valid, and valid
// only as long as b is). The writer formats a toon.Int or a toon.Float
// faster than it canonicalises number text, so the numbers for which
// either writes exactly the canonical text become one:
//
//   - an integer of at most 18 digits becomes a toon.Int: its canonical
//     form is its digits (JSON has no leading zeros; -0 is written 0
//     either way);
//   - a plain decimal, no exponent, with at most 7 integer digits, 1 to 6
//     fraction digits and 15 digits in all, becomes a toon.Float of
//     m/10^s, its digits m over the power of ten s: both are exact in a
//     float64, so the quotient is the double nearest to the decimal, and
//     since two decimals of at most 15 significant digits never share a
//     nearest double, the shortest text of that double is the decimal
//     without trailing zeros, which is its canonical form. The value is
//     at least 1e-6 and below 1e7, where the writer uses no exponent.
//
// TestNumberValue checks both against NumberValue on the writer at hand.
func numberValue(b []byte) toon.Value {
	if len(b) > 18 {
		return numberText(b)
	}
	s, neg := b, b[0] == '-'
	if neg {
		s = s[1:]
	}
	var m uint64
	dot := -1
	for i, c := range s {
		switch {
		case c-'0' < 10:
			m = m*10 + uint64(c-'0')
		case c == '.' && dot < 0:
			dot = i
		default:
			return numberText(b)
		}
	}
	if len(s) == 0 {
		return numberText(b)
	}
	if dot < 0 {
		v := int64(m)
		if neg {
			v = -v
		}
		return toon.Int(v)
	}
	scale := len(s) - dot - 1
	if dot > 7 || scale < 1 || scale > 6 || len(s)-1 > 15 {
		return numberText(b)
	}
	f := float64(m) / pow10f[scale]
	if neg {
		f = -f
	}
	return toon.Float(f)
}

var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}

// numberText returns the value of the JSON number b as its text.
func numberText(b []byte) toon.Value {
	return toon.NumberValue(toon.Number(mem.String(b)))
}

// tableStep handles the next token inside a flat table: a row object that
// matchRow did not take, or the end of the table.
func (e *emitter) tableStep(k byte) error {
	switch k {
	case tkArrEnd:
		e.stack = e.stack[:len(e.stack)-1]
		return e.enc.EndTable()
	case tkObjStart:
		e.row.reset(&e.tree)
		if err := e.readGroup(0); err != nil {
			return err
		}
		return e.writeFlatRow()
	}
	return errChanged(errors.New("a tabular row is not an object"))
}

// tabularStep handles the next token inside a tabular array: a row object
// or the end of the array.
func (e *emitter) tabularStep(k byte) error {
	switch k {
	case tkArrEnd:
		return e.value(k, nil)
	case tkObjStart:
		e.row.reset(&e.tree)
		if err := e.readGroup(0); err != nil {
			return err
		}
		return e.writeRow()
	}
	return errChanged(errors.New("a tabular row is not an object"))
}

// keyedStep handles the next token inside a keyed object: an entry key and
// its object, or the end of the object.
func (e *emitter) keyedStep(k byte) error {
	switch k {
	case tkObjEnd:
		return e.value(k, nil)
	case tkKey:
		key, err := e.lx.unescaped(&e.scr)
		if err != nil {
			return err
		}
		if err := e.enc.WriteToken(toon.KeyToken(key)); err != nil {
			return err
		}
		k, err := e.lx.next()
		if err != nil {
			return err
		}
		if k != tkObjStart {
			return errChanged(errors.New("a keyed entry is not an object"))
		}
		if _, err := e.readObjectSlot(); err != nil { // entry values are object values
			return err
		}
		e.row.reset(&e.tree)
		if err := e.readGroup(0); err != nil {
			return err
		}
		return e.writeRow()
	}
	return errChanged(errors.New("unexpected token in a keyed object"))
}
