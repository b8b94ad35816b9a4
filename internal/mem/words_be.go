//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package mem

import "math/bits"

// On big-endian machines the words are assembled byte by byte, so that
// callers see the same little-endian values everywhere.

// Load64 reads the little-endian word i bytes after p.
func (p Ptr) Load64(i int) uint64 { return bits.ReverseBytes64(*As[uint64](p.Add(i))) }

// Load32 reads the little-endian 32-bit word i bytes after p.
func (p Ptr) Load32(i int) uint32 { return bits.ReverseBytes32(*As[uint32](p.Add(i))) }

// Load16 reads the little-endian 16-bit word i bytes after p.
func (p Ptr) Load16(i int) uint16 { return bits.ReverseBytes16(*As[uint16](p.Add(i))) }

// Store64 writes v little-endian i bytes after p.
func (p Ptr) Store64(i int, v uint64) { *As[uint64](p.Add(i)) = bits.ReverseBytes64(v) }

// Store32 writes v little-endian i bytes after p.
func (p Ptr) Store32(i int, v uint32) { *As[uint32](p.Add(i)) = bits.ReverseBytes32(v) }

// Store16 writes v little-endian i bytes after p.
func (p Ptr) Store16(i int, v uint16) { *As[uint16](p.Add(i)) = bits.ReverseBytes16(v) }
