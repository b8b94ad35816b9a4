package toon

import (
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toonstream/toon/internal/mem"
)

// table is the state of the open streaming table.
type table struct {
	active bool
	key    string // as given to BeginTable
	name   string // for messages: `table "key"`, or "the root table"
	root   bool   // a root table: the document ends with it
	n      int    // declared rows; < 0 if unknown
	width  int
	rows   int
	rowStyle
	// quick: WriteRow may write rows as putRow does, with one call of
	// putCells: the lead has at most 8 bytes and a row of width cells
	// fits rowSlack.
	quick bool

	// The rows of a table of unknown length wait for their header, which
	// needs their count (holding). They are written as any rows are, but
	// to a chunk of pooled memory that e.b views in place of the output
	// buffer, which waits in pre with the output before the table. Each
	// time a chunk holds flushSize bytes of rows, hold keeps it and gives
	// e.b a new one, until the chunks would pass the table budget; from
	// then on, it writes each chunk's rows to a temporary file and reuses
	// the chunk. EndTable writes the header, head + "[count]" + fseg,
	// then the rows from the chunks and from the file. (Marshal's encoder,
	// which keeps all of its output in e.b, writes the rows to e.b after
	// mark, and EndTable puts the header there.)
	holding bool
	pre     []byte
	cur     *[]byte   // the chunk e.b views (its slice is e.b's, as of the last hold)
	chunks  []*[]byte // full chunks, in order, before the rows in the file
	held    int64     // bytes of memory of cur and chunks
	mark    int
	head    []byte
	fseg    []byte
	file    *os.File
	path    string
	removed bool // the file's name is already gone
}

// holdChunk is the capacity of the chunks that hold the rows of a table of
// unknown length: flushSize bytes of rows, with room for WriteRow's
// longest quick row after them.
const holdChunk = flushSize + 2*rowSlack

// chunkPool holds the chunks of tables of unknown length between tables.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, holdChunk); return &b }}

// BeginTable starts a tabular array (§9.3) whose rows are then written one
// at a time with WriteRow and ended with EndTable. key is the field name of
// the array; a key of "" at the start of the document writes a root table,
// which is the whole document. A non-empty key at the start of the document
// opens a root object, closed by Close, so that several tables can follow
// one another; inside an object opened with WriteToken, the table is the
// next field (on the hyphen line when it is the first field of a list item,
// with its rows two levels deeper, §10).
//
// n is the number of rows. If it is known (n ≥ 0) the header is written at
// once and each row goes straight to the output. If n < 0, rows are kept in
// pooled memory up to the table budget (WithTableBudget, default 64 MiB) and
// then in a temporary file (in WithTempDir's directory), and EndTable writes
// the header with the real count followed by the rows. The rows take no
// more memory than the budget (or one chunk of about 70 KiB, if the budget
// is smaller). The temporary file is removed on every path: EndTable,
// Close, Reset and errors alike.
//
// fields are the column names, at least one, all distinct. Cells are
// separated by the document delimiter.
func (e *Encoder) BeginTable(key string, n int, fields ...string) error {
	if err := e.tableFree("BeginTable"); err != nil {
		return err
	}
	if len(fields) == 0 {
		return encodeErr(ErrHeader, "BeginTable with no fields")
	}
	if a, b, ok := repeatedName(len(fields), func(i int) string { return fields[i] }); ok {
		if a != b {
			return errKeysAlike(a, b, writtenKey(b))
		}
		return encodeErr(ErrDuplicateKey, "BeginTable with repeated field "+strconv.Quote(b))
	}
	return e.beginTable(key, n, len(fields), fields, nil)
}

// tableFree returns the error of call, which begins a table, when no table
// can begin: the sticky error, or misuse.
func (e *Encoder) tableFree(call string) error {
	if e.err != nil {
		return e.err
	}
	if err := e.ended(call); err != nil {
		return err
	}
	if e.tbl.active {
		return misuse(ErrTableOpen, call+" while "+e.tbl.name+" is open")
	}
	return nil
}

