package toon

import (
	"bytes"
	"math"
	"runtime"
	"sync"
	"unicode/utf8"
)

// This file splits the rows of a table into ranges of lines that can be
// decoded apart, on several goroutines of one process or by the workers of
// a distributed engine, each range by a decoder of its own (docs/scale.md).
//
// A table's rows are lines: a quoted cell cannot hold a raw line feed
// (§7.1 escapes it), so every LF of the input ends a line, and a range of
// whole lines is found without reading the cells. The rows of a table are
// the lines that follow its header, up to the first content line (not
// blank, not a comment) that is indented less than the rows; every content
// line in between is a row or an error. A range decoder reads its lines as
// the serial decoder would read them inside the table, with the table's
// header, row count so far and line numbers, so a range reports every
// error the serial decoder would report there, at the same line, column
// and offset, with the same text.

// Table is the rows of a tabular array (§9.3) of a document held in memory,
// split into ranges; Decoder.SplitTable makes it.
type Table struct {
	Fields     []Field   // the header's field list (a copy)
	Delim      Delimiter // the header's delimiter
	Len        int       // the row count the header declares
	HeaderLine int       // the header's line number
	Indent     int       // the width of the rows' indentation, in spaces
	// Start and End delimit the rows in the input: from the line after
	// the header to the end of the last line that is a row (or an error
	// in place of one). Blank and comment lines after the last row are
	// outside, and so is everything after the table.
	Start, End int64
	Rows       int     // the lines between Start and End that stand as rows
	Ranges     []Range // the rows, split: see SplitTable

	data   []byte
	opts   options
	depth  int   // the rows' depth
	nleaf  int   // cells per row
	hdrOff int64 // the header line's offset
	// counted: a scope around the table (a list, a table or a keyed
	// object) has items already, so that a blank line among the rows is
	// an error even before the first row.
	counted bool
}

// Range is a run of whole lines of a table's rows. A table's ranges are
// contiguous: the first starts at Table.Start, each next one where the one
// before ends, and the last ends at Table.End, so they hold every row once,
// in order.
type Range struct {
	Start, End int64 // the range's bytes in the input
	Line       int   // the line number of the range's first line
	FirstRow   int   // the index in the table of the range's first row
	Rows       int   // the lines of the range that stand as rows
	// prev and prevLine locate the content line before the range (a row,
	// or the header for the first range), where a count error found at
	// the range's start is reported.
	prev     int64
	prevLine int
	lines    int // lines that start in the range
	// last and lastLine locate the range's last row, when it has one
	// (StreamTable).
	last     int64
	lastLine int
	// final: the range ends the table, and its decoder checks the count.
	final bool
	// cut: the range was cut without its rows being found (cutRange); its
	// place in the table (Line, FirstRow, prev) is not known to its decoder.
	cut bool
}

// splitMin is the fewest bytes SplitTable gives a range, unless the table
// is smaller: a range's decoder costs a few allocations and a scan of a
// few lines, and a range much smaller than this would cost more to hand
// over than to decode.
var splitMin = 64 << 10

// SplitTable locates the rows of the table whose ArrayStart Token has just
// returned, splits them into about parts ranges of about equal size, and
// takes the decoder past them: its next token is the table's ArrayEnd, and
// after it the document goes on as if the rows had been read. The rows
// themselves are not decoded, only found: each range is decoded by the
// decoder Table.RangeDecoder gives, on any goroutine. The table is valid
// only when every range decodes without an error: the check of the row
// count against the header (§14.1) is made by the last range's decoder,
// and each range checks its own rows.
//
// The ranges are a function of the input and parts alone (not of the
// number of CPUs or of timing), so that a second call on the same input
// finds the same ones. Each range starts at a line start and, but for the
// first, after a line that stands as a row, so that a blank line (an
// error inside a table, §12) never falls on a boundary; no range is
// smaller than 64 KiB unless the table is.
//
// Finding the rows reads every line once (the first bytes of each, and
// its LF), on up to GOMAXPROCS goroutines, which have all ended when
// SplitTable returns.
//
// The error is one of ErrNotSplittable's, matched with errors.Is, when the
// decoder is not at such a table; the decoder is then unchanged.
func (d *Decoder) SplitTable(parts int) (*Table, error) {
	t, line0, err := d.newTable()
	if err != nil {
		return nil, err
	}
	t.split(parts, line0)
	d.skipTable(t)
	return t, nil
}

