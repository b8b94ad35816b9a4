package toon

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestMisuseErrors calls the Encoder's methods out of order and checks
// that each error matches its sentinel with errors.Is and says what
// happened.
func TestMisuseErrors(t *testing.T) {
	cases := []struct {
		name     string
		call     func(e *Encoder) error // the calls before the one that fails, then that call
		sentinel error
		text     string
	}{
		{"WriteRow after Close", func(e *Encoder) error {
			must(t, e.BeginTable("t", 1, "a"))
			must(t, e.WriteRow(Int(1)))
			must(t, e.EndTable())
			must(t, e.Close())
			return e.WriteRow(Int(2))
		}, ErrClosed, "toon: WriteRow after Close"},
		{"EndTable after Close", func(e *Encoder) error {
			must(t, e.Close())
			return e.EndTable()
		}, ErrClosed, "toon: EndTable after Close"},
		{"BeginTable after Close", func(e *Encoder) error {
			must(t, e.Encode(1))
			must(t, e.Close())
			return e.BeginTable("t", 1, "a")
		}, ErrClosed, "toon: BeginTable after Close"},
		{"Encode after Close", func(e *Encoder) error {
			must(t, e.Close())
			return e.Encode(1)
		}, ErrClosed, "toon: Encode after Close"},
		{"WriteToken after Close", func(e *Encoder) error {
			must(t, e.Close())
			return e.WriteToken(NullToken())
		}, ErrClosed, "toon: WriteToken after Close"},
		{"WriteRow without a table", func(e *Encoder) error {
			return e.WriteRow(Int(1))
		}, ErrNoTable, "toon: WriteRow without an open table"},
		{"EndTable without a table", func(e *Encoder) error {
			must(t, e.WriteToken(ObjectStartToken()))
			return e.EndTable()
		}, ErrNoTable, "toon: EndTable without an open table"},
		{"EndTable twice", func(e *Encoder) error {
			must(t, e.BeginTable("t", 0, "a"))
			must(t, e.EndTable())
			return e.EndTable()
		}, ErrNoTable, "toon: EndTable without an open table"},
		{"BeginTable while a table is open", func(e *Encoder) error {
			must(t, e.BeginTable("t", 1, "a"))
			return e.BeginTable("u", 1, "a")
		}, ErrTableOpen, `toon: BeginTable while table "t" is open`},
		{"BeginTable while the root table is open", func(e *Encoder) error {
			must(t, e.BeginTable("", -1, "a"))
			return e.BeginTable("u", 1, "a")
		}, ErrTableOpen, `toon: BeginTable while the root table is open`},
		{"WriteToken while a table is open", func(e *Encoder) error {
			must(t, e.BeginTable("t", 1, "a"))
			return e.WriteToken(NullToken())
		}, ErrTableOpen, `toon: WriteToken while table "t" is open`},
		{"Encode while a table is open", func(e *Encoder) error {
			must(t, e.BeginTable("t", -1, "a"))
			return e.Encode(1)
		}, ErrTableOpen, `toon: Encode while table "t" is open`},
		{"Close while a table is open", func(e *Encoder) error {
			must(t, e.BeginTable("t", 2, "a"))
			return e.Close()
		}, ErrTableOpen, `toon: Close with table "t" still open`},
		{"Close inside an object", func(e *Encoder) error {
			must(t, e.WriteToken(ObjectStartToken()))
			return e.Close()
		}, ErrIncomplete, "toon: Close before the end of the document"},
		{"Encode twice", func(e *Encoder) error {
			must(t, e.Encode(1))
			return e.Encode(2)
		}, ErrComplete, "toon: Encode after the end of the document"},
		{"BeginTable after the root table", func(e *Encoder) error {
			must(t, e.BeginTable("", 0, "a"))
			must(t, e.EndTable())
			return e.BeginTable("", 0, "a")
		}, ErrComplete, "toon: BeginTable after the end of the document"},
		{"Encode after WriteToken", func(e *Encoder) error {
			must(t, e.WriteToken(ObjectStartToken()))
			return e.Encode(1)
		}, ErrPlacement, "toon: Encode after the document has begun"},
		{"BeginTable where a field cannot begin", func(e *Encoder) error {
			must(t, e.WriteToken(ArrayStartToken(1, FormList, 0, nil)))
			return e.BeginTable("t", 1, "a")
		}, ErrPlacement, "toon: BeginTable where an object field cannot begin"},
		{"a token out of place", func(e *Encoder) error {
			return e.WriteToken(ObjectEndToken())
		}, ErrPlacement, "toon: unexpected ObjectEnd token"},
		{"a row too wide", func(e *Encoder) error {
			must(t, e.BeginTable("t", 1, "a"))
			return e.WriteRow(Int(1), Int(2))
		}, ErrWidth, `toon: table "t": row width mismatch: want 1 cell, got 2`},
		{"a row too narrow", func(e *Encoder) error {
			must(t, e.BeginTable("t", 1, "a", "b"))
			return e.WriteRow(Int(1))
		}, ErrWidth, `toon: table "t": row width mismatch: want 2 cells, got 1`},
		{"a row too many", func(e *Encoder) error {
			must(t, e.BeginTable("", 1, "a"))
			must(t, e.WriteRow(Int(1)))
			return e.WriteRow(Int(1))
		}, ErrCount, `toon: root table: array length mismatch: want 1 row, got 2`},
		{"a token-written count", func(e *Encoder) error {
			must(t, e.WriteToken(ArrayStartToken(1, FormInline, 0, nil)))
			must(t, e.WriteToken(NullToken()))
			return e.WriteToken(NullToken())
		}, ErrCount, "toon: inline array declared 1 value, got more than 1"},
	}
	for _, c := range cases {
		e := NewEncoder(io.Discard)
		err := c.call(e)
		if !errors.Is(err, c.sentinel) {
			t.Errorf("%s: %v, want an error matching %q", c.name, err, c.sentinel)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.text) {
			t.Errorf("%s: %q, want %q", c.name, err, c.text)
		}
	}
}

// TestResetAfterClose checks that Reset makes a closed Encoder usable.
func TestResetAfterClose(t *testing.T) {
	var sb strings.Builder
	e := NewEncoder(io.Discard)
	must(t, e.Encode(1))
	must(t, e.Close())
	must(t, e.Close()) // a second Close is harmless
	e.Reset(&sb)
	must(t, e.BeginTable("t", 1, "a"))
	must(t, e.WriteRow(Int(7)))
	must(t, e.EndTable())
	must(t, e.Close())
	if want := "t[1]{a}:\n  7"; sb.String() != want {
		t.Fatalf("got %q, want %q", sb.String(), want)
	}
}