// beginTable is BeginTable once its fields are checked: rows of width
// cells, under the fields segment of names or, if group is not nil, of the
// row struct group (staticFields).
func (e *Encoder) beginTable(key string, n, width int, names []string, group *encPlan) error {
	t := &e.tbl
	var f *wframe
	root := false
	switch {
	case len(e.stack) > 0:
		f = &e.stack[len(e.stack)-1]
		if f.kind != wObject || f.keyPending {
			return misuse(ErrPlacement, "BeginTable where an object field cannot begin")
		}
	case e.begun():
		return misuse(ErrPlacement, "BeginTable of a root table after the document has begun")
	case key == "":
		root = true
	default:
		if err := e.push(wframe{kind: wObject, implicit: true, pc: -1}); err != nil {
			return err
		}
		f = &e.stack[0]
	}
	e.acquire()
	if err := e.maybeFlush(); err != nil {
		return err
	}
	rowDepth := 1
	start := len(e.b)
	if root {
		e.line(0)
		t.name = "the root table"
	} else {
		e.fieldLine(f)
		e.b = appendKey(e.b, key)
		rowDepth = f.depth + 1
		t.name = "table " + strconv.Quote(key)
	}
	t.active = true
	t.key, t.root, t.n, t.width, t.rows = key, root, n, width, 0
	t.rowStyle.set(rowDepth*e.opts.indent, e.delim)
	// (A quick row is at most rowSlack bytes long: no row line check.)
	t.quick = len(t.lead) <= 8 && t.width <= rowSlack/maxCell && e.opts.maxLine >= rowSlack
	if n >= 0 {
		e.b = e.appendHeader(e.b, n, false)
		e.b = appendTableFields(e.b, names, group, e.delim)
		e.b = append(e.b, ':')
		return nil
	}
	t.head = append(t.head[:0], e.b[start:]...)
	e.b = e.b[:start]
	t.fseg = appendTableFields(t.fseg[:0], names, group, e.delim)
	t.fseg = append(t.fseg, ':')
	t.mark = start
	if !e.noFlush {
		t.holding = true
		t.pre = e.b
		t.cur = chunkPool.Get().(*[]byte)
		t.held = holdChunk
		e.b = (*t.cur)[:0]
	}
	return nil
}

// appendTableFields appends the fields segment of a table: of the row
// struct group, if not nil, else of names.
func appendTableFields(b []byte, names []string, group *encPlan, d Delimiter) []byte {
	if group != nil {
		return appendFieldSeg(b, staticFields(group), d)
	}
	return appendFieldSeg(b, nameFields(names), d)
}

// checkRow returns an error wrapping ErrLineTooLong if the next row of the
// open table, n bytes with its leading LF, is a line longer than the
// maximum line length.
func (e *Encoder) checkRow(n int) error {
	if n-1 <= e.opts.maxLine {
		return nil
	}
	return lineTooLongRow(e.tbl.rows, e.tbl.name, n-1, e.opts.maxLine)
}

// WriteRow writes one row of the open table: one cell per field, quoted
// against the delimiter as §7.2 and §11.1 require. It costs no allocation.
//
// A row of the wrong width, a row beyond the declared count and a malformed
// NumberValue are rejected with an error, and nothing of the row is written;
// these errors are not sticky, so the caller may go on with the next row.
func (e *Encoder) WriteRow(cells ...Value) error {
	t := &e.tbl
	// The common row, with all of the tests below in one: putRow's work,
	// without the call and its tests of the table's layout.
	if t.quick && len(cells) == t.width && t.rows != t.n && e.err == nil && cap(e.b)-len(e.b) >= rowSlack {
		base := mem.SliceData(e.b)
		base.Store64(len(e.b), t.leadWord)
		o, k := putCells(base, len(e.b)+len(t.lead), cells, t.dw)
		if k == len(cells) {
			// The row is in e.b's array: only its length changes, which
			// the compiler stores without the write barrier that storing
			// a slice in the heap would take. o is past the last cell's
			// delimiter.
			e.b = e.b[:o-1]
			t.rows++
			if o > flushSize {
				return e.flushRows()
			}
			return nil
		}
		// A cell that putCells leaves: the row goes on from it, after
		// the cells already written.
		b, bad := rowFrom(e.b[:o], cells, k, &t.rowStyle)
		if bad >= 0 {
			return invalidNumber(cells[bad].str())
		}
		return e.addRow(b)
	}
	return e.writeRow(cells)
}