// StreamTable is SplitTable for a caller that decodes ranges while the
// table is being split: it finds the rows a range of about size bytes
// (at least 64 KiB) at a time, on the calling goroutine, and hands each
// range to yield as soon as it is known, in order, with the same
// guarantees as SplitTable's ranges (for the same cuts: StreamTable cuts
// every size bytes, SplitTable into parts of equal size). yield may start
// decoding the range at once, on any goroutine; a range's bytes are read
// by StreamTable before yield gets it and not afterwards, so a caller
// that reads a mapping may release a range's pages once it has decoded
// it, and the memory touched stays bounded by the ranges in flight.
//
// When yield returns false, StreamTable stops and returns the table with
// the ranges found so far and ErrSplitStopped; the decoder then fails
// with that error. Otherwise it returns the table, all its ranges in
// Ranges, with the decoder past the rows, as SplitTable does.
func (d *Decoder) StreamTable(size int, yield func(*Table, Range) bool) (*Table, error) {
	t, line0, err := d.newTable()
	if err != nil {
		return nil, err
	}
	if !t.stream(size, line0, yield) {
		d.err = ErrSplitStopped
		return t, ErrSplitStopped
	}
	d.skipTable(t)
	return t, nil
}

// newTable makes the Table of the tabular array whose ArrayStart d has
// just returned, without its rows, and returns the line number of the
// line after the header.
func (d *Decoder) newTable() (*Table, int, error) {
	if !d.atTableStart() {
		return nil, 0, ErrNotSplittable
	}
	f := &d.stack[len(d.stack)-1]
	t := &Table{
		Fields:     cloneFields(d.hdr.fields),
		Delim:      Delimiter(d.hdr.delim),
		Len:        f.n,
		HeaderLine: f.line,
		Indent:     f.depth * d.opts.indent,
		Start:      int64(d.lr.pos),
		data:       d.lr.buf,
		opts:       d.opts,
		depth:      f.depth,
		nleaf:      d.hdr.nleaf,
		hdrOff:     d.cur.off,
	}
	for i := range d.stack[:len(d.stack)-1] {
		switch g := &d.stack[i]; g.kind {
		case fList, fTabular, fKeyed:
			t.counted = t.counted || g.count > 0
		}
	}
	return t, d.lr.lineNum + 1, nil
}

// skipTable takes the decoder past t's rows: the line reader resumes at the
// table's end, with the line count, the last content line and the current
// line it would have after reading the rows. Line and InputOffset stay
// those of the header until the next token. The table's scope stays open,
// its count taken as met (the last range checks it), so that it closes as
// it would after its last row: at the next content line, which is
// indented less than the rows, or at the end of the input, where its
// ArrayEnd has the last line read, as the serial decoder's has.
func (d *Decoder) skipTable(t *Table) {
	r := &t.Ranges[len(t.Ranges)-1]
	num, off := r.after(t)
	d.lr.pos, d.lr.scanned, d.lr.lineNum = int(t.End), int(t.End), r.Line-1+r.lines
	d.cur = lineRef{num, off}
	d.lr.keepOff = off
	d.dropQueue()
	d.began = true // the queue's tokens, the header's among them, are taken
	f := &d.stack[len(d.stack)-1]
	f.count = f.n
	if t.Rows > 0 {
		d.line = t.rowLine(num, off)
	}
}

// rowLine returns the line at offset off in t.data, numbered num, that
// stands as t's last row, at the rows' depth. It is a row, or a line whose
// own error (such as its indentation) its range decoder reports.
func (t *Table) rowLine(num int, off int64) rawLine {
	s := int(off)
	e := len(t.data)
	if i := bytes.IndexByte(t.data[s:], '\n'); i >= 0 {
		e = s + i
	}
	if e > s && t.data[e-1] == '\r' {
		e--
	}
	full := t.data[s:e]
	sp := leadingSpaces(full)
	return rawLine{full: full, text: full[sp:], num: num, off: off, spaces: sp, depth: t.depth}
}

