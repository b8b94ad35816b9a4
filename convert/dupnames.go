package convert

import (
	"bufio"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// Non-strict FromJSON: objects that repeat a member name.
//
// Strict FromJSON (the default) rejects a repeated name. Non-strict
// FromJSON reads it as JSON parsers do (JSON.parse, and so the reference
// implementation's command): the name keeps the position of its first
// occurrence and takes the value of its last, which is also what §14.3
// asks of TOON. The first pass stops at the first repeated name; FromJSON
// then reads the input again with jsontext, which allows repeated names
// when asked, writes it without them to a temporary file through the
// spool of non-strict ToJSON (lenient.go), which resolves them as each
// object closes in bounded memory, and converts that file. Only documents
// with a repeated name pay for the extra passes.

// fromLenient is FromJSON, in non-strict mode, of an input src that
// repeats a member name.
func fromLenient(w io.Writer, src *source, opts []Option) error {
	c := makeConfig(opts)
	if err := src.rewind(); err != nil {
		return err
	}
	in := src.reader()
	if c.lines != nil {
		// JSON Lines: once every record line is known to hold one object,
		// the view's separators are exactly its recSep bytes, and with
		// ',' in their place it is the JSON array of the records.
		if err := c.lines.checkAll(); err != nil {
			return err
		}
		in = sepReader{in}
	}
	dec := jsontext.NewDecoder(bufio.NewReaderSize(in, 64<<10), jsontext.AllowDuplicateNames(true))
	jt := &jsonTokens{dec: dec, maxDepth: c.maxDepth}
	sp := &spool{budget: c.spoolBudget, dir: c.tempDir}
	defer sp.close()
	l := &lenient{sw: newJSONWriter(sp, 0), sp: sp, compact: int64(c.compactMax)}
	defer l.sw.release()
	root, rootEnd, _, err := l.convert(jt)
	if err == nil {
		end := dec.InputOffset()
		switch _, err = dec.ReadToken(); err {
		case io.EOF:
			err = nil
		case nil:
			return src.moreValuesError(end)
		}
	}
	if err != nil {
		return src.lenientError(err)
	}
	if root == nil {
		root = []piece{{0, rootEnd}}
	}
	f, err := tempFile(c.tempDir, "toon-json-*")
	if err != nil {
		return err
	}
	defer f.Close()
	jw := newJSONWriter(f, 0)
	defer jw.release()
	if err := l.output(jw, root); err != nil {
		return err
	}
	if jw.flushEnd(); jw.err != nil {
		return jw.err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// The rewritten input is plain JSON, even when the original was JSON
	// Lines.
	return FromJSON(w, f, append(opts[:len(opts):len(opts)], WithStrict(true), withLines(nil))...)
}

// lenientError locates an error of fromLenient's reading in the input, as
// jsonError does for the first pass's. Other errors (I/O, limits) are
// returned as they are.
func (s *source) lenientError(err error) error {
	je := &JSONError{Err: err}
	var se *jsontext.SyntacticError
	switch {
	case errors.As(err, &se):
		je.Offset = se.ByteOffset
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		je.Offset, je.Err = -1, io.ErrUnexpectedEOF // at the end
	default:
		return err
	}
	if s.rewind() == nil {
		locate(je, bufio.NewReaderSize(s.r, 64<<10), je.Offset)
	}
	return je
}

// moreValuesError reports a second top-level value, the first byte after
// end (where the root value ends) that is not white space, as the first
// pass reports it.
func (s *source) moreValuesError(end int64) error {
	if err := s.rewind(); err != nil {
		return err
	}
	br := bufio.NewReaderSize(s.r, 64<<10)
	if _, err := br.Discard(int(end)); err != nil {
		return err
	}
	at := end
	for {
		c, err := br.ReadByte()
		if err != nil {
			return err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		at++
	}
	je := &JSONError{Err: errMoreValues, Offset: at}
	if err := s.rewind(); err != nil {
		return err
	}
	locate(je, bufio.NewReaderSize(s.r, 64<<10), at)
	return je
}

// jsonTokens reads a JSON document as the tokens of the equivalent TOON
// document, for lenient.convert: member names as keys, strings
// unescaped, numbers as their text. Arrays start with a list-form token
// (lenient.convert looks only at kinds).
type jsonTokens struct {
	dec      *jsontext.Decoder
	scr      []byte
	maxDepth int
}

// Token returns the next token; its bytes are valid until the next call.
func (j *jsonTokens) Token() (toon.Token, error) {
	d := j.dec
	switch d.PeekKind() {
	case '{', '[':
		t, err := d.ReadToken()
		if err != nil {
			return toon.Token{}, err
		}
		if d.StackDepth() > j.maxDepth {
			return toon.Token{}, errTooDeep(j.maxDepth)
		}
		if t.Kind() == '{' {
			return toon.ObjectStartToken(), nil
		}
		return toon.ArrayStartToken(0, toon.FormList, 0, nil), nil
	case '}', ']':
		t, err := d.ReadToken()
		if err != nil {
			return toon.Token{}, err
		}
		if t.Kind() == '}' {
			return toon.ObjectEndToken(), nil
		}
		return toon.ArrayEndToken(), nil
	case 0: // the end of the input, or an error
		_, err := d.ReadToken()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return toon.Token{}, err
	}
	// In an object, names and values alternate: an even count read so far
	// means a name comes next.
	k, n := d.StackIndex(d.StackDepth())
	name := k == '{' && n%2 == 0
	v, err := d.ReadValue()
	if err != nil {
		return toon.Token{}, err
	}
	switch v.Kind() {
	case '"':
		if j.scr, err = jsontext.AppendUnquote(j.scr[:0], v); err != nil {
			return toon.Token{}, err
		}
		if name {
			return toon.KeyToken(j.scr), nil
		}
		return toon.StringToken(j.scr), nil
	case '0':
		return toon.NumberToken(v), nil
	case 't':
		return toon.BoolToken(true), nil
	case 'f':
		return toon.BoolToken(false), nil
	}
	return toon.NullToken(), nil
}
