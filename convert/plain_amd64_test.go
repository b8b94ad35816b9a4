//go:build !purego && linux

package convert

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/toonstream/toon/internal/guardpage"
)

// TestPutPlainAVX512 holds putPlainAVX512 to putPlainGeneric: the same
// result for every string (every length from 0 to past maxFast, every
// special byte at every position, random bytes), the same bytes up to the
// closing quote, and nothing written after it. Strings are also placed
// against an inaccessible page, before and after, so that a read outside
// the string faults.
func TestPutPlainAVX512(t *testing.T) {
	if !usePlainAVX512 {
		t.Skip("no AVX-512 here: putPlain runs putPlainGeneric only")
	}
	check := func(s []byte, room int) {
		t.Helper()
		want := bytes.Repeat([]byte{0xAA}, room)
		got := bytes.Repeat([]byte{0xAA}, room)
		wok := len(s)+2+wordSlack <= room && putPlainGeneric(want, s)
		gok := putPlainAVX512(got, s)
		if len(s)+2+wordSlack <= room && gok != wok {
			t.Fatalf("%q: %v, want %v", s, gok, wok)
		}
		if gok && len(s)+2 > room {
			t.Fatalf("%q: true with room for %d bytes", s, room)
		}
		if !gok {
			return
		}
		n := len(s) + 2
		if wok && !bytes.Equal(got[:n], want[:n]) {
			t.Fatalf("%q: wrote %q, want %q", s, got[:n], want[:n])
		}
		if !bytes.Equal(got[n:], bytes.Repeat([]byte{0xAA}, room-n)) {
			t.Fatalf("%q: wrote past the closing quote: %q", s, got[n:])
		}
	}
	rng := rand.New(rand.NewSource(3))
	for n := 0; n <= 70; n++ {
		plain := bytes.Repeat([]byte("q"), n)
		check(plain, n+2+wordSlack)
		check(plain, n+2) // room for the quotes only
		check(plain, n+1) // not even that
		for j := 0; j < n; j++ {
			for _, c := range []byte{0x00, 0x1f, 0x20, 0x21, '"', '\\', 0x7f, 0x80, 0xc3, 0xff} {
				s := append([]byte(nil), plain...)
				s[j] = c
				check(s, n+2+wordSlack)
			}
		}
		for k := 0; k < 20; k++ {
			s := make([]byte, n)
			for j := range s {
				s[j] = byte(0x20 + rng.Intn(0x60))
			}
			check(s, n+2+wordSlack)
		}
	}
	data := guardpage.Page(t)
	page := len(data)
	for i := range data {
		data[i] = 'a' + byte(i%26)
	}
	for n := 0; n <= maxFast; n++ {
		check(data[page-n:], n+2+wordSlack) // ends against the page after
		check(data[:n:n], n+2+wordSlack)    // starts right after the page before
	}
}
