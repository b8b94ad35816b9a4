package toon

import (
	"errors"
	"io"
	"math"
	"os"
	"strconv"

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
	indent int // spaces before each row
	delim  byte
	mask   uint8
	dw     uint64 // delimWord(mask)

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
	for i := range fields {
		for j := 0; j < i; j++ {
			if fields[i] == fields[j] {
				return errors.New("toon: BeginTable with repeated field " + strconv.Quote(fields[i]))
			}
		}
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
	t.indent = rowDepth * e.opts.indent
	t.delim = byte(e.delim)
	t.mask = e.docMask
	t.dw = delimWord(t.mask)
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

// appendRow appends a row, with its leading LF and indentation, to b. On
// error b is returned cut back to its length on entry.
func (t *table) appendRow(b []byte, cells []Value) ([]byte, error) {
	start := len(b)
	if t.indent < len(spaces) {
		b = append(b, '\n')
		b = append(b, spaces[:t.indent]...)
	} else {
		b = appendIndent(append(b, '\n'), t.indent)
	}
	for i := range cells {
		c := &cells[i]
		if i > 0 {
			b = append(b, t.delim)
		}
		switch c.kind {
		case vString:
			b = appendStrW(b, c.s, t.dw)
		case vInt:
			b = appendInt(b, int64(c.u))
		case vFloat:
			b = appendFloat(b, math.Float64frombits(c.u), 64)
		case vBool:
			if c.u != 0 {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		default:
			var ok bool
			if b, ok = appendValue(b, c, t.mask); !ok {
				return b[:start], invalidNumber(c.s)
			}
		}
	}
	return b, nil
}

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
	t.active = false
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
