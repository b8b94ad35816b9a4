package toon

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"strconv"

	"github.com/toonstream/toon/internal/mem"
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

// endToken returns the token that ends a scope of kind k.
func (k frameKind) endToken() Token {
	if k == fList || k == fTabular {
		return ArrayEndToken()
	}
	return ObjectEndToken()
}

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
	d.stack = slices.Grow(d.stack, 1)
	f := d.openFrame(kind, depth, n)
	f.fresh = kind != fObject && kind != fItem // see fieldValue for fObject
	f.line = d.line.num
	return f, nil
}

// openFrame opens a scope on a stack with room for it: push's common
// case, but for the scope's fresh and line, which the caller sets. It is
// small enough to be inlined where a run opens objects.
func (d *Decoder) openFrame(kind frameKind, depth, n int) *frame {
	k := len(d.stack)
	d.stack = d.stack[:k+1]
	f := &d.stack[k]
	f.kind, f.depth, f.n, f.count = kind, depth, n, 0
	f.keys.reset()
	return f
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
	d.emit(f.kind.endToken())
	if len(d.stack) == 0 && d.root != rootScalar {
		d.root = rootDone
	}
	return nil
}

// keySet remembers the keys of one object to find duplicates. Small sets are
// searched linearly, through two words per key (keyWords: its length and
// first fifteen bytes, the whole of most keys) so that most keys are told
// apart, and keys of up to fifteen bytes found equal, without their bytes;
// a filter of one bit per key (seen) settles most new keys without any
// search. Larger sets go through an open-addressing table, so a million
// sibling keys cost linear time. A short key new to the filter is new
// (runLines adds it without a call): the filter admits at most 64 keys
// so, and addWords moves a set of more than 16 keys to a table when it
// is called, so a small set holds at most 64 such keys and 17 others.
type keySet struct {
	arena []byte
	// ends: in a small set, where each key longer than fifteen bytes ends
	// in the arena (shorter keys are kept as their words alone, and longer
	// ones in order); in a table, where every key ends.
	ends  []int32
	words []keyWord // per key, its words (small sets only)
	seen  uint64    // the bits (keyWord.bit) of the words in words; all set in a table
	spare []byte    // toTable's other arena, kept for its capacity
	table []int32   // slot: index+1 into ends, 0 empty
}

// keyWord is a key's two words (keyWords): lo, its print (keyPrint), and
// hi, its bytes 7 to 14.
type keyWord struct{ lo, hi uint64 }

// shortKey is the length of the longest key that its words hold whole.
const shortKey = 15

var keySeed = maphash.MakeSeed()

