package toon

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The types of stepsDoc nest static objects (stepOpen), structs of fields
// always written (formStruct), and fields of every other form among them,
// so that writeSteps meets each op at several depths.
type stepsLeaf struct {
	S string
	I int8
	B bool
}

type stepsPair struct { // a keyed table (§9.5): not spliced
	L stepsLeaf
	R stepsLeaf
}

type stepsBadKey struct { // a key with a bad byte: not spliced
	A int    `toon:"a\xff"`
	B string `toon:"b"`
}

type stepsDeep struct {
	A struct {
		B struct {
			C struct {
				D string
				E float64
			}
			F uint16
		}
		G int
	}
	H time.Time
}

type stepsMixed struct {
	Name   string
	Leaf   stepsLeaf
	Deep   stepsDeep
	Pair   stepsPair
	Bad    stepsBadKey
	List   []string
	Rows   []stepsLeaf
	Map    map[string]int
	Ptr    *stepsLeaf
	Any    any
	Hook   tHook
	Num    Number
	Nested struct { // formStruct: a slice among its fields
		Tags []int
		In   struct {
			X string
			Y []stepsLeaf
		}
		Z int64
	}
	F32 float32
	U   uint64
	Opt string `json:",omitempty"`
}

type stepsDoc struct {
	Top   stepsMixed
	Items []stepsMixed
	Byte  map[string]stepsMixed
}

// stepsStrings are values that take every branch of the string writers:
// bare, quoted for a shape or a byte, escaped, not valid UTF-8, long.
var stepsStrings = []string{
	"", "a", "10m", "25%", "1e5", "+1", "-x", "true", "x:y", "a,b", "a|b", "tab\there", "q\"uote",
	"é", "\xff\xfe", " lead", "trail ", "0.0.0.0:8080", "/etc/ssl/a-very-long-path-name.crt",
	strings.Repeat("long text ", 12), "05", "null",
}

func stepsMixedOf(i int) stepsMixed {
	s := func(k int) string { return stepsStrings[(i+k)%len(stepsStrings)] }
	var m stepsMixed
	m.Name = s(0)
	m.Leaf = stepsLeaf{S: s(1), I: int8(i*37 - 100), B: i%2 == 0}
	m.Deep.A.B.C.D = s(2)
	m.Deep.A.B.C.E = []float64{0, 1.5, -2e-9, math.NaN(), 1e21, math.Inf(-1)}[i%6]
	m.Deep.A.B.F = uint16(i * 1000)
	m.Deep.A.G = -i
	m.Deep.H = time.Date(2024, 1, 2, 3, 4, 5, i, time.UTC)
	m.Pair = stepsPair{L: stepsLeaf{S: s(3)}, R: stepsLeaf{S: s(4), B: true}}
	m.Bad = stepsBadKey{A: i, B: s(5)}
	if i%3 != 0 {
		m.List = []string{s(6), s(7)}
		m.Rows = []stepsLeaf{{S: s(8)}, {S: s(9), I: 1}}
		m.Map = map[string]int{s(10): 1, "k": 2}
		m.Ptr = &stepsLeaf{S: s(11)}
		m.Any = map[string]any{"x": s(12), "y": []any{1, "two"}}
	}
	if i%5 == 4 {
		m.Hook.n = -1 // its MarshalTOON fails
	}
	m.Num = "12.50"
	m.Nested.Tags = []int{i, i + 1}
	m.Nested.In.X = s(13)
	if i%2 == 1 {
		m.Nested.In.Y = []stepsLeaf{{S: s(14)}}
	}
	m.Nested.Z = math.MinInt64 + int64(i)
	m.F32 = float32(i) / 3
	m.U = math.MaxUint64 - uint64(i)
	if i%4 == 0 {
		m.Opt = s(15)
	}
	return m
}

