package tokencount

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/tiktoken-go/tokenizer"
)

// vocab maps the byte string of each token to its rank, the token's id:
// byte-pair merging joins the pair of lowest rank first. The ranks are
// those of github.com/tiktoken-go/tokenizer, read through its public
// Decode, one id at a time: ids run from 0 without a gap (the special
// tokens, which Count never produces, sit above a gap and are left out).
//
// The tokens' bytes are stored end to end in rank order, and an open
// addressing table with linear probing finds them: each slot holds rank+1
// in its low rankBits bits (0: an empty slot) and bits of the key's hash
// above, which rule out most slots of other keys without reading their
// bytes.
type vocab struct {
	slots  []uint32
	shift  uint     // 64 - log2(len(slots)): a hash's top bits index slots
	data   []byte   // the tokens' bytes, in rank order
	off    []uint32 // token r is data[off[r]:off[r+1]]
	maxLen int      // the length of the longest token
}

const (
	rankBits = 18 // room for 262143 ranks, beyond o200k_base's 199998
	rankMask = 1<<rankBits - 1
)

// noRank is the rank of a byte string that is not a token.
const noRank = ^uint32(0)

func loadVocab(enc tokenizer.Encoding) (*vocab, error) {
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	v := &vocab{off: []uint32{0}}
	for id := uint(0); ; id++ {
		s, err := codec.Decode([]uint{id})
		if err != nil {
			break
		}
		v.data = append(v.data, s...)
		v.off = append(v.off, uint32(len(v.data)))
		v.maxLen = max(v.maxLen, len(s))
	}
	n := len(v.off) - 1
	if n >= rankMask {
		return nil, fmt.Errorf("tokencount: %s has %d tokens, more than this table holds", enc, n)
	}
	// Fill the table to at most 3/8.
	size := 1 << bits.Len(uint(n*8/3))
	v.slots = make([]uint32, size)
	v.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for r := 0; r < n; r++ {
		tok := v.data[v.off[r]:v.off[r+1]]
		if v.rank(tok) != noRank {
			return nil, fmt.Errorf("tokencount: %s has the token %q twice", enc, tok)
		}
		h := hash(tok)
		i := h >> v.shift
		for v.slots[i] != 0 {
			i = (i + 1) & uint64(size-1)
		}
		v.slots[i] = uint32(h)&^rankMask | uint32(r+1)
	}
	// Every byte must be a token, or merging could leave bytes without one.
	for c := 0; c < 256; c++ {
		if v.rank([]byte{byte(c)}) == noRank {
			return nil, fmt.Errorf("tokencount: %s has no token for the byte %#x", enc, c)
		}
	}
	return v, nil
}

// rank returns the rank of the token b, or noRank.
func (v *vocab) rank(b []byte) uint32 {
	if len(b) > v.maxLen {
		return noRank
	}
	h := hash(b)
	tag := uint32(h) &^ rankMask
	mask := uint64(len(v.slots) - 1)
	for i := h >> v.shift; ; i = (i + 1) & mask {
		s := v.slots[i]
		if s == 0 {
			return noRank
		}
		if s&^rankMask == tag {
			r := s&rankMask - 1
			if string(v.data[v.off[r]:v.off[r+1]]) == string(b) {
				return r
			}
		}
	}
}

// hash mixes the bytes of b, 8 at a time, into 64 bits.
func hash(b []byte) uint64 {
	const k0, k1, k2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb
	h := uint64(len(b)) * k0
	for len(b) > 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * k1
		h ^= h >> 31
		b = b[8:]
	}
	// The last 1 to 8 bytes, read so that no two strings of one length
	// give the same x.
	var x uint64
	switch n := len(b); {
	case n == 8:
		x = binary.LittleEndian.Uint64(b)
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	case n > 0:
		x = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
	h = (h ^ x) * k2
	h ^= h >> 29
	h *= k1
	return h ^ h>>32
}