func (s *keySet) reset() {
	s.arena = s.arena[:0]
	s.ends = s.ends[:0]
	s.words = s.words[:0]
	s.seen = 0
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

// keyWordsOf returns the words of key k, reading only its bytes: its
// print, and its bytes 7 to 14 packed as keyPrint packs the first ones
// (zero past the key's end). A key of 8 to 14 bytes has those in the top
// of its last eight bytes' word. The print of a key of 8 bytes or more is
// keyPrint's, written out: the call to keyPrint cost 1% more instructions
// of a WriteToken pass on config and orders.
func keyWordsOf(k []byte) keyWord {
	n := len(k)
	if n < 8 {
		return keyWord{lo: keyPrint(k)}
	}
	p := mem.BytesData(k)
	lo := p.Load64(0)&^(0xff<<56) | uint64(min(n, 255))<<56
	if n >= shortKey {
		return keyWord{lo: lo, hi: p.Load64(7)}
	}
	return keyWord{lo: lo, hi: p.Load64(n-8) >> (8 * uint(shortKey-n))}
}

// keyWords returns keyWordsOf of the n bytes at p, a key followed by
// enough bytes that p holds at least shortKey (a line and the buffer after
// it hold the key and more): two words read from p, with the bytes past
// the key masked off, and no branch on the key's length.
func keyWords(p mem.Ptr, n int) keyWord {
	lo, hi := p.Load64(0), p.Load64(7)
	m := &keyMasks[min(uint(n), shortKey)] // (n >= 1: uint spares a bounds check)
	return keyWord{lo: lo&m.lo | uint64(min(n, 255))<<56, hi: hi & m.hi}
}

// keyMasks[n] holds the masks that keep, of the two words keyWords reads
// for a key of n bytes, the key's first min(n, 7) bytes (lo) and its bytes
// from the 8th on (hi), for n up to shortKey (every longer key's are
// those of shortKey).
var keyMasks = func() (t [shortKey + 1]keyWord) {
	for n := range t {
		t[n].lo = ^uint64(0) >> (64 - 8*uint(min(n, 7)))
		t[n].hi = ^uint64(0) >> (64 - 8*uint(min(max(n-7, 0), 8)))
	}
	return t
}()

// bit is the bit of w in a small set's filter.
func (w keyWord) bit() uint64 {
	return 1 << (((w.lo + w.hi) * 0x9e3779b97f4a7c15) >> 58)
}

// add records k and reports whether it was new.
func (s *keySet) add(k []byte) bool {
	if len(s.table) == 0 {
		w := keyWordsOf(k)
		return s.addNew(len(k), w) || s.addWords(k, w)
	}
	return s.addHashed(k)
}

// addNew adds a key of n bytes whose words are w when it is a key of up
// to shortKey bytes new to the filter, and so new to the set, and reports
// whether it did. It is small enough to be inlined (a set with a table has
// every bit of its filter set, so it adds no key to a table); addWords
// adds any other key.
func (s *keySet) addNew(n int, w keyWord) bool {
	if bit := w.bit(); s.seen&bit == 0 && n <= shortKey {
		s.seen |= bit
		s.words = append(s.words, w)
		return true
	}
	return false
}

// addWords is add given w, keyWordsOf(k).
func (s *keySet) addWords(k []byte, w keyWord) bool {
	if len(s.table) != 0 {
		return s.addHashed(k)
	}
	bit := w.bit()
	if s.seen&bit != 0 && s.has(k, w) {
		return false
	}
	s.seen |= bit
	if len(k) > shortKey {
		s.arena = append(s.arena, k...)
		s.ends = append(s.ends, int32(len(s.arena)))
	}
	s.words = append(s.words, w)
	if len(s.words) > 16 {
		size := 64
		for size < 2*len(s.words) {
			size *= 2
		}
		s.rehash(size)
	}
	return true
}

// has reports whether the small set holds k, whose words are w.
func (s *keySet) has(k []byte, w keyWord) bool {
	long := 0 // keys longer than shortKey before the one looked at
	for _, x := range s.words {
		if x.lo>>56 > shortKey {
			long++
			if x == w && bytes.Equal(s.key(long-1), k) {
				return true
			}
		} else if x == w {
			return true
		}
	}
	return false
}

// addHashed is add for a set with a table.
func (s *keySet) addHashed(k []byte) bool {
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

// toTable moves a small set's keys into the arena, each with its end in
// ends, so that every key has its bytes there: the hash table needs them.
// The bytes of a key of up to shortKey bytes are its words'.
func (s *keySet) toTable() {
	var longEnds [17]int32 // a small set holds at most 17 long keys
	copy(longEnds[:], s.ends)
	arena := s.spare[:0]
	ends := s.ends[:0]
	start, long := int32(0), 0 // of the next long key in the old arena
	for _, w := range s.words {
		if n := int(w.lo >> 56); n <= shortKey {
			for j := 0; j < n; j++ {
				if j < 7 {
					arena = append(arena, byte(w.lo>>(8*uint(j))))
				} else {
					arena = append(arena, byte(w.hi>>(8*uint(j-7))))
				}
			}
		} else {
			end := longEnds[long]
			arena = append(arena, s.arena[start:end]...)
			start = end
			long++
		}
		ends = append(ends, int32(len(arena)))
	}
	s.arena, s.spare = arena, s.arena[:0] // both keep their capacity
	s.ends = ends
	s.words = s.words[:0]
}

func (s *keySet) rehash(size int) {
	if len(s.words) > 0 {
		s.toTable()
	}
	if cap(s.table) >= size {
		s.table = s.table[:size]
		clear(s.table)
	} else {
		s.table = make([]int32, size)
	}
	s.seen = ^uint64(0) // every key goes to addWords, and so to the table
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
