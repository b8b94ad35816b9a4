package tokencount

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/toonstream/toon/internal/longtest"
)

// atoms are the bits random texts are made of: a rune or two of every
// class combination the patterns tell apart, contractions and near
// misses, and bytes that are not UTF-8.
var atoms = []string{
	// ASCII
	"a", "z", "A", "Z", "s", "t", "e", "0", "7", " ", "  ", "\t", "\n", "\r", "\r\n", "\v", "\f",
	"'", "'s", "'S", "'t", "'re", "'RE", "'rE", "'ve", "'m", "'ll", "'Ll", "'d", "'D", "'x", "'r", "'l", "'v",
	"/", "\\", ",", ".", ":", "-", "\"", "{", "}", "[", "]", "!", "?", "_", "#", "|", "@", "(", ")",
	// white space outside ASCII: NEL, NBSP, OGHAM SPACE, EN QUAD, LINE SEPARATOR, IDEOGRAPHIC SPACE
	"\u0085", "\u00a0", "\u1680", "\u2000", "\u2028", "\u3000",
	// letters: Lu, Ll, Lt, Lm, Lo (Hebrew, CJK), Lu and Lo above the BMP
	"É", "é", "ǅ", "ʰ", "ー", "א", "日", "本", "𝐀", "𠀀",
	// marks: Mn, Mc, Me
	"\u0301", "\u0903", "\u20dd",
	// numbers: Nd (Arabic-Indic), Nl, No, Nd above the BMP
	"٣", "Ⅻ", "½", "𝟎",
	// symbols and punctuation outside ASCII, U+FFFD itself
	"😀", "€", "«", "—", "\ufffd",
	// not UTF-8: a stray byte, a truncated sequence, an encoded surrogate
	"\xff", "\xc3", "\xe6\x97", "\xed\xa0\x80",
}

// words are longer runs, so that merging has work to do.
var words = []string{
	"hello", "World", "don't", "WE'RE", "naïve", "Straße", "internationalization",
	"supercalifragilistic", "HTTPServer", "camelCaseWord", "日本語のテキスト", "mañana",
	"1234567", "3.14159", "users[2]{id,name}:", "  - item", "\n  id: 1", "\"key\":\"value\"",
}

// randomText returns a text of about n atoms and words.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch k := r.IntN(10); {
		case k < 7:
			b.WriteString(atoms[r.IntN(len(atoms))])
		case k < 9:
			b.WriteString(words[r.IntN(len(words))])
		default: // a run of one atom
			b.WriteString(strings.Repeat(atoms[r.IntN(len(atoms))], 2+r.IntN(12)))
		}
	}
	return b.String()
}