// writeRow is WriteRow for the rows its first test does not take.
func (e *Encoder) writeRow(cells []Value) error {
	if e.err != nil {
		return e.err
	}
	t := &e.tbl
	if !t.active {
		if err := e.ended("WriteRow"); err != nil {
			return err
		}
		return misuse(ErrNoTable, "WriteRow without an open table")
	}
	if len(cells) != t.width {
		return &TableError{Table: t.key, Err: ErrWidth, Want: t.width, Got: len(cells)}
	}
	if t.rows == t.n {
		return &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.n + 1}
	}
	b, err := t.appendRow(e.b, cells)
	if err != nil {
		return err
	}
	return e.addRow(b)
}

// addRow takes the row that b holds after e.b's text: it checks the row's
// line length, counts the row and passes full buffers on. Until it does,
// e.b is unchanged, so a row it rejects leaves no trace.
func (e *Encoder) addRow(b []byte) error {
	if err := e.checkRow(len(b) - len(e.b)); err != nil {
		return err
	}
	e.b = b
	e.tbl.rows++
	if len(e.b) >= flushSize {
		return e.flushRows()
	}
	return nil
}

// flushRows passes the output on once rows have filled the buffer: to the
// io.Writer, or the rows of a table of unknown length to hold.
func (e *Encoder) flushRows() error {
	if e.tbl.holding {
		return e.hold()
	}
	return e.flush()
}

// putRow is WriteRow's fast path for Marshal (valueRows): when b's spare
// capacity has room for a row, it writes the row's leading LF and
// indentation and then its cells with one call of putCells, and returns
// what putCells returns: the length of the text past the delimiter after
// the last cell written, and the number of cells written, for rowFrom to
// go on from. It returns k = -1, having written nothing, when the row's
// layout or the room does not allow it, for appendRowCells.
func (rs *rowStyle) putRow(b []byte, cells []Value) (o, k int) {
	if len(rs.lead) > 8 || len(cells) > rowSlack/maxCell || cap(b)-len(b) < rowSlack {
		return 0, -1
	}
	base := mem.SliceData(b)
	base.Store64(len(b), rs.leadWord)
	return putCells(base, len(b)+len(rs.lead), cells, rs.dw)
}

// appendRow appends a row, with its leading LF and indentation, to b. On
// error b is returned cut back to its length on entry.
func (t *table) appendRow(b []byte, cells []Value) ([]byte, error) {
	start := len(b)
	b, bad := appendRowCells(b, cells, &t.rowStyle)
	if bad >= 0 {
		return b[:start], invalidNumber(cells[bad].str())
	}
	return b, nil
}

// rowStyle is what a row writer needs to know of its table's layout.
type rowStyle struct {
	lead     string // LF and the indentation of a row
	leadWord uint64 // lead, when it has at most 8 bytes, as a word
	delim    byte   // the separator between cells
	mask     uint8  // quoteMask of the delimiter
	dw       uint64 // delimWord(mask)
}

// set sets the layout of rows indent spaces deep, separated by
// delim.
func (rs *rowStyle) set(indent int, delim Delimiter) {
	rs.lead = rowLead(indent)
	rs.leadWord = 0
	for i := min(len(rs.lead), 8) - 1; i >= 0; i-- {
		rs.leadWord = rs.leadWord<<8 | uint64(rs.lead[i])
	}
	rs.delim = byte(delim)
	rs.mask = quoteMask(delim)
	rs.dw = delimWord(rs.mask)
}

