package toon

import "testing"

// The kernels' byte sets checked against the encoder's quoting rule of
// §7.2 and §11.1: charClass, with quoteMask for the active delimiter
// (writer.go). Where they look for a byte, that byte must be one the rule
// treats specially, and where they let a byte through, the rule must let
// it through too.

// TestRowClassTablesFollowQuoteRule checks each table of rowClassTables,
// which the row kernel looks bytes up in: a byte the rule quotes or
// escapes is never of class 0 (written as it is); a byte of class
// byteQuote forces quotes and needs no escape, so that quoting the cell
// and writing the byte as it is is right; and the only bytes the table
// sends to appendCell (byteHard) though the rule needs nothing for them are
// the other delimiters' '|', which special cannot tell from '{' and '}'.
func TestRowClassTablesFollowQuoteRule(t *testing.T) {
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		mask := quoteMask(d)
		tbl := &rowClassTables[rowClassIndex(delimWord(mask))]
		for b := 0; b < 128; b++ {
			cls := charClass[b]
			quotes := cls&mask != 0 || b == int(d) // a tab is quoted as a control byte
			escape := cls&clsEscape != 0
			switch tbl[b] {
			case 0:
				if quotes || escape {
					t.Errorf("delimiter %q, byte %#x: class 0, but the rule quotes (%v) or escapes (%v) it", d, b, quotes, escape)
				}
			case byteQuote:
				if !quotes || escape {
					t.Errorf("delimiter %q, byte %#x: byteQuote, but the rule quotes (%v) or escapes (%v) it", d, b, quotes, escape)
				}
			case byteHard:
				if !quotes && !escape && b != '|' {
					t.Errorf("delimiter %q, byte %#x: byteHard, but the rule needs nothing for it", d, b)
				}
			default:
				t.Errorf("delimiter %q, byte %#x: class %#x", d, b, tbl[b])
			}
		}
	}
}

// TestKernelBytesForceQuotes checks that every byte the scanning kernels
// treat as structure outside quotes (scanLine: '"', '\', ':', '[' and the
// delimiter; indexRows: also LF and CR) is one the encoder never writes
// into an unquoted value: otherwise a value it wrote plain would be split
// or cut short when read back.
func TestKernelBytesForceQuotes(t *testing.T) {
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		mask := quoteMask(d)
		for _, b := range []byte{'"', '\\', ':', '[', '\n', '\r', byte(d)} {
			if charClass[b]&mask == 0 {
				t.Errorf("delimiter %q: the kernels look for %q, which the encoder does not quote", d, b)
			}
		}
	}
}
