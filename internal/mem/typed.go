package mem

import "reflect"

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
