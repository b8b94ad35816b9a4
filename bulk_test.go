package toon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// renderWithLines renders every token like renderTokens and, after each,
// the line Line reports and the line Unmarshal would blame for it.
func renderWithLines(t *testing.T, d *Decoder, limit int) (string, error) {
	t.Helper()
	return renderEach(t, d, limit, func(sb *strings.Builder, tok Token, line, col int) {
		fmt.Fprintf(sb, "%c%q@%d:%d:%d:%d ", tok.Kind(), tok.Bytes(), d.Line(), line, col, d.InputOffset())
	})
}

// renderEach reads up to limit tokens from d and renders each with put,
// given the line and column Unmarshal would blame for it.
func renderEach(t *testing.T, d *Decoder, limit int, put func(sb *strings.Builder, tok Token, line, col int)) (string, error) {
	t.Helper()
	var sb strings.Builder
	for n := 0; n <= limit; n++ {
		tok, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return sb.String(), nil
			}
			return sb.String(), err
		}
		s := decState{d: d, cell: -1}
		line, col := s.pos(tok)
		put(&sb, tok, line, col)
	}
	t.Fatalf("more than %d tokens", limit)
	return "", nil
}

// checkBulk decodes data with the fast path on and off, through a byte
// slice, a reader and a reader of 1 to 7 bytes at a time, and with the fast
// path but without typeRows, and requires the same tokens, positions and
// error.
func checkBulk(t *testing.T, data []byte, strict bool) {
	t.Helper()
	checkBulkOpts(t, data, strict, WithStrict(strict))
	checkBulkOpts(t, data, strict, WithStrict(strict), WithMaxLineLength(64)) // the smallest limit
}

func checkBulkOpts(t *testing.T, data []byte, strict bool, opts ...Option) {
	t.Helper()
	limit := fuzzTokenLimit(len(data))
	want, wantErr := renderWithLines(t, withoutFastPath(newBytesDecoder(data, opts)), limit)
	for name, d := range map[string]*Decoder{
		"bytes":     newBytesDecoder(data, opts),
		"reader":    NewDecoder(bytes.NewReader(data), opts...),
		"chunked":   NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2}}, opts...),
		"no kernel": newBytesDecoder(data, opts), // bulkLine for every row, where typeRows would take some
	} {
		var got string
		var err error
		if name == "no kernel" {
			withoutTypeRows(func() { got, err = renderWithLines(t, d, limit) })
		} else {
			got, err = renderWithLines(t, d, limit)
		}
		if got != want {
			t.Fatalf("strict %v, %s: %q:\n got %s\nwant %s", strict, name, data, got, want)
		}
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("strict %v, %s: %q: error %v, want %v", strict, name, data, err, wantErr)
		}
	}
}

// bulkCells are cells that the fast path takes and cells it must leave to
// the general path.
var bulkCells = []string{
	"1", "-2", "3.25", "0", "007", "1e5", "1.", "x", "Ada Lovelace", "true", "false", "null", `""`,
	`"a,b"`, `"a:b"`, `"q\"q"`, `"\\"`, `"é"`, "é", "€x", "\xff", " pad ", "a b", "", `"x"y`, `a"b`,
	`"open`, "a:b", "#x", "-", "1.5e-3", "tru", "nulls", `12" pizza`, `-"7`, `x"y:z`,
	"t", "f", "n", "fals", "falsey", "truE", "nul", "nulL", "trues", "no", "fa",
	"true\x00", "null\x00", "nul\x00", "fals\x00", // 5 bytes whose last is 0: "true" and "null" masked to 5
	`"a\\\"b"`, `"tab\there"`, `"x\\"`, `"\u00e9"`, `"bad\q"`, `"\"`, `"\\\\"`, `"a\"b"c"`,
	// Numbers and number-like strings longer than a word, which typeRows
	// decides with numStep; text that is not ASCII; long escaped text.
	"1735689601126", "-1.7800806919969214", "5.02e+23", "-9.735", "0.00001556", "8560000000000000000",
	"4.92e-7", "-0", "1E+05", "12345678.9", "123456789.", "0012345678", "-1.5e", "1e+", "2025-03-28",
	"1.24.7", "10.33.196.137", "96-0787-8", "+1 555 1137", "1000-AG", "6x26x18", "福岡", "Łódź 👍",
	`"Hi team,\n\nThe \"cache\" fails,\tagain: see \\\\host\\share.\n\nThanks"`,
}

