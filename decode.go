package toon

import (
	"errors"
	"fmt"
	"io"

	"github.com/toonstream/toon/internal/mem"
)

// Unmarshal decodes the TOON document in data into the value v points to.
// See Decoder.Decode for the supported targets.
func Unmarshal(data []byte, v any, opts ...Option) error {
	return newBytesDecoder(data, opts).Decode(v)
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
// repeated short strings are shared.
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
		return decodeReflect(d, v, whole)
	}
	return err
}

// decodeAny decodes the next value into generic values; whole asks for
// the whole document, checked to its end.
func (d *Decoder) decodeAny(whole bool) (any, error) {
	t, err := d.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	var ad anyDecoder
	ad.d = d
	v, err := ad.value(t, 0)
	if err != nil {
		return nil, err
	}
	if !whole {
		return v, d.endErr(t)
	}
	if _, err := d.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("toon: unexpected token after the root value")
		}
		return nil, err
	}
	return v, nil
}

// anySize is the size of an element of []any.
var anySize = mem.Sizeof[any]()

// anyDecoder builds generic values from a Decoder's tokens, saving
// allocations where the result allows: object keys come from a small cache
// (documents repeat a few keys: every row of a table has the same ones),
// and short strings are cut from shared blocks, which the result keeps
// alive anyway.
type anyDecoder struct {
	d     *Decoder
	keys  keyCache
	block []byte // the current block of short strings
}

// keyCache holds the strings of recently decoded object keys, so that a
// key seen before costs no allocation.
type keyCache [keyCacheSize]string

const (
	keyCacheSize = 64   // entries in a keyCache (a power of 2)
	maxCachedKey = 64   // longer keys are not cached
	anyBlockSize = 4096 // bytes per block of short strings
	maxBlockStr  = 64   // longer strings get their own allocation
)

// get returns the string of an object key. The cache compares contents,
// so a key whose bytes merely sit where an earlier key's did is never
// mistaken for it.
func (c *keyCache) get(b []byte) string {
	n := len(b)
	if n == 0 || n > maxCachedKey {
		return string(b)
	}
	h := (uint(n)*37 + uint(b[0])*11 + uint(b[n/2])*5 + uint(b[n-1])) & (keyCacheSize - 1)
	if k := c[h]; k == string(b) {
		return k
	}
	k := string(b)
	c[h] = k
	return k
}

// str returns b as a string, cut from a shared block when it is short.
func (a *anyDecoder) str(b []byte) string {
	n := len(b)
	if n == 0 || n > maxBlockStr {
		return string(b)
	}
	if cap(a.block)-len(a.block) < n {
		a.block = make([]byte, 0, anyBlockSize)
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return mem.String(a.block[start:])
}

// value builds the generic value that starts with token t. size is the
// number of members an object is known to have (a tabular row's fields),
// or 0.
func (a *anyDecoder) value(t Token, size int) (any, error) {
	d := a.d
	switch t.kind() {
	case KindObjectStart:
		m := make(map[string]any, size)
		for {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			if k.kind() == KindObjectEnd {
				return m, nil
			}
			name := a.keys.get(k.text())
			vt, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := a.value(vt, 0)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
	case KindArrayStart:
		ahead := d.charge(d.preallocLen(t.n, anySize), anySize)
		rowSize := 0
		if t.Form() == FormTabular {
			rowSize = t.nf() // each row is an object with the header's fields
		}
		arr := make([]any, 0, ahead)
		for {
			et, err := d.Token()
			if err != nil {
				return nil, err
			}
			if et.kind() == KindArrayEnd {
				d.filled(ahead, len(arr), anySize)
				return arr, nil
			}
			v, err := a.value(et, rowSize)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
	case KindString:
		return a.str(t.text()), nil
	case KindNumber:
		if d.opts.useNumber {
			return Number(a.str(t.text())), nil
		}
		f, err := parseFloat(t.text(), 64)
		if err != nil {
			// Out of float64's range: keep the exact text (§4).
			return Number(a.str(t.text())), nil
		}
		if f == 0 {
			f = 0 // -0 decodes to 0
		}
		return f, nil
	case KindBool:
		return t.Bool(), nil
	case KindNull:
		return nil, nil
	}
	return nil, fmt.Errorf("toon: unexpected %v token", t.kind())
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

// UnmarshalTypeError describes a TOON value that cannot be stored in the Go
// value it was meant for.
type UnmarshalTypeError struct {
	Value  string // the TOON value: "object", "array", "string", "number 300", ...
	Type   string // the Go type
	Field  string // the path of the field, if inside a struct
	Line   int    // 1-based line of the value, if known
	Column int    // 1-based column of the value, if known
	Err    error  // the cause, if any: a parse error of a time, an error from a hook
}

// Error describes the mismatch.
func (e *UnmarshalTypeError) Error() string {
	s := "toon: cannot unmarshal " + e.Value + " into Go value of type " + e.Type
	if e.Field != "" {
		s += " (field " + e.Field + ")"
	}
	if e.Line > 0 {
		s += fmt.Sprintf(" at line %d, column %d", e.Line, e.Column)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, if any.
func (e *UnmarshalTypeError) Unwrap() error { return e.Err }

// decodeReflect decodes into every other Go type; unmarshal.go sets it.
var decodeReflect func(d *Decoder, v any, whole bool) error
