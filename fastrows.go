package toon

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/toonstream/toon/internal/mem"
)

// This file holds the decoder's fast path for runs of table rows. Inside a
// tabular array, the usual line is a row at the table's depth with plain or
// quoted cells, and for such lines the general path (step, tabularLine,
// row) repeats work whose outcome is already known. The fast path instead
// indexes a window of the line reader's buffer in one pass (indexRows) and
// queues the tokens of every row it can. It stops at the first line that is
// anything else (a comment, a blank line, another depth, a colon, a stray
// CR, a quote left open, a row of the wrong width, a bad quoted cell,
// ill-formed UTF-8, a line longer than the limit) and leaves that line to
// the general path, which decides what it is and reports any error with
// its position. So the fast path never makes a decision of its own: it
// only takes lines on which the general path could not fail and would
// queue the same tokens.
//
// Rows are typed by bulkLine, or on amd64 by typeRows (typerows_amd64.s),
// which takes the common rows whole and leaves every other line to
// bulkLine: bulkLine is the specification of both.
//
// The queued tokens are views into the line reader's buffer, which does not
// move until the queue is empty (the line reader only refills from step).
// The queue itself is memory the collector does not scan: see fastQueue.

const (
	bulkWinMin = 512      // bytes indexed at a time, at first and after a stop
	bulkWinMax = 16 << 10 // the most bytes indexed at a time
	bulkTokens = 4096     // the most tokens queued at a time
	bulkCool   = 8        // lines left to the general path after a stop on the first row
)

// bulkRun is the fast path's state: where the rows it queued last came
// from, so that a token's line can be found again (syncLine); the window of
// input it indexes; and typeRows's state.
type bulkRun struct {
	n      int     // rows queued; 0 when the queue holds none
	per    int     // tokens per row
	src    []byte  // the indexed window of the line reader's buffer
	at     []int32 // start of each row in src, then of the line after
	num0   int     // line number of the first row
	off0   int64   // input offset of src[0]
	indent int     // width of the rows' indentation
	depth  int

	idx    []uint32 // the window's index (kept for its capacity)
	win    int      // bytes to index next time
	rowLen int      // bytes per row in the last call, to size small windows
	cool   int      // refills to leave to the general path

	ts    typeState // typeRows's arguments and results
	slots []uint32  // the byte offset in a queue row of each cell's token

	// The window's rows that end at or before validTo, an LF's offset in
	// src, are well-formed UTF-8 (0: none known); rowByRow tells that the
	// rest of the window was found not to be, so that each row is checked
	// alone.
	validTo  int
	rowByRow bool
}

// reset forgets the rows queued and the window's size, for a new
// document.
func (b *bulkRun) reset() { b.n, b.win, b.cool = 0, 0, 0 }

// Test hooks. Only tests set them (export_test.go), to compare typeRows
// with bulkLine and to check that typeRows takes the rows it should.
var (
	typeRowsOff  bool           // bulkLine types every row
	typeRowsTook func(rows int) // told the rows of each typeRows call
)

// bulkReady reports whether the next lines may be rows the fast path can
// take: the innermost scope is a tabular array with rows to come, and
// no blank line is pending.
func (d *Decoder) bulkReady() bool {
	if d.bulk.cool > 0 {
		d.bulk.cool--
		return false
	}
	if len(d.stack) == 0 || d.blank.num != 0 || d.done || len(d.prog) > maxQueuedRow {
		return false
	}
	f := &d.stack[len(d.stack)-1]
	return f.kind == fTabular && f.count < f.n
}

