package toon

import (
	"math/rand"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// utf8Edges are the bytes where the rules of UTF-8 change.
var utf8Edges = []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
	0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}

// checkUTF8 fails t when utf8Valid and utf8.Valid disagree on b.
func checkUTF8(t *testing.T, b []byte) {
	t.Helper()
	if got, want := utf8Valid(b), utf8.Valid(b); got != want {
		t.Fatalf("utf8Valid(%x) = %v, want %v", b, got, want)
	}
}

// TestUTF8Valid compares utf8Valid with utf8.Valid on every sequence of
// up to three bytes (the third among the bytes where the rules change),
// and on longer ones where a lead byte needs them, at two offsets after
// ASCII, so that each case is met both in the eight-byte loop and in the
// tail; and on random text.
func TestUTF8Valid(t *testing.T) {
	var buf [24]byte
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for _, c := range utf8Edges {
				for _, pre := range []int{0, 7} {
					for i := range pre {
						buf[i] = 'x'
					}
					s := append(buf[:pre], byte(a), byte(b), c)
					checkUTF8(t, s)
					checkUTF8(t, s[:pre+2])
					if a >= 0xe0 && b >= 0x80 && b < 0xc0 {
						for _, d := range utf8Edges {
							checkUTF8(t, append(s, d, 'y', 'z', 'w', 'v', 'u'))
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
		checkUTF8(t, s)
	}
}

func FuzzUTF8Valid(f *testing.F) {
	f.Add([]byte("Łódź, 福岡 👍"))
	f.Add([]byte("abcdefg\xed\xa0\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkUTF8(t, b)
	})
}

// TestUTF8ValidLong compares utf8Valid with utf8.Valid on texts long
// enough for its kernel, for every set of kernels that runs here: every
// sequence of two bytes, and of three after a lead byte of 3 or 4 bytes
// (the third among the bytes where the rules change), followed by ASCII
// or by a sequence that needs continuation bytes, at offsets where it
// straddles the edges of 32-byte blocks and the end of the text, after
// ASCII and after text that is not; and random texts from well-formed and
// ill-formed pieces.
func TestUTF8ValidLong(t *testing.T) {
	fillers := []string{"abcdefgh", "é福岡👍ab"}
	for _, mode := range kernelModes() {
		t.Run(mode, func(t *testing.T) {
			defer useKernels(mode)()
			var buf []byte
			for _, fill := range fillers {
				for _, at := range []int{30, 32, 63} {
					pre := []byte{}
					for len(pre) < at {
						pre = append(pre, fill...)
					}
					// Cut the filler back to a sequence's start at or before at.
					for len(pre) > at || len(pre) > 0 && !utf8.RuneStart(pre[len(pre)-1]) {
						pre = pre[:len(pre)-1]
					}
					if len(pre) > 0 && pre[len(pre)-1] >= 0x80 {
						pre = pre[:len(pre)-1] // a lead byte, whose sequence was cut
					}
					for a := 0; a < 256; a++ {
						for b := 0; b < 256; b++ {
							if !longtest.On() && !slices.Contains(utf8Edges, byte(b)) {
								continue // the short form: the second byte at the edges of its classes
							}
							third := utf8Edges[:1]
							if a >= 0xe0 {
								third = utf8Edges // the third byte matters
							}
							for _, c := range third {
								buf = append(append(buf[:0], pre...), byte(a), byte(b), c)
								for len(buf) < 64 {
									buf = append(buf, 'x')
								}
								n := len(buf)
								buf = append(buf, "\xe2\x82\xacxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyz"...)
								checkUTF8(t, buf)
								checkUTF8(t, buf[:n])
								checkUTF8(t, buf[:n+1])
							}
						}
					}
				}
			}
			rng := rand.New(rand.NewSource(9))
			pieces := []string{"a", "é", "€", "𝄞", "福岡", "abcdefghijklmnop", "\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf"}
			for i := 0; i < 20000; i++ {
				var s []byte
				for n := rng.Intn(80); n > 0; n-- {
					if rng.Intn(40) == 0 {
						s = append(s, pieces[6+rng.Intn(len(pieces)-6)]...)
					} else {
						s = append(s, pieces[rng.Intn(6)]...)
					}
				}
				if len(s) > 0 && rng.Intn(4) == 0 {
					s = s[:rng.Intn(len(s))] // a sequence cut short, sometimes
				}
				checkUTF8(t, s)
			}
		})
	}
}

// TestUTF8ValidHalves compares utf8Valid with utf8.Valid on texts long
// enough to be checked in two halves, with a sequence (well-formed, cut
// short, ill-formed, or a run of continuation bytes) at every offset
// around the middle, where the text is split, after ASCII and after text
// that is not.
func TestUTF8ValidHalves(t *testing.T) {
	seqs := []string{"é", "€", "𝄞", "\x80", "\x80\x80\x80\x80", "\xbf\xbf\xbf", "\xe2\x82", "\xf0\x9d\x84",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf", "\xff"}
	for _, mode := range kernelModes() {
		t.Run(mode, func(t *testing.T) {
			defer useKernels(mode)()
			for _, fill := range []byte{'x', 0} {
				for n := 64; n <= 80; n++ {
					for at := n/2 - 6; at <= n/2+4; at++ {
						for _, seq := range seqs {
							b := make([]byte, 0, n+8)
							for len(b) < at {
								if fill == 0 && len(b)%3 == 0 && len(b)+2 <= at {
									b = append(b, "é"...)
								} else {
									b = append(b, 'x')
								}
							}
							b = append(b, seq...)
							for len(b) < n {
								b = append(b, 'y')
							}
							checkUTF8(t, b)
						}
					}
				}
			}
		})
	}
}

// TestUTF8ValidShort compares utf8Valid with utf8.Valid on texts of 9 to
// 63 bytes, the lengths utf8ShortAVX2 checks, for every set of kernels
// that runs here: every pair of bytes, and a third after a lead byte of 3
// or 4 bytes (all among the bytes where the rules change; the first any
// byte of 0x80 and above in the long form), at every offset of the text,
// its first and last bytes and both sides of the 32nd included, after
// ASCII and after text that is not; and the same texts at every offset in
// a page's last 64 bytes, where utf8Valid leaves them to the automaton.
func TestUTF8ValidShort(t *testing.T) {
	page := make([]byte, 3*4096)
	for _, mode := range kernelModes() {
		t.Run(mode, func(t *testing.T) {
			defer useKernels(mode)()
			leads := utf8Edges[3:]
			if longtest.On() {
				leads = nil
				for a := 0x80; a < 256; a++ {
					leads = append(leads, byte(a))
				}
			}
			b := make([]byte, 64)
			for _, n := range []int{9, 31, 32, 33, 63} {
				for at := 0; at < n; at++ {
					for _, fill := range []string{"abcdefgh", "é福岡👍ab"} {
						for _, a := range leads {
							for _, c := range utf8Edges {
								third := utf8Edges[:1]
								if a >= 0xe0 {
									third = utf8Edges
								}
								for _, d := range third {
									// The filler before at, cut back to a
									// sequence's start; then a, c, d; then
									// ASCII up to n.
									b = b[:0]
									for len(b) < at {
										b = append(b, fill...)
									}
									b = b[:at]
									for len(b) > 0 && !utf8.RuneStart(b[len(b)-1]) {
										b = b[:len(b)-1]
									}
									if len(b) > 0 && b[len(b)-1] >= 0x80 {
										b = b[:len(b)-1]
									}
									for len(b) < at {
										b = append(b, 'x')
									}
									b = append(b, a, c, d)
									for len(b) < n {
										b = append(b, 'y')
									}
									checkUTF8(t, b[:n])
								}
							}
						}
					}
				}
			}
			// Near a page's end the kernel's reads would reach the next
			// page: the same texts there.
			base := 4096 - int(mem.BytesData(page).Uintptr()&4095)
			rng := rand.New(rand.NewSource(10))
			pieces := []string{"a", "é", "€", "𝄞", "福岡", "\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe2\x82"}
			for i := 0; i < 20000; i++ {
				var s []byte
				for len(s) < 9+rng.Intn(55) {
					if rng.Intn(10) == 0 {
						s = append(s, pieces[5+rng.Intn(len(pieces)-5)]...)
					} else {
						s = append(s, pieces[rng.Intn(5)]...)
					}
				}
				s = s[:min(len(s), 63)]
				at := base + 4096 - 64 + rng.Intn(64-len(s)+1)
				checkUTF8(t, page[at:at+len(s)])
				checkUTF8(t, s)
			}
		})
	}
}
