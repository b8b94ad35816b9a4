//go:build !purego

package toon

// unescapeAVX512 decodes the body of a quoted string a block at a time,
// for unescape where the CPU allows (useUnescapeAVX512), up to the
// closing quote, an escape it leaves to unescape, the end of src or of
// dst's room. See unescape_amd64.s.
//
//go:noescape
func unescapeAVX512(src, dst []byte) (in, out int)
