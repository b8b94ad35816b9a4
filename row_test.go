package toon

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	"github.com/toonstream/toon/internal/mem"
)

// TestRowClassTables checks each table of rowClassTables against special,
// byte by byte: a byte is byteHard where special flags it in hard, and
// byteQuote where it flags it in quo only.
func TestRowClassTables(t *testing.T) {
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		dw := delimWord(quoteMask(d))
		tbl := &rowClassTables[rowClassIndex(dw)]
		for b := 0; b < 128; b++ {
			// The byte among letters, in each position of the word.
			for pos := 0; pos < 8; pos++ {
				x := uint64('a')*lo8&^(0xff<<(8*pos)) | uint64(b)<<(8*pos)
				hard, quo := special(x, dw)
				want := uint8(0)
				if hard&hi8 != 0 {
					want = byteHard
				} else if quo&hi8 != 0 {
					want = byteQuote
				}
				if tbl[b] != want {
					t.Fatalf("delimiter %q, byte %#x at %d: class %#x, special says %#x", d, b, pos, tbl[b], want)
				}
			}
		}
	}
}

// kernelCells returns a random row for the row kernel's tests: cells of
// randomCell, and strings of 0 to 40 bytes over the bytes that matter,
// some cut from the end of back or right before the page boundary in its
// middle (where a load past the text would read the next page).
func kernelCells(r *rand.Rand, floats []float64, back []byte) []Value {
	alphabet := []byte("aZ07+-.e# \t\n\x00\x1f\x7f:,|\"\\[]{}\x80\xc3\xa9\xfftfnx@~")
	cells := make([]Value, 1+r.Intn(40))
	for i := range cells {
		switch r.Intn(3) {
		case 0:
			cells[i] = randomCell(r, floats)
			continue
		case 1:
			cells[i] = []Value{Uint(r.Uint64() >> r.Intn(64)), String("true"), String("null"), String("false"),
				String("-"), String("#a"), String(" a"), String("a "), String("tru"), String("nul"), String("fals"),
				String("t"), Int(1e16 - 1), Int(-1e16 + 1), Int(1e16), Int(99999999), Int(100000000), Uint(1e16 - 1)}[r.Intn(18)]
			continue
		}
		n := r.Intn(41)
		var s []byte
		switch r.Intn(3) {
		case 0:
			s = back[len(back)-n:]
		case 1:
			s = back[4096-n : 4096]
		default:
			s = back[r.Intn(len(back)-n):][:n]
		}
		for j := range s {
			s[j] = byte('a' + r.Intn(26))
			if r.Intn(6) == 0 {
				s[j] = alphabet[r.Intn(len(alphabet))]
			}
		}
		cells[i] = Bytes(s)
	}
	return cells
}

// TestPutCellsGo checks putCellsGo on its own (putCells is the kernel
// where it runs): given room for as many cells of maxCell bytes as fit in
// end bytes, and a guard right after them, it writes what refCell writes
// of the cells it takes, stops only at cells it leaves, and writes nothing
// past end.
func TestPutCellsGo(t *testing.T) {
	checkRandomRows(t, "putCellsGo", 31, 20000, func(p unsafe.Pointer, cells []Value, dw uint64) (int, int) {
		return putCellsGo(mem.FromUnsafe(p), 0, cells, dw)
	})
}

// checkRandomRows runs checkRowWriter on rows of kernelCells, as many as
// given, from the given seed, for every delimiter.
func checkRandomRows(t *testing.T, name string, seed int64, rows int, put func(p unsafe.Pointer, cells []Value, dw uint64) (int, int)) {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	floats := floatCases(r)
	back := make([]byte, 8192)
	for k := 0; k < rows; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		dw := delimWord(quoteMask(d))
		cells := kernelCells(r, floats, back)
		checkRowWriter(t, name, cells, d, func(p unsafe.Pointer, cells []Value) (int, int) {
			return put(p, cells, dw)
		})
	}
}

// checkRowWriter checks one call of a row writer (putCellsGo, or the
// kernel) on cells, with room for exactly len(cells) cells of maxCell
// bytes and a guard of 64 bytes after it: the text must be refCell's of
// the cells it says it wrote, each with the delimiter after it; the cell
// it stops at must be one that putCellsGo leaves too (Uint cells excepted,
// which the kernel writes); and nothing past the room may change.
func checkRowWriter(t *testing.T, name string, cells []Value, d Delimiter, put func(unsafe.Pointer, []Value) (int, int)) {
	t.Helper()
	room := len(cells) * maxCell
	back := bytes.Repeat([]byte{0xAA}, room+64)
	o, n := put(unsafe.Pointer(&back[0]), cells)
	var want strings.Builder
	for _, c := range cells[:n] {
		want.WriteString(refCell(c, d))
		want.WriteByte(byte(d))
	}
	if string(back[:o]) != want.String() {
		t.Fatalf("%s(%q, %q): %q, want %q", name, cells, d, back[:o], want.String())
	}
	if g := back[room:]; !bytes.Equal(g, bytes.Repeat([]byte{0xAA}, 64)) {
		t.Fatalf("%s(%q) wrote past its room: %q", name, cells, g)
	}
	if n < len(cells) {
		var one [maxCell]byte
		if _, k := putCellsGo(mem.Of(&one), 0, cells[n:n+1], delimWord(quoteMask(d))); k != 0 {
			t.Fatalf("%s(%q, %q) stopped at cell %d (%q), which putCellsGo writes", name, cells, d, n, cells[n])
		}
	}
}
