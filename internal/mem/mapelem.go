package mem

import "unsafe"

// MapElemString returns the address of the value of key k in the map m,
// or nil if m has no such key. m is the map itself (the word a map
// variable holds) and typ the type word of an interface holding a map of
// its type (AnyType); the map's keys must be of a string kind. The address
// is inside the map's own storage: it is valid, and the value there is the
// map's, until the map is next written to. The encoder reads a map's
// values there in key order instead of copying each out.
func MapElemString(typ, m Ptr, k string) Ptr {
	p, ok := mapaccess2(typ.p, m.p, unsafe.Pointer(&k))
	if !ok {
		return Ptr{}
	}
	return Ptr{p}
}

// mapaccess2 is the runtime's lookup of the key at k in a map of any
// type, the one a Go expression v, ok := m[k] compiles to where no faster
// variant applies; it returns the address of the value in the map. The
// runtime keeps it for packages that reach it by linkname
// (go.dev/issue/67401): its signature does not change.
//
//go:linkname mapaccess2 runtime.mapaccess2
//go:noescape
func mapaccess2(typ, m, k unsafe.Pointer) (unsafe.Pointer, bool)
