package toon

import (
	"errors"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// TableError reports a streaming table whose rows do not fit its header: a
// row of the wrong width, or a row count other than the declared one. Err is
// ErrWidth or ErrCount, so errors.Is(err, toon.ErrCount) works.
type TableError struct {
	Table string // the table's key, or "" for a root table
	Err   error  // ErrWidth or ErrCount
	Want  int    // declared fields or rows
	Got   int    // cells in the row, or rows written
}

// Error implements error.
func (e *TableError) Error() string {
	name := "root table"
	if e.Table != "" {
		name = "table " + strconv.Quote(e.Table)
	}
	want := plural(e.Want, "row", "rows")
	if e.Err == ErrWidth {
		want = plural(e.Want, "cell", "cells")
	}
	return "toon: " + name + ": " + e.Err.Error() + ": want " + want + ", got " + strconv.Itoa(e.Got)
}

// Unwrap returns the cause.
func (e *TableError) Unwrap() error { return e.Err }

// countError reports a token-written container with the wrong number of
// elements.
func countError(container, one, many string, want, got int) error {
	s := "more than " + strconv.Itoa(want)
	if got < want {
		s = strconv.Itoa(got)
	}
	return &detailCountError{msg: "toon: " + container + " declared " + plural(want, one, many) + ", got " + s}
}

// detailCountError is a count mismatch of the token writer; it matches
// ErrCount.
type detailCountError struct{ msg string }

func (e *detailCountError) Error() string { return e.msg }
func (e *detailCountError) Unwrap() error { return ErrCount }

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
		return errors.New("toon: BeginTable with no fields")
	}
	if a, b, ok := repeatedName(len(fields), func(i int) string { return fields[i] }); ok {
		if a != b {
			return errKeysAlike(a, b, writtenKey(b))
		}
		return errors.New("toon: BeginTable with repeated field " + strconv.Quote(b))
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
// row struct group (appendStaticFields).
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
		return appendStaticFields(b, group, d)
	}
	return appendStrFields(b, names, d)
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

// appendStrFields appends a fields segment from names.
func appendStrFields(b []byte, fields []string, d Delimiter) []byte {
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, byte(d))
		}
		b = appendKey(b, f)
	}
	return append(b, '}')
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
		base := unsafe.Pointer(unsafe.SliceData(e.b))
		*(*uint64)(unsafe.Add(base, len(e.b))) = t.leadWord
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
		start := len(e.b)
		b, bad := rowFrom(e.b[:o], cells, k, &t.rowStyle)
		if bad >= 0 {
			e.b = b[:start]
			return invalidNumber(cells[bad].str())
		}
		if err := e.checkRow(len(b) - start); err != nil {
			e.b = b[:start]
			return err
		}
		e.b = b
		t.rows++
		if len(e.b) >= flushSize {
			return e.flushRows()
		}
		return nil
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
	if err == nil {
		err = e.checkRow(len(b) - len(e.b))
	}
	if err != nil {
		return err
	}
	e.b = b
	t.rows++
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

// putRow writes a row, with its leading LF and indentation, after the
// text of b, in b's spare capacity, when that has room for it and
// putCells writes all its cells, and returns the new length of the text.
// Otherwise it returns false, for appendRow. It is WriteRow's fast path:
// one call of putCells, without appendRowCells's loop (and Marshal's,
// through valueRows).
func (rs *rowStyle) putRow(b []byte, cells []Value) (int, bool) {
	if len(rs.lead) > 8 || len(cells) > rowSlack/maxCell || cap(b)-len(b) < rowSlack {
		return 0, false
	}
	base := unsafe.Pointer(unsafe.SliceData(b))
	*(*uint64)(unsafe.Add(base, len(b))) = rs.leadWord
	o, k := putCells(base, len(b)+len(rs.lead), cells, rs.dw)
	// o is past the last cell's delimiter.
	return o - 1, k == len(cells)
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
// loop then resumes after it. Keeping every call out of putCells's loop
// lets the compiler keep the loop's state in registers, where a call in
// any branch would have it stored and reloaded on every cell.
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
		*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), o)) = rs.leadWord
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
		o, k := putCells(unsafe.Pointer(unsafe.SliceData(b)), len(b), cells[i:min(i+fit, len(cells))], rs.dw)
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

// rowSlack is the room appendRowCells makes for putCells: enough for 31
// cells, which it checks once rather than cell by cell.
const rowSlack = 2048

// maxCell is the most a cell that putCells writes can take, with the
// delimiter after it: cellRoom and a string of 32 bytes.
const maxCell = cellRoom + 32

