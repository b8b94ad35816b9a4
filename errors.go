package toon

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
)

// The causes of a SyntaxError. A SyntaxError's Err is one of these or wraps
// one of them, so errors.Is(err, toon.ErrCount) tells what went wrong.
var (
	ErrCount        = errors.New("array length mismatch")               // rows, items, entries or values ≠ declared [N] (§14.1)
	ErrWidth        = errors.New("row width mismatch")                  // a row's cells ≠ the header's leaf fields (§14.1)
	ErrHeader       = errors.New("malformed array header")              // bad length, keyed marker, fields segment, content after a header (§6)
	ErrDelimiter    = errors.New("delimiter mismatch")                  // bracket and fields segments declare different delimiters (§6)
	ErrIndent       = errors.New("bad indentation")                     // not a multiple of the indent size, tabs, depth jumps (§12, §8)
	ErrBlankLine    = errors.New("blank line inside array")             // a blank line within an array span (§12)
	ErrTrailing     = errors.New("content after root value")            // lines after a complete root array or keyed root (§5)
	ErrDuplicateKey = errors.New("duplicate key")                       // sibling keys that repeat (§14.3)
	ErrUTF8         = errors.New("invalid UTF-8")                       // ill-formed UTF-8 in strict mode (§4)
	ErrMissingColon = errors.New("missing colon")                       // a key without its colon (§7.4)
	ErrEscape       = errors.New("invalid escape")                      // an escape not in §7.1, a lone surrogate, a short \u
	ErrUnterminated = errors.New("unterminated string")                 // a quoted token without its closing quote
	ErrQuote        = errors.New("unexpected text after quoted string") // "ab"c
	ErrStructure    = errors.New("line out of place")                   // scalar lines, orphan lines, misplaced keyless headers (§14.2)
	ErrLineTooLong  = errors.New("line too long")                       // a line longer than the maximum line length
	ErrDepth        = errors.New("nesting too deep")                    // more levels than the maximum depth
)

// SyntaxError describes malformed input: where it is and what is wrong.
// Positions are 1-based; Column counts bytes from the start of the line.
type SyntaxError struct {
	Line   int    // line number, 1-based
	Column int    // byte column in the line, 1-based
	Offset int64  // byte offset of the error from the start of the input
	Source string // the offending line, without its line terminator (cut at 256 bytes)
	Err    error  // the cause; errors.Is matches the sentinels above
}