// perturbRow writes, one time in every, what makes the row it comes before
// a line the fast path and runs must leave to the general path: a comment
// line or a blank line before it, or a tab, a space or two spaces more in
// its indentation (the last a row one level deeper).
func perturbRow(rng *rand.Rand, b *bytes.Buffer, indent, eol string, every int) {
	switch rng.Intn(every) {
	case 0:
		b.WriteString(indent + "# a comment" + eol)
	case 1:
		b.WriteString(eol)
	case 2:
		b.WriteString("\t")
	case 3:
		b.WriteString(" ")
	case 4:
		b.WriteString("  ")
	}
}

// bulkDoc builds a document of one table with rows random cells, and
// sometimes a perturbation: a comment, a blank line, CRLF line ends, a
// wrong width, an odd indentation, a key after the rows, a wrong count.
func bulkDoc(rng *rand.Rand, rows int) []byte {
	var b bytes.Buffer
	cols := 1 + rng.Intn(5)
	nested := rng.Intn(3) == 0
	indent := "  "
	if nested {
		b.WriteString("outer:\n  ")
		indent = "    "
	}
	delims := []string{",", "\t", "|"}
	delim := delims[rng.Intn(3)]
	hd := ""
	if delim != "," {
		hd = delim
	}
	n := rows
	if rng.Intn(8) == 0 {
		n += rng.Intn(3) - 1
	}
	b.WriteString("t[" + strconv.Itoa(n) + hd + "]{")
	group := cols >= 2 && rng.Intn(3) == 0 // the last two fields in a nested group
	for c := 0; c < cols; c++ {
		if c > 0 {
			b.WriteString(delim)
		}
		if group && c == cols-2 {
			b.WriteString("g{")
		}
		b.WriteString("f" + strconv.Itoa(c))
	}
	if group {
		b.WriteString("}")
	}
	b.WriteString("}:\n")
	eol := "\n"
	if rng.Intn(6) == 0 {
		eol = "\r\n"
	}
	for r := 0; r < rows; r++ {
		perturbRow(rng, &b, indent, eol, 40)
		b.WriteString(indent)
		w := cols
		if rng.Intn(50) == 0 {
			w += rng.Intn(3) - 1
		}
		for c := 0; c < w; c++ {
			if c > 0 {
				b.WriteString(delim)
			}
			if rng.Intn(4) == 0 {
				b.WriteString(bulkCells[rng.Intn(len(bulkCells))])
			} else {
				b.WriteString(bulkCells[rng.Intn(12)])
			}
		}
		if r < rows-1 || rng.Intn(2) == 0 {
			b.WriteString(eol)
		}
	}
	if rng.Intn(4) == 0 {
		b.WriteString(indent + "k: v" + eol)
	}
	if nested && rng.Intn(2) == 0 {
		b.WriteString("  after: 1")
	}
	return b.Bytes()
}

func TestBulkMatchesGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewSource(77))
	for i := range longtest.Size(t, 1000, 3000) {
		rows := 1 + rng.Intn(30)
		if i%100 == 0 {
			rows = 400 + rng.Intn(600) // more than one window and one queue
		}
		data := bulkDoc(rng, rows)
		if i%3 == 0 {
			// Some rows longer than the smallest line limit.
			data = bytes.ReplaceAll(data, []byte("Ada Lovelace"), []byte(strings.Repeat("Ada Lovelace ", 6)))
		}
		checkBulk(t, data, true)
		checkBulk(t, data, false)
	}
}

// TestBulkPositions checks that an Unmarshal type error in a row the fast
// path took names that row's line and the cell's column.
func TestBulkPositions(t *testing.T) {
	var b strings.Builder
	b.WriteString("[300]{id,name}:\n")
	for i := 1; i <= 300; i++ {
		name := "n" + strconv.Itoa(i)
		if i == 250 {
			name = "7"
		}
		b.WriteString("  " + strconv.Itoa(i) + "," + name + "\n")
	}
	type row struct {
		ID   int    `toon:"id"`
		Name string `toon:"name"`
	}
	var rows []row
	err := Unmarshal([]byte(b.String()), &rows)
	ute, ok := err.(*UnmarshalTypeError)
	if !ok {
		t.Fatalf("got %T %v, want an *UnmarshalTypeError", err, err)
	}
	if ute.Line != 251 || ute.Column != 7 {
		t.Fatalf("error at %d:%d, want 251:7: %v", ute.Line, ute.Column, err)
	}
}

