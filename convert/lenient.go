package convert

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/toonstream/toon"
)

// Non-strict ToJSON in bounded memory.
//
// In non-strict mode a key may repeat in an object, with last-write-wins
// meaning (§14.3): the key keeps its first position and takes its last
// value. Nothing inside an open object is final until the object ends, so
// the output cannot go to w as the tokens come. spoolToJSON writes the JSON
// of the tokens in their order, as if no key repeated, to a spool (memory
// up to a budget, then an unlinked temporary file), and notes for each open
// object where in the spool each member's latest occurrence lies. When an
// object closes:
//
//   - without a repeated key (nor a member that is itself a rope, below),
//     its bytes in the spool are already its output, in one piece: nothing
//     more is kept;
//   - with one, its output is a list of pieces (a rope): spool ranges and
//     separators. A small object is rewritten in place from its rope, the
//     spool cut back to the object's start, so that it is one piece again
//     and nothing is kept (this is what keeps a table of row objects with a
//     repeated field from leaving bookkeeping behind per row); an object
//     larger than compactMax keeps its rope, and so does every container
//     around it, as ranges around the pieces of the rope.
//
// At the end the root's pieces are copied from the spool to w. The
// separators of the dropped members are the one subtle point: a member's
// separator depends only on whether it is the first member written (no
// comma) and on the depth (the indentation), never on its neighbours, so a
// member written at a position other than first takes its spool bytes from
// its separator on, and one that moves to or from the first position gets
// its separator written anew. Values keep their indentation: it depends on
// their depth, which replacing a member does not change.

// spoolBudget is the default number of bytes of JSON the spool keeps in
// memory before it moves to a temporary file: smaller documents never touch
// the disk.
const spoolBudget = 32 << 20

// compactMax is the largest object (its bytes in the spool) that is
// rewritten in place when it closes with a repeated key; larger ones keep
// their rope until the end. Rewriting copies the object once more, keeping
// a rope costs a few pieces for as long as the document lasts: past this
// size a rope is at most a few hundred bytes per compactMax of JSON.
const compactMax = 256 << 10

// A piece of a rope: spool bytes [off, end) when off >= 0; a comma when
// off is pieceComma; a line break and the indentation of level end when
// off is pieceLine.
type piece struct{ off, end int64 }

const (
	pieceComma = -1
	pieceLine  = -2
)

// addRange appends the spool range [off, end) to ps, extending the last
// piece when the two are contiguous: an object without repeated keys comes
// out as a single range this way.
func addRange(ps []piece, off, end int64) []piece {
	if off == end {
		return ps
	}
	if n := len(ps); n > 0 && ps[n-1].off >= 0 && ps[n-1].end == off {
		ps[n-1].end = end
		return ps
	}
	return append(ps, piece{off, end})
}

// addRope appends the pieces of rope to ps.
func addRope(ps, rope []piece) []piece {
	for _, p := range rope {
		if p.off >= 0 {
			ps = addRange(ps, p.off, p.end)
		} else {
			ps = append(ps, p)
		}
	}
	return ps
}

// spool is the JSON written so far: in mem while it fits the budget, then
// in an unlinked temporary file, all of it (mem is released). Writes come
// from a jsonWriter, in chunks of its buffer; the bytes not yet written
// are in that writer's buffer (see lenient.pos).
type spool struct {
	mem    []byte
	f      *os.File
	size   int64 // bytes in the spool; in memory, len(mem)
	budget int
	dir    string
}

// spoolFileHook, when set (by tests), sees each temporary file the spool
// creates.
var spoolFileHook func(*os.File)

// Write appends p, moving the spool to a file when it outgrows the budget.
func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil {
		if len(s.mem)+len(p) <= s.budget {
			if cap(s.mem)-len(s.mem) < len(p) {
				// Grow by doubling, but never past the budget.
				c := min(max(2*cap(s.mem), len(s.mem)+len(p), 64<<10), s.budget)
				m := make([]byte, len(s.mem), c)
				copy(m, s.mem)
				s.mem = m
			}
			s.mem = append(s.mem, p...)
			s.size = int64(len(s.mem))
			return len(p), nil
		}
		f, err := tempFile(s.dir, "toon-json-*")
		if err != nil {
			return 0, err
		}
		s.f = f
		if spoolFileHook != nil {
			spoolFileHook(f)
		}
		if _, err := f.WriteAt(s.mem, 0); err != nil {
			return 0, err
		}
		s.mem = nil
	}
	if _, err := s.f.WriteAt(p, s.size); err != nil {
		return 0, err
	}
	s.size += int64(len(p))
	return len(p), nil
}