// appendRowCells appends a row of cells, with its leading LF and
// indentation, to b. It returns -1, or the index of a malformed
// NumberValue, in which case the row is left unfinished at that cell.
//
// It is the encoder's hottest loop (WriteRow, and Marshal of slices of
// flat structs, which hands it its rows as Values). putCells writes the
// common cells, and stops at the first one it leaves to appendCell; the
// loop then resumes after it, so that the uncommon cells' code stays out
// of putCells's loop.
//
// Every cell is written with the delimiter after it, so that the cell
// loop has one separator to write rather than two to choose from; the
// last one is cut off at the end, and the room for it is always there
// (putCells counts it in maxCell, and appendRowCells keeps rowSlack).
func appendRowCells(b []byte, cells []Value, rs *rowStyle) ([]byte, int) {
	if cap(b)-len(b) < len(rs.lead)+rowSlack {
		b = slices.Grow(b, len(rs.lead)+rowSlack)
	}
	if len(rs.lead) <= 8 {
		// One store for the usual indentation, rather than a copy.
		o := len(b)
		(mem.SliceData(b)).Store64(o, rs.leadWord)
		b = b[:o+len(rs.lead)]
	} else {
		b = append(b, rs.lead...)
	}
	return rowFrom(b, cells, 0, rs)
}

// rowFrom is appendRowCells from cell i on: b holds the row up to that
// cell, the delimiter after the cell before it included, and has
// rowSlack bytes of room.
func rowFrom(b []byte, cells []Value, i int, rs *rowStyle) ([]byte, int) {
	for {
		fit := (cap(b) - len(b)) / maxCell
		w := cells[i:min(i+fit, len(cells))]
		o, k := putCells(mem.SliceData(b), len(b), w, rs.dw)
		b = b[:o]
		if i += k; i == len(cells) {
			return b[:o-1], -1
		}
		if k == fit {
			// Out of room, not at a cell for appendCell.
			b = slices.Grow(b, rowSlack)
			continue
		}
		var ok bool
		if b, ok = appendCell(b, &cells[i], rs); !ok {
			return b, i
		}
		if i++; i == len(cells) {
			return b, -1
		}
		if cap(b)-len(b) < rowSlack {
			b = slices.Grow(b, rowSlack)
		}
		b = append(b, rs.delim)
	}
}

// The texts of the booleans, as words.
const (
	trueWord  = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
	falseWord = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
)

// The high 32 bits of 1e-6 and 1e7, the ends of putFloat8's range (the
// low 32 bits of 1e7 are zeros).
const (
	hi1em6 = 0x3eb0c6f7
	hi1e7  = 0x416312d0
)

// rowSlack is the room appendRowCells makes for putCells: enough for 42
// cells, which it checks once rather than cell by cell.
const rowSlack = 4096

// maxCell is the most a cell that putCells writes can take, with the
// delimiter after it: cellRoom and a string of 64 bytes (the AVX-512 row
// kernel stores a string of up to 63 bytes as a vector of 64).
const maxCell = cellRoom + 64

// putCells writes the common cells of cells at base[o:], each followed by
// the delimiter, the low byte of its word dw: strings of up to 32 bytes
// of valid UTF-8 with nothing to escape, integers, floats other than NaN,
// the infinities and subnormals, and booleans. The buffer must have room
// for len(cells) cells of maxCell bytes. It stops before the first cell
// that is of none of these shapes, and returns the new end of the text
// (just past the last delimiter it wrote) and the number of cells it
// wrote.
//
// Where the CPU has what they need, the assembly kernels putRowAVX512 (it
// also writes Uint cells, and strings of up to 63 bytes) or putRowAVX2 (it
// also writes Uint cells) do it; putCellsGo is their specification and
// the way of other machines.
func putCells(base mem.Ptr, o int, cells []Value, dw uint64) (int, int) {
	var m, k int
	switch {
	case usePutRowAVX512:
		m, k = putRowAVX512(base.Add(o).Unsafe(), cells, dw)
	case usePutRow:
		m, k = putRowAVX2(base.Add(o).Unsafe(), cells, dw)
	default:
		return putCellsGo(base, o, cells, dw)
	}
	return o + m, k
}

