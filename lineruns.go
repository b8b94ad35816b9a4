package toon

import (
	"encoding/binary"
	"math/bits"

	"github.com/toonstream/toon/internal/mem"
)

// This file holds the decoder's runs of simple lines. In a nested document
// most lines are field lines (`key: value`, or `key:` opening an object) of
// the object at their depth, or list items whose first field is on the
// hyphen line, and many close the objects above them. For such lines the
// general path (refill, step, readLine, scopeOf, fieldLine) repeats, a line
// at a time, work whose outcome is known. runLines instead takes the lines
// that follow the one step handled straight out of the line reader's
// buffer, and queues their tokens behind that line's, up to runTokens.
//
// Like the table fast path (fastrows.go), runLines decides nothing of its
// own: it takes a line only when the general path would take it without an
// error and queue the same tokens, and it stops at the first line that is
// anything else (a header other than a plain key's inline primitive array,
// list or table whose fields segment the header parser has seen, a key that
// is neither plain nor a quoted key followed by its colon, a table row, a
// comment, a blank line, a tab or an odd width in the indentation, a
// deeper line, a scope that would close with a wrong count, a duplicate
// key, a bad quoted value, ill-formed UTF-8, a line longer than the limit
// or not yet wholly in the buffer), leaving that line to step, which
// decides what it is and reports any error with its position. Nothing is changed before the line is known
// to be taken, except the scratch memory a quoted value was unescaped into.
//
// The field lines of objects, the bulk of most documents, are taken by a
// loop of their own (runFields), which holds fewer values than the loop
// for every kind of line and so keeps more of them in registers; a plain
// key followed by an array header it hands to runArray. The entries of a
// keyed object are taken by another such loop (runEntries). runLines takes
// the line they stop at, if it can, and calls them again.
//
// The queued tokens are views into the line reader's buffer, which does not
// move until the queue is empty (it refills only from step), and into
// scratch, which readLine empties only when the queue is empty; an array
// scratch outgrows in a run is kept until then (scratchRoom), as the
// collector does not scan the queue's memory (queueMemory). A run never
// starts beside the lazy sources of a line (rowChunk, inlineChunk) or the
// fast path's queue. The headers it reads are those of inline primitive
// arrays and lists, which have no field list, and those of tables whose
// fields segment the header parser has seen (runField, runTable), whose
// field lists stay in the parser's memory until step parses a header,
// after the queue is empty.

// runTokens is the most tokens a run queues: it bounds the general queue's
// memory (24 KiB of tokens). A run that fills the queue ends there, and
// the next pays runLines's set-up and a new window of masks once the
// queue is read, so a smaller bound costs nested documents time (at 256,
// about 3% of config's Token and 5% of orders').
const runTokens = 1024

// runLinesOff turns runs off: only tests set it (lineruns_test.go), to
// compare runs with the general path.
var runLinesOff bool

// lineMark records where the tokens of one line of a run begin in the
// queue, where the line begins in the line reader's buffer, which stays in
// place while the queue holds its tokens, and its number: the line of a
// token can be found again (tokenLine). The rest of the line is read from
// the buffer when it is asked for (runLine).
//
// A run marks every line it takes but its pair lines: the field lines
// runFields takes, other than the run's first, that close no scope and
// queue two tokens (a key and its value or ObjectStart), which most
// lines of a nested document are. The lines of a run follow one another,
// so the pair lines after a mark are those numbered before the next
// mark's line (or up to the run's last line), and their tokens are the
// last before the next mark's first (or the queue's end). A pair line's
// key (the text of a quoted one, after its opening quote) lies in the
// buffer after the line's indentation, which gives its start (pairStart).
type lineMark struct {
	q     int // index in the queue of the line's first token
	start int // index of the line in the line reader's buffer
	num   int // the line's number
}

// lineRuns is the decoder's record of the run in the queue: marks for the
// lines runLines took but its pair lines (lineMark), the number of the
// last, and first, the line that step handled before them, whose tokens
// are the first in the queue. marks is empty when the queue holds no run.
type lineRuns struct {
	marks  []lineMark
	numEnd int // the number of the run's last line
	first  rawLine
	at     rawLine // tokenLine's result for a line of the run
	// halted: the last run stopped at a line it does not take, which step
	// must read; false when it stopped for room in the queue, or when
	// other lines have been taken since (refill then starts a run before
	// any step).
	halted bool
	vals   []Token // the values of an inline array, until its line is taken
	head   runHead // the header runField found last, until its line is taken
}

// closeFails reports whether closing scope f (pop) would fail: a list,
// table or keyed object whose count is not the declared one, in strict
// mode.
func closeFails(f *frame, strict bool) bool {
	return strict && f.count != f.n && (f.kind == fList || f.kind == fTabular || f.kind == fKeyed)
}

