package toon

import (
	"errors"
	"io"
	"testing"
)

// The encoder's errors wrap a sentinel a caller can test for, and keep
// their text.
func TestEncoderErrorSentinels(t *testing.T) {
	deep := any(1)
	for range 30 {
		deep = []any{deep}
	}
	for _, c := range []struct {
		name string
		run  func() error
		want error
		text string
	}{
		{"duplicate key", func() error { _, err := Marshal(Object{{"a", 1}, {"a", 2}}); return err }, ErrDuplicateKey, `toon: duplicate key "a" in Object`},
		{"keys alike", func() error { _, err := Marshal(Object{{"a\xff", 1}, {"a\xfe", 2}}); return err }, ErrDuplicateKey, ""},
		{"invalid number", func() error { _, err := Marshal(Number("05")); return err }, ErrInvalidNumber, `toon: invalid number "05"`},
		{"too deep", func() error { _, err := Marshal(deep, WithMaxDepth(20)); return err }, ErrDepth, ""},
		{"BeginTable without fields", func() error { return NewEncoder(io.Discard).BeginTable("t", 1) }, ErrHeader, "toon: BeginTable with no fields"},
		{"BeginTable repeated field", func() error { return NewEncoder(io.Discard).BeginTable("t", 1, "a", "a") }, ErrDuplicateKey, `toon: BeginTable with repeated field "a"`},
		{"token negative length", func() error {
			return NewEncoder(io.Discard).WriteToken(ArrayStartToken(-1, FormList, 0, nil))
		}, ErrInvalidToken, "toon: ArrayStart token with negative length"},
		{"token count", func() error {
			e := NewEncoder(io.Discard)
			e.WriteToken(ArrayStartToken(2, FormInline, 0, nil))
			e.WriteToken(NumberToken([]byte("1")))
			return e.WriteToken(ArrayEndToken())
		}, ErrCount, "toon: inline array declared 2 values, got 1"},
	} {
		err := c.run()
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.want)
		}
		if c.text != "" && (err == nil || err.Error() != c.text) {
			t.Errorf("%s: text %q, want %q", c.name, err, c.text)
		}
	}
}

// TestKeyPrint checks keyPrint against its definition, the key's length
// and first bytes, for keys of every length up to 9 that sit in larger
// slices (it must not read past a key's length).
func TestKeyPrint(t *testing.T) {
	buf := []byte("abcdefghijklmnop")
	for n := 0; n <= 9; n++ {
		for off := 0; off+n <= len(buf); off++ {
			k := buf[off : off+n]
			var want uint64
			for i := min(n, 7) - 1; i >= 0; i-- {
				want = want<<8 | uint64(k[i])
			}
			want |= uint64(n) << 56
			if got := keyPrint(k); got != want {
				t.Fatalf("keyPrint(%q) = %#x, want %#x", k, got, want)
			}
			// The bytes after the key, within its capacity, do not count.
			saved := buf[off+n:]
			tail := append([]byte(nil), saved...)
			for i := range saved {
				saved[i] ^= 0x55
			}
			if got := keyPrint(k); got != want {
				t.Fatalf("keyPrint(%q) read past the key: %#x", k, got)
			}
			copy(saved, tail)
		}
	}
}
