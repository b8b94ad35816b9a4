package convert

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"io"
	"math/bits"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// The first pass of FromJSON reads the JSON document and writes its plan:
// what the encoder must know about each container before it writes it.
//
// The slot stream holds, in the order the containers start (pre-order):
//
//   - for every array, 9 bytes: its toon.Form and its length (uint64, little
//     endian);
//   - for every object that is not an array element (the root and object
//     values of keys), 1 byte: 1 if it takes the keyed tabular form (§9.5),
//     else 0. Array elements never take the keyed form (§10), so they have
//     no slot.
//
// A container's form is known only at its end, so its slot is reserved at
// its start and patched at its end.
//
// The table stream holds one record per tabular array and keyed object, in
// the order they start: the entry count (uvarint), the field tree's size
// (uvarint) and the tree, and the table's row ranges (see
// fromjson_parallel.go): their number (uvarint) and, if not 0, the offset
// of the first in the range stream (uvarint). No
// table lies inside another one that is written as a table (rows hold
// primitives and objects only), so a table's record, written at its end,
// can first cut off the records of the candidates inside it, and the
// records of the tables that are written come out in the order they start.
//
// Form selection follows toon.Marshal (§9, §10):
//
//   - an empty array is FormEmpty; an array of primitives is FormInline;
//   - an array of objects that is not itself an array element is
//     FormTabular when every element is a non-empty object, all have the
//     same set of keys, and every column is primitive or nested-uniform
//     (§9.3); otherwise FormList;
//   - an object that is not an array element takes the keyed form when it
//     has at least two entries and its values pass the same test (§9.5).
//
// "Same set of keys, every column primitive or nested-uniform" is decided
// by a shape hash of each value: a primitive has a fixed hash; an array or
// an empty object has none (it disqualifies); a non-empty object's hash
// combines, independently of key order, the hashes of its keys with the
// shapes of their values. The key hash is seeded at random for each call,
// so inputs cannot be built to collide. The second pass matches every row
// against its header exactly and fails rather than write a wrong table.
//
// The header's field tree is the first element's key structure. It is
// recorded, while the first element of a candidate is read, into an arena
// that holds the serialized structure of the value being read ('o', a
// 4-byte key count, then per key its length, bytes and value; 'p' for a
// primitive; 'a' for an array), so the trees of candidates nested in
// candidates are sub-ranges of one recording. The arena is cut back as soon
// as no open candidate needs it, and it never holds more than the
// WithMaxHeaderSize limit.

const (
	slotArray  = 9
	slotObject = 1
)

type position uint8

const (
	posRoot  position = iota // the document's root
	posField                 // the value of an object key
	posItem                  // an array element
)

// shape of a finished value, reported to its parent.
type shape struct {
	prim bool   // a primitive
	obj  bool   // an object
	ok   bool   // a primitive or a non-empty object whose values are all ok
	h    uint64 // the shape hash when ok
}

type p1frame struct {
	array bool
	pos   position
	n     int   // elements or entries so far
	slot  int64 // offset of the slot, or -1

	// Shape of this object.
	sum     uint64 // sum of the members' hashes
	allOK   bool   // every member so far is ok
	keyHash uint64 // hash of the key whose value is being read
	names   int    // object: its mark in the planner's nameSet

	// Form.
	allPrim bool   // array: every element so far is a primitive
	cand    bool   // still a candidate for the tabular or keyed form
	first   uint64 // shape hash of the first element or entry value
	tmark   int64  // size of the table stream at the start

	// Recording of the first element's structure.
	rec      bool // this candidate records its first element
	recOpen  bool // ... and that element is still being read
	recOver  bool // the recording did not fit in the arena
	recStart int  // the first element's structure: arena[recStart:recEnd]
	recEnd   int
	arenaAt  int // object being recorded: offset of its key count, else -1

	// Rows: an array whose first element is a flat object has that
	// object's names as the template p.tmpls[depth], and its next elements
	// are read with lexer.matchRow while they fit it.
	tmpl bool
	miss int // consecutive elements that did not fit the template

	// Row ranges of a table for the second pass's workers
	// (fromjson_parallel.go): the open run of rows matched whole starts
	// at input offset runAt (-1: none open) after runRow elements; the
	// array's ranges are the rn records from rfirst in the range stream.
	runAt  int64
	runRow int
	rfirst int64
	rn     int
}