// stream finds t's rows from t.Start, whose line number is line0, a piece
// of about size bytes at a time, and hands the ranges to yield as they
// are known. A range is held back until a row after it is found, or the
// table's end: only then is it known whether it is the last. It reports
// whether yield took every range.
func (t *Table) stream(size, line0 int, yield func(*Table, Range) bool) bool {
	size = max(size, splitMin)
	data := t.data
	held := Range{Start: t.Start, End: t.Start, Line: line0, prev: t.hdrOff, prevLine: t.HeaderLine}
	t.End = t.Start
	for at := int(t.Start); at < len(data); {
		e := len(data)
		if at+size < len(data) {
			if e = t.boundary(at+size, len(data)); e < 0 {
				e = len(data)
			}
		}
		sc := t.scan(at, e)
		if sc.end > 0 && held.End > held.Start {
			// A row (or an error in the table) after the held range:
			// it is not the last.
			if !yield(t, held) {
				return false
			}
			t.Ranges = append(t.Ranges, held)
			next := Range{Start: held.End, End: held.End, Line: held.Line + held.lines, FirstRow: held.FirstRow + held.Rows, prev: held.prev, prevLine: held.prevLine}
			if held.Rows > 0 {
				next.prev, next.prevLine = held.last, held.lastLine
			}
			held = next
		}
		if sc.end > 0 {
			t.End = sc.end
		}
		// The piece joins the held range.
		if sc.rows > 0 {
			held.last, held.lastLine = sc.lastRow, held.Line+held.lines+sc.lastIdx
		}
		held.End, held.lines, held.Rows = int64(e), held.lines+sc.lines, held.Rows+sc.rows
		if sc.stopped {
			break
		}
		at = e
	}
	t.endAt(&held, t.End)
	if !yield(t, held) {
		return false
	}
	t.Ranges = append(t.Ranges, held)
	t.Rows = held.FirstRow + held.Rows
	return true
}

// endAt makes r, which holds the table's last row (or starts after it),
// the table's final range, ending at end, the end of the table's last row:
// blank or comment lines (or the line that ends the table) after it are
// not the table's.
func (t *Table) endAt(r *Range, end int64) {
	r.final = true
	if e := max(end, r.Start); e != r.End {
		r.End = e
		r.lines = t.scan(int(r.Start), int(e)).lines
	}
}

// atTableStart reports whether the last token returned was the ArrayStart
// of a tabular array, read in place in strict mode, with nothing of the
// table read yet.
func (d *Decoder) atTableStart() bool {
	if d.lr.r != nil || d.lr.base != 0 || !d.opts.strict || d.err != nil || d.qerr != nil ||
		len(d.stack) == 0 || d.qi == 0 || d.qi != len(d.queue) || d.pi < len(d.prog) || d.ci < len(d.cells)/2 || d.bulk.n != 0 {
		return false
	}
	f := &d.stack[len(d.stack)-1]
	t := d.queue[d.qi-1]
	return f.kind == fTabular && f.count == 0 && t.Kind() == KindArrayStart && t.Form() == FormTabular
}

// split finds t's rows from t.Start, whose line number is line0, and cuts
// them into about parts ranges: t.End, t.Rows and t.Ranges.
func (t *Table) split(parts int, line0 int) {
	cuts := t.cuts(int(t.Start), len(t.data), parts)
	scans := t.scanAll(cuts)
	// The rows end in the first piece that found a line ending the table,
	// after the last row line at or before that line.
	last := len(scans) - 1
	for i := range scans {
		if scans[i].stopped {
			last = i
			break
		}
	}
	t.End = t.Start
	for i := last; i >= 0; i-- {
		if scans[i].end > 0 {
			t.End = scans[i].end
			break
		}
	}
	cuts = cuts[:last+2]
	if cuts[last+1] != int(t.End) {
		if last+1 < parts && t.End-t.Start > int64(2*splitMin) {
			// The table ended well before the input: cut again within
			// it, so that the ranges share its rows evenly.
			cuts = t.cuts(int(t.Start), int(t.End), parts)
			scans = t.scanAll(cuts)
		} else {
			for len(cuts) > 2 && cuts[len(cuts)-2] >= int(t.End) {
				cuts = cuts[:len(cuts)-1]
			}
			cuts[len(cuts)-1] = int(t.End)
			scans = scans[:len(cuts)-1]
			i := len(scans) - 1
			scans[i] = t.scan(cuts[i], cuts[i+1])
		}
	}
	first := Range{Line: line0, prev: t.hdrOff, prevLine: t.HeaderLine, final: true}
	t.Ranges = t.ranges(first, cuts, scans)
	r := &t.Ranges[len(t.Ranges)-1]
	t.Rows = r.FirstRow + r.Rows
}