// putCellsGo is putCells in Go.
//
// Integers and floats are written by putInt, putFloat8 and putFloatRest,
// as appendInt and appendFloat write them. Strings are tested and copied
// here, by the word tests of quote.go that putStr uses (special,
// shapeOf), so that the common cell, a short string, costs no call; the
// tests compare every path with the general writers.
func putCellsGo(base mem.Ptr, o int, cells []Value, dw uint64) (int, int) {
	// p is where the next cell goes. A cell it leaves returns at once,
	// without a flag to test on every cell.
	p := base.Add(o)
	for i := range cells {
		c := &cells[i]
		var n int
		switch k := valueTag(c.p); k {
		case uintptr(vString): // the empty string
			p.Store16(0, '"'|'"'<<8)
			n = 2
		case uintptr(vInt):
			n = putInt(p, int64(c.u))
		case uintptr(vFloat):
			f := math.Float64frombits(c.u)
			n = -1
			// 1e-6 ≤ |f| < 1e7, or |f| just below 1e-6, on the high
			// 32 bits: the order of the bits of non-negative floats is
			// that of their values (NaN's above all). The high word of
			// 1e7 is followed by zeros, so the test's upper end is
			// exact; the floats below 1e-6 with its high word, less
			// than 10^-12 below it, putFloat8 declines (their a·10^8
			// rounds to 100, and 100/10^8 is 1e-6, not a). Tests of
			// 32-bit immediates leave the loop no constants that each
			// call would make it load again.
			if hi := uint32(c.u>>32) &^ (1 << 31); hi-hi1em6 < hi1e7-hi1em6 {
				n = putFloat8(p, f, math.Float64frombits(c.u&^(1<<63)))
			}
			if n < 0 {
				if n = putFloatRest(p, f); n < 0 {
					return p.Diff(base), i
				}
			}
		case uintptr(vBool):
			// Without a branch: a column of booleans is a coin toss for
			// the branch predictor.
			t := (c.u | -c.u) >> 63 // 1 for true, else 0
			p.Store64(0, falseWord^(falseWord^trueWord)&-t)
			n = 5 - int(t)
		default:
			// A string of 1 to 32 bytes, or a cell for appendCell: a
			// kind not above, null (length 0) or a NumberValue (length
			// with numberBit).
			if k < uintptr(len(valueTags)) || c.u-1 >= 32 {
				return p.Diff(base), i
			}
			ln := int(c.u)
			sp := c.p
			s := mem.StringAt(sp, ln)
			n = ln
			// The text is stored unquoted as its words are loaded and
			// tested, so that no word stays live; a string that turns
			// out to need quotes is stored again one byte further on,
			// at plain.
			var hard, quo, high uint64
			switch {
			case ln >= 8:
				x := sp.Load64(0)
				p.Store64(0, x)
				hard, quo, high = special(x, dw)
				x = sp.Load64(ln - 8)
				p.Store64(ln-8, x)
				h, q, g := special(x, dw)
				hard, quo, high = hard|h, quo|q, high|g
				if ln > 16 {
					x = sp.Load64(8)
					p.Store64(8, x)
					h, q, g = special(x, dw)
					hard, quo, high = hard|h, quo|q, high|g
					if ln > 24 {
						x = sp.Load64(16)
						p.Store64(16, x)
						h, q, g = special(x, dw)
						hard, quo, high = hard|h, quo|q, high|g
					}
				}
			case ln >= 4:
				x0, x1 := sp.Load32(0), sp.Load32(ln-4)
				p.Store32(0, x0)
				p.Store32(ln-4, x1)
				hard, quo, high = special(uint64(x0)|uint64(x1)<<32, dw)
			default:
				hard, quo, high = special(smallWord(sp, ln), dw)
				p.SetByte(0, s[0])
				p.SetByte(ln>>1, s[ln>>1])
				p.SetByte(ln-1, s[ln-1])
			}
			// One test for the common string, with no special byte.
			if (hard|quo|high)&hi8 != 0 {
				// A byte that may need an escape, or ill-formed UTF-8,
				// is appendCell's; other text that is not ASCII is
				// written as it is.
				if hard&hi8 != 0 || high&hi8 != 0 && !validString(s) {
					return p.Diff(base), i
				}
				if quo&hi8 != 0 {
					goto quote
				}
			}
			// The shape of the string, with the number grammar for
			// text that starts as a number does.
			switch shapeOf(s) {
			case shapePlain:
				goto plain
			case shapeNumber:
				if !numericLike(s) {
					goto plain
				}
			}
		quote:
			{
				// The text again, between quotes, one byte further on.
				// The words are the first and last 8 bytes, and for more
				// than 16 bytes the 8 after the first, and for more than
				// 24 the 8 after those.
				p.SetByte(0, '"')
				d := p.Add(1)
				switch {
				case ln >= 8:
					d.Store64(0, sp.Load64(0))
					if ln > 16 {
						d.Store64(8, sp.Load64(8))
						if ln > 24 {
							d.Store64(16, sp.Load64(16))
						}
					}
					d.Store64(ln-8, sp.Load64(ln-8))
				case ln >= 4:
					d.Store32(0, sp.Load32(0))
					d.Store32(ln-4, sp.Load32(ln-4))
				default:
					d.SetByte(0, s[0])
					d.SetByte(ln>>1, s[ln>>1])
					d.SetByte(ln-1, s[ln-1])
				}
				d.SetByte(ln, '"')
				n += 2
			}
		plain:
		}
		// dw holds the delimiter in every byte.
		p.SetByte(n, uint8(dw))
		p = p.Add(n + 1)
	}
	return p.Diff(base), len(cells)
}

