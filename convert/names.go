package convert

import "bytes"

// nameSet holds the member names of the objects the first pass has open,
// so that a repeated name is rejected as jsontext rejects it by default.
// Names are compared by their unescaped text; the hashes are the seeded
// key hashes the planner computes anyway.
//
// An object's names are ents[mark:] (its mark is taken when it opens), with
// their text in text. Small objects are searched linearly, comparing hashes
// first; an object that reaches indexFrom names gets a hash index, so a
// huge object costs constant time per name.
type nameSet struct {
	ents  []nameEnt
	text  []byte
	idx   []nameIndex // the indexes of open large objects, innermost last
	spare map[uint64]int32
}

type nameEnt struct {
	h      uint64
	off, n int
	prev   int32 // an earlier name with the same hash in an indexed object, or -1
}

type nameIndex struct {
	mark int
	m    map[uint64]int32 // hash to the latest name with that hash
}

const indexFrom = 16

// mark returns the mark of an object that opens now.
func (s *nameSet) mark() int { return len(s.ents) }

// seen adds the name key, whose hash is h, to the innermost open object,
// whose mark is mark, and reports whether the object already has it.
func (s *nameSet) seen(mark int, h uint64, key []byte) bool {
	count := len(s.ents) - mark
	ent := nameEnt{h: h, off: len(s.text), n: len(key), prev: -1}
	if count < indexFrom {
		for _, e := range s.ents[mark:] {
			if e.h == h && bytes.Equal(s.text[e.off:e.off+e.n], key) {
				return true
			}
		}
	} else {
		if count == indexFrom {
			s.index(mark)
		}
		m := s.idx[len(s.idx)-1].m
		if i, ok := m[h]; ok {
			for j := i; j >= 0; j = s.ents[j].prev {
				e := &s.ents[j]
				if bytes.Equal(s.text[e.off:e.off+e.n], key) {
					return true
				}
			}
			ent.prev = i
		}
		m[h] = int32(len(s.ents))
	}
	s.ents = append(s.ents, ent)
	s.text = append(s.text, key...)
	return false
}

// index builds the hash index of the object at mark.
func (s *nameSet) index(mark int) {
	m := s.spare
	s.spare = nil
	if m == nil {
		m = make(map[uint64]int32)
	}
	for j := mark; j < len(s.ents); j++ {
		e := &s.ents[j]
		if i, ok := m[e.h]; ok {
			e.prev = i
		}
		m[e.h] = int32(j)
	}
	s.idx = append(s.idx, nameIndex{mark: mark, m: m})
}

// close forgets the names of the object at mark, which ends.
func (s *nameSet) close(mark int) {
	if mark < len(s.ents) {
		s.text = s.text[:s.ents[mark].off]
		s.ents = s.ents[:mark]
	}
	if n := len(s.idx); n > 0 && s.idx[n-1].mark == mark {
		m := s.idx[n-1].m
		s.idx = s.idx[:n-1]
		if len(m) <= 1<<16 { // keep one modest map for the next large object
			clear(m)
			s.spare = m
		}
	}
}
