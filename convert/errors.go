package convert

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

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

func errTooDeep(maxDepth int) error {
	return errors.New("convert: JSON nested deeper than " + strconv.Itoa(maxDepth) + " levels")
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