// appendCell appends the cells appendRowCells leaves: strings that need a
// closer look, floats of other shapes, and the other kinds.
func appendCell(b []byte, c *Value, rs *rowStyle) ([]byte, bool) {
	switch c.kind() {
	case vString:
		return appendStrW(b, c.str(), rs.dw), true
	case vFloat:
		return appendFloatRest(b, math.Float64frombits(c.u)), true
	}
	return appendValue(b, c, rs.mask)
}

// cellRoom is the room a row writer makes before each cell, beyond the
// bytes of a string: its separator, and numRoom for a number, or the
// quotes of a string.
const cellRoom = 1 + numRoom

// rowLead returns the text that starts each row of a table whose rows are
// indent spaces deep: LF and the indentation.
func rowLead(indent int) string {
	if indent < len(spaces) {
		return nlSpaces[:indent+1]
	}
	return "\n" + strings.Repeat(" ", indent)
}

// nlSpaces is LF and then spaces.
const nlSpaces = "\n" + spaces

// hold keeps the full chunk of rows of a table of unknown length that e.b
// views, and gives e.b a new one, if the budget has room for it; else it
// writes the chunk's rows to the temporary file, created the first time,
// and empties it.
func (e *Encoder) hold() error {
	t := &e.tbl
	t.held += int64(cap(e.b) - cap(*t.cur)) // appendRow may have outgrown the chunk
	if t.file == nil && t.held+holdChunk <= e.opts.tableBudget {
		*t.cur = e.b
		t.chunks = append(t.chunks, t.cur)
		t.cur = chunkPool.Get().(*[]byte)
		t.held += holdChunk
		e.b = (*t.cur)[:0]
		return nil
	}
	if err := e.spill(e.b); err != nil {
		return err
	}
	*t.cur = e.b[:0]
	e.b = *t.cur
	return nil
}

// spill writes rows to the temporary file of the open table, creating it
// the first time.
func (e *Encoder) spill(rows []byte) error {
	t := &e.tbl
	if t.file == nil {
		f, err := os.CreateTemp(e.opts.tempDir, "toon-table-*")
		if err != nil {
			e.dropTable()
			return e.fail(err)
		}
		t.file, t.path = f, f.Name()
		// Where the system allows it, the name goes at once and the data
		// lives only as long as the open file.
		t.removed = os.Remove(t.path) == nil
	}
	if err := writeOut(t.file, rows); err != nil {
		e.dropTable()
		return e.fail(err)
	}
	return nil
}

