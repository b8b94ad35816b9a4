package mem

import "testing"

// TestMapElemString checks that MapElemString finds each value of maps of
// small and large value types (stored in the map's slots, and behind a
// pointer), of a named string key type, at an address that reads the
// value, and reports a missing key.
func TestMapElemString(t *testing.T) {
	type big struct {
		A [40]int
		S string
	}
	type name string
	small := map[string]int{}
	large := map[name]big{}
	for i := range 100 {
		k := string(rune('a'+i%26)) + string(rune('A'+i/26))
		small[k] = i
		large[name(k)] = big{A: [40]int{i, i * 2}, S: k}
	}
	var sa, la any = small, large
	for k, v := range small {
		p := MapElemString(AnyType(&sa), AnyData(&sa), k)
		if p.IsNil() || Load[int](p) != v {
			t.Fatalf("small[%q]: got %v", k, p)
		}
		q := MapElemString(AnyType(&la), AnyData(&la), k)
		if q.IsNil() || *As[big](q) != large[name(k)] {
			t.Fatalf("large[%q]: wrong value", k)
		}
	}
	if !MapElemString(AnyType(&sa), AnyData(&sa), "missing").IsNil() {
		t.Error("a missing key has an address")
	}
	var empty any = map[string]int(nil)
	if !MapElemString(AnyType(&empty), AnyData(&empty), "a").IsNil() {
		t.Error("a key of a nil map has an address")
	}
}
