package convert

import (
	"errors"
	"io"
	"strings"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// ToJSON reads one TOON document from r and writes it to w as JSON, followed
// by a newline. It streams: memory does not grow with the document. Object
// keys keep their order and numbers keep their exact text. The options that
// apply are WithIndent (the TOON input's indentation), WithStrict,
// WithJSONIndent and WithMaxDepth.
//
// Errors in the TOON input are returned as *toon.SyntaxError; errors from r
// and w are returned as they are. When an error occurs, part of the JSON may
// already have been written to w.
func ToJSON(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithStrict(c.strict), toon.WithMaxDepth(c.maxDepth))
	jopts := []jsontext.Options{
		// In non-strict mode the decoder passes repeated keys through (last
		// write wins is their meaning), and strings as they are.
		jsontext.AllowDuplicateNames(!c.strict),
		jsontext.AllowInvalidUTF8(!c.strict),
	}
	if c.jsonIndent > 0 {
		jopts = append(jopts, jsontext.WithIndent(strings.Repeat(" ", c.jsonIndent)))
	}
	enc := jsontext.NewEncoder(w, jopts...)
	for {
		t, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		switch t.Kind() {
		case toon.KindObjectStart:
			err = enc.WriteToken(jsontext.ObjectStart)
		case toon.KindObjectEnd:
			err = enc.WriteToken(jsontext.ObjectEnd)
		case toon.KindArrayStart:
			err = enc.WriteToken(jsontext.ArrayStart)
		case toon.KindArrayEnd:
			err = enc.WriteToken(jsontext.ArrayEnd)
		case toon.KindKey, toon.KindString:
			// jsontext copies the string into its buffer during the call, so
			// a view of the decoder's bytes is enough.
			err = enc.WriteToken(jsontext.String(unsafeString(t.Bytes())))
		case toon.KindNumber:
			// TOON number text (§4) is JSON number text: written as it is.
			err = enc.WriteValue(jsontext.Value(t.Bytes()))
		case toon.KindBool:
			if t.Bool() {
				err = enc.WriteToken(jsontext.True)
			} else {
				err = enc.WriteToken(jsontext.False)
			}
		case toon.KindNull:
			err = enc.WriteToken(jsontext.Null)
		default:
			err = errors.New("convert: unexpected token " + t.Kind().String())
		}
		if err != nil {
			return writeErr(err)
		}
	}
}

// writeErr gives errors of the JSON writer a prefix; I/O errors from the
// writer come back unwrapped.
func writeErr(err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return errors.New("convert: writing JSON: " + se.Error())
	}
	return err
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
