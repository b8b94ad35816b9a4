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
		// The decoder has done jsontext's checks already: in strict mode it
		// rejects ill-formed UTF-8 and repeated keys, and in non-strict mode
		// strings pass through as they are and repeated keys are resolved
		// before writing (see lenientToJSON). Checking again costs time.
		jsontext.AllowInvalidUTF8(true),
		jsontext.AllowDuplicateNames(true),
	}
	if c.jsonIndent > 0 {
		jopts = append(jopts, jsontext.WithIndent(strings.Repeat(" ", c.jsonIndent)))
	}
	enc := jsontext.NewEncoder(w, jopts...)
	if !c.strict {
		return lenientToJSON(enc, dec)
	}
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

// lenientToJSON converts a document decoded in non-strict mode, where keys
// may repeat. The specification gives repeated keys last-write-wins
// meaning (§14.3), which cannot be decided before an object ends, so this
// path builds the document in memory, keeps each key once (at its first
// position, with its last value) and then writes it. Strict mode, which
// rejects repeated keys, streams in constant memory instead.
func lenientToJSON(enc *jsontext.Encoder, dec *toon.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	v, err := lenientValue(dec, t)
	if err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("convert: unexpected token after the root value")
		}
		return err
	}
	if err := writeLenient(enc, v); err != nil {
		return writeErr(err)
	}
	return nil
}

// lenientNumber is number text kept exactly.
type lenientNumber string

func lenientValue(dec *toon.Decoder, t toon.Token) (any, error) {
	switch t.Kind() {
	case toon.KindObjectStart:
		var obj toon.Object
		var index map[string]int
		for {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if k.Kind() == toon.KindObjectEnd {
				return obj, nil
			}
			name := k.String()
			vt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := lenientValue(dec, vt)
			if err != nil {
				return nil, err
			}
			if index == nil {
				index = make(map[string]int)
			}
			if i, ok := index[name]; ok {
				obj[i].Value = v // last write wins, first position stays
				continue
			}
			index[name] = len(obj)
			obj = append(obj, toon.Member{Key: name, Value: v})
		}
	case toon.KindArrayStart:
		arr := []any{}
		for {
			et, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if et.Kind() == toon.KindArrayEnd {
				return arr, nil
			}
			v, err := lenientValue(dec, et)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
	case toon.KindString:
		return t.String(), nil
	case toon.KindNumber:
		return lenientNumber(t.String()), nil
	case toon.KindBool:
		return t.Bool(), nil
	case toon.KindNull:
		return nil, nil
	}
	return nil, errors.New("convert: unexpected token " + t.Kind().String())
}

func writeLenient(enc *jsontext.Encoder, v any) error {
	switch x := v.(type) {
	case toon.Object:
		if err := enc.WriteToken(jsontext.ObjectStart); err != nil {
			return err
		}
		for _, m := range x {
			if err := enc.WriteToken(jsontext.String(m.Key)); err != nil {
				return err
			}
			if err := writeLenient(enc, m.Value); err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.ObjectEnd)
	case []any:
		if err := enc.WriteToken(jsontext.ArrayStart); err != nil {
			return err
		}
		for _, e := range x {
			if err := writeLenient(enc, e); err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.ArrayEnd)
	case string:
		return enc.WriteToken(jsontext.String(x))
	case lenientNumber:
		return enc.WriteValue(jsontext.Value(x))
	case bool:
		return enc.WriteToken(jsontext.Bool(x))
	case nil:
		return enc.WriteToken(jsontext.Null)
	}
	return errors.New("convert: unexpected value")
}