// bulkRows queues the tokens of the open table's next rows, as many as the
// fast path can take from the buffered input, and reports whether it
// queued any. The queue must be empty, and bulk.n zero.
func (d *Decoder) bulkRows() bool {
	f := &d.stack[len(d.stack)-1]
	lr := &d.lr
	per := len(d.rowTmpl) // ObjectStart, keys, cells (and nested groups), ObjectEnd
	maxRows := min(f.n-f.count, max(bulkTokens/per, 1))
	win := d.bulk.win
	if win == 0 {
		win = bulkWinMin
	}
	if rem := f.n - f.count; rem < bulkWinMin/64 {
		// A small table (or the end of one): index about what its rows
		// need, not a whole window of the lines after it.
		est := d.bulk.rowLen
		if est == 0 {
			est = 128
		}
		win = min(win, max((rem*est+est/2+63)&^63, 64))
	}
	start := lr.pos
	src := lr.buf[start:min(lr.end, start+win)]
	delim := d.hdr.delim
	idx := indexRows(src, delim, d.bulk.idx[:0])
	d.bulk.idx = idx
	indent := f.depth * lr.indent
	strict := d.opts.strict
	q := d.bulkQueue(maxRows * per)
	at := slices.Grow(d.bulk.at[:0], maxRows+1) // one allocation, not one per doubling
	// Escaped cells are decoded into scratch, which must not move while
	// the queue holds views into it (see fastQueue); unescaping never
	// makes a text longer.
	d.resetScratch()
	if cap(d.scratch) < len(src) {
		d.scratch = make([]byte, 0, max(len(src), bulkWinMax)) // once: windows grow up to bulkWinMax
	}
	d.bulk.validTo, d.bulk.rowByRow = 0, false
	d.bulk.ts.validTo = 0
	rows, ls, k := 0, 0, 0
	stopped := false // stopped at a line for the general path
	kernel := useTypeRows && !typeRowsOff && indent < 8 && len(d.cellAt) > 0
	misses := 0 // calls in a row of typeRows that took no row
	for rows < maxRows {
		if kernel {
			n, st := d.typeRun(q, rows, src, idx, k, ls, indent, maxRows-rows, at)
			if n > 0 {
				at = at[:len(at)+n]
				rows += n
				if typeRowsTook != nil {
					typeRowsTook(n)
				}
				k, ls = d.bulk.ts.k, d.bulk.ts.ls
				misses = 0
			} else if st == typeBail {
				if misses++; misses == 4 {
					kernel = false // lines it leaves to bulkLine, one after another
				}
			}
			switch st {
			case typeFull:
				continue
			case typeHigh:
				if !strict || d.bulk.validRow(src, int(at[len(at)-1]), ls-1) {
					continue
				}
				// The last row is not taken after all.
				ls = int(at[len(at)-1])
				at = at[:len(at)-1]
				rows--
				stopped = true
			case typeStop:
				stopped = true
			}
			if stopped {
				break
			}
		}
		// The line must start with exactly the table's indentation, then
		// content that is not a comment. (A line that runs past the end
		// of the window is left to the next call.)
		if ls+indent >= len(src) {
			break
		}
		if !rowStart(src, ls, indent) {
			stopped = true
			break
		}
		d.fast.setRows(q, d.rowTmpl, rows+1)
		row := q[rows*per : rows*per+per]
		k2, le, high := bulkLine(src, idx, k, ls+indent, delim, d.cellAt, mem.Of(&row[0]), &d.scratch)
		if le < 0 {
			stopped = le == lineStop
			break
		}
		if le-ls > lr.maxLine || high && strict && !d.bulk.validRow(src, ls, le) {
			stopped = true
			break
		}
		k = k2
		at = append(at, int32(ls))
		rows++
		ls = le + 1
	}
	switch {
	case rows == maxRows:
		// The queue filled: next time index about what this call used, so
		// that little is indexed twice (a multiple of 64 bytes, which
		// spares indexRows its padded last block).
		d.bulk.win = min(max((ls+ls/4+64)&^63, bulkWinMin), bulkWinMax)
	case !stopped && len(src) == win:
		// The window ran out before the queue filled: index more next time.
		d.bulk.win = min(2*win, bulkWinMax)
	}
	if rows == 0 {
		d.bulk.at = at[:0] // keep its room for the next call
		if stopped {
			d.bulk.win = bulkWinMin
			d.bulk.cool = bulkCool
		}
		return false
	}
	d.bulk.at = append(at, int32(ls))
	d.bulk.rowLen = ls / rows
	d.bulk.n = rows
	d.bulk.per = per
	d.bulk.src = src
	d.bulk.num0 = lr.lineNum + 1
	d.bulk.off0 = lr.base + int64(start)
	d.bulk.indent = indent
	d.bulk.depth = f.depth
	f.count += rows
	f.fresh = false
	if !d.inFast {
		d.gq = d.queue[:0]
		d.inFast = true
	}
	d.queue = q[:rows*per]
	d.qi = 0
	lr.pos = start + ls
	lr.scanned = lr.pos
	lr.lineNum += rows
	d.cur = lineRef{lr.lineNum, d.bulk.off0 + int64(at[rows-1])}
	lr.keepOff = d.cur.off
	return true
}