// readAt fills p with the spool's bytes from off, which must be there.
func (s *spool) readAt(p []byte, off int64) error {
	if s.f == nil {
		copy(p, s.mem[off:])
		return nil
	}
	_, err := s.f.ReadAt(p, off)
	return err
}

// truncate cuts the spool back to n bytes. A file keeps its bytes past n,
// to be overwritten: only size counts.
func (s *spool) truncate(n int64) {
	s.size = n
	if s.f == nil {
		s.mem = s.mem[:n]
	}
}

func (s *spool) close() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	s.mem = nil
}

// lframe is an open object or array.
type lframe struct {
	obj   bool
	level int   // the depth of its members, as jsonWriter.depth
	start int64 // spool offset of its '{' or '['

	// The rope so far, nil while the container is one range: pieces up to
	// from, and the spool from there on. Arrays only; objects build
	// theirs when they close.
	from   int64
	pieces []piece

	// Objects: the members in the order of their first occurrence, each
	// with the spool offsets of its latest one; their keys, for finding
	// repeats (index once there are many); whether a key repeated or a
	// member's value is a rope.
	members []lmember
	keys    []byte
	index   map[string]int
	dup     bool
	ropes   bool

	// The member whose value is being read: its index and the offsets of
	// its separator, key and value.
	cur                    int
	curSep, curKey, curVal int64
}

// lmember is a member of an open object: the spool offsets of the latest
// occurrence's separator, key, value and end, and the value's rope when it
// has one.
type lmember struct {
	kOff, kEnd         int // its key in lframe.keys
	sep, key, val, end int64
	rope               []piece
}

// indexMin is the number of members from which an object finds repeated
// keys with a map instead of comparing each key.
const indexMin = 8

// find returns the index of the member with key k, or -1.
func (f *lframe) find(k []byte) int {
	if f.index != nil {
		if i, ok := f.index[string(k)]; ok {
			return i
		}
		return -1
	}
	for i := range f.members {
		m := &f.members[i]
		if bytes.Equal(f.keys[m.kOff:m.kEnd], k) {
			return i
		}
	}
	return -1
}

// add appends a member with key k and returns its index.
func (f *lframe) add(k []byte) int {
	i := len(f.members)
	off := len(f.keys)
	f.keys = append(f.keys, k...)
	f.members = append(f.members, lmember{kOff: off, kEnd: len(f.keys)})
	switch {
	case f.index != nil:
		f.index[string(k)] = i
	case len(f.members) == indexMin:
		f.index = make(map[string]int, 2*indexMin)
		for j := range f.members {
			m := &f.members[j]
			f.index[string(f.keys[m.kOff:m.kEnd])] = j
		}
	}
	return i
}

// lenient is the state of spoolToJSON.
type lenient struct {
	sw      *jsonWriter // writes the spool
	sp      *spool
	stack   []*lframe // open containers
	frames  []*lframe // frames for reuse: stack is a prefix of it
	scratch []byte    // an object being rewritten (compact)
	build   []piece   // the rope of an object being closed
	compact int64     // the largest object rewritten in place (compactMax)
}

// pos is the spool offset of the next byte written.
func (l *lenient) pos() int64 { return l.sp.size + int64(len(l.sw.buf)) }

// push opens a frame for the container whose first byte was just written.
func (l *lenient) push(obj bool) *lframe {
	n := len(l.stack)
	if n == len(l.frames) {
		l.frames = append(l.frames, new(lframe))
	}
	f := l.frames[n]
	l.stack = l.frames[:n+1]
	clear(f.members) // drop old ropes
	*f = lframe{obj: obj, level: l.sw.depth, start: l.pos() - 1, members: f.members[:0], keys: f.keys[:0]}
	f.from = f.start
	return f
}

