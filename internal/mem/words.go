//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package mem

import "unsafe"

// Load64 reads the little-endian word i bytes after p, at any alignment.
func (p Ptr) Load64(i int) uint64 { return *(*uint64)(unsafe.Add(p.p, i)) }

// Load32 reads the little-endian 32-bit word i bytes after p.
func (p Ptr) Load32(i int) uint32 { return *(*uint32)(unsafe.Add(p.p, i)) }

// Load16 reads the little-endian 16-bit word i bytes after p.
func (p Ptr) Load16(i int) uint16 { return *(*uint16)(unsafe.Add(p.p, i)) }

// Store64 writes v little-endian i bytes after p, at any alignment.
func (p Ptr) Store64(i int, v uint64) { *(*uint64)(unsafe.Add(p.p, i)) = v }

// Store32 writes v little-endian i bytes after p.
func (p Ptr) Store32(i int, v uint32) { *(*uint32)(unsafe.Add(p.p, i)) = v }

// Store16 writes v little-endian i bytes after p.
func (p Ptr) Store16(i int, v uint16) { *(*uint16)(unsafe.Add(p.p, i)) = v }