// validRow reports whether the row src[s:e] (e its LF, or the CR before
// it) is well-formed UTF-8. The first row that needs the check has the
// window's complete lines from its start checked at once, so that the
// rows after it need none of their own (nor, in typeRows, a return to
// this side): ASCII lines cost little in utf8Valid, and every row is
// checked once.
func (b *bulkRun) validRow(src []byte, s, e int) bool {
	if e <= b.validTo {
		return true
	}
	if !b.rowByRow {
		if end := bytes.LastIndexByte(src, '\n'); end >= e && utf8Valid(src[s:end]) {
			b.validTo = end
			b.ts.validTo = end
			return true
		}
		b.rowByRow = true
	}
	return utf8Valid(src[s:e])
}

// rowStart reports whether the line at src[ls:] starts with exactly
// indent spaces and then content that is not a comment: its byte at
// ls+indent, which must be in src, is not a space, tab, '#', LF or CR. The
// indentation is checked a word at a time: its whole words of spaces, then
// its last bytes (fewer than 8) with the byte after them, in one word
// where src holds it.
func rowStart(src []byte, ls, indent int) bool {
	i, end := ls, ls+indent
	for ; i+8 <= end; i += 8 {
		if binary.LittleEndian.Uint64(src[i:]) != swarSpaces {
			return false
		}
	}
	var c byte
	if i+8 <= len(src) {
		w := binary.LittleEndian.Uint64(src[i:])
		if (w^swarSpaces)&wordMask[(end-i)&7] != 0 {
			return false
		}
		c = byte(w >> (8 * uint((end-i)&7)))
	} else {
		for _, b := range src[i:end] {
			if b != ' ' {
				return false
			}
		}
		c = src[end]
	}
	return rowFirst[c]
}

// swarSpaces is a word of spaces.
const swarSpaces = ' ' * swarLo

// rowFirst tells the bytes that may start a row's content.
var rowFirst = func() (t [256]bool) {
	for i := range t {
		t[i] = true
	}
	for _, c := range " \t#\n\r" {
		t[c] = false
	}
	return t
}()

// What bulkLine reports instead of a line's end.
const (
	lineStop = -1 // the line is for the general path
	lineOpen = -2 // the line does not end inside the window
)

