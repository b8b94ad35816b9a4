//go:build !purego

package toon

import (
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestKernelLayout checks the numbers the assembly kernels spell out
// because go_asm.h has no name for them (every struct offset, kind and
// other constant they use comes from go_asm.h): putrow_amd64.s counts
// cells with shifts by 4, the size of a Value, and tells a tag from a text
// by its distance from valueTags, of 8 bytes, and finds the class table of
// a delimiter word dw at (dw&0x30)<<3 bytes into rowClassTables;
// typerows_amd64.s gives the
// cells it leaves to typeRun the kinds 0 and 1, which no token kind may
// have.
func TestKernelLayout(t *testing.T) {
	if n := mem.Sizeof[Value](); n != 1<<4 {
		t.Errorf("size of Value: %d, putrow_amd64.s shifts by 4", n)
	}
	if n := len(valueTags); n != 8 {
		t.Errorf("len(valueTags): %d, putrow_amd64.s uses 8", n)
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		dw := delimWord(quoteMask(d))
		got := uintptr(dw&0x30) << 3
		want := mem.SliceData(rowClassTables[rowClassIndex(dw)][:]).Diff(mem.SliceData(rowClassTables[0][:]))
		if got != uintptr(want) {
			t.Errorf("delimiter %q: class table at %d, putrow_amd64.s takes %d", d, want, got)
		}
	}
	for _, k := range []Kind{KindString, KindNumber, KindBool, KindNull} {
		if k <= 1 {
			t.Errorf("kind %v is %d, which typeRows gives the cells it leaves to typeRun", k, k)
		}
	}
}
