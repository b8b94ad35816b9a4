package convert

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// Errors of FromJSON and FromJSONLines: the JSON input.

// JSONError describes malformed JSON input to FromJSON: where it is and
// what is wrong. Positions are 1-based; Column counts bytes.
type JSONError struct {
	Line   int    // line number, 1-based
	Column int    // byte column in the line, 1-based
	Offset int64  // byte offset of the error from the start of the input
	Source string // part of the offending line: at most 160 bytes around Column
	// SourceColumn is the column of Source's first byte in the line (1 when
	// Source starts the line).
	SourceColumn int
	Err          error // the cause, as reported by the JSON reader
}

// Error formats the error as "json: line L, column C: cause".
func (e *JSONError) Error() string {
	return "json: line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Message()
}

// Message returns the cause without the position.
func (e *JSONError) Message() string {
	var se *jsontext.SyntacticError
	if errors.As(e.Err, &se) && se.Err != nil {
		msg := se.Err.Error()
		if se.Err == jsontext.ErrDuplicateName {
			msg += " " + strconv.Quote(se.JSONPointer.LastToken())
		} else if se.JSONPointer != "" {
			msg += " (within " + strconv.Quote(string(se.JSONPointer)) + ")"
		}
		return msg
	}
	if e.Err == io.ErrUnexpectedEOF {
		return "unexpected end of input"
	}
	return e.Err.Error()
}

// Unwrap returns the cause.
func (e *JSONError) Unwrap() error { return e.Err }

// errMoreValues reports data after the root value that is itself a value;
// the JSONError that carries it is at the start of the second value.
var errMoreValues = errors.New("more than one JSON value in the input (a second one starts here)")

// syntaxError is the lexer's rejection of its input.
type syntaxError struct {
	off int64
	msg string
	err error // the cause to report as it is, without re-reading the input with jsontext; or nil
}

func (e *syntaxError) Error() string {
	return "json: " + e.msg + " at offset " + strconv.FormatInt(e.off, 10)
}

// repeatedNameError is the first pass's error for a repeated member name.
type repeatedNameError struct{ *syntaxError }

func (e repeatedNameError) Unwrap() error { return e.syntaxError }

// errTooDeep is the error for JSON nested deeper than maxDepth.
func errTooDeep(maxDepth int) error {
	return errors.New("convert: JSON nested deeper than " + strconv.Itoa(maxDepth) + " levels")
}

// errHeaderTooLarge is wrapped by the error for a table whose header would
// exceed WithMaxHeaderSize.
var errHeaderTooLarge = errors.New("tabular header too large")

// Reasons for rejecting a JSON Lines record, in a *JSONError.
var (
	errLineNotObject = errors.New("a JSON Lines record must be a JSON object")
	errLineTwoValues = errors.New("more than one JSON value on the line (a JSON Lines record is one object on one line)")
)

// Errors of the second pass of FromJSON and of its inputs.

// errChanged explains an inconsistency between the two passes.
func errChanged(err error) error {
	return errors.New("convert: the input changed between the two passes (" + err.Error() + ")")
}

var errPlan = errors.New("convert: internal error: plan out of step with the input")

var errTree = errors.New("convert: internal error: malformed field tree in the plan")

// errShrunk reports a fault in a mapped input: the file became shorter
// while it was read.
var errShrunk = errors.New("convert: the input file became shorter while it was read")

// errNegativeOffset is the error of a Seek or ReadAt of an input before
// its start.
var errNegativeOffset = errors.New("convert: negative offset")

// Errors of the conversions from TOON.

// errUnexpectedToken reports a token a conversion from TOON cannot take
// where it is; the decoder's checks make it unreachable for input that
// decodes, so it marks a broken invariant rather than bad input.
func errUnexpectedToken(k toon.Kind) error {
	return errors.New("convert: unexpected token " + k.String())
}

// Errors of FromCSV and ToCSV.

// errCSVDelimiter is the error for a WithCSVDelimiter that CSV cannot use.
func errCSVDelimiter(c byte) error {
	return errors.New("convert: invalid CSV delimiter " + strconv.QuoteRune(rune(c)))
}

// csvWidthError is a record whose width is not the header's.
type csvWidthError struct {
	pe        *csv.ParseError
	got, want int
}

func (e *csvWidthError) Error() string {
	return e.pe.Error() + ": " + strconv.Itoa(e.got) + " fields, the header has " + strconv.Itoa(e.want)
}

// Unwrap returns the *csv.ParseError, whose Err is csv.ErrFieldCount.
func (e *csvWidthError) Unwrap() error { return e.pe }

// errMore is quotedAt's request for more input: the record goes on past
// what the buffer holds.
var errMore = errors.New("more input needed")

