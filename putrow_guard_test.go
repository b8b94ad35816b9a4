//go:build linux

package toon

import (
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestRowNoOverread writes rows of strings (plain, quoted, digit-leading
// and not ASCII) that end right against an inaccessible page and strings
// that start right after one: the kernel's
// masked loads, and putCellsGo's word loads, must not touch a byte outside
// the string, or the test binary dies.
func TestRowNoOverread(t *testing.T) {
	data := guardpage.Page(t)
	page := len(data)
	for _, text := range []string{"abcdefgh", "ab:,\"x y", "00.5e+17", "1e+é.ü"} {
		for i := range data {
			data[i] = text[i%8]
		}
		for _, mode := range kernelModes() {
			restore := useKernels(mode)
			var rs rowStyle
			rs.set(2, Comma)
			for n := 0; n <= 70; n++ {
				end, start := data[page-n:], data[:n]
				cells := []Value{Bytes(end), Int(1), Bytes(start)}
				b, bad := appendRowCells(nil, cells, &rs)
				if w := "\n  " + refCell(cells[0], Comma) + ",1," + refCell(cells[2], Comma); bad >= 0 || string(b) != w {
					restore()
					t.Fatalf("length %d, kernels %s: row %q, want %q", n, mode, b, w)
				}
			}
			restore()
		}
	}
}