// runLines queues the tokens of the simple lines that follow in the
// buffer, as many as it can take, up to runTokens (see the top of this
// file). It is called by refill once the queue holds the tokens of a line
// and no error, or with the queue empty where no line is left to step
// (halted).
func (d *Decoder) runLines() {
	// A queue holds the lines of one run at most (refill empties the
	// marks first), which the numbering of marks relies on (lineMark).
	if runLinesOff || len(d.marks) != 0 || d.inFast || d.done || d.pi < len(d.prog) || d.ci < len(d.cells)/2 || d.blank.num != 0 || len(d.stack) == 0 {
		return
	}
	if f := &d.stack[len(d.stack)-1]; f.rowsAhead() && !d.runRows(f) {
		return // rows follow, which the fast path or step takes
	}
	// The position in the buffer and the line count are kept in locals
	// while the run goes on, and stored back when it ends. The queue and
	// the marks are read and stored back by each line taken, once it is
	// known to be taken: they are not live while a line is read, which
	// leaves registers to its reading. The last two lines taken (d.end and
	// d.cur, which no error of a run needs before then) are set when it
	// ends, from num and the starts the marks hold.
	lr := &d.lr
	strict := d.opts.strict
	maxDepth := d.opts.maxDepth
	// buf's capacity ends with the bytes read, as the views of it do: the
	// words read past a value (runValue, runCells) are input, and never
	// memory after it (the caller's slice, for a decoder of bytes).
	buf := lr.buf[:lr.end:lr.end]
	pos, num := lr.pos, lr.lineNum
	fields := lr.shift >= 0 // runFields's condition
	win := lineWindow{at: -64}
lines:
	for len(d.queue) < runTokens {
		// The line at pos, when the whole of it is in the buffer: its LF,
		// and whether its bytes are all below 0x80 (known only for a line
		// scanned from its start). runFields finds it when it stops at
		// it; otherwise lineEnd does (for the run's first line, from
		// lr.scanned: readLine may have scanned part of the line for it
		// before).
		e, ascii := -1, false
		if fields {
			if pos, num, e, ascii = d.runFields(buf, pos, num, &win); len(d.queue) >= runTokens {
				break
			}
		}
		// At a table's rows (one a header of this run opened, or the one
		// the run began in), the run ends where runs do not take them, as
		// at its start; the entries of a keyed object runEntries takes.
		if f := &d.stack[len(d.stack)-1]; f.rowsAhead() {
			if !d.runRows(f) {
				break // rows follow, which the fast path or step takes
			}
			p := pos
			if pos, num = d.runEntries(buf, pos, num); pos != p {
				continue
			}
		} else if f.kind == fList {
			p := pos
			if pos, num = d.runItems(buf, pos, num); pos != p {
				continue
			}
		}
		if e < 0 {
			i := pos
			if pos == lr.pos {
				i = lr.scanned // the run's first line
			}
			if e, ascii = lineEnd(buf, i, 0, i == pos); e < 0 {
				break
			}
		}
		if e-pos > lr.maxLine {
			break
		}
		end := e // the line's end, before a CR
		if end > pos && buf[end-1] == '\r' {
			end--
		}
		sp := leadingSpaces(buf[pos:end])
		if pos+sp >= end {
			break // a blank line
		}
		text := buf[pos+sp : end] // its capacity reaches buf's (runValue)
		if c := text[0]; c == '#' || c == '\t' {
			break // a comment, or a tab in the indentation
		}
		depth, odd := lr.depthOf(sp)
		if odd || strict && !ascii && !validUTF8(text) {
			break
		}
		// The scopes the line closes, and the one it belongs to.
		top := len(d.stack) - 1
		for top >= 0 && d.stack[top].depth > depth && !closeFails(&d.stack[top], strict) {
			top--
		}
		if top < 0 || d.stack[top].depth != depth {
			break
		}
		f := &d.stack[top]
		// The line's key and value, and the scopes it opens.
		var k, v []byte
		// kat: the offset in buf of a key read from the line (followed
		// there by the rest of the line and its LF), -1 for a key
		// unquoted into scratch or out of its quotes.
		kat := -1
		item := false
		var hk uint8 // the kind of a header on the line (d.head), runNone: none
		switch f.kind {
		case fObject, fItem:
			// Most field lines are runFields's; the rest have a quoted key,
			// a header, or a value runFields leaves here.
			k, v, hk = d.runField(text, plainKeyEndAt(buf, pos+sp))
			kat = keyAt(k, text, pos+sp)
		case fList:
			if len(text) < 2 || text[0] != '-' || text[1] != ' ' || strict && f.count >= f.n {
				break
			}
			rest := text[2:]
			for len(rest) > 0 && rest[0] == ' ' {
				rest = rest[1:]
			}
			at := end - len(rest)
			k, v, hk = d.runField(rest, plainKeyEndAt(buf, at))
			kat = keyAt(k, rest, at)
			item = true
		}
		if k == nil {
			break
		}
		if n := len(v); n > 0 && (v[0] == ' ' || v[n-1] == ' ') {
			v = trimSpaces(v) // rare: the loops are left out of most lines
		}
		var t Token
		opens := 0 // scopes the line opens
		switch {
		case hk != runNone:
			if !d.arrayValues(hk, v) {
				break lines // step reads it, or reports the error
			}
			opens = 1 // the array's level (openArray's depth check)
		case len(v) == 0:
			opens = 1
		case string(v) == "[]":
		case v[0] != '"':
			t = runValue(buf, v)
		default:
			s, next, _, err := d.unquote(v)
			if err != nil || next != len(v) {
				break lines // step reports the error
			}
			t = textToken(KindString, s)
		}
		if item {
			opens++
		}
		if top+1+opens > maxDepth {
			break
		}
		var kw keyWord // the key's words (keyWordsOf)
		if strict {
			// A key read from the line is followed in the buffer by the
			// rest of the line and its LF: its words are read from there.
			kw = keyWordsAt(buf, k, kat)
			if !item {
				// The common case of addWords, addNew, is inlined.
				if ks := &f.keys; !ks.addNew(len(k), kw) && !ks.addWords(k, kw) {
					break // a duplicate key
				}
			}
		}

		// The line is taken: the general path's steps, without their checks.
		num++
		d.runTake(top, pos, num)
		d.queueRoom(4) // the most tokens a line adds but its values
		q := d.queue
		pos = e + 1
		if item {
			f.count++
			q = pushToken(q, ObjectStartToken())
			f, _ = d.push(fItem, depth+1, -1)
			if strict && !f.keys.addNew(len(k), kw) {
				f.keys.addWords(k, kw) // the first key of the new object, a long one: the set is empty
			}
			depth++
		}
		q = pushToken(q, KeyToken(k))
		switch {
		case hk != runNone:
			d.queue = q
			rows := d.queueArray(hk, k, depth)
			q = d.queue
			if rows {
				// Rows follow, which runs leave to the fast path or
				// step (runRows): the run ends here rather than read
				// the next line only to stop at it.
				break lines
			}
		case len(v) == 0:
			q = pushToken(q, ObjectStartToken())
			f, _ = d.push(fObject, depth+1, -1)
			f.fresh = true
		case string(v) == "[]":
			q = pushToken(pushToken(q, ArrayStartToken(0, FormEmpty, 0, nil)), ArrayEndToken())
		default:
			q = pushToken(q, t)
		}
		d.queue = q
	}
	d.halted = len(d.queue) < runTokens
	if len(d.marks) > 0 { // lines were taken
		lr.pos, lr.scanned, lr.lineNum = pos, pos, num
		d.numEnd = num
		// The last two lines taken: the run's last two, or the line
		// before it and its only one.
		if num > d.marks[0].num {
			d.end = lineRef{num - 1, lr.base + int64(d.runLineStart(num-1))}
		} else {
			d.end = d.cur
		}
		start := d.runLineStart(num)
		d.cur = lineRef{num, lr.base + int64(start)}
		lr.keepOff = d.cur.off
		d.rowKept = false
		d.line = d.runLine(num, start)
	}
}

