package convert

import (
	"errors"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// toJSONText is ToJSON written with jsontext.Encoder: the reference the
// tests compare jsonWriter's output and errors with.
func toJSONText(w io.Writer, dec *toon.Decoder, c config) error {
	jopts := []jsontext.Options{
		// The decoder has done jsontext's checks already: in strict mode it
		// rejects ill-formed UTF-8 and repeated keys, and in non-strict mode
		// strings pass through as they are and repeated keys are resolved
		// before writing (see lenientToJSONText). Checking again costs time.
		jsontext.AllowInvalidUTF8(true),
		jsontext.AllowDuplicateNames(true),
	}
	if c.jsonIndent > 0 {
		jopts = append(jopts, jsontext.WithIndent(strings.Repeat(" ", c.jsonIndent)))
	}
	enc := jsontext.NewEncoder(w, jopts...)
	if !c.strict {
		return lenientToJSONText(enc, dec)
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
			err = enc.WriteToken(jsontext.String(mem.String(t.Bytes())))
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

// lenientToJSONText converts a document decoded in non-strict mode with
// jsontext.
// It builds the whole document in memory (lenientDocument), keeping each
// repeated key once, at its first position with its last value (§14.3),
// and then writes it: unlike spoolToJSON, its memory grows with the
// document.
func lenientToJSONText(enc *jsontext.Encoder, dec *toon.Decoder) error {
	v, ok, err := lenientDocument(dec)
	if !ok {
		return err
	}
	if err := writeLenientText(enc, v); err != nil {
		return writeErr(err)
	}
	return nil
}

func writeLenientText(enc *jsontext.Encoder, v any) error {
	switch x := v.(type) {
	case toon.Object:
		if err := enc.WriteToken(jsontext.ObjectStart); err != nil {
			return err
		}
		for _, m := range x {
			if err := enc.WriteToken(jsontext.String(m.Key)); err != nil {
				return err
			}
			if err := writeLenientText(enc, m.Value); err != nil {
				return err
			}
		}
		return enc.WriteToken(jsontext.ObjectEnd)
	case []any:
		if err := enc.WriteToken(jsontext.ArrayStart); err != nil {
			return err
		}
		for _, e := range x {
			if err := writeLenientText(enc, e); err != nil {
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
