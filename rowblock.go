package toon

import (
	"bytes"
	"slices"

	"github.com/toonstream/toon/internal/mem"
)

// A RowBlock holds rows of the open streaming table written away from its
// Encoder: AppendRow gives a row the text WriteRow would give it, and
// WriteRowBlock then adds the block's rows to the table as that many
// WriteRow calls would, byte for byte. Blocks let several goroutines
// format the rows of one table (each its own blocks, the Encoder being
// used by one goroutine only) while the Encoder's goroutine writes the
// blocks in order.
//
// A block is made for the layout of the table open when NewRowBlock was
// called (its width, row indentation, delimiter and maximum line length);
// it may be reused, with Reset, for any table of the same layout.
type RowBlock struct {
	rs      rowStyle
	width   int
	maxLine int
	quick   bool   // rows of at most rowSlack bytes: AppendRow may use putRow
	name    string // the table's name in messages
	key     string // the table's key, for TableError
	first   int    // the index in the table of the block's first row
	rows    int
	text    []byte // the rows, each with its leading LF and indentation
}

// NewRowBlock returns an empty block for rows of the open table, whose
// first row will be row 0 of the table (see Reset). It may then be used on
// any goroutine.
func (e *Encoder) NewRowBlock() (*RowBlock, error) {
	t := &e.tbl
	if !t.active {
		if err := e.ended("NewRowBlock"); err != nil {
			return nil, err
		}
		return nil, misuse(ErrNoTable, "NewRowBlock without an open table")
	}
	return &RowBlock{
		rs:      t.rowStyle,
		width:   t.width,
		maxLine: e.opts.maxLine,
		quick:   t.quick,
		name:    t.name,
		key:     t.key,
	}, nil
}

// Reset empties the block, keeping its memory, for rows that start at
// row first of the table (which only names a row in the error of a line
// too long).
func (b *RowBlock) Reset(first int) {
	b.first, b.rows, b.text = first, 0, b.text[:0]
}

// Rows returns the number of rows in the block.
func (b *RowBlock) Rows() int { return b.rows }

// AppendRow appends a row to the block: one cell per field, written as
// WriteRow writes it. Its errors are WriteRow's, but for the count, which
// WriteRowBlock checks: a row of the wrong width, a malformed NumberValue,
// and a line longer than the maximum line length (naming the row as
// first+Rows()). The block is then as it was before the call.
func (b *RowBlock) AppendRow(cells ...Value) error {
	if len(cells) != b.width {
		return &TableError{Table: b.key, Err: ErrWidth, Want: b.width, Got: len(cells)}
	}
	if b.quick {
		// WriteRow's quick path: the row's lead, then putCells; a row
		// that putCells writes whole has at most rowSlack bytes, within
		// the line limit (quick says so), and one it leaves a cell of
		// goes on from that cell, as WriteRow's does.
		if cap(b.text)-len(b.text) < rowSlack {
			b.text = slices.Grow(b.text, rowSlack)
		}
		base := mem.SliceData(b.text)
		base.Store64(len(b.text), b.rs.leadWord)
		o, k := putCells(base, len(b.text)+len(b.rs.lead), cells, b.rs.dw)
		if k == len(cells) {
			b.text = b.text[:o-1]
			b.rows++
			return nil
		}
		text, bad := rowFrom(b.text[:o], cells, k, &b.rs)
		if bad >= 0 {
			return invalidNumber(cells[bad].str())
		}
		return b.add(text)
	}
	text, bad := appendRowCells(b.text, cells, &b.rs)
	if bad >= 0 {
		return invalidNumber(cells[bad].str())
	}
	return b.add(text)
}

// add takes the row that text holds after b.text, as Encoder.addRow
// does: it checks the row's line length and counts the row. Until it
// does, b.text is unchanged, so a row it rejects leaves no trace.
func (b *RowBlock) add(text []byte) error {
	if n := len(text) - len(b.text); n-1 > b.maxLine {
		return lineTooLongRow(b.first+b.rows, b.name, n-1, b.maxLine)
	}
	b.text = text
	b.rows++
	return nil
}

// WriteRowBlock writes the rows of b to the open table, as WriteRow would
// have written them one by one, and leaves b as it is. A block made for a
// table of another layout is refused (ErrPlacement), with nothing written.
// If the rows would go past the declared count, the rows up to it are
// written and the error is WriteRow's for the next one (a TableError,
// ErrCount, not sticky).
func (e *Encoder) WriteRowBlock(b *RowBlock) error {
	if e.err != nil {
		return e.err
	}
	t := &e.tbl
	if !t.active {
		if err := e.ended("WriteRowBlock"); err != nil {
			return err
		}
		return misuse(ErrNoTable, "WriteRowBlock without an open table")
	}
	if b.width != t.width || b.rs != t.rowStyle || b.maxLine != e.opts.maxLine {
		return misuse(ErrPlacement, "WriteRowBlock of a block made for a table of another layout")
	}
	text, rows := b.text, b.rows
	var over error
	if t.n >= 0 && t.rows+rows > t.n {
		// Each row starts with its LF, and a row holds no other (§7.1).
		keep := t.n - t.rows
		end := 0
		for range keep {
			end += 1 + bytes.IndexByte(text[end+1:], '\n')
		}
		text, rows = text[:end], keep
		over = &TableError{Table: t.key, Err: ErrCount, Want: t.n, Got: t.n + 1}
	}
	if err := e.addRows(text, rows); err != nil {
		return err
	}
	return over
}

// addRows adds rows, checked rows' text with their LFs, to the open table.
// The output is passed on where WriteRow would pass it on, after the first
// row that fills the buffer to flushSize, so that the io.Writer gets the
// same writes (and, before an error, the same text) as from WriteRow.
func (e *Encoder) addRows(text []byte, rows int) error {
	e.tbl.rows += rows
	for len(text) > 0 {
		need := flushSize - len(e.b)
		if len(text) < need {
			e.b = append(e.b, text...)
			return nil
		}
		// The first row that ends at or past need: it ends before the
		// LF of the next row, or with the text.
		end := len(text)
		if i := bytes.IndexByte(text[need:], '\n'); i >= 0 {
			end = need + i
		}
		if len(e.b) == 0 && !e.tbl.holding && !e.noFlush && e.out != nil {
			// What flush would write, without the copy: the rows'
			// lines are checked, and they start a line.
			if e.err != nil {
				return e.err
			}
			if err := writeOut(e.out, text[:end]); err != nil {
				return e.fail(err)
			}
			e.wrote(text[:end])
		} else {
			e.b = append(e.b, text[:end]...)
			if err := e.flushRows(); err != nil {
				return err
			}
		}
		text = text[end:]
	}
	return nil
}
