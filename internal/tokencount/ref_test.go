package tokencount

import (
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// reference returns tiktoken-go's codec of the encoding, the arbiter of
// these tests.
func reference(t testing.TB, name string) tokenizer.Codec {
	t.Helper()
	codec, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		t.Fatal(err)
	}
	return codec
}

// encodings returns the two encodings with their references.
func encodings(t testing.TB) []struct {
	enc *Encoding
	ref tokenizer.Codec
} {
	t.Helper()
	var out []struct {
		enc *Encoding
		ref tokenizer.Codec
	}
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			enc *Encoding
			ref tokenizer.Codec
		}{e, reference(t, name)})
	}
	return out
}

// tokens returns the tokens (their ids) of text.
func (e *Encoding) tokens(text []byte) []uint32 {
	var out []uint32
	var m merger
	for len(text) > 0 {
		n := e.split(text, true)
		e.vocab.pieceTokens(validPiece(text[:n]), &m, &out)
		text = text[n:]
	}
	return out
}
