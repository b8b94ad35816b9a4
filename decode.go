package toon

// This file holds the entry points of decoding into Go values: Unmarshal
// and Decoder.Decode, which sends generic targets to the builder of
// anyvalue.go and the others to the plans of unmarshal.go.

import (
	"fmt"
)

// Unmarshal decodes the TOON document in data into the value v points to.
// See Decoder.Decode for the supported targets.
func Unmarshal(data []byte, v any, opts ...Option) error {
	d := pooledDecoder(data, opts)
	err := d.Decode(v)
	recycle(d)
	return err
}

// Decode reads the whole document from the decoder's input and stores it in
// the value v points to, which may be of any type. Into *any,
// *map[string]any and *[]any, objects become map[string]any (where keys
// repeat, which only non-strict mode allows, the last one wins), arrays
// []any, strings string, booleans bool, null nil, and numbers float64, or
// Number with the UseNumber option. A number float64 cannot hold is out of
// range (§4): one whose magnitude float64 would round to infinity (beyond
// about 1.8e308) or a non-zero one it would round to zero (below about
// 5e-324); into an interface it decodes to Number, its exact text, even
// without UseNumber, so that no value is lost, and Marshal writes it back
// exactly. Into a float field it is a mismatch (below).
//
// Other targets are decoded by type, as encoding/json does:
//
//   - A struct takes an object's keys as fields, named by the field's
//     `toon:"name"` tag, else its `json:"name"` tag, else the field name;
//     a tag of "-" skips the field, unexported fields are ignored, and the
//     fields of embedded structs are promoted. Keys match names exactly:
//     matching is case-sensitive, unlike encoding/json. Keys that match no
//     field are skipped, or rejected with an *UnknownFieldError under the
//     DisallowUnknownFields option. Fields the object lacks keep their
//     values.
//   - A slice takes an array, reusing its backing array, each element
//     decoded into a zeroed element; an array of Go array type fills it,
//     dropping extra elements and zeroing missing ones. The rows of a
//     tabular array are decoded into structs without looking keys up.
//     A declared length [N] presizes a slice only as far as the rest of
//     the input could fill it; memory follows the elements present.
//   - A map takes an object; its keys may be strings, integers (which must
//     fit the key type) or encoding.TextUnmarshalers.
//   - Pointers are allocated as needed; null sets pointers, interfaces,
//     maps and slices to nil and leaves other values unchanged.
//   - Integers and floats take numbers that fit: a number with a fraction
//     into an integer, a number beyond the type's range, or one that a
//     float type would round to infinity or zero is a mismatch, never a
//     silently changed value. Integers may be written 1.0 or 1e3.
//   - time.Time takes an RFC 3339 string, []byte a base64 string,
//     Number and json.Number the exact text of a number, *big.Int and
//     *big.Float a number (or a string holding one) at full precision,
//     Object an object in key order (nested objects as Objects).
//   - A type implementing Unmarshaler, json.Unmarshaler or
//     encoding.TextUnmarshaler (in that order of precedence, methods on
//     the pointer included) decodes itself; see Unmarshaler.
//
// A value that does not fit its target is skipped, and Decode goes on to
// the end; it then returns an *UnmarshalTypeError for the first such value,
// with its line and column, the Go type and the path of the field. Syntax
// errors stop decoding at once.
//
// Strings decoded into typed targets are packed into shared blocks of a
// few KiB, saving an allocation per string; with the InternStrings option,
// repeated short strings are shared. The backing arrays of short slices
// and the values new pointers point to are carved out of shared blocks
// too, one kind per element type, each slice with a capacity of its own
// elements only. A block stays in memory as long as any value in it does.
// Map values are decoded in the map's own storage: the receiver of an
// UnmarshalTOON, UnmarshalJSON or UnmarshalText method of a map value (or
// of a field of one) is an entry of the map, which a later write to the
// map may move, so the method must not keep it.
//
// Called before any token has been read, Decode reads the whole document
// and consumes the input to its end, so trailing content and count errors
// are reported; a Decoder holds one document.
//
// Called after Token, Decode reads the next value only, as encoding/json's
// Decoder does, and leaves the decoder after it, so that Token and Decode
// can take turns: after a Key token, the key's value; inside an array, the
// next element (a row of a table is an object of the header's fields).
// This is how a large document is read one record at a time. Where the
// next token is a key or the end of an object or array, Decode consumes
// nothing and returns an error matching ErrNotValue (use More to tell,
// Token to read a key, Skip to pass a value by). After the last value of
// the document it returns io.EOF. A value that is an array whose count is
// wrong is an error of this call; errors of the input after the value come
// with the next.
func (d *Decoder) Decode(v any) error {
	whole := d.atStart()
	if !whole {
		t, err := d.peek()
		if err != nil {
			return err
		}
		if err := d.notValue("Decode", t); err != nil {
			return err
		}
	}
	var err error
	switch p := v.(type) {
	case *any:
		*p, err = d.decodeAny(whole)
	case *map[string]any:
		var x any
		x, err = d.decodeAny(whole)
		if err == nil {
			m, ok := x.(map[string]any)
			if !ok {
				return &UnmarshalTypeError{Value: describe(x), Type: "map[string]any"}
			}
			*p = m
		}
	case *[]any:
		var x any
		x, err = d.decodeAny(whole)
		if err == nil {
			a, ok := x.([]any)
			if !ok {
				return &UnmarshalTypeError{Value: describe(x), Type: "[]any"}
			}
			*p = a
		}
	default:
		return unmarshalReflect(d, v, whole)
	}
	return err
}

// decodeAny decodes the next value into generic values; whole asks for
// the whole document, checked to its end.
func (d *Decoder) decodeAny(whole bool) (any, error) {
	s := wholeState(d)
	var v any
	err := s.root(whole, func(t Token) (err error) {
		v, err = s.generic(t, 0, false, false)
		return err
	})
	if err != nil && whole {
		return nil, err
	}
	return v, err
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64, Number:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
