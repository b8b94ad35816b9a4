//go:build !purego

package toon

// unescapeAVX512 decodes the body of a quoted string a block at a time,
// for unescape where the CPU allows (useUnescapeAVX512), up to the
// closing quote, an escape it leaves to unescape, the end of src or of
// dst's room. See unescape_amd64.s.
//
//go:noescape
func unescapeAVX512(src, dst []byte) (in, out int)

// unescapeAVX2 is unescapeAVX512 with 32-byte blocks and AVX2, for
// unescape where the CPU allows it but not unescapeAVX512
// (useUnescapeAVX2). See unescape_amd64.s.
//
//go:noescape
func unescapeAVX2(src, dst []byte) (in, out int)

// unescapeKeep[k] is the VPSHUFB pattern with which unescapeAVX2 moves
// the bytes of an 8-byte group whose bits are set in k to the group's
// front, in order: byte j of the pattern is the index of the j-th set bit
// of k, and the bytes after the last are 0x80 (which VPSHUFB zeroes).
//
//lint:ignore U1000 read by the assembly kernel only
var unescapeKeep = func() (t [256]uint64) {
	for k := range t {
		j := 0
		for bit := range 8 {
			if k>>bit&1 != 0 {
				t[k] |= uint64(bit) << (8 * j)
				j++
			}
		}
		for ; j < 8; j++ {
			t[k] |= 0x80 << (8 * j)
		}
	}
	return t
}()
