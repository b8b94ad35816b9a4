package mem

import (
	"encoding/binary"
	"testing"
)

func TestWords(t *testing.T) {
	b := make([]byte, 19)
	for i := range b {
		b[i] = byte(i*37 + 1)
	}
	p := BytesData(b)
	for i := 0; i+8 <= len(b); i++ {
		if got, want := p.Load64(i), binary.LittleEndian.Uint64(b[i:]); got != want {
			t.Fatalf("Load64(%d) = %#x, want %#x", i, got, want)
		}
		if got, want := p.Load32(i), binary.LittleEndian.Uint32(b[i:]); got != want {
			t.Fatalf("Load32(%d) = %#x, want %#x", i, got, want)
		}
		if got, want := p.Load16(i), binary.LittleEndian.Uint16(b[i:]); got != want {
			t.Fatalf("Load16(%d) = %#x, want %#x", i, got, want)
		}
	}
	c := make([]byte, 19)
	q := BytesData(c)
	q.Store64(3, 0x0807060504030201)
	q.Store32(11, 0x0c0b0a09)
	q.Store16(15, 0x0e0d)
	q.SetByte(17, 0x0f)
	want := []byte{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0}
	if string(c) != string(want) {
		t.Fatalf("stores wrote % x, want % x", c, want)
	}
	if q.Byte(17) != 0x0f || q.Add(17).Diff(q) != 17 {
		t.Fatal("Byte or Diff wrong")
	}
}

func TestViews(t *testing.T) {
	b := []byte("héllo")
	s := String(b)
	if s != "héllo" || StringData(s) != BytesData(b) {
		t.Fatalf("String(%q) = %q, not a view", b, s)
	}
	if v := Bytes(s); string(v) != s || BytesData(v) != BytesData(b) {
		t.Fatal("Bytes is not a view")
	}
	if StringAt(BytesData(b).Add(1), 2) != "é" || string(BytesAt(BytesData(b), 1)) != "h" {
		t.Fatal("StringAt or BytesAt wrong")
	}
	type pair struct {
		a int32
		b int64
	}
	x := []pair{{1, 2}, {3, 4}}
	p := SliceData(x).Offset(Sizeof[pair]())
	if Load[int64](p.Offset(8)) != 4 || As[pair](p).a != 3 || len(SliceAt[pair](SliceData(x), 2)) != 2 {
		t.Fatal("typed access wrong")
	}
	Store(Of(&x[0].b), int64(9))
	if x[0].b != 9 || !(Ptr{}).IsNil() || FromUnsafe(p.Unsafe()) != p {
		t.Fatal("Store, IsNil or FromUnsafe wrong")
	}
}

// TestTextWords holds TextWords to its contract: for texts of the same
// length from 1 to 16 bytes, the words are equal exactly when the texts
// are, whatever byte differs.
func TestTextWords(t *testing.T) {
	buf := make([]byte, 40)
	for n := 1; n <= 16; n++ {
		a := buf[3 : 3+n]
		for i := range a {
			a[i] = byte('a' + i)
		}
		b := append([]byte(nil), a...)
		alo, ahi := TextWords(BytesData(a), n)
		if lo, hi := TextWords(BytesData(b), n); lo != alo || hi != ahi {
			t.Fatalf("n=%d: equal texts give %#x %#x and %#x %#x", n, alo, ahi, lo, hi)
		}
		for i := 0; i < n; i++ {
			for _, x := range []byte{0, 1, 0x80, 0xff} {
				c := append([]byte(nil), a...)
				c[i] ^= x | 1
				if lo, hi := TextWords(BytesData(c), n); lo == alo && hi == ahi {
					t.Fatalf("n=%d: %q and %q give the same words", n, a, c)
				}
			}
		}
	}
}

// TestCopyShort checks Copy8To16, Copy4To7 and Copy1To3 at every length
// each takes: the n bytes are copied, and no byte around them is written.
func TestCopyShort(t *testing.T) {
	src := make([]byte, 24)
	for i := range src {
		src[i] = byte(i*29 + 7)
	}
	for n := 1; n <= 16; n++ {
		dst := make([]byte, 24)
		for i := range dst {
			dst[i] = 0xee
		}
		d, s := BytesData(dst).Add(4), BytesData(src).Add(3)
		switch {
		case n >= 8:
			Copy8To16(d, s, n)
		case n >= 4:
			Copy4To7(d, s, n)
		default:
			Copy1To3(d, s, n)
		}
		for i, c := range dst {
			want := byte(0xee)
			if i >= 4 && i < 4+n {
				want = src[i-1]
			}
			if c != want {
				t.Fatalf("n=%d: byte %d is %#x, want %#x", n, i, c, want)
			}
		}
	}
}
