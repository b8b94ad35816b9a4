package toon

import (
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// splitCellsByScan is splitCells without numberSpans: every delimiter found
// by the scan of the line's bytes.
func splitCellsByScan(text []byte, delim byte) []int32 {
	seps, _ := scanLine(text, delim, nil)
	var cells []int32
	s := 0
	for _, p := range seps {
		a, b := trimSpan(text, s, int(p))
		cells = append(cells, int32(a), int32(b))
		s = int(p) + 1
	}
	a, b := trimSpan(text, s, len(text))
	return append(cells, int32(a), int32(b))
}

// checkSplitCells holds splitCells to splitCellsByScan on text, the first
// n bytes of buf (the rest of buf is readable), and the cells it counts
// as numbers to plainestNumber and plainCell.
func checkSplitCells(t *testing.T, buf []byte, n int, delim byte) {
	t.Helper()
	text := buf[:n:len(buf)]
	var d Decoder
	d.splitCells(text, delim, 0)
	want := splitCellsByScan(buf[:n:n], delim)
	if fmt.Sprint(d.cells) != fmt.Sprint(want) {
		t.Fatalf("splitCells(%q, %q) = %v, want %v (as the scan splits it)", text, delim, d.cells, want)
	}
	if d.numbers > len(d.cells)/2 {
		t.Fatalf("splitCells(%q): %d numbers of %d cells", text, d.numbers, len(d.cells)/2)
	}
	for c := range d.numbers {
		s, e := int(d.cells[2*c]), int(d.cells[2*c+1])
		cell := string(text[s:e])
		if !plainestNumber.MatchString(cell) {
			t.Fatalf("splitCells(%q): cell %d %q counted as a number", text, c, cell)
		}
		if k := cellKind(text, s, e); k != KindNumber {
			t.Fatalf("splitCells(%q): cell %d %q counted as a number, plainCell says %v", text, c, cell, k)
		}
	}
}

// cellKind is the kind plainCell gives the cell text[s:e], with the bytes
// of text readable after it.
func cellKind(text []byte, s, e int) Kind {
	pad := make([]byte, e-s, e-s+24)
	copy(pad, text[s:e])
	return plainCell(mem.BytesData(pad), e-s, cap(pad)).Kind()
}

// TestSplitCellsNumbers splits random inline arrays of numbers, with now
// and then a cell of another form (text, quotes hiding delimiters, spaces,
// an empty cell, an exponent) at any place, each line followed by up to 40
// bytes of digits or of anything, so that the cells near the end of the
// bytes readable are left to the scan.
func TestSplitCellsNumbers(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	odd := []string{"", " 1", "1 ", "x", `"1,2"`, `"a|b	c"`, "1e5", "05", "-", "1.", "tru", `"`, "é", "1.2.3"}
	numbersAll := 0
	for i := range longtest.Size(t, 20000, 200000) {
		delim := ",|\t"[rng.Intn(3)]
		cells := make([]string, 1+rng.Intn(40))
		for c := range cells {
			cells[c] = numberText(rng)
			if rng.Intn(30) == 0 {
				cells[c] = odd[rng.Intn(len(odd))]
			}
		}
		line := strings.Join(cells, string(delim))
		buf := []byte(line)
		for range rng.Intn(41) {
			c := byte(rng.Intn(256))
			if i%2 == 0 {
				c = byte('0' + rng.Intn(10))
			}
			buf = append(buf, c)
		}
		var d Decoder
		d.splitCells(buf[:len(line)], delim, 0)
		if d.numbers == len(d.cells)/2 {
			numbersAll++
		}
		checkSplitCells(t, buf, len(line), delim)
	}
	if numbersAll == 0 {
		t.Fatal("no line was read as numbers alone")
	}
}

// FuzzSplitCells holds splitCells to the scan of the line's bytes on any
// text, delimiter and bytes after the text.
func FuzzSplitCells(f *testing.F) {
	f.Add([]byte("1,2.5,-3,0.125"), byte(0), byte(30))
	f.Add([]byte("1|2|\"a|b\"|4"), byte(1), byte(0))
	f.Add([]byte("0.5\t-0.25\t7\t"), byte(2), byte(24))
	f.Fuzz(func(t *testing.T, b []byte, sel byte, extra byte) {
		n := len(b)
		b = append(b, make([]byte, int(extra%41))...)
		for i := n; i < len(b); i++ {
			b[i] = '0' + byte(i%10)
		}
		checkSplitCells(t, b, n, ",|\t"[sel%3])
	})
}

// TestLongInlineNumbers reads inline arrays longer than a chunk
// (lazyChunk) through Token, from a slice and from a reader, whose values
// are numbers but for one odd cell, at the first, a middle or the last
// place or none, and compares each token with the cell it comes from.
func TestLongInlineNumbers(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	const n = 3*lazyChunk + 5
	for _, delim := range []string{",", "|", "\t"} {
		for _, odd := range []string{"", "x", `"q,|	q"`, "1e-3", "007", " 5 ", "-"} {
			for _, at := range []int{-1, 0, 1, lazyChunk - 1, lazyChunk, n / 2, n - 2, n - 1} {
				if odd != "" && at == -1 {
					continue
				}
				cells := make([]string, n)
				for c := range cells {
					cells[c] = numberText(rng)
					for !plainestNumber.MatchString(cells[c]) {
						cells[c] = numberText(rng)
					}
				}
				if at >= 0 {
					cells[at] = odd
				}
				hd := ""
				if delim != "," {
					hd = delim
				}
				doc := fmt.Sprintf("v[%d%s]: %s\nw: 1\n", n, hd, strings.Join(cells, delim))
				for _, src := range []string{"slice", "reader"} {
					var d *Decoder
					if src == "slice" {
						d = NewBytesDecoder([]byte(doc))
					} else {
						d = NewDecoder(strings.NewReader(doc))
					}
					checkInlineTokens(t, d, cells, fmt.Sprintf("%s, delimiter %q, %q at %d", src, delim, odd, at))
				}
			}
		}
	}
}

// checkInlineTokens reads the document {"v": cells, "w": 1} from d and
// compares each value's kind and text with its cell's.
func checkInlineTokens(t *testing.T, d *Decoder, cells []string, what string) {
	t.Helper()
	next := func() Token {
		tok, err := d.Token()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return tok
	}
	for _, k := range []Kind{KindObjectStart, KindKey, KindArrayStart} {
		if tok := next(); tok.Kind() != k {
			t.Fatalf("%s: %v, want %v", what, tok.Kind(), k)
		}
	}
	for c, cell := range cells {
		tok := next()
		want, text := KindString, strings.TrimSpace(cell)
		switch {
		case isNumber([]byte(text)):
			want = KindNumber
		case strings.HasPrefix(text, `"`):
			text = text[1 : len(text)-1]
		}
		if tok.Kind() != want || tok.String() != text {
			t.Fatalf("%s: value %d = %v %q, want %v %q", what, c, tok.Kind(), tok.String(), want, text)
		}
	}
	for _, k := range []Kind{KindArrayEnd, KindKey, KindNumber, KindObjectEnd} {
		if tok := next(); tok.Kind() != k {
			t.Fatalf("%s: %v, want %v", what, tok.Kind(), k)
		}
	}
	if _, err := d.Token(); err != io.EOF {
		t.Fatalf("%s: %v at the end, want io.EOF", what, err)
	}
}
