package toon

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

func TestTableValues(t *testing.T) {
	for _, n := range []int{1, -1} {
		var buf bytes.Buffer
		enc := NewEncoder(&buf)
		must(t, enc.BeginTable("", n, "s", "b", "i", "u", "f", "f32", "t", "z", "num", "q"))
		must(t, enc.WriteRow(String("a,b"), Bytes([]byte("x|y")), Int(math.MinInt64), Uint(math.MaxUint64), Float(math.Copysign(0, -1)),
			Float32(0.1), Bool(true), Null(), NumberValue("1.50e1"), Value{}))
		must(t, enc.EndTable())
		want := "[1]{s,b,i,u,f,f32,t,z,num,q}:\n  \"a,b\",x|y,-9223372036854775808,18446744073709551615,0,0.1,true,null,15,null"
		if buf.String() != want {
			t.Fatalf("n=%d:\n got: %q\nwant: %q", n, buf.String(), want)
		}
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf, WithDelimiter(Pipe), WithIndent(4))
	must(t, enc.BeginTable("my table", 3, "a b", "c"))
	must(t, enc.WriteRow(String("a,b"), String("x|y")))
	must(t, enc.WriteRow(Float(math.NaN()), Float(1e21)))
	must(t, enc.WriteRow(String(""), String("-1")))
	must(t, enc.EndTable())
	must(t, enc.Close())
	want := "\"my table\"[3|]{\"a b\"|c}:\n    a,b|\"x|y\"\n    null|1e+21\n    \"\"|\"-1\""
	if buf.String() != want {
		t.Fatalf("pipe:\n got: %q\nwant: %q", buf.String(), want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTableNesting writes tables at the root, in an implicit root object,
// in objects opened with WriteToken and as the first field of list items.
func TestTableNesting(t *testing.T) {
	k := func(s string) Token { return KeyToken([]byte(s)) }
	for _, n := range []int{2, -1} {
		n2 := n
		if n2 > 0 {
			n2 = 1
		}
		var buf bytes.Buffer
		enc := NewEncoder(&buf)
		must(t, enc.BeginTable("users", n, "id", "name"))
		must(t, enc.WriteRow(Int(1), String("Ada")))
		must(t, enc.WriteRow(Int(2), String("Bob")))
		must(t, enc.EndTable())
		must(t, enc.WriteToken(k("meta")))
		must(t, enc.WriteToken(ObjectStartToken()))
		must(t, enc.BeginTable("tags", n2, "t"))
		must(t, enc.WriteRow(String("x")))
		must(t, enc.EndTable())
		must(t, enc.WriteToken(k("items")))
		must(t, enc.WriteToken(ArrayStartToken(2, FormList, 0, nil)))
		must(t, enc.WriteToken(ObjectStartToken()))
		must(t, enc.BeginTable("rows", n2, "a", "b"))
		must(t, enc.WriteRow(Int(1), Bool(false)))
		must(t, enc.EndTable())
		must(t, enc.WriteToken(k("status")))
		must(t, enc.WriteToken(StringToken([]byte("ok"))))
		must(t, enc.WriteToken(ObjectEndToken()))
		must(t, enc.WriteToken(ObjectStartToken()))
		must(t, enc.WriteToken(k("first")))
		must(t, enc.WriteToken(NumberToken([]byte("1"))))
		must(t, enc.BeginTable("second", 0, "a"))
		must(t, enc.EndTable())
		must(t, enc.WriteToken(ObjectEndToken()))
		must(t, enc.WriteToken(ArrayEndToken()))
		must(t, enc.WriteToken(ObjectEndToken()))
		must(t, enc.BeginTable("last", n2, "v"))
		must(t, enc.WriteRow(Int(9)))
		must(t, enc.EndTable())
		must(t, enc.Close())
		want := `users[2]{id,name}:
  1,Ada
  2,Bob
meta:
  tags[1]{t}:
    x
  items[2]:
    - rows[1]{a,b}:
        1,false
      status: ok
    - first: 1
      second[0]{a}:
last[1]{v}:
  9`
		if buf.String() != want {
			t.Fatalf("n=%d:\n got: %q\nwant: %q", n, buf.String(), want)
		}
	}
	// An explicit root object, closed by a token.
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	must(t, enc.WriteToken(ObjectStartToken()))
	must(t, enc.BeginTable("", 1, "a")) // the empty key is a field here
	must(t, enc.WriteRow(Int(1)))
	must(t, enc.EndTable())
	must(t, enc.WriteToken(ObjectEndToken()))
	if err := enc.BeginTable("x", 1, "a"); !errors.Is(err, ErrComplete) {
		t.Fatalf("BeginTable after the document: %v", err)
	}
	if want := "\"\"[1]{a}:\n  1"; buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
}

func TestTableErrors(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := enc.WriteRow(Int(1)); err == nil {
		t.Fatal("WriteRow without a table")
	}
	if err := enc.EndTable(); err == nil {
		t.Fatal("EndTable without a table")
	}
	if err := enc.BeginTable("t", 1); err == nil {
		t.Fatal("no fields")
	}
	if err := enc.BeginTable("t", 1, "a", "b", "a"); err == nil || !strings.Contains(err.Error(), "repeated field") {
		t.Fatalf("repeated field: %v", err)
	}
	must(t, enc.BeginTable("orders", 2, "a", "b"))
	if err := enc.BeginTable("u", 1, "a"); err == nil {
		t.Fatal("nested BeginTable")
	}
	if err := enc.WriteToken(NullToken()); err == nil {
		t.Fatal("WriteToken inside a table")
	}
	err := enc.WriteRow(Int(1))
	var te *TableError
	if !errors.As(err, &te) || !errors.Is(err, ErrWidth) || te.Table != "orders" || !strings.Contains(err.Error(), `table "orders"`) {
		t.Fatalf("width error: %v", err)
	}
	if err := enc.WriteRow(Int(1), NumberValue("1.")); err == nil || !strings.Contains(err.Error(), "invalid number") {
		t.Fatalf("bad number: %v", err)
	}
	must(t, enc.WriteRow(Int(1), Int(2))) // errors above were not sticky
	must(t, enc.WriteRow(Int(3), Int(4)))
	if err := enc.WriteRow(Int(5), Int(6)); !errors.Is(err, ErrCount) || !strings.Contains(err.Error(), `"orders"`) {
		t.Fatalf("too many rows: %v", err)
	}
	must(t, enc.EndTable())
	must(t, enc.Close())
	if want := "orders[2]{a,b}:\n  1,2\n  3,4"; buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}

	// Too few rows: a sticky error naming the table, and the header with
	// the wrong count never reaches the writer.
	buf.Reset()
	enc = NewEncoder(&buf)
	must(t, enc.BeginTable("", 3, "a"))
	must(t, enc.WriteRow(Int(1)))
	err = enc.EndTable()
	if !errors.Is(err, ErrCount) || !strings.Contains(err.Error(), "root table") || !strings.Contains(err.Error(), "want 3 rows, got 1") {
		t.Fatalf("too few rows: %v", err)
	}
	if err2 := enc.Close(); err2 != err {
		t.Fatalf("Close: %v", err2)
	}
	if buf.Len() != 0 {
		t.Fatalf("output after a count error: %q", buf.String())
	}

	// BeginTable where no field can begin.
	for _, toks := range [][]Token{
		{ObjectStartToken(), KeyToken([]byte("k"))},
		{ArrayStartToken(1, FormList, 0, nil)},
		{NullToken()},
	} {
		enc := NewEncoder(io.Discard)
		for _, tk := range toks {
			must(t, enc.WriteToken(tk))
		}
		if err := enc.BeginTable("t", 1, "a"); err == nil {
			t.Fatalf("BeginTable after %v succeeded", toks)
		}
	}
	// Encode after a table has begun.
	enc = NewEncoder(io.Discard)
	must(t, enc.BeginTable("t", -1, "a"))
	if err := enc.Encode(1); err == nil {
		t.Fatal("Encode inside a table")
	}
	if err := enc.Close(); err == nil || !strings.Contains(err.Error(), "still open") {
		t.Fatalf("Close with an open table: %v", err)
	}
}

// tableRows generates n deterministic rows of mixed values.
func tableRows(r *rand.Rand, n int) [][]Value {
	rows := make([][]Value, n)
	words := []string{"alpha", "beta, gamma", "x|y", "", "true", "-3", "a\tb", "quote\"d", "ünï", "#tag"}
	for i := range rows {
		rows[i] = []Value{Int(int64(i)), String(words[r.Intn(len(words))]), Float(float64(r.Intn(100000)) / 100), Bool(r.Intn(2) == 0), Null()}
	}
	return rows
}

func rowsAsValue(rows [][]Value) []any {
	var a []any
	for _, r := range rows {
		o := Object{}
		for j, c := range r {
			o = append(o, Member{Key: "c" + strconv.Itoa(j), Value: c})
		}
		a = append(a, o)
	}
	return a
}

// TestTableMatchesMarshal streams tables of known and unknown length, the
// latter in memory and spilled to a file, and compares them with Marshal
// of the same rows as generic values.
func TestTableMatchesMarshal(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, size := range []int{0, 1, 7, 5000} {
		rows := tableRows(r, size)
		fields := []string{"c0", "c1", "c2", "c3", "c4"}
		for _, d := range []Delimiter{Comma, Tab, Pipe} {
			want, err := Marshal(Object{{"t", rowsAsValue(rows)}, {"after", 1}}, WithDelimiter(d))
			if err != nil {
				t.Fatal(err)
			}
			if size == 0 { // Marshal writes an empty array as "t: []"
				want = bytes.Replace(want, []byte("t: []"), []byte("t[0"+strings.TrimSuffix(string(d), ",")+"]{"+strings.Join(fields, string(d))+"}:"), 1)
			}
			for _, mode := range []struct {
				n      int
				budget int64
			}{{size, 64 << 20}, {-1, 64 << 20}, {-1, 100 << 10}, {-1, 1000}, {-1, 0}} {
				dir := t.TempDir()
				w := &chunkWriter{}
				enc := NewEncoder(w, WithDelimiter(d), WithTableBudget(mode.budget), WithTempDir(dir))
				must(t, enc.BeginTable("t", mode.n, fields...))
				for _, row := range rows {
					must(t, enc.WriteRow(row...))
					if ents, _ := os.ReadDir(dir); len(ents) != 0 && !tempNamesLinger {
						t.Fatalf("temporary file visible while the table is open: %v", ents[0].Name())
					}
				}
				must(t, enc.EndTable())
				must(t, enc.WriteToken(KeyToken([]byte("after"))))
				must(t, enc.WriteToken(NumberToken([]byte("1"))))
				must(t, enc.Close())
				if !bytes.Equal(w.buf.Bytes(), want) {
					t.Fatalf("size %d, delim %q, n %d, budget %d: table output differs from Marshal\n got: %.300q\nwant: %.300q",
						size, d, mode.n, mode.budget, w.buf.Bytes(), want)
				}
				if ents, _ := os.ReadDir(dir); len(ents) != 0 {
					t.Fatalf("temporary file left behind: %s", ents[0].Name())
				}
			}
		}
	}
}

// tempNamesLinger is set where an open file's name cannot be removed, so
// the temporary file stays visible until the table ends.
var tempNamesLinger = os.PathSeparator == '\\'

// TestTableSpillCleanup checks that the temporary file goes away when the
// table ends in an error, on Close and on Reset.
func TestTableSpillCleanup(t *testing.T) {
	row := []Value{String(strings.Repeat("x", 100))}
	for _, end := range []string{"close", "reset", "write error", "count"} {
		dir := t.TempDir()
		w := &failWriter{limit: 1 << 30}
		if end == "write error" {
			w.limit = 10
		}
		enc := NewEncoder(w, WithTableBudget(1000), WithTempDir(dir))
		must(t, enc.BeginTable("t", -1, "v"))
		for i := 0; i < 2000; i++ {
			must(t, enc.WriteRow(row...))
		}
		if enc.tbl.file == nil {
			t.Fatal("the table did not spill")
		}
		switch end {
		case "close":
			if err := enc.Close(); err == nil {
				t.Fatal("Close with an open table succeeded")
			}
		case "reset":
			enc.Reset(io.Discard)
		case "write error":
			if err := enc.EndTable(); !errors.Is(err, errBoom) {
				t.Fatalf("EndTable: %v", err)
			}
		case "count":
			enc.tbl.n = 5 // as if declared: EndTable must fail and clean up
			if err := enc.EndTable(); !errors.Is(err, ErrCount) {
				t.Fatalf("EndTable: %v", err)
			}
		}
		if enc.tbl.file != nil || len(enc.tbl.chunks) != 0 || enc.tbl.holding {
			t.Fatalf("%s: table resources kept", end)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("%s: temporary file left behind", end)
		}
	}
	// A temporary directory that does not exist is a sticky error, met
	// when the rows first leave the output buffer.
	enc := NewEncoder(io.Discard, WithTableBudget(10), WithTempDir(t.TempDir()+"/missing"))
	must(t, enc.BeginTable("t", -1, "v"))
	var err error
	for i := 0; i < 2000 && err == nil; i++ {
		err = enc.WriteRow(row...)
	}
	if err == nil {
		t.Fatal("spill to a missing directory succeeded")
	}
	if err2 := enc.EndTable(); err2 != err {
		t.Fatalf("EndTable after a spill error: %v, want %v", err2, err)
	}
}

// TestWriteRowAllocs enforces zero allocations per row, for tables of known
// and unknown length.
func TestWriteRowAllocs(t *testing.T) {
	name := []byte("Grace Hopper")
	for _, n := range []int{1 << 30, -1} {
		enc := NewEncoder(io.Discard)
		must(t, enc.BeginTable("t", n, "id", "name", "email", "ok", "price", "qty", "country", "ts", "score"))
		i := int64(0)
		allocs := testing.AllocsPerRun(20000, func() {
			i++
			err := enc.WriteRow(Int(i), Bytes(name), String("grace@example.com"), Bool(i%2 == 0), Float(float64(i)/100),
				Uint(uint64(i%7)), String("US, East"), String("2024-01-02T03:04:05Z"), Float(0.125))
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Fatalf("n=%d: %v allocations per row", n, allocs)
		}
	}
}

// refCell is a cell's text by the general paths alone, none of which
// appendRowCells's inline code shares: refAppendStr for strings, strconv
// for integers, refFloat for floats.
func refCell(c Value, d Delimiter) string {
	switch c.kind() {
	case vString:
		return refAppendStr(c.str(), d)
	case vInt:
		return strconv.FormatInt(int64(c.u), 10)
	case vUint:
		return strconv.FormatUint(c.u, 10)
	case vFloat:
		return refFloat(math.Float64frombits(c.u))
	case vFloat32:
		return strconv.FormatFloat(math.Float64frombits(c.u), 'f', -1, 32)
	case vBool:
		return strconv.FormatBool(c.u != 0)
	case vNumber:
		b, _ := appendNumber(nil, []byte(c.str()))
		return string(b)
	}
	return "null"
}

// randomCell returns a Value aimed at appendRowCells's inline paths and
// their edges: strings of 0 to 40 bytes over an alphabet of the bytes that
// matter (so every length class, and words that force quotes, escapes or
// a closer look), integers at every digit count and sign, floats from
// floatCases, and the other kinds.
func randomCell(r *rand.Rand, floats []float64) Value {
	alphabet := []string{"a", "Z", "0", "7", "+", "-", ".", "e", "#", " ", "\t", "\n", "\x00", "\x7f", ":", ",", "|",
		"\"", "\\", "[", "]", "{", "}", "é", "\xff", "t", "f", "n", "true", "false", "null", "@", "x", "y", "q", "w"}
	switch r.Intn(8) {
	case 0, 1, 2:
		var sb strings.Builder
		n := r.Intn(41)
		for sb.Len() < n {
			if r.Intn(4) == 0 {
				sb.WriteString(alphabet[r.Intn(len(alphabet))])
			} else {
				sb.WriteByte(byte('a' + r.Intn(26)))
			}
		}
		s := sb.String()
		if len(s) > n && r.Intn(2) == 0 {
			s = s[:n] // may cut UTF-8 in two
		}
		return String(s)
	case 3:
		i := r.Int63() >> r.Intn(64)
		if r.Intn(2) == 0 {
			i = -i
		}
		if r.Intn(50) == 0 {
			i = math.MinInt64
		}
		return Int(i)
	case 4, 5:
		return Float(floats[r.Intn(len(floats))])
	case 6:
		return Bool(r.Intn(2) == 0)
	}
	return []Value{Null(), Uint(r.Uint64()), Float32(r.Float32()), NumberValue("1.50e1"), String("12"), String("+1"), String("1e5x")}[r.Intn(7)]
}

// TestRowCellsMatchReference compares appendRowCells, the inline row
// writer, with the general path of every cell, on random rows of up to
// 100 cells, for every delimiter and several indentations, appending to
// buffers of every spare capacity from none to more than a row, and
// nothing past it.
func TestRowCellsMatchReference(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	floats := floatCases(r)
	for k, n := 0, longtest.Size(t, 20000, 200000); k < n; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		indent := []int{0, 1, 2, 7, 8, 9, 200}[r.Intn(7)]
		cells := make([]Value, 1+r.Intn(12))
		if r.Intn(20) == 0 { // more cells than putCells takes at once
			cells = make([]Value, 1+r.Intn(100))
		}
		for i := range cells {
			cells[i] = randomCell(r, floats)
		}
		want := "xy\n" + strings.Repeat(" ", indent)
		for i, c := range cells {
			if i > 0 {
				want += string(byte(d))
			}
			want += refCell(c, d)
		}
		var rs rowStyle
		rs.set(indent, d)
		// b's capacity ends where a guard of 64 bytes begins, which
		// nothing may write.
		c := 2 + r.Intn(600)
		back := bytes.Repeat([]byte{0xAA}, c+64)
		b := append(back[:0:c], "xy"...)
		got, bad := appendRowCells(b, cells, &rs)
		if bad >= 0 || string(got) != want {
			t.Fatalf("row %q (%q, indent %d), spare %d:\n got: %q (%d)\nwant: %q", cells, d, indent, cap(b)-2, got, bad, want)
		}
		if g := back[c:]; !bytes.Equal(g, bytes.Repeat([]byte{0xAA}, 64)) {
			t.Fatalf("row %q, spare %d: written past the capacity: %q", cells, c-2, g)
		}
	}
	// putCells alone, given room for as many cells of maxCell bytes as
	// fit in end bytes, and a guard right after them: it writes what it
	// can of those cells, and nothing past end.
	for k, n := 0, longtest.Size(t, 2000, 20000); k < n; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		cells := make([]Value, 1+r.Intn(12))
		for i := range cells {
			cells[i] = randomCell(r, floats)
		}
		var rs rowStyle
		rs.set(2, d)
		end := r.Intn((len(cells) + 1) * maxCell)
		cells = cells[:min(len(cells), end/maxCell)]
		back := bytes.Repeat([]byte{0xAA}, end+64)
		o, n := putCells(mem.Of(&back[0]), 0, cells, rs.dw)
		want := ""
		for _, c := range cells[:n] {
			want += refCell(c, d) + string(byte(d))
		}
		if string(back[:o]) != want {
			t.Fatalf("putCells(%q) with room %d: %q, want %q", cells, end, back[:o], want)
		}
		if g := back[end:]; !bytes.Equal(g, bytes.Repeat([]byte{0xAA}, 64)) {
			t.Fatalf("putCells(%q) with room %d wrote past it: %q", cells, end, g)
		}
	}
	// And it does write the shapes it is for, given room.
	common := []Value{Int(1000001), String("Ada Lovelace"), String("Ada.Lovelace1@example.com"), Bool(true), Float(123.45),
		Int(-7), String("Korea, Republic of"), String("2024-03-05T12:34:56Z"), Float(0.1234), Bool(false), String("true"),
		String(""), String("abc"), String("-x"), Int(-1234567890123456), Float(-1e-6), Float(9999999.99999999),
		// Text that is not ASCII, and text that starts as a number does:
		// written here, plain or quoted, not left to appendCell.
		String("Jürgen Müller"), String("東京"), String("Grüße aus München 🍺"), String("Łódź, Polska"), String("Зд:"),
		String("2025-05-09"), String("1.12.3"), String("007"), String("+1 555 0142"), String("1000-AB"), String("1e5"),
		String("12.5E-3x"), String("4001234567890"), String("-1.5"), String("+2.50e+10"), String("3."), String("1e"),
		String("ab\"cd")}
	var buf [1024]byte
	if _, n := putCells(mem.Of(&buf), 0, common, delimWords[1]); n != len(common)-1 {
		t.Fatalf("putCells wrote %d of the %d common cells", n, len(common)-1)
	}
	// A malformed NumberValue is reported by its index.
	var rs rowStyle
	rs.set(2, Comma)
	if _, bad := appendRowCells(nil, []Value{Int(1), String("a"), NumberValue("1x"), Int(2)}, &rs); bad != 2 {
		t.Fatalf("malformed NumberValue: index %d, want 2", bad)
	}
}

// TestWriteRowMatchesReference writes random rows with WriteRow, whose
// fast path (putRow) writes a whole row with one call of putCells, and
// compares the document with one built cell by cell by the general paths
// (refCell): for every delimiter, indentations that fit putRow's one-word
// lead and ones that do not, rows wider than putCells takes at once, and
// rows with cells left to appendCell.
func TestWriteRowMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	floats := floatCases(r)
	for k, n := 0, longtest.Size(t, 400, 3000); k < n; k++ {
		d := []Delimiter{Comma, Tab, Pipe}[r.Intn(3)]
		indent := []int{1, 2, 4, 7, 8, 9}[r.Intn(6)]
		width := 1 + r.Intn(12)
		if r.Intn(10) == 0 {
			width = 25 + r.Intn(20) // around putRow's limit of 31 cells
		}
		rows := 1 + r.Intn(40)
		fields := make([]string, width)
		for i := range fields {
			fields[i] = "f" + strconv.Itoa(i)
		}
		want := "t[" + strconv.Itoa(rows)
		if d != Comma {
			want += string(byte(d))
		}
		want += "]{" + strings.Join(fields, string(byte(d))) + "}:"
		cells := make([][]Value, rows)
		for k := range cells {
			cells[k] = make([]Value, width)
			want += "\n" + strings.Repeat(" ", indent)
			for i := range cells[k] {
				cells[k][i] = randomCell(r, floats)
				if i > 0 {
					want += string(byte(d))
				}
				want += refCell(cells[k][i], d)
			}
		}
		if got := writeTableRows(t, fields, cells, WithDelimiter(d), WithIndent(indent)); got != want {
			t.Fatalf("delimiter %q, indent %d, width %d:\n got: %q\nwant: %q", d, indent, width, got, want)
		}
	}
}

