package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
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

// TestStatsLargeDocument runs --stats both ways on a document of several
// counter chunks, indented, with long lines of text that has runs of
// spaces, escapes, contractions and letters outside ASCII, and compares
// the table with tiktoken-go's counts of the whole compact JSON and TOON.
func TestStatsLargeDocument(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("{\n  \"notes\": [\n")
	words := []string{"it's", "naïve", "東京", "😀", "we'RE", "   ", "\\u00e9t\\u00e9", "a\\tb", "x\\ny", "1234567", "Ünïcödé", "don't"}
	for i := 0; i < 400; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`    {"id": ` + strconv.Itoa(i) + `, "text": "`)
		for k := 0; k < 60+i%50; k++ { // lines of 300 to 800 bytes
			b.WriteString(words[(i*7+k*3)%len(words)] + " ")
		}
		b.WriteString(`"}`)
	}
	b.WriteString("\n  ]\n}\n")
	write(t, dir, "big.json", b.String())

	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int {
		n, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var compact strings.Builder
	dec := jsontext.NewDecoder(strings.NewReader(b.String()))
	enc := jsontext.NewEncoder(&compact)
	v, err := dec.ReadValue()
	if err == nil {
		err = enc.WriteValue(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := strings.TrimSuffix(compact.String(), "\n")

	r := runToon(t, dir, nil, "--stats", "-o", "big.toon", "big.json")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	toonText, err := os.ReadFile(filepath.Join(dir, "big.toon"))
	if err != nil {
		t.Fatal(err)
	}
	wantTOON := strings.TrimSuffix(string(toonText), "\n")
	if len(wantJSON) < 3*chunkSize || len(wantTOON) < 3*chunkSize { // several chunks
		t.Fatalf("the texts (%d, %d bytes) are shorter than intended", len(wantJSON), len(wantTOON))
	}
	jb, jt := statsLine(t, r.stderr, "JSON (compact)")
	tb, tt := statsLine(t, r.stderr, "TOON")
	if jb != len(wantJSON) || jt != count(wantJSON) || tb != len(wantTOON) || tt != count(wantTOON) {
		t.Fatalf("encode: JSON %d bytes %d tokens, TOON %d bytes %d tokens; want %d %d, %d %d",
			jb, jt, tb, tt, len(wantJSON), count(wantJSON), len(wantTOON), count(wantTOON))
	}

	r = runToon(t, dir, nil, "--stats", "--json-indent", "2", "big.toon")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	jb, jt = statsLine(t, r.stderr, "JSON (compact)")
	tb, tt = statsLine(t, r.stderr, "TOON")
	if jb != len(wantJSON) || jt != count(wantJSON) || tb != len(wantTOON) || tt != count(wantTOON) {
		t.Fatalf("decode: JSON %d bytes %d tokens, TOON %d bytes %d tokens; want %d %d, %d %d",
			jb, jt, tb, tt, len(wantJSON), count(wantJSON), len(wantTOON), count(wantTOON))
	}
}
