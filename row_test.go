package toon

import (
	"bytes"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
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
				hard, quo, _ := special(x, dw)
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
// randomCell, and strings of 0 to 70 bytes over the bytes that matter,
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
				String("t"), Int(1e16 - 1), Int(-1e16 + 1), Int(1e16), Int(99999999), Int(100000000), Uint(1e16 - 1),
				Int(-1e16), Int(math.MaxInt64), Int(math.MinInt64), Uint(math.MaxUint64), Uint(1e19), Int(r.Int63()), Int(-r.Int63()),
				Int(1e18 + r.Int63n(8e18))}[r.Intn(26)]
			continue
		}
		n := r.Intn(71)
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
// it stops at must be one that putCellsGo leaves too; and nothing past
// the room may change.
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

// TestRowUTF8 checks the row writers' test of UTF-8 (utf8.ValidString in
// putCellsGo, masks of the bytes in the kernel) on every pair of bytes
// from 0x80 up followed by any byte, and on sequences of three and four
// bytes around the edges of each lead byte's ranges, whole and cut short,
// at the start, middle and end of a cell, and at the end of cells of the
// longest lengths each writer takes: each writer takes the cell exactly
// when it is valid UTF-8, and writes refCell's text.
func TestRowUTF8(t *testing.T) {
	var seqs [][]byte
	for a := 0x80; a < 0x100; a++ {
		for b := 0; b < 0x100; b++ {
			seqs = append(seqs, []byte{byte(a), byte(b)})
		}
	}
	seconds := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xe0, 0xff}
	for a := 0xe0; a < 0x100; a++ {
		for _, b := range seconds {
			for _, c := range []byte{0x41, 0x80, 0xbf, 0xc0} {
				seqs = append(seqs, []byte{byte(a), b, c})
				for _, d := range []byte{0x41, 0x80, 0xbf, 0xc0} {
					seqs = append(seqs, []byte{byte(a), b, c, d})
				}
			}
		}
	}
	type writer struct {
		name string
		max  int // the longest string it takes
		put  func(mem.Ptr, []Value, uint64) (int, int)
	}
	writers := []writer{{"putCellsGo", 32, func(p mem.Ptr, c []Value, dw uint64) (int, int) { return putCellsGo(p, 0, c, dw) }}}
	for _, k := range rowKernels() {
		writers = append(writers, writer{k.name, k.max, func(p mem.Ptr, c []Value, dw uint64) (int, int) { return k.put(p.Unsafe(), c, dw) }})
	}
	dw := delimWord(quoteMask(Comma))
	var buf [2 * maxCell]byte
	for _, q := range seqs {
		for _, s := range []string{string(q), "ab" + string(q) + "cd", "x" + string(q), string(q) + "1",
			strings.Repeat("y", 32-len(q)) + string(q), strings.Repeat("y", 63-len(q)) + string(q), strings.Repeat("y", 60) + string(q)} {
			valid := utf8.ValidString(s) && !strings.ContainsAny(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\"\\[]{}|")
			for _, w := range writers {
				want := valid && len(s) <= w.max
				o, k := w.put(mem.Of(&buf), []Value{String(s)}, dw)
				if (k == 1) != want {
					t.Fatalf("%s(%q): took %d cells, want the cell taken: %v", w.name, s, k, want)
				}
				if k == 1 && string(buf[:o]) != refCell(String(s), Comma)+"," {
					t.Fatalf("%s(%q): %q, want %q", w.name, s, buf[:o], refCell(String(s), Comma)+",")
				}
			}
		}
	}
}