// spoolToJSON is ToJSON in non-strict mode: it writes the document's JSON
// to a spool, resolving repeated keys as objects close, and then copies it
// to jw. On an error in the input nothing is written to jw: the spool is
// dropped.
func spoolToJSON(jw *jsonWriter, dec *toon.Decoder, c config) error {
	sp := &spool{budget: c.spoolBudget, dir: c.tempDir}
	defer sp.close()
	l := &lenient{sw: newJSONWriter(sp, c.jsonIndent), sp: sp, compact: int64(c.compactMax)}
	l.sw.flushed = c.flushed
	defer l.sw.release()
	root, rootEnd, empty, err := l.convert(dec)
	if err != nil || empty {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("convert: unexpected token after the root value")
		}
		return err
	}
	if root == nil {
		root = []piece{{0, rootEnd}}
	}
	if err := l.output(jw, root); err != nil {
		return err
	}
	jw.valueDone() // the root's newline
	return nil
}

// tokenReader is where lenient.convert takes its tokens: a toon.Decoder,
// or for non-strict FromJSON a JSON document read as TOON tokens
// (jsonTokens).
type tokenReader interface {
	Token() (toon.Token, error)
}

// convert writes the root value to the spool. It returns the root's rope,
// or nil and the spool offset where the root value ends when it is one
// range from offset 0; empty is true for an input without tokens.
func (l *lenient) convert(dec tokenReader) (root []piece, rootEnd int64, empty bool, err error) {
	sw := l.sw
	for first := true; ; first = false {
		t, err := dec.Token()
		if err != nil {
			if err == io.EOF && first {
				return nil, 0, true, nil
			}
			return nil, 0, false, err
		}
		var start, end int64
		var rope []piece
		switch k := t.Kind(); k {
		case toon.KindKey:
			if len(l.stack) == 0 || !l.stack[len(l.stack)-1].obj {
				return nil, 0, false, errUnexpectedToken(k)
			}
			l.key(l.stack[len(l.stack)-1], t.Bytes())
			if sw.err != nil {
				return nil, 0, false, sw.err
			}
			continue
		case toon.KindObjectStart, toon.KindArrayStart:
			sw.open(byte(k))
			l.push(k == toon.KindObjectStart)
			if sw.err != nil {
				return nil, 0, false, sw.err
			}
			continue
		case toon.KindObjectEnd, toon.KindArrayEnd:
			if len(l.stack) == 0 || l.stack[len(l.stack)-1].obj != (k == toon.KindObjectEnd) {
				return nil, 0, false, errUnexpectedToken(k)
			}
			f := l.stack[len(l.stack)-1]
			start = f.start
			if end, rope, err = l.close(f, byte(k)); err != nil {
				return nil, 0, false, err
			}
			l.stack = l.stack[:len(l.stack)-1]
		case toon.KindString, toon.KindNumber, toon.KindBool, toon.KindNull:
			writeValue(sw, t)
			end = l.pos()
			if len(l.stack) == 0 {
				end-- // the root's newline
			}
		default:
			return nil, 0, false, errUnexpectedToken(k)
		}
		if sw.err != nil {
			return nil, 0, false, sw.err
		}
		// A value is complete: its container takes note of it.
		if len(l.stack) == 0 {
			return rope, end, false, nil
		}
		p := l.stack[len(l.stack)-1]
		if !p.obj {
			if rope != nil {
				p.pieces = addRange(p.pieces, p.from, start)
				p.pieces = addRope(p.pieces, rope)
				p.from = end
			}
			continue
		}
		m := &p.members[p.cur]
		m.sep, m.key, m.val, m.end, m.rope = p.curSep, p.curKey, p.curVal, end, rope
		if rope != nil {
			p.ropes = true
		}
	}
}

// key writes a key of the object f and notes where its member starts.
func (l *lenient) key(f *lframe, k []byte) {
	sw := l.sw
	// What jsonWriter.key writes before the key: a comma after a member,
	// and when indenting a line break and the indentation (before).
	sep := l.pos()
	n := int64(0)
	if sw.next == needComma {
		n = 1
	}
	if sw.indent > 0 {
		n += 1 + int64(sw.depth*sw.indent)
	}
	sw.key(k)
	f.curSep, f.curKey, f.curVal = sep, sep+n, l.pos()
	i := f.find(k)
	if i < 0 {
		i = f.add(k)
	} else {
		f.dup = true
	}
	f.cur = i
}

