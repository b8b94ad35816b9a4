package toon

// This file holds the memory that the slices and pointers of decoded
// values keep, when a whole value is decoded at once: their small backing
// arrays and pointed-to values are carved out of shared blocks, one block
// per element type, as textStore packs strings.

import (
	"reflect"

	"github.com/toonstream/toon/internal/mem"
)

// slabs hands out zeroed memory for small groups of elements, carved from
// blocks of slabBytes, so that the slice of a short array (the tags of a
// record, the items of an order) or the value a pointer field points to
// costs no allocation of its own. Each carved group belongs to one value
// alone and is never handed out again; a block lives as long as any group
// in it, which is why only Decode and Unmarshal, whose result keeps all its
// values, use slabs, and RowDecoder does not (a kept element would keep
// other elements' memory).
//
// A block is allocated as a slice of its element type, so the collector
// knows the pointers in it.
type slabs struct {
	open [slabKinds]slab
	next int // the slab replaced when all are in use
	// most bounds the elements of a block when the input is a byte slice
	// (wholeState): half the input's length, and one. A value takes a
	// byte of the input, and a delimiter or a line end stands between
	// two, so few inputs hold more elements (an array of empty strings
	// may, and then takes more blocks); a group of more is given a block
	// of its own size. 0 when unknown.
	most int
}

// slab is the current block of one element type.
type slab struct {
	elem *decPlan // the element type's plan; nil for an unused slab
	free mem.Ptr  // the next free element
	left int      // free elements left in the block
}

const (
	slabKinds = 8       // element types with a block open at once
	slabBytes = 4 << 10 // the size of a block
	// Groups of more than slabMax bytes, or elements of more, are
	// allocated on their own: a block would hold too few of them.
	slabMax = slabBytes / 8
)

// alloc returns n zeroed elements of plan ep's type, contiguous, from a
// block; st is the slice type of the element ([]E). ok is false when the
// group is too large for a block: the caller allocates it itself.
func (sb *slabs) alloc(ep *decPlan, st reflect.Type, n int) (p mem.Ptr, ok bool) {
	size := ep.size
	if n <= 0 || size == 0 || uintptr(n)*size > slabMax {
		return mem.Ptr{}, false
	}
	var s *slab
	for i := range sb.open {
		if sb.open[i].elem == ep {
			s = &sb.open[i]
			break
		}
	}
	if s == nil {
		s = &sb.open[sb.next]
		sb.next = (sb.next + 1) % slabKinds
		*s = slab{elem: ep}
	}
	if s.left < n {
		c := int(slabBytes / size)
		if sb.most > 0 {
			c = max(min(c, sb.most), n)
		}
		s.free = mem.PtrOf(reflect.MakeSlice(st, c, c))
		s.left = c
	}
	p = s.free
	s.left -= n
	if s.left > 0 {
		s.free = p.Offset(uintptr(n) * size)
	} else {
		// Never a pointer past the end of the block, not even for a
		// moment: the write barrier would find it in another object.
		s.free = mem.Ptr{}
	}
	return p, true
}