func FuzzBulkPath(f *testing.F) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 20; i++ {
		f.Add(bulkDoc(rng, 1+rng.Intn(20)), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		checkBulk(t, data, strict)
	})
}

// TestShortNumber compares shortNumber with isNumber on every string of
// up to 5 bytes over an alphabet of digits and their neighbours, and on
// random strings of up to 8 bytes: where shortNumber says yes, isNumber
// must agree, and for plain integers and decimals it must say yes.
func TestShortNumber(t *testing.T) {
	const alpha = "0123456789.-e+/:\x80 "
	check := func(b []byte) {
		var buf [8]byte
		copy(buf[:], b)
		for i := len(b); i < 8; i++ {
			buf[i] = alpha[(i*7+len(b))%len(alpha)] // the bytes after the cell must not matter
		}
		w := binary.LittleEndian.Uint64(buf[:])
		got := shortNumber(w, lenMask[len(b)])
		want := isNumber(b)
		plain := want && !bytes.ContainsAny(b, "-e+E")
		if got && !want || plain && !got {
			t.Fatalf("%q: shortNumber %v, isNumber %v", b, got, want)
		}
		// shortText, for a cell whose first byte is a digit: never for a
		// number, and always when the first non-digit byte is none of
		// those a number may have there.
		if b[0] < '0' || b[0] > '9' {
			return
		}
		text := shortText(w, lenMask[len(b)])
		i := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		must := i < len(b) && b[i] != '.' && b[i] != 'e' && b[i] != 'E'
		if text && want || must && !text {
			t.Fatalf("%q: shortText %v, isNumber %v", b, text, want)
		}
	}
	var rec func(b []byte)
	rec = func(b []byte) {
		if len(b) > 0 {
			check(b)
		}
		if len(b) == 5 {
			return
		}
		for i := 0; i < len(alpha); i++ {
			rec(append(b, alpha[i]))
		}
	}
	rec(nil)
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 200000; i++ {
		b := make([]byte, 1+rng.Intn(8))
		for j := range b {
			b[j] = alpha[rng.Intn(12)]
		}
		check(b)
	}
	// Digit-led cells with the letters of units and codes.
	const units = "0123456789.eEsmMiGh%x-_"
	for i := 0; i < 200000; i++ {
		b := make([]byte, 1+rng.Intn(8))
		b[0] = units[rng.Intn(10)]
		for j := 1; j < len(b); j++ {
			b[j] = units[rng.Intn(len(units))]
		}
		check(b)
	}
}

// TestShortTextLong checks shortText on cells of 9 to 24 bytes, read by
// their first eight (lenMask[8]): never for a number, and always when the
// first non-digit byte among those eight is none a number may have there.
func TestShortTextLong(t *testing.T) {
	const alpha = "0123456789.eE+-:/ x"
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 300000; i++ {
		b := make([]byte, 9+rng.Intn(16))
		b[0] = alpha[rng.Intn(10)]
		for j := 1; j < len(b); j++ {
			// Mostly digits, so that numbers of every form come up.
			if rng.Intn(3) == 0 {
				b[j] = alpha[rng.Intn(len(alpha))]
			} else {
				b[j] = alpha[rng.Intn(10)]
			}
		}
		text := shortText(binary.LittleEndian.Uint64(b), lenMask[8])
		k := 0
		for k < 8 && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		must := k < 8 && b[k] != '.' && b[k] != 'e' && b[k] != 'E'
		if want := isNumber(b); text && want || must && !text {
			t.Fatalf("%q: shortText %v, isNumber %v", b, text, want)
		}
	}
}

// TestLongInteger checks longInteger against isNumber on random cells of
// 9 to 16 bytes, mostly digits: where longInteger says yes, isNumber must
// agree, and for every integer without a sign it must say yes.
func TestLongInteger(t *testing.T) {
	const alpha = "0123456789.-e+/:\x80 "
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 300000; i++ {
		b := make([]byte, 9+rng.Intn(8))
		for j := range b {
			if rng.Intn(4) == 0 {
				b[j] = alpha[rng.Intn(len(alpha))]
			} else {
				b[j] = '0' + byte(rng.Intn(10))
			}
		}
		var buf [16]byte
		copy(buf[:], b)
		for k := len(b); k < 16; k++ {
			buf[k] = alpha[(k*7+len(b))%len(alpha)] // the bytes after the cell must not matter
		}
		got := longInteger(mem.Of(&buf[0]), lenMask[len(b)-8])
		want := isNumber(b)
		integer := want && !bytes.ContainsAny(b, "-e+E.")
		if got && !want || integer && !got {
			t.Fatalf("%q: longInteger %v, isNumber %v", b, got, want)
		}
	}
}