// TestStepsMatchGeneralPath holds writeSteps to writeStructFields' own
// loop: the same text and the same errors, at every depth limit around
// the steps' nesting, with each delimiter and indentation, through
// Marshal and through Encode with its flushes.
func TestStepsMatchGeneralPath(t *testing.T) {
	var vals []any
	for n := range 6 {
		var d stepsDoc
		d.Top = stepsMixedOf(n)
		for i := range n {
			d.Items = append(d.Items, stepsMixedOf(n+i))
		}
		if n > 0 {
			d.Byte = map[string]stepsMixed{"a": stepsMixedOf(n * 7), "b-c": stepsMixedOf(n * 11)}
		}
		vals = append(vals, d, &d, d.Top, d.Top.Deep, d.Top.Leaf, []stepsMixed{d.Top}, map[string]any{"doc": d})
	}
	optsets := [][]Option{nil, {WithDelimiter(Pipe)}, {WithDelimiter(Tab), WithIndent(4)}, {WithIndent(1)}, {WithIndent(9)}}
	for depth := 1; depth <= 10; depth++ {
		optsets = append(optsets, []Option{WithMaxDepth(depth)})
	}
	run := func(steps bool, v any, opts []Option) (string, string, string, string) {
		defer func(old bool) { useSteps = old }(useSteps)
		useSteps = steps
		out, err := Marshal(v, opts...)
		var w bytes.Buffer
		err2 := NewEncoder(&w, opts...).Encode(v)
		return string(out), fmt.Sprint(err), w.String(), fmt.Sprint(err2)
	}
	for i, v := range vals {
		for j, opts := range optsets {
			o1, e1, w1, f1 := run(true, v, opts)
			o0, e0, w0, f0 := run(false, v, opts)
			if o1 != o0 || e1 != e0 {
				t.Fatalf("value %d, options %d: Marshal with steps:\n%s\n(%s)\nwithout:\n%s\n(%s)", i, j, o1, e1, o0, e0)
			}
			if w1 != w0 || f1 != f0 {
				t.Fatalf("value %d, options %d: Encode with steps:\n%s\n(%s)\nwithout:\n%s\n(%s)", i, j, w1, f1, w0, f0)
			}
		}
	}
}

// TestStepsLong writes a document longer than the encoder's flush size
// through writeSteps, with steps and without.
func TestStepsLong(t *testing.T) {
	items := make([]stepsMixed, 2000)
	for i := range items {
		items[i] = stepsMixedOf(i)
		items[i].Hook.n = 0
	}
	v := map[string][]stepsMixed{"items": items}
	var a, b bytes.Buffer
	useSteps = false
	err0 := NewEncoder(&b).Encode(v)
	useSteps = true
	err1 := NewEncoder(&a).Encode(v)
	if err0 != nil || err1 != nil || a.String() != b.String() {
		t.Fatalf("with steps: %v, %d bytes; without: %v, %d bytes", err1, a.Len(), err0, b.Len())
	}
	if a.Len() < 2*flushSize {
		t.Fatalf("document of %d bytes, want more than %d", a.Len(), 2*flushSize)
	}
}

// laidOnly is a struct with steps for the tests of laid-out steps.
type laidOnly struct {
	A string
	B struct {
		C int
		D struct{ E bool }
	}
	F struct{ G struct{} }
}

// emptySlots forgets the layouts of the plan of v's type, so that a test
// fills its slots in an order of its own.
func emptySlots(v any) *encPlan {
	pl := encPlanOf(reflect.TypeOf(v))
	for i := range pl.laid {
		pl.laid[i].Store(nil)
	}
	return pl
}

// TestLaidStepsSlots writes one struct type at more indentations than a
// plan keeps laid out: the first laidSlots fill the slots and are written
// by writeSteps, the others by writeStructFields' own loop, and all match
// the text written without steps.
func TestLaidStepsSlots(t *testing.T) {
	var v laidOnly
	v.A, v.B.C, v.B.D.E = "a b", -7, true
	pl := emptySlots(v)
	if pl.steps == nil {
		t.Fatal("laidOnly has no steps")
	}
	type at struct{ depth, unit int }
	var seen []at
	for unit := 1; unit <= 3; unit++ {
		for depth := 1; depth <= 3; depth++ {
			// v under depth keys: its fields at depth.
			var x any = v
			for range depth {
				x = map[string]any{"k": x}
			}
			run := func(steps bool) string {
				defer func(old bool) { useSteps = old }(useSteps)
				useSteps = steps
				out, err := Marshal(x, WithIndent(unit))
				if err != nil {
					t.Fatal(err)
				}
				return string(out)
			}
			if got, want := run(true), run(false); got != want {
				t.Fatalf("depth %d, indent %d: with steps:\n%s\nwithout:\n%s", depth, unit, got, want)
			}
			seen = append(seen, at{depth, unit})
		}
	}
	for i, s := range seen {
		ls := pl.laidAt(s.depth*s.unit, s.unit)
		if i < laidSlots && (ls == nil || ls.base != s.depth*s.unit || ls.unit != s.unit) {
			t.Fatalf("indentation %d (%+v): not laid out in a slot", i, s)
		}
		if i >= laidSlots && ls != nil {
			t.Fatalf("indentation %d (%+v): laid out, with %d slots", i, s, laidSlots)
		}
	}
	// An open line is laid out in the text of the step after it: B's in
	// C's, D's in E's, F's in G's (an empty struct, written as a value).
	ls := pl.laidAt(seen[0].depth*seen[0].unit, seen[0].unit)
	var texts []string
	for _, s := range ls.steps {
		texts = append(texts, string(s.text))
	}
	if got, want := strings.Join(texts, "|"), "\n A: |\n B:\n  C: |\n  D:\n   E: |\n F:\n  G"; got != want {
		t.Fatalf("laid texts %q, want %q", got, want)
	}
}

