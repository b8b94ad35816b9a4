package toon

import (
	"math"

	"github.com/toonstream/toon/internal/mem"
)

// valueKind tells what a Value holds.
type valueKind uint8

const (
	vNull valueKind = iota
	vString
	vInt
	vUint
	vFloat
	vFloat32
	vBool
	vNumber
)

// Value is one cell of a streaming table row (see Encoder.WriteRow): a
// string, a number, a boolean or null. It is a small value type of two
// words, built by String, Bytes, Int, Uint, Float, Float32, Bool,
// NumberValue and Null, and passing it costs no allocation. The zero Value
// is null.
//
// A Value of a string refers to the string's bytes rather than holding a
// copy, so == on two Values tells whether they are the same Value, not
// whether they have the same text: compare Values with Equal.
type Value struct {
	// p is the text of a non-empty string or NumberValue, or &valueTags[k]
	// for a Value of kind k of the others, or nil for null.
	p mem.Ptr
	// u is the length of the text (with numberBit set for a NumberValue),
	// or the payload: an integer's bits, a float's bits, 1 for true.
	u uint64
}

// valueTags are the addresses that stand for a Value's kind where the
// Value holds no text; only their addresses are used. The row writer tests
// a cell's kind with one subtraction (valueTag).
var valueTags [8]byte

// numberBit marks the length of a NumberValue's text in Value.u.
const numberBit = 1 << 63

// tagOf returns the tag address of kind k.
func tagOf(k valueKind) mem.Ptr { return mem.Of(&valueTags[k]) }

// valueTag returns the kind of a Value whose p is p, if p is a tag
// address, or a number of len(valueTags) or more.
func valueTag(p mem.Ptr) uintptr {
	return p.Uintptr() - mem.Of(&valueTags).Uintptr()
}

// kind returns the kind of v.
func (v *Value) kind() valueKind {
	if k := valueTag(v.p); k < uintptr(len(valueTags)) {
		return valueKind(k)
	}
	switch {
	case v.p.IsNil():
		return vNull
	case v.u&numberBit != 0:
		return vNumber
	}
	return vString
}

// str returns the text of a string or NumberValue v ("" for the others).
func (v *Value) str() string {
	if valueTag(v.p) < uintptr(len(valueTags)) || v.p.IsNil() {
		return ""
	}
	return mem.StringAt(v.p, int(v.u&^numberBit))
}

// Equal reports whether v and w are of the same kind with the same
// content: the same text for strings and NumberValues, the same bits for
// numbers (so Float(0) and Float(math.Copysign(0, -1)) differ, though
// both are written as 0), the same truth value for booleans.
func (v Value) Equal(w Value) bool {
	k := v.kind()
	if k != w.kind() {
		return false
	}
	switch k {
	case vString, vNumber:
		return v.str() == w.str()
	}
	return v.u == w.u
}

// String returns v as TOON text, as Marshal writes it at the root (a
// string quoted where §7.2 asks for it; a malformed NumberValue as the
// text of the error).
func (v Value) String() string {
	b, ok := appendValue(nil, &v, quoteMask(Comma))
	if !ok {
		return invalidNumber(v.str()).Error()
	}
	return string(b)
}

// text returns the Value of a non-empty string or NumberValue's text at p,
// of n bytes, with numberBit in mark or not; an empty text gets the tag
// of kind k.
func text(p mem.Ptr, n int, mark uint64, k valueKind) Value {
	if n == 0 {
		return Value{p: tagOf(k)}
	}
	return Value{p: p, u: uint64(n) | mark}
}

// String returns a string Value. The Value refers to the bytes of s.
func String(s string) Value { return text(mem.StringData(s), len(s), 0, vString) }

// Bytes returns a string Value whose text is b. The Value refers to b
// without copying it: b must not change until the Value has been written.
func Bytes(b []byte) Value { return text(mem.BytesData(b), len(b), 0, vString) }

// Int returns a number Value for a signed integer.
func Int(i int64) Value { return Value{p: tagOf(vInt), u: uint64(i)} }

// Uint returns a number Value for an unsigned integer.
func Uint(u uint64) Value { return Value{p: tagOf(vUint), u: u} }

// Float returns a number Value for a float64. It is written in canonical
// form (§2), the shortest text that reads back as f; NaN and the infinities
// are written as null (§3).
func Float(f float64) Value { return Value{p: tagOf(vFloat), u: math.Float64bits(f)} }

// Float32 returns a number Value for a float32, written as the shortest
// text that reads back as the same float32.
func Float32(f float32) Value {
	return Value{p: tagOf(vFloat32), u: math.Float64bits(float64(f))}
}

// Bool returns a boolean Value.
func Bool(b bool) Value {
	v := Value{p: tagOf(vBool)}
	if b {
		v.u = 1
	}
	return v
}

// Null returns the null Value (the same as the zero Value).
func Null() Value { return Value{} }

// NumberValue returns a number Value with the exact text n, which must
// follow the number grammar of §4. It is written in canonical form without
// passing through float64, so large integers and long decimals keep every
// digit. Writing a Value whose text is not a number is an error. The
// Value refers to the bytes of n.
func NumberValue(n Number) Value {
	return text(mem.StringData(string(n)), len(n), numberBit, vNumber)
}

// appendValue appends v as a row cell; mask is the quoting mask of the
// active delimiter. It returns false if v is a malformed NumberValue.
func appendValue(b []byte, v *Value, mask uint8) ([]byte, bool) {
	switch v.kind() {
	case vString:
		return appendStr(b, v.str(), mask), true
	case vInt:
		return appendInt(b, int64(v.u)), true
	case vUint:
		return appendUint(b, v.u), true
	case vFloat:
		return appendFloat(b, math.Float64frombits(v.u), 64), true
	case vFloat32:
		return appendFloat(b, math.Float64frombits(v.u), 32), true
	case vBool:
		if v.u != 0 {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case vNumber:
		s := v.str()
		return appendNumber(b, mem.Bytes(s))
	}
	return append(b, "null"...), true
}
