package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
	"github.com/toonstream/toon/internal/tokencount"
)

// TestCounterChunks checks that the counter, which hands text to its
// worker in chunks, gives the count of the whole text less a final
// newline, for JSON and TOON texts larger than a chunk, written in parts
// of several sizes, with chunks that end inside lines, in runs of
// newlines and on a final newline.
func TestCounterChunks(t *testing.T) {
	var js, tn strings.Builder
	js.WriteString(`{"rows":[`)
	tn.WriteString("rows[6000]{id,name,note}:")
	for i := 0; i < 6000; i++ {
		if i > 0 {
			js.WriteString(",")
		}
		id := strconv.Itoa(i * 7919)
		js.WriteString(`{"id":` + id + `,"name":"user ` + id + `","note":"Lorem ipsum dolor sit amet\n2nd line"}`)
		tn.WriteString("\n  " + id + ",user " + id + ",Lorem ipsum dolor sit amet")
		if i%1000 == 999 {
			tn.WriteString("\n\n\n")
		}
	}
	js.WriteString("]}")
	newlines := strings.Repeat("x\n", chunkSize) // a chunk ends on a newline, then more follow
	texts := []string{js.String(), js.String() + "\n", tn.String(), tn.String() + "\n", tn.String() + "\n\n", newlines, "\n", ""}
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		codec, err := tokenizer.Get(tokenizer.Encoding(name))
		if err != nil {
			t.Fatal(err)
		}
		enc, err := tokencount.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			whole := strings.TrimSuffix(text, "\n")
			want, err := codec.Count(whole)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{1000, chunkSize - 1, chunkSize, 3 * chunkSize} {
				c := newCounter(enc)
				for i := 0; i < len(text); i += size {
					c.Write([]byte(text[i:min(i+size, len(text))]))
				}
				c.close()
				if c.tokens != int64(want) || c.bytes != int64(len(whole)) {
					t.Fatalf("%s, writes of %d: %d tokens %d bytes, whole text %d tokens %d bytes", name, size, c.tokens, c.bytes, want, len(whole))
				}
			}
		}
	}
}
