package toon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

type rRow struct {
	ID    int     `toon:"id"`
	Name  string  `toon:"name"`
	OK    bool    `toon:"ok"`
	Score float64 `toon:"score"`
}

func TestRowsRootTable(t *testing.T) {
	in := "[3]{id,name,ok,score}:\n  1,a,true,0.5\n  2,\"b,c\",false,-1\n  3,\"\",true,1e3"
	var got []rRow
	for r, err := range Rows[rRow](NewDecoder(iotest.OneByteReader(strings.NewReader(in)))) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []rRow{{1, "a", true, 0.5}, {2, "b,c", false, -1}, {3, "", true, 1000}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

// TestRowsFieldTables reads two tables that are fields of the root object,
// positioning the decoder with Token, and the field after them.
func TestRowsFieldTables(t *testing.T) {
	in := "first[2]{id,name}:\n  1,a\n  2,b\nsecond[2]:\n  - id: 3\n    extra: x\n  - name: d\nafter: 9"
	d := NewDecoder(strings.NewReader(in))
	expect := func(k Kind, text string) {
		t.Helper()
		tok, err := d.Token()
		if err != nil || tok.Kind() != k || text != "" && tok.String() != text {
			t.Fatalf("got %v %q, %v; want %v %q", tok.Kind(), tok.String(), err, k, text)
		}
	}
	expect(KindObjectStart, "")
	expect(KindKey, "first")
	var first []rRow
	for r, err := range Rows[rRow](d) {
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, r)
	}
	expect(KindKey, "second")
	rd := NewRowDecoder[*rRow](d)
	var second []*rRow
	for {
		var r *rRow
		err := rd.Next(&r)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		second = append(second, r)
	}
	if err := rd.Next(new(*rRow)); err != io.EOF {
		t.Errorf("Next after the end: %v", err)
	}
	expect(KindKey, "after")
	expect(KindNumber, "9")
	expect(KindObjectEnd, "")
	if !reflect.DeepEqual(first, []rRow{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}}) ||
		len(second) != 2 || *second[0] != (rRow{ID: 3}) || *second[1] != (rRow{Name: "d"}) {
		t.Errorf("got %+v %+v", first, second)
	}
}

func TestRowsErrors(t *testing.T) {
	// A mismatch is reported with its row, and the rows go on.
	in := "[3]{id,name}:\n  1,a\n  x,b\n  3,c"
	var ids []int
	var errs []error
	for r, err := range Rows[rRow](NewDecoder(strings.NewReader(in))) {
		ids = append(ids, r.ID)
		errs = append(errs, err)
	}
	var ute *UnmarshalTypeError
	if !slices.Equal(ids, []int{1, 0, 3}) || errs[0] != nil || !errors.As(errs[1], &ute) || ute.Line != 3 || ute.Column != 3 || errs[2] != nil {
		t.Errorf("ids %v errs %v", ids, errs)
	}
	// A syntax error stops the rows.
	in = "[3]{id,name}:\n  1,a\n  2,\"b\n  3,c"
	n := 0
	var last error
	for _, err := range Rows[rRow](NewDecoder(strings.NewReader(in))) {
		n++
		last = err
	}
	var se *SyntaxError
	if n != 2 || !errors.As(last, &se) || se.Line != 3 {
		t.Errorf("%d rows, last error %v", n, last)
	}
	// Not at an array.
	rd := NewRowDecoder[rRow](NewDecoder(strings.NewReader("a: 1")))
	var r rRow
	if err := rd.Next(&r); !errors.As(err, &ute) || ute.Value != "object" {
		t.Errorf("got %v", err)
	}
	if err := rd.Next(&r); !errors.As(err, &ute) {
		t.Errorf("not sticky: %v", err)
	}
	// Unknown fields are reported with the first row.
	rd = NewRowDecoder[rRow](NewDecoder(strings.NewReader("[1]{id,zz}:\n  1,2"), DisallowUnknownFields()))
	var ufe *UnknownFieldError
	if err := rd.Next(&r); !errors.As(err, &ufe) || ufe.Key != "zz" || r.ID != 1 {
		t.Errorf("got %v, %+v", err, r)
	}
	if err := rd.Next(&r); err != io.EOF {
		t.Errorf("got %v", err)
	}
	// A table with fewer rows than declared, at the end of the input and
	// before another field: the count error comes at the end of the rows.
	for _, in := range []string{"rows[2]{id}:\n  1", "rows[2]{id}:\n  1\nnext: 2"} {
		d := NewDecoder(strings.NewReader(in))
		d.Token()
		d.Token()
		rd = NewRowDecoder[rRow](d)
		if err := rd.Next(&r); err != nil {
			t.Fatal(err)
		}
		if err := rd.Next(&r); !errors.Is(err, ErrCount) {
			t.Errorf("%q: got %v", in, err)
		}
	}
}