// bulkLine types the cells of one row for bulkRows: the line whose content
// starts at src[cs], whose index entries start at idx[k]. It writes the
// cells' tokens into the row at rp (a copy of the row template, whose cell
// c sits at cellAt[c]), decoding escaped strings into scratch, and returns
// the index of the next line's first entry, the offset of the line's LF,
// and whether the line has bytes >= 0x80; or, in place of the LF's offset,
// lineStop or lineOpen. It is a function of its own so that its loop keeps
// more of its values in registers.
//
// The bytes are read through sp without bounds checks: every offset is
// inside src (the index holds offsets in src, and a cell's bounds lie
// between them).
func bulkLine(src []byte, idx []uint32, k, cs int, delim byte, cellAt []int32, rp mem.Ptr, scratch *[]byte) (next, le int, high bool) {
	sp := mem.BytesData(src)
	c := 0       // cells typed
	nq := 0      // quotes in the current cell
	esc := false // the current cell has a backslash
	kc := k      // the current cell's first index entry
	for {
		if k >= len(idx) {
			return k, lineOpen, false
		}
		p := int(idx[k])
		k++
		b := sp.Byte(p)
		if b != delim && b != '\n' {
			switch {
			case b == '"':
				nq++
				continue
			case b == '\\':
				esc = true
				continue
			case b >= 0x80:
				high = true
				continue
			case b == '\r' && p+1 < len(src) && src[p+1] == '\n':
				continue // a CRLF line end
			}
			// ':' outside quotes, a CR inside the line.
			return k, lineStop, false
		}
		if c >= len(cellAt) {
			return k, lineStop, false // too many cells
		}
		s, e := cs, p
		if b == '\n' && e > s && sp.Byte(e-1) == '\r' {
			e--
		}
		if s < e && (sp.Byte(s) == ' ' || sp.Byte(e-1) == ' ') {
			s, e = trimSpan(src, s, e)
		}
		slot := rp.Add(int(cellAt[c]) * tokenSize)
		switch {
		case nq != 0 || esc:
			// A cell with a quote or a backslash is taken only when it is
			// one well-formed quoted string: a view when it has no escape,
			// else decoded into scratch.
			if src[s] != '"' {
				return k, lineStop, false
			}
			if !esc && nq == 2 && e-s >= 2 && src[e-1] == '"' {
				putToken(slot, textToken(KindString, src[s+1:e-1]))
			} else {
				if len(*scratch)+e-s > cap(*scratch) {
					return k, lineStop, false // scratch would move (see fastQueue)
				}
				u, ok := unquoteIndexed(src[s:e], idx[kc:k-1], s, scratch)
				if !ok {
					var next int
					var err error
					u, next, _, err = unquote(src[s:e], scratch)
					if err != nil || next != e-s {
						return k, lineStop, false
					}
				}
				putToken(slot, textToken(KindString, u))
			}
			nq, esc = 0, false
		case s == e:
			putToken(slot, emptyString())
		default:
			// plainCell, written out: a call for each cell would spill the
			// loop's registers.
			switch primStart[sp.Byte(s)] {
			case primPlain:
				putToken(slot, Token{h: uint64(KindString), p: sp.Add(s), n: e - s})
			case primDigit:
				kind := KindString
				if n := e - s; n <= 8 && s+8 <= len(src) && shortNumber(sp.Load64(s), lenMask[n&15]) ||
					n > 8 && n <= 16 && s+16 <= len(src) && longInteger(sp.Add(s), lenMask[(n-8)&15]) {
					kind = KindNumber
				} else if s+8 <= len(src) && shortText(sp.Load64(s), lenMask[min(n, 8)&15]) {
					// a string ("15s", "512Mi", "2025-05-09"), told without numberAt
				} else if n <= 24 && s+(n+7)&^7 <= len(src) {
					if numberAt(sp.Add(s), n) {
						kind = KindNumber
					}
				} else if isNumber(src[s:e]) {
					kind = KindNumber
				}
				putToken(slot, Token{h: uint64(kind), p: sp.Add(s), n: e - s})
			case primLetter:
				if n := e - s; n <= 5 && s+8 <= len(src) {
					if t, ok := keywordToken(binary.LittleEndian.Uint64(src[s:s+8]), n); ok {
						putToken(slot, t)
					} else {
						putToken(slot, Token{h: uint64(KindString), p: sp.Add(s), n: n})
					}
				} else {
					putToken(slot, plainToken(src[s:e]))
				}
			default:
				putToken(slot, plainToken(src[s:e]))
			}
		}
		c++
		if b == '\n' {
			if c != len(cellAt) {
				return k, lineStop, false
			}
			return k, p, high
		}
		cs, kc = p+1, k
	}
}

// plainNumber24 is plainNumber for a cell of n bytes at p, room readable:
// -1 where fewer than 24 bytes are readable, or n is 24 or more.
func plainNumber24(p mem.Ptr, n, room int) int {
	if n >= 24 || room < 24 {
		return -1
	}
	return plainNumber(p)
}

// plainCell returns the token of a plain cell: the n bytes at p, of which
// room are readable (n <= room), neither empty nor quoted, with no space
// around them. The common cells are typed from their words, with no loop
// over their bytes: a plain string by its first byte, a number of up to 16
// bytes by shortNumber or longInteger, a string that starts with digits by
// shortText, a keyword by keywordToken; a longer cell by plainNumber, a
// number when that reads it whole, a string when the byte after the
// number it reads is one that no number has there; numberAt, isNumber and
// plainToken settle the rest.
func plainCell(p mem.Ptr, n, room int) Token {
	switch primStart[p.Byte(0)] {
	case primPlain:
		return Token{h: uint64(KindString), p: p, n: n}
	case primDigit:
		kind := KindString
		if n <= 8 && room >= 8 && shortNumber(p.Load64(0), lenMask[n&15]) ||
			n > 8 && n <= 16 && room >= 16 && longInteger(p, lenMask[(n-8)&15]) {
			kind = KindNumber
		} else if room >= 8 && shortText(p.Load64(0), lenMask[min(n, 8)&15]) {
			// a string ("15s", "512Mi", "2025-05-09"), told without numberAt
		} else if e := plainNumber24(p, n, room); e == n {
			kind = KindNumber // most longer numbers (fractions)
		} else if e >= 0 && e < n && p.Byte(e)|0x20 != 'e' {
			// a string: its first bytes are a number's, the byte after
			// them one that no number has there ("10.0.0.12")
		} else if n <= 24 && room >= (n+7)&^7 {
			if numberAt(p, n) {
				kind = KindNumber
			}
		} else if isNumber(mem.BytesAt(p, n)) {
			kind = KindNumber
		}
		return Token{h: uint64(kind), p: p, n: n}
	case primLetter:
		if n <= 5 && room >= 8 {
			if t, ok := keywordToken(p.Load64(0), n); ok {
				return t
			}
			return Token{h: uint64(KindString), p: p, n: n}
		}
	}
	return plainToken(mem.BytesAt(p, n))
}

