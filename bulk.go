package toon

import "unsafe"

// typeState is what bulkRows and typeRows share. Its layout is known to
// bulk_amd64.s (TR_* offsets, checked by TestKernelStateLayout): do not
// reorder or resize its fields. typeRows reads every field and writes
// only k, ls, rows, plain and high (no pointer), and the cells' tokens in
// the queue, where a cell left to typeRun gets kind 0 (for plainToken) or
// 1 (for unquote) and its text.
type typeState struct {
	src      unsafe.Pointer // the window
	srcLen   int
	idx      unsafe.Pointer // its index entries
	idxLen   int
	k        int            // in and out: the next line's first index entry
	ls       int            // in and out: the next line's start in src
	indent   int            // the rows' indentation, below 8
	maxLine  int            // the longest line allowed
	maxRows  int            // the most rows to take
	row      unsafe.Pointer // the queue row of the first row to take
	stride   int            // bytes per queue row
	slots    unsafe.Pointer // *uint32: the byte offset in a queue row of each cell's token
	slotsEnd uintptr        // the end of slots (not a pointer: it points past them)
	at       unsafe.Pointer // *int32: room for the start of maxRows rows
	rows     int            // out: rows taken
	plain    uint64         // out: some cell is for plainToken (kind 0)
	delim    uint64         // the active delimiter
	//lint:ignore U1000 written by the assembly kernel, absent under purego
	high     uint64         // out: the last row taken has bytes >= 0x80
	class    unsafe.Pointer // &typeClass
	lenMask  unsafe.Pointer // &lenMask
	midMask  unsafe.Pointer // &midMask
	wordMask unsafe.Pointer // &wordMask
	first    unsafe.Pointer // &rowFirst
	indMask  uint64         // wordMask[indent]
	c7f      uint64         // the constants of shortNumber
	c46      uint64
	c50      uint64
	cFalse   uint64         // wordFalse
	zero     unsafe.Pointer // &zeroByte
}

// typeClass is typeRows's class of a cell's first byte: 0 a string, 1
// maybe a number, 2 maybe a keyword, 3 for bulkLine (a space, a quote).
var typeClass = func() (t [256]byte) {
	for i := range t {
		switch primStart[i] {
		case primDigit:
			t[i] = 1
		case primLetter:
			t[i] = 2
		case primQuote:
			t[i] = 3
		}
	}
	t[' '] = 3
	return t
}()

// midMask[n] marks the bytes of a cell of n bytes after its first and
// before its last, as lenMask does (a '.' there may be a number's).
var midMask = func() (t [16]uint64) {
	for n := range t {
		t[n] = lenMask[n] >> 8 &^ 0x80
	}
	return t
}()

// What typeRows returns.
const (
	typeFull = iota // it took maxRows rows
	typeBail        // the line at ls is for bulkLine
	typeHigh        // the last row taken must be checked as UTF-8
	typeStop        // (typeRun) the line at ls is for the general path
)