// zRow has only fields whose decoding allocates nothing, and a
// low-cardinality string, interned.
type zRow struct {
	ID      int64   `toon:"id"`
	Qty     uint16  `toon:"qty"`
	Active  bool    `toon:"active"`
	Price   float64 `toon:"price"`
	Ratio   float32 `toon:"ratio"`
	Country string  `toon:"country"`
	Nested  struct {
		X int8 `toon:"x"`
	} `toon:"nested"`
}

func zTable(rows int) []byte {
	var b bytes.Buffer
	b.WriteString("[" + strconv.Itoa(rows) + "]{id,qty,active,price,ratio,country,nested{x}}:\n")
	countries := []string{"DK", "UK", "US", "NL"}
	for i := 0; i < rows; i++ {
		b.WriteString("  " + strconv.Itoa(i) + "," + strconv.Itoa(i%500) + "," + strconv.FormatBool(i%3 == 0) + "," +
			strconv.FormatFloat(float64(i)/8, 'f', -1, 64) + ",0.25," + countries[i%4] + "," + strconv.Itoa(i%100) + "\n")
	}
	return b.Bytes()
}

// TestRowDecoderZeroAlloc enforces zero allocations per row decoded into a
// reused struct, from a reader and from memory.
func TestRowDecoderZeroAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data := zTable(30000)
	for _, name := range []string{"reader", "bytes"} {
		var d *Decoder
		if name == "reader" {
			d = NewDecoder(bytes.NewReader(data), InternStrings())
		} else {
			d = newBytesDecoder(data, []Option{InternStrings()})
		}
		rd := NewRowDecoder[zRow](d)
		var v zRow
		var err error
		for i := 0; i < 10; i++ { // warm up: plans, buffers, the intern table
			if err = rd.Next(&v); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(20000, func() {
			if err = rd.Next(&v); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per row", name, allocs)
		}
		if v.Country == "" || v.Ratio != 0.25 {
			t.Errorf("%s: last row %+v", name, v)
		}
	}
}

func TestWriteRowsMatchesMarshal(t *testing.T) {
	rows := []rRow{{1, "a", true, 0.5}, {2, "b,c", false, -1}, {3, "", true, 1e21}}
	want, _ := Marshal(rows)
	for _, n := range []int{3, -1} {
		var b bytes.Buffer
		e := NewEncoder(&b)
		if err := WriteRows(e, "", n, slices.Values(rows)); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("n=%d: got\n%s\nwant\n%s", n, b.String(), want)
		}
	}
	// As fields of an object, from pointers, with primitive-like types.
	type tRow struct {
		At  time.Time `toon:"at"`
		P   *int      `toon:"p"`
		N   Number    `toon:"n"`
		Raw []byte    `toon:"raw"`
		U   uint8     `toon:"u"`
	}
	one := 1
	trs := []*tRow{{At: time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC), P: &one, N: "1.50", Raw: []byte("x"), U: 7}, {N: "0"}}
	var b bytes.Buffer
	e := NewEncoder(&b)
	if err := WriteRows(e, "a", 2, slices.Values(trs)); err != nil {
		t.Fatal(err)
	}
	if err := WriteRows(e, "b", -1, slices.Values(rows[:1])); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want, _ = Marshal(struct {
		A []*tRow `toon:"a"`
		B []rRow  `toon:"b"`
	}{trs, rows[:1]})
	if b.String() != string(want) {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteRowsErrors(t *testing.T) {
	e := NewEncoder(io.Discard)
	if err := WriteRows(e, "", -1, slices.Values([]int{1})); err == nil {
		t.Error("WriteRows of ints: no error")
	}
	type withPtr struct {
		A int     `toon:"a"`
		P *mPoint `toon:"p"` // nil would be null: not a uniform column
	}
	if err := WriteRows(e, "", -1, slices.Values([]withPtr{{}})); err == nil || !strings.Contains(err.Error(), "field p is neither") {
		t.Errorf("WriteRows of a pointer to a struct: %v", err)
	}
	type withSlice struct {
		A  int `toon:"a"`
		In struct {
			L []int `toon:"l"`
		} `toon:"in"`
	}
	if err := WriteRows(e, "", -1, slices.Values([]withSlice{{}})); err == nil || !strings.Contains(err.Error(), "field l is neither") {
		t.Errorf("WriteRows of a slice in a group: %v", err)
	}
	type withEmpty struct {
		A int      `toon:"a"`
		E struct{} `toon:"e"`
	}
	if err := WriteRows(e, "", -1, slices.Values([]withEmpty{{}})); err == nil {
		t.Error("WriteRows of an empty struct field: no error")
	}
	if err := WriteRows(e, "", -1, slices.Values([]*rRow{nil})); err == nil {
		t.Error("WriteRows of a nil row: no error")
	}
	e = NewEncoder(io.Discard)
	if err := WriteRows(e, "", 1, slices.Values([]rRow{{}, {}})); err == nil {
		t.Error("more rows than declared: no error")
	}
}

// TestRowsRoundTrip streams rows out with WriteRows and back with Rows.
func TestRowsRoundTrip(t *testing.T) {
	var seq iter.Seq[rRow] = func(yield func(rRow) bool) {
		for i := 0; i < 5000; i++ {
			if !yield(rRow{i, "n" + strconv.Itoa(i%7), i%2 == 0, float64(i) / 3}) {
				return
			}
		}
	}
	var b bytes.Buffer
	e := NewEncoder(&b, WithDelimiter(Pipe))
	if err := WriteRows(e, "rows", -1, seq); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(&b)
	d.Token()
	d.Token()
	i := 0
	for r, err := range Rows[rRow](d) {
		if err != nil {
			t.Fatal(err)
		}
		if want := (rRow{i, "n" + strconv.Itoa(i%7), i%2 == 0, float64(i) / 3}); r != want {
			t.Fatalf("row %d: got %+v, want %+v", i, r, want)
		}
		i++
	}
	if i != 5000 {
		t.Errorf("%d rows", i)
	}
}

// TestWriteRowsAllocs checks that WriteRows allocates nothing per row: a
// table of 20,000 rows costs as many allocations as one of 10.
func TestWriteRowsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rows := make([]rRow, 20000)
	for i := range rows {
		rows[i] = rRow{i, "name", i%2 == 0, float64(i) / 4}
	}
	cost := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			e := NewEncoder(io.Discard)
			if err := WriteRows(e, "", n, slices.Values(rows[:n])); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := cost(10), cost(len(rows))
	if large > small {
		t.Errorf("10 rows: %v allocations; %d rows: %v", small, len(rows), large)
	}
}

