package tokencount

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMergeHeapMatchesScan merges random pieces, short and long, with
// both merges, which must give the same tokens.
func TestMergeHeapMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var m merger
	for _, e := range encodings(t) {
		v := e.enc.vocab
		for i := 0; i < 5000; i++ {
			piece := []byte(randomText(r, 1+r.IntN(12)))
			if len(piece) > smallPiece {
				piece = piece[:smallPiece]
			}
			var scan, heap []uint32
			v.mergeSmall(piece, &scan)
			m.merge(v, piece, &heap)
			if !slices.Equal(scan, heap) {
				t.Fatalf("%s: %q: scanning merge %v, heap merge %v", e.enc.name, piece, scan, heap)
			}
		}
	}
}

// TestLongPieces compares the tokens of long pieces (runs of letters, of
// white space, of punctuation, and of a repeated word) with the
// reference, whose merge takes quadratic time, so they stay at a few KiB.
func TestLongPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	letters := "abcdefghijklmnopqrstuvwxyzéßø"
	var texts []string
	for _, n := range []int{65, 100, 1000, 4096} {
		var b strings.Builder
		for b.Len() < n {
			b.WriteByte(letters[r.IntN(26)])
		}
		texts = append(texts, b.String(), strings.Repeat("a", n), strings.Repeat("ab", n/2),
			strings.Repeat("é", n/2), strings.Repeat(" ", n)+"x", strings.Repeat("\t \n", n/3),
			strings.Repeat("!-/", n/3), strings.Repeat("日本語", n/9), "x"+strings.Repeat("lo", n/2)+"'s")
	}
	for _, e := range encodings(t) {
		for _, text := range texts {
			want := refTokens(t, e.ref, text)
			if got := e.enc.tokens([]byte(text)); !slices.Equal(got, want) {
				t.Fatalf("%s: tokens of %.40q... (%d bytes) differ from the reference", e.enc.name, text, len(text))
			}
			if got := streamCount(e.enc, text, []int{1, 7, 100}); got != int64(len(want)) {
				t.Fatalf("%s: streamed count of %.40q... (%d bytes) is %d, want %d", e.enc.name, text, len(text), got, len(want))
			}
		}
	}
}

// TestMegabyteOfOneLetter counts a run of 1 MiB of one letter, which the
// reference cannot (its merge is quadratic in a piece: a day or so for
// this one), so the test checks the tokens against what the merge must
// make of n letters a, n a multiple of 8, given the ranks of the tokens
// that are runs of a, which it checks first: aa ranks before aaa, aaaa and
// aaaaaaaa, and aaaa before aaaaaaaa, and there are no tokens of 6, 12 or
// 16 letters. The merge joins a,a pairs from the left while there are any,
// since aa ranks first: (aa)^(n/2), with aa,a pairs (aaa) formed on the
// way but ranking after aa. Then only aa,aa pairs (aaaa) are tokens: from
// the left again, (aaaa)^(n/4), then likewise (aaaaaaaa)^(n/8), and then
// no pair is a token. The reference agrees on 16 KiB.
func TestMegabyteOfOneLetter(t *testing.T) {
	for _, e := range encodings(t) {
		v := e.enc.vocab
		rank := func(n int) uint32 { return v.rank([]byte(strings.Repeat("a", n))) }
		r2, r3, r4, r8 := rank(2), rank(3), rank(4), rank(8)
		if r8 == noRank || !(r2 < r3 && r2 < r4 && r4 < r8) || rank(6) != noRank || rank(12) != noRank || rank(16) != noRank {
			t.Fatalf("%s: the ranks of the runs of a are not as this test assumes", e.enc.name)
		}
		small := strings.Repeat("a", 16<<10)
		want := refTokens(t, e.ref, small)
		if len(want) != 2048 || slices.ContainsFunc(want, func(r uint32) bool { return r != r8 }) {
			t.Fatalf("%s: the reference's tokens of 16 KiB of a are not 2048 of aaaaaaaa", e.enc.name)
		}
		if got := e.enc.tokens([]byte(small)); !slices.Equal(got, want) {
			t.Fatalf("%s: tokens of 16 KiB of a differ from the reference", e.enc.name)
		}
		big := []byte(strings.Repeat("a", 1<<20))
		got := e.enc.tokens(big)
		if len(got) != 1<<17 || slices.ContainsFunc(got, func(r uint32) bool { return r != r8 }) {
			t.Fatalf("%s: 1 MiB of a: %d tokens, want 131072 of aaaaaaaa", e.enc.name, len(got))
		}
		if n := streamCount(e.enc, string(big), []int{4096}); n != 1<<17 {
			t.Fatalf("%s: 1 MiB of a streamed: %d tokens, want 131072", e.enc.name, n)
		}
	}
}