// dropTable releases the resources of the open table, if any: its row
// buffer and its temporary file.
func (e *Encoder) dropTable() {
	t := &e.tbl
	if t.holding {
		e.b = t.pre // the output buffer, without the rows
		t.holding = false
	}
	t.pre = nil
	if t.cur != nil {
		t.chunks = append(t.chunks, t.cur)
		t.cur = nil
	}
	for i, c := range t.chunks {
		if cap(*c) == holdChunk { // a chunk that appendRow outgrew is left to the collector
			*c = (*c)[:0]
			chunkPool.Put(c)
		}
		t.chunks[i] = nil
	}
	t.chunks, t.held = t.chunks[:0], 0
	t.active, t.quick = false, false
	if t.file != nil {
		t.file.Close()
		if !t.removed {
			os.Remove(t.path)
		}
		t.file, t.path, t.removed = nil, "", false
	}
}

// EndTable ends the open table. For a table of known length it checks that
// exactly n rows were written; a mismatch is a sticky TableError (ErrCount)
// and nothing more is written. For a table of unknown length it writes the
// header with the number of rows written, then the rows. A root table
// completes the document, which is then flushed.
func (e *Encoder) EndTable() error {
	t := &e.tbl
	if e.err != nil {
		e.dropTable()
		return e.err
	}
	if !t.active {
		if err := e.ended("EndTable"); err != nil {
			return err
		}
		return misuse(ErrNoTable, "EndTable without an open table")
	}
	if t.n >= 0 {
		if t.rows != t.n {
			err := &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.rows}
			e.dropTable()
			return e.fail(err)
		}
	} else if err := e.writeHeldRows(); err != nil {
		e.dropTable()
		return e.fail(err)
	}
	root := t.root
	e.dropTable()
	if root {
		return e.complete()
	}
	return e.maybeFlush()
}

// writeHeldRows writes the header of a table of unknown length and then
// its rows: from the chunks, then from the temporary file, the last rows
// having joined the others (or at once, with the header, when they are
// all in one chunk).
func (e *Encoder) writeHeldRows() error {
	t := &e.tbl
	t.head = e.appendHeader(t.head, t.rows, false)
	t.head = append(t.head, t.fseg...)
	if !t.holding {
		e.b = slices.Insert(e.b, t.mark, t.head...)
		return nil
	}
	rows := e.b
	e.b, t.pre, t.holding = t.pre, nil, false
	if len(t.chunks) == 0 && t.file == nil {
		e.b = append(append(e.b, t.head...), rows...)
		return nil
	}
	if t.file != nil {
		if err := e.spill(rows); err != nil {
			return err
		}
	} else {
		*t.cur = rows
		t.chunks = append(t.chunks, t.cur)
		t.cur = nil
	}
	e.b = append(e.b, t.head...)
	if err := e.flush(); err != nil {
		return err
	}
	for _, c := range t.chunks {
		if err := writeOut(e.out, *c); err != nil {
			return err
		}
	}
	// The rows were checked as they were written (checkRow); the line
	// after them starts afresh.
	e.carry = 0
	if t.file == nil {
		return nil
	}
	if _, err := t.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if f, ok := e.out.(*os.File); ok {
		// To a file or a pipe, the system copies in the kernel where it
		// can.
		_, err := f.ReadFrom(t.file)
		return err
	}
	// Otherwise the copy goes through the largest buffer at hand, now
	// free: a chunk, or else the output buffer.
	buf := e.b[:cap(e.b)]
	if len(t.chunks) > 0 && cap(*t.chunks[0]) > len(buf) {
		buf = (*t.chunks[0])[:cap(*t.chunks[0])]
	}
	for {
		n, err := t.file.Read(buf)
		if n > 0 {
			if err := writeOut(e.out, buf[:n]); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
