//go:build linux

package toon

import (
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestStrClassesNoOverread classifies strings that end right against an
// inaccessible page and strings that start right after one: the kernel's
// masked loads must not touch a byte outside the string, or the test
// binary dies. The copy of putCells is checked the same way, through
// appendRowCells.
func TestStrClassesNoOverread(t *testing.T) {
	data := guardpage.Page(t)
	page := len(data)
	for i := range data {
		data[i] = "ab:,\"x y"[i%8]
	}
	var rs rowStyle
	rs.set(2, Comma)
	for n := 0; n <= 40; n++ {
		end, start := data[page-n:], data[:n]
		cells := []Value{Bytes(end), Int(1), Bytes(start)}
		var got, want [maxClassCells]uint8
		strClassesGeneric(cells, rs.dw, &want)
		if useRowClassAVX512 {
			strClasses(cells, rs.dw, &got)
			if got != want {
				t.Fatalf("length %d: strClasses = %v, want %v", n, got[:3], want[:3])
			}
		}
		b, bad := appendRowCells(nil, cells, &rs)
		if w := "\n  " + refCell(cells[0], Comma) + ",1," + refCell(cells[2], Comma); bad >= 0 || string(b) != w {
			t.Fatalf("length %d: row %q, want %q", n, b, w)
		}
	}
}
