package toon

import (
	"math/rand"
	"strings"
	"testing"
	"unsafe"
)

// TestStrClasses checks strClassesGeneric against special's definition
// byte by byte, and strClasses (the AVX-512 kernel, where it runs) against
// strClassesGeneric: on strings of every length from 0 to 40 made of the
// bytes that matter, for every delimiter, at every offset from the end of
// a page-sized buffer (so that a masked load ends right at the end of
// what it may read), in rows of up to maxClassCells cells mixed with cells
// of other kinds.
func TestStrClasses(t *testing.T) {
	alphabet := []byte("aZ07+-.e# \t\n\x00\x1f\x7f:,|\"\\[]{}\x80\xc3\xa9\xfftfnx@~")
	back := make([]byte, 8192)
	r := rand.New(rand.NewSource(21))
	for k := 0; k < 30000; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		dw := delimWord(quoteMask(d))
		cells := make([]Value, 1+r.Intn(maxClassCells))
		for i := range cells {
			if r.Intn(4) == 0 {
				cells[i] = []Value{Int(int64(i)), Null(), Bool(true), Float(1.5), Uint(7)}[r.Intn(5)]
				continue
			}
			n := r.Intn(41)
			var s []byte
			if r.Intn(2) == 0 {
				// At the end of back, or at the end of a page within it.
				s = back[len(back)-n:]
				if r.Intn(2) == 0 {
					s = back[4096-n : 4096]
				}
			} else {
				s = back[r.Intn(len(back)-n):][:n]
			}
			for j := range s {
				s[j] = byte('a' + r.Intn(26))
				if r.Intn(6) == 0 {
					s[j] = alphabet[r.Intn(len(alphabet))]
				}
			}
			cells[i] = String(strings.Clone(unsafe.String(unsafe.SliceData(s), len(s))))
			if r.Intn(2) == 0 {
				cells[i] = Bytes(s) // in place, near the end of back
			}
		}
		var want, got [maxClassCells]uint8
		for i := range want {
			want[i], got[i] = 0xEE, 0xEE
		}
		strClassesGeneric(cells, dw, &want)
		for i, c := range cells {
			s := c.str()
			if c.kind() != vString || len(s) == 0 || len(s) > 32 {
				if want[i] != 0xEE {
					t.Fatalf("strClassesGeneric set the class of cell %d (%v)", i, c)
				}
				continue
			}
			k := uint8(strPlain)
			for j := 0; j < len(s); j++ {
				b := s[j]
				if b >= 0x80 || b < 0x20 || strings.IndexByte("\"[\\]{|}", b) >= 0 {
					k = strHard
					break
				}
				if b == ':' || b == byte(d) {
					k = strQuote
				}
			}
			if want[i] != k {
				t.Fatalf("strClassesGeneric(%q, %q) = %d, want %d", s, d, want[i], k)
			}
		}
		if !useRowClassAVX512 {
			continue
		}
		strClasses(cells, dw, &got)
		if got != want {
			t.Fatalf("strClasses(%q, %q) = %v, want %v", cells, d, got, want)
		}
	}
	// The strings the kernel must leave: empty, longer than 32 bytes.
	if useRowClassAVX512 {
		got := [maxClassCells]uint8{0xEE, 0xEE}
		strClasses([]Value{String(""), String(strings.Repeat("a", 33))}, delimWords[1], &got)
		if got[0] != 0xEE || got[1] != 0xEE {
			t.Fatalf("strClasses set the class of an empty or a long string: %v", got[:2])
		}
	}
}