// TestRowStart checks rowStart against its definition, a byte at a time:
// indentations of whole words and of words and a rest, lines with a space
// too few or too many, a tab, a comment and a line end after the
// indentation, at the end of src and away from it.
func TestRowStart(t *testing.T) {
	ref := func(src []byte, ls, indent int) bool {
		for _, b := range src[ls : ls+indent] {
			if b != ' ' {
				return false
			}
		}
		switch src[ls+indent] {
		case ' ', '\t', '#', '\n', '\r':
			return false
		}
		return true
	}
	for indent := 0; indent <= 20; indent++ {
		for _, lead := range []int{indent - 1, indent, indent + 1} {
			if lead < 0 {
				continue
			}
			for _, c := range []string{"x", "1", "\"", " ", "\t", "#", "\n", "\r", "é"} {
				for _, tail := range []string{"", ",2\n", "," + strings.Repeat("y", 16) + "\n"} {
					for _, pre := range []string{"", "a,b\n"} {
						src := []byte(pre + strings.Repeat(" ", lead) + c + tail)
						if len(pre)+indent >= len(src) {
							continue
						}
						if got, want := rowStart(src, len(pre), indent), ref(src, len(pre), indent); got != want {
							t.Errorf("rowStart(%q, %d, %d) = %v, want %v", src, len(pre), indent, got, want)
						}
					}
				}
			}
		}
	}
}

// TestBulkTableSequence decodes documents of several tables one after
// another, whose headers have the same number of cells laid out
// differently (flat, or with a nested group) and different delimiters, so
// that what the fast path keeps of one table's template must not leak
// into the next.
func TestBulkTableSequence(t *testing.T) {
	headers := []string{"{a,b,c}", "{a,g{b,c}}", "{g{a,b},c}", "{a,b}", "{g{a},b,c}"}
	rng := rand.New(rand.NewSource(12))
	for range longtest.Size(t, 100, 300) {
		var b strings.Builder
		for tbl := 0; tbl < 2+rng.Intn(4); tbl++ {
			h := headers[rng.Intn(len(headers))]
			cells := strings.Count(h, ",") + 1
			rows := 1 + rng.Intn(40)
			if rng.Intn(4) == 0 {
				rows += 300
			}
			fmt.Fprintf(&b, "t%d[%d]%s:\n", tbl, rows, h)
			writeRows(&b, rng, rows, cells, bulkCells[:12])
		}
		checkBulk(t, []byte(b.String()), true)
	}
}

// TestBulkSmallTablesInItems decodes lists of objects that each hold a
// small table (1 to 5 rows) whose header mostly repeats the one before,
// sometimes another of the same number of cells laid out differently, or
// in other field names. A header of the same fields as the last keeps the
// fast path's copies of the row template (headerProg); one of other fields
// must not see them. The tokens must be the general path's, with the
// collector run every few tokens too (the copies hold the keys' pointers
// in memory it does not scan).
func TestBulkSmallTablesInItems(t *testing.T) {
	headers := []string{"{name,price{amount,currency},qty}", "{name,price{amount,currency},qty}",
		"{name,price{amount,currency},qty}", "{a,b,c,d}", "{g{a,b},c,d}", "{name,price{amount,cur},qty}"}
	rng := rand.New(rand.NewSource(5))
	for i := range longtest.Size(t, 50, 150) {
		var b strings.Builder
		items := 2 + rng.Intn(12)
		fmt.Fprintf(&b, "orders[%d]:\n", items)
		for it := 0; it < items; it++ {
			h := headers[rng.Intn(len(headers))]
			rows := 1 + rng.Intn(5)
			fmt.Fprintf(&b, "  - id: %d\n    items[%d]%s:\n", it, rows, h)
			for r := 0; r < rows; r++ {
				b.WriteString("      ")
				for c := 0; c < 4; c++ {
					if c > 0 {
						b.WriteByte(',')
					}
					b.WriteString(bulkCells[rng.Intn(14)])
				}
				b.WriteByte('\n')
			}
			b.WriteString("    tags[2]: a,b\n")
		}
		data := []byte(b.String())
		checkBulk(t, data, true)
		if i%8 != 0 {
			continue
		}
		want, wantErr := renderCollecting(withoutFastPath(newBytesDecoder(data, nil)), 0)
		got, err := renderCollecting(newBytesDecoder(data, nil), 13)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Fatalf("%q:\n got %s (%v)\nwant %s (%v)", data, got, err, want, wantErr)
		}
	}
}

// writeRows writes rows table rows of cols cells each, picked at random
// from cells, at an indentation of 2 and with ',' between them.
func writeRows(b *strings.Builder, rng *rand.Rand, rows, cols int, cells []string) {
	for r := 0; r < rows; r++ {
		b.WriteString("  ")
		for c := 0; c < cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cells[rng.Intn(len(cells))])
		}
		b.WriteByte('\n')
	}
}

// TestBulkQueueUnderGC decodes tables, with escaped and multi-byte cells
// among them, with the collector run to completion every few tokens and
// allocations in between, and requires the same tokens as the general
// path. The fast path keeps its tokens in memory the collector does not
// scan (bulkQueue): a text freed under a queued token would be reused by
// the allocations (or clobbered, under GODEBUG=clobberfree=1) and show
// here as a wrong token, or as a fault in the collector.
func TestBulkQueueUnderGC(t *testing.T) {
	rng := rand.New(rand.NewSource(99))
	n := longtest.Size(t, 6, 40)
	cells := []string{"1", "2.5", "x", "Ada Lovelace", "true", "null", `"a,b"`, `"q\"q"`, `"\\"`, `"tab\there"`, "é", `"ü\n"`, "-3"}
	for i := 0; i < n; i++ {
		var b strings.Builder
		rows, cols := 500+rng.Intn(1500), 1+rng.Intn(6)
		fmt.Fprintf(&b, "t[%d]{", rows)
		for c := 0; c < cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "f%d", c)
		}
		b.WriteString("}:\n")
		writeRows(&b, rng, rows, cols, cells)
		data := []byte(b.String())
		want, wantErr := renderCollecting(withoutFastPath(newBytesDecoder(data, nil)), 0)
		if wantErr != nil {
			t.Fatal(wantErr)
		}
		got, err := renderCollecting(newBytesDecoder(data, nil), 61)
		if got != want || err != nil {
			t.Fatalf("%q:\n got %s (%v)\nwant %s", data, got, err, want)
		}
	}
}

// renderCollecting renders d's tokens up to its first error, running the
// collector and allocating every gcEvery tokens when that is not 0.
func renderCollecting(d *Decoder, gcEvery int) (string, error) {
	var sb strings.Builder
	for j := 0; ; j++ {
		if gcEvery > 0 && j%gcEvery == 0 {
			runtime.GC()
			garbage = make([][]byte, 64)
			for k := range garbage {
				garbage[k] = bytes.Repeat([]byte{'#'}, 1+k%16)
			}
		}
		tok, err := d.Token()
		if err == io.EOF {
			return sb.String(), nil
		}
		if err != nil {
			return sb.String(), err
		}
		fmt.Fprintf(&sb, "%c%q ", tok.Kind(), tok.Bytes())
	}
}

// garbage keeps renderCollecting's allocations alive until the next.
var garbage [][]byte

