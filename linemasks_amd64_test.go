//go:build !purego

package toon

import (
	"math/rand/v2"
	"testing"
)

// lineMasksRef is lineMasks a byte at a time, from their definitions.
func lineMasksRef(b *[64]byte) lineMasks {
	var m lineMasks
	for i, c := range b {
		bit := uint64(1) << i
		switch {
		case c == '\n':
			m.lf |= bit
		case c == ' ':
			m.sp |= bit
		case c >= 0x80:
			m.hi |= bit
		case keyChar[c] != 0:
			m.key |= bit
		}
	}
	return m
}

func checkLineMasks(t *testing.T, b *[64]byte) {
	t.Helper()
	var got lineMasks
	lineMasksAVX2(b, &got)
	if want := lineMasksRef(b); got != want {
		t.Fatalf("lineMasksAVX2(%q) = %+v, want %+v", b[:], got, want)
	}
}

// TestLineMasks holds lineMasksAVX2 to the byte-at-a-time definitions:
// every byte value at every place in blocks of each background byte, and
// random blocks of the bytes at and beside the bounds of each class.
func TestLineMasks(t *testing.T) {
	if !useLineMasksAVX2 {
		t.Skip("lineMasksAVX2 does not run on this CPU")
	}
	for _, bg := range []byte{' ', 'a', '\n', 0x80, 0xff, 0} {
		for c := 0; c < 256; c++ {
			for i := 0; i < 64; i++ {
				var b [64]byte
				for j := range b {
					b[j] = bg
				}
				b[i] = byte(c)
				checkLineMasks(t, &b)
			}
		}
	}
	near := []byte("\n\r \t\x00-./09:;@AZ[\\]^_`az{|}~\x7f\x80\x8a\xa0\xae\xb0\xc1\xda\xdf\xe1\xfa\xff\"")
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var b [64]byte
		for j := range b {
			b[j] = near[r.IntN(len(near))]
		}
		checkLineMasks(t, &b)
	}
}

// FuzzLineMasks holds lineMasksAVX2 to the definitions on any 64 bytes.
func FuzzLineMasks(f *testing.F) {
	f.Add([]byte("    key_1.x: value\n  other: \xc3\xa9t\xc3\xa9\r\n[]{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !useLineMasksAVX2 {
			t.Skip("lineMasksAVX2 does not run on this CPU")
		}
		var b [64]byte
		copy(b[:], data)
		checkLineMasks(t, &b)
	})
}
