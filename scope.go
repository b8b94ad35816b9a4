package toon

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"strconv"
)

// This file holds the decoder's scope stack: the open objects, lists and
// tables, their declared counts, and the keys seen in each object.

// scopes is the decoder's scope stack: what the root is, the scopes open
// inside it, and the content lines where the current line's scopes end.
type scopes struct {
	stack []frame // open scopes, innermost last
	root  rootState
	// cur is the last content line taken; end, while a line is being
	// handled, the content line before it, where the scopes that the line
	// closes end (count errors are reported there).
	cur, end lineRef
}

// reset empties the stack for a new document, keeping its memory.
func (s *scopes) reset() {
	s.stack = s.stack[:0]
	s.root = rootStart
	s.cur, s.end = lineRef{}, lineRef{}
}

// lineRef locates a line: its number and its input offset.
type lineRef struct {
	num int
	off int64
}

type rootState uint8

const (
	rootStart  rootState = iota // no content line yet
	rootObject                  // the root is an object (a frame is open)
	rootArray                   // the root is an array or keyed object (a frame is open)
	rootScalar                  // the root is a primitive, held in scalarBuf
	rootDone                    // the root value is complete
)

type frameKind uint8

const (
	fObject  frameKind = iota // ordinary object
	fItem                     // object that is a list item; its first field was on the hyphen line
	fList                     // expanded list of "- " items
	fTabular                  // tabular rows
	fKeyed                    // keyed entry rows
)

// frame is one open scope. depth is the depth of the scope's content lines.
type frame struct {
	kind  frameKind
	depth int
	n     int // declared length
	count int // items, rows or entries seen
	line  int // line number of the header, for count errors
	keys  keySet
	// fresh: no line of the scope's content has been read, and none was on
	// the line that opened it, so in non-strict mode its first line may be
	// deeper than depth and then sets it.
	fresh bool
}

// push opens a scope.
func (d *Decoder) push(kind frameKind, depth, n int) (*frame, error) {
	if len(d.stack) >= d.opts.maxDepth {
		return nil, d.syntaxErr(0, detail(ErrDepth, "more than "+strconv.Itoa(d.opts.maxDepth)+" levels"))
	}
	if len(d.stack) < cap(d.stack) {
		d.stack = d.stack[:len(d.stack)+1]
	} else {
		d.stack = append(d.stack, frame{})
	}
	f := &d.stack[len(d.stack)-1]
	f.kind, f.depth, f.n, f.count = kind, depth, n, 0
	f.fresh = kind != fObject && kind != fItem // see fieldValue for fObject
	f.line = d.line.num
	f.keys.reset()
	return f, nil
}

// pop closes the innermost scope, checking its count and emitting its end
// token. A scope whose count is wrong is not closed: its end token would
// let a consumer that writes as it reads (ToJSON) complete a document
// whose data is missing, so the error comes instead.
func (d *Decoder) pop() error {
	f := &d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	if d.opts.strict && f.count != f.n {
		switch f.kind {
		case fList:
			return d.shortErr(f, "item", "items")
		case fTabular:
			return d.shortErr(f, "row", "rows")
		case fKeyed:
			return d.shortErr(f, "entry", "entries")
		}
	}
	switch f.kind {
	case fObject, fItem, fKeyed:
		d.emit(ObjectEndToken())
	case fList, fTabular:
		d.emit(ArrayEndToken())
	}
	if len(d.stack) == 0 && d.root != rootScalar {
		d.root = rootDone
	}
	return nil
}

// keySet remembers the keys of one object to find duplicates. Small sets are
// searched linearly, through a word per key (its first eight bytes and its
// length) so that most keys are told apart without comparing their bytes;
// larger ones through an open-addressing table, so a million sibling keys
// cost linear time.
type keySet struct {
	arena []byte
	ends  []int32
	fps   []uint64 // per key, keyPrint of it (small sets only)
	spare []byte   // toTable's other arena, kept for its capacity
	table []int32  // slot: index+1 into ends, 0 empty
}