// Errors of Split.

// OversizeError reports a row that does not fit the limits even in a chunk
// of its own.
type OversizeError struct {
	Row       int // index of the row in the table, from 0
	Line      int // input line where the row starts
	Tokens    int // tokens of a chunk holding the row alone (0 when not counted)
	Bytes     int // bytes of that chunk
	MaxTokens int // the limits
	MaxBytes  int
}

// Error describes the row and the limit it exceeds.
func (e *OversizeError) Error() string {
	msg := "convert: row " + strconv.Itoa(e.Row+1) + " (line " + strconv.Itoa(e.Line) + ") does not fit a chunk: alone it makes a chunk of "
	if e.MaxTokens > 0 && e.Tokens > e.MaxTokens {
		msg += strconv.Itoa(e.Tokens) + " tokens, over the limit of " + strconv.Itoa(e.MaxTokens)
	} else {
		msg += strconv.Itoa(e.Bytes) + " bytes, over the limit of " + strconv.Itoa(e.MaxBytes)
	}
	return msg
}

// Building and locating a *JSONError.

// jsonError turns an error of the first pass into a *JSONError located in
// the input. Other errors (I/O, limits) are returned as they are.
//
// The first pass's lexer only says where and roughly why it stopped, so a
// rejected input is read again with jsontext, whose error (the same
// position: the two accept the same documents) explains it better. The
// second reading costs nothing on valid input.
func (s *source) jsonError(err error, maxDepth int) error {
	var le *syntaxError
	if !errors.As(err, &le) {
		return err
	}
	je := &JSONError{Offset: le.off, Err: le}
	if s.rewind() != nil {
		return je
	}
	if le.err != nil {
		// An error of its own (a limit, not the grammar): jsontext would
		// accept the input, after reading what the limit keeps out.
		je.Err = le.err
		locate(je, bufio.NewReaderSize(s.r, 64<<10), je.Offset)
		return je
	}
	ref := referenceError(bufio.NewReaderSize(s.r, 64<<10), maxDepth)
	var se *jsontext.SyntacticError
	switch {
	case errors.As(ref, &se):
		je.Offset, je.Err = se.ByteOffset, ref
	case ref == io.ErrUnexpectedEOF:
		je.Offset, je.Err = -1, ref // at the end
	case ref == errMoreValues:
		// The lexer stopped at the second value's first byte: keep its
		// offset, with the clearer cause.
		je.Err = ref
	case ref == nil:
		// jsontext accepts what the lexer rejected: keep the lexer's error.
	default:
		return ref
	}
	if s.rewind() != nil {
		return je
	}
	locate(je, bufio.NewReaderSize(s.r, 64<<10), je.Offset)
	return je
}

// referenceError reads a JSON document with jsontext and returns the
// first error: a
// *jsontext.SyntacticError, io.ErrUnexpectedEOF for an input without a
// value, errMoreValues, or an error for nesting deeper than maxDepth.
func referenceError(r io.Reader, maxDepth int) error {
	dec := jsontext.NewDecoder(r)
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if k := tok.Kind(); (k == '{' || k == '[') && dec.StackDepth() > maxDepth {
			return errTooDeep(maxDepth)
		}
		if dec.StackDepth() == 0 {
			break
		}
	}
	_, err := dec.ReadToken()
	switch err {
	case io.EOF:
		return nil
	case nil:
		return errMoreValues
	}
	return err
}

// locate finds line, column and source window of offset off (-1: the end
// of the input) by reading r from the start of the input.
func locate(je *JSONError, r *bufio.Reader, off int64) {
	const before, after = 120, 40
	line, lineStart := 1, int64(0)
	var win []byte // the last bytes of the current line, up to off
	winStart := int64(0)
	pos := int64(0)
	for off < 0 || pos < off {
		c, err := r.ReadByte()
		if err != nil {
			break
		}
		pos++
		if c == '\n' {
			line++
			lineStart = pos
			win = win[:0]
			winStart = pos
			continue
		}
		if len(win) == 2*before {
			copy(win, win[before:])
			win = win[:before]
			winStart += before
		}
		win = append(win, c)
	}
	if off < 0 {
		je.Offset = pos
	}
	// Cut the window to at most `before` bytes before the error, then add
	// what follows on the line.
	if len(win) > before {
		cut := len(win) - before
		win = win[cut:]
		winStart += int64(cut)
	}
	for i := 0; i < after; i++ {
		c, err := r.ReadByte()
		if err != nil || c == '\n' || c == '\r' {
			break
		}
		win = append(win, c)
	}
	je.Line = line
	je.Column = int(je.Offset-lineStart) + 1
	je.SourceColumn = int(winStart-lineStart) + 1
	je.Source = string(win)
}