// runFields takes from pos on the lines most of a nested document is made
// of: a field line of the object or list item at its depth, whose key
// (plain, or quoted with no escape) is followed by its colon and a value,
// or by nothing (an object opens), or, a plain key, by an array header,
// which runArray takes (after a table header whose rows runs leave to the
// fast path, it returns with e -1: the run ends there). It takes a line
// only when the line is in the buffer with the bytes it is read by: where
// the CPU has lineMasksAVX2, the 64 bytes of win's masks (linemasks.go),
// which runLines keeps from call to call; else the 32 bytes from the line's
// start. It returns at the first line it does not take, for the rest of
// runLines to take or stop at: with the offset of that line's LF, and
// whether its bytes are all below 0x80, when it found them (else e is -1).
// It needs an indent size that is a power of two (the depth is a shift of
// the indentation).
//
// A line queues two tokens after the ends of the scopes it closes, which
// runTake queues with room for those two: with room for runTokens+2 from
// the start, the queue has room for a line's two whenever the loop goes
// on, and they are stored with no growth to check for. (runArray appends
// its tokens, growing the queue as needed, which keeps that room.)
//
// One loop reads each line and takes it. Split into a pass that records
// the shape of a batch of lines (LF, indentation, colon, value) and a
// pass that takes the records, the same work cost 8% more instructions
// with both passes in Go; with the first pass an AVX2 kernel, 6% fewer on
// config and orders, but took as long (new/old rate: config 0.98x to
// 1.01x, orders 1.01x to 1.04x, in paired runs).
func (d *Decoder) runFields(buf []byte, pos, num int, win *lineWindow) (_, _, e int, ascii bool) {
	d.queueRoom(runTokens + 2 - len(d.queue))
	// The bytes of a line are read through bp at indexes the loop has
	// held to the line (from pos to e, e < len(buf)), or to len(buf):
	// buf[i]'s bounds checks were 6% of its instructions.
	bp := mem.BytesData(buf)
	// d.opts.strict and useLineMasksAVX2 are read where they are tested,
	// not copied to locals: as locals they were spilled and reloaded at
	// every line (2.5% of the loop's instructions on config).
	for e = -1; len(d.queue) < runTokens; e = -1 {
		// The line's LF (e), whether its bytes are all below 0x80, its
		// indentation (sp), and the length of its key (i), from its first
		// byte to the first byte after it that is no key character, 0
		// where that byte was not found.
		var sp, i int
		if useLineMasksAVX2 { // lines are read by win's masks, else by words
			// win's masks shifted to the line's start, when it starts in
			// them and its LF is in them too, else those of the 64 bytes
			// from its start. The key ends at the first byte that is no
			// key character in them (at or before the LF, when that is in
			// them).
			sh := uint(pos - win.at)
			lf := win.m.lf >> (sh & 63)
			if sh >= 64 || lf == 0 && sh != 0 {
				if pos+64 > len(buf) {
					break
				}
				win.at, sh = pos, 0
				lineMasksAVX2(mem.As[[64]byte](bp.Add(pos)), &win.m)
				lf = win.m.lf
			}
			sh &= 63 // (it is below 64: a mask the compiler sees)
			hi := win.m.hi >> sh
			if lf != 0 {
				e = pos + bits.TrailingZeros64(lf)
				ascii = hi&(lf&-lf-1) == 0
			} else {
				var h uint64 // lineEnd's flags of the bytes before pos+64
				if hi != 0 {
					h = swarHi
				}
				if e, ascii = lineEnd(buf, pos+64, h, true); e < 0 || e-pos > d.lr.maxLine {
					break
				}
			}
			// The first byte from the line's start that is no space, at t
			// in the window, is found in the mask with the bytes before
			// the line cleared by an AND, which sets every flag: a bit
			// scan whose flags come from a shift by a variable count is
			// slow on some CPUs (TestNoBitScanAfterVariableShift). t is
			// 64 only where sh is 0 and the 64 bytes are spaces (else the
			// line's LF, in the window, is no space); that line, and one
			// whose first byte that is no space is the window's last (t
			// 63), are left to leadingSpaces.
			t := bits.TrailingZeros64(^win.m.sp & (^uint64(0) << sh))
			if sp = t - int(sh); t >= 63 {
				sp = leadingSpaces(buf[pos:e])
			}
			if nk := ^(win.m.key >> sh) >> (uint(sp+1) & 63); sp < 63 && nk != 0 {
				i = 1 + bits.TrailingZeros64(nk)
			}
		} else {
			// By words: the line's first 32 bytes (lineBlock) as four;
			// the key is found below, once the line is known to be one
			// of a field.
			if pos+lineBlock > len(buf) {
				break
			}
			blk := buf[pos : pos+lineBlock]
			w0 := binary.LittleEndian.Uint64(blk[0:])
			w1 := binary.LittleEndian.Uint64(blk[8:])
			w2 := binary.LittleEndian.Uint64(blk[16:])
			w3 := binary.LittleEndian.Uint64(blk[24:])
			e = pos + firstFlag(lfFlags(w0), lfFlags(w1), lfFlags(w2), lfFlags(w3))
			ascii = (w0|w1|w2|w3)&swarHi == 0
			if e == pos+lineBlock {
				if e, ascii = lineEnd(buf, e, w0|w1|w2|w3, true); e < 0 || e-pos > d.lr.maxLine {
					break
				}
			}
			if sp = firstNonSpace(w0, w1); sp == lineBlock/2 {
				sp = leadingSpaces(buf[pos:e])
			}
		}
		// A line whose LF was found in the 64 or 32 bytes from its start
		// is shorter than maxLine, which is 64 at least
		// (WithMaxLineLength): only a line lineEnd ended is checked.
		end := e
		if end > pos && bp.Byte(end-1) == '\r' {
			end--
		}
		// The indentation ends at or before the LF: a line of spaces
		// ends at a byte that starts no key (an LF, or a CR). A key is
		// plain, or quoted (below).
		at := pos + sp
		if sp&(d.lr.indent-1) != 0 {
			break
		}
		if keyStart[bp.Byte(at)] == 0 {
			// A quoted key with no escape (unquote's view of its text),
			// followed by its colon: at moves to its text, and i to the
			// colon, after the closing quote, which the key's length
			// (kn, below) leaves out. A quoted key with an escape, or
			// followed by a header, is runLines's.
			if bp.Byte(at) != '"' {
				break
			}
			k, next, _, err := d.unquote(buf[at:end])
			if err != nil || len(k) == 0 || len(k) != next-2 || bp.Byte(at+next) != ':' {
				break
			}
			at, i = at+1, next-1
		}
		depth := sp >> (uint(d.lr.shift) & 63)
		if !ascii && d.opts.strict && !validUTF8(buf[at:end]) {
			break
		}
		// The line's scope: most lines belong to the innermost (the
		// stack is not empty in a run); others close the scopes above
		// theirs.
		top := len(d.stack) - 1
		f := &d.stack[top]
		if f.depth != depth {
			for top >= 0 && d.stack[top].depth > depth && !closeFails(&d.stack[top], d.opts.strict) {
				top--
			}
			if top < 0 || d.stack[top].depth != depth {
				break
			}
			f = &d.stack[top]
		}
		if f.kind != fObject && f.kind != fItem {
			break
		}
		// By words, most keys are of up to sixteen bytes: those are found
		// without a call (a seventeenth key byte takes plainKeyEndAt), the
		// second eight only for keys longer than eight.
		if !useLineMasksAVX2 && i == 0 && at+17 <= len(buf) {
			m := keyChars(buf[at+1 : at+9])
			if m == 0xff {
				m |= keyChars(buf[at+9:at+17]) << 8
			}
			if m != 0xffff {
				i = 1 + bits.TrailingZeros(^m)
			}
		}
		if i == 0 {
			i = plainKeyEndAt(buf, at)
		}
		c := at + i
		if c >= end || bp.Byte(c) != ':' {
			if c < end && bp.Byte(c) == '[' {
				// An array header after the key, which runArray takes.
				if ok, rows := d.runArray(buf, pos, at, c, end, num+1, top); ok {
					num++
					pos = e + 1
					if rows {
						e = -1
						break
					}
					continue
				}
			}
			break
		}
		j := c + 1
		if j < end && bp.Byte(j) == ' ' {
			j++
		}
		// The key's length: to its colon, but for a quoted key's closing
		// quote (a plain key's last byte is a key character).
		kn := c - at
		if bp.Byte(c-1) == '"' {
			kn--
		}
		var t Token
		quoted := false
		if j == end {
			if top+2 > d.opts.maxDepth {
				break
			}
		} else if b0, bl := bp.Byte(j), bp.Byte(end-1); b0 == ' ' || bl == ' ' || b0 == '[' && bl == ']' && end-j == 2 {
			break
		} else if b0 == '"' {
			d.scratchRoom(end - j) // d.unquote, written out: it does not inline
			s, next, _, err := unquote(buf[j:end], &d.scratch)
			if err != nil || next != end-j {
				break
			}
			t, quoted = textToken(KindString, s), true
		}
		if d.opts.strict {
			// The key's words as runLines reads them, written out: a
			// function of both does not inline (it cost 4.5% more
			// Token instructions on config and orders).
			var kw keyWord
			if at+shortKey <= len(buf) {
				kw = keyWords(bp.Add(at), kn)
			} else {
				kw = keyWordsOf(buf[at : at+kn])
			}
			if ks := &f.keys; !ks.addNew(kn, kw) && !ks.addWords(buf[at:at+kn], kw) {
				break
			}
		}
		num++
		// A pair line (lineMark) needs no mark: only the run's first
		// line and a line that closes scopes are marked here.
		if len(d.marks) == 0 || top != len(d.stack)-1 {
			d.runTake(top, pos, num)
		}
		f.fresh = false
		pos = e + 1
		switch {
		case j == end:
			t = ObjectStartToken()
			// push, for a stack with room (the depth was checked
			// above): no call on most lines.
			if len(d.stack) < cap(d.stack) {
				f = d.openFrame(fObject, depth+1, -1)
				f.line = num
			} else {
				d.line.num = num // push records it
				f, _ = d.push(fObject, depth+1, -1)
			}
			f.fresh = true
		case quoted:
		default:
			// The common values are typed here, as bulkLine types a
			// cell, so that most lines make no call: a plain string, a
			// keyword, a short plain number (shortNumber). runValue
			// settles the others.
			n := end - j
			t = Token{h: uint64(KindString), p: bp.Add(j), n: n}
			if j+8 <= len(buf) {
				switch w := bp.Load64(j); primStart[byte(w)] {
				case primPlain:
				case primDigit:
					if n > 8 {
						// a date or a longer number: its first word tells most
						// dates and codes from numbers
						if !shortText(w, lenMask[8]) {
							t = runValue(buf, buf[j:end])
						}
					} else if shortNumber(w, lenMask[n&15]) {
						t.h = uint64(KindNumber)
					} else if !shortText(w, lenMask[n&15]) {
						t = runValue(buf, buf[j:end])
					}
				case primLetter:
					if n <= 5 {
						if k, ok := keywordToken(w, n); ok {
							t = k
						}
					}
				}
			} else {
				t = runValue(buf, buf[j:end])
			}
		}
		// The line's two tokens, its key and t, in the room made for
		// them (above): only the length is stored in d.queue, with no
		// write barrier, and the tokens are stored in its memory once
		// the line's calls are behind.
		qn := len(d.queue)
		d.queue = d.queue[:qn+2]
		qp := mem.Of(&d.queue[qn])
		putToken(qp, Token{h: uint64(KindKey), p: bp.Add(at), n: kn}) // a key of one byte or more
		putToken(qp.Add(tokenSize), t)
	}
	return pos, num, e, ascii
}

