package toon

// The byte classes of the AVX-512 row kernel (putRowAVX512,
// putrow_amd64.s). Of each string cell of 1 to 63 bytes, the kernel needs
// to know whether some ASCII byte may need an escape (the cell is then
// appendCell's), whether some byte forces quotes, or neither (when only
// the string's first and last bytes, or the number grammar, can still ask
// for quotes, §7.2). It looks the class of each ASCII byte up in a table
// of the ASCII bytes' classes for the row's delimiter; these are the tests
// of special, byte by byte (TestRowClassTables checks it). Bytes of 0x80
// and above are wordHigh: the kernel checks that they form valid UTF-8,
// and writes them as they are. The AVX2 kernel makes special's tests
// with comparisons instead (TestRowKernelsEveryByte checks both).

// Byte classes of rowClassTables: those of wordClass (quote.go).
const (
	byteHard  = wordHard
	byteQuote = wordQuote
)

// rowClassTables holds wordClass of each ASCII byte for each delimiter,
// indexed by rowClassIndex, so that the row kernel applies the encoder's
// one quoting rule. The bytes of 0x80 and above are not looked up.
var rowClassTables = func() (t [4][128]uint8) {
	for i, d := range [4]Delimiter{Tab, Tab, Comma, Pipe} {
		for b := range 128 {
			t[i][b] = wordClass(byte(b), d)
		}
	}
	return t
}()

// rowClassIndex returns the index in rowClassTables of the table for the
// delimiter of the word dw (delimWord): bits 4 and 5 of the delimiter
// byte, 0 for a tab, 2 for a comma and 3 for a pipe.
func rowClassIndex(dw uint64) uint8 { return uint8(dw) >> 4 & 3 }