// FuzzWriteRow writes a row of cells made from the fuzzer's values with
// WriteRow, and requires each cell's reference text (refCell: strconv for
// the numbers, refAppendStr for the strings): strings of the fuzzer's
// bytes and their two parts, in place and copied, floats as given and
// cut to at most 2 and 4 fraction digits (the shapes of the fast float
// paths), an integer, a boolean and unsigned integers, with every
// delimiter; and each row kernel's text of the same cells (checkRowWriter).
func FuzzWriteRow(f *testing.F) {
	f.Add([]byte("Ada Lovelace"), 123.45, 0.1234, int64(1000001), uint8(3))
	f.Add([]byte("2024-03-05T12:34:56Z"), -1e-6, 9999.99995, int64(-7), uint8(17))
	f.Add([]byte("Korea, Republic of"), 1e21, 0.1+0.2, int64(math.MinInt64), uint8(200))
	f.Add([]byte("tru\x00e\"\\\xff é|\t"), math.Copysign(0, -1), 1e4, int64(9999), uint8(1))
	f.Fuzz(func(t *testing.T, s []byte, f1, f2 float64, i int64, cfg uint8) {
		d := []Delimiter{Comma, Tab, Pipe}[cfg%3]
		k := int(cfg) % (len(s) + 1)
		cells := []Value{String(string(s)), Float(f1), Int(i), Bytes(s[k:]), Float(f2),
			Float(math.Trunc(f1*1e4) / 1e4), Float(math.Trunc(f2*100) / 100), String(string(s[:k])), Bool(cfg&8 != 0),
			Uint(uint64(i)), Uint(uint64(i) >> (cfg % 64))}
		fields := make([]string, len(cells))
		want := "t[1"
		if d != Comma {
			want += string(byte(d))
		}
		for j := range fields {
			fields[j] = "f" + strconv.Itoa(j)
		}
		want += "]{" + strings.Join(fields, string(byte(d))) + "}:\n  "
		for j, c := range cells {
			if j > 0 {
				want += string(byte(d))
			}
			want += refCell(c, d)
		}
		if got := writeTableRows(t, fields, [][]Value{cells}, WithDelimiter(d)); got != want {
			t.Fatalf("delimiter %q:\n got: %q\nwant: %q", d, got, want)
		}
		// Each row kernel called directly: the writer above takes only
		// the one the CPU prefers.
		for _, rk := range rowKernels() {
			checkRowWriter(t, rk.name, cells, d, func(p unsafe.Pointer, cells []Value) (int, int) {
				return rk.put(p, cells, delimWord(quoteMask(d)))
			})
		}
	})
}

