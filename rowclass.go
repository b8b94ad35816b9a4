package toon

import "unsafe"

// The row writer's string classes. putCells needs to know, of each string
// cell of 1 to 32 bytes, whether some byte may need an escape or is not
// ASCII (strHard: appendCell writes it), whether some byte forces quotes
// (strQuote) or neither (strPlain, when only the string's first and last
// bytes can still ask for quotes, §7.2). Where AVX-512 is there
// (rowclass_amd64.s), one call classifies all the strings of a row before
// putCells writes them, from a table of the classes of the ASCII bytes;
// elsewhere putCells tests each string with special as it copies it.
// strClassesGeneric is the specification that both must meet.
const (
	strPlain = 0
	strQuote = 1
	strHard  = 2
)

// maxClassCells is the most cells a row's strings are classified for at
// once, and so the most putCells takes the classes for.
const maxClassCells = 32

// Byte classes of rowClassTables: the high bit for a byte that special
// flags in hard, 1 for one that it flags in quo only.
const (
	byteHard  = 0x80
	byteQuote = 0x01
)

// rowClassTables holds the class of each ASCII byte for each delimiter,
// indexed by rowClassIndex. A byte of 0x80 or above is hard whatever the
// table says.
var rowClassTables = func() (t [4][128]uint8) {
	for i, d := range [4]byte{'\t', '\t', ',', '|'} {
		for b := 0; b < 128; b++ {
			switch {
			case b < 0x20, b == '"', b == '[', b == '\\', b == ']', b == '{', b == '|', b == '}':
				t[i][b] = byteHard
			case b == ':', b == int(d):
				t[i][b] = byteQuote
			}
		}
	}
	return t
}()

// rowClassIndex returns the index in rowClassTables of the table for the
// delimiter of the word dw (delimWord): bits 4 and 5 of the delimiter
// byte, 0 for a tab, 2 for a comma and 3 for a pipe.
func rowClassIndex(dw uint64) uint8 { return uint8(dw) >> 4 & 3 }

// strClassesGeneric sets cls[i], for each cell i of cells that is a
// string of 1 to 32 bytes, to its class by special's tests of its bytes
// (dw is the delimiter word), and leaves the other entries as they are.
// cells has at most maxClassCells cells.
func strClassesGeneric(cells []Value, dw uint64, cls *[maxClassCells]uint8) {
	for i := range cells {
		c := &cells[i]
		ln := uintptr(c.u)
		if valueTag(c.p) < uintptr(len(valueTags)) || ln-1 >= 32 {
			continue // not a string, or empty, or longer than 32 bytes
		}
		sp := c.p
		var hard, quo uint64
		switch {
		case ln >= 8:
			hard, quo = special(*(*uint64)(sp), dw)
			for j := uintptr(8); j < ln; j += 8 {
				h, q := special(*(*uint64)(unsafe.Add(sp, min(j, ln-8))), dw)
				hard, quo = hard|h, quo|q
			}
		case ln >= 4:
			hard, quo = special(uint64(*(*uint32)(sp))|uint64(*(*uint32)(unsafe.Add(sp, ln-4)))<<32, dw)
		default:
			hard, quo = special(smallWord(sp, ln), dw)
		}
		k := uint8(strPlain)
		if hard&hi8 != 0 {
			k = strHard
		} else if quo&hi8 != 0 {
			k = strQuote
		}
		cls[i] = k
	}
}
