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
