package toon

import "github.com/toonstream/toon/internal/mem"

// utf8Valid reports whether b is well-formed UTF-8, as utf8.Valid does
// (no surrogates, no overlong forms, nothing above U+10FFFF), at about
// twice its speed on text that is not ASCII: it runs a table-driven
// automaton in which each byte costs one table load, which does not
// depend on the state, and one shift, which does. Words of eight ASCII
// bytes between sequences are skipped whole. Where the CPU has AVX2, the
// kernel utf8AVX2 checks all but the last bytes of a long b, 32 at a
// time, and utf8ShortAVX2 a b of 9 to 63 bytes whose page holds the 64
// bytes from its start; the automaton is their specification.
func utf8Valid(b []byte) bool {
	if useUTF8AVX2 && len(b) > 8 && len(b) < 64 && mem.BytesData(b).InPage(64) {
		return utf8ShortAVX2(&b[0], len(b))
	}
	if useUTF8AVX2 && len(b) >= 64 {
		// The kernel checks the whole blocks of 32 bytes; the automaton
		// then takes the rest from the start of the last sequence that
		// begins in them, which may continue after them.
		n := len(b) &^ 31
		if !utf8AVX2(b[:n]) {
			return false
		}
		k := n
		for j := 1; j <= 3; j++ {
			if c := b[n-j]; c >= 0xc0 {
				k = n - j
				break
			} else if c < 0x80 {
				break
			}
		}
		b = b[k:]
	}
	if len(b) >= 64 {
		// Two halves, split at the start of a sequence, so that their
		// automata run side by side.
		m := len(b) / 2
		for j := 0; j < 3 && b[m]&0xc0 == 0x80; j++ {
			m--
		}
		return utf8Halves(b[:m], b[m:])
	}
	var st uint64
	i := 0
	p := mem.BytesData(b) // read below len(b) alone
	for ; i+8 <= len(b); i += 8 {
		if p.Load64(i)&swarHi == 0 && st&63 == u8Accept {
			continue
		}
		st = utf8Half(utf8Half(st, p.Add(i)), p.Add(i+4))
		if st&63 == u8Error {
			return false
		}
	}
	for _, c := range b[i:] {
		st = utf8Step[c] >> (st & 63)
	}
	return st&63 == u8Accept
}

// utf8Halves reports whether x and y are each well-formed UTF-8. It runs
// utf8Valid's automaton on both at once, a word of each per step: the two
// chains of shifts do not depend on each other, so the CPU overlaps them,
// and a step where both words are ASCII and both automata between
// sequences skips sixteen bytes. (utf8Valid splits b where a sequence
// starts, or, when the three bytes before the middle and the middle are
// all continuation bytes, which no well-formed text has, in the middle of
// that run, where y's automaton then fails.)
func utf8Halves(x, y []byte) bool {
	var sx, sy uint64
	n := min(len(x), len(y)) &^ 7
	px, py := mem.BytesData(x), mem.BytesData(y) // read below n alone
	for i := 0; i < n; i += 8 {
		if (px.Load64(i)|py.Load64(i))&swarHi == 0 && (sx|sy)&63 == u8Accept {
			continue
		}
		sx = utf8Half(sx, px.Add(i))
		sy = utf8Half(sy, py.Add(i))
		sx = utf8Half(sx, px.Add(i+4))
		sy = utf8Half(sy, py.Add(i+4))
		if sx&63 == u8Error || sy&63 == u8Error {
			return false
		}
	}
	for _, c := range x[n:] {
		sx = utf8Step[c] >> (sx & 63)
	}
	for _, c := range y[n:] {
		sy = utf8Step[c] >> (sy & 63)
	}
	return sx&63 == u8Accept && sy&63 == u8Accept
}

// utf8Half runs utf8Valid's automaton from state st over the 4 bytes at
// p and returns the state it ends in. Its callers read the bytes through
// p, at offsets they hold below the length of their slice, so that no
// bounds check or slicing is left in the word loops (those came to about
// a quarter of utf8Halves's instructions). (A function of a word's eight
// steps would be over the inlining budget.)
func utf8Half(st uint64, p mem.Ptr) uint64 {
	st = utf8Step[p.Byte(0)] >> (st & 63)
	st = utf8Step[p.Byte(1)] >> (st & 63)
	st = utf8Step[p.Byte(2)] >> (st & 63)
	return utf8Step[p.Byte(3)] >> (st & 63)
}

// The states of utf8Valid's automaton, each a shift count: utf8Step[c]
// holds, in its 6 bits from bit s, the state that byte c leads to from
// state s.
const (
	u8Accept  = 6 * iota // between sequences
	u8Error              // ill-formed; every byte stays here
	u8Need1              // one continuation byte to come (80-BF)
	u8Need2              // two to come, the first any of 80-BF
	u8AfterE0            // after E0: A0-BF, then one more (no overlong form)
	u8AfterED            // after ED: 80-9F, then one more (no surrogate)
	u8AfterF0            // after F0: 90-BF, then two more (no overlong form)
	u8AfterF1            // after F1-F3: 80-BF, then two more
	u8AfterF4            // after F4: 80-8F, then two more (at most U+10FFFF)
)

// utf8Step is the transition table of utf8Valid's automaton: the
// well-formed sequences of the Unicode standard (table 3-7).
var utf8Step = func() (t [256]uint64) {
	set := func(lo, hi int, from, to uint64) {
		for c := lo; c <= hi; c++ {
			t[c] = t[c]&^(63<<from) | to<<from
		}
	}
	for c := range t {
		for s := uint64(u8Accept); s <= u8AfterF4; s += 6 {
			t[c] |= u8Error << s // unless set below
		}
	}
	set(0x00, 0x7f, u8Accept, u8Accept)
	set(0x80, 0xbf, u8Need1, u8Accept)
	set(0x80, 0xbf, u8Need2, u8Need1)
	set(0x80, 0xbf, u8AfterF1, u8Need2)
	set(0xa0, 0xbf, u8AfterE0, u8Need1)
	set(0x80, 0x9f, u8AfterED, u8Need1)
	set(0x90, 0xbf, u8AfterF0, u8Need2)
	set(0x80, 0x8f, u8AfterF4, u8Need2)
	set(0xc2, 0xdf, u8Accept, u8Need1)
	set(0xe0, 0xe0, u8Accept, u8AfterE0)
	set(0xe1, 0xec, u8Accept, u8Need2)
	set(0xed, 0xed, u8Accept, u8AfterED)
	set(0xee, 0xef, u8Accept, u8Need2)
	set(0xf0, 0xf0, u8Accept, u8AfterF0)
	set(0xf1, 0xf3, u8Accept, u8AfterF1)
	set(0xf4, 0xf4, u8Accept, u8AfterF4)
	return t
}()
