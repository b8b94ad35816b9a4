package toon

import (
	"math"
	"unsafe"
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
// string, a number, a boolean or null. It is a small value type, built by
// String, Bytes, Int, Uint, Float, Float32, Bool, NumberValue and Null, and
// passing it costs no allocation. The zero Value is null.
type Value struct {
	s    string
	u    uint64
	kind valueKind
}

// String returns a string Value.
func String(s string) Value { return Value{kind: vString, s: s} }

// Bytes returns a string Value whose text is b. The Value refers to b
// without copying it: b must not change until the Value has been written.
func Bytes(b []byte) Value {
	return Value{kind: vString, s: unsafe.String(unsafe.SliceData(b), len(b))}
}

// Int returns a number Value for a signed integer.
func Int(i int64) Value { return Value{kind: vInt, u: uint64(i)} }

// Uint returns a number Value for an unsigned integer.
func Uint(u uint64) Value { return Value{kind: vUint, u: u} }

// Float returns a number Value for a float64. It is written in canonical
// form (§2), the shortest text that reads back as f; NaN and the infinities
// are written as null (§3).
func Float(f float64) Value { return Value{kind: vFloat, u: math.Float64bits(f)} }

// Float32 returns a number Value for a float32, written as the shortest
// text that reads back as the same float32.
func Float32(f float32) Value {
	return Value{kind: vFloat32, u: math.Float64bits(float64(f))}
}

// Bool returns a boolean Value.
func Bool(b bool) Value {
	if b {
		return Value{kind: vBool, u: 1}
	}
	return Value{kind: vBool}
}

// Null returns the null Value (the same as the zero Value).
func Null() Value { return Value{} }

// NumberValue returns a number Value with the exact text n, which must
// follow the number grammar of §4. It is written in canonical form without
// passing through float64, so large integers and long decimals keep every
// digit. Writing a Value whose text is not a number is an error.
func NumberValue(n Number) Value { return Value{kind: vNumber, s: string(n)} }

// appendValue appends v as a row cell; mask is the quoting mask of the
// active delimiter. It returns false if v is a malformed NumberValue.
func appendValue(b []byte, v *Value, mask uint8) ([]byte, bool) {
	switch v.kind {
	case vString:
		return appendStr(b, v.s, mask), true
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
		return appendNumber(b, unsafe.Slice(unsafe.StringData(v.s), len(v.s)))
	}
	return append(b, "null"...), true
}