// TestRowMatchesTokens reads documents with Row wherever it gives a row
// and Token elsewhere, and requires the tokens Token alone gives, in the
// same order; Row must give whole rows of the open table only.
func TestRowMatchesTokens(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	rowsSeen := 0
	for i := 0; i < 400; i++ {
		data := bulkDoc(rng, 1+rng.Intn(600))
		want, wantErr := renderCollecting(newBytesDecoder(data, nil), 0)
		d := NewDecoder(bytes.NewReader(data))
		var sb strings.Builder
		var err error
		for {
			if rng.Intn(4) != 0 {
				if row := d.Row(); row != nil {
					if row[0].Kind() != KindObjectStart || row[len(row)-1].Kind() != KindObjectEnd {
						t.Fatalf("%q: Row gave %v ... %v", data, row[0].Kind(), row[len(row)-1].Kind())
					}
					rowsSeen++
					for _, tok := range row {
						fmt.Fprintf(&sb, "%c%q ", tok.Kind(), tok.Bytes())
					}
					continue
				}
			}
			var tok Token
			if tok, err = d.Token(); err != nil {
				break
			}
			fmt.Fprintf(&sb, "%c%q ", tok.Kind(), tok.Bytes())
		}
		if err == io.EOF {
			err = nil
		}
		if got := sb.String(); got != want || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%q:\n got %s (%v)\nwant %s (%v)", data, got, err, want, wantErr)
		}
	}
	if rowsSeen < 500 {
		t.Fatalf("Row gave only %d rows", rowsSeen)
	}
	// On a plain table, Row gives about every row.
	d := NewDecoder(bytes.NewReader(genBenchTable(3000).toon))
	n := 0
	for {
		if d.Row() != nil {
			n++
			continue
		}
		if _, err := d.Token(); err != nil {
			break
		}
	}
	if n < 2900 {
		t.Fatalf("Row gave %d of 3000 rows", n)
	}
}

// rowReader returns a root table of n rows one row per Read, as a pipe
// fed row by row does, so that the fast path often finds no whole row
// in the buffer.
type rowReader struct {
	n, i int
	buf  []byte
	off  int
}

func (r *rowReader) Read(p []byte) (int, error) {
	if r.off == len(r.buf) {
		r.off = 0
		switch {
		case r.i == 0:
			r.buf = append(strconv.AppendInt(append(r.buf[:0], '['), int64(r.n), 10), "]{id,name}:"...)
		case r.i > r.n:
			return 0, io.EOF
		default:
			r.buf = append(strconv.AppendInt(append(r.buf[:0], "\n  "...), int64(r.i), 10), ",user"...)
		}
		r.i++
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// TestBulkShortReads checks that a table read a row per Read costs no
// allocation per row: a call of the fast path that takes no row keeps
// the room it grew for row starts.
func TestBulkShortReads(t *testing.T) {
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(3, func() {
			d := NewDecoder(&rowReader{n: n, buf: make([]byte, 0, 64)})
			for {
				if _, err := d.Token(); err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					return
				}
			}
		})
	}
	if a, b := allocs(1000), allocs(10000); b > a+10 {
		t.Fatalf("allocations grow with rows: %v for 1000 rows, %v for 10000", a, b)
	}
}

// TestTypeRowsOff checks the test switch of typeRows, on which the
// comparisons of typeRows with bulkLine rest: with it, typeRows takes no
// row; without it, it takes rows wherever it can run.
func TestTypeRowsOff(t *testing.T) {
	data := genBenchTable(200).toon
	took := countTypeRows(t)
	withoutTypeRows(func() {
		if _, err := drain(newBytesDecoder(data, nil)); err != nil {
			t.Fatal(err)
		}
	})
	if *took != 0 {
		t.Fatalf("typeRows took %d rows while off", *took)
	}
	if _, err := drain(newBytesDecoder(data, nil)); err != nil {
		t.Fatal(err)
	}
	if useTypeRows != (*took > 0) {
		t.Fatalf("typeRows took %d rows; useTypeRows %v", *took, useTypeRows)
	}
}

// endLines reads every token of d with Token alone and renders, after
// each end of an array or of an object that is no array's element, the
// line and input offset d reports: nothing asks for the line while the
// rows of a table go by.
func endLines(t *testing.T, d *Decoder) string {
	t.Helper()
	var sb strings.Builder
	var open []Kind
	eachToken(t, d, func(tok Token) {
		switch k := tok.Kind(); k {
		case KindArrayStart, KindObjectStart:
			open = append(open, k)
		case KindArrayEnd, KindObjectEnd:
			open = open[:len(open)-1]
			if k == KindArrayEnd || len(open) == 0 || open[len(open)-1] != KindArrayStart {
				fmt.Fprintf(&sb, "%c@%d:%d ", k, d.Line(), d.InputOffset())
			}
		}
	})
	return sb.String()
}

// eachToken calls f with every token of d, to the end of the document.
func eachToken(t *testing.T, d *Decoder, f func(Token)) {
	t.Helper()
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		f(tok)
	}
}

