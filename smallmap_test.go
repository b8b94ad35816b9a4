package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// smallMapDoc holds maps that writeSmallMap writes: as a field at the
// root's depth, as a field of a nested struct, as the members of a map
// (which writeSmallMap does not take, and whose members it does), and
// through a pointer.
type smallMapDoc[V any] struct {
	A map[string]V
	N struct {
		B map[string]V
	}
	M map[string]map[string]V
	P *map[string]V
}

// generic returns the document as the general path writes it: Objects
// and map[string]any, which writeSmallMap never takes.
func (d *smallMapDoc[V]) generic() Object {
	conv := func(m map[string]V) any {
		if m == nil {
			return nil
		}
		g := make(map[string]any, len(m))
		for k, v := range m {
			g[k] = v
		}
		return g
	}
	var mm any
	if d.M != nil {
		g := make(map[string]any, len(d.M))
		for k, m := range d.M {
			g[k] = conv(m)
		}
		mm = g
	}
	var p any
	if d.P != nil {
		p = conv(*d.P)
	}
	return Object{{"A", conv(d.A)}, {"N", Object{{"B", conv(d.N.B)}}}, {"M", mm}, {"P", p}}
}

// smallMapKeys are keys of every kind writeSmallMap meets: bare, quoted,
// with escapes, not ASCII, sharing long prefixes, empty.
var smallMapKeys = []string{
	"a", "b", "z9", "_x", "a.b", "a-b", "1x", "", "with space", "q\"uote", "tab\there",
	"é", "ключ", "prefix_long_1", "prefix_long_2", "prefix_long", "PREFIX", "x:y", "[0]",
	"k10", "k9", "true", "-", "#", "a,b", "a|b",
}

func smallMapOf[V any](n int, val func(i int) V) map[string]V {
	m := make(map[string]V, n)
	for i := 0; i < n; i++ {
		m[smallMapKeys[i%len(smallMapKeys)]+strconv.Itoa(i/len(smallMapKeys))] = val(i)
	}
	return m
}

func smallMapCase[V any](t *testing.T, name string, val func(i int) V) {
	t.Helper()
	opts := [][]Option{nil, {WithDelimiter(Pipe)}, {WithDelimiter(Tab), WithIndent(4)}, {WithMaxDepth(2)}, {WithMaxDepth(3)}}
	for _, n := range []int{0, 1, 2, 3, 8, sortSmall - 1, sortSmall, sortSmall + 1, 40} {
		var d smallMapDoc[V]
		d.A = smallMapOf(n, val)
		d.N.B = smallMapOf((n+3)%(sortSmall+2), val)
		d.M = map[string]map[string]V{"one": smallMapOf(n, val), "two": smallMapOf(1, val), "nil": nil, "empty": {}}
		p := smallMapOf(n/2, val)
		d.P = &p
		for oi, o := range opts {
			got, gerr := Marshal(&d, o...)
			want, werr := Marshal(d.generic(), o...)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("%s, %d entries, options %d: error %v, general path %v", name, n, oi, gerr, werr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, %d entries, options %d: typed and general differ:\n--- typed\n%s\n--- general\n%s", name, n, oi, got, want)
			}
			// As list items, where the first field goes on the hyphen
			// line; the items differ, so the list is not a table.
			items := []smallMapDoc[V]{d, {A: smallMapOf(1, val)}}
			got, gerr = Marshal(items, o...)
			want, werr = Marshal([]any{d.generic(), items[1].generic()}, o...)
			if (gerr == nil) != (werr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("%s, %d entries, options %d, list items: typed and general differ (%v, %v):\n--- typed\n%s\n--- general\n%s", name, n, oi, gerr, werr, got, want)
			}
			got, gerr = Marshal(&d, o...)
			var buf bytes.Buffer
			if err := NewEncoder(&buf, o...).Encode(&d); (err == nil) != (gerr == nil) || !bytes.Equal(buf.Bytes(), got) && err == nil {
				t.Fatalf("%s, %d entries, options %d: Encode and Marshal differ (%v)", name, n, oi, err)
			}
		}
	}
}