// ranges makes the ranges between cuts, whose scans are given, the first
// starting with the line, row and previous line of first.
func (t *Table) ranges(first Range, cuts []int, scans []pieceScan) []Range {
	out := make([]Range, len(scans))
	line, row, prev, prevLine := first.Line, first.FirstRow, first.prev, first.prevLine
	for i := range scans {
		sc := &scans[i]
		out[i] = Range{Start: int64(cuts[i]), End: int64(cuts[i+1]), Line: line, FirstRow: row, Rows: sc.rows,
			prev: prev, prevLine: prevLine, lines: sc.lines}
		if sc.rows > 0 {
			prev, prevLine = sc.lastRow, line+sc.lastIdx
		}
		line += sc.lines
		row += sc.rows
	}
	// Of the ranges made from a final one (a table's, or the last of
	// them), the last is final.
	out[len(out)-1].final = first.final
	return out
}

// after returns the line number and offset of the last content line that
// r's decoder reads: its last row, or the line before it.
func (r *Range) after(t *Table) (int, int64) {
	if r.Rows == 0 {
		return r.prevLine, r.prev
	}
	sc := t.scan(int(r.Start), int(r.End))
	return r.Line + sc.lastIdx, sc.lastRow
}

// cuts returns the boundaries of about parts pieces of data[s:e], each at
// least splitMin bytes: s, then line starts that follow a row line, then e.
func (t *Table) cuts(s, e, parts int) []int {
	cuts := []int{s}
	size := (e - s) / max(parts, 1)
	size = max(size, splitMin)
	for at := s + size; at < e; at += size {
		c := t.boundary(at, min(at+size, e))
		if c < 0 {
			continue
		}
		if c >= e {
			break
		}
		if c > cuts[len(cuts)-1] {
			cuts = append(cuts, c)
		}
	}
	return append(cuts, e)
}

// boundary returns the first line start at or after at, and before limit,
// whose line before it stands as a row (rowLike), or -1.
func (t *Table) boundary(at, limit int) int {
	data := t.data
	for at < limit {
		i := bytes.IndexByte(data[at:limit], '\n')
		if i < 0 {
			return -1
		}
		nl := at + i
		// The line ending at nl starts after the LF before it.
		ls := bytes.LastIndexByte(data[:nl], '\n') + 1
		if ls >= int(t.Start) && t.rowLike(ls, nl) {
			return nl + 1
		}
		at = nl + 1
	}
	return -1
}

// rowLike reports whether the line data[ls:le] starts with exactly the
// rows' indentation and then content that is neither a space, a tab nor a
// comment: a line that is a row (or an error in a row's place), never a
// blank or comment line nor the end of the table.
func (t *Table) rowLike(ls, le int) bool {
	in := t.Indent
	if le-ls <= in {
		return false
	}
	for _, c := range t.data[ls : ls+in] {
		if c != ' ' {
			return false
		}
	}
	switch t.data[ls+in] {
	case ' ', '\t', '#', '\r':
		return false
	}
	return true
}

// pieceScan is what scan finds in a piece of the input.
type pieceScan struct {
	lines   int   // lines that start in the piece before the stop
	rows    int   // of which stand as rows
	stopped bool  // a line ends the table, at stop
	stop    int64 // offset of that line
	lastRow int64 // offset of the last row line, when rows > 0
	lastIdx int   // its index among the piece's lines
	// end is the offset after the last line (after its LF) that is a row
	// or a line whose error the decoder reports before it could close the
	// table, or 0 if there is none.
	end int64
}

