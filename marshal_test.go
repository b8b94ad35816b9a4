package toon

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toonstream/toon/internal/mem"
)

// Types for the shape tests. They use json tags only (toon falls back to
// them), so that encoding/json can serve as an independent oracle of the
// generic equivalent of each value.

type mPoint struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type mRow struct {
	ID     int     `json:"id"`
	Name   string  `json:"name"`
	Active bool    `json:"active"`
	Score  float64 `json:"score"`
}

type mNested struct {
	ID    int    `json:"id"`
	At    mPoint `json:"at"`
	Label string `json:"label"`
}

type mBase struct {
	Kind string `json:"kind"`
	Ver  int    `json:"ver"`
}

type MExported struct {
	Extra string `json:"extra"`
}

type mEmbedded struct {
	mBase
	*MExported
	Name string `json:"name"`
}

type mOmit struct {
	A int            `json:"a,omitempty"`
	B string         `json:"b,omitempty"`
	C []int          `json:"c,omitempty"`
	D map[string]int `json:"d,omitempty"`
	E *int           `json:"e,omitempty"`
	F bool           `json:"f"`
}

type mPtrs struct {
	P  *int    `json:"p"`
	S  *string `json:"s"`
	PP **int   `json:"pp"`
	R  *mRow   `json:"r"`
}

type mTree struct {
	Name string   `json:"name"`
	Kids []*mTree `json:"kids"`
}

type mAll struct {
	Title   string            `json:"title"`
	Rows    []mRow            `json:"rows"`
	Nested  []mNested         `json:"nested"`
	Grid    [][]int           `json:"grid"`
	Words   []string          `json:"words"`
	Fixed   [2]mPoint         `json:"fixed"`
	ByName  map[string]mRow   `json:"by_name"`
	ByID    map[int]string    `json:"by_id"`
	Mixed   []any             `json:"mixed"`
	Any     any               `json:"any"`
	When    time.Time         `json:"when"`
	Raw     []byte            `json:"raw"`
	Big     *big.Int          `json:"big"`
	JN      json.Number       `json:"jn"`
	F32     float32           `json:"f32"`
	U8      uint8             `json:"u8"`
	Omit    mOmit             `json:"omit"`
	Ptrs    mPtrs             `json:"ptrs"`
	Tree    *mTree            `json:"tree"`
	Emb     mEmbedded         `json:"emb"`
	Lists   map[string][]int  `json:"lists"`
	Deep    [][]mRow          `json:"deep"`
	Objs    []map[string]any  `json:"objs"`
	Quoted  map[string]string `json:"quoted"`
	Nothing struct{}          `json:"nothing"`
}

func mSample() mAll {
	one, two := 1, 2
	pone := &one
	s := "str"
	when := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("", 2*3600))
	bigI, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	return mAll{
		Title:  "all the shapes",
		Rows:   []mRow{{1, "Ada", true, 1.5}, {2, "Bob, Jr", false, -2}, {3, "", true, 1e21}},
		Nested: []mNested{{1, mPoint{1, 2}, "a"}, {2, mPoint{3, 4}, "b: c"}},
		Grid:   [][]int{{1, 2}, {}, nil, {3}},
		Words:  []string{"a", "b c", "true", "-1", ""},
		Fixed:  [2]mPoint{{1, 1}, {2, 2}},
		ByName: map[string]mRow{"zed": {9, "Z", false, 0.5}, "amy": {8, "A", true, 0}},
		ByID:   map[int]string{10: "ten", -1: "minus one", 2: "two"},
		Mixed:  []any{1, "x", mPoint{5, 6}, []int{1}, nil, map[string]any{"k": mRow{ID: 1}}},
		Any:    []mPoint{{7, 8}},
		When:   when,
		Raw:    []byte("hello, world"),
		Big:    bigI,
		JN:     "1.5",
		F32:    0.1,
		U8:     200,
		Omit:   mOmit{F: true, E: &two},
		Ptrs:   mPtrs{P: pone, S: &s, PP: &pone, R: &mRow{ID: 4}},
		Tree:   &mTree{Name: "root", Kids: []*mTree{{Name: "a"}, {Name: "b", Kids: []*mTree{{Name: "c"}}}}},
		Emb:    mEmbedded{mBase: mBase{"k", 2}, MExported: &MExported{"x"}, Name: "n"},
		Lists:  map[string][]int{"b": {1}, "a": {}},
		Deep:   [][]mRow{{{ID: 1}}, {}},
		Objs:   []map[string]any{{"a": 1, "b": "x"}, {"b": "y", "a": 2}},
		Quoted: map[string]string{"has space": "v", "a:b": "[x]", "": "empty"},
	}
}