// laidItem's first field opens two objects, so that as a list item its
// hyphen line is laid out with the lines of the fields after it; its slice
// field makes a slice of it a list rather than a table.
type laidItem struct {
	A struct {
		B struct{ C string }
		D int
	}
	E []string
}

// laidRows' first field is a table, written by writeFieldValue after the
// hyphen line's key.
type laidRows struct {
	R []stepsLeaf
	S struct{ T int }
}

// TestLaidStepsListItems writes structs with steps as list items, whose
// first line is the hyphen line (laidSteps.hyphen), at several depths and
// indentations (one past the length of the spaces constant), the first
// field a value, two objects or a table, each with its slots emptied so
// that writeSteps writes it: the same text as without steps, through
// Marshal and through Encode past its flush size.
func TestLaidStepsListItems(t *testing.T) {
	var a laidOnly
	a.A, a.B.C = "x", 3
	var b laidItem
	b.A.B.C, b.A.D, b.E = "y:z", -1, []string{"e"}
	c := laidRows{R: []stepsLeaf{{S: "r", I: 1}, {S: "s", B: true}}}
	c.S.T = 9
	many := make([]laidItem, flushSize/16)
	for i := range many {
		many[i] = b
		many[i].A.D = i
	}
	run := func(steps bool, x any, unit int) (string, string) {
		defer func(old bool) { useSteps = old }(useSteps)
		useSteps = steps
		out, err := Marshal(x, WithIndent(unit))
		if err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		if err := NewEncoder(&w, WithIndent(unit)).Encode(x); err != nil {
			t.Fatal(err)
		}
		return string(out), w.String()
	}
	for _, unit := range []int{1, 2, 3, 4, len(spaces) + 1} {
		for depth := 0; depth <= 2; depth++ {
			for _, list := range []any{[]laidOnly{a, a}, []laidItem{b, b}, []laidRows{c, c}, []any{b, 1, a, c}, many} {
				x := list
				for range depth {
					x = map[string]any{"k": x}
				}
				for _, v := range []any{a, b, c} {
					emptySlots(v)
				}
				m1, e1 := run(true, x, unit)
				// The items' fields are two levels below the list's
				// header, which is at the root for depths 0 and 1.
				base := (max(depth, 1) + 1) * unit
				for _, v := range []any{a, b, c} {
					if pl := encPlanOf(reflect.TypeOf(v)); pl.laid[0].Load() == nil && strings.Contains(fmt.Sprintf("%T", list), fmt.Sprintf("%T", v)) {
						t.Fatalf("%T at depth %d, indent %d: %T not laid out", list, depth, unit, v)
					} else if ls := pl.laid[0].Load(); ls != nil && (ls.base != base || ls.unit != unit) {
						t.Fatalf("%T at depth %d, indent %d: %T laid out at %d, %d; want %d, %d", list, depth, unit, v, ls.base, ls.unit, base, unit)
					}
				}
				m0, e0 := run(false, x, unit)
				if m1 != m0 || e1 != e0 {
					t.Fatalf("%T at depth %d, indent %d: Marshal with steps:\n%s\nwithout:\n%s", list, depth, unit, m1, m0)
				}
			}
		}
	}
	// The hyphen line of a laidItem with its fields at depth 2, indent 2.
	ls := emptySlots(b).laidAt(4, 2)
	if got, want := string(ls.items[0].text), "\n  - A:\n      B:\n        C: "; got != want {
		t.Fatalf("hyphen text %q, want %q", got, want)
	}
}

// TestLaidStepsConcurrent writes one type at more indentations than it has
// slots from several goroutines at once, its slots empty: every text is
// the one written without steps, whichever goroutine laid out a slot.
func TestLaidStepsConcurrent(t *testing.T) {
	var v laidOnly
	v.A, v.B.C = "c", 1
	x := map[string]any{"k": []any{v, v}}
	const units = 6
	var want [units]string
	defer func(old bool) { useSteps = old }(useSteps)
	useSteps = false
	for u := range want {
		out, err := Marshal(x, WithIndent(u+1))
		if err != nil {
			t.Fatal(err)
		}
		want[u] = string(out)
	}
	useSteps = true
	emptySlots(v)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				u := (g + i) % units
				if out, err := Marshal(x, WithIndent(u+1)); err != nil || string(out) != want[u] {
					errs <- fmt.Sprintf("goroutine %d, indent %d: %v\n%s", g, u+1, err, out)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