// TestRowsShortTableZero checks that a table that ends short yields the
// count error with the zero value, not the last row again.
func TestRowsShortTableZero(t *testing.T) {
	for _, in := range []string{"[3]{id,name}:\n  1,a\n  2,b", "rows[3]{id,name}:\n  1,a\n  2,b\nnext: 1"} {
		d := NewDecoder(strings.NewReader(in))
		if strings.HasPrefix(in, "rows") {
			d.Token()
			d.Token()
		}
		var got []rRow
		var errs []error
		for r, err := range Rows[rRow](d) {
			got = append(got, r)
			errs = append(errs, err)
		}
		want := []rRow{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}, {}}
		if !reflect.DeepEqual(got, want) || errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], ErrCount) {
			t.Errorf("%q: rows %+v, errors %v", in, got, errs)
		}
	}
	// RowDecoder.Next leaves its argument zero on the error too.
	d := NewDecoder(strings.NewReader("[2]{id}:\n  5"))
	rd := NewRowDecoder[rRow](d)
	var r rRow
	if err := rd.Next(&r); err != nil || r.ID != 5 {
		t.Fatalf("first row: %+v, %v", r, err)
	}
	if err := rd.Next(&r); !errors.Is(err, ErrCount) || r != (rRow{}) {
		t.Errorf("after the short table: %+v, %v", r, err)
	}
}