// The keywords as little-endian words, and wordMask[n], the mask of a
// word's first n bytes, to compare a cell of n bytes with them.
const (
	wordTrue  = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
	wordNull  = 'n' | 'u'<<8 | 'l'<<16 | 'l'<<24
	wordFalse = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
)

var wordMask = [8]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff}

// keywordToken returns the token of a value of n <= 5 bytes, whose bytes
// are the low bytes of w (little endian; what follows them does not
// matter), when it is true, false or null; ok is false for any other.
// The length is compared with the bytes: "true" and "null" masked to 5
// bytes are also values of 5 bytes whose last is 0. It is small enough to
// be inlined into the loops that type values.
func keywordToken(w uint64, n int) (t Token, ok bool) {
	switch w&wordMask[n&7] | uint64(n)<<56 {
	case wordTrue | 4<<56:
		return Token{h: uint64(KindBool), n: 1}, true
	case wordFalse | 5<<56:
		return Token{h: uint64(KindBool)}, true
	case wordNull | 4<<56:
		return Token{h: uint64(KindNull)}, true
	}
	return Token{}, false
}

// syncLine makes d.line the line of the token at index q of the queue,
// when the fast path queued it (the fast path does not keep d.line
// current).
func (d *Decoder) syncLine(q int) {
	b := &d.bulk
	if b.n == 0 {
		return
	}
	r := min(q/b.per, b.n-1)
	s, e := int(b.at[r]), int(b.at[r+1])-1 // e: the LF
	if e > s && b.src[e-1] == '\r' {
		e--
	}
	d.line = rawLine{
		full:   b.src[s:e],
		text:   b.src[s+b.indent : e],
		num:    b.num0 + r,
		off:    b.off0 + int64(s),
		spaces: b.indent,
		depth:  b.depth,
	}
}

// lenMask[n] is the SWAR mask of the first n bytes of a word (0x80 in
// each), for n from 0 to 8; the table is padded to 16 entries so that an
// index masked with 15 needs no bounds check.
var lenMask = [16]uint64{0, 0x80, 0x8080, 0x808080, 0x80808080, 0x8080808080,
	0x808080808080, 0x80808080808080, 0x8080808080808080}

// shortNumber reports whether the bytes of w that valid selects (valid is
// lenMask[n] for a cell of 1 <= n <= 8 bytes, w its bytes little endian,
// anything after them) are a plain integer or decimal number: digits with
// at most one '.' between digits, and no leading zero before another
// digit. It decides without a per-byte branch, and is small enough to be
// inlined. It may report false for a number (a sign, an exponent), which
// bulkLine and plainCell then settle with numberAt.
func shortNumber(w, valid uint64) bool {
	nd := nonDigits(w) & valid // the cell's bytes that are no digit
	// No non-digit, or a single '.' that is neither first nor last; and a
	// leading '0' only alone or before the '.'.
	return (nd == 0 || nd&(nd-1) == 0 && byte(w>>(bits.TrailingZeros64(nd)-7)) == '.' && nd&(valid>>8)&^0x80 != 0) &&
		(byte(w) != '0' || byte(w>>8) == '.' || valid == 0x80)
}