// randomDocument returns a JSON or TOON document of the kinds the toon
// command counts, with values that have spaces, escapes, numbers and
// letters outside ASCII.
func randomDocument(r *rand.Rand) string {
	values := []string{"Ada Lovelace", "it's fine", "naïve café", "東京都", "x\\ny", "", "a,b", "😀 emoji", "O'Brien", "we're   here"}
	var b strings.Builder
	rows := 1 + r.IntN(20)
	if r.IntN(2) == 0 {
		b.WriteString(`{"users":[`)
		for i := 0; i < rows; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"name":%q,"score":%g,"active":%t,"tags":["a","b c"]}`,
				r.IntN(1_000_000), values[r.IntN(len(values))], r.Float64()*1000, r.IntN(2) == 0)
		}
		b.WriteString("]}\n")
	} else {
		fmt.Fprintf(&b, "users[%d]{id,name,score,active}:", rows)
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&b, "\n  %d,%s,%g,%t", r.IntN(1_000_000), strconv.Quote(values[r.IntN(len(values))]), r.Float64()*1000, r.IntN(2) == 0)
		}
		b.WriteString("\nmeta:\n  note: \"tab\there\"\n  empty[0]:\n\n")
	}
	return b.String()
}

// refTokens returns the reference's token ids of text.
func refTokens(t testing.TB, ref interface {
	Encode(string) ([]uint, []string, error)
}, text string) []uint32 {
	t.Helper()
	ids, _, err := ref.Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out
}

// streamCount counts text written in parts of the given sizes, cycled.
func streamCount(e *Encoding, text string, sizes []int) int64 {
	c := e.NewCounter()
	for i, k := 0, 0; i < len(text); k++ {
		n := min(sizes[k%len(sizes)], len(text)-i)
		c.Write([]byte(text[i : i+n]))
		i += n
	}
	return c.Close()
}

// TestTokensMatchReference compares the tokens of random texts and
// documents with tiktoken-go's.
func TestTokensMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, e := range encodings(t) {
		for i, n := 0, longtest.Size(t, 600, 3000); i < n; i++ {
			var text string
			if i%3 == 0 {
				text = randomDocument(r)
			} else {
				text = randomText(r, 1+r.IntN(40))
			}
			want := refTokens(t, e.ref, text)
			if got := e.enc.tokens([]byte(text)); !slices.Equal(got, want) {
				t.Fatalf("%s: tokens of %q:\n got %v\nwant %v", e.enc.name, text, got, want)
			}
			if got := e.enc.Count([]byte(text)); got != len(want) {
				t.Fatalf("%s: Count(%q) = %d, want %d", e.enc.name, text, got, len(want))
			}
		}
	}
}

// TestCounterCutEverywhere writes texts in two parts cut at every byte,
// and one byte at a time, and compares the count with the whole text's.
func TestCounterCutEverywhere(t *testing.T) {
	texts := []string{
		"Hello, World! it's 12345 don't  \n\n  x\r\n\r\n\ty",
		"users[3]{id,name}:\n  1,Ada\n  2,\"Bob Smith\"\n  3,Cé\u0301line\n",
		"   \n   \n\n    key: value   \t\n",
		"WE'RE HERE'S they'll I'M you'VE 'd 's x'",
		"日本語のテキスト😀 and ٣٣٣٣٣ ½½ ⅫⅫ 𝟎𝟎𝟎𝟎 𝐀𝐀 𠀀",
		"a\u0301\u0301b \u0301\u0301 \u20dd1 \u0903x ǅǅa ʰʰʰ1",
		"!!!///\n\n/// ...---\r\r\n/x",
		"\xff\xfeab\xc3 \xe6\x97\xe6\x97\xa5 \xed\xa0\x80z",
		"1234567890 12 3 .5 1,000,000",
		"\u00a0\u00a0x\u3000\u3000\n\u2028y \u0085z",
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		texts = append(texts, randomText(r, 30))
	}
	for _, e := range encodings(t) {
		for _, text := range texts {
			want, err := e.ref.Count(text)
			if err != nil {
				t.Fatal(err)
			}
			for cut := 0; cut <= len(text); cut++ {
				if got := streamCount(e.enc, text, []int{cut, len(text)}); got != int64(want) {
					t.Fatalf("%s: %q cut at %d: %d tokens, want %d", e.enc.name, text, cut, got, want)
				}
			}
			if got := streamCount(e.enc, text, []int{1}); got != int64(want) {
				t.Fatalf("%s: %q one byte at a time: %d tokens, want %d", e.enc.name, text, got, want)
			}
		}
	}
}

// TestCounterLongDocuments streams long documents in writes of random
// sizes, including writes inside long lines.
func TestCounterLongDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, e := range encodings(t) {
		for i, n := 0, longtest.Size(t, 5, 20); i < n; i++ {
			var b strings.Builder
			for b.Len() < 64<<10 {
				if r.IntN(4) == 0 {
					b.WriteString(randomText(r, 50))
				} else {
					b.WriteString(randomDocument(r))
				}
			}
			text := b.String()
			want, err := e.ref.Count(text)
			if err != nil {
				t.Fatal(err)
			}
			sizes := make([]int, 50)
			for k := range sizes {
				sizes[k] = 1 + r.IntN(1<<uint(r.IntN(14)))
			}
			if got := streamCount(e.enc, text, sizes); got != int64(want) {
				t.Fatalf("%s: document %d (%d bytes): %d tokens, want %d", e.enc.name, i, len(text), got, want)
			}
		}
	}
}

// TestContractionLetters checks what contraction relies on: of all runes,
// only the ASCII capitals lower (by unicode.ToLower, as regexp2 compares
// case-insensitively) to the letters of the contractions.
func TestContractionLetters(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if l := unicode.ToLower(r); l != r && strings.ContainsRune("strevmld", l) && !('A' <= r && r <= 'Z') {
			t.Errorf("%U lowers to %q", r, l)
		}
	}
}

// TestCounterMemoryFlat streams 32 MiB of documents through a Counter and
// checks that it allocates no more than for a short text: what it keeps
// does not grow with the text.
func TestCounterMemoryFlat(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var b strings.Builder
	for b.Len() < 64<<10 {
		b.WriteString(randomDocument(r))
	}
	doc := []byte(b.String())
	for _, e := range encodings(t) {
		stream := func(times int) uint64 {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			c := e.enc.NewCounter()
			for i := 0; i < times; i++ {
				for p := doc; len(p) > 0; {
					n := min(len(p), 1000+i) // writes that end all over the lines
					c.Write(p[:n])
					p = p[n:]
				}
			}
			c.Close()
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc
		}
		short, long := stream(1), stream(512)
		if long > short+64<<10 {
			t.Fatalf("%s: streaming 64 KiB allocated %d bytes, 32 MiB %d bytes", e.enc.name, short, long)
		}
	}
}