// putCells writes the common cells of cells at base[o:], each followed by
// the delimiter, the low byte of its word dw: ASCII strings of up to 32
// bytes with nothing to escape, integers below 10^16, floats of
// putFloat8's shape and booleans. The buffer must have room for
// len(cells) cells of maxCell bytes. It stops before the first cell that
// is of none of these shapes, and returns the new end of the text (just
// past the last delimiter it wrote) and the number of cells it wrote.
//
// Where the CPU has what it needs, the assembly kernel putRowAVX512 does
// it (it also writes Uint cells below 10^16); putCellsGo is its
// specification and the way of other machines.
func putCells(base unsafe.Pointer, o int, cells []Value, dw uint64) (int, int) {
	if useRowKernel {
		m, k := putRowAVX512(unsafe.Add(base, o), unsafe.SliceData(cells), len(cells), dw, &rowClassTables[rowClassIndex(dw)])
		return o + m, k
	}
	return putCellsGo(base, o, cells, dw)
}

// putCellsGo is putCells in Go.
//
// Its loop calls nothing, so that it runs in registers (see
// appendRowCells). The string, integer and float code is that of putStr,
// putInt and putFloat8, written out, but for integers below 10^4, which
// take digits4 rather than digits8; the tests compare all three paths
// with the general ones.
func putCellsGo(base unsafe.Pointer, o int, cells []Value, dw uint64) (int, int) {
	// p is where the next cell goes; the function's other state is the
	// loop's, so that it all fits in registers. A cell it leaves returns
	// at once, without a flag to test on every cell.
	p := unsafe.Add(base, o)
	for i := range cells {
		c := &cells[i]
		var n uintptr
		switch k := valueTag(c.p); k {
		case uintptr(vString): // the empty string
			*(*uint16)(p) = '"' | '"'<<8
			n = 2
		case uintptr(vInt):
			u, neg := c.u, uintptr(c.u>>63)
			if neg != 0 {
				u = -u
			}
			if u >= 1e16 {
				return int(uintptr(p) - uintptr(base)), i
			}
			*(*uint8)(p) = '-'
			d := unsafe.Add(p, neg)
			if u < 1e4 {
				w := digits4(u)
				z := uintptr(bits.TrailingZeros64(w|1<<24)) &^ 7
				*(*uint64)(d) = (w + '0'*lo4) >> z
				n = neg + 4 - z>>3
				break
			}
			var lo uint64
			big := u >= 1e8
			if big {
				u, lo = u/1e8, u%1e8
			}
			w := digits8(u)
			z := uintptr(bits.TrailingZeros64(w|1<<56)) &^ 7
			*(*uint64)(d) = (w + '0'*lo8) >> z
			n = neg + 8 - z>>3
			if big { // the last 8 digits
				*(*uint64)(unsafe.Add(p, n)) = digits8(lo) + '0'*lo8
				n += 8
			}
		case uintptr(vFloat):
			f := math.Float64frombits(c.u)
			a := math.Abs(f)
			if !(a >= 1e-6 && a < 1e7) {
				return int(uintptr(p) - uintptr(base)), i
			}
			neg := uintptr(c.u >> 63)
			if a < 1e4 {
				// At most 4 digits either side of the point, by the
				// argument of putFloat8 with 10^4 for 10^8: one digits8
				// makes them, the integer part in the low 4 bytes and
				// the fraction in the high 4.
				if m := int64(a*1e4 + 0.5); float64(m)/1e4 == a {
					*(*uint8)(p) = '-'
					d := unsafe.Add(p, neg)
					w := digits8(uint64(m))
					z := uintptr(bits.TrailingZeros64(w|1<<24)) &^ 7
					*(*uint64)(d) = (w&0xffffffff + '0'*lo4) >> z
					ni := 4 - z>>3
					n = neg + ni
					if fw := w >> 32; fw != 0 {
						*(*uint8)(unsafe.Add(d, ni)) = '.'
						*(*uint32)(unsafe.Add(d, ni+1)) = uint32(fw + '0'*lo4)
						n += 9 - uintptr(bits.LeadingZeros64(fw)>>3)
					}
					break
				}
			}
			// Through int64, which converts in one instruction where
			// uint64 takes a dozen; m < 10^15 either way.
			mi := int64(a*1e8 + 0.5)
			if float64(mi)/1e8 != a {
				return int(uintptr(p) - uintptr(base)), i
			}
			m := uint64(mi)
			*(*uint8)(p) = '-'
			d := unsafe.Add(p, neg)
			ip, fp := m/1e8, m%1e8
			w := digits8(ip)
			z := uintptr(bits.TrailingZeros64(w|1<<56)) &^ 7
			*(*uint64)(d) = (w + '0'*lo8) >> z
			ni := 8 - z>>3
			n = neg + ni
			if fp != 0 {
				w = digits8(fp)
				*(*uint8)(unsafe.Add(d, ni)) = '.'
				*(*uint64)(unsafe.Add(d, ni+1)) = w + '0'*lo8
				n += 9 - uintptr(bits.LeadingZeros64(w)>>3)
			}
		case uintptr(vBool):
			// Without a branch: a column of booleans is a coin toss for
			// the branch predictor.
			t := (c.u | -c.u) >> 63 // 1 for true, else 0
			*(*uint64)(p) = falseWord ^ (falseWord^trueWord)&-t
			n = 5 - uintptr(t)
		default:
			// A string of 1 to 32 bytes, or a cell for appendCell: a
			// kind not above, null (length 0) or a NumberValue (length
			// with numberBit).
			ln := uintptr(c.u)
			if k < uintptr(len(valueTags)) || ln-1 >= 32 {
				return int(uintptr(p) - uintptr(base)), i
			}
			sp := c.p
			s := unsafe.String((*byte)(sp), ln)
			n = ln
			// The text is stored unquoted as its words are loaded and
			// tested, so that no word stays live; a string that turns
			// out to need quotes is stored again one byte further on,
			// at plain.
			var hard, quo uint64
			switch {
			case ln >= 8:
				x := *(*uint64)(sp)
				*(*uint64)(p) = x
				hard, quo = special(x, dw)
				x = *(*uint64)(unsafe.Add(sp, ln-8))
				*(*uint64)(unsafe.Add(p, ln-8)) = x
				h, q := special(x, dw)
				hard, quo = hard|h, quo|q
				if ln > 16 {
					x = *(*uint64)(unsafe.Add(sp, 8))
					*(*uint64)(unsafe.Add(p, 8)) = x
					h, q = special(x, dw)
					hard, quo = hard|h, quo|q
					if ln > 24 {
						x = *(*uint64)(unsafe.Add(sp, 16))
						*(*uint64)(unsafe.Add(p, 16)) = x
						h, q = special(x, dw)
						hard, quo = hard|h, quo|q
					}
				}
			case ln >= 4:
				x0, x1 := *(*uint32)(sp), *(*uint32)(unsafe.Add(sp, ln-4))
				*(*uint32)(p) = x0
				*(*uint32)(unsafe.Add(p, ln-4)) = x1
				hard, quo = special(uint64(x0)|uint64(x1)<<32, dw)
			default:
				hard, quo = special(smallWord(sp, ln), dw)
				*(*uint8)(p) = s[0]
				*(*uint8)(unsafe.Add(p, ln>>1)) = s[ln>>1]
				*(*uint8)(unsafe.Add(p, ln-1)) = s[ln-1]
			}
			// One test for the common string, with neither kind of
			// special byte.
			if (hard|quo)&hi8 != 0 {
				if hard&hi8 != 0 {
					return int(uintptr(p) - uintptr(base)), i
				}
				goto quote
			}
			// The shapes of quoteByShape, but numeric-like text, which
			// is left to appendCell.
			if s[ln-1] != ' ' {
				switch c0 := s[0]; {
				case charClass[c0]&clsFirst == 0:
					goto plain
				case c0 == '-' || c0 == '#' || c0 == ' ':
				case c0 == 't':
					if s != "true" {
						goto plain
					}
				case c0 == 'f':
					if s != "false" {
						goto plain
					}
				case c0 == 'n':
					if s != "null" {
						goto plain
					}
				default: // a digit or '+'
					return int(uintptr(p) - uintptr(base)), i
				}
			}
		quote:
			{
				// The text again, between quotes, one byte further on.
				// The words are the first and last 8 bytes, and for more
				// than 16 bytes the 8 after the first, and for more than
				// 24 the 8 after those.
				*(*uint8)(p) = '"'
				d := unsafe.Add(p, 1)
				switch {
				case ln >= 8:
					*(*uint64)(d) = *(*uint64)(sp)
					if ln > 16 {
						*(*uint64)(unsafe.Add(d, 8)) = *(*uint64)(unsafe.Add(sp, 8))
						if ln > 24 {
							*(*uint64)(unsafe.Add(d, 16)) = *(*uint64)(unsafe.Add(sp, 16))
						}
					}
					*(*uint64)(unsafe.Add(d, ln-8)) = *(*uint64)(unsafe.Add(sp, ln-8))
				case ln >= 4:
					*(*uint32)(d) = *(*uint32)(sp)
					*(*uint32)(unsafe.Add(d, ln-4)) = *(*uint32)(unsafe.Add(sp, ln-4))
				default:
					*(*uint8)(d) = s[0]
					*(*uint8)(unsafe.Add(d, ln>>1)) = s[ln>>1]
					*(*uint8)(unsafe.Add(d, ln-1)) = s[ln-1]
				}
				*(*uint8)(unsafe.Add(d, ln)) = '"'
				n += 2
			}
		plain:
		}
		// dw holds the delimiter in every byte.
		*(*uint8)(unsafe.Add(p, n)) = uint8(dw)
		p = unsafe.Add(p, n+1)
	}
	return int(uintptr(p) - uintptr(base)), len(cells)
}

// appendCell appends the cells appendRowCells leaves: strings that need a
// closer look, floats of other shapes, and the other kinds.
func appendCell(b []byte, c *Value, rs *rowStyle) ([]byte, bool) {
	switch c.kind() {
	case vString:
		return appendStrW(b, c.str(), rs.dw), true
	case vFloat:
		return appendFloatRest(b, math.Float64frombits(c.u), 64), true
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