// runArray takes for runFields a field line of the object d.stack[top]
// whose plain key, at at in buf, is followed at c by an array header: an
// inline primitive array with its values, a list's header, or a table
// whose fields segment the header parser has seen. It is runLines's case
// for such a line, for a line runFields has read up to the key (its end,
// indentation, depth and scope), and reports whether it took the line,
// numbered num, and whether rows of a tabular array follow, at which the
// run ends (runRows).
func (d *Decoder) runArray(buf []byte, pos, at, c, end, num, top int) (ok, rows bool) {
	k, v, hk := d.runField(buf[at:end], c-at)
	if hk == runNone {
		return false, false
	}
	if n := len(v); n > 0 && (v[0] == ' ' || v[n-1] == ' ') {
		v = trimSpaces(v)
	}
	if !d.arrayValues(hk, v) || top+2 > d.opts.maxDepth {
		return false, false // step reads it, or reports the error
	}
	f := &d.stack[top]
	if d.opts.strict {
		if kw := keyWordsAt(buf, k, at); !f.keys.addNew(len(k), kw) && !f.keys.addWords(k, kw) {
			return false, false // a duplicate key
		}
	}
	if !d.addMark(top, pos, num) {
		d.runTake(top, pos, num)
	}
	f.fresh = false
	d.queue = appendToken(d.queue, KeyToken(k))
	d.line.num = num // push records it
	return true, d.queueArray(hk, k, f.depth)
}

// arrayValues reports whether v, the text after the colon of an array
// header of kind hk (d.head) trimmed of spaces, is what runs take there:
// an inline array's values (split into d.vals, as many as declared in
// strict mode), or nothing after a list's or a table's header.
func (d *Decoder) arrayValues(hk uint8, v []byte) bool {
	if hk == runInline {
		// An array declared longer than a lazy chunk is left to the
		// general path at once, rather than after runCells has typed a
		// chunk of it.
		return len(v) != 0 && d.head.n <= lazyChunk && d.runCells(v, d.head.delim) && (!d.opts.strict || len(d.vals) == d.head.n)
	}
	return len(v) == 0
}

// queueArray queues, after the Key token of k, which stands at depth, the
// array of its header of kind hk (d.head): an inline array's start,
// values (arrayValues) and end, a list's start and scope, as openArray
// opens them, or the table runTable opens. It returns runTable's report
// of rows to come.
func (d *Decoder) queueArray(hk uint8, k []byte, depth int) bool {
	switch hk {
	case runList:
		// Its items follow, which runItems or step reads. (The caller
		// checked the depth: push cannot fail.)
		d.queue = appendToken(d.queue, ArrayStartToken(d.head.n, FormList, Delimiter(d.head.delim), nil))
		d.push(fList, depth+1, d.head.n)
		return false
	case runTabular, runKeyed:
		return d.runTable(k, depth)
	}
	q := appendToken(d.queue, ArrayStartToken(d.head.n, FormInline, Delimiter(d.head.delim), nil))
	q = appendTokens(q, d.vals...)
	d.queue = appendToken(q, ArrayEndToken())
	return false
}

// runEntries takes from pos on the entries of the keyed object at the top
// of the stack, whose rows runs take (runRows): lines of a key, its colon
// and the entry's cells, at the object's depth, while it has fewer entries
// than its header declared. It is the runs' only reader of entries, a
// loop of its own that reads none of runLines's other cases, and it
// returns at the first line it does not take, at which the run stops
// (step takes it). Entries beyond the declared count, which non-strict
// mode accepts, are left to step too.
func (d *Decoder) runEntries(buf []byte, pos, num int) (int, int) {
	top := len(d.stack) - 1
	f := &d.stack[top]
	strict := d.opts.strict
	sp := f.depth * d.lr.indent // the entries' indentation
	for f.count < f.n && len(d.queue) < runTokens {
		// The entries' indentation first (a shorter line's LF is no
		// space), then the LF after it.
		at := pos + sp
		if at >= len(buf) || leadingSpaces(buf[pos:at]) != sp {
			break // a shallower or blank line, or a tab or too few spaces
		}
		e, ascii := lineEnd(buf, at, 0, true)
		if e < 0 || e-pos > d.lr.maxLine {
			break
		}
		end := e
		if end > pos && buf[end-1] == '\r' {
			end--
		}
		if at >= end {
			break // a line of spaces
		}
		text := buf[at:end] // its capacity reaches buf's (runCells)
		if !ascii && strict && !validUTF8(text) {
			break
		}
		k, v := d.runKey(text)
		if v = trimSpaces(v); k == nil || len(v) == 0 {
			// A deeper line, a comment, a tab, no key, or a bare "key:"
			// (step reports its width).
			break
		}
		if !d.runCells(v, d.hdr.delim) || len(d.vals) != d.hdr.nleaf {
			break // runLines stops there, and step reports the error
		}
		if strict {
			// A key read from the line is followed in the buffer by the
			// rest of the line and its LF: its words are read from there.
			if kw := keyWordsAt(buf, k, keyAt(k, text, at)); !f.keys.addNew(len(k), kw) && !f.keys.addWords(k, kw) {
				break // a duplicate key
			}
		}
		num++
		if !d.addMark(top, pos, num) {
			d.runTake(top, pos, num)
		}
		f.fresh = false
		f.count++
		pos = e + 1
		q := appendToken(d.queue, KeyToken(k))
		base := len(q)
		q = appendTokens(q, d.rowTmpl...)
		r := q[base:]
		for c, slot := range d.cellAt {
			setToken(r, int(slot), d.vals[c])
		}
		d.queue = q
	}
	return pos, num
}

