package toon

import (
	"errors"
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

// Errors of row-range splitting.
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
