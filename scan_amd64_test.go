//go:build !purego

package toon

import (
	"testing"
	"unsafe"
)

// TestKernelStateLayout checks the layouts the assembly relies on: the
// field offsets that scan_amd64.s uses (ST_* and IX_*), with the fields
// LOAD_STATE and STORE_STATE move for both kinds of kernel at the same
// offsets in both states, and the Value that rowclass_amd64.s reads (the
// string's data at 0 and its length at 8, the kind at 24, 32 bytes in
// all, vString 1).
func TestKernelStateLayout(t *testing.T) {
	var s scanState
	var x idxState
	var v Value
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"ST_POS", unsafe.Offsetof(s.pos), 0},
		{"ST_INQ", unsafe.Offsetof(s.inq), 8},
		{"ST_ESC", unsafe.Offsetof(s.esc), 16},
		{"ST_COLON", unsafe.Offsetof(s.colon), 24},
		{"ST_BRACKET", unsafe.Offsetof(s.bracket), 32},
		{"ST_QUOTE", unsafe.Offsetof(s.quote), 40},
		{"idxState.pos at ST_POS", unsafe.Offsetof(x.pos), 0},
		{"idxState.inq at ST_INQ", unsafe.Offsetof(x.inq), 8},
		{"IX_HIGH", unsafe.Offsetof(x.high), 16},
		{"IX_ESC", unsafe.Offsetof(x.esc), 24},
		{"Value.s", unsafe.Offsetof(v.s), 0},
		{"Value.kind", unsafe.Offsetof(v.kind), 24},
		{"size of Value", unsafe.Sizeof(v), 32},
		{"vString", uintptr(vString), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, the assembly uses %d", c.name, c.got, c.want)
		}
	}
}
