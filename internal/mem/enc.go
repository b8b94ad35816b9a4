package mem

import "unsafe"

// The encoder reads Go values through reflect-computed layouts, and reads
// and builds interface values of type any by their two words, which is
// how it takes a dynamic value's address without reflect.Value (and
// without the allocation reflect.ValueOf may cost). The layout assumed
// here, a type word followed by a data word, is checked by TestAnyLayout.

// eface is the layout of an interface without methods (any).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// AnyType is the type word of *x: equal for two values of the same
// dynamic type, nil when *x is nil.
func AnyType(x *any) Ptr { return Ptr{(*eface)(unsafe.Pointer(x)).typ} }

// AnyData is the data word of *x: the address of the value it holds, or,
// for a type stored directly in the interface (a pointer, a map, a chan, a
// func, a struct or array of one such field), the value itself.
func AnyData(x *any) Ptr { return Ptr{(*eface)(unsafe.Pointer(x)).data} }

// MakeAny returns the any whose type word is typ, taken from AnyType of a
// value of the type, and whose data word is data, laid out as AnyData
// says.
func MakeAny(typ, data Ptr) any {
	var x any
	*(*eface)(unsafe.Pointer(&x)) = eface{typ.p, data.p}
	return x
}