// shortText reports whether the bytes of w that valid selects cannot be a
// number by §4's grammar, for a cell whose first byte is a digit (w its
// first bytes, little endian; valid is lenMask[min(n, 8)] for a cell of n
// bytes): a number that starts with a digit goes on with digits up to a
// '.', an 'e' or an 'E', or its end, so a cell whose first non-digit byte
// is any other (the unit of "15s", "512Mi", "25%", the letter of a code,
// the '-' of a date) is a string, whatever follows it. It reports false
// when it cannot tell so from those bytes: for digits alone, a first
// non-digit byte that is one of those three, or a first byte that is no
// digit ('-').
func shortText(w, valid uint64) bool {
	nd := nonDigits(w) & valid
	c := byte(w >> (bits.TrailingZeros64(nd|1<<63) - 7))
	return nd != 0 && nd&0x80 == 0 && c != '.' && c|0x20 != 'e'
}

// longInteger reports whether the 9 to 16 bytes at p (16 bytes readable)
// that valid selects in the second word (lenMask[n-8] for a cell of n
// bytes; the bytes after them may be anything) are an integer of 9 to 16
// digits (ids, timestamps, byte counts): all digits, the first not '0'.
// The second word is read only when the first is all digits. It may
// report false for a number, which bulkLine and plainCell then settle with
// numberAt.
func longInteger(p mem.Ptr, valid uint64) bool {
	w := p.Load64(0)
	return nonDigits(w) == 0 && byte(w) != '0' && nonDigits(p.Load64(8))&valid == 0
}

// typeChunk is about how many cells typeRows types per call.
const typeChunk = 512

// typeRun calls typeRows over src from line ls and index entry k, for at
// most max rows and about typeChunk cells, writing their cells into the
// queue q from row r0 on, with the rows' starts appended to at (which has
// room for them). It returns the rows taken and what typeRows returned;
// the next line's ls and k are in d.bulk.ts.
func (d *Decoder) typeRun(q []Token, r0 int, src []byte, idx []uint32, k, ls, indent, max int, at []int32) (int, int) {
	nc := len(d.cellAt)
	per := len(d.rowTmpl)
	max = min(max, (typeChunk+nc-1)/nc)
	d.fast.setRows(q, d.rowTmpl, r0+max)
	if len(d.bulk.slots) == 0 {
		for _, a := range d.cellAt {
			d.bulk.slots = append(d.bulk.slots, uint32(int(a)*tokenSize))
		}
	}
	ts := &d.bulk.ts
	if ts.class.IsNil() {
		ts.setTables()
	}
	ts.src = mem.BytesData(src)
	ts.srcLen = len(src)
	ts.idx = mem.SliceData(idx)
	ts.idxLen = len(idx)
	ts.k = k
	ts.ls = ls
	ts.indent = indent
	ts.maxLine = d.lr.maxLine
	ts.maxRows = max
	ts.row = mem.Of(&q[r0*per])
	ts.stride = per * tokenSize
	ts.slots = mem.SliceData(d.bulk.slots)
	ts.slotsEnd = ts.slots.Uintptr() + uintptr(4*nc)
	ts.at = mem.SliceData(at[len(at):cap(at)])
	ts.rows = 0
	ts.plain = 0
	ts.delim = uint64(d.hdr.delim)
	ts.indMask = wordMask[indent&7]
	st := typeRows(ts)
	if ts.plain != 0 {
		// Cells left to this side: kind 0 for plainToken, kind 1 for
		// unquote, with their text in place. A cell unquote rejects ends
		// the rows taken before its row, which the general path then reads.
		rows := q[r0*per : (r0+ts.rows)*per]
		for r := 0; r < ts.rows; r++ {
			row := rows[r*per : r*per+per]
			for _, a := range d.cellAt {
				t := &row[a]
				if t.h > 1 {
					continue
				}
				b := mem.BytesAt(t.p, t.n)
				if t.h == 0 {
					putToken(mem.Of(t), plainToken(b))
					continue
				}
				if len(d.scratch)+len(b) > cap(d.scratch) {
					return d.typeStop(r, at) // scratch would move (see fastQueue)
				}
				u, next, _, err := unquote(b, &d.scratch)
				if err != nil || next != len(b) {
					return d.typeStop(r, at)
				}
				putToken(mem.Of(t), textToken(KindString, u))
			}
		}
	}
	return ts.rows, st
}

// typeStop ends typeRun's rows at row r of its call, whose start at
// records, and returns r and typeStop with ts.ls at that row.
func (d *Decoder) typeStop(r int, at []int32) (int, int) {
	d.bulk.ts.ls = int(at[len(at):cap(at)][r])
	return r, typeStop
}