// runItems takes from pos on the items of the list at the top of the
// stack that are inline arrays ("- [N]: values", the rows of a list of
// arrays: coordinates, series, matrices), in a loop of its own as
// runEntries takes the entries of a keyed object: lines at the items'
// indentation, a hyphen and one space, a header runHeader reads (an
// inline array's) and values runCells takes. It returns at the first line
// it does not take, which runLines takes or stops at (an item with more
// spaces after its hyphen is left to step).
func (d *Decoder) runItems(buf []byte, pos, num int) (int, int) {
	top := len(d.stack) - 1
	f := &d.stack[top]
	strict := d.opts.strict
	sp := f.depth * d.lr.indent // the items' indentation
	if top+2 > d.opts.maxDepth {
		return pos, num // the array's level is past the limit: step reports it
	}
	// The line's text up to its values, when it is that of the item taken
	// before (most lists of arrays repeat it: "    - [2]: "), is not read
	// again: d.head holds its header. pre holds its first 24 bytes, of
	// which the first plen (0: none) are that text.
	var pre [3]uint64
	plen := 0
	bp := mem.BytesData(buf)
	for (!strict || f.count < f.n) && len(d.queue) < runTokens {
		at := pos + sp
		same := plen != 0 && pos+24 <= len(buf) && samePrefix(bp.Add(pos), &pre, plen)
		if !same && (at+3 > len(buf) || leadingSpaces(buf[pos:at]) != sp || buf[at] != '-' || buf[at+1] != ' ' || buf[at+2] != '[') {
			break
		}
		// The line's end, looked for after the text before the values
		// when that is known.
		from := at + 2
		if same {
			from = pos + plen
			// Most such lines hold numbers alone, which numberItems
			// takes with those that follow.
			if p, n := d.numberItems(buf, pos, num, &pre, plen); p != pos {
				pos, num = p, n
				continue
			}
		}
		e, ascii := lineEnd(buf, from, 0, true)
		if e < 0 || e-pos > d.lr.maxLine {
			break
		}
		end := e
		if buf[end-1] == '\r' {
			end--
		}
		text := buf[from:end] // its capacity reaches buf's (runCells)
		if !ascii && strict && !validUTF8(text) {
			break
		}
		var v []byte
		if same {
			v = text
		} else {
			var hk uint8
			if v, hk = d.runHeader(text, 0); hk != runInline {
				break
			}
			v = trimSpaces(v)
			// The text before the values, for the next item (v's
			// offset in buf is its capacity short of buf's).
			plen = 0
			if k := cap(buf) - cap(v) - pos; len(v) > 0 && k <= 24 && pos+24 <= len(buf) {
				plen = k
				pre = [3]uint64{bp.Load64(pos), bp.Load64(pos + 8), bp.Load64(pos + 16)}
			}
		}
		if n := len(v); n > 0 && v[n-1] == ' ' {
			v = trimSpaces(v)
		}
		if !d.arrayValues(runInline, v) {
			break // runLines stops there, and step reports the error
		}
		num++
		if !d.addMark(top, pos, num) {
			d.runTake(top, pos, num)
		}
		f.fresh = false
		f.count++
		pos = e + 1
		d.queueArray(runInline, nil, f.depth)
	}
	return pos, num
}

// numberItems takes from pos on, for runItems, the items that begin with
// the plen bytes of pre, the text of an item it has read (d.head holds its
// header), and whose values are numbers that numberCells reads: lines
// such as "      - [2]: 13.404954,52.520008". It returns at the first
// line it does not take, which runItems reads.
func (d *Decoder) numberItems(buf []byte, pos, num int, pre *[3]uint64, plen int) (int, int) {
	top := len(d.stack) - 1
	f := &d.stack[top]
	hn, delim := d.head.n, d.head.delim
	if hn > lazyChunk {
		return pos, num
	}
	start := ArrayStartToken(hn, FormInline, Delimiter(delim), nil)
	bp := mem.BytesData(buf)
	for (!d.opts.strict || f.count < f.n) && len(d.queue) < runTokens && pos+24 <= len(buf) && samePrefix(bp.Add(pos), pre, plen) {
		d.queueRoom(hn + 2)
		q := d.queue[len(d.queue):cap(d.queue)]
		from := pos + plen
		e := numberCells(bp.Add(from), len(buf)-from, hn, delim, q)
		if e < 0 || from+e-pos > d.lr.maxLine {
			break
		}
		num++
		if !d.addMark(top, pos, num) {
			d.runTake(top, pos, num)
		}
		f.fresh = false
		f.count++
		pos = from + e + 1
		setToken(q, 0, start)
		setToken(q, hn+1, ArrayEndToken())
		d.queue = d.queue[:len(d.queue)+hn+2]
	}
	return pos, num
}

// numberCells writes to q, from index 1, the tokens of the values of an
// inline array that start at p (room bytes readable) and end at the line's
// LF, when they are n numbers of the plainest form (plainNumber's): the
// form coordinates, series and matrices are written in. It returns the
// offset of the LF from p, or -1, having written what it may, for any
// other line (another count, an exponent, text, spaces, a CR, a long
// cell, fewer than 24 bytes readable from a cell's start), which runCells
// then reads. q has room for n+1 tokens. The byte after each cell, which
// plainNumber gives, must be the delimiter or, after the last cell, the
// LF: the line's end and its delimiters are found so, with no other scan
// of its bytes.
func numberCells(p mem.Ptr, room, n int, delim byte, q []Token) int {
	s := 0 // the cell's first byte
	for c := 1; s+24 <= room && c <= n; c++ {
		cp := p.Add(s)
		e := plainNumber(cp)
		if e < 0 {
			return -1
		}
		setToken(q, c, Token{h: uint64(KindNumber), p: cp, n: e})
		switch cp.Byte(e) {
		case '\n':
			if c != n {
				return -1
			}
			return s + e
		case delim:
			if c == n {
				return -1
			}
			s += e + 1
		default:
			return -1
		}
	}
	return -1
}

// plainNumber returns the length of the number of the plainest form that
// the bytes at p (24 readable) start with, the longest they start with
// (the byte after it is no digit, and no '.' after an integer part: after
// a fraction it may be, as in "1.2.3", which callers check), or -1 when
// they start with none shorter than 24 bytes. The plainest form is an
// optional '-', digits with no leading zero before another digit, and at
// most one '.' between digits: a number by §4's grammar, without an
// exponent.
//
// The number is read from the mask of its bytes that are no digit (one bit
// a byte): after a leading '-', the first one is the '.' of a fraction or
// the byte after the number; after a '.', the next one is. The mask is
// made of the first two words, and of the third only when those hold
// fewer than two such bytes, where the number may not end.
func plainNumber(p mem.Ptr) int {
	w0 := p.Load64(0)
	neg := b2u(byte(w0) == '-')
	m := (packBits(nonDigits(w0)) | packBits(nonDigits(p.Load64(8)))<<8) &^ neg
	if m&(m-1) == 0 {
		m |= packBits(nonDigits(p.Load64(16)))<<16 | 1<<24
	}
	i := bits.TrailingZeros64(m) // the end of the integer part
	if i >= 24 {
		return -1
	}
	e := i // the number's end
	if p.Byte(i) == '.' {
		m &= m - 1
		e = bits.TrailingZeros64(m)
	}
	// At least one digit, a leading '0' alone, and digits after a '.'.
	if i == int(neg) || byte(w0>>(8*neg)) == '0' && i > int(neg)+1 || e == i+1 || e >= 24 {
		return -1
	}
	return e
}

// samePrefix reports whether the first n bytes (1 ≤ n ≤ 24) at p, which
// has 24 readable, are those of pre.
func samePrefix(p mem.Ptr, pre *[3]uint64, n int) bool {
	m := &prefixMasks[n-1]
	return (p.Load64(0)^pre[0])&m[0]|(p.Load64(8)^pre[1])&m[1]|(p.Load64(16)^pre[2])&m[2] == 0
}

// prefixMasks[n-1] keeps the first n bytes of three words.
var prefixMasks = func() (t [24][3]uint64) {
	for n := 1; n <= 24; n++ {
		for w := 0; w < 3; w++ {
			if k := min(max(n-8*w, 0), 8); k > 0 {
				t[n-1][w] = ^uint64(0) >> (64 - 8*uint(k))
			}
		}
	}
	return t
}()

// runTake records a line that a run takes, at start in the buffer and
// numbered num, whose scope is d.stack[top]: it marks the line, and ends
// the scopes above top with their tokens (closeFails told that none fails
// its count), as pop ends them; the line's tokens follow theirs in the
// queue. runFields calls it only for the run's first line and for
// a line that closes scopes (its other lines are pair lines, lineMark);
// runArray and runEntries mark most of their lines with addMark.
func (d *Decoder) runTake(top, start, num int) {
	nm, q := len(d.marks), len(d.queue) // the line's tokens begin with those of the scopes it ends
	if nm == 0 {
		d.first = d.line
	}
	if ends := len(d.stack) - 1 - top; ends > 0 {
		d.queueRoom(ends + 2) // and the line's first two tokens (runFields)
		q := d.queue
		for j := len(d.stack) - 1; j > top; j-- {
			q = pushToken(q, d.stack[j].kind.endToken())
		}
		d.queue = d.queue[:len(q)]
	}
	d.stack = d.stack[:top+1]
	// Within the capacity, only the length of d.marks is stored.
	if nm < cap(d.marks) {
		d.marks = d.marks[:nm+1]
	} else {
		d.marks = append(d.marks, lineMark{})
	}
	m := &d.marks[nm]
	m.q, m.start, m.num = q, start, num
	d.line.num = num // push records it
	d.stack[top].fresh = false
}

