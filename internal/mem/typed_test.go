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