// sameAsGeneric fails unless Marshal writes doc as it writes the generic
// values (jsonEquivalent) of the same document.
func sameAsGeneric(t *testing.T, doc any) {
	t.Helper()
	got, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Marshal(jsonEquivalent(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("typed and generic differ:\n--- typed\n%s\n--- generic\n%s", got, want)
	}
}

// jsonEquivalent returns the generic value equivalent to v, computed by
// encoding/json and parsed with key order kept: an oracle independent of
// the typed encoder.
func jsonEquivalent(t *testing.T, v any) any {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	g, err := parseJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// shapeValues are values of many shapes, each in a field and at the root.
func shapeValues() map[string]any {
	a := mSample()
	return map[string]any{
		"all":           a,
		"all-ptr":       &a,
		"rows":          a.Rows,
		"rows-empty":    []mRow{},
		"rows-nil":      []mRow(nil),
		"nested":        a.Nested,
		"grid":          a.Grid,
		"fixed":         a.Fixed,
		"by-name":       a.ByName,
		"by-name-one":   map[string]mRow{"a": {ID: 1}},
		"mixed":         a.Mixed,
		"tree":          a.Tree,
		"embedded":      a.Emb,
		"omit-all":      mOmit{},
		"omit-some":     a.Omit,
		"ptrs":          a.Ptrs,
		"ptrs-nil":      mPtrs{},
		"deep":          a.Deep,
		"objs":          a.Objs,
		"pair":          struct{ A, B mPoint }{mPoint{1, 2}, mPoint{3, 4}},
		"pair-mixed":    struct{ A, B any }{mPoint{1, 2}, map[string]int{"x": 3, "y": 4}},
		"pair-ptr":      struct{ A, B *mPoint }{&mPoint{1, 2}, &mPoint{3, 4}},
		"pair-diff":     struct{ A, B any }{mPoint{1, 2}, mRow{}},
		"list-of-pairs": []struct{ A, B mPoint }{{}, {}},
		"rows-in-items": [][]mRow{{{ID: 1}, {ID: 2}}},
		"items-first-table": []struct {
			R []mRow `json:"r"`
			N int    `json:"n"`
		}{{R: []mRow{{ID: 1}}, N: 1}},
		"string":         "hello",
		"int":            42,
		"float32":        float32(1.1),
		"float64s":       []float64{0.1, -2.5e-7, 1e21, 3, math.Copysign(0, -1), -0.02998925931751728, 123456.789},
		"float64s-field": struct{ E []float64 }{E: []float64{1.5, -1e-7}},
		"float32s":       []float32{0.1, -2.5e-7, 1e21, 3, float32(math.Copysign(0, -1)), -0.029989259, 123456.79, math.MaxFloat32, math.SmallestNonzeroFloat32, 16777216},
		"float32s-named": struct{ E []mFloat32 }{E: []mFloat32{1.5, -1e-7, 0.33333334}},
		"points":         [][2]float64{{1.5, 2}, {-3, 4e-7}, {0, 0}},
		"empty-arrays":   [][0]int{{}, {}},
		"rows-of-arrays": struct{ R [][]string }{R: [][]string{{"a", "b c"}, nil, {"x,y", ""}, {}}},
		"nan":            math.NaN(),
		"time":           a.When,
		"bytes":          a.Raw,
		"big":            a.Big,
		"empty":          struct{}{},
		"slice-of-empty": []struct{}{{}, {}},
		"ptr-to-slice":   &a.Rows,
		"map-int-keys":   map[int8]mPoint{-1: {1, 1}, 3: {2, 2}},
		"map-text-keys":  map[mKey]int{{"b", "a"}: 1, {"a", "z"}: 2},
		// Forms the values decide, in place.
		"ptr-rows":          []*mRow{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}},
		"ptr-rows-nil":      []*mRow{{ID: 1}, nil},
		"map-ptr-values":    map[string]*mPoint{"a": {1, 2}, "b": {3, 4}},
		"map-of-maps":       map[string]map[string]int{"a": {"x": 1, "y": 2}, "b": {"y": 3, "x": 4}},
		"map-of-maps-other": map[string]map[string]int{"a": {"x": 1}, "b": {"y": 3}},
		"rows-of-maps":      []map[string]int{{"a": 1, "b": 2}, {"b": 3, "a": 4}},
		"rows-of-maps-nil":  []map[string]int{nil, nil},
		"rows-mixed":        []any{mRow{ID: 1}, map[string]any{"active": true, "score": 2, "name": "x", "id": 3}},
		"rows-grouped-maps": []map[string]mPoint{{"p": {1, 2}}, {"p": {3, 4}}},
		"keyed-int-keys":    map[int]mPoint{1: {1, 1}, 10: {2, 2}, 2: {3, 3}},
		"bool-map":          map[string]bool{"z": true, "a": false, "has space": true},
		"array-of-structs":  [3]mNested{{ID: 1}, {ID: 2}, {ID: 3}},
		"stringer":          struct{ S fmt.Stringer }{mStringer{7}},
		"stringers":         []fmt.Stringer{mStringer{1}, mStringer{2}},
		"direct-in-iface":   []any{mOnePtr{&a.U8}, mOnePtr{}},
		"any-rows-omit":     []mOmit{{A: 1, F: true}, {A: 2, F: false}},
		"any-rows-omit-mix": []mOmit{{A: 1}, {B: "x"}},
		// Structs in structs, written in place, and the keyed form the
		// fields' types rule out or leave to the values.
		"struct-in-struct": struct {
			In struct {
				S string         `json:"s"`
				L []int          `json:"l"`
				M map[string]int `json:"m"`
			} `json:"in"`
		}{},
		"unlike-structs": struct {
			A struct {
				X int            `json:"x"`
				M map[string]int `json:"m"`
			} `json:"a"`
			B struct {
				Y int            `json:"y"`
				M map[string]int `json:"m"`
			} `json:"b"`
		}{},
		"like-structs":         struct{ A, B mDynPoint }{mDynPoint{1, map[string]int{"k": 1}}, mDynPoint{2, map[string]int{"k": 2}}},
		"like-structs-other":   struct{ A, B mDynPoint }{mDynPoint{1, map[string]int{"k": 1}}, mDynPoint{2, map[string]int{"j": 2}}},
		"rows-general-leaves":  generalRows(),
		"int-map-16":           intMap(16),
		"int-map-17":           intMap(17),
		"struct-and-map":       mStructMap{mPoint{1, 2}, map[string]int{"x": 3, "y": 4}},
		"struct-and-map-other": mStructMap{mPoint{1, 2}, map[string]int{"x": 3, "z": 4}},
		"struct-and-map-never": struct {
			A mPoint            `json:"a"`
			B map[string]mPoint `json:"b"`
		}{mPoint{1, 2}, map[string]mPoint{"x": {1, 2}, "y": {3, 4}}},
		"struct-and-ptr-map": struct {
			A *mPoint            `json:"a"`
			B map[string]*mPoint `json:"b"`
		}{&mPoint{1, 2}, map[string]*mPoint{"x": {1, 2}, "y": nil}},
	}
}

// generalRows returns a table whose cells are of the kinds valueRows
// converts one by one: times, small and unsigned integers, float32s,
// pointers, numbers and bytes.
func generalRows() any {
	type row struct {
		T time.Time   `json:"t"`
		U uint8       `json:"u"`
		I int16       `json:"i"`
		F float32     `json:"f"`
		P *string     `json:"p"`
		N json.Number `json:"n"`
		B []byte      `json:"b"`
		S string      `json:"s"`
	}
	s := "pointed"
	rows := make([]row, 100)
	for i := range rows {
		rows[i] = row{T: time.Date(2025, 5, 9, 14, i%60, i%7, i*1000, time.UTC), U: uint8(i), I: int16(-i), F: float32(i) / 3,
			N: json.Number(strconv.Itoa(i * 11)), B: []byte{byte(i), 1}, S: "row " + strconv.Itoa(i)}
		if i%3 == 0 {
			rows[i].P = &s
		}
	}
	return rows
}

// intMap returns a map of n entries whose keys share long prefixes, at
// and past the size collectMap sorts as it reads.
func intMap(n int) map[string]int {
	m := make(map[string]int, n)
	for i := 0; i < n; i++ {
		m["key-of-many-bytes-"+strconv.Itoa((i*7)%n)] = i
	}
	return m
}

// mDynPoint is a struct whose values decide whether two of them make a
// keyed table.
type mDynPoint struct {
	X int            `json:"x"`
	M map[string]int `json:"m"`
}

// mStructMap is a struct and a map that may have the same keys.
type mStructMap struct {
	A mPoint         `json:"a"`
	B map[string]int `json:"b"`
}

// mStringer is a value behind a non-empty interface.
type mStringer struct {
	N int `json:"n"`
}

func (m mStringer) String() string { return "m" }

// mOnePtr is a struct that an interface holds in its pointer word.
type mOnePtr struct {
	P *uint8 `json:"p"`
}

// mFloat32 is a float32 kind of another name.
type mFloat32 float32

// mKey is a map key encoded through encoding.TextMarshaler.
type mKey struct{ a, b string }

func (k mKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

// TestMarshalMatchesGeneric checks that Marshal of typed values writes
// exactly what Marshal writes for the equivalent generic values, at the
// root and as the field of an object, with each delimiter.
func TestMarshalMatchesGeneric(t *testing.T) {
	for name, v := range shapeValues() {
		var g any // encoding/json refuses NaN; TOON writes null (§3)
		if name != "nan" {
			g = jsonEquivalent(t, v)
		}
		for _, opt := range []Option{nil, WithDelimiter(Pipe), WithDelimiter(Tab)} {
			// Typed values inside a generic root ("mixed") included.
			got, err := Marshal(v, opt)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			want, err := Marshal(g, opt)
			if err != nil {
				t.Fatalf("%s: generic: %v", name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: typed and generic differ:\n--- typed\n%s\n--- generic\n%s", name, got, want)
			}
			// As a field, and as a list item.
			wrapped := struct {
				V any `json:"v"`
				L any `json:"l"`
			}{v, []any{v, 1}}
			got, err = Marshal(wrapped, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, _ = Marshal(Object{{"v", g}, {"l", []any{g, Number("1")}}}, opt)
			if !bytes.Equal(got, want) {
				t.Errorf("%s in a field: typed and generic differ:\n--- typed\n%s\n--- generic\n%s", name, got, want)
			}
		}
	}
}

// TestMarshalItemsDepth holds the lists whose items are arrays of
// primitives, which writeInlineItems writes, to the generic writer's
// output or error at each depth limit around theirs.
func TestMarshalItemsDepth(t *testing.T) {
	type inner struct {
		M [][]int `json:"m"`
	}
	values := []any{
		[][]int{{1, 2}, {3}},
		[][2]float64{{1, 2}},
		struct{ A []inner }{A: []inner{{M: [][]int{{1}, nil, {}}}}},
	}
	for _, v := range values {
		g := jsonEquivalent(t, v)
		for depth := 1; depth <= 5; depth++ {
			got, err := Marshal(v, WithMaxDepth(depth))
			want, wantErr := Marshal(g, WithMaxDepth(depth))
			if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
				t.Errorf("%T, max depth %d: typed %q, %v; generic %q, %v", v, depth, got, err, want, wantErr)
			}
		}
	}
}

// TestAppendTime compares appendTime with time.Time.AppendFormat
// (RFC3339Nano) on random instants of the years -100 to 10100, with
// fractions of every length, in UTC and in other zones, and at the edges
// of its own range, appending to buffers with and without spare room.
func TestAppendTime(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	zones := []*time.Location{time.UTC, time.FixedZone("", 0), time.FixedZone("X", -5*3600-30*60), time.Local}
	lo := time.Date(-100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(10100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	check := func(tm time.Time) {
		t.Helper()
		prefix := append(make([]byte, 0, 2+r.Intn(40)), "xy"...)
		got := appendTime(prefix, &tm)
		if want := tm.AppendFormat([]byte("xy"), time.RFC3339Nano); string(got) != string(want) {
			t.Fatalf("appendTime(%v) = %q, want %q", tm, got, want)
		}
	}
	for i := 0; i < 300000; i++ {
		ns := r.Int63n(1e9)
		switch r.Intn(4) {
		case 0:
			ns = 0
		case 1:
			ns -= ns % []int64{1, 10, 1e3, 1e6, 1e8}[r.Intn(5)]
		}
		tm := time.Unix(lo+r.Int63n(hi-lo), ns).In(zones[r.Intn(len(zones))])
		check(tm)
	}
	for _, tm := range []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 1, time.UTC),
		{}, time.Date(2025, 5, 9, 14, 30, 1, 100, time.UTC),
	} {
		check(tm)
	}
	// As a field and in a list, written quoted without a scan, as the
	// generic path writes the same text.
	for _, z := range zones {
		tm := time.Date(2025, 5, 9, 14, 30, 1, 120000000, z)
		sameAsGeneric(t, struct {
			T time.Time   `json:"t"`
			P *time.Time  `json:"p"`
			L []time.Time `json:"l"`
		}{tm, &tm, []time.Time{tm, {}}})
	}
}

// TestMarshalRowsRetry checks tables whose rows the whole-row writer
// cannot finish (a cell with escapes, which rowFrom writes, going on from
// it), in runs of lengths from 1 to a few hundred rows between rows it
// writes whole, against the generic values: the rows must be alike in
// any order.
func TestMarshalRowsRetry(t *testing.T) {
	const rowMisses, rowRetry = 4, 64 // run lengths around these
	type row struct {
		ID   int     `json:"id"`
		Note string  `json:"note"`
		Rate float64 `json:"rate"`
		Tag  string  `json:"tag"`
	}
	for _, run := range []int{1, rowMisses - 1, rowMisses, rowMisses + 1, rowRetry - 1, rowRetry, rowRetry + 1, 3 * rowRetry} {
		var rows []row
		for i := 0; len(rows) < 4*rowRetry+run; i++ {
			note := "plain note"
			if i/run%2 == 0 {
				note = "line one\nline \"two\"\ttab \\ end"
			}
			rows = append(rows, row{ID: i, Note: note, Rate: float64(i) / 8, Tag: "t" + strconv.Itoa(i%7)})
		}
		sameAsGeneric(t, map[string]any{"rows": rows})
		sameAsGeneric(t, struct {
			Rows []row `json:"rows"`
		}{rows})
	}
}

// TestMarshalRowsByHand checks the tabular output of a slice of structs
// against generic values written out by hand.
func TestMarshalRowsByHand(t *testing.T) {
	rows := []mNested{{1, mPoint{1, 2}, "a"}, {2, mPoint{3, 4}, "b,c"}}
	generic := []any{
		Object{{"id", 1}, {"at", Object{{"x", 1}, {"y", 2}}}, {"label", "a"}},
		Object{{"id", 2}, {"at", Object{{"x", 3}, {"y", 4}}}, {"label", "b,c"}},
	}
	got, err := Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Marshal(generic)
	const text = "[2]{id,at{x,y},label}:\n  1,1,2,a\n  2,3,4,\"b,c\""
	if string(got) != text || string(want) != text {
		t.Errorf("got\n%s\ngeneric\n%s", got, want)
	}
}

// TestMarshalRoundTrip decodes what Marshal writes back into the same type.
func TestMarshalRoundTrip(t *testing.T) {
	a := mSample()
	a.Mixed, a.Any, a.Objs = nil, nil, nil // interfaces decode as generic values
	a.Tree.Kids[0].Kids = []*mTree{}       // as the decoder makes an empty array
	a.Rows[2].Score = 1e21
	check := func(name string, v, into any) {
		t.Helper()
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Unmarshal(out, into); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		got := reflect.ValueOf(into).Elem().Interface()
		if !reflect.DeepEqual(normTimes(got), normTimes(v)) {
			t.Errorf("%s: round trip differs in %v:\n%s\ngot  %+v\nwant %+v", name, diffFields(normTimes(got), normTimes(v)), out, got, v)
		}
	}
	var b mAll
	check("all", a, &b)
	var rows []mRow
	check("rows", a.Rows, &rows)
	var nested []mNested
	check("nested", a.Nested, &nested)
	var grid [][]int
	check("grid", [][]int{{1, 2}, {}, {3}}, &grid)
	var byName map[string]mRow
	check("keyed", a.ByName, &byName)
	var emb mEmbedded
	check("embedded", a.Emb, &emb)
	var om mOmit
	check("omitempty", a.Omit, &om)
	var tree mTree
	check("tree", *a.Tree, &tree)
	var deep [][]mRow
	check("deep", [][]mRow{{{ID: 1}}, {{ID: 2, Name: "x"}}}, &deep)
	var bf struct {
		F *big.Float `toon:"f"`
	}
	bf.F, _ = new(big.Float).SetPrec(200).SetString("3.14159265358979323846264338327950288419716939937510582097494")
	out, err := Marshal(bf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "f: 3.14159265358979323846264338327950288419716939937510582097494") {
		t.Errorf("big.Float written as %s", out)
	}
}

// normTimes makes times comparable with DeepEqual (locations differ).
func normTimes(v any) any {
	if a, ok := v.(mAll); ok {
		a.When = a.When.UTC()
		return a
	}
	return v
}

type tHook struct{ n int }

func (h tHook) MarshalTOON() (any, error) {
	if h.n < 0 {
		return nil, errors.New("negative")
	}
	return Object{{"n", h.n}, {"via", "toon"}}, nil
}
func (h tHook) MarshalJSON() ([]byte, error) { return []byte(`"json"`), nil }
func (h tHook) MarshalText() ([]byte, error) { return []byte("text"), nil }

type jHook struct{}

func (jHook) MarshalJSON() ([]byte, error) { return []byte(`{"z":1,"a":[1.50,"x"]}`), nil }
func (jHook) MarshalText() ([]byte, error) { return []byte("text"), nil }

type xHook struct{ s string }

func (x *xHook) MarshalText() ([]byte, error) {
	if x.s == "" {
		return nil, errors.New("empty")
	}
	return []byte(x.s), nil
}

func TestMarshalHooks(t *testing.T) {
	v := struct {
		T    tHook   `toon:"t"`
		J    jHook   `toon:"j"`
		X    xHook   `toon:"x"`
		Rows []tHook `toon:"rows"`
	}{tHook{1}, jHook{}, xHook{"12"}, []tHook{{1}, {2}}}
	out, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := "t:\n  n: 1\n  via: toon\nj:\n  z: 1\n  a[2]: 1.5,x\nx: \"12\"\nrows[2]{n,via}:\n  1,toon\n  2,toon"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	_, err = Marshal([]tHook{{-1}})
	var me *MarshalerError
	if !errors.As(err, &me) || me.Err.Error() != "negative" {
		t.Errorf("got %v", err)
	}
	_, err = Marshal(struct{ X xHook }{})
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "MarshalText") {
		t.Errorf("got %v", err)
	}
}

func TestMarshalTypedErrors(t *testing.T) {
	var ute *UnsupportedTypeError
	if _, err := Marshal(struct{ C chan int }{}); !errors.As(err, &ute) {
		t.Errorf("chan: %v", err)
	}
	if _, err := Marshal(map[[2]int]int{{1, 2}: 3}); !errors.As(err, &ute) {
		t.Errorf("array keys: %v", err)
	}
	if _, err := Marshal(struct{ N json.Number }{"1x"}); err == nil {
		t.Error("bad json.Number: no error")
	}
	type nRow struct {
		T time.Time   `json:"t"`
		N json.Number `json:"n"`
	}
	if _, err := Marshal([]nRow{{N: "1"}, {N: "1x"}}); err == nil || !strings.Contains(err.Error(), "1x") {
		t.Errorf("bad json.Number in a table: %v", err)
	}
	// In an inline array of plain primitives (appendElems), after a good
	// element.
	if _, err := Marshal(struct{ N []json.Number }{[]json.Number{"1", "2x"}}); err == nil || !strings.Contains(err.Error(), "2x") {
		t.Errorf("bad json.Number in an inline array: %v", err)
	}
	// A cycle stops at the depth limit instead of overflowing the stack.
	tr := &mTree{Name: "loop"}
	tr.Kids = []*mTree{tr}
	if _, err := Marshal(tr, WithMaxDepth(50)); err == nil || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("cycle: %v", err)
	}
}

// TestEncodeTypedStreams checks that Encode of a large slice of structs
// reaches the writer in chunks, not as one buffer at the end.
func TestEncodeTypedStreams(t *testing.T) {
	rows := make([]mRow, 20000)
	for i := range rows {
		rows[i] = mRow{ID: i, Name: "name", Score: float64(i) / 4}
	}
	var w sizeWriter
	if err := NewEncoder(&w).Encode(rows); err != nil {
		t.Fatal(err)
	}
	want, _ := Marshal(rows)
	if !bytes.Equal(w.buf.Bytes(), want) {
		t.Fatal("Encode and Marshal differ")
	}
	if w.writes < 4 || w.largest > 128<<10 {
		t.Errorf("%d writes, largest %d bytes, of %d", w.writes, w.largest, len(want))
	}
}

type sizeWriter struct {
	buf     bytes.Buffer
	writes  int
	largest int
}

func (w *sizeWriter) Write(p []byte) (int, error) {
	w.writes++
	w.largest = max(w.largest, len(p))
	return w.buf.Write(p)
}

// diffFields names the fields of two structs that differ (for messages).
func diffFields(a, b any) []string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() != reflect.Struct || va.Type() != vb.Type() {
		return nil
	}
	var out []string
	for i := 0; i < va.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, va.Type().Field(i).Name)
		}
	}
	return out
}

