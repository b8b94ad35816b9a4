package tokencount

import (
	"fmt"

	"github.com/tiktoken-go/tokenizer"
)

// vocab maps the byte string of each token to its rank, the token's id:
// byte-pair merging joins the pair of lowest rank first. The ranks are
// those of github.com/tiktoken-go/tokenizer, read through its public
// Decode, one id at a time: ids run from 0 without a gap (the special
// tokens, which Count never produces, sit above a gap and are left out).
type vocab struct {
	ranks  map[string]uint32
	maxLen int // the length of the longest token
}

// noRank is the rank of a byte string that is not a token.
const noRank = ^uint32(0)

func loadVocab(enc tokenizer.Encoding) (*vocab, error) {
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	v := &vocab{ranks: make(map[string]uint32, 200_000)}
	for id := uint(0); ; id++ {
		s, err := codec.Decode([]uint{id})
		if err != nil {
			break
		}
		v.ranks[s] = uint32(id)
		v.maxLen = max(v.maxLen, len(s))
	}
	// Every byte must be a token, or merging could leave bytes without one.
	for c := 0; c < 256; c++ {
		if _, ok := v.ranks[string([]byte{byte(c)})]; !ok {
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
	if r, ok := v.ranks[string(b)]; ok {
		return r
	}
	return noRank
}