// scanAll scans the pieces between cuts, in parallel.
func (t *Table) scanAll(cuts []int) []pieceScan {
	n := len(cuts) - 1
	out := make([]pieceScan, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range out {
			out[i] = t.scan(cuts[i], cuts[i+1])
		}
		return out
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				out[i] = t.scan(cuts[i], cuts[i+1])
			}
		}()
	}
	wg.Wait()
	return out
}

// scan reads the lines that start in data[s:e] as the line reader would (a
// line's terminator is LF, a CR before it is dropped), and classifies
// them: comment lines (§5.1) and blank lines pass; a content line indented
// less than the rows ends the table, unless the decoder would report an
// error on the line itself before closing the table (a tab in its
// indentation, an indentation that is not a multiple of the indent size,
// ill-formed UTF-8, more than the longest line), which makes it stand as a
// row, whose decoder then reports the error; any other line stands as a
// row.
func (t *Table) scan(s, e int) pieceScan {
	data := t.data
	in := t.Indent
	var ps pieceScan
	for ls := s; ls < e; {
		le := bytes.IndexByte(data[ls:], '\n')
		next := ls + le + 1
		if le < 0 {
			le, next = len(data), len(data)
		} else {
			le += ls
		}
		ps.lines++
		// The common row, decided from its first bytes.
		if le-ls > in && data[ls+in] > ' ' && data[ls+in] != '#' && (in == 0 || allSpaces(data[ls:ls+in])) {
			ps.rows++
			ps.lastRow, ps.end, ps.lastIdx = int64(ls), int64(next), ps.lines-1
			ls = next
			continue
		}
		switch t.classify(data[ls:le]) {
		case scanRow:
			ps.rows++
			ps.lastRow, ps.end, ps.lastIdx = int64(ls), int64(next), ps.lines-1
		case scanHold:
			ps.end = int64(next)
		case scanStop:
			ps.lines--
			ps.stopped, ps.stop = true, int64(ls)
			return ps
		}
		ls = next
	}
	return ps
}

func allSpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

const (
	scanPass = iota // a blank or comment line
	scanRow         // a row, or an error in a row's place
	scanHold        // not a row, but an error the decoder reports in the table
	scanStop        // a line that ends the table
)

// classify decides what the line (without its LF) is to the table, as
// step and readLine decide it.
func (t *Table) classify(line []byte) int {
	if len(line) > t.opts.maxLine {
		return scanHold // the decoder reports it, comment or not
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	i := leadingSpaces(line)
	if i < len(line) && line[i] == '#' {
		if !utf8.Valid(line) {
			return scanHold // an error of readLine, inside the table
		}
		return scanPass
	}
	spaces, tab := i, false
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		if line[i] == '\t' {
			tab = true
			spaces += t.opts.indent
		} else {
			spaces++
		}
		i++
	}
	if i == len(line) && !tab {
		return scanPass // blank (strict: a tab makes it content)
	}
	if spaces >= t.Indent || tab || spaces%t.opts.indent != 0 || !utf8.Valid(line[i:]) {
		return scanRow
	}
	return scanStop
}

// RangeDecoder returns a decoder of the rows of r alone, which may run on
// any goroutine, alongside the decoders of the other ranges. Its tokens
// are those of a tabular array of r.Rows rows with the table's fields and
// delimiter: the ArrayStart, the rows, and the ArrayEnd, then io.EOF. Its
// errors are those a decoder of the whole document reports in these
// lines, with the same line, column and offset (in the whole input) and
// the same text; the last range's decoder also checks the table's row
// count, and reports a wrong count as the whole document's decoder does.
// The range must be one of t.Ranges (or one StreamTable handed out), or
// one that Split made from one.
func (t *Table) RangeDecoder(r Range) *Decoder {
	d := &Decoder{}
	t.initRange(d, r)
	return d
}

