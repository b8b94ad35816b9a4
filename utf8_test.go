package toon

import (
	"math/rand"
	"testing"
	"unicode/utf8"
)

// TestUTF8Valid compares utf8Valid with utf8.Valid on every sequence of
// up to three bytes (the third among the bytes where the rules change),
// and on longer ones where a lead byte needs them, at two offsets after
// ASCII, so that each case is met both in the eight-byte loop and in the
// tail; and on random text.
func TestUTF8Valid(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		if got, want := utf8Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("utf8Valid(%x) = %v, want %v", b, got, want)
		}
	}
	edges := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
		0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}
	var buf [24]byte
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for _, c := range edges {
				for _, pre := range []int{0, 7} {
					for i := range pre {
						buf[i] = 'x'
					}
					s := append(buf[:pre], byte(a), byte(b), c)
					check(s)
					check(s[:pre+2])
					if a >= 0xe0 && b >= 0x80 && b < 0xc0 {
						for _, d := range edges {
							check(append(s, d, 'y', 'z', 'w', 'v', 'u'))
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(8))
	pieces := []string{"a", "é", "€", "𝄞", "福岡", "\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "        "}
	for i := 0; i < 20000; i++ {
		var s []byte
		for n := rng.Intn(12); n > 0; n-- {
			if rng.Intn(8) == 0 {
				s = append(s, pieces[rng.Intn(len(pieces))]...)
			} else {
				s = append(s, pieces[rng.Intn(5)]...)
			}
		}
		if len(s) > 0 && rng.Intn(4) == 0 {
			s = s[:rng.Intn(len(s))] // a sequence cut short, sometimes
		}
		check(s)
	}
}

func FuzzUTF8Valid(f *testing.F) {
	f.Add([]byte("Łódź, 福岡 👍"))
	f.Add([]byte("abcdefg\xed\xa0\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := utf8Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("utf8Valid(%x) = %v, want %v", b, got, want)
		}
	})
}
