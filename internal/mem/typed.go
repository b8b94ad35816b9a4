package mem

import (
	"reflect"
	"strings"
	"unsafe"
)

// This file holds what typed decoding needs beyond mem.go: the header of a
// slice whose element type is known only through reflect, and the bridges
// between Ptr and reflect.Value.

// SliceHeader is the layout of a slice of any element type. A plan that
// knows the element size from reflect reads and writes a slice through it
// (As[SliceHeader](p)) without a reflect.Value per access. Data keeps the
// backing array alive as the slice itself does; a store of a SliceHeader
// must leave Len <= Cap and Data pointing at Cap elements.
type SliceHeader struct {
	Data Ptr
	Len  int
	Cap  int
}

// NewAt is a reflect.Value of type *t pointing at p, as reflect.NewAt.
// p must hold a whole Go value of type t.
func NewAt(t reflect.Type, p Ptr) reflect.Value { return reflect.NewAt(t, p.p) }

// PtrOf is the address v holds, as reflect.Value.UnsafePointer: v is a
// pointer, map, channel, function, slice (its data) or unsafe.Pointer.
func PtrOf(v reflect.Value) Ptr { return Ptr{v.UnsafePointer()} }

// TypeWord is the type word of an interface holding a value of type t, as
// AnyType gives it: the runtime's descriptor of t.
func TypeWord(t reflect.Type) Ptr {
	v := reflect.Zero(t).Interface()
	return AnyType(&v)
}

// MapAssign returns the address of the value of the key at k in the map m,
// adding the key with a zero value if m lacks it, as the assignment
// m[key] = v does before it stores v. m is the map itself (the word a map
// variable holds), not nil, and typ the map type's word (TypeWord); k
// points at a key of the map's key type, which the map copies. The address
// is inside the map's own storage: it is valid until the map is next
// written to. A decoder stores a value there in place instead of building
// it elsewhere and copying it in.
func MapAssign(typ, m, k Ptr) Ptr { return Ptr{mapassign(typ.p, m.p, k.p)} }

// mapassign is the runtime's insertion of a key into a map of any type,
// the one an assignment m[k] = v compiles to where no faster variant
// applies; it returns the address of the key's value. The runtime keeps it
// for packages that reach it by linkname (go.dev/issue/67401): its
// signature does not change.
//
//go:linkname mapassign runtime.mapassign
//go:noescape
func mapassign(typ, m, k unsafe.Pointer) unsafe.Pointer

// MakeNoZero returns an empty byte slice with room for at least n bytes
// whose memory is not cleared first, as strings.Builder's Grow gives it: for
// a buffer whose every byte is written before it is read. (Go clears the
// memory of make([]byte, 0, n); the text of decoded strings is copied in
// right after, so the clearing is work done twice.)
func MakeNoZero(n int) []byte {
	if n <= 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0) // a byte for String to give the buffer's address by
	s := b.String()
	return unsafe.Slice(unsafe.StringData(s), b.Cap())[:0]
}
