package toon

// This file makes the strings that decoded values keep, saving
// allocations where the result allows it.

import (
	"math"

	"github.com/toonstream/toon/internal/mem"
)

// textStore makes the strings of one Decode call or RowDecoder: values
// are copied out of the Decoder's buffer, packed into shared blocks or
// interned; object keys of generic values come from a small cache.
type textStore struct {
	pack   bool              // pack short strings into shared blocks
	perRow bool              // pack each element's strings into a block of its own
	block  []byte            // the current block of packed strings
	used   int               // perRow: bytes the current element's strings take outside block
	est    int               // perRow: the size of the next element's block
	intern map[string]string // InternStrings: strings seen so far
	keys   *keyCache         // keys of generic objects, made on first use
	// fit is the longest string that str copies into the current block
	// itself, where the block has room: maxPacked once a block of packed
	// strings is made, any length in an element's block (perRow).
	fit int
	// left sizes the blocks when the input is a byte slice (wholeState):
	// its length, less the strings packed into blocks before the current
	// one, which bounds what the strings still to come take but for keys
	// the key cache no longer holds (made again for each object), which
	// then take a block of their own size or a full one. 0 when unknown.
	left int
}

// str returns the text b as a string the caller keeps, interned when
// intern is set. A string that fits the current block is copied there
// at once, the common case.
func (ts *textStore) str(b []byte, intern bool) string {
	n := len(b)
	if at := len(ts.block); uint(n-1) < uint(ts.fit) && n <= cap(ts.block)-at && !intern {
		// Written as ts.block = ts.block[:m], the store changes the length
		// only: no pointer is written, so no write barrier while the
		// collector marks.
		ts.block = ts.block[:at+n]
		q := mem.BytesData(ts.block).Add(at)
		// Most strings are short: those are copied by words (mem.Copy8To16
		// and its kin), without the call to memmove.
		switch p := mem.BytesData(b); {
		case n > 16:
			copy(ts.block[at:], b)
		case n >= 8:
			mem.Copy8To16(q, p, n)
		case n >= 4:
			mem.Copy4To7(q, p, n)
		default:
			mem.Copy1To3(q, p, n)
		}
		return mem.StringAt(q, n)
	}
	if n == 0 {
		return "" // common in sparse tables: no call to newString
	}
	if !intern {
		return ts.newString(b)
	}
	return ts.interned(b)
}

// interned is str with the InternStrings option.
func (ts *textStore) interned(b []byte) string {
	if len(b) > maxInternLen {
		return ts.newString(b)
	}
	if v, ok := ts.intern[string(b)]; ok {
		return v
	}
	v := ts.newString(b)
	if ts.intern == nil {
		ts.intern = make(map[string]string)
	}
	if len(ts.intern) < maxInterned {
		ts.intern[v] = v
	}
	return v
}

// newString copies b into a new string. When decoding a whole document,
// short strings are packed into shared blocks of packBlock bytes (fewer
// where the input's strings cannot take as many: wholeState), which
// saves an allocation per string: the document's strings are all kept by
// the result anyway. (A block lives as long as any string in it.)
func (ts *textStore) newString(b []byte) string {
	if ts.perRow && len(b) != 0 {
		return ts.rowString(b)
	}
	if !ts.pack || len(b) > maxPacked || len(b) == 0 {
		return string(b)
	}
	if cap(ts.block)-len(ts.block) < len(b) {
		size := packBlock
		if ts.left > 0 {
			ts.left -= len(ts.block)
			size = min(size, max(ts.left, len(b)))
		}
		ts.block = mem.MakeNoZero(size)
		ts.fit = maxPacked
	}
	at := len(ts.block)
	ts.block = append(ts.block, b...)
	return mem.String(ts.block[at:])
}

// sizeRows reports whether the next element's block is worth sizing
// exactly (newRow's size): not after an element whose strings took fewer
// than tinyBytes, which got no block.
func (ts *textStore) sizeRows() bool { return ts.used+len(ts.block) >= tinyBytes }

// newRow starts the strings of a new element of a RowDecoder (perRow).
// They are copied into a block of their own, of size bytes when the
// caller knows what the element's strings take (size >= 0), else sized
// from what the last element's strings took: most elements then cost one
// allocation for all their strings, as a record of encoding/csv does, and
// a string the caller keeps holds no other element's text.
func (ts *textStore) newRow(size int) {
	if size >= 0 {
		ts.est = size
	} else {
		used := ts.used + len(ts.block)
		ts.est = used + used/4
	}
	ts.block, ts.used = nil, 0
}

// rowString copies b, not empty, into the current element's block. When
// the element's strings are expected to take fewer than tinyBytes, each
// is a string of its own: the runtime packs such small strings together
// at less cost than a block of their own.
func (ts *textStore) rowString(b []byte) string {
	if ts.est < tinyBytes {
		ts.used += len(b)
		return string(b)
	}
	if cap(ts.block)-len(ts.block) < len(b) {
		ts.used += len(ts.block)
		ts.block = mem.MakeNoZero(max(ts.est-ts.used, len(b)))
		ts.fit = math.MaxInt
	}
	at := len(ts.block)
	ts.block = append(ts.block, b...)
	return mem.String(ts.block[at:])
}

// tinyBytes is the size below which the runtime's allocator packs
// objects without pointers together (its tiny allocator).
const tinyBytes = 16

// Strings of up to maxPacked bytes are packed into blocks of packBlock
// (a block then leaves at most an eighth of itself unused).
const (
	maxPacked = 1 << 10
	packBlock = 8 << 10
)

// Interning keeps strings of at most maxInternLen bytes, and at most
// maxInterned of them per Decode call or RowDecoder, so that a column of
// distinct values cannot grow the table without bound.
const (
	maxInternLen = 64
	maxInterned  = 4096
)

// key returns the string of an object key (of a generic value, or of a
// map). A key seen recently comes from the cache; another is packed, when
// strings are (the result keeps all its keys too), else copied.
func (ts *textStore) key(b []byte) string {
	if ts.keys == nil {
		ts.keys = new(keyCache)
	}
	return ts.keys.get(b, ts.pack, ts)
}

// keyCache holds the strings of recently decoded object keys, so that a
// key seen before costs no allocation.
type keyCache [keyCacheSize]string

const (
	keyCacheSize = 64 // entries in a keyCache (a power of 2)
	maxCachedKey = 64 // longer keys are not cached
)

// get returns the string of an object key, made by ts.newString when pack
// is set and the key is not in the cache. The cache compares contents, so
// a key whose bytes merely sit where an earlier key's did is never
// mistaken for it.
func (c *keyCache) get(b []byte, pack bool, ts *textStore) string {
	n := len(b)
	if n == 0 || n > maxCachedKey {
		if pack {
			return ts.newString(b)
		}
		return string(b)
	}
	h := (uint(n)*37 + uint(b[0])*11 + uint(b[n/2])*5 + uint(b[n-1])) & (keyCacheSize - 1)
	if k := c[h]; k == string(b) {
		return k
	}
	var k string
	if pack {
		k = ts.newString(b)
	} else {
		k = string(b)
	}
	c[h] = k
	return k
}
