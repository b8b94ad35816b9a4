package toon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// The tests of this file hold SplitTable and the range decoders to the
// serial decoder: the tokens and the error of a document read with its
// tables split into ranges must be those of the document read serially,
// on valid documents and on documents broken in every way a table can be.

// splitTokText renders a token for comparisons.
func splitTokText(t Token) string {
	switch t.Kind() {
	case KindArrayStart:
		return fmt.Sprintf("[%d %v %q", t.Len(), t.Form(), t.Delim())
	case KindKey:
		return "k" + strconv.Quote(string(t.Bytes()))
	}
	return t.String()
}

// serialTokens reads data with one decoder.
func serialTokens(data []byte, opts ...Option) ([]string, error) {
	return tableTokens(data, opts, nil)
}

// splitTokens reads data with one decoder that splits every tabular array
// into ranges (of at least minRange bytes) read by range decoders, and
// checks what SplitTable promises of the ranges.
func splitTokens(t *testing.T, data []byte, parts int, opts ...Option) ([]string, error) {
	t.Helper()
	return tableTokens(data, opts, func(dec *Decoder) ([]string, error) {
		var tab *Table
		var streamed []Range
		var err error
		if parts < 0 {
			// StreamTable, with ranges of -parts bytes.
			tab, err = dec.StreamTable(-parts, func(tt *Table, r Range) bool {
				streamed = append(streamed, r)
				return true
			})
			if err == nil && fmt.Sprint(streamed) != fmt.Sprint(tab.Ranges) {
				t.Fatalf("StreamTable yielded %+v, has %+v", streamed, tab.Ranges)
			}
		} else {
			tab, err = dec.SplitTable(parts)
		}
		if err != nil {
			t.Fatalf("SplitTable: %v", err)
		}
		checkRanges(t, data, tab)
		var out []string
		var reused *Decoder
		for i, r := range tab.Ranges {
			rd := tab.RangeDecoder(r)
			if i%2 == 1 {
				// A decoder of another range, reset for this one. Its
				// header ids go on (an id is never given twice by one
				// decoder: rowPlan and headerProg rely on it).
				ids := reused.ids + 1
				reused.ids = ids
				tab.ResetRange(reused, r)
				if reused.ids < ids {
					t.Fatalf("ResetRange: header ids start over at %d, after %d", reused.ids, ids)
				}
				rd = reused
			}
			reused = rd
			first, err := rd.Token()
			if err != nil || first.Kind() != KindArrayStart || first.Len() != r.Rows {
				t.Fatalf("range %+v: first token %v, %v", r, splitTokText(first), err)
			}
			rows, err := rangeRows(t, rd)
			out = append(out, rows...)
			if err != nil {
				return out, err
			}
		}
		return out, nil
	})
}

// tableTokens reads data with one decoder and returns its tokens, as
// text; table, unless nil, reads the rows of each tabular array, after its
// ArrayStart, and returns their tokens, or an error that ends the document.
// Every token but those of a tabular array's rows carries the decoder's
// Line and InputOffset after it, so that a split read, whose rows come
// from range decoders, must give the tokens around the rows the serial
// read's positions too.
func tableTokens(data []byte, opts []Option, table func(*Decoder) ([]string, error)) ([]string, error) {
	dec := NewBytesDecoder(data, opts...)
	var out []string
	inRows, depth := false, 0 // in the rows of a tabular array read here, at object depth
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		text := splitTokText(tok)
		switch k := tok.Kind(); {
		case inRows && k == KindObjectStart:
			depth++
		case inRows && k == KindObjectEnd:
			depth--
		case inRows && k == KindArrayEnd && depth == 0:
			inRows = false
		}
		if !inRows {
			text += fmt.Sprintf("@%d:%d", dec.Line(), dec.InputOffset())
		}
		out = append(out, text)
		if tok.Kind() != KindArrayStart || tok.Form() != FormTabular {
			continue
		}
		if table == nil {
			inRows, depth = true, 0
			continue
		}
		rows, err := table(dec)
		out = append(out, rows...)
		if err != nil {
			return out, err
		}
	}
}

// rangeRows reads the tokens of a range decoder's rows, after its
// ArrayStart, up to its ArrayEnd and the io.EOF after it. A range that
// fails ends with its error; when the line that ended the table is an
// error (a key-value line at row depth), the rows end with the ArrayEnd
// before it and its position, as in the serial read.
func rangeRows(t *testing.T, rd *Decoder) ([]string, error) {
	t.Helper()
	var rows []string
	depth := 0
	var end string // the ArrayEnd, with its position
	for {
		tok, err := rd.Token()
		if err != nil {
			if err == io.EOF {
				t.Error("EOF before the range's ArrayEnd") // Error: rd may be a worker's
			}
			return rows, err
		}
		if tok.Kind() == KindArrayEnd && depth == 0 {
			end = fmt.Sprintf("%s@%d:%d", splitTokText(tok), rd.Line(), rd.InputOffset())
			break
		}
		switch tok.Kind() {
		case KindObjectStart:
			depth++
		case KindObjectEnd:
			depth--
		}
		rows = append(rows, splitTokText(tok))
	}
	if _, err := rd.Token(); err != io.EOF {
		if err == nil {
			t.Error("a token after the range's ArrayEnd")
			err = io.ErrUnexpectedEOF
		}
		return append(rows, end), err
	}
	return rows, nil
}

// checkRanges checks that tab's ranges cover its rows once, in order, and
// that each knows its line and first row.
func checkRanges(t *testing.T, data []byte, tab *Table) {
	t.Helper()
	if len(tab.Ranges) == 0 {
		t.Fatal("no range")
	}
	at, row := tab.Start, 0
	for i, r := range tab.Ranges {
		if r.Start != at || r.End < r.Start || r.FirstRow != row {
			t.Fatalf("range %d of %d: %+v, want start %d, first row %d", i, len(tab.Ranges), r, at, row)
		}
		want := 1 + bytes.Count(data[:r.Start], []byte{'\n'})
		if r.Start == int64(len(data)) && len(data) > 0 && data[len(data)-1] != '\n' {
			want++ // an empty range after a last line without its LF
		}
		if r.Line != want {
			t.Fatalf("range %d: line %d, want %d\n%q", i, r.Line, want, data)
		}
		if i > 0 && data[r.Start-1] != '\n' {
			t.Fatalf("range %d starts inside a line", i)
		}
		at, row = r.End, row+r.Rows
	}
	if at != tab.End || row != tab.Rows {
		t.Fatalf("ranges end at %d with %d rows, table ends at %d with %d", at, row, tab.End, tab.Rows)
	}
}

// sameErr reports whether two errors say the same, at the same place.
func sameErr(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	var sa, sb *SyntaxError
	if errors.As(a, &sa) != errors.As(b, &sb) {
		return false
	}
	if sa != nil && (sa.Line != sb.Line || sa.Column != sb.Column || sa.Offset != sb.Offset || sa.Source != sb.Source) {
		return false
	}
	return a.Error() == b.Error()
}

// compareSplit checks that data reads the same split as serially.
func compareSplit(t *testing.T, data []byte, parts int, opts ...Option) {
	t.Helper()
	want, werr := serialTokens(data, opts...)
	got, gerr := splitTokens(t, data, parts, opts...)
	if !sameErr(werr, gerr) {
		t.Fatalf("parts %d: error\n got %v\nwant %v\ninput:\n%s", parts, gerr, werr, data)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("parts %d: token %d is %s, want %s (%d and %d tokens)\ninput:\n%s", parts, i, got[i], want[i], len(got), len(want), data)
			}
		}
		t.Fatalf("parts %d: %d tokens, want %d\ninput:\n%s", parts, len(got), len(want), data)
	}
}

// splitCell returns a cell value that needs quoting now and then.
func splitCell(rng *rand.Rand) any {
	switch rng.IntN(8) {
	case 0:
		return rng.IntN(1000) - 500
	case 1:
		return rng.Float64() * 100
	case 2:
		return rng.IntN(2) == 0
	case 3:
		return nil
	}
	const alphabet = "ab c,|:#\"\\\t-é😀0.5"
	rs := []rune(alphabet)
	var b strings.Builder
	for range rng.IntN(8) {
		b.WriteRune(rs[rng.IntN(len(rs))])
	}
	return b.String()
}

// randomTableDoc encodes a random table in one of several places of a
// document, with one of the delimiters.
func randomTableDoc(rng *rand.Rand) []byte {
	n := rng.IntN(40)
	nested := rng.IntN(4) == 0
	rows := make([]any, n)
	for i := range rows {
		row := Object{{"a", splitCell(rng)}, {"b", splitCell(rng)}}
		if nested {
			row = append(row, Member{"g", Object{{"x", splitCell(rng)}, {"y", splitCell(rng)}}})
		}
		row = append(row, Member{"c", splitCell(rng)})
		rows[i] = row
	}
	var v any
	switch rng.IntN(4) {
	case 0:
		v = rows
	case 1:
		v = Object{{"meta", Object{{"v", 1}}}, {"data", Object{{"users", rows}}}, {"after", "x"}}
	case 2:
		v = Object{{"items", []any{Object{{"t", rows}, {"k", 1}}, "x", Object{{"t", rows}}}}}
	default:
		v = Object{{"first", rows}, {"second", rows}}
	}
	delim := []Delimiter{Comma, Tab, Pipe}[rng.IntN(3)]
	b, err := Marshal(v, WithDelimiter(delim))
	if err != nil {
		panic(err)
	}
	return b
}

// mutate damages or decorates doc at a random line: comments, blank lines,
// CRLF, a changed, dropped or repeated line, a changed byte.
func mutate(rng *rand.Rand, doc []byte) []byte {
	lines := bytes.SplitAfter(doc, []byte{'\n'})
	i := rng.IntN(len(lines))
	ln := lines[i]
	var repl [][]byte
	switch rng.IntN(11) {
	case 0:
		repl = [][]byte{[]byte(strings.Repeat(" ", rng.IntN(6)) + "# note\n"), ln}
	case 1:
		repl = [][]byte{[]byte("\n"), ln}
	case 2:
		repl = [][]byte{bytes.Replace(ln, []byte{'\n'}, []byte("\r\n"), 1)}
	case 3:
		repl = nil
	case 4:
		repl = [][]byte{ln, ln}
	case 5:
		if len(ln) > 1 {
			b := bytes.Clone(ln)
			const set = ",|\t: \"\\#x\xff"
			b[rng.IntN(len(b)-1)] = set[rng.IntN(len(set))]
			repl = [][]byte{b}
		}
	case 6:
		repl = [][]byte{append([]byte(" "), ln...)}
	case 7:
		repl = [][]byte{append([]byte("\t"), ln...)}
	case 8:
		repl = [][]byte{[]byte("  key: 1\n"), ln}
	case 9:
		repl = [][]byte{ln, []byte("   \n")}
	default:
		repl = [][]byte{bytes.TrimLeft(ln, " ")}
	}
	out := append([][]byte{}, lines[:i]...)
	out = append(out, repl...)
	out = append(out, lines[i+1:]...)
	return bytes.Join(out, nil)
}

// randomDocs calls each with n random tables in random places (from
// randomTableDoc), damaged or decorated up to three times (mutate), a third
// of them without their final LF.
func randomDocs(seed uint64, n int, each func(i int, doc []byte)) {
	rng := rand.New(rand.NewPCG(19, seed))
	for i := range n {
		doc := randomTableDoc(rng)
		for range rng.IntN(4) {
			doc = mutate(rng, doc)
		}
		if i%3 == 0 && len(doc) > 0 && doc[len(doc)-1] == '\n' {
			doc = doc[:len(doc)-1] // no final LF
		}
		each(i, doc)
	}
}

func TestSplitTableMatchesSerial(t *testing.T) {
	smallRanges(t, 1)
	randomDocs(1, longtest.Size(t, 500, 1500), func(_ int, doc []byte) {
		for _, parts := range []int{1, 2, 3, 7, 100, -1, -20, -100} {
			compareSplit(t, doc, parts)
		}
	})
}

func TestSplitTableErrors(t *testing.T) {
	smallRanges(t, 1)
	// Each document breaks a table in one way; the split read must fail
	// exactly as the serial read does (compareSplit), and it must fail.
	docs := []string{
		"[3]{a,b}:\n  1,2\n  3,4\n",                 // short
		"[1]{a,b}:\n  1,2\n  3,4\n",                 // long
		"[3]{a,b}:\n  1,2\n\n  3,4\n  5,6\n",        // blank line
		"[3]{a,b}:\n  1,2\n  3\n  5,6\n",            // width
		"[3]{a,b}:\n  1,2\n  3,\"x\n  5,6\n",        // unterminated
		"[3]{a,b}:\n  1,2\n  3,\"\\q\"\n  5,6\n",    // escape
		"[3]{a,b}:\n  1,2\n\t3,4\n  5,6\n",          // tab
		"[3]{a,b}:\n  1,2\n   3,4\n  5,6\n",         // odd indentation
		"[3]{a,b}:\n  1,2\n    3,4\n  5,6\n",        // deeper
		"[3]{a,b}:\n  1,2\n  k: 4\n  5,6\n",         // key-value line
		"[3]{a,b}:\n  1,2\n  3,\xff\n  5,6\n",       // UTF-8
		"[3]{a,b}:\n  1,2\n  # \xff\n  5,6\n",       // UTF-8 in a comment
		"x:\n  t[2]{a,b}:\n    1,2\n  y: 1\n",       // short, then a field
		"x:\n  t[2]{a,b}:\n    1,2\n\t y: 1\n",      // short, then a tab
		"x[2]:\n  - t[1]{a}:\n      1\n\n  - 2\n",   // blank line after a table in a list
		"x:\n  t[2]{a,b}:\n    1,2\n# \xff\ny: 1\n", // short, then a comment that is not UTF-8
		"[2]{a,b}:\n  1,2\n  3,4\nz\n",              // trailing content
	}
	for _, doc := range docs {
		if _, err := serialTokens([]byte(doc)); err == nil {
			t.Errorf("%q: no error", doc)
		}
		for _, parts := range []int{1, 2, 3, 5, -1, -8, -30} {
			compareSplit(t, []byte(doc), parts)
		}
		for _, size := range []int{1, 8, 30} {
			compareParallel(t, []byte(doc), size, 2)
		}
	}
}

func TestSplitTableRangesEven(t *testing.T) {
	smallRanges(t, 100)
	var b bytes.Buffer
	b.WriteString("t[1000]{a,b}:\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "  %d,row %d\n", i, i)
	}
	b.WriteString("after: 1\n")
	dec := NewBytesDecoder(b.Bytes())
	for range 3 {
		dec.Token()
	}
	tab, err := dec.SplitTable(8)
	if err != nil {
		t.Fatal(err)
	}
	checkRanges(t, b.Bytes(), tab)
	if len(tab.Ranges) != 8 || tab.Rows != 1000 {
		t.Fatalf("%d ranges, %d rows; want 8 ranges and 1000 rows", len(tab.Ranges), tab.Rows)
	}
	for _, r := range tab.Ranges {
		if r.Rows < 100 || r.Rows > 150 {
			t.Errorf("uneven range: %+v", r)
		}
	}
	// Split cuts a range again, with the same guarantees.
	r := tab.Ranges[3]
	sub := tab.Split(r, 4)
	if len(sub) < 2 || sub[0].Start != r.Start || sub[len(sub)-1].End != r.End {
		t.Fatalf("Split(%+v) = %+v", r, sub)
	}
	rows := 0
	for _, s := range sub {
		if s.FirstRow != r.FirstRow+rows {
			t.Fatalf("sub-range %+v: first row, want %d", s, r.FirstRow+rows)
		}
		rows += s.Rows
	}
	if rows != r.Rows {
		t.Fatalf("sub-ranges hold %d rows, want %d", rows, r.Rows)
	}
	// The decoder goes on after the table.
	all, err := serialTokens(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range all[len(all)-4:] {
		tok, err := dec.Token()
		if got := fmt.Sprintf("%s@%d:%d", splitTokText(tok), dec.Line(), dec.InputOffset()); err != nil || got != want {
			t.Fatalf("after the table: %s, %v; want %s", got, err, want)
		}
	}
}

func TestSplitTableNotSplittable(t *testing.T) {
	doc := []byte("t[2]{a,b}:\n  1,2\n  3,4\nl[2]: 1,2\n")
	cases := []struct {
		name string
		dec  *Decoder
		skip int
	}{
		{"reader", NewDecoder(bytes.NewReader(doc)), 3},
		{"non-strict", NewBytesDecoder(doc, WithStrict(false)), 3},
		{"not at a table", NewBytesDecoder(doc), 2},
		{"inside the table", NewBytesDecoder(doc), 4},
		{"inline array", NewBytesDecoder(doc), 11},
	}
	for _, c := range cases {
		for range c.skip {
			if _, err := c.dec.Token(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.dec.SplitTable(2); !errors.Is(err, ErrNotSplittable) {
			t.Errorf("%s: %v, want ErrNotSplittable", c.name, err)
		}
	}
}

// FuzzSplitTable reads a document serially and with its tables split
// (into parts ranges by SplitTable, or by StreamTable in ranges of a few
// bytes), and requires the same tokens and error.
func FuzzSplitTable(f *testing.F) {
	rng := rand.New(rand.NewPCG(19, 12))
	for range 16 {
		f.Add(mutate(rng, randomTableDoc(rng)), int8(3))
	}
	f.Add([]byte("x[2]:\n  - t[1]{a}:\n      1\n\n  - 2\n"), int8(-2))
	f.Fuzz(func(t *testing.T, doc []byte, parts int8) {
		smallRanges(t, 1)
		if parts == 0 {
			parts = 1
		}
		compareSplit(t, doc, int(parts))
		// ParallelTable, with ranges of about |parts| bytes.
		compareParallel(t, doc, max(int(parts), -int(parts)), 2)
	})
}

// parallelTokens reads data with one decoder that hands every tabular
// array to ParallelTable, with ranges of size bytes (smallRanges lowers
// the least size) and workers goroutines, whose work reads each range's
// tokens; the tokens come out in the document's order.
func parallelTokens(t *testing.T, data []byte, size, workers int, opts ...Option) ([]string, error) {
	t.Helper()
	type rangeOut struct {
		toks []string
		err  error
	}
	return tableTokens(data, opts, func(dec *Decoder) ([]string, error) {
		var out []string
		var failed error
		err := ParallelTable(dec, workers, size, func() func(*Decoder, *rangeOut) bool {
			return func(rd *Decoder, o *rangeOut) bool {
				if first, err := rd.Token(); err != nil || first.Kind() != KindArrayStart {
					t.Errorf("first token %v, %v", splitTokText(first), err)
				}
				o.toks, o.err = rangeRows(t, rd)
				return o.err != nil
			}
		}, func(r Range, o *rangeOut) bool {
			out = append(out, o.toks...)
			failed = o.err
			return o.err == nil
		})
		if failed != nil {
			return out, failed
		}
		if err != nil {
			t.Fatalf("ParallelTable: %v", err)
		}
		return out, nil
	})
}

func compareParallel(t *testing.T, data []byte, size, workers int, opts ...Option) {
	t.Helper()
	want, werr := serialTokens(data, opts...)
	got, gerr := parallelTokens(t, data, size, workers, opts...)
	if !sameErr(werr, gerr) {
		t.Fatalf("size %d, workers %d: error\n got %v\nwant %v\ninput:\n%s", size, workers, gerr, werr, data)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("size %d, workers %d: tokens\n got %v\nwant %v\ninput:\n%s", size, workers, got, want, data)
	}
}

// TestParallelTableMatchesSerial decodes random tables in random places,
// damaged or decorated, with ParallelTable, and compares the tokens and
// the error with the serial decoder's.
func TestParallelTableMatchesSerial(t *testing.T) {
	smallRanges(t, 1)
	randomDocs(5, longtest.Size(t, 500, 1500), func(i int, doc []byte) {
		for _, size := range []int{1, 30, 200, 1 << 20} {
			compareParallel(t, doc, size, 1+i%3)
		}
	})
}

// TestLineAcrossSplitTable requires SplitTable, StreamTable and
// ParallelTable, which take the decoder past a table's rows without
// returning them, to leave Line and InputOffset those of the table's
// header, the last token returned, until the next token: the table's
// ArrayEnd, with the line that closes the table. The header is on the
// first line too, whose tokens the decoder's first queue held.
func TestLineAcrossSplitTable(t *testing.T) {
	cases := []struct {
		doc               string
		header, end       int   // lines
		headerOff, endOff int64 // offsets
	}{
		{"x: 1\nt[2]{a,b}:\n  1,2\n  3,4\ny: 2\n", 2, 5, 5, 28},
		{"t[2]{a,b}:\n  1,2\n  3,4\ny: 2\n", 1, 4, 0, 23},
		{"[2]{a,b}:\n  1,2\n  3,4\n", 1, 3, 0, 16},
	}
	for _, c := range cases {
		for _, how := range []string{"split", "stream", "parallel"} {
			d := NewBytesDecoder([]byte(c.doc))
			for {
				tok, err := d.Token()
				if err != nil {
					t.Fatal(err)
				}
				if tok.Kind() == KindArrayStart {
					break
				}
			}
			var err error
			switch how {
			case "split":
				_, err = d.SplitTable(1)
			case "stream":
				_, err = d.StreamTable(1, func(*Table, Range) bool { return true })
			default:
				err = ParallelTable(d, 1, 1, func() func(*Decoder, *int) bool {
					return func(*Decoder, *int) bool { return false }
				}, func(Range, *int) bool { return true })
			}
			if err != nil {
				t.Fatal(err)
			}
			if l, o := d.Line(), d.InputOffset(); l != c.header || o != c.headerOff {
				t.Errorf("%q, %s: Line and InputOffset %d:%d after the table, want the header's %d:%d", c.doc, how, l, o, c.header, c.headerOff)
			}
			tok, err := d.Token()
			if l, o := d.Line(), d.InputOffset(); err != nil || tok.Kind() != KindArrayEnd || l != c.end || o != c.endOff {
				t.Errorf("%q, %s: %v, %v at %d:%d after the table, want its ArrayEnd at %d:%d", c.doc, how, tok, err, l, o, c.end, c.endOff)
			}
		}
	}
}
