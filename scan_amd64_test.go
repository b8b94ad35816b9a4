//go:build !purego

package toon

import (
	"testing"
	"unsafe"
)

// TestKernelStateLayout checks the field offsets that scan_amd64.s uses
// (ST_* and IX_*), and that the fields LOAD_STATE and STORE_STATE move for
// both kinds of kernel are at the same offsets in both states.
func TestKernelStateLayout(t *testing.T) {
	var s scanState
	var x idxState
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
	} {
		if c.got != c.want {
			t.Errorf("%s: offset %d, scan_amd64.s uses %d", c.name, c.got, c.want)
		}
	}
}
