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
	"unsafe"

	"github.com/valyala/bytebufferpool"
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
	what := "rows"
	if e.Err == ErrWidth {
		what = "cells"
	}
	return "toon: " + name + ": " + e.Err.Error() + ": want " + strconv.Itoa(e.Want) + " " + what + ", got " + strconv.Itoa(e.Got)
}

// Unwrap returns the cause.
func (e *TableError) Unwrap() error { return e.Err }

// countError reports a token-written container with the wrong number of
// elements.
func countError(container, what string, want, got int) error {
	s := "more than " + strconv.Itoa(want)
	if got < want {
		s = strconv.Itoa(got)
	}
	return &detailCountError{msg: "toon: " + container + " declared " + strconv.Itoa(want) + " " + what + ", got " + s}
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
	name   string // for messages: the quoted key, or "root"
	root   bool   // a root table: the document ends with it
	n      int    // declared rows; < 0 if unknown
	width  int
	rows   int
	rowStyle
	// quick: WriteRow may write rows as putRow does, with one call of
	// putCells: the length is declared, the lead has at most 8 bytes and
	// a row of width cells fits rowSlack.
	quick bool

	// Tables of unknown length keep their rows, each with its leading LF
	// and indentation, in rb up to the budget, then in a temporary file;
	// the header, written at EndTable, is head + "[count]" + fseg.
	rb      *bytebufferpool.ByteBuffer
	head    []byte
	fseg    []byte
	file    *os.File
	path    string
	removed bool // the file's name is already gone
}

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
// the header with the real count followed by the rows. The temporary file
// is removed on every path: EndTable, Close, Reset and errors alike.
//
// fields are the column names, at least one, all distinct. Cells are
// separated by the document delimiter.
func (e *Encoder) BeginTable(key string, n int, fields ...string) error {
	if e.err != nil {
		return e.err
	}
	if e.done {
		return errDocDone
	}
	t := &e.tbl
	if t.active {
		return errors.New("toon: BeginTable while table " + t.name + " is open")
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
	var f *wframe
	root := false
	switch {
	case len(e.stack) > 0:
		f = &e.stack[len(e.stack)-1]
		if f.kind != wObject || f.keyPending {
			return errors.New("toon: BeginTable where an object field cannot begin")
		}
	case e.begun():
		return errBegun
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
		t.name = "root table"
	} else {
		e.fieldLine(f)
		e.b = appendKey(e.b, key)
		rowDepth = f.depth + 1
		t.name = "table " + strconv.Quote(key)
	}
	t.active = true
	t.key, t.root, t.n, t.width, t.rows = key, root, n, len(fields), 0
	t.rowStyle.set(rowDepth*e.opts.indent, e.delim)
	t.quick = n >= 0 && len(t.lead) <= 8 && t.width <= rowSlack/maxCell
	if n >= 0 {
		e.b = e.appendHeader(e.b, n, false)
		e.b = appendStrFields(e.b, fields, e.delim)
		e.b = append(e.b, ':')
		return nil
	}
	t.head = append(t.head[:0], e.b[start:]...)
	e.b = e.b[:start]
	t.fseg = appendStrFields(t.fseg[:0], fields, e.delim)
	t.fseg = append(t.fseg, ':')
	t.rb = outPool.Get()
	t.rb.B = t.rb.B[:0]
	return nil
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
				return e.flush()
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
		e.b = b
		t.rows++
		if len(e.b) >= flushSize {
			return e.flush()
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
		return errors.New("toon: WriteRow without BeginTable")
	}
	if len(cells) != t.width {
		return &TableError{Table: t.key, Err: ErrWidth, Want: t.width, Got: len(cells)}
	}
	if t.n >= 0 {
		if t.rows == t.n {
			return &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.n + 1}
		}
		b, err := t.appendRow(e.b, cells)
		if err != nil {
			return err
		}
		e.b = b
		t.rows++
		if len(e.b) >= flushSize {
			return e.flush()
		}
		return nil
	}
	b, err := t.appendRow(t.rb.B, cells)
	t.rb.B = b
	if err != nil {
		return err
	}
	t.rows++
	if t.file == nil && int64(len(b)) <= e.opts.tableBudget || t.file != nil && len(b) < flushSize {
		return nil
	}
	return e.spill()
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

// putBool writes true or false at p, which has 8 bytes of room, and
// returns its length.
func putBool(p unsafe.Pointer, v bool) int {
	if v {
		*(*uint64)(p) = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
		return 4
	}
	*(*uint64)(p) = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
	return 5
}

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

// spill moves the buffered rows of a table of unknown length to its
// temporary file, creating the file the first time.
func (e *Encoder) spill() error {
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
	if err := writeOut(t.file, t.rb.B); err != nil {
		e.dropTable()
		return e.fail(err)
	}
	t.rb.B = t.rb.B[:0]
	return nil
}

// dropTable releases the resources of the open table, if any: its row
// buffer and its temporary file.
func (e *Encoder) dropTable() {
	t := &e.tbl
	t.active, t.quick = false, false
	if t.rb != nil {
		outPool.Put(t.rb)
		t.rb = nil
	}
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
		return errors.New("toon: EndTable without BeginTable")
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

// writeHeldRows writes the header of a table of unknown length and then its
// rows, from the temporary file and from memory.
func (e *Encoder) writeHeldRows() error {
	t := &e.tbl
	e.b = append(e.b, t.head...)
	e.b = e.appendHeader(e.b, t.rows, false)
	e.b = append(e.b, t.fseg...)
	if t.file != nil {
		if err := e.flush(); err != nil {
			return err
		}
		if _, err := t.file.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if e.out == nil {
			return errNoWriter
		}
		var buf []byte // the flushed output buffer, if it is big enough
		if cap(e.b) >= 4096 {
			buf = e.b[:cap(e.b)]
		}
		if _, err := io.CopyBuffer(e.out, onlyReader{t.file}, buf); err != nil {
			return err
		}
	}
	if len(t.rb.B) >= flushSize && !e.noFlush {
		if err := e.flush(); err != nil {
			return err
		}
		if e.out == nil {
			return errNoWriter
		}
		return writeOut(e.out, t.rb.B)
	}
	e.b = append(e.b, t.rb.B...)
	return nil
}

// onlyReader hides every method of a reader but Read, so that io.CopyBuffer
// uses the buffer it is given.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }
