package convert

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// table is the header of the tabular array or keyed object being written:
// its field list for the encoder, and an index to place the cells of rows
// that list their keys in another order.
type table struct {
	raw    []byte       // the serialized tree from the plan; names point into it
	fields []toon.Field // the header's field list
	groups []group      // group 0 is the row itself
	nodes  []node
	nleaf  int
}

type group struct{ first, n int32 } // children: nodes[first : first+n]

type node struct {
	name  []byte
	group int32 // the nested group, or -1 for a leaf
	leaf  int32 // the leaf's cell index
}

// parse reads a serialized tree: 'o', a 4-byte key count, then per key a
// uvarint length, the name and the value ('p' or a nested 'o').
func (t *table) parse(raw []byte) error {
	t.raw = raw
	t.groups = t.groups[:0]
	t.nodes = t.nodes[:0]
	t.nleaf = 0
	rest, err := t.parseGroup(raw)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return errTree
	}
	t.fields = t.buildFields(0)
	return nil
}

func (t *table) parseGroup(b []byte) ([]byte, error) {
	if len(b) < 5 || b[0] != 'o' {
		return nil, errTree
	}
	n := binary.LittleEndian.Uint32(b[1:])
	b = b[5:]
	if n == 0 || uint64(n) > uint64(len(b)) {
		return nil, errTree
	}
	gi := len(t.groups)
	first := len(t.nodes)
	t.groups = append(t.groups, group{first: int32(first), n: int32(n)})
	for i := uint32(0); i < n; i++ {
		t.nodes = append(t.nodes, node{})
	}
	for i := 0; i < int(n); i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errTree
		}
		name := b[k : k+int(l)]
		b = b[k+int(l):]
		if len(b) == 0 {
			return nil, errTree
		}
		nd := node{name: name, group: -1}
		switch b[0] {
		case 'p':
			nd.leaf = int32(t.nleaf)
			t.nleaf++
			b = b[1:]
		case 'o':
			nd.group = int32(len(t.groups))
			var err error
			if b, err = t.parseGroup(b); err != nil {
				return nil, err
			}
		default:
			return nil, errTree
		}
		t.nodes[first+i] = nd
	}
	_ = gi
	return b, nil
}

func (t *table) buildFields(g int32) []toon.Field {
	gr := t.groups[g]
	fs := make([]toon.Field, gr.n)
	for i := range fs {
		nd := &t.nodes[gr.first+int32(i)]
		fs[i].Name = nd.name
		if nd.group >= 0 {
			fs[i].Fields = t.buildFields(nd.group)
		}
	}
	return fs
}

// find returns the index in group g of the child named key; hint is where
// it is expected.
func (t *table) find(g int32, key []byte, hint int32) int32 {
	gr := t.groups[g]
	if hint < gr.n && bytes.Equal(t.nodes[gr.first+hint].name, key) {
		return hint
	}
	for i := int32(0); i < gr.n; i++ {
		if bytes.Equal(t.nodes[gr.first+i].name, key) {
			return i
		}
	}
	return -1
}

// rowBuf holds the cells of one row while it is read.
type rowBuf struct {
	t     *table
	data  []byte
	cells []cell
	gen   uint32
}

type cell struct {
	kind   toon.Kind
	lo, hi int32
	gen    uint32 // the row that set it
}

func (r *rowBuf) reset(t *table) {
	r.t = t
	r.data = r.data[:0]
	if len(r.cells) != t.nleaf {
		r.cells = make([]cell, t.nleaf)
		r.gen = 0
	}
	r.gen++
}

// set stores the primitive of kind k the lexer has just read in cell i.
func (r *rowBuf) set(i int32, k byte, lx *lexer) error {
	c := &r.cells[i]
	c.gen = r.gen
	switch k {
	case tkString:
		c.kind = toon.KindString
		lo := len(r.data)
		if !lx.esc {
			r.data = append(r.data, lx.text()...)
		} else {
			var err error
			if r.data, err = jsontext.AppendUnquote(r.data, lx.quoted()); err != nil {
				return err
			}
		}
		c.lo, c.hi = int32(lo), int32(len(r.data))
	case tkTrue, tkFalse:
		c.kind = toon.KindBool
		c.lo = 0
		if k == tkTrue {
			c.lo = 1
		}
	case tkNull:
		c.kind = toon.KindNull
	default:
		c.kind = toon.KindNumber
		c.lo = int32(len(r.data))
		r.data = append(r.data, lx.text()...)
		c.hi = int32(len(r.data))
	}
	return nil
}

func (r *rowBuf) token(i int32) toon.Token {
	c := &r.cells[i]
	switch c.kind {
	case toon.KindString:
		return toon.StringToken(r.data[c.lo:c.hi])
	case toon.KindNumber:
		return toon.NumberToken(r.data[c.lo:c.hi])
	case toon.KindBool:
		return toon.BoolToken(c.lo == 1)
	}
	return toon.NullToken()
}

// value returns cell i as a toon.Value that refers to r.data: it is valid
// until the next row.
func (r *rowBuf) value(i int32) toon.Value {
	c := &r.cells[i]
	switch c.kind {
	case toon.KindString:
		return toon.Bytes(r.data[c.lo:c.hi])
	case toon.KindNumber:
		b := r.data[c.lo:c.hi]
		return toon.NumberValue(toon.Number(mem.String(b)))
	case toon.KindBool:
		return toon.Bool(c.lo == 1)
	}
	return toon.Null()
}

// readGroup reads the members of an object of group g, whose '{' has been
// read, into the row buffer.
func (e *emitter) readGroup(g int32) error {
	t := &e.tree
	gr := t.groups[g]
	var seen, next int32
	for {
		k, err := e.lx.next()
		if err != nil {
			return err
		}
		if k == tkObjEnd {
			if seen != gr.n {
				return errChanged(errors.New("a row does not have its header's fields"))
			}
			return nil
		}
		if k != tkKey {
			return errPlan
		}
		key, err := e.lx.unescaped(&e.scr)
		if err != nil {
			return err
		}
		i := t.find(g, key, next)
		if i < 0 {
			return errChanged(errors.New("a row has a field its header lacks"))
		}
		next = i + 1
		seen++
		nd := &t.nodes[gr.first+i]
		if k, err = e.lx.next(); err != nil {
			return err
		}
		if nd.group < 0 {
			if k == tkObjStart || k == tkArrStart {
				return errChanged(errors.New("a row cell is not a primitive"))
			}
			if err := e.row.set(nd.leaf, k, e.lx); err != nil {
				return err
			}
			continue
		}
		if k != tkObjStart {
			return errChanged(errors.New("a row's nested field is not an object"))
		}
		if _, err := e.readObjectSlot(); err != nil {
			return err
		}
		if err := e.readGroup(nd.group); err != nil {
			return err
		}
	}
}

// writeFlatRow writes the buffered row of a flat table with WriteRow.
func (e *emitter) writeFlatRow() error {
	e.cells = e.cells[:0]
	for i := range e.row.cells {
		if e.row.cells[i].gen != e.row.gen {
			return errChanged(errors.New("a row lacks one of its header's fields"))
		}
		e.cells = append(e.cells, e.row.value(int32(i)))
	}
	return e.enc.WriteRow(e.cells...)
}

// writeRow writes the buffered row as tokens in header order.
func (e *emitter) writeRow() error {
	if err := e.enc.WriteToken(toon.ObjectStartToken()); err != nil {
		return err
	}
	if err := e.writeGroup(0); err != nil {
		return err
	}
	return e.enc.WriteToken(toon.ObjectEndToken())
}

func (e *emitter) writeGroup(g int32) error {
	t := &e.tree
	gr := t.groups[g]
	for i := gr.first; i < gr.first+gr.n; i++ {
		nd := &t.nodes[i]
		if err := e.enc.WriteToken(toon.KeyToken(nd.name)); err != nil {
			return err
		}
		if nd.group < 0 {
			if e.row.cells[nd.leaf].gen != e.row.gen {
				return errChanged(errors.New("a row lacks one of its header's fields"))
			}
			if err := e.enc.WriteToken(e.row.token(nd.leaf)); err != nil {
				return err
			}
			continue
		}
		if err := e.enc.WriteToken(toon.ObjectStartToken()); err != nil {
			return err
		}
		if err := e.writeGroup(nd.group); err != nil {
			return err
		}
		if err := e.enc.WriteToken(toon.ObjectEndToken()); err != nil {
			return err
		}
	}
	return nil
}
