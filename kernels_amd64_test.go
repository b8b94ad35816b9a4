//go:build !purego

package toon

import (
	"testing"
	"unsafe"
)

// TestKernelStateLayout checks the layouts the assembly relies on: the
// field offsets that scan_amd64.s uses (ST_* and IX_*), with the fields
// LOAD_STATE and STORE_STATE move for both kinds of kernel at the same
// offsets in both states, the Value that row_amd64.s reads (the text or
// tag at 0, the length or payload at 8, 16 bytes in all, 8 tags, the
// kinds' numbers) and the charClass bit it tests, and what bulk_amd64.s uses: typeState's TR_* offsets,
// the Token it writes and the constants it spells out.
func TestKernelStateLayout(t *testing.T) {
	type check struct {
		name      string
		got, want uintptr
	}
	var s scanState
	var x idxState
	var v Value
	var tok Token
	checks := []check{
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
		{"Value.p", unsafe.Offsetof(v.p), 0},
		{"Value.u", unsafe.Offsetof(v.u), 8},
		{"size of Value", unsafe.Sizeof(v), 16},
		{"len(valueTags)", uintptr(len(valueTags)), 8},
		{"V_STRING", uintptr(vString), 1},
		{"V_INT", uintptr(vInt), 2},
		{"V_UINT", uintptr(vUint), 3},
		{"V_FLOAT", uintptr(vFloat), 4},
		{"V_BOOL", uintptr(vBool), 6},
		{"CLS_FIRST", uintptr(clsFirst), 0x40},
		{"Token.h", unsafe.Offsetof(tok.h), 0},
		{"Token.p", unsafe.Offsetof(tok.p), 8},
		{"Token.n", unsafe.Offsetof(tok.n), 16},
		{"size of Token", unsafe.Sizeof(tok), 24},
		{"KindString", uintptr(KindString), 0x22},
		{"KindNumber", uintptr(KindNumber), 0x30},
		{"KindBool", uintptr(KindBool), 0x74},
		{"KindNull", uintptr(KindNull), 0x6e},
		{"typeClass digit", uintptr(typeClass['7']), 1},
		{"typeClass letter", uintptr(typeClass['n']), 2},
		{"typeBail", typeBail, 1},
		{"typeHigh", typeHigh, 2},
	}
	// bulk_amd64.s: typeState's fields are words, TR_* = 8 * their rank.
	var ts typeState
	for i, f := range []struct {
		name string
		off  uintptr
	}{
		{"src", unsafe.Offsetof(ts.src)}, {"srcLen", unsafe.Offsetof(ts.srcLen)},
		{"idx", unsafe.Offsetof(ts.idx)}, {"idxLen", unsafe.Offsetof(ts.idxLen)},
		{"k", unsafe.Offsetof(ts.k)}, {"ls", unsafe.Offsetof(ts.ls)},
		{"indent", unsafe.Offsetof(ts.indent)}, {"maxLine", unsafe.Offsetof(ts.maxLine)},
		{"maxRows", unsafe.Offsetof(ts.maxRows)}, {"row", unsafe.Offsetof(ts.row)},
		{"stride", unsafe.Offsetof(ts.stride)}, {"slots", unsafe.Offsetof(ts.slots)},
		{"slotsEnd", unsafe.Offsetof(ts.slotsEnd)}, {"at", unsafe.Offsetof(ts.at)},
		{"rows", unsafe.Offsetof(ts.rows)}, {"plain", unsafe.Offsetof(ts.plain)},
		{"delim", unsafe.Offsetof(ts.delim)}, {"high", unsafe.Offsetof(ts.high)},
		{"class", unsafe.Offsetof(ts.class)}, {"lenMask", unsafe.Offsetof(ts.lenMask)},
		{"midMask", unsafe.Offsetof(ts.midMask)}, {"wordMask", unsafe.Offsetof(ts.wordMask)},
		{"first", unsafe.Offsetof(ts.first)}, {"indMask", unsafe.Offsetof(ts.indMask)},
		{"c7f", unsafe.Offsetof(ts.c7f)}, {"c46", unsafe.Offsetof(ts.c46)},
		{"c50", unsafe.Offsetof(ts.c50)}, {"cFalse", unsafe.Offsetof(ts.cFalse)},
		{"zero", unsafe.Offsetof(ts.zero)},
	} {
		checks = append(checks, check{"typeState." + f.name, f.off, uintptr(8 * i)})
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, the assembly uses %d", c.name, c.got, c.want)
		}
	}
}
