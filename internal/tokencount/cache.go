package tokencount

import "encoding/binary"

// pieceCache remembers the token counts of short pieces. Text repeats its
// short pieces (the keys and punctuation of JSON, the common words), and
// a piece's count depends on its bytes alone, so a Counter looks a piece
// of up to 8 bytes up here before it looks for tokens. The cache maps
// each piece to one slot, by a hash of its bytes; a slot holds the piece
// packed in a word, its length and its count, and a new piece replaces
// the old one.
type pieceCache struct {
	key  [cacheSlots]uint64
	meta [cacheSlots]uint32 // length<<16 | count; 0 for an empty slot
}

const (
	cacheBits  = 12
	cacheSlots = 1 << cacheBits
)

// pack returns the bytes of b, 1 to 8 of them, in a word, such that no
// two byte strings of one length give the same word.
func pack(b []byte) uint64 {
	switch n := len(b); {
	case n == 8:
		return binary.LittleEndian.Uint64(b)
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	default:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
}

// count returns the number of tokens of piece, from the cache when it is
// there.
func (pc *pieceCache) count(v *vocab, piece []byte, m *merger) int {
	n := len(piece)
	if n > 8 {
		return v.pieceTokens(piece, m, nil)
	}
	k := pack(piece)
	i := (k ^ uint64(n)) * 0x9e3779b97f4a7c15 >> (64 - cacheBits)
	if meta := pc.meta[i]; meta>>16 == uint32(n) && pc.key[i] == k {
		return int(meta & 0xffff)
	}
	c := v.pieceTokens(piece, m, nil)
	pc.key[i], pc.meta[i] = k, uint32(n)<<16|uint32(c)
	return c
}
