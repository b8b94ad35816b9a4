package toon

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// indexBlocksRef is the specification of indexRows written a byte at a
// time: the offset of every '"', LF, CR and '\', of every delim and ':'
// outside quoted regions (a '"' opens one anywhere; inside, '\' makes the
// next byte literal and '"' closes it), and of the first byte of every run
// of bytes >= 0x80.
func indexBlocksRef(src []byte, delim byte) []uint32 {
	var out []uint32
	inq, esc := false, false
	for i, c := range src {
		inside := inq // whether c is in a region (an opening quote is)
		switch {
		case esc:
			esc = false
		case inq && c == '\\':
			esc = true
		case c == '"':
			inq = !inq
			inside = true
			if !inq {
				inside = false // a closing quote is not
			}
		}
		switch {
		case c == '"' || c == '\n' || c == '\r' || c == '\\':
		case (c == delim || c == ':') && !inside:
		case c >= 0x80 && (i == 0 || src[i-1] < 0x80):
		default:
			continue
		}
		out = append(out, uint32(i))
	}
	return out
}

// checkIndex runs indexRows on every kernel and compares it with the
// reference; it also checks that nothing is written more than indexSlack
// places past the result and that the prefix given is kept.
func checkIndex(t testing.TB, src []byte, delim byte) {
	t.Helper()
	want := indexBlocksRef(src, delim)
	for _, mode := range kernelModes() {
		out := make([]uint32, 1, 1+len(src)+200)
		out[0] = 12345
		full := out[:cap(out)]
		for i := 1; i < len(full); i++ {
			full[i] = 0xdeadbeef
		}
		var got []uint32
		var name string
		restore := useKernels(mode)
		got, name = indexRows(src, delim, out), indexKernelName()
		restore()
		if got[0] != 12345 || !slices.Equal(got[1:], want) {
			t.Fatalf("%s: delim %q, input %q:\n got %v\nwant %v", name, delim, src, got[1:], want)
		}
		if &got[0] == &full[0] {
			for i := len(got) + indexSlack; i < len(full); i++ {
				if full[i] != 0xdeadbeef {
					t.Fatalf("%s: wrote past the result at %d for %q", name, i, src)
				}
			}
		}
	}
}

// indexAlphabet weighs the bytes the index reports and the neighbours of
// the comparisons (a byte off by one from each).
var indexAlphabet = []string{"a", "b", " ", "1", ",", "\t", "|", ":", "\"", "\\", "\n", "\r", "é", "€", "😀", "\xff", "9", ";", "[", "!", "#", "\x0b", "\x0c", "{"}

func randomIndexInput(rng *rand.Rand, n int) []byte {
	b := make([]byte, 0, n+4)
	for len(b) < n {
		b = append(b, indexAlphabet[rng.Intn(len(indexAlphabet))]...)
	}
	return b[:n]
}

func TestIndexRowsDifferential(t *testing.T) {
	names := []string{}
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		names = append(names, indexKernelName())
		restore()
	}
	t.Logf("index kernels: %v", names)
	rng := rand.New(rand.NewSource(9))
	step := longtest.Size(t, 9, 1) // every 9th alignment: 0, 9, ..., 63
	for n := 0; n <= 300; n++ {
		for align := 0; align < 64; align += step {
			src := placed(randomIndexInput(rng, n), align)
			for _, d := range []byte{',', '\t', '|'} {
				checkIndex(t, src, d)
			}
		}
		// Rows with tokens placed on and around the block edges.
		for i, line := range edgeLines(n) {
			checkIndex(t, placed(line, (i*5+n)%64), ',')
		}
	}
}

// TestIndexRowsCounts gives the kernels blocks of every number of
// offsets, 0 to 64, in each position of the block's stores of eight: a
// block of ASCII bytes (a plain one, after a plain block) and one with a
// high byte, each followed by a block of fewer offsets and one of none,
// where a spent mask's stores of the block before must not show.
func TestIndexRowsCounts(t *testing.T) {
	for k := 0; k <= 64; k++ {
		for _, fill := range []string{"a", "é"} {
			blk := []byte(strings.Repeat(",", k) + strings.Repeat(fill, 64))[:64]
			next := []byte(strings.Repeat(",", k/3) + strings.Repeat("b", 64))[:64]
			src := slices.Concat([]byte(strings.Repeat("x", 64)), blk, next, []byte(strings.Repeat("c", 64)), blk)
			checkIndex(t, src, ',')
			checkIndex(t, src[:len(src)-64+k], ',')
		}
	}
}