// close writes the end of the container f and returns the spool offset
// where it ends and its rope, nil when it is one range from f.start.
func (l *lenient) close(f *lframe, c byte) (end int64, rope []piece, err error) {
	sw := l.sw
	last := l.pos() // where the last member ends
	sw.close(c)
	if sw.err != nil {
		return 0, nil, sw.err
	}
	end = l.pos()
	if sw.depth == 0 {
		end-- // the root's newline, written with it
	}
	if !f.obj {
		if f.pieces == nil {
			return end, nil, nil
		}
		return end, addRange(f.pieces, f.from, end), nil
	}
	if !f.dup && !f.ropes {
		return end, nil, nil
	}
	// The members in the order of their first occurrence, each from its
	// latest occurrence. A member takes its separator from the spool when
	// it has the right one: both first, or both not first.
	ps := append(l.build[:0], piece{f.start, f.start + 1})
	defer func() { l.build = ps[:0] }()
	first := f.start + 1 // the first member's separator
	for k := range f.members {
		m := &f.members[k]
		if (k == 0) == (m.sep == first) {
			ps = addRange(ps, m.sep, m.val)
		} else {
			if k > 0 {
				ps = append(ps, piece{pieceComma, 0})
			}
			if sw.indent > 0 {
				ps = append(ps, piece{pieceLine, int64(f.level)})
			}
			ps = addRange(ps, m.key, m.val)
		}
		if m.rope != nil {
			ps = addRope(ps, m.rope)
		} else {
			ps = addRange(ps, m.val, m.end)
		}
	}
	ps = addRange(ps, last, end) // the closing line and brace
	if len(ps) == 1 && ps[0].off >= 0 {
		return end, nil, nil
	}
	if sw.depth == 0 || end-f.start > l.compact {
		return end, slices.Clone(ps), nil
	}
	// Rewrite the object in place. Its output is never longer than its
	// spool bytes (it has as many separators and members or fewer), and
	// it is the last thing in the spool.
	b := l.scratch[:0]
	for _, p := range ps {
		switch p.off {
		case pieceComma:
			b = append(b, ',')
		case pieceLine:
			b = append(b, '\n')
			for n := int(p.end) * sw.indent; n > 0; {
				k := min(n, len(nlSpaces)-1)
				b = append(b, nlSpaces[1:1+k]...)
				n -= k
			}
		default:
			if b, err = l.appendSpan(b, p.off, p.end); err != nil {
				return 0, nil, err
			}
		}
	}
	l.scratch = b
	if f.start >= l.sp.size {
		sw.buf = sw.buf[:f.start-l.sp.size]
	} else {
		l.sp.truncate(f.start)
		sw.buf = sw.buf[:0]
	}
	sw.write(b)
	return l.pos(), nil, sw.err
}

// appendSpan appends the bytes [off, end) of the spool and the spool
// writer's buffer to b.
func (l *lenient) appendSpan(b []byte, off, end int64) ([]byte, error) {
	if k := min(end, l.sp.size); off < k {
		n := len(b)
		b = slices.Grow(b, int(k-off))[:n+int(k-off)]
		if err := l.sp.readAt(b[n:], off); err != nil {
			return b, err
		}
		off = k
	}
	if off < end {
		b = append(b, l.sw.buf[off-l.sp.size:end-l.sp.size]...)
	}
	return b, nil
}

// output writes the pieces of ps to jw, reading the spool into jw's
// buffer. The spool writer has been flushed (the root value ends with a
// flush).
func (l *lenient) output(jw *jsonWriter, ps []piece) error {
	for _, p := range ps {
		switch p.off {
		case pieceComma:
			jw.room(1)
			jw.buf = append(jw.buf, ',')
		case pieceLine:
			jw.newline(int(p.end))
		default:
			for off := p.off; off < p.end; {
				if len(jw.buf) == cap(jw.buf) {
					jw.flush()
				}
				if jw.err != nil {
					return nil // ToJSON reports it
				}
				free := jw.buf[len(jw.buf):cap(jw.buf)]
				n := int(min(int64(len(free)), p.end-off))
				if err := l.sp.readAt(free[:n], off); err != nil {
					return err
				}
				jw.buf = jw.buf[:len(jw.buf)+n]
				off += int64(n)
			}
		}
	}
	return nil
}