var keySeed = maphash.MakeSeed()

func (s *keySet) reset() {
	s.arena = s.arena[:0]
	s.ends = s.ends[:0]
	s.fps = s.fps[:0]
	s.table = s.table[:0]
}

func (s *keySet) key(i int) []byte {
	start := int32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.arena[start:s.ends[i]]
}

// keyPrint packs a key's length and its first bytes into a word: keys
// with different prints differ, and keys of up to seven bytes with equal
// prints are equal. It reads only the key's own bytes: a key of 4 to 7
// bytes as two 4-byte words that overlap, a shorter one as its first,
// middle and last bytes, each OR-ed in at its place (overlapping bytes
// are the same byte, so the overlaps do not matter).
func keyPrint(k []byte) uint64 {
	n := len(k)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(k)&^(0xff<<56) | uint64(min(n, 255))<<56
	case n >= 4:
		lo, hi := binary.LittleEndian.Uint32(k), binary.LittleEndian.Uint32(k[n-4:])
		return uint64(lo) | uint64(hi)<<(8*uint(n-4)) | uint64(n)<<56
	case n > 0:
		m := n >> 1
		return uint64(k[0]) | uint64(k[m])<<(8*uint(m)) | uint64(k[n-1])<<(8*uint(n-1)) | uint64(n)<<56
	}
	return 0
}

// add records k and reports whether it was new. Keys shorter than eight
// bytes are kept as their prints alone; longer ones also in the arena.
func (s *keySet) add(k []byte) bool {
	if len(s.table) == 0 {
		fp := keyPrint(k)
		for i, f := range s.fps {
			if f == fp && (len(k) < 8 || bytes.Equal(s.key(i), k)) {
				return false
			}
		}
		if len(k) >= 8 {
			s.arena = append(s.arena, k...)
		}
		s.ends = append(s.ends, int32(len(s.arena)))
		s.fps = append(s.fps, fp)
		if len(s.ends) > 16 {
			s.rehash(64)
		}
		return true
	}
	mask := len(s.table) - 1
	for i := int(maphash.Bytes(keySeed, k)) & mask; ; i = (i + 1) & mask {
		v := s.table[i]
		if v == 0 {
			s.arena = append(s.arena, k...)
			s.ends = append(s.ends, int32(len(s.arena)))
			s.table[i] = int32(len(s.ends))
			if 2*len(s.ends) > len(s.table) {
				s.rehash(2 * len(s.table))
			}
			return true
		}
		if bytes.Equal(s.key(int(v-1)), k) {
			return false
		}
	}
}

// toTable moves a small set's short keys, kept as prints only, into the
// arena, so that every key has its bytes there: the hash table needs them.
func (s *keySet) toTable() {
	arena := s.spare[:0]
	start := int32(0) // of key i in the old arena
	for i, fp := range s.fps {
		end := s.ends[i]
		if n := int(fp >> 56); n < 8 {
			for j := 0; j < n; j++ {
				arena = append(arena, byte(fp>>(8*uint(j))))
			}
		} else {
			arena = append(arena, s.arena[start:end]...)
		}
		start = end
		s.ends[i] = int32(len(arena))
	}
	s.arena, s.spare = arena, s.arena[:0] // both keep their capacity
	s.fps = s.fps[:0]
}

func (s *keySet) rehash(size int) {
	if len(s.fps) > 0 {
		s.toTable()
	}
	if cap(s.table) >= size {
		s.table = s.table[:size]
		clear(s.table)
	} else {
		s.table = make([]int32, size)
	}
	mask := size - 1
	for j := range s.ends {
		for i := int(maphash.Bytes(keySeed, s.key(j))) & mask; ; i = (i + 1) & mask {
			if s.table[i] == 0 {
				s.table[i] = int32(j + 1)
				break
			}
		}
	}
}
