package toon

// This file builds generic values (trees of any) from a Decoder's tokens:
// the one builder behind Decode into *any, *map[string]any and *[]any,
// Decode into Object, and the values handed to Unmarshaler and
// json.Unmarshaler hooks.

import (
	"encoding/json"
	"strconv"

	"github.com/toonstream/toon/internal/mem"
)

// generic builds the generic value that starts with t: objects as
// map[string]any, or as Object when ordered (nested objects too); arrays as
// []any; numbers as Number with exact or the UseNumber option, else as
// float64. size is the number of members an object is known to have (a
// tabular row's fields), or 0.
//
// Object keys come from a small cache, since documents repeat a few keys
// (every row of a table has the same ones), and strings from decState.str,
// which packs short ones into shared blocks when the result keeps them all.
func (s *decState) generic(t Token, size int, ordered, exact bool) (any, error) {
	switch t.kind() {
	case KindObjectStart:
		var m map[string]any
		var o Object
		if ordered {
			o = make(Object, 0, size)
		} else {
			m = make(map[string]any, size)
		}
		for {
			k, err := s.next()
			if err != nil {
				return nil, err
			}
			if k.kind() == KindObjectEnd {
				if ordered {
					return o, nil
				}
				return m, nil
			}
			name := s.text.key(k.text())
			vt, err := s.next()
			if err != nil {
				return nil, err
			}
			v, err := s.generic(vt, 0, ordered, exact)
			if err != nil {
				return nil, err
			}
			if ordered {
				o = setMember(o, name, v)
			} else {
				m[name] = v
			}
		}
	case KindArrayStart:
		d := s.d
		ahead := d.charge(d.preallocLen(t.n, anySize), anySize)
		rowSize := 0
		if t.Form() == FormTabular {
			rowSize = t.nf() // each row is an object of the header's fields
		}
		a := make([]any, 0, ahead)
		for {
			et, err := s.next()
			if err != nil {
				return nil, err
			}
			if et.kind() == KindArrayEnd {
				d.filled(ahead, len(a), anySize)
				return a, nil
			}
			v, err := s.generic(et, rowSize, ordered, exact)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
	case KindString:
		if s.text.pack {
			return s.box.str(s.str(t.text())), nil
		}
		return s.str(t.text()), nil
	case KindNumber:
		if exact || s.d.opts.useNumber {
			return Number(s.str(t.text())), nil
		}
		f, err := parseFloat(t.text(), 64)
		if err != nil {
			return Number(s.str(t.text())), nil // out of float64's range: keep the text (§4)
		}
		if f == 0 {
			f = 0 // -0 decodes to 0 (§4)
		}
		if s.text.pack {
			return s.box.float(f), nil
		}
		return f, nil
	case KindBool:
		return t.Bool(), nil
	case KindNull:
		return nil, nil
	}
	return nil, errUnexpected(t.kind(), "")
}

// anySize is the size of an element of []any.
var anySize = mem.Sizeof[any]()

// setMember sets key k of o, replacing an earlier member of that key (only
// non-strict decoding lets keys repeat; the last one wins, in the first
// one's place).
func setMember(o Object, k string, v any) Object {
	for i := range o {
		if o[i].Key == k {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{Key: k, Value: v})
}

// appendJSON appends the JSON text of a generic value.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		q, err := json.Marshal(x)
		return append(b, q...), err
	case Number:
		return append(b, x...), nil
	case float64:
		return strconv.AppendFloat(b, x, 'g', -1, 64), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case Object:
		b = append(b, '{')
		for i, m := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, m.Key); err != nil {
				return b, err
			}
			b = append(b, ':')
			if b, err = appendJSON(b, m.Value); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	return b, errNotJSON(v)
}

// anyBoxes makes the interface values of the numbers and strings of
// generic trees. Converting a float64 or a string to any allocates a copy
// of it for the interface to point to; anyBoxes stores the copies in
// shared blocks instead, saving an allocation per value, where the result
// keeps all its values anyway (textStore.pack: a whole document is
// decoded). A block lives as long as any value in it. The copies are never
// written again: an interface's value cannot be changed.
type anyBoxes struct {
	floats []float64
	strs   []string
}

// boxBlock is how many values a block of anyBoxes holds.
const boxBlock = 64

// The type words of float64 and string interface values.
var (
	float64Word = anyType(float64(0))
	stringWord  = anyType("")
)

func anyType(v any) mem.Ptr { return mem.AnyType(&v) }

// float returns f as an any.
func (b *anyBoxes) float(f float64) any {
	if len(b.floats) == cap(b.floats) {
		b.floats = make([]float64, 0, boxBlock)
	}
	b.floats = append(b.floats, f)
	return mem.MakeAny(float64Word, mem.Of(&b.floats[len(b.floats)-1]))
}

// str returns v as an any.
func (b *anyBoxes) str(v string) any {
	if len(b.strs) == cap(b.strs) {
		b.strs = make([]string, 0, boxBlock)
	}
	b.strs = append(b.strs, v)
	return mem.MakeAny(stringWord, mem.Of(&b.strs[len(b.strs)-1]))
}
