package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// TestCounterChunks checks that counting in chunks cut by safeCut gives the
// count of the whole text, for JSON and TOON text larger than a chunk.
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
	}
	js.WriteString("]}")
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{js.String(), tn.String(), tn.String() + "\n"} {
		want, err := codec.Count(strings.TrimSuffix(text, "\n"))
		if err != nil {
			t.Fatal(err)
		}
		c := newCounter(codec)
		for i := 0; i < len(text); i += 1000 { // writes of 1000 bytes
			c.Write([]byte(text[i:min(i+1000, len(text))]))
		}
		if err := c.close(); err != nil {
			t.Fatal(err)
		}
		if c.tokens != int64(want) || c.bytes != int64(len(strings.TrimSuffix(text, "\n"))) {
			t.Fatalf("chunked count %d tokens %d bytes, whole %d tokens %d bytes", c.tokens, c.bytes, want, len(text))
		}
	}
}

func TestSafeCut(t *testing.T) {
	cases := map[string]int{
		`{"a":12,"b`:   7, // after the digits of 12
		"abc":          0,
		"x: 1\nkey":    5, // after the newline, before a letter
		"x\n  1":       0, // the digit run ends the text: what follows decides
		"12":           0,
		`"é1,`:         4,
		"a\n\nb c 99]": 9,
	}
	for in, want := range cases {
		if got := safeCut([]byte(in)); got != want {
			t.Errorf("safeCut(%q) = %d, want %d", in, got, want)
		}
	}
}