// TestLineAfterFastRows asks for the line only after the end tokens of
// tables whose rows the fast path takes, and requires the lines and
// offsets of the general path: where the input ends after the rows, the
// end of the table and of the scopes around it come from its last row,
// although no call asked for the line of a row before the queue moved on
// (the fast path does not keep it current); where a line follows, they
// come from that line.
func TestLineAfterFastRows(t *testing.T) {
	var long strings.Builder
	long.WriteString("t[3000]{a,b,c}:\n")
	for i := range 3000 {
		fmt.Fprintf(&long, "  %d,x%d,%d.5\n", i, i, i)
	}
	docs := []string{
		"t[2]{a,b}:\n  1,2\n  3,4\n",
		"t[3]{a,b}:\n  1,2\n  3,4\n  5,6\nn: 1\n",
		"o:\n  t[2]{a,b}:\n    1,2\n    3,4\n",
		"o:\n  t[2]{a,b}:\n    1,2\n    3,4\n  k: v\n",
		"l[2]:\n  - t[2]{a,b}:\n      1,2\n      3,4\n  - t[1]{a,b}:\n      5,6\n",
		long.String(),
		long.String() + "after: 1\n",
	}
	for _, doc := range docs {
		want := endLines(t, withoutFastPath(newBytesDecoder([]byte(doc), nil)))
		for name, d := range map[string]*Decoder{
			"bytes":   newBytesDecoder([]byte(doc), nil),
			"reader":  NewDecoder(bytes.NewReader([]byte(doc))),
			"chunked": NewDecoder(&chunkReader{data: []byte(doc), pattern: []byte{3, 1, 6, 2}}),
		} {
			if got := endLines(t, d); got != want {
				t.Errorf("%s: %.40q:\n got %s\nwant %s", name, doc, got, want)
			}
		}
	}
}

// TestNotValueLine has Skip and Decode meet the end of an object, which
// line runs queued with the line before it: the error names the line of
// that end token, the next one, as on the general path.
func TestNotValueLine(t *testing.T) {
	const doc = "o:\n  a: 1\nb: 2\n"
	for _, runs := range []bool{true, false} {
		for _, call := range []string{"Skip", "Decode"} {
			var err error
			read := func() {
				d := newBytesDecoder([]byte(doc), nil)
				for range 5 { // {, o, {, a, 1
					if _, err := d.Token(); err != nil {
						t.Fatal(err)
					}
				}
				if call == "Skip" {
					err = d.Skip()
				} else {
					var v any
					err = d.Decode(&v)
				}
			}
			if runs {
				read()
			} else {
				withoutLineRuns(read)
			}
			if err == nil || !strings.Contains(err.Error(), "on line 3,") {
				t.Errorf("runs %v, %s: error %v, want one naming line 3", runs, call, err)
			}
		}
	}
}

// TestLineAfterMore calls More after every token and requires Line and
// InputOffset to stay those of the last token returned, though More may
// read the next line, on the general path, with line runs and with the
// fast path; and the lines after each token to be the same on all three.
func TestLineAfterMore(t *testing.T) {
	var long strings.Builder
	long.WriteString("t[300]{a,b}:\n")
	for i := range 300 {
		fmt.Fprintf(&long, "  %d,x%d\n", i, i)
	}
	docs := []string{
		"o:\n  a: 1\n  b: 2\nc: 3\n",
		"o:\n  p:\n    q: 1\n  r: 2\nl[2]: 1,2\n",
		"t[2]{a,b}:\n  1,2\n  3,4\nn: 1\n",
		"l[2]:\n  - a: 1\n    b: 2\n  - a: 3\n",
		long.String() + "after:\n  k: v\n",
	}
	read := func(d *Decoder) string {
		var sb strings.Builder
		eachToken(t, d, func(tok Token) {
			line, off := d.Line(), d.InputOffset()
			d.More()
			if l, o := d.Line(), d.InputOffset(); l != line || o != off {
				t.Fatalf("after %v: More moved Line and InputOffset from %d:%d to %d:%d", tok, line, off, l, o)
			}
			fmt.Fprintf(&sb, "%c@%d:%d ", tok.Kind(), line, off)
		})
		return sb.String()
	}
	for _, doc := range docs {
		var general string
		withoutLineRuns(func() { general = read(withoutFastPath(newBytesDecoder([]byte(doc), nil))) })
		if got := read(newBytesDecoder([]byte(doc), nil)); got != general {
			t.Errorf("%.40q:\n got %s\nwant %s", doc, got, general)
		}
	}
}