// addMark is runTake for a line that closes no scope, when d.marks holds
// a mark and has room for another, but for what the caller does itself:
// clearing the scope's fresh, and giving a scope the line opens its line
// number. It reports false, having done nothing, for any other line.
func (d *Decoder) addMark(top, start, num int) bool {
	nm := len(d.marks)
	if uint(nm-1) >= uint(cap(d.marks)-1) || top != len(d.stack)-1 { // nm is 0 or the capacity
		return false
	}
	d.marks = d.marks[:nm+1]
	m := &d.marks[nm]
	m.q, m.start, m.num = len(d.queue), start, num
	return true
}

// lineEnd returns the offset in buf of the LF that ends a line whose
// bytes before i hold none, and whether the line's bytes are all below
// 0x80, which it tells only when whole (the line's bytes before i, whose
// words OR-ed are hi, are all known) and when the LF is found within 64
// bytes of i; -1 when buf holds no LF from i on. The lowest LF flag of a
// word is exact (a borrow only runs upward), and the bytes before the LF
// are those below it. From the 64th byte on, or near the end of the data,
// the rest is left to indexNewline.
func lineEnd(buf []byte, i int, hi uint64, whole bool) (int, bool) {
	for stop := min(i+64, len(buf)-8); i <= stop; i += 8 {
		w := binary.LittleEndian.Uint64(buf[i:])
		if lf := lfFlags(w); lf != 0 {
			below := lf&-lf - 1
			return i + bits.TrailingZeros64(lf)>>3, (hi|w&below)&swarHi == 0 && whole
		}
		hi |= w
	}
	if j := indexNewline(buf[i:]); j >= 0 {
		return i + j, false
	}
	return -1, false
}

// keyAt returns at, the offset of src in the line reader's buffer, when
// key k is read from the start of src, and -1 otherwise.
func keyAt(k, src []byte, at int) int {
	if len(k) > 0 && len(src) > 0 && &src[0] == &k[0] {
		return at
	}
	return -1
}

// keyWordsAt returns keyWordsOf(k), read from buf where the key was read
// from the line (kat, keyAt), whose rest and LF follow it there.
func keyWordsAt(buf, k []byte, kat int) keyWord {
	if kat >= 0 && kat+shortKey <= len(buf) {
		return keyWords(mem.BytesData(buf).Add(kat), len(k))
	}
	return keyWordsOf(k)
}

// runKey returns the key and the value text of a field line whose key
// ends with the colon right after it: an unquoted key (§7.3's pattern) or
// a quoted one that unquotes without an error (into scratch, when it holds
// escapes). k is nil for any other text. The general path (fieldLine)
// gives such a line the same key: no unquoted bracket can stand before
// that colon, so the line is no header.
func (d *Decoder) runKey(text []byte) (k, v []byte) {
	if len(text) == 0 || text[0] != '"' {
		// A plain key: a quote is no key character.
		if i := plainKeyColon(text); i > 0 {
			return text[:i], text[i+1:]
		}
		return nil, nil
	}
	s, next, _, err := d.unquote(text)
	if err != nil || next >= len(text) || text[next] != ':' {
		return nil, nil
	}
	if s == nil {
		s = text[1:1] // the empty key: not nil
	}
	return s, text[next+1:]
}

// runHead is what runField found of an array header on a field line.
type runHead struct {
	kind  uint8 // runNone, runInline, runTabular, runKeyed, runList
	delim byte
	n     int        // declared length
	group *seenGroup // the fields, for a table
}

// The kinds of runHead.
const (
	runNone    = iota // a key-value line
	runInline         // key[N]: values
	runTabular        // key[N]{fields}:
	runKeyed          // key[N:]{fields}:
	runList           // key[N]: with nothing after it, a list's header
)

// runField returns the key and the value text of a field line that runs
// take: a key and its colon (runKey), or a plain key's array header:
// key[N]: with its values or with none (a list's), or key[N]{fields}: or
// key[N:]{fields}: whose fields segment the header parser has parsed
// before (it parses a new one only from step, so that the field lists of
// header tokens in the queue stay where they are). The bracket segment
// may end with a delimiter, | or tab. k is nil for any other text. The
// general path (fieldLine, parseHeader) reads such a header the same way:
// the line's first unquoted bracket and colon are the header's, and a
// plain key is a key in both modes. i is plainKeyEnd(text). kind is the
// header's kind, whose length, delimiter and fields are left in d.head;
// runNone for no header.
func (d *Decoder) runField(text []byte, i int) (k, v []byte, kind uint8) {
	switch {
	case i == 0:
		k, v = d.runKey(text) // a quoted key, or none
		return k, v, runNone
	case i == len(text):
		return nil, nil, runNone
	case text[i] == ':':
		return text[:i], text[i+1:], runNone
	case text[i] != '[':
		return nil, nil, runNone
	}
	if v, kind = d.runHeader(text, i); kind == runNone {
		return nil, nil, runNone
	}
	return text[:i], v, kind
}

// runHeader reads the array header whose bracket segment starts at
// text[i], as runField reads one after a key, and returns the text after
// its colon and its kind (runNone when runs do not take it).
func (d *Decoder) runHeader(text []byte, i int) (v []byte, kind uint8) {
	h := &d.head
	n, keyed, delim, j, ok := bracketSegment(text, i+1)
	if !ok {
		return nil, runNone
	}
	h.kind, h.delim, h.n, h.group = runInline, delim, n, nil
	if keyed {
		h.kind = runKeyed
	}
	if j < len(text) && text[j] == '{' {
		g := d.headerParser.seenAt(text, j, h.delim)
		if g == nil || len(g.fields) == 0 {
			return nil, runNone
		}
		h.group = g
		j += g.end - g.start
		if h.kind == runInline {
			h.kind = runTabular
		}
	} else if h.kind == runKeyed {
		return nil, runNone // a keyed header needs fields
	}
	if j >= len(text) || text[j] != ':' {
		return nil, runNone
	}
	v = text[j+1:]
	if h.kind == runInline && (n > 0 || !d.opts.strict) && len(trimSpaces(v)) == 0 {
		h.kind = runList // nothing after the colon: a list opens (openArray)
	}
	return v, h.kind
}

// runTable opens the table of header d.head, whose key k stands at depth,
// with openArray; its Key token is queued. (A run's header has fields, so
// openArray opens a keyed or tabular table, which cannot fail: runLines
// or runArray checked the depth.) It reports whether the table is a tabular array
// with rows to come, which runs do not take (runRows).
func (d *Decoder) runTable(k []byte, depth int) bool {
	h := &d.head
	g := h.group
	d.hdr = header{key: k, hasKey: true, n: h.n, keyed: h.kind == runKeyed, delim: h.delim,
		fields: g.fields, nleaf: g.leaves, fieldsID: g.id}
	d.openArray(&d.hdr, depth, false)
	return h.kind == runTabular && h.n > 0
}

// rowsAhead reports whether f is a table, tabular or keyed, with rows
// still to come: runLines leaves them to the fast path or step, or takes
// them (runRows).
func (f *frame) rowsAhead() bool {
	return (f.kind == fTabular || f.kind == fKeyed) && f.count < f.n
}

// runRows reports whether runs take the rows of table f: the entries of a
// keyed object whose row program is queued at once. The rows of a tabular
// array are left to the fast path (fastrows.go), whose kernel types them
// faster than a run, a few rows included.
func (d *Decoder) runRows(f *frame) bool {
	return f.kind == fKeyed && len(d.rowTmpl) <= maxQueuedRow
}

