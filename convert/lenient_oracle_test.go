package convert

import (
	"errors"
	"io"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// The in-memory non-strict path that spoolToJSON replaced, kept as the
// oracle of the differential tests (lenient_test.go).

// lenientToJSON converts a document decoded in non-strict mode, where keys
// may repeat. The specification gives repeated keys last-write-wins
// meaning (§14.3): a key keeps its first position and takes its last value.
// So no member of an object can be written before the object ends, a later
// line may replace it; and as every value lies inside the root, when the
// root is an object (the usual document, a table included) nothing can be
// written before the last line. This path therefore builds the whole
// document in memory, keeps each key once and then writes it: memory grows
// with the document, by several times its size.
//
// Only a root array could be written element by element (an element is
// final once it ends, no object being open around it), and writing the
// members of an object as they come would need them kept aside (in memory
// or a temporary file) until the object ends; neither is done. Strict
// mode, which rejects repeated keys, streams in constant memory instead.
func lenientToJSON(jw *jsonWriter, dec *toon.Decoder) error {
	v, ok, err := lenientDocument(dec)
	if !ok {
		return err
	}
	writeLenient(jw, v)
	return nil
}

// writeLenient writes a value built by lenientValue.
func writeLenient(jw *jsonWriter, v any) {
	switch x := v.(type) {
	case toon.Object:
		jw.open('{')
		for _, m := range x {
			jw.key(mem.Bytes(m.Key))
			writeLenient(jw, m.Value)
		}
		jw.close('}')
	case []any:
		jw.open('[')
		for _, e := range x {
			writeLenient(jw, e)
		}
		jw.close(']')
	case string:
		jw.str(mem.Bytes(x))
	case lenientNumber:
		jw.raw(mem.Bytes(string(x)))
	case bool:
		if x {
			jw.raw(litTrue)
		} else {
			jw.raw(litFalse)
		}
	case nil:
		jw.raw(litNull)
	}
}

// lenientDocument reads the whole document of a non-strict decoder. ok is
// false when there is nothing to write: on an error, or for an input
// without tokens.
func lenientDocument(dec *toon.Decoder) (v any, ok bool, err error) {
	t, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = nil
		}
		return nil, false, err
	}
	if v, err = lenientValue(dec, t); err != nil {
		return nil, false, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("convert: unexpected token after the root value")
		}
		return nil, false, err
	}
	return v, true, nil
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