type planner struct {
	c      *config
	lx     *lexer
	names  nameSet
	slots  *spill
	tables *spill
	seed   maphash.Seed
	stack  []p1frame
	arena  []byte
	recN   int  // open candidates whose first element is being recorded
	over   bool // the arena overflowed while recN > 0
	scr    []byte
	tmp    [16]byte
	tmpls  []rowTemplate // by depth
	cells  []mcell

	// The input as an io.ReaderAt, for a helper (ahead.go): raStart is the
	// offset of the JSON in it, size the JSON's length.
	ra      io.ReaderAt
	raStart int64
	size    int64
	seek    func(off int64) error
	ahead   *ahead
	joined  int // rows counted by helpers (for the tests)

	// ranges, when the second pass may encode in parallel, receives the
	// row ranges of large tables (fromjson_parallel.go), of rangeSize
	// bytes of input each.
	ranges    *spill
	rangeSize int64
}

// Shape hash constants.
const (
	hashPrim uint64 = 0x9e3779b97f4a7c15
	hashObj  uint64 = 0xc2b2ae3d27d4eb4f
)

func mix(x uint64) uint64 { // the splitmix64 finalizer
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// run runs the first pass over r.
func (p *planner) run(r io.Reader) error {
	// The buffer starts no larger than the longest token needs, so that
	// the rows lexer.matchRow reads from it hold no longer one either.
	n := min(p.c.bufSize, p.c.maxLine+2)
	p.lx = lexerFor(r, make([]byte, 0, n), n)
	p.lx.maxTok = p.c.maxLine
	p.lx.seek = p.seek
	p.lx.lines = p.c.lines != nil
	p.seed = maphash.MakeSeed()
	defer p.cancelAhead()
	for {
		if n := len(p.stack); n > 0 && p.stack[n-1].tmpl {
			if err := p.matchRows(&p.stack[n-1]); err != nil {
				return err
			}
		}
		k, err := p.lx.next()
		if err != nil {
			return err
		}
		var top *p1frame
		if len(p.stack) > 0 {
			top = &p.stack[len(p.stack)-1]
		}
		switch k {
		case tkEOF:
			return nil
		case tkKey:
			key, err := p.lx.unescaped(&p.scr)
			if err != nil {
				return err
			}
			h := maphash.Bytes(p.seed, key)
			if p.names.seen(top.names, h, key) {
				return repeatedNameError{&syntaxError{off: p.lx.off, msg: "duplicate object member name " + strconv.Quote(string(key))}}
			}
			top.keyHash = h
			if top.arenaAt >= 0 {
				p.record(binary.AppendUvarint(p.tmp[:0], uint64(len(key)))...)
				p.record(key...)
			}
		case tkObjEnd:
			if err := p.endObject(); err != nil {
				return err
			}
		case tkArrEnd:
			if err := p.endArray(); err != nil {
				return err
			}
		case tkObjStart, tkArrStart:
			if err := p.begin(top, k == tkArrStart); err != nil {
				return err
			}
		default: // a primitive
			p.startValue(top, false)
			p.record('p')
			if err := p.endValue(shape{prim: true, ok: true, h: hashPrim}); err != nil {
				return err
			}
		}
	}
}

// matchRows reads the elements of the array f that fit its template. Each
// is an object with the names of f's first element, in the same order, all
// with primitive values: its shape is the first element's, it has no slot,
// no table and no repeated name, so counting it is all the plan needs of
// it. That holds only while no candidate records (the recording would
// miss the row) and while a row is within the depth limit.
func (p *planner) matchRows(f *p1frame) error {
	if p.recN > 0 && !p.over || len(p.stack) >= p.c.maxDepth {
		return nil
	}
	t := &p.tmpls[len(p.stack)-1]
	if cap(p.cells) < len(t.ends) {
		p.cells = make([]mcell, len(t.ends))
	}
	cells := p.cells[:len(t.ends)]
	if f.n == 1 && p.ahead == nil {
		p.startAhead(t)
	}
	for {
		if a := p.ahead; a != nil {
			if moved, err := p.joinAhead(f); err != nil || moved {
				if moved {
					if err = p.joinRanges(f, a); err == nil {
						p.startAhead(t)
					}
				}
				return err
			}
		}
		if p.ranges != nil && f.runAt < 0 && p.lx.state == lxAfter {
			f.runAt, f.runRow = p.lx.base+int64(p.lx.i), f.n
		}
		if !p.lx.matchNext(t, cells) {
			break
		}
		f.n++
		f.miss = 0
		if p.ranges != nil {
			if off := p.lx.base + int64(p.lx.i); off-f.runAt >= p.rangeSize {
				if err := p.addRange(f, encRange{start: f.runAt, end: off, rows: int64(f.n - f.runRow)}); err != nil {
					return err
				}
				f.runAt, f.runRow = off, f.n
			}
		}
	}
	if err := p.closeRun(f); err != nil {
		return err
	}
	// The next element does not fit, or is not wholly in the buffer, or
	// the array ends: it is read token by token. Stop trying after many
	// misfits in a row.
	if f.miss++; f.miss > 16 {
		f.tmpl = false
	}
	return nil
}

// setTemplate makes the template of array f, at the top of the stack, from
// the recording of its first element, if that element is a flat object.
func (p *planner) setTemplate(f *p1frame) {
	depth := len(p.stack) - 1
	for len(p.tmpls) <= depth {
		p.tmpls = append(p.tmpls, rowTemplate{})
	}
	t := &p.tmpls[depth]
	rec := p.arena[f.recStart:f.recEnd]
	if t.ok && string(rec) == string(t.src) {
		// The same names as the last array here (a list of small tables).
		f.tmpl, f.miss = true, 0
		return
	}
	t.reset()
	t.src = append(t.src[:0], rec...)
	if len(rec) < 5 || rec[0] != 'o' {
		return
	}
	n := binary.LittleEndian.Uint32(rec[1:])
	rec = rec[5:]
	for i := uint32(0); i < n; i++ {
		l, k := binary.Uvarint(rec)
		if k <= 0 || l >= uint64(len(rec)-k) || rec[k+int(l)] != 'p' {
			t.reset()
			return
		}
		if !t.add(rec[k : k+int(l)]) {
			return
		}
		rec = rec[k+int(l)+1:]
	}
	if len(rec) != 0 {
		t.reset()
		return
	}
	t.finish()
	f.tmpl, f.miss = t.ok, 0
}

// startValue is called when a value starts in the container top (nil at the
// root). A candidate starts recording when its first element is an object.
func (p *planner) startValue(top *p1frame, isObj bool) {
	if top == nil || top.n > 0 || !top.cand || !isObj {
		return
	}
	top.rec, top.recOpen = true, true
	top.recStart = len(p.arena)
	p.recN++
}

// record appends structure to the arena while some candidate records.
func (p *planner) record(b ...byte) {
	if p.recN == 0 || p.over {
		return
	}
	if len(p.arena)+len(b) > p.c.maxHeader+16 {
		p.over = true
		return
	}
	p.arena = append(p.arena, b...)
}

func (p *planner) begin(top *p1frame, array bool) error {
	if len(p.stack) >= p.c.maxDepth {
		return errTooDeep(p.c.maxDepth)
	}
	pos := posRoot
	if top != nil {
		pos = posField
		if top.array {
			pos = posItem
		}
	}
	p.startValue(top, !array)
	f := p1frame{array: array, pos: pos, slot: -1, allOK: true, allPrim: true, names: p.names.mark(), arenaAt: -1, runAt: -1}
	f.tmark = p.tables.size()
	switch {
	case array:
		f.slot = p.slots.size()
		if err := p.slots.write(make([]byte, slotArray)...); err != nil {
			return err
		}
		f.cand = pos != posItem // §9.4: no tabular form for a list item
		p.record('a')
	default:
		if pos != posItem {
			f.slot = p.slots.size()
			if err := p.slots.write(0); err != nil {
				return err
			}
			f.cand = true
		}
		if p.recN > 0 && !p.over {
			p.record('o', 0, 0, 0, 0)
			if !p.over {
				f.arenaAt = len(p.arena) - 4
			}
		}
	}
	p.stack = append(p.stack, f)
	return nil
}

// endValue hands a finished value's shape to its container.
func (p *planner) endValue(s shape) error {
	if len(p.stack) == 0 {
		return nil
	}
	f := &p.stack[len(p.stack)-1]
	f.n++
	if f.recOpen { // the first element is complete
		f.recOpen = false
		f.recEnd = len(p.arena)
		f.recOver = p.over
		p.recN--
		if p.recN == 0 && (f.recOver || !f.cand || !s.obj || !s.ok) {
			// Nobody needs this recording: drop it now.
			p.dropRecording(f)
		} else if f.array && s.obj && s.ok && !f.recOver {
			p.setTemplate(f)
		}
	}
	if f.array {
		if !s.prim {
			f.allPrim = false
		}
	} else {
		if s.ok {
			f.sum += mix(f.keyHash ^ bits.RotateLeft64(s.h, 29)*0xff51afd7ed558ccd)
		} else {
			f.allOK = false
		}
	}
	if f.cand {
		switch {
		case !s.obj || !s.ok:
			f.cand = false
		case f.n == 1:
			f.first = s.h
		case s.h != f.first:
			f.cand = false
		}
	}
	return nil
}

func (p *planner) dropRecording(f *p1frame) {
	p.arena = p.arena[:f.recStart]
	f.rec = false
	if p.recN == 0 {
		p.over = false
	}
}

// finish pops the top frame, cutting back the arena if nobody else needs it.
func (p *planner) pop() p1frame {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if f.rec && p.recN == 0 {
		p.arena = p.arena[:f.recStart]
		p.over = false
	}
	return f
}

// writeTable writes the table record of f, cutting off the records of the
// candidates inside it.
func (p *planner) writeTable(f *p1frame) error {
	if f.recOver || !f.rec {
		return errors.New("convert: " + errHeaderTooLarge.Error() + ": its field names exceed " + strconv.Itoa(p.c.maxHeader) + " bytes (see WithMaxHeaderSize)")
	}
	if err := p.tables.truncate(f.tmark); err != nil {
		return err
	}
	if err := p.tables.write(binary.AppendUvarint(p.tmp[:0], uint64(f.n))...); err != nil {
		return err
	}
	tree := p.arena[f.recStart:f.recEnd]
	if err := p.tables.write(binary.AppendUvarint(p.tmp[:0], uint64(len(tree)))...); err != nil {
		return err
	}
	if err := p.tables.write(tree...); err != nil {
		return err
	}
	if f.rn <= 0 {
		return p.tables.write(0)
	}
	b := binary.AppendUvarint(p.tmp[:0], uint64(f.rn))
	return p.tables.write(binary.AppendUvarint(b, uint64(f.rfirst))...)
}

func (p *planner) endArray() error {
	if p.ahead != nil && p.ahead.depth == len(p.stack) {
		p.cancelAhead() // the table ends before the helper's boundary
	}
	if err := p.closeRun(&p.stack[len(p.stack)-1]); err != nil {
		return err
	}
	f := p.pop()
	form := toon.FormList
	switch {
	case f.n == 0:
		form = toon.FormEmpty
	case f.allPrim:
		form = toon.FormInline
	case f.cand:
		form = toon.FormTabular
		if err := p.writeTable(&f); err != nil {
			return err
		}
	}
	var b [slotArray]byte
	b[0] = byte(form)
	binary.LittleEndian.PutUint64(b[1:], uint64(f.n))
	if err := p.slots.patch(f.slot, b[:]); err != nil {
		return err
	}
	return p.endValue(shape{})
}

func (p *planner) endObject() error {
	top := &p.stack[len(p.stack)-1]
	if top.arenaAt >= 0 && !p.over {
		binary.LittleEndian.PutUint32(p.arena[top.arenaAt:], uint32(top.n))
	}
	f := p.pop()
	p.names.close(f.names)
	if f.slot >= 0 && f.cand && f.n >= 2 {
		if err := p.writeTable(&f); err != nil {
			return err
		}
		if err := p.slots.patch(f.slot, []byte{1}); err != nil {
			return err
		}
	}
	s := shape{obj: true, ok: f.allOK && f.n > 0}
	if s.ok {
		s.h = mix(f.sum ^ hashObj + uint64(f.n)*0x9e3779b97f4a7c15)
	}
	return p.endValue(s)
}

// unquoteInto unescapes the JSON string raw (with its quotes) into *scr.
// The lexer has validated raw, so jsontext's unquoting cannot fail on it;
// it is used for the rare strings with escapes, so that they decode
// exactly as jsontext decodes them.
func unquoteInto(scr *[]byte, raw []byte) ([]byte, error) {
	var err error
	*scr, err = jsontext.AppendUnquote((*scr)[:0], raw)
	return *scr, err
}