// genericEquivalent returns the generic value equivalent to v, as Marshal
// documents it, built by walking v with reflect: structs as Objects of
// their fields in field order, maps as Objects in sorted key order, slices
// and arrays as []any, nil pointers, interfaces, slices and maps as null,
// and the types with a fixed mapping or a hook as what they stand for. It
// is the reference for the writer, which never builds it.
func genericEquivalent(v reflect.Value) (any, error) {
	t := v.Type()
	switch t {
	case timeType:
		return v.Interface().(time.Time).Format(time.RFC3339Nano), nil
	case bigIntType:
		b := v.Interface().(big.Int)
		return Number(b.String()), nil
	case bigFloatType:
		f := v.Addr().Interface().(*big.Float)
		if f.IsInf() {
			return nil, nil
		}
		return Number(f.Text('g', -1)), nil
	case numberType, jsonNumberType, valueType:
		return v.Interface(), nil
	case objectType:
		o := v.Interface().(Object)
		out := make(Object, len(o))
		for i := range o {
			g, err := genericEquivalent(reflect.ValueOf(&o[i].Value).Elem())
			if err != nil {
				return nil, err
			}
			out[i] = Member{Key: o[i].Key, Value: g}
		}
		return out, nil
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		if !v.CanAddr() {
			pv := reflect.New(t)
			pv.Elem().Set(v)
			v = pv.Elem()
		}
		switch m := v.Addr().Interface().(type) {
		case Marshaler:
			r, err := m.MarshalTOON()
			if err != nil {
				return nil, err
			}
			if r == nil {
				return nil, nil
			}
			return genericEquivalent(reflect.ValueOf(r))
		case json.Marshaler:
			js, err := m.MarshalJSON()
			if err != nil {
				return nil, err
			}
			return parseJSON(js)
		case encoding.TextMarshaler:
			txt, err := m.MarshalText()
			return string(txt), err
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint(), nil
	case reflect.Float32:
		return float32(v.Float()), nil
	case reflect.Float64:
		return v.Float(), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return genericEquivalent(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 && marshalHook(t.Elem()) == hookNone {
			return base64.StdEncoding.EncodeToString(v.Bytes()), nil
		}
		fallthrough
	case reflect.Array:
		a := make([]any, v.Len())
		for i := range a {
			g, err := genericEquivalent(v.Index(i))
			if err != nil {
				return nil, err
			}
			a[i] = g
		}
		return a, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		var o Object
		it := v.MapRange()
		for it.Next() {
			k := it.Key()
			var ks string
			switch {
			case k.Kind() == reflect.String:
				ks = k.String()
			case reflect.PointerTo(k.Type()).Implements(textMarshalerType):
				kp := reflect.New(k.Type())
				kp.Elem().Set(k)
				txt, err := kp.Interface().(encoding.TextMarshaler).MarshalText()
				if err != nil {
					return nil, err
				}
				ks = string(txt)
			case k.CanInt():
				ks = strconv.FormatInt(k.Int(), 10)
			default:
				ks = strconv.FormatUint(k.Uint(), 10)
			}
			g, err := genericEquivalent(it.Value())
			if err != nil {
				return nil, err
			}
			o = append(o, Member{Key: ks, Value: g})
		}
		slices.SortFunc(o, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
		if o == nil {
			o = Object{}
		}
		return o, nil
	case reflect.Struct:
		if !v.CanAddr() {
			pv := reflect.New(t)
			pv.Elem().Set(v)
			v = pv.Elem()
		}
		o := Object{}
		for _, f := range typeFields(t) {
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil {
				continue // through a nil embedded pointer
			}
			ef := encField{structField: f}
			if omitted(&ef, mem.FromUnsafe(fv.Addr().UnsafePointer())) {
				continue
			}
			g, err := genericEquivalent(fv)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{Key: f.name, Value: g})
		}
		return o, nil
	}
	return nil, &UnsupportedTypeError{Type: t}
}

// fzRow and fzDoc take many shapes from fuzzed input: omitted fields,
// nil pointers, nested groups, maps and interfaces.
type fzRow struct {
	A int      `toon:"a"`
	B string   `toon:"b,omitempty"`
	C *float64 `toon:"c"`
	D mPoint   `toon:"d"`
	E any      `toon:"e"`
}

type fzDoc struct {
	Rows   []fzRow           `toon:"rows"`
	Flat   []mRow            `toon:"flat"`
	Ptrs   []*mPoint         `toon:"ptrs"`
	Grid   [][]mPoint        `toon:"grid"`
	Keyed  map[string]mPoint `toon:"keyed"`
	Pair   struct{ X, Y mPoint }
	PairP  struct{ X, Y *mPoint }
	Any    any                `toon:"any"`
	List   []any              `toon:"list"`
	Vals   []Value            `toon:"vals"`
	Omit   mOmit              `toon:"omit"`
	Nested []mNested          `toon:"nested"`
	Deep   map[string][]fzRow `toon:"deep"`
}

// FuzzMarshalTyped decodes fuzzed documents into typed values and checks
// that Marshal of each writes what Marshal of its generic equivalent
// writes, and that the output decodes again.
func FuzzMarshalTyped(f *testing.F) {
	f.Add([]byte("rows[2]{a,b,c,d{x,y},e}:\n  1,x,1.5,1,2,null\n  2,\"\",null,3,4,7\nflat[1]{id,name,active,score}:\n  1,a,true,2"))
	f.Add([]byte("Pair:\n  X:\n    x: 1\n  Y:\n    y: 2\nkeyed:\n  a:\n    x: 1\n    y: 2\n  b:\n    y: 3\n    x: 4\nany[2]:\n  - a: 1\n  - a: 2"))
	f.Add([]byte("ptrs[2]{x,y}:\n  1,2\n  3,4\ngrid[2]:\n  - [1]{x,y}:\n    1,2\n  - [0]:\nlist[3]: 1,a,true\nvals[2]: x,1.50"))
	f.Add([]byte("omit:\n  a: 1\n  c[1]: 2\nnested[1]{id,at{x,y},label}:\n  1,2,3,z\ndeep:\n  k[1]{a,d{x,y},e}:\n    1,2,3,x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fzDoc
		_ = Unmarshal(data, &v, WithStrict(false))
		got, err := Marshal(v)
		g, gerr := genericEquivalent(reflect.ValueOf(v))
		if gerr != nil {
			if err == nil {
				t.Fatalf("typed Marshal wrote what the generic conversion rejects: %v", gerr)
			}
			return // an invalid Number text, say
		}
		// Marshal of the generic value must fail as the typed one does:
		// with keys written alike, say.
		want, werr := Marshal(g)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("typed error %v, generic error %v", err, werr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("typed and generic differ:\n--- typed\n%s\n--- generic\n%s", got, want)
		}
		var back fzDoc
		if err := Unmarshal(got, &back); err != nil {
			t.Fatalf("%v\n%s", err, got)
		}
	})
}

// TestPlansConcurrent builds the plans of recursive types from many
// goroutines at once (run with -race).
func TestPlansConcurrent(t *testing.T) {
	type cNode struct {
		Name string   `toon:"name"`
		Kids []*cNode `toon:"kids"`
		Up   *cNode   `toon:"up,omitempty"`
	}
	type cDoc struct {
		Rows  []mRow            `toon:"rows"`
		Nodes map[string]*cNode `toon:"nodes"`
	}
	doc := cDoc{Rows: []mRow{{ID: 1}}, Nodes: map[string]*cNode{"a": {Name: "a", Kids: []*cNode{{Name: "b"}}}}}
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			out, err := Marshal(doc)
			if err == nil {
				var back cDoc
				err = Unmarshal(out, &back)
				if err == nil && (back.Nodes["a"].Kids[0].Name != "b" || back.Rows[0].ID != 1) {
					err = errors.New("round trip differs")
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestMarshalTypedInsideGeneric: Go values inside generic containers are
// written as their generic equivalents, byte for byte.
func TestMarshalTypedInsideGeneric(t *testing.T) {
	type row struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	rows := []row{{1, "Ada"}, {2, "Bob"}}
	typed := map[string]any{"users": rows, "meta": Object{{Key: "n", Value: 2}, {Key: "first", Value: &rows[0]}}}
	generic := map[string]any{
		"users": []any{Object{{Key: "id", Value: 1}, {Key: "name", Value: "Ada"}}, Object{{Key: "id", Value: 2}, {Key: "name", Value: "Bob"}}},
		"meta":  Object{{Key: "n", Value: 2}, {Key: "first", Value: Object{{Key: "id", Value: 1}, {Key: "name", Value: "Ada"}}}},
	}
	got, err := Marshal(typed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := Marshal([]any{1, make(chan int)}); err == nil {
		t.Fatal("a channel inside []any was accepted")
	}
}

// Nested typed documents for the allocation test: orders with objects,
// a table in each list item, a time, an optional pointer, a typed map and
// an interface; a configuration of services in a map, with keyed tables
// (a map of static structs), a map of booleans, omitempty fields and
// nested groups.
type (
	aoAddress struct {
		City, Country, Street, Zip string
	}
	aoCustomer struct {
		Address aoAddress `json:"address"`
		Email   string    `json:"email"`
		ID      int       `json:"id"`
	}
	aoPrice struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency"`
	}
	aoItem struct {
		Name  string  `json:"name"`
		Price aoPrice `json:"price"`
		Qty   int     `json:"qty"`
	}
	aoOrder struct {
		Coupon    *string           `json:"coupon"`
		CreatedAt time.Time         `json:"created_at"`
		Customer  aoCustomer        `json:"customer"`
		Items     []aoItem          `json:"items"`
		Tags      []string          `json:"tags"`
		Meta      map[string]string `json:"meta"`
		Extra     any               `json:"extra"`
		Note      string            `json:"note,omitempty"`
	}
	aoRegion struct {
		CPU      string `json:"cpu"`
		Replicas int    `json:"replicas"`
	}
	aoService struct {
		Regions  map[string]aoRegion `json:"regions"`
		Features map[string]bool     `json:"features"`
		Replicas []aoRegion          `json:"replicas"`
		Limits   struct {
			Rate struct{ Burst, PerSecond int } `json:"rate"`
		} `json:"limits"`
		Owner  string    `json:"owner"`
		Backup *aoRegion `json:"backup,omitempty"`
	}
	aoDoc struct {
		Orders   []aoOrder            `json:"orders"`
		Services map[string]aoService `json:"services"`
		Version  int                  `json:"version"`
	}
)

// aoDocument returns a document of n orders and n services.
func aoDocument(n int) aoDoc {
	doc := aoDoc{Services: map[string]aoService{}, Version: 3}
	at := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	coupon := "SAVE10"
	for i := 0; i < n; i++ {
		o := aoOrder{
			CreatedAt: at.Add(time.Duration(i) * time.Hour),
			Customer:  aoCustomer{Address: aoAddress{"Berlin", "DE", strconv.Itoa(i) + " Main Street", "10115"}, Email: "a@example.com", ID: i},
			Items:     []aoItem{{"Desk Mat (XL)", aoPrice{12.5, "EUR"}, 2}, {"USB-C Hub, 7-in-1", aoPrice{30, "EUR"}, 1}},
			Tags:      []string{"gift", "express"},
			Meta:      map[string]string{"channel": "web", "ref": strconv.Itoa(i)},
			Extra:     float64(i),
		}
		if i%2 == 0 {
			o.Coupon, o.Note, o.Extra = &coupon, "Ring twice", map[string]any{"k": i, "v": "x"}
		}
		doc.Orders = append(doc.Orders, o)
		s := aoService{
			Regions:  map[string]aoRegion{"eu-west": {"500m", 2}, "us-east": {"250m", i}},
			Features: map[string]bool{"fast": true, "plugin_" + strconv.Itoa(i%5): false},
			Replicas: []aoRegion{{"1", 1}},
			Owner:    "ops@example.com",
		}
		if i%3 == 0 {
			s.Backup = &aoRegion{"100m", 1}
		}
		doc.Services["svc-"+strconv.Itoa(1000+i)] = s
	}
	return doc
}

// Marshal and Encode of nested typed values allocate nothing per record:
// an Encoder reused for each document allocates nothing at all once warm,
// and Marshal only its result, whatever the number of records. The same
// holds for the documents' generic equivalents, and for typed values
// inside generic containers.
func TestMarshalNestedAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, n := range []int{50, 100} {
		doc := aoDocument(n)
		generic := jsonEquivalent(t, doc)
		mixed := map[string]any{"orders": doc.Orders, "services": doc.Services}
		for _, v := range []struct {
			name string
			v    any
		}{{"typed", doc}, {"pointer", &doc}, {"generic", generic}, {"typed inside generic", mixed}} {
			enc := NewEncoder(io.Discard)
			encode := testing.AllocsPerRun(20, func() {
				enc.Reset(io.Discard)
				if err := enc.Encode(v.v); err != nil {
					t.Fatal(err)
				}
			})
			if encode != 0 {
				t.Errorf("%s, %d records: Encode with a reused Encoder made %v allocations", v.name, n, encode)
			}
			pipe := WithDelimiter(Pipe)
			marshal := testing.AllocsPerRun(20, func() {
				if _, err := Marshal(v.v, pipe); err != nil {
					t.Fatal(err)
				}
			})
			if marshal > 1 {
				t.Errorf("%s, %d records: Marshal made %v allocations, want only its result", v.name, n, marshal)
			}
		}
	}
	// The documents are those the writer's differential tests cover too.
	doc := aoDocument(7)
	sameAsGeneric(t, doc)
}

// TestPlanNeverKeyed checks what the plans settle of the keyed form
// (§9.5): a struct is never keyed where two of its fields can never have
// the same field tree, and is left to its values where they may.
func TestPlanNeverKeyed(t *testing.T) {
	type rolling struct {
		Surge string `json:"surge"`
		Max   int    `json:"max"`
	}
	type region struct {
		CPU  string `json:"cpu"`
		Reps int    `json:"reps"`
	}
	for _, tc := range []struct {
		name  string
		v     any
		never bool
	}{
		{"alike", struct{ A, B struct{ X, Y int } }{}, false},
		{"different names", struct {
			A struct{ X, Y int }
			B struct{ X, Z int }
		}{}, true},
		{"a leaf against an object", struct {
			A struct{ X, Y int }
			B struct {
				X int
				Y struct{ Z int }
			}
		}{}, true},
		{"map of the struct's keys", mStructMap{}, false},
		{"map of objects against leaves", struct {
			A mPoint
			B map[string]mPoint
		}{}, true},
		{"map against a struct of other objects", struct {
			Regions  map[string]region
			Strategy struct {
				Rolling rolling
				Type    string
			}
		}{}, true},
		{"pointers", struct{ A, B *mPoint }{}, false},
		{"pointers to unlike structs", struct {
			A *mPoint
			B *mRow
		}{}, true},
		{"an interface", struct {
			A mPoint
			B any
		}{}, false},
		{"maps", struct {
			A map[string]int
			B map[string]mPoint
		}{}, true},
		{"a slice", struct{ A, B []int }{}, true},
	} {
		if got := encPlanOf(reflect.TypeOf(tc.v)).neverKeyed; got != tc.never {
			t.Errorf("%s: neverKeyed %v, want %v", tc.name, got, tc.never)
		}
	}
}

// TestMarshalMapsAlike writes documents of many maps of one type whose
// keys are now those of the map before, now others of the same number, a
// subset or a superset of them (openKnown looks the keys it remembers up
// before it iterates), and checks them against their generic equivalents.
func TestMarshalMapsAlike(t *testing.T) {
	type holder struct {
		Name string            `json:"name"`
		M    map[string]mPoint `json:"m"`
		P    map[string]*int   `json:"p"`
	}
	r := rand.New(rand.NewSource(7))
	keys := []string{"a", "b", "c", "d", "eu-west", "us-east", "ap-east", "k\xff", "", "a long key of many bytes"}
	for _, same := range []int{0, 1, 3, 10} { // in 10, how many maps repeat the keys before
		doc := make([]holder, 300)
		prev := keys[:3]
		for i := range doc {
			ks := prev
			if r.Intn(10) >= same {
				ks = nil
				for _, k := range keys[:1+r.Intn(4)*3%len(keys)] {
					if r.Intn(2) == 0 {
						ks = append(ks, k)
					}
				}
			}
			prev = ks
			doc[i] = holder{Name: strconv.Itoa(i), M: map[string]mPoint{}, P: map[string]*int{}}
			for j, k := range ks {
				doc[i].M[k] = mPoint{X: i, Y: j}
				if j%2 == 0 {
					x := i * j
					doc[i].P[k] = &x
				} else {
					doc[i].P[k] = nil
				}
			}
		}
		sameAsGeneric(t, doc)
		sameAsGeneric(t, map[string]any{"doc": doc, "again": doc})
	}
}

// TestMarshalSizedResult checks Marshal of documents of one type whose
// sizes go up and down, across ownMin: from the second, a large one is
// written into a slice sized after the last (Encoder.marshalLen), which
// may be too short (it grows) or much too long (the document is copied
// out). Each result is the text Encode writes, and holds no more than
// twice its length; its room past the text is zeros (the slice is made
// without being cleared, and cleared there when returned).
func TestMarshalSizedResult(t *testing.T) {
	type row struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
		Tags []string
	}
	type doc struct {
		Rows  []row          `json:"rows"`
		Notes map[string]int `json:"notes"`
	}
	build := func(n int) doc {
		d := doc{Notes: map[string]int{"n": n}}
		for i := 0; i < n; i++ {
			d.Rows = append(d.Rows, row{ID: i, Name: "name-" + strconv.Itoa(i*7919), Tags: []string{"a", strings.Repeat("t", i%50)}})
		}
		return d
	}
	for _, n := range []int{10, 3000, 3000, 3100, 2900, 40000, 40000, 100, 3000, 2000, 1, 20000} {
		d := build(n)
		got, err := Marshal(&d, WithDelimiter(Tab))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := NewEncoder(&want, WithDelimiter(Tab)).Encode(d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%d rows: Marshal and Encode differ", n)
		}
		if len(got) >= ownMin && cap(got) > 2*len(got) {
			t.Errorf("%d rows: result of %d bytes holds %d", n, len(got), cap(got))
		}
		if i := bytes.IndexFunc(got[len(got):cap(got)], func(r rune) bool { return r != 0 }); i >= 0 {
			t.Errorf("%d rows: the result's room holds a byte that is not 0, %d bytes past its text", n, i)
		}
	}
	// A large table, for which valueRows would make room (reserve), of
	// the size of the last: only the result is allocated.
	if raceEnabled {
		return
	}
	type flat struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	table := make([]flat, 40000)
	for i := range table {
		table[i] = flat{100000 + i, "name-" + strconv.Itoa(10000000+i*7919)} // rows alike in length
	}
	var rows any = table
	// Each call allocates a megabyte: a collection between two calls
	// would empty marshalPool, and the Encoder made again would count.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := Marshal(rows); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 {
		t.Errorf("Marshal of a large table made %v allocations, want only its result", allocs)
	}
}
