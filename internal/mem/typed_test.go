package mem

import (
	"reflect"
	"testing"
)

func TestSliceHeader(t *testing.T) {
	if Sizeof[SliceHeader]() != Sizeof[[]int]() {
		t.Fatalf("SliceHeader is %d bytes, a slice %d", Sizeof[SliceHeader](), Sizeof[[]int]())
	}
	x := make([]int32, 3, 5)
	x[1] = 7
	h := As[SliceHeader](Of(&x))
	if h.Data != SliceData(x) || h.Len != 3 || h.Cap != 5 {
		t.Fatalf("header %+v does not describe the slice", *h)
	}
	h.Len = 4
	if len(x) != 4 || x[1] != 7 {
		t.Fatalf("a store through the header gave %v", x)
	}
	Store(Of(&x), SliceHeader{})
	if x != nil {
		t.Fatalf("a zero header gave %v, want nil", x)
	}
}

func TestReflectBridges(t *testing.T) {
	type pair struct {
		A int
		B string
	}
	var v pair
	rv := NewAt(reflect.TypeFor[pair](), Of(&v))
	rv.Elem().Field(1).SetString("b")
	if v.B != "b" || rv.Interface().(*pair) != &v {
		t.Fatal("NewAt does not point at the value")
	}
	if PtrOf(rv) != Of(&v) {
		t.Fatal("PtrOf(NewAt(p)) != p")
	}
	m := map[int]int{}
	if PtrOf(reflect.ValueOf(m)) != Load[Ptr](Of(&m)) {
		t.Fatal("PtrOf of a map is not the map's word")
	}
}

func TestMapAssign(t *testing.T) {
	type big struct {
		S string
		A [40]int // more than 128 bytes: the map holds the value indirectly
	}
	m := map[string]big{"a": {S: "old"}}
	typ := TypeWord(reflect.TypeFor[map[string]big]())
	mp := Load[Ptr](Of(&m))
	for i := 0; i < 100; i++ { // enough keys to grow the map
		k := string(rune('b' + i))
		e := As[big](MapAssign(typ, mp, Of(&k)))
		if e.S != "" || e.A[3] != 0 {
			t.Fatalf("new key %q: value %+v, want zero", k, *e)
		}
		e.S, e.A[3] = k, i
	}
	k := "a"
	if e := As[big](MapAssign(typ, mp, Of(&k))); e.S != "old" {
		t.Fatalf("existing key: value %q, want old", e.S)
	}
	if len(m) != 101 || m["c"].S != "c" || m["c"].A[3] != 1 || m["a"].S != "old" {
		t.Fatalf("map after assignments: %d keys, c=%+v", len(m), m["c"].S)
	}
	ints := map[int16]float64{}
	ip := Load[Ptr](Of(&ints))
	ik := int16(-3)
	*As[float64](MapAssign(TypeWord(reflect.TypeFor[map[int16]float64]()), ip, Of(&ik))) = 2.5
	if ints[-3] != 2.5 || len(ints) != 1 {
		t.Fatalf("int keys: %v", ints)
	}
}

func TestMakeNoZero(t *testing.T) {
	if b := MakeNoZero(0); b != nil {
		t.Fatalf("MakeNoZero(0) = %v, want nil", b)
	}
	var kept [][]byte
	for _, n := range []int{1, 7, 100, 4096, 1 << 16} {
		b := MakeNoZero(n)
		if len(b) != 0 || cap(b) < n {
			t.Fatalf("MakeNoZero(%d): len %d cap %d", n, len(b), cap(b))
		}
		for i := 0; i < n; i++ {
			b = append(b, byte('a'+i%26))
		}
		kept = append(kept, b)
	}
	for _, b := range kept { // each buffer is its own: no later one wrote over it
		for i := range b {
			if b[i] != byte('a'+i%26) {
				t.Fatalf("byte %d of a buffer of %d changed", i, len(b))
			}
		}
	}
}