// TestSmallMapsMatchGeneral checks writeSmallMap against the general
// path of maps: the same text for maps of each value type it takes, of
// every size around its limit, at several depths and with each delimiter,
// and the same depth errors.
func TestSmallMapsMatchGeneral(t *testing.T) {
	smallMapCase(t, "bool", func(i int) bool { return i%3 == 0 })
	smallMapCase(t, "int", func(i int) int { return (i - 5) * 1_000_003 })
	smallMapCase(t, "int64", func(i int) int64 { return math.MinInt64 + int64(i) })
	smallMapCase(t, "float64", func(i int) float64 {
		return []float64{0, -0.5, 1e21, 1.5e-7, math.NaN(), math.Inf(1), 3, 12345.678}[i%8]
	})
	smallMapCase(t, "string", func(i int) string {
		return []string{"", "plain", "a,b", "a|b", "tab\t", "-1", "true", "null", " pad ", "é", "q\"", "line\nbreak"}[i%12]
	})
}

// TestSmallMapBadKeys checks that keys with bad UTF-8 bytes, which
// writeSmallMap leaves to the general path, are written or refused as
// there.
func TestSmallMapBadKeys(t *testing.T) {
	for i, m := range []map[string]int{
		{"ok": 1, "bad\xff": 2},
		{"a\xff": 1, "a\xfe": 2}, // written alike
	} {
		doc := struct{ M map[string]int }{m}
		g := make(map[string]any, len(m))
		for k, v := range m {
			g[k] = v
		}
		got, gerr := Marshal(doc)
		want, werr := Marshal(Object{{"M", g}})
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(got, want) {
			t.Errorf("%q: got %q, %v; general path %q, %v", m, got, gerr, want, werr)
		}
		if clash := i == 1; clash != (gerr != nil) {
			t.Errorf("%q: error %v", m, gerr)
		}
	}
}

// keyedLeaves is a static object of leaves of many kinds, for keyed
// tables of maps (writeStaticKeyedMap).
type keyedLeaves struct {
	S   string      `json:"s"`
	I8  int8        `json:"i8"`
	U   uint64      `json:"u"`
	F32 float32     `json:"f32"`
	F   float64     `json:"f"`
	B   bool        `json:"b"`
	T   time.Time   `json:"t"`
	P   *int        `json:"p"`
	N   json.Number `json:"n"`
	G   struct {
		X string `json:"x"`
		Y int    `json:"y"`
	} `json:"g"`
}

// TestKeyedMapRowsMatchGeneric checks maps of static objects, written as
// keyed tables by writeStaticKeyedMap, against their generic equivalents, with
// each delimiter, cells that need quotes, and keys that need quotes.
func TestKeyedMapRowsMatchGeneric(t *testing.T) {
	seven := 7
	strs := []string{"plain", "a,b", "a|b", "tab\there", "", "-3", "true", "é", "q\"x", strings.Repeat("long ", 20)}
	m := map[string]keyedLeaves{}
	for i := 0; i < 40; i++ {
		var l keyedLeaves
		l.S = strs[i%len(strs)]
		l.I8, l.U, l.F32, l.F, l.B = int8(-i), uint64(i)<<60, float32(i)/3, float64(i)*1e-9, i%2 == 0
		l.T = time.Date(2024, 1, 2, 3, 4, 5, i*1000, time.UTC)
		if i%3 == 0 {
			l.P = &seven
		}
		l.N = json.Number(strconv.Itoa(i*1000) + "e-2")
		l.G.X, l.G.Y = strs[(i+3)%len(strs)], i
		m[smallMapKeys[i%len(smallMapKeys)]+strconv.Itoa(i)] = l
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		doc := struct {
			M map[string]keyedLeaves `json:"m"`
		}{m}
		got, err := Marshal(doc, WithDelimiter(d))
		if err != nil {
			t.Fatal(err)
		}
		want, err := Marshal(jsonEquivalent(t, doc), WithDelimiter(d))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("delimiter %q: typed and generic differ:\n--- typed\n%s\n--- generic\n%s", d, got, want)
		}
		if !bytes.Contains(got, []byte("m[40:")) {
			t.Fatalf("delimiter %q: not a keyed table:\n%s", d, got)
		}
	}
}