// runCells splits v at its unquoted delimiters into d.vals, the values of
// an inline array or the cells of a row, as the general path splits them
// (splitCells, cellToken; row), and reports whether every value is well
// formed and there are at most a lazy chunk of them (longer arrays are
// queued a chunk at a time by the general path).
//
// v is a view into the bytes read (runLines's buf), whose capacity holds
// the rest of them: the line is read a word at a time for its delimiters
// and quotes, and each plain cell is typed from its words (plainCell),
// with no loop over its bytes. A quoted cell is unquoted where it starts,
// and the scan goes on after its closing quote. A quote inside a cell, and
// a line with fewer than eight bytes read after it, are left to
// splitCells's rule (cutCells).
func (d *Decoder) runCells(v []byte, delim byte) bool {
	const quoteW = '"' * swarLo
	n := len(v)
	if cap(v)-n < 8 {
		return d.cutCells(v, delim)
	}
	p := mem.BytesData(v)
	delimW := uint64(delim) * swarLo
	vals := d.vals[:0]
	s := 0 // the current cell's first byte
	if n > 0 && primStart[p.Byte(0)] == primDigit {
		vals, s = digitCells(p, 0, n, cap(v), delimW, vals)
	}
	for i := s; i < n; {
		w := p.Load64(i)
		m := swarCandidates(w^delimW, w^quoteW, w^delimW, w^quoteW) & lenMask[min(n-i, 8)]
		next := i + 8
	word:
		for ; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			switch p.Byte(j) {
			case delim:
				if len(vals) == lazyChunk {
					d.vals = vals
					return false // more than a lazy chunk
				}
				vals = append(vals, spanCell(v, s, j))
				s = j + 1
				if t := s; t < n && primStart[p.Byte(t)] == primDigit {
					// Cells that start with digits from here:
					// taken by digitCells, and the scan goes on
					// after them.
					if vals, s = digitCells(p, s, n, cap(v), delimW, vals); s > t {
						next = s
						break word
					}
				}
				continue
			case '"':
			default:
				continue // a byte above a match (swarCandidates)
			}
			// A quote: it must open the cell, after its spaces.
			if leadingSpaces(v[s:j]) != j-s {
				d.vals = vals
				return d.cutCells(v, delim)
			}
			u, used, _, err := d.unquote(v[j:])
			if err != nil {
				d.vals = vals
				return false
			}
			k := j + used
			k += leadingSpaces(v[k:])
			if k < n && p.Byte(k) != delim {
				d.vals = vals
				return false // text after the closing quote
			}
			if k < n && len(vals) == lazyChunk {
				d.vals = vals
				return false // more than a lazy chunk
			}
			vals = append(vals, textToken(KindString, u))
			s, next = k+1, k+1
			break
		}
		i = next
	}
	if s <= n {
		vals = append(vals, spanCell(v, s, n))
	}
	d.vals = vals
	return len(vals) <= lazyChunk
}

// digitCells appends to vals the tokens of the cells from byte s of the
// line of n bytes at p (room bytes readable) that start with a digit or
// '-' and are shorter than 24 bytes, with no quote and no space after
// them, one after another, and returns the first byte of the cell after
// them: s if it takes none, n+1 if it takes the line's last cell. Each
// is read whole, its end found in its three words and its kind told as
// plainCell tells it, so that the cells of arrays of numbers (embeddings,
// series) and of digit-leading text (sizes, dates, versions) are not read
// twice, by the word-at-a-time scan and then by plainCell. It takes no
// cell past a lazy chunk (runCells tells that case).
func digitCells(p mem.Ptr, s, n, room int, delimW uint64, vals []Token) ([]Token, int) {
	const quoteW = '"' * swarLo
	for s < n && s+24 <= room && len(vals) < lazyChunk && primStart[p.Byte(s)] == primDigit {
		c := p.Add(s)
		// Most such cells are numbers of the plainest form, which
		// plainNumber reads whole: the cell is one when the byte after
		// the number ends it.
		if e := plainNumber(c); e >= 0 && (s+e == n || s+e < n && c.Byte(e) == byte(delimW)) {
			vals = append(vals, Token{h: uint64(KindNumber), p: c, n: e})
			s += e + 1
			continue
		}
		// The cell ends at the first delimiter or the line's end: most
		// cells end in their first word, and the next two are read only
		// for longer ones (a cell of more than 8 bytes has none in its
		// first).
		w0 := c.Load64(0)
		e := n - s
		if f := eqFlags(w0, delimW); f != 0 {
			e = min(e, bits.TrailingZeros64(f)>>3)
		} else {
			e = min(e, 8+firstFlag(eqFlags(c.Load64(8), delimW), eqFlags(c.Load64(16), delimW), 0, 0))
		}
		if e >= 24 {
			break
		}
		// plainNumber took every plain number: the cell is a number
		// only in another form of §4 (an exponent), which numberAt
		// tells and its first word may rule out (shortText).
		number := !shortText(w0, lenMask[min(e, 8)&15]) && numberAt(c, e)
		k := KindNumber
		if !number {
			// Text, unless it ends in a space (trimmed by spanCell) or
			// holds a quote (splitCells's rule), which a number cannot:
			// the first flag of eqFlags is exact.
			q := eqFlags(w0, quoteW)
			if c.Byte(e-1) == ' ' || q != 0 && bits.TrailingZeros64(q)>>3 < e ||
				e > 8 && 8+firstFlag(eqFlags(c.Load64(8), quoteW), eqFlags(c.Load64(16), quoteW), 0, 0) < e {
				break
			}
			k = KindString
		}
		vals = append(vals, Token{h: uint64(k), p: c, n: e})
		s += e + 1
	}
	return vals, s
}

// spanCell returns the token of the unquoted cell v[s:e], trimmed of the
// spaces around it, whose words are read up to v's capacity.
func spanCell(v []byte, s, e int) Token {
	if s < e && (v[s] == ' ' || v[e-1] == ' ') {
		s, e = trimSpan(v, s, e)
	}
	if s == e {
		return emptyString()
	}
	return plainCell(mem.BytesData(v).Add(s), e-s, cap(v)-s)
}

// cutCells is runCells for any line: the line is split by scanLine, and
// each cell typed by plainToken or unquoted whole.
func (d *Decoder) cutCells(v []byte, delim byte) bool {
	d.seps, _ = scanLine(v, delim, d.seps[:0])
	cells := len(d.seps) + 1
	if cells > lazyChunk {
		return false
	}
	vals := d.vals[:0]
	s := 0
	for c := 0; c < cells; c++ {
		e := len(v)
		if c < len(d.seps) {
			e = int(d.seps[c])
		}
		a, b := trimSpan(v, s, e)
		cell := v[a:b]
		switch {
		case len(cell) == 0:
			vals = append(vals, emptyString())
		case cell[0] != '"':
			vals = append(vals, plainToken(cell))
		default:
			u, next, _, err := d.unquote(cell)
			if err != nil || next != len(cell) {
				d.vals = vals
				return false
			}
			vals = append(vals, textToken(KindString, u))
		}
		s = e + 1
	}
	d.vals = vals
	return true
}

// plainKeyEnd returns the length of the unquoted key (§7.3's pattern) at
// the start of text, 0 when text does not start with one. Its bytes are
// classed eight at a time (keyChars), with no branch on each: the first
// byte that is no key character ends the key (a key's length varies from
// line to line, and a loop ending on it would be mispredicted at most
// lines).
func plainKeyEnd(text []byte) int {
	if len(text) == 0 || keyStart[text[0]] == 0 {
		return 0
	}
	i := 1
	for ; i+8 <= len(text); i += 8 {
		if m := keyChars(text[i : i+8 : i+8]); m != 0xff {
			return i + bits.TrailingZeros(^m)
		}
	}
	for i < len(text) && keyChar[text[i]] != 0 {
		i++
	}
	return i
}