// TestIndexRowsLong covers inputs of many blocks, with quoted regions and
// runs of high bytes that cross block edges, and more offsets than the
// output's first capacity.
func TestIndexRowsLong(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	for _, n := range []int{1000, 4096, 10000} {
		checkIndex(t, randomIndexInput(rng, n), ',')
		checkIndex(t, []byte(strings.Repeat(",", n)), ',')
		checkIndex(t, []byte(strings.Repeat("é", n)), ',')
		checkIndex(t, []byte(`"`+strings.Repeat("a,b:", n)+`"`+strings.Repeat("c,", 50)), ',')
		checkIndex(t, []byte(strings.Repeat("  1,Ada,\"2026-01-01T00:00:00Z\",true\n", n/36)), ',')
	}
	// indexRows grows a nil output as append would.
	got := indexRows([]byte(strings.Repeat("a,", 500)), ',', nil)
	if len(got) != 500 {
		t.Fatalf("got %d offsets, want 500", len(got))
	}
}

// TestIndexRowsASCIIBlocks covers the portable kernel's masks for blocks
// of ASCII bytes alone (asciiMasks, regionMasks, and plainMasks for
// those without quotes and backslashes) and their changes to and from
// blocks with high bytes: inputs made of 64-byte stretches, each all
// ASCII, or ASCII with no quote or backslash, or neither, placed at every
// alignment, so that quoted regions, escapes and runs of high bytes cross
// from one kind of block into the other; and a delimiter that is not
// ASCII, with which no block is taken as ASCII.
func TestIndexRowsASCIIBlocks(t *testing.T) {
	var ascii, plain []string
	for _, s := range indexAlphabet {
		if s[0] < 0x80 {
			ascii = append(ascii, s)
			if s != `"` && s != `\` {
				plain = append(plain, s)
			}
		}
	}
	stretch := func(rng *rand.Rand, b []byte, alphabet []string, n int) []byte {
		for end := len(b) + n; len(b) < end; {
			b = append(b, alphabet[rng.Intn(len(alphabet))]...)
		}
		return b
	}
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < longtest.Size(t, 300, 3000); i++ {
		var b []byte
		for stretches := 1 + rng.Intn(6); stretches > 0; stretches-- {
			end := len(b) + 64
			for len(b) < end {
				if rng.Intn(3) == 0 {
					b = append(b, indexAlphabet[rng.Intn(len(indexAlphabet))]...)
				} else {
					b = append(b, ascii[rng.Intn(len(ascii))]...)
				}
			}
			switch rng.Intn(3) {
			case 0:
				// An ASCII stretch: rows of plain, quoted and escaped cells.
				b = stretch(rng, b, ascii, 64)
			case 1:
				// A stretch with no quote or backslash, of one to three
				// blocks (plainMasks's), after an odd or even run of
				// backslashes now and then, which may end a block.
				if rng.Intn(4) == 0 {
					b = append(b, strings.Repeat(`\`, 1+rng.Intn(3))...)
				}
				b = stretch(rng, b, plain, 64*(1+rng.Intn(3)))
			}
		}
		src := placed(b, rng.Intn(64))
		for _, d := range []byte{',', '\t', '|', 0xc3} {
			checkIndex(t, src, d)
		}
	}
}

// TestIndexRowsLookalikes indexes texts of the bytes >= 0x80 whose low
// seven bits are a byte of interest (0xa2 and a quote, 0xdc and a
// backslash, 0x8a and LF, 0x8d and CR, 0xba and ':', 0xac and ',', 0x89
// and a tab, 0xfc and '|') among the bytes they look like, in and out of
// quoted regions, with each of them as the delimiter too: the kernels
// compare bytes by their low bits, and must take neither for the other.
// Half the texts have few quotes, so that their regions span blocks.
func TestIndexRowsLookalikes(t *testing.T) {
	look := []byte{0xa2, 0xdc, 0x8a, 0x8d, 0xba, 0xac, 0x89, 0xfc}
	alpha := []string{"\\", "\n", "\r", ":", ",", "\t", "|", "a", "é"}
	for _, c := range look {
		alpha = append(alpha, string([]byte{c}))
	}
	delims := append([]byte{',', '\t', '|'}, look...)
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < longtest.Size(t, 300, 3000); i++ {
		quotes := 4 + rng.Intn(2)*60 // a quote for one symbol in 4, or in 64
		var b []byte
		for n := 1 + rng.Intn(300); len(b) < n; {
			if rng.Intn(quotes) == 0 {
				b = append(b, '"')
			} else {
				b = append(b, alpha[rng.Intn(len(alpha))]...)
			}
		}
		src := placed(b, rng.Intn(64))
		for _, d := range delims {
			checkIndex(t, src, d)
		}
	}
}

// TestIndexRowsPlainBlocks puts one byte the index reports, or one that
// ends a plain block's fast path (a quote, a backslash, a byte >= 0x80),
// at every offset of a block that follows a block of ASCII bytes without
// quotes and backslashes (which asciiMasks takes, being the first) and
// precedes another, so that plainMasks is tried on it and must give way,
// or take it whole, at every place; and the same blocks inside a quoted
// region.
func TestIndexRowsPlainBlocks(t *testing.T) {
	const row = "id7,2025-05-09|x y:1\tz\r\n"
	plainBlock := func() []byte {
		var b []byte
		for len(b) < 64 {
			b = append(b, row...)
		}
		return b[:64]
	}
	for _, c := range []string{"é", "€", "\xff", `"`, `\`, "\n", "\r", ":", ",", "|", "\t"} {
		for at := 0; at < 64; at++ {
			mid := plainBlock()
			mid = append(mid[:at:at], c...)
			mid = append(mid, plainBlock()...)[:max(64, at+len(c))]
			src := append(append(plainBlock(), mid...), plainBlock()...)
			// The same inside a quoted region, which no plain block may
			// take: its delimiters and colons are not reported.
			quoted := append([]byte{'"'}, src...)
			for _, d := range []byte{',', '\t', '|'} {
				checkIndex(t, src, d)
				checkIndex(t, placed(src, 1+at%7), d)
				checkIndex(t, quoted, d)
			}
		}
	}
}

// TestIndexRowsQuotedTexts covers long quoted cells, which the portable
// kernel indexes a word at a time (quotedRun): texts of words with escapes
// now and then, among them escaped quotes and backslash runs at every
// place of a word and of a block; here and there a byte that ends the
// word-at-a-time run (a byte >= 0x80, among them ones whose low seven bits
// are a quote or a backslash, or a byte <= CR) or one just past what ends
// it (0x0e, 0x7f); cells that never close; and outputs with little room,
// which grow while the text is indexed.
func TestIndexRowsQuotedTexts(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < longtest.Size(t, 300, 3000); i++ {
		src := placed(quotedTexts(rng), rng.Intn(64))
		want := indexBlocksRef(src, ',')
		for _, d := range []byte{',', '|'} {
			checkIndex(t, src, d)
		}
		for _, mode := range kernelModes() {
			restore := useKernels(mode)
			for _, room := range []int{100, 130, 200, 300} {
				if got := indexRows(src, ',', make([]uint32, 0, room)); !slices.Equal(got, want) {
					restore()
					t.Fatalf("%s, output of capacity %d: input %q:\n got %v\nwant %v", mode, room, src, got, want)
				}
			}
			restore()
		}
	}
}

// quotedTexts returns a few rows of long quoted cells for
// TestIndexRowsQuotedTexts, at most 3,200 bytes.
func quotedTexts(rng *rand.Rand) []byte {
	words := []string{"lorem", "ipsum", "a", "tool,", "x:y", "|", `\t`, " ", `\n\n`, `\"ok\"`, `\\`, `\\\\`, `\\\"`}
	rare := []string{"é", "€", "¢", "\xdc\x90", "\n", "\r", "\t", "\x00", "\x0c", "\x0e", "\x7f", `""`}
	var b []byte
	for cells := 1 + rng.Intn(4); cells > 0; cells-- {
		b = append(b, "id,"[:1+rng.Intn(3)]...)
		b = append(b, '"')
		for end := len(b) + rng.Intn(700); len(b) < end; {
			if rng.Intn(40) == 0 {
				b = append(b, rare[rng.Intn(len(rare))]...)
			} else {
				b = append(b, words[rng.Intn(len(words))]...)
			}
		}
		if rng.Intn(8) != 0 {
			b = append(b, '"')
		}
		b = append(b, ",7\n"...)
	}
	return b
}

func TestIndexRowsAllocs(t *testing.T) {
	src := []byte(strings.Repeat("  1,Ada,\"2026-01-01T00:00:00Z\",true\n", 100))
	out := indexRows(src, ',', nil)
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		allocs := testing.AllocsPerRun(100, func() { out = indexRows(src, ',', out[:0]) })
		restore()
		if allocs != 0 {
			t.Errorf("%s: %v allocations", mode, allocs)
		}
	}
}

func FuzzIndexRows(f *testing.F) {
	for _, s := range []string{"", "a,b\n", `"a,b":c` + "\n\r\\", "é€😀,x", strings.Repeat(`"`, 65),
		`1,"` + strings.Repeat(`lorem, \"ipsum\"\n`, 12) + `",2` + "\n"} {
		f.Add([]byte(s), byte(','))
	}
	f.Fuzz(func(t *testing.T, src []byte, delim byte) {
		if delim == 0 || delim == '"' {
			delim = ','
		}
		checkIndex(t, src, delim)
	})
}
