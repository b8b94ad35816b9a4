package mem

import (
	"reflect"
	"testing"
)

// TestAnyLayout fails if the layout of an interface value is not the one
// AnyType, AnyData and MakeAny assume.
func TestAnyLayout(t *testing.T) {
	n := 42
	s := "text"
	var nilAny any
	if !AnyType(&nilAny).IsNil() || !AnyData(&nilAny).IsNil() {
		t.Fatal("nil any has non-nil words")
	}
	// A pointer is stored in the data word itself.
	var x any = &n
	if AnyData(&x) != Of(&n) {
		t.Fatal("AnyData of a pointer is not the pointer")
	}
	// Other values are stored behind the data word.
	var y any = s
	if Load[string](AnyData(&y)) != s {
		t.Fatal("AnyData of a string does not address it")
	}
	var z any = 7.5
	if Load[float64](AnyData(&z)) != 7.5 {
		t.Fatal("AnyData of a float64 does not address it")
	}
	// Type words tell types apart.
	var y2 any = "other"
	var i any = 7
	if AnyType(&y) != AnyType(&y2) || AnyType(&y) == AnyType(&i) || AnyType(&y).IsNil() {
		t.Fatal("AnyType does not identify the dynamic type")
	}
	// MakeAny is the inverse of the two.
	if m := MakeAny(AnyType(&y), AnyData(&y)); m != y {
		t.Fatalf("MakeAny = %v, want %v", m, y)
	}
	mp := map[string]int{"a": 1}
	var mx any = mp
	back := MakeAny(AnyType(&mx), AnyData(&mx))
	if reflect.ValueOf(back).Pointer() != reflect.ValueOf(mp).Pointer() {
		t.Fatal("MakeAny of a map is not the map")
	}
	if back.(map[string]int)["a"] != 1 {
		t.Fatal("MakeAny of a map does not read it")
	}
}
