package toon

import (
	"bytes"
	"io"
	"math/rand"
	"slices"
	"strconv"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestScratchResetClearsMapCopies checks that the copies of map values a
// document leaves in the scratch slices (closeView leaves them in their
// slots) are all cleared when the scratch is reset, so that a pooled
// scratch keeps nothing of the caller's data alive.
func TestScratchResetClearsMapCopies(t *testing.T) {
	type leaf struct {
		Name string
		Tags []string
	}
	// Integer keys: the values of maps with string keys are read in the
	// map (mem.MapElemString), not copied.
	v := map[int]map[int]leaf{}
	for k := range 5 {
		inner := map[int]leaf{}
		for j := range 3 {
			inner[j] = leaf{Name: strconv.Itoa(k*10 + j), Tags: []string{"a", "b"}}
		}
		v[k] = inner
	}
	e := NewEncoder(io.Discard)
	e.acquire()
	e.sc = new(encScratch)
	if err := e.encodeRoot(v); err != nil {
		t.Fatal(err)
	}
	sc := e.sc
	dirty := 0
	for _, s := range sc.maps {
		for i := 0; i < s.len; i++ {
			if !s.vals.Index(i).IsZero() {
				dirty++
			}
		}
	}
	if dirty == 0 {
		t.Fatal("no map value copy was left in the scratch: the test no longer covers reset")
	}
	sc.reset()
	for pl, s := range sc.maps {
		if s.used != 0 || s.hi != 0 {
			t.Errorf("%v: used %d, hi %d after reset", pl.typ, s.used, s.hi)
		}
		for i := 0; i < s.len; i++ {
			if !s.vals.Index(i).IsZero() {
				t.Errorf("%v: slot %d still holds %v after reset", pl.typ, i, s.vals.Index(i))
			}
		}
	}
	e.release()
}

// TestOtherKeys checks the quick test keyedTree makes of its first two
// members: it reports a key of b missing from a only where it is sure,
// and never for objects with the same keys.
func TestOtherKeys(t *testing.T) {
	m := func(keys ...string) map[string]any {
		o := map[string]any{}
		for _, k := range keys {
			o[k] = 1
		}
		return o
	}
	o := func(keys ...string) Object {
		var x Object
		for _, k := range keys {
			x = append(x, Member{Key: k, Value: 1})
		}
		return x
	}
	type limits struct {
		A, B int
	}
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{m("a", "b", "c"), m("c", "b", "a"), false},
		{m("a", "b", "c"), m("a", "b", "d"), true},
		{m("a", "b"), o("b", "a"), false},
		{m("a", "b"), o("a", "x"), true},
		{o("a", "b"), o("b", "a"), false},
		{o("a", "b"), o("a", "c"), true},
		{o("a", "b"), m("a", "c"), false},        // not quick to tell: left to matchTree
		{limits{}, m("x", "y"), false},           // a struct: maySameKeys and matchTree tell
		{m("A", "B"), limits{A: 1, B: 2}, false}, // b a struct: left to matchTree
	} {
		var e Encoder
		pa, a, _ := e.resolveAny(c.a)
		pb, b, _ := e.resolveAny(c.b)
		if got := otherKeys(pa, a, pb, b); got != c.want {
			t.Errorf("otherKeys(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// Large Objects are not compared.
	var big1, big2 Object
	for i := range smallNames + 1 {
		big1 = append(big1, Member{Key: string(rune('a' + i)), Value: 1})
		big2 = append(big2, Member{Key: string(rune('A' + i)), Value: 1})
	}
	if otherKeys(objectPlan, mem.Of(&big1), objectPlan, mem.Of(&big2)) {
		t.Error("otherKeys compared two Objects of more than smallNames keys")
	}
}

// TestTableRowsCheckedAsWritten compares the writer's tables of generic
// objects, whose rows writeTable checks against the first row's tree as
// it writes them, with the forms tabularTree decides (the token oracle of
// TestWriteTokenRandom): arrays whose rows all match, and arrays with one
// row that does not, in each way a row can fail to match, at the second
// row, in the middle and at the end. The large arrays pass flushSize, so
// that Encode checks the rest of the rows before its first flush.
func TestTableRowsCheckedAsWritten(t *testing.T) {
	row := func(i int) map[string]any {
		return map[string]any{
			"id":    i,
			"name":  "name " + strconv.Itoa(i),
			"price": map[string]any{"amount": float64(i) / 4, "currency": "EUR"},
			"ok":    i%3 == 0,
		}
	}
	mismatches := map[string]func(m map[string]any){
		"none":          func(map[string]any) {},
		"missing field": func(m map[string]any) { delete(m, "ok") },
		"renamed field": func(m map[string]any) { delete(m, "ok"); m["ko"] = true },
		"extra field":   func(m map[string]any) { m["extra"] = 1 },
		"array cell":    func(m map[string]any) { m["name"] = []any{"a", "b"} },
		"object cell":   func(m map[string]any) { m["name"] = map[string]any{"a": 1} },
		"primitive group": func(m map[string]any) {
			m["price"] = 3
		},
		"group missing field": func(m map[string]any) { delete(m["price"].(map[string]any), "currency") },
		"group extra field":   func(m map[string]any) { m["price"].(map[string]any)["tax"] = 1 },
		"empty group":         func(m map[string]any) { m["price"] = map[string]any{} },
		"not an object":       nil,
		"an Object":           nil,
	}
	for _, n := range []int{3, 40, 3000} {
		for name, change := range mismatches {
			for _, at := range []int{1, n / 2, n - 1} {
				a := make([]any, n)
				for i := range a {
					a[i] = row(i)
				}
				switch name {
				case "not an object":
					a[at] = "text"
				case "an Object":
					// The same fields as an Object, in another order:
					// still a row.
					m := row(at)
					a[at] = Object{{Key: "price", Value: m["price"]}, {Key: "ok", Value: m["ok"]}, {Key: "name", Value: m["name"]}, {Key: "id", Value: m["id"]}}
				default:
					change(a[at].(map[string]any))
				}
				for _, v := range []any{a, map[string]any{"rows": a, "after": 1}} {
					cls := NewEncoder(nil)
					cls.sc = new(encScratch)
					want, err := writeTokens(valueTokens(t, cls, v, false, nil))
					if err != nil {
						t.Fatal(err)
					}
					got, err := Marshal(v)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("%d rows, %s at %d: Marshal differs from the general path (%v):\n got: %.300q\nwant: %.300q", n, name, at, err, got, want)
					}
					var buf bytes.Buffer
					if err := NewEncoder(&buf).Encode(v); err != nil || !bytes.Equal(buf.Bytes(), want) {
						t.Fatalf("%d rows, %s at %d: Encode differs from the general path (%v)", n, name, at, err)
					}
				}
			}
		}
	}
}

// TestSortEnts checks that sortEnts, by insertion for small maps and by
// slices.SortFunc for larger ones, orders keys as strings compare: keys
// that share their first 8 bytes, keys shorter than 8 bytes, keys with
// bytes of every value, and repeated keys (the text of distinct keys of
// a map of integer or TextMarshaler keys).
func TestSortEnts(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	alphabet := []string{"a", "b", "\x00", "\xff", "é", "abcdefgh", "abcdefghi", ""}
	for n := 0; n < 40; n++ {
		for round := 0; round < 50; round++ {
			ents := make([]mapEnt, n)
			keys := make([]string, n)
			vals := make([]string, n) // each entry's value: its key
			for i := range ents {
				var k string
				for j := r.Intn(4); j >= 0; j-- {
					k += alphabet[r.Intn(len(alphabet))]
				}
				keys[i], vals[i] = k, k
				ents[i] = mapEnt{key: k, pre: keyPrefix(k), p: mem.Of(&vals[i])}
			}
			sortEnts(ents)
			slices.Sort(keys)
			for i := range ents {
				if ents[i].key != keys[i] {
					t.Fatalf("%d keys: position %d is %q, want %q", n, i, ents[i].key, keys[i])
				}
				// The entry moved whole: its prefix and value with its key.
				if ents[i].pre != keyPrefix(ents[i].key) || *mem.As[string](ents[i].p) != ents[i].key {
					t.Fatalf("%d keys: the entry of %q at %d has another key's prefix or value", n, ents[i].key, i)
				}
			}
		}
	}
}

// TestMapValuesInPlace compares Marshal of maps with string keys, whose
// values the writer reads in the map (openMap), with Marshal of their
// generic equivalents: values stored in the map's slots and behind a
// pointer (larger than 128 bytes), of a named key type, holding maps of
// the same type, as keyed tables, and as list items.
func TestMapValuesInPlace(t *testing.T) {
	type key string
	type small struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	type large struct {
		Pad  [20]int         `json:"pad"`
		Name string          `json:"name"`
		Sub  map[key]small   `json:"sub"`
		Next map[string]*int `json:"next"`
	}
	one := 1
	doc := map[string]any{}
	for n := range 12 {
		smalls := map[key]small{}
		larges := map[string]large{}
		for i := range n {
			k := "k" + strconv.Itoa(i*7%13)
			smalls[key(k)] = small{A: i, B: k}
			larges[k] = large{Name: k, Pad: [20]int{i}, Sub: map[key]small{"x": {A: i}, "y": {B: k}}, Next: map[string]*int{"one": &one, "none": nil}}
		}
		doc["smalls"+strconv.Itoa(n)] = smalls
		doc["larges"+strconv.Itoa(n)] = larges
		doc["list"+strconv.Itoa(n)] = []any{larges, smalls}
	}
	sameAsGeneric(t, doc)
}

// TestFieldLinesAtEachDepth compares Marshal of a struct type written at
// several depths, as a list item and at the root, with several
// indentations, with Marshal of its generic equivalent: writeStructFields
// writes each field line's start (LF, indentation, key) from the depth.
func TestFieldLinesAtEachDepth(t *testing.T) {
	type leafT struct {
		Name string `json:"name"`
		List []int  `json:"list"`
	}
	type nodeT struct {
		ID   int    `json:"id"`
		Leaf leafT  `json:"leaf"`
		Tags []any  `json:"tags"`
		Note string `json:"note"`
	}
	type docT struct {
		A     nodeT            `json:"a"`
		Deep  map[string]nodeT `json:"deep"`
		Items []nodeT          `json:"items"`
		More  []any            `json:"more"`
	}
	n := nodeT{ID: 1, Leaf: leafT{Name: "x", List: []int{1, 2}}, Tags: []any{"a", map[string]any{"k": 1}}, Note: "n"}
	doc := docT{A: n, Deep: map[string]nodeT{"one": n, "two": n}, Items: []nodeT{n, n}, More: []any{n, []any{n}}}
	for _, v := range []any{doc, n, []nodeT{n}} {
		for indent := 1; indent <= 4; indent++ {
			opt := WithIndent(indent)
			got, err := Marshal(v, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Marshal(jsonEquivalent(t, v), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("indent %d: typed and generic differ:\n--- typed\n%s\n--- generic\n%s", indent, got, want)
			}
		}
	}
}
