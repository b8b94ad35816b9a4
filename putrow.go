package toon

// The row kernel's byte classes (putrow_amd64.s). Of each string cell of 1 to
// 32 bytes, the kernel needs to know whether some byte may need an escape
// or is not ASCII (the cell is then appendCell's), whether some byte
// forces quotes, or neither (when only the string's first and last bytes
// can still ask for quotes, §7.2). It looks the class of each byte up in
// a table of the ASCII bytes' classes for the row's delimiter; these are
// the tests of special, byte by byte (TestRowClassTables checks it).

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