// Row types with nested field groups for TestWriteRowsNested.
type (
	wCustomer struct {
		Name    string `json:"name"`
		Country string `json:"country"`
	}
	wOrder struct {
		ID       int       `json:"id"`
		Customer wCustomer `json:"customer"`
		Total    float64   `json:"total"`
	}
	wDeep struct {
		K   string `toon:"k"`
		Mid struct {
			At   time.Time `toon:"at"`
			Leaf struct {
				N   Number `toon:"n"`
				P   *int   `toon:"p"`
				Yes bool   `toon:"yes"`
			} `toon:"leaf"`
			U uint8 `toon:"u"`
		} `toon:"mid"`
		Tail []byte `toon:"tail"`
	}
)

// TestWriteRowsNested writes tables of structs with nested structs, whose
// headers have nested field groups, and requires the text Marshal writes
// for the same slice: at the root and as a field, with every delimiter, a
// known and an unknown count (held in memory and spilled), from values and
// from pointers. Rows reads them back.
func TestWriteRowsNested(t *testing.T) {
	orders := make([]wOrder, 300)
	for i := range orders {
		orders[i] = wOrder{i, wCustomer{"name " + strconv.Itoa(i%9), []string{"DK", "a,b", "x|y", "t\tab"}[i%4]}, float64(i) / 8}
	}
	deep := make([]wDeep, 50)
	ints := make([]int, len(deep))
	for i := range deep {
		d := &deep[i]
		d.K = "k" + strconv.Itoa(i)
		d.Mid.At = time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)
		d.Mid.Leaf.N = Number(strconv.Itoa(i) + ".50")
		if i%2 == 0 {
			ints[i] = -i
			d.Mid.Leaf.P = &ints[i]
		}
		d.Mid.Leaf.Yes = i%3 == 0
		d.Mid.U = uint8(i)
		d.Tail = []byte{byte(i)}
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		checkNestedRows(t, orders, d)
		checkNestedRows(t, deep, d)
		checkNestedRows(t, []mNested{{1, mPoint{1, 2}, "a"}, {2, mPoint{3, 4}, "b: c"}}, d)
	}
	// Pointers to rows.
	ptrs := []*wOrder{&orders[0], &orders[1]}
	var b bytes.Buffer
	if err := WriteRows(NewEncoder(&b), "", 2, slices.Values(ptrs)); err != nil {
		t.Fatal(err)
	}
	if want, _ := Marshal(ptrs); b.String() != string(want) {
		t.Errorf("pointers: got\n%s\nwant\n%s", b.String(), want)
	}
	// Back with Rows.
	d := NewDecoder(bytes.NewReader(b.Bytes()))
	var got []wOrder
	for r, err := range Rows[wOrder](d) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if !reflect.DeepEqual(got, orders[:2]) {
		t.Errorf("read back %+v", got)
	}
}

// checkNestedRows compares WriteRows of rows with Marshal of the slice, at
// the root and as a field.
func checkNestedRows[T any](t *testing.T, rows []T, d Delimiter) {
	t.Helper()
	wantRoot, err := Marshal(rows, WithDelimiter(d))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(wantRoot, []byte("}"+string(d))) && !bytes.Contains(wantRoot, []byte("}}")) {
		t.Fatalf("Marshal wrote no nested group: %.80q", wantRoot)
	}
	wantField, err := Marshal(Object{{"before", 1}, {"rows", rows}}, WithDelimiter(d))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		n      int
		budget int64
	}{{len(rows), 64 << 20}, {-1, 64 << 20}, {-1, 100}} {
		opts := []Option{WithDelimiter(d), WithTableBudget(mode.budget), WithTempDir(t.TempDir())}
		var b bytes.Buffer
		if err := WriteRows(NewEncoder(&b, opts...), "", mode.n, slices.Values(rows)); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(wantRoot) {
			t.Fatalf("%T, delimiter %q, n %d: root table\n got %.300q\nwant %.300q", rows, d, mode.n, b.String(), wantRoot)
		}
		b.Reset()
		e := NewEncoder(&b, opts...)
		must(t, e.WriteToken(ObjectStartToken()))
		must(t, e.WriteToken(KeyToken([]byte("before"))))
		must(t, e.WriteToken(NumberToken([]byte("1"))))
		if err := WriteRows(e, "rows", mode.n, slices.Values(rows)); err != nil {
			t.Fatal(err)
		}
		must(t, e.WriteToken(ObjectEndToken()))
		must(t, e.Close())
		if b.String() != string(wantField) {
			t.Fatalf("%T, delimiter %q, n %d: field table\n got %.300q\nwant %.300q", rows, d, mode.n, b.String(), wantField)
		}
	}
}

