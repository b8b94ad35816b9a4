package toon

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strconv"
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
// as numbers to plainestNumber and plainCell. It returns how many cells
// there are, and how many it counted as numbers.
func checkSplitCells(t *testing.T, buf []byte, n int, delim byte) (cells, numbers int) {
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
	return len(d.cells) / 2, d.numbers
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
	numbersAll, numbersSome := 0, 0
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
		nc, nn := checkSplitCells(t, buf, len(line), delim)
		if nn == nc {
			numbersAll++
		}
		if nn > 0 {
			numbersSome++
		}
	}
	if numbersAll == 0 || numbersSome == numbersAll {
		t.Fatalf("lines read as numbers alone: %d, with some numbers: %d; want some of each", numbersAll, numbersSome)
	}
}

// FuzzSplitCells holds splitCells to the scan of the line's bytes on any
// text, delimiter and bytes after the text (after, repeated to at least 24
// bytes when asked: a number that ends the text is read only when 24 bytes
// from its start are readable).
func FuzzSplitCells(f *testing.F) {
	f.Add([]byte("1,2.5,-3,0.125"), []byte("\n"), byte(0))
	f.Add([]byte("1|2|\"a|b\"|4"), []byte("5"), byte(1))
	f.Add([]byte("0.5\t-0.25\t7\t"), []byte(".,"), byte(2))
	f.Add([]byte("3,4"), []byte(""), byte(3))
	f.Fuzz(func(t *testing.T, text, after []byte, sel byte) {
		buf := append(text[:len(text):len(text)], after...)
		for sel&4 != 0 && len(after) > 0 && len(buf)-len(text) < 24 {
			buf = append(buf, after...)
		}
		checkSplitCells(t, buf[:len(buf):len(buf)], len(text), ",|\t"[sel%3])
	})
}

// TestLongInlineNumbers reads inline arrays longer than a chunk
// (lazyChunk) whose values are numbers but for one odd cell, at the first,
// a middle or the last place or none: through Token from a slice, from a
// reader, and from a slice that ends with the array (no LF, no byte past
// its end), comparing each token with the cell it comes from; and, where
// every cell is a number, through Unmarshal into float64s and float32s,
// which read the cells past the queue themselves (decFloats).
func TestLongInlineNumbers(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	const n = 3*lazyChunk + 5
	type doc struct {
		V []float64 `toon:"v"`
		W int       `toon:"w"`
	}
	type doc32 struct {
		V []float32 `toon:"v"`
		W int       `toon:"w"`
	}
	for _, delim := range []string{",", "|", "\t"} {
		for _, odd := range []string{"", "x", `"q,|	q"`, "1e-3", "007", " 5 ", "-", "-0"} {
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
				line := fmt.Sprintf("v[%d%s]: %s", n, hd, strings.Join(cells, delim))
				text := line + "\nw: 1\n"
				what := fmt.Sprintf("delimiter %q, %q at %d", delim, odd, at)
				checkInlineTokens(t, NewBytesDecoder([]byte(text)), cells, true, "slice, "+what)
				checkInlineTokens(t, NewDecoder(strings.NewReader(text)), cells, true, "reader, "+what)
				checkInlineTokens(t, NewBytesDecoder([]byte(line)[:len(line):len(line)]), cells, false, "slice ending with the array, "+what)
				if at >= 0 && !isNumber([]byte(strings.TrimSpace(odd))) {
					continue
				}
				var v doc
				var v32 doc32
				if err := Unmarshal([]byte(text), &v); err != nil {
					t.Fatalf("Unmarshal, %s: %v", what, err)
				}
				if err := Unmarshal([]byte(text), &v32); err != nil {
					t.Fatalf("Unmarshal into float32s, %s: %v", what, err)
				}
				if len(v.V) != n || len(v32.V) != n || v.W != 1 || v32.W != 1 {
					t.Fatalf("Unmarshal, %s: %d and %d values, w %d and %d", what, len(v.V), len(v32.V), v.W, v32.W)
				}
				for c, cell := range cells {
					f, _ := strconv.ParseFloat(strings.TrimSpace(cell), 64)
					f32, _ := strconv.ParseFloat(strings.TrimSpace(cell), 32)
					if v.V[c] != f || v32.V[c] != float32(f32) {
						t.Fatalf("Unmarshal, %s: value %d = %v and %v, want %v (%q)", what, c, v.V[c], v32.V[c], f, cell)
					}
				}
			}
		}
	}
}

// TestLongInlineBadCell reads a long inline array whose numbers are
// followed by a quoted cell with a bad escape: its error is reported at
// that cell, after the values before it.
func TestLongInlineBadCell(t *testing.T) {
	const n = 2*lazyChunk + 3
	for _, at := range []int{0, 1, lazyChunk, n - 1} {
		cells := make([]string, n)
		for c := range cells {
			cells[c] = strconv.Itoa(c) + ".25"
		}
		cells[at] = `"a\qb"`
		prefix := fmt.Sprintf("v[%d]: ", n)
		line := prefix + strings.Join(cells, ",")
		col := len(prefix) + len(strings.Join(cells[:at], ",")) + 1 // the cell's first byte, 1-based
		if at > 0 {
			col++ // its delimiter
		}
		d := NewBytesDecoder([]byte(line + "\n"))
		values := 0
		var err error
		for err == nil {
			var tok Token
			if tok, err = d.Token(); err == nil && tok.Kind() == KindNumber {
				values++
			}
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != 1 || se.Column < col || se.Column > col+len(cells[at]) {
			t.Fatalf("bad cell at %d: error %v, want a SyntaxError at line 1, columns %d to %d", at, err, col, col+len(cells[at]))
		}
		if values != at {
			t.Fatalf("bad cell at %d: %d values before the error, want %d", at, values, at)
		}
	}
}

// checkInlineTokens reads the document {"v": cells, "w": 1}, or {"v":
// cells} without tail, from d and compares each value's kind and text with
// its cell's.
func checkInlineTokens(t *testing.T, d *Decoder, cells []string, tail bool, what string) {
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
	ends := []Kind{KindArrayEnd, KindObjectEnd}
	if tail {
		ends = []Kind{KindArrayEnd, KindKey, KindNumber, KindObjectEnd}
	}
	for _, k := range ends {
		if tok := next(); tok.Kind() != k {
			t.Fatalf("%s: %v, want %v", what, tok.Kind(), k)
		}
	}
	if _, err := d.Token(); err != io.EOF {
		t.Fatalf("%s: %v at the end, want io.EOF", what, err)
	}
}