// keyChars returns the mask of the bytes of c, eight of them, that are key
// characters (keyChar): bit i for c[i].
func keyChars(c []byte) uint {
	c = c[:8:8]
	return uint(keyChar[c[0]]) | uint(keyChar[c[1]])<<1 | uint(keyChar[c[2]])<<2 | uint(keyChar[c[3]])<<3 |
		uint(keyChar[c[4]])<<4 | uint(keyChar[c[5]])<<5 | uint(keyChar[c[6]])<<6 | uint(keyChar[c[7]])<<7
}

// plainKeyEndAt returns plainKeyEnd(text) for the text b[at:] of a line
// that b holds with its LF (or CR LF), neither of which is a key
// character: the key ends at or before them, so the words of b past the
// line's end may be read, and a key of any length ends with no loop over
// its last bytes.
func plainKeyEndAt(b []byte, at int) int {
	return plainKeyEnd(b[at:])
}

// runValue returns plainToken(v) for a value v that is a view into buf.
// A value of up to 24 bytes that may be a number (a digit or '-' first) is
// settled by numberAt, as bulkLine settles a cell, when buf holds the
// words numberAt reads.
func runValue(buf, v []byte) Token {
	off := cap(buf) - cap(v) // v's offset in buf, if it views buf
	if n := len(v); n <= 24 && primStart[v[0]] == primDigit && off >= 0 && off+(n+7)&^7 <= len(buf) && &buf[off] == &v[0] {
		k := KindString
		if numberAt(mem.BytesData(v), n) {
			k = KindNumber
		}
		return Token{h: uint64(k), p: mem.BytesData(v), n: n}
	}
	return plainToken(v)
}

// runLine returns the line of the run numbered num, which starts at start
// in the buffer, read again from there (the buffer holds the run's lines
// up to lr.pos while the queue holds their tokens).
func (d *Decoder) runLine(num, start int) rawLine {
	e := start + indexNewline(d.lr.buf[start:d.lr.pos]) // the LF
	if e > start && d.lr.buf[e-1] == '\r' {
		e--
	}
	full := d.lr.buf[start:e]
	indent := leadingSpaces(full)
	depth, odd := d.lr.depthOf(indent)
	return rawLine{full: full, text: full[indent:], num: num, off: d.lr.base + int64(start), spaces: indent, depth: depth, odd: odd}
}

// firstPair returns the index in the queue of the first token of the pair
// lines (lineMark) after the line of d.marks[i], two tokens a line: the
// index after the line's tokens where none follows.
func (d *Decoder) firstPair(i int) int {
	nextNum, nextQ := d.numEnd+1, len(d.queue)
	if i+1 < len(d.marks) {
		nextNum, nextQ = d.marks[i+1].num, d.marks[i+1].q
	}
	return nextQ - 2*(nextNum-d.marks[i].num-1)
}

// pairStart returns the start in the buffer of the pair line whose key is
// the token at index q of the queue: the key lies in the buffer after the
// line's indentation, and after its opening quote when quoted (a plain
// key's first byte follows a space, an LF or nothing).
func (d *Decoder) pairStart(q int) int {
	buf := d.lr.buf
	i := int(d.queue[q].p.Uintptr() - mem.BytesData(buf).Uintptr())
	if i > 0 && buf[i-1] == '"' {
		i--
	}
	for i > 0 && buf[i-1] == ' ' {
		i--
	}
	return i
}

// runLineOf returns the number and the start in the buffer of the line
// of the token at index q of the queue, a token of the line of d.marks[i]
// or of a pair line after it.
func (d *Decoder) runLineOf(i, q int) (num, start int) {
	m := &d.marks[i]
	q0 := d.firstPair(i)
	if q < q0 {
		return m.num, m.start
	}
	k := (q - q0) >> 1
	return m.num + 1 + k, d.pairStart(q0 + 2*k)
}

// runLineStart returns the start in the buffer of the run's line numbered
// num, one of the lines marks[0] and those after it.
func (d *Decoder) runLineStart(num int) int {
	i := len(d.marks) - 1
	for d.marks[i].num > num {
		i--
	}
	if k := num - d.marks[i].num; k > 0 {
		return d.pairStart(d.firstPair(i) + 2*(k-1))
	}
	return d.marks[i].start
}

// tokenLine returns the line of the last token returned: the line of
// d.last (its number and offset alone) while no token of the queue is
// taken, else the line of the token before d.qi.
func (d *Decoder) tokenLine() *rawLine {
	if d.qi == 0 && d.began {
		d.at = rawLine{num: d.last.num, off: d.last.off}
		return &d.at
	}
	return d.lineOf(max(d.qi-1, 0))
}

// tokenRef is tokenLine's number and offset of the line, without the
// rest of the line (Line and InputOffset).
func (d *Decoder) tokenRef() lineRef {
	if d.qi == 0 && d.began {
		return d.last
	}
	return d.lineRefOf(max(d.qi-1, 0))
}

// lineOf returns the line of the token at index q of the queue.
func (d *Decoder) lineOf(q int) *rawLine {
	if len(d.marks) == 0 {
		d.syncLine(q)
		return &d.line
	}
	i := d.markOf(q)
	if i < 0 {
		return &d.first
	}
	num, start := d.runLineOf(i, q)
	d.at = d.runLine(num, start)
	return &d.at
}

// lineRefOf is lineOf's number and offset of the line, without the rest
// of the line.
func (d *Decoder) lineRefOf(q int) lineRef {
	if len(d.marks) == 0 {
		d.syncLine(q)
		return lineRef{d.line.num, d.line.off}
	}
	i := d.markOf(q)
	if i < 0 {
		return lineRef{d.first.num, d.first.off}
	}
	num, start := d.runLineOf(i, q)
	return lineRef{num, d.lr.base + int64(start)}
}

// markOf returns the index in d.marks (which is not empty) of the mark of
// the line of the token at index q of the queue, or -1 for a token of the
// line before the run's first (d.first).
func (d *Decoder) markOf(q int) int {
	i := len(d.marks) - 1
	for i >= 0 && d.marks[i].q > q {
		i--
	}
	return i
}

// lineBlock is the width of the block of bytes at a line's start that
// runLines reads as four words.
const lineBlock = 32

// firstFlag returns the offset of the first byte flagged in f0 to f3,
// the flags of four consecutive words (0x80 in a flagged byte; only the
// lowest flag of each word needs to be exact), 32 when none is flagged.
// It has no branch: the flags are packed into one bit a byte (packBits),
// the four words' side by side, whose lowest bit is the first flag.
func firstFlag(f0, f1, f2, f3 uint64) int {
	m := packBits(f0) | packBits(f1)<<8 | packBits(f2)<<16 | packBits(f3)<<24
	return bits.TrailingZeros64(m | 1<<32)
}

// lfFlags flags the LFs of w (see eqFlags).
func lfFlags(w uint64) uint64 { return eqFlags(w, '\n'*swarLo) }

// eqFlags flags the bytes of w equal to the byte that fills cw (0x80 in
// each): the lowest flag is exact, and others may mark bytes above one (a
// borrow only runs upward, and only from a byte that is equal).
func eqFlags(w, cw uint64) uint64 {
	x := w ^ cw
	return (x - swarLo) &^ x & swarHi
}

// firstNonSpace returns the offset of the first byte of w0 and w1, two
// consecutive words, that is no space, 16 when none is. It has no branch:
// a word's first such byte is its lowest nonzero byte once XOR-ed with
// spaces, and w1's count, 64 when w1 is all spaces, is added only when w0
// is all spaces (its count 64).
func firstNonSpace(w0, w1 uint64) int {
	t0 := bits.TrailingZeros64(w0 ^ swarSpaces)
	t1 := bits.TrailingZeros64(w1 ^ swarSpaces)
	return (t0 + t0>>6*t1) >> 3
}
