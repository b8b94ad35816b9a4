// Package mem holds the module's raw memory access: views between strings
// and byte slices, loads and stores of machine words at byte offsets, and
// addresses inside Go values whose layout was computed with reflect. Outside
// this package only the Go declarations of the assembly kernels import
// unsafe.
//
// Every function here is small enough to inline, so using one costs what the
// unsafe expression it wraps costs. None checks bounds: the caller proves,
// in a comment where the proof is not local, that the bytes it touches lie
// inside one allocation it keeps alive.
//
// Loads and stores are little-endian; the module's word tricks assume it,
// and its assembly targets amd64 only. The files with raw word access are
// built on little-endian architectures; on big-endian ones the portable
// twins in words_be.go byte-swap.
package mem

import "unsafe"

// Ptr is an address: of a byte in a buffer, of a field of a Go value, of a
// table. Like unsafe.Pointer it keeps the allocation it points into alive,
// and it must never point past that allocation's end (pointing exactly at
// the end, as the address of an empty tail does, is allowed only when
// nothing is read through it).
type Ptr struct{ p unsafe.Pointer }

// Of is the address of *x.
func Of[T any](x *T) Ptr { return Ptr{unsafe.Pointer(x)} }

// As is p viewed as a *T.
func As[T any](p Ptr) *T { return (*T)(p.p) }

// Load reads the T at p.
func Load[T any](p Ptr) T { return *(*T)(p.p) }

// Store writes v to the T at p.
func Store[T any](p Ptr, v T) { *(*T)(p.p) = v }

// Add is the address n bytes after p (before it for negative n).
func (p Ptr) Add(n int) Ptr { return Ptr{unsafe.Add(p.p, n)} }

// Offset is the address off bytes after p, for struct field offsets.
func (p Ptr) Offset(off uintptr) Ptr { return Ptr{unsafe.Add(p.p, off)} }

// IsNil reports whether p is the nil address.
func (p Ptr) IsNil() bool { return p.p == nil }

// Diff is the distance in bytes from q to p; both must point into the same
// allocation.
func (p Ptr) Diff(q Ptr) int { return int(uintptr(p.p) - uintptr(q.p)) }

// Uintptr is p as an integer, for alignment tests and comparisons only: an
// integer does not keep the allocation alive and cannot be turned back into
// an address.
func (p Ptr) Uintptr() uintptr { return uintptr(p.p) }

// InPage reports whether the n bytes from p lie in one page of 4 KiB
// (memory is mapped in pages at least that large on every platform Go
// runs on), so that a kernel may read them, past the end of the object at
// p, wherever p itself can be read.
func (p Ptr) InPage(n int) bool { return p.Uintptr()&4095 <= uintptr(4096-n) }

// Byte reads the byte i bytes after p.
func (p Ptr) Byte(i int) byte { return *(*byte)(unsafe.Add(p.p, i)) }

// SetByte writes the byte i bytes after p.
func (p Ptr) SetByte(i int, b byte) { *(*byte)(unsafe.Add(p.p, i)) = b }

// Unsafe is p as an unsafe.Pointer, for the arguments of assembly kernels,
// whose Go declarations are the other place that may name unsafe.
func (p Ptr) Unsafe() unsafe.Pointer { return p.p }

// FromUnsafe is the inverse of Unsafe.
func FromUnsafe(p unsafe.Pointer) Ptr { return Ptr{p} }

// BytesData is the address of b's first element (of its backing array when
// b is empty but not nil).
func BytesData(b []byte) Ptr { return Ptr{unsafe.Pointer(unsafe.SliceData(b))} }

// StringData is the address of s's first byte.
func StringData(s string) Ptr { return Ptr{unsafe.Pointer(unsafe.StringData(s))} }

// The views below are assembled from their words (a string's two, a
// slice's three), without the checks of unsafe.String and unsafe.Slice (a
// negative length, an end past the address space), which a view of memory
// inside one allocation cannot fail: a view costs what copying its words
// does. stringHeader is a string's words.
type stringHeader struct {
	data Ptr
	len  int
}

// String views b as a string. b must not change while the string is in use.
func String(b []byte) string { return *(*string)(unsafe.Pointer(&stringHeader{BytesData(b), len(b)})) }

// Bytes views s as a byte slice, which must not be written to.
func Bytes(s string) []byte { return BytesAt(StringData(s), len(s)) }

// StringAt views the n bytes at p as a string.
func StringAt(p Ptr, n int) string { return *(*string)(unsafe.Pointer(&stringHeader{p, n})) }

// BytesAt views the n bytes at p as a byte slice.
func BytesAt(p Ptr, n int) []byte { return SliceAt[byte](p, n) }

// SliceAt views the n values of type T at p as a slice.
func SliceAt[T any](p Ptr, n int) []T { return *(*[]T)(unsafe.Pointer(&SliceHeader{p, n, n})) }

// SliceData is the address of s's first element.
func SliceData[T any](s []T) Ptr { return Ptr{unsafe.Pointer(unsafe.SliceData(s))} }

// Sizeof is the size in bytes of a T.
func Sizeof[T any]() uintptr {
	var x T
	return unsafe.Sizeof(x)
}

// TextWords returns two words that hold all the bytes of the n bytes at p,
// for n from 1 to 16, and no other byte: for 8 to 16 bytes the first and
// the last 8, for 4 to 7 the first and the last 4, for 1 to 3 the first,
// the middle and the last byte. Two texts of the same length in that range
// are equal exactly when their words are, which a comparison written out
// finds without a call. The words are for such comparisons only: their
// byte order is the machine's (so TextWords reads memory directly, not
// through Load64, whose cost would keep it from being inlined).
func TextWords(p Ptr, n int) (lo, hi uint64) {
	if n >= 8 {
		return *(*uint64)(p.p), *(*uint64)(unsafe.Add(p.p, n-8))
	}
	if n >= 4 {
		return uint64(*(*uint32)(p.p)), uint64(*(*uint32)(unsafe.Add(p.p, n-4)))
	}
	return uint64(*(*byte)(p.p)) | uint64(*(*byte)(unsafe.Add(p.p, n/2)))<<8 | uint64(*(*byte)(unsafe.Add(p.p, n-1)))<<16, 0
}

// Copy8To16, Copy4To7 and Copy1To3 copy the n bytes at src to dst, for n
// in the range each names, without a call: by the words of TextWords,
// whose stores overlap, with the same bytes, where n is not a word's size.
// A caller picks one by n, which a function of the three would do at the
// cost of a call (it would be too large to inline).

// Copy8To16 copies n bytes, 8 to 16, from src to dst.
func Copy8To16(dst, src Ptr, n int) {
	lo, hi := src.Load64(0), src.Load64(n-8)
	dst.Store64(0, lo)
	dst.Store64(n-8, hi)
}

// Copy4To7 copies n bytes, 4 to 7, from src to dst.
func Copy4To7(dst, src Ptr, n int) {
	lo, hi := src.Load32(0), src.Load32(n-4)
	dst.Store32(0, lo)
	dst.Store32(n-4, hi)
}

// Copy1To3 copies n bytes, 1 to 3, from src to dst.
func Copy1To3(dst, src Ptr, n int) {
	a, b, c := src.Byte(0), src.Byte(n/2), src.Byte(n-1)
	dst.SetByte(0, a)
	dst.SetByte(n/2, b)
	dst.SetByte(n-1, c)
}
