package toon

import "github.com/toonstream/toon/internal/mem"

// The state and tables of typeRows, the kernel that types whole table rows
// for bulkRows (typerows_amd64.s, where the CPU allows). Its Go twin and
// specification is bulkLine (fastrows.go): for every row typeRows takes, the
// tokens it writes must be those bulkLine would queue.

// typeState is what bulkRows and typeRows share; typerows_amd64.s finds
// its fields through go_asm.h (typeState_src, ...). typeRows reads every
// field and writes only k, ls, rows, plain and high (no pointer), and the
// cells' tokens in the queue, where a cell left to typeRun gets kind 0
// (for plainToken) or 1 (for unquote) and its text.
type typeState struct {
	src      mem.Ptr // the window
	srcLen   int
	idx      mem.Ptr // its index entries
	idxLen   int
	k        int     // in and out: the next line's first index entry
	ls       int     // in and out: the next line's start in src
	indent   int     // the rows' indentation, below 8
	maxLine  int     // the longest line allowed
	maxRows  int     // the most rows to take
	row      mem.Ptr // the queue row of the first row to take
	stride   int     // bytes per queue row
	slots    mem.Ptr // *uint32: the byte offset in a queue row of each cell's token
	slotsEnd uintptr // the end of slots (not a pointer: it points past them)
	at       mem.Ptr // *int32: room for the start of maxRows rows
	rows     int     // out: rows taken
	plain    uint64  // out: some cell is for plainToken (kind 0)
	delim    uint64  // the active delimiter
	//lint:ignore U1000 written by the assembly kernel, absent under purego
	high     uint64  // out: the last row taken has bytes >= 0x80
	class    mem.Ptr // &typeClass
	lenMask  mem.Ptr // &lenMask
	midMask  mem.Ptr // &midMask
	wordMask mem.Ptr // &wordMask
	first    mem.Ptr // &rowFirst
	indMask  uint64  // wordMask[indent]
	c7f      uint64  // the constants of shortNumber
	c46      uint64
	c50      uint64
	cFalse   uint64  // wordFalse
	zero     mem.Ptr // &zeroByte
	numStep  mem.Ptr // &numStep
	validTo  int     // rows whose LF is at or before it need no UTF-8 check
}

// typeRows's classes of a cell's first byte (typeClass); a byte of none
// of them, class 0, starts a string.
const (
	typeDigit    = 1 + iota // maybe a number
	typeLetter              // maybe a keyword
	typeBulkLine            // for bulkLine (a space, a quote)
)

// typeClass is typeRows's class of each byte at the start of a cell.
var typeClass = func() (t [256]byte) {
	for i := range t {
		switch primStart[i] {
		case primDigit:
			t[i] = typeDigit
		case primLetter:
			t[i] = typeLetter
		case primQuote:
			t[i] = typeBulkLine
		}
	}
	t[' '] = typeBulkLine
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

// setTables points ts at the tables and constants typeRows reads, which do
// not change from call to call.
func (ts *typeState) setTables() {
	ts.class = mem.Of(&typeClass)
	ts.lenMask = mem.Of(&lenMask)
	ts.midMask = mem.Of(&midMask)
	ts.wordMask = mem.Of(&wordMask)
	ts.first = mem.Of(&rowFirst)
	ts.c7f = swar7f
	ts.c46 = (0x80 - ':') * swarLo
	ts.c50 = (0x80 - '0') * swarLo
	ts.cFalse = wordFalse
	ts.zero = mem.Of(&zeroByte)
	ts.numStep = mem.Of(&numStep)
}