// ResetRange makes d, a decoder that RangeDecoder returned, the decoder
// of r, another range of t, as RangeDecoder would make it, keeping its
// buffers: a worker that decodes range after range then does not
// allocate a decoder for each.
func (t *Table) ResetRange(d *Decoder, r Range) {
	var n Decoder
	n.moveMemory(d)
	// ids go on from the last range's: an id is never given twice by one
	// Decoder, which rowPlan relies on as headerProg does.
	n.ids = d.ids
	*d = n
	t.initRange(d, r)
}

// rangeMode is what the decoder of a range of a table's rows knows of the
// range (RangeDecoder; d.rng.on is false in any other decoder).
//
// A range that was cut (cut, see cutRange) starts at no known place in
// the table: its decoder counts the range's lines from 1 and its rows from
// the range's first, does not check the row count, and ends at a line that
// ends the table (a content line indented less than the rows), which it
// does not read. What it found is then in rows and last, for the caller
// that places the range (splitrun.go).
type rangeMode struct {
	on      bool
	partial bool // not the table's last range: its end skips the count check
	cut     bool
	depth   int // the rows' depth
	first   int // the table's row count at the range's start (the frame's count)
	base    int // the line number before the range's first line
	// What a cut range's decoder found, once the range has ended (ended):
	ended   bool
	stopped bool    // a line ended the table before the range's end
	lines   int     // the lines read (when not stopped)
	rows    int     // the rows read
	last    lineRef // the last row read (num 0 when there is none)
}

// initRange makes d, a zero Decoder but for the memory of its slices, the
// decoder of r.
func (t *Table) initRange(d *Decoder, r Range) {
	d.opts = t.opts
	d.headerParser.strict = d.opts.strict
	d.lr.initBytes(t.data[:r.End], &d.opts)
	d.lr.pos, d.lr.scanned = int(r.Start), int(r.Start)
	d.lr.lineNum = r.Line - 1
	d.hdr = header{n: t.Len, delim: byte(t.Delim), fields: t.Fields, nleaf: t.nleaf}
	d.root = rootArray
	d.emit(ArrayStartToken(r.Rows, FormTabular, t.Delim, t.Fields))
	if t.counted {
		// A scope around the table holds items already: a blank line is
		// an error in the first range too (§12), as step finds it.
		d.stack = append(d.stack, frame{kind: fList, depth: -1, count: 1})
	}
	n := t.Len
	if r.cut {
		// No count check: the table's place of the range is not known.
		n = math.MaxInt
	}
	d.stack = append(d.stack, frame{kind: fTabular, depth: t.depth, n: n, count: r.FirstRow, line: t.HeaderLine})
	d.buildProg(t.Fields)
	d.cur = lineRef{r.prevLine, r.prev}
	d.lr.keepOff = r.prev
	d.rng = rangeMode{on: true, partial: !r.final || r.cut, cut: r.cut, depth: t.depth, first: r.FirstRow, base: r.Line - 1}
}

// endRange ends the input of a range decoder: it closes the table, with
// the count check in the last range, and the document.
func (d *Decoder) endRange() error {
	d.done = true
	if d.rng.cut {
		d.rng.ended = true
		d.rng.lines = d.lr.lineNum - d.rng.base
		d.rng.rows = d.stack[len(d.stack)-1].count - d.rng.first
		if d.rng.rows > 0 {
			d.rng.last = d.cur
		}
	}
	if d.rng.partial {
		d.emit(ArrayEndToken())
	} else if err := d.pop(); err != nil {
		return err
	}
	d.stack = d.stack[:0]
	d.root = rootDone
	return nil
}

// stopRange ends a cut range at the line just read, which ends the table:
// the line is not the range's.
func (d *Decoder) stopRange() error {
	d.rng.stopped = true
	d.end = d.cur
	return d.endRange()
}

// Split cuts r into about parts ranges, as SplitTable cuts the table (the
// same rules, each at least 64 KiB): for an engine that splits work that
// is already under way. The ranges hold r's rows exactly once, in order,
// and each error of r's decoder is reported by the decoder of the range
// that holds its line, identically.
func (t *Table) Split(r Range, parts int) []Range {
	cuts := t.cuts(int(r.Start), int(r.End), parts)
	return t.ranges(r, cuts, t.scanAll(cuts))
}