// TestRowDecoderOneAllocPerRow checks that the strings of an element
// share one allocation (textStore.perRow), sized from the row's queued
// tokens (rowText): rows of distinct strings, one of them escaped, one
// long, and one in a nested field group, cost one allocation a row once
// the block size has settled, and the strings kept from every row stay
// intact.
func TestRowDecoderOneAllocPerRow(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	type place struct {
		Label string `toon:"label"`
		Zip   int    `toon:"zip"`
	}
	type row struct {
		ID    int    `toon:"id"`
		Name  string `toon:"name"`
		Note  string `toon:"note"`
		City  string `toon:"city"`
		Place place  `toon:"place"`
	}
	const n = 3000
	for _, group := range []bool{false, true} {
		var b strings.Builder
		b.WriteString("[" + strconv.Itoa(n) + "]{id,name,note,city")
		if group {
			b.WriteString(",place{label,zip}")
		}
		b.WriteString("}:\n")
		want := make([]row, n)
		for i := range want {
			w := &want[i]
			*w = row{ID: i, Name: "name" + strconv.Itoa(i), Note: "a \"note\"\tfor row " + strconv.Itoa(i) + strings.Repeat(" and more", i%7),
				City: "Łódź " + strconv.Itoa(i%13)}
			fmt.Fprintf(&b, "  %d,%s,%q,%s", w.ID, w.Name, w.Note, w.City)
			if group {
				w.Place = place{"at" + strings.Repeat("x", i%11), i % 97}
				fmt.Fprintf(&b, ",%s,%d", w.Place.Label, w.Place.Zip)
			}
			b.WriteString("\n")
		}
		d := NewDecoder(strings.NewReader(b.String()))
		rd := NewRowDecoder[row](d)
		got := make([]row, 0, n)
		var v row
		for i := 0; i < 10; i++ {
			if err := rd.Next(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		allocs := testing.AllocsPerRun(n-20, func() {
			if err := rd.Next(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		})
		if allocs > 1.1 {
			t.Errorf("nested group %v: %v allocations per row, want 1", group, allocs)
		}
		for i, g := range got {
			if g != want[i] {
				t.Fatalf("nested group %v, row %d: %+v, want %+v", group, i, g, want[i])
			}
		}
	}
}

// TestRowText checks rowText against queuedText, which counts any element
// by following its depth: on the rows of tables (empty, quoted and escaped
// cells, every kind of primitive, nested field groups) they give the same
// size, and a row not queued whole gets -1 from rowText.
func TestRowText(t *testing.T) {
	docs := []string{
		"[3]{a,b,c}:\n  x,1,\"\"\n  \"y \\\"z\\\"\",true,null\n  Łódź,-2.5e3,\"\\t\"\n",
		"[2|]{a|b}:\n  x,y|\n  |\n",
		"[2]{id,c{n,k}}:\n  1,A,B\n  2,Cc,\"D,d\"\n",
		"[2]{p{q{r,s}},t,u{v}}:\n  a,bb,ccc,\"\"\n  1,2,3,dddd\n",
	}
	for _, doc := range docs {
		d := NewDecoder(strings.NewReader(doc))
		rows, depth, ntok := 0, 0, 0 // depth: of objects, in the root array
		flat := false
		eachToken(t, d, func(tok Token) {
			switch tok.Kind() {
			case KindArrayStart:
				ntok = rowTokenCount(tok.Fields())
				flat = ntok == 2*len(tok.Fields())+1
				return
			case KindObjectEnd:
				depth--
				return
			case KindObjectStart:
				depth++
			default:
				return
			}
			if depth != 1 || d.qi == 0 {
				return
			}
			rows++
			q := d.queue[d.qi:]
			want := queuedText(tok, q)
			if got := rowText(q, ntok, flat); want < 0 || got != want {
				t.Errorf("%q, row %d: rowText %d, queuedText %d", doc, rows, got, want)
			}
			for cut := 0; cut < ntok; cut++ {
				if got := rowText(q[:cut], ntok, flat); got != -1 {
					t.Errorf("%q, row %d, %d tokens: rowText %d, want -1", doc, rows, cut, got)
				}
			}
		})
		if rows == 0 {
			t.Errorf("%q: no row was queued", doc)
		}
	}
}

// TestDecodeRowQueued checks that rows read from the queue at the places
// their header gives (decodeRow's way for a row queued whole) decode as
// rows read token by token do (queuedRowsOff): the same values, and the
// same errors at the same lines and columns, through Unmarshal and Rows,
// on flat tables and tables with nested field groups, with fields the
// struct lacks, mismatched and null cells, cells of every fast kind and of
// kinds decoded through their plans.
func TestDecodeRowQueued(t *testing.T) {
	type point struct {
		X int     `toon:"x"`
		Y float64 `toon:"y"`
	}
	type rec struct {
		ID    int64     `toon:"id"`
		Name  string    `toon:"name"`
		OK    bool      `toon:"ok"`
		Score float64   `toon:"score"`
		When  time.Time `toon:"when"`
		Note  *string   `toon:"note"`
		Any   any       `toon:"any"`
		U     uint8     `toon:"u"`
		At    point     `toon:"at"`
		Ptr   *point    `toon:"ptr"`
	}
	docs := []string{
		"[3]{id,name,ok,score}:\n  1,a,true,0.5\n  2,\"b,c\",false,-1\n  3,\"\",true,1e3\n",
		"[2]{name,note,any,u,when}:\n  \"x\\ty\",n,7,200,2024-05-01T10:00:00Z\n  Łódź,null,\"s\",0,2024-05-02T00:00:00+02:00\n",
		"[2|]{id|name|extra|score}:\n  1|a|zz|2\n  2||yy|\n",
		"[2]{id,at{x,y},ptr{x,y},ok}:\n  1,2,3.5,4,5,true\n  2,-1,0,null,6,false\n",
		"[2]{id,at{x,z},name}:\n  1,2,3,a\n  2,4,5,b\n",
		"[3]{id,name,ok,score,u}:\n  1,a,true,0.5,1\n  x,b,1,true,300\n  3,7,null,\"2\",-1\n",
		"[2]{id,when,at{x,y}}:\n  1,yesterday,1,2\n  2,2024-05-01T10:00:00Z,q,2\n",
		"[2]{id,name}:\n  1,a\n  2,b,c\n",
		"[3]{id,name}:\n  1,a\n  2,b\n",
		wideRows(2, 2100), // rows wider than the queue takes at once
	}
	type result struct {
		recs []rec
		err  string
	}
	unmarshal := func(doc string, opts []Option) result {
		var v []rec
		err := Unmarshal([]byte(doc), &v, opts...)
		return result{v, fmt.Sprint(err)}
	}
	rows := func(doc string, opts []Option) result {
		var r result
		for v, err := range Rows[rec](NewDecoder(strings.NewReader(doc), opts...)) {
			r.recs = append(r.recs, v)
			if err != nil {
				r.err += fmt.Sprint(err) + ";"
			}
		}
		return r
	}
	defer func() { queuedRowsOff = false }()
	for i, doc := range docs {
		for _, opts := range [][]Option{nil, {DisallowUnknownFields()}, {InternStrings()}} {
			for name, decode := range map[string]func(string, []Option) result{"Unmarshal": unmarshal, "Rows": rows} {
				queuedRowsOff = false
				got := decode(doc, opts)
				queuedRowsOff = true
				want := decode(doc, opts)
				if got.err != want.err {
					t.Errorf("doc %d, %s, %d options: error\n%s\nread token by token\n%s", i, name, len(opts), got.err, want.err)
				}
				if !reflect.DeepEqual(got.recs, want.recs) {
					t.Errorf("doc %d, %s, %d options:\n%+v\nread token by token\n%+v", i, name, len(opts), got.recs, want.recs)
				}
			}
		}
	}
}

// wideRows returns a root table of n rows whose header has the fields id,
// name and then extra ones x0, x1, ..., all cells of a row numbers but
// its name.
func wideRows(n, extra int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%d]{id,name", n)
	for i := 0; i < extra; i++ {
		fmt.Fprintf(&b, ",x%d", i)
	}
	b.WriteString("}:\n")
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "  %d,n%d", r, r)
		for i := 0; i < extra; i++ {
			fmt.Fprintf(&b, ",%d", i)
		}
		b.WriteString("\n")
	}
	return b.String()
}