// Error formats the error as "toon: line L, column C: cause".
func (e *SyntaxError) Error() string {
	return "toon: line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Misuse of the API: calls out of order. The errors that report them wrap
// one of these, so errors.Is(err, toon.ErrTableOpen) tells what happened,
// and their text names the call and the state it met.
var (
	ErrClosed     = errors.New("encoder closed")              // a write after Encoder.Close (until Reset)
	ErrComplete   = errors.New("document complete")           // a write after the root value has ended
	ErrTableOpen  = errors.New("table open")                  // a call other than WriteRow or EndTable while a table is open
	ErrNoTable    = errors.New("no table open")               // WriteRow or EndTable without an open table
	ErrIncomplete = errors.New("document incomplete")         // Close with an object or array still open
	ErrPlacement  = errors.New("call out of place")           // a value, token or table where the document cannot take it
	ErrNotValue   = errors.New("not at the start of a value") // Decoder.Decode where the next token is a key or an end
)

// misuseError reports a call out of order: msg says what happened, err is
// one of the sentinels above.
type misuseError struct {
	err error
	msg string
}

func (e *misuseError) Error() string { return "toon: " + e.msg }
func (e *misuseError) Unwrap() error { return e.err }

func misuse(err error, msg string) error { return &misuseError{err, msg} }

// plural writes a count and its noun: "1 row", "2 rows".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// UnsupportedValueError is returned by Encode and Marshal for a value they
// cannot write although its type is supported: a value that contains
// itself (a cycle through pointers, maps or slices).
type UnsupportedValueError struct {
	Value reflect.Value // the container met a second time on its own path
	Str   string        // what is wrong
}

// Error implements error.
func (e *UnsupportedValueError) Error() string { return "toon: unsupported value: " + e.Str }

// Errors of the decoder, besides SyntaxError and its causes above: the
// detailed cause, the helpers that build SyntaxErrors away from the current
// line, and the line reader's internal cause.

// errAt builds a SyntaxError for a position that is not on the current line.
func errAt(line int, off int64, cause error) error {
	return &SyntaxError{Line: line, Column: 1, Offset: off, Err: cause}
}

// countErr is the cause of a count error of the scope f, which found got
// items (a number, or "more").
func countErr(f *frame, one, many, got string) error {
	return &detailError{ErrCount, "declared " + plural(f.n, one, many) + ", found " + got + " (header at line " + strconv.Itoa(f.line) + ")"}
}

// detailError is a sentinel cause with more words.
type detailError struct {
	cause error
	msg   string
}

func (e *detailError) Error() string { return e.cause.Error() + ": " + e.msg }

func (e *detailError) Unwrap() error { return e.cause }

func detail(cause error, msg string) error { return &detailError{cause, msg} }

// errCommentUTF8 reports ill-formed UTF-8 in a comment line; the line is
// left in the rawLine for the error's position.
var errCommentUTF8 = errors.New("comment line is not UTF-8")

// Errors of the encoder.

// Causes of the encoder's errors that are not SyntaxError causes. Errors
// of the encoder wrap one of these or one of the causes above
// (ErrDuplicateKey, ErrDepth, ErrCount, ErrWidth, ErrLineTooLong), or a
// misuse sentinel, so errors.Is tells what went wrong.
var (
	ErrInvalidNumber = errors.New("invalid number") // a Number, json.Number or NumberValue that is not a §4 number
	ErrInvalidToken  = errors.New("invalid token")  // a start token WriteToken cannot lay out: bad length, form, delimiter or field list
)

// encodeError is an error of the encoder: msg says what happened, err is
// the sentinel it wraps.
type encodeError struct {
	err error
	msg string
}

func (e *encodeError) Error() string { return "toon: " + e.msg }
func (e *encodeError) Unwrap() error { return e.err }

// encodeErr returns an encodeError.
func encodeErr(err error, msg string) error { return &encodeError{err, msg} }

// errNoWriter reports output to a nil io.Writer.
var errNoWriter = errors.New("toon: Encoder has a nil io.Writer")

// UnsupportedTypeError is returned by Encode and Marshal for a value whose
// type they cannot encode.
type UnsupportedTypeError struct {
	Type reflect.Type
}

// Error implements error.
func (e *UnsupportedTypeError) Error() string {
	if e.Type == nil {
		return "toon: unsupported type <nil>"
	}
	return "toon: unsupported type " + e.Type.String()
}

// TableError reports a streaming table whose rows do not fit its header: a
// row of the wrong width, or a row count other than the declared one. Err is
// ErrWidth or ErrCount, so errors.Is(err, toon.ErrCount) works.
type TableError struct {
	Table string // the table's key, or "" for a root table
	Err   error  // ErrWidth or ErrCount
	Want  int    // declared fields or rows
	Got   int    // cells in the row, or rows written
}

// Error implements error.
func (e *TableError) Error() string {
	name := "root table"
	if e.Table != "" {
		name = "table " + strconv.Quote(e.Table)
	}
	want := plural(e.Want, "row", "rows")
	if e.Err == ErrWidth {
		want = plural(e.Want, "cell", "cells")
	}
	return "toon: " + name + ": " + e.Err.Error() + ": want " + want + ", got " + strconv.Itoa(e.Got)
}

// Unwrap returns the cause.
func (e *TableError) Unwrap() error { return e.Err }

// countError reports a token-written container with the wrong number of
// elements.
func countError(container, one, many string, want, got int) error {
	s := "more than " + strconv.Itoa(want)
	if got < want {
		s = strconv.Itoa(got)
	}
	return encodeErr(ErrCount, container+" declared "+plural(want, one, many)+", got "+s)
}

// Errors of typed decoding

// UnmarshalTypeError describes a TOON value that cannot be stored in the Go
// value it was meant for.
type UnmarshalTypeError struct {
	Value  string // the TOON value: "object", "array", "string", "number 300", ...
	Type   string // the Go type
	Field  string // the path of the field, if inside a struct
	Line   int    // 1-based line of the value, if known
	Column int    // 1-based column of the value, if known
	Err    error  // the cause, if any: a parse error of a time, an error from a hook
}

// Error describes the mismatch.
func (e *UnmarshalTypeError) Error() string {
	s := "toon: cannot unmarshal " + e.Value + " into Go value of type " + e.Type
	if e.Field != "" {
		s += " (field " + e.Field + ")"
	}
	if e.Line > 0 {
		s += " at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, if any.
func (e *UnmarshalTypeError) Unwrap() error { return e.Err }

// InvalidUnmarshalError describes an invalid target passed to Unmarshal or
// Decode: not a pointer, or a nil pointer.
type InvalidUnmarshalError struct {
	Type reflect.Type
}

// Error implements error.
func (e *InvalidUnmarshalError) Error() string {
	if e.Type == nil {
		return "toon: Unmarshal(nil)"
	}
	if e.Type.Kind() != reflect.Pointer {
		return "toon: Unmarshal(non-pointer " + e.Type.String() + ")"
	}
	return "toon: Unmarshal(nil " + e.Type.String() + ")"
}

// UnknownFieldError reports a key that matches no field of the struct it
// was decoded into, with the DisallowUnknownFields option.
type UnknownFieldError struct {
	Key    string // the key
	Type   string // the struct type
	Line   int    // 1-based line of the key
	Column int    // 1-based column of the key
}

// Error implements error.
func (e *UnknownFieldError) Error() string {
	return "toon: unknown field " + strconv.Quote(e.Key) + " in " + e.Type +
		" at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

// errAfterRoot reports a token after the root value that Decode read as
// the whole document.
var errAfterRoot = errors.New("toon: unexpected token after the root value")

// errNotArray is the cause of the error of a RowDecoder whose first token
// does not start an array.
var errNotArray = errors.New("RowDecoder needs the start of an array")

// errUnsupportedType is the cause of a mismatch into a type that Unmarshal
// cannot decode into (channels, functions, maps with other keys, ...).
func errUnsupportedType(t reflect.Type) error {
	return errors.New("toon: Unmarshal of type " + t.String() + " is not supported")
}

// errUnexpected reports a token of kind k that the decoder's grammar makes
// impossible where it came; where says where, or is empty.
func errUnexpected(k Kind, where string) error {
	return errors.New("toon: unexpected " + k.String() + " token" + where)
}

// errNotJSON reports a generic value of a type that has no JSON form.
func errNotJSON(v any) error {
	return errors.New("toon: cannot convert a " + reflect.TypeOf(v).String() + " to JSON")
}

// errWriteRows reports a call of WriteRows for rows it cannot write: what
// names them and says what is wrong.
func errWriteRows(what string) error { return errors.New("toon: WriteRows of " + what) }

// errRowField reports a field of a row struct that WriteRows cannot make a
// column of.
func errRowField(name, why string) error { return errors.New("field " + name + " " + why) }

// errRepeatedField reports two fields of a row struct with one name.
func errRepeatedField(name string) error { return errors.New("repeated field " + strconv.Quote(name)) }

// Errors of row-range splitting and of the parallel row writers.
var (
	// ErrNotSplittable is the cause of SplitTable's error when the
	// decoder is not where a table can be split: it must read a byte
	// slice in place (NewBytesDecoder), in strict mode, and the last
	// token Token returned must be the ArrayStart of a tabular array.
	ErrNotSplittable = errors.New("toon: SplitTable needs the ArrayStart of a tabular array just read by a strict NewBytesDecoder")
	// ErrSplitStopped is StreamTable's error, and then its decoder's,
	// when its callback stopped it.
	ErrSplitStopped = errors.New("toon: StreamTable stopped by its caller")
)

// errPanicked stands for a worker's panic, which WriteRowsParallel's run
// raises again.
var errPanicked = errors.New("toon: a row worker panicked")

// lineTooLongRow is the error of row (from 0) of the table called name,
// whose line of n bytes is longer than max: WriteRow's and
// WriteRowsParallel's.
func lineTooLongRow(row int, name string, n, max int) error {
	return fmt.Errorf("toon: %w: row %d of %s would be a line of %d bytes, longer than the %d a decoder accepts (see WithMaxLineLength)",
		ErrLineTooLong, row+1, name, n, max)
}