// writeTableRows writes a document of one table, "t", of the given fields
// and rows with WriteRow, and returns it.
func writeTableRows(t testing.TB, fields []string, rows [][]Value, opts ...Option) string {
	var out bytes.Buffer
	enc := NewEncoder(&out, opts...)
	if err := enc.BeginTable("t", len(rows), fields...); err != nil {
		t.Fatal(err)
	}
	for _, cells := range rows {
		if err := enc.WriteRow(cells...); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.EndTable(); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// lineCounter counts the bytes and lines written to it, and keeps the
// first line.
type lineCounter struct {
	n, lines int64
	first    []byte
}

func (w *lineCounter) Write(p []byte) (int, error) {
	if w.lines == 0 {
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			w.first = append(w.first, p[:i]...)
		} else {
			w.first = append(w.first, p...)
		}
	}
	w.n += int64(len(p))
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// TestTableBudgetMemory writes 50 MB of rows to tables of unknown length
// with budgets of 1 and 8 MiB: the bytes allocated while writing stay
// within the budget plus a few buffers (the rows beyond it go through the
// temporary file), and the output has every row under the right header.
func TestTableBudgetMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const rows = 500_000
	row := []Value{Int(0), String(strings.Repeat("x", 90))}
	for _, budget := range []int64{1 << 20, 8 << 20} {
		var w lineCounter
		enc := NewEncoder(&w, WithTableBudget(budget), WithTempDir(t.TempDir()))
		var before, held, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		must(t, enc.BeginTable("t", -1, "i", "s"))
		for i := 0; i < rows; i++ {
			row[0] = Int(int64(i))
			must(t, enc.WriteRow(row...))
		}
		runtime.ReadMemStats(&held)
		if enc.tbl.file == nil {
			t.Fatalf("budget %d: the rows did not spill", budget)
		}
		must(t, enc.EndTable())
		must(t, enc.Close())
		runtime.ReadMemStats(&after)
		slack := uint64(1 << 20) // the output buffer, a chunk, the file's bookkeeping
		if a := held.TotalAlloc - before.TotalAlloc; a > uint64(budget)+slack {
			t.Errorf("budget %d: %d bytes allocated while writing %d rows", budget, a, rows)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > uint64(budget)+slack {
			t.Errorf("budget %d: %d bytes allocated in all", budget, a)
		}
		t.Logf("budget %d: %d bytes allocated while writing, %d in all", budget, held.TotalAlloc-before.TotalAlloc, after.TotalAlloc-before.TotalAlloc)
		if string(w.first) != "t[500000]{i,s}:" || w.lines != rows || w.n < rows*93 {
			t.Errorf("budget %d: first line %q, %d lines, %d bytes", budget, w.first, w.lines, w.n)
		}
	}
}

// TestTableFlushWhileHeld checks that Flush during a table of unknown
// length writes the output before the table, and none of its rows.
func TestTableFlushWhileHeld(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	must(t, enc.WriteToken(ObjectStartToken()))
	must(t, enc.WriteToken(KeyToken([]byte("a"))))
	must(t, enc.WriteToken(NumberToken([]byte("1"))))
	must(t, enc.BeginTable("t", -1, "x"))
	must(t, enc.WriteRow(Int(1)))
	must(t, enc.Flush())
	if buf.String() != "a: 1" {
		t.Fatalf("after Flush: %q", buf.String())
	}
	must(t, enc.WriteRow(Int(2)))
	must(t, enc.EndTable())
	must(t, enc.WriteToken(ObjectEndToken()))
	must(t, enc.Close())
	if want := "a: 1\nt[2]{x}:\n  1\n  2"; buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
}
