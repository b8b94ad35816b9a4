package toon

import (
	"math"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestValueKinds checks that every constructor's Value reads back as its
// kind and content, whatever the address of the text, including empty
// texts (which hold a tag rather than their own, possibly nil, address).
func TestValueKinds(t *testing.T) {
	built := strings.Repeat("ab", 2) // not a literal's address
	cases := []struct {
		v    Value
		kind valueKind
		str  string
		u    uint64
	}{
		{Value{}, vNull, "", 0},
		{Null(), vNull, "", 0},
		{String(""), vString, "", 0},
		{String(built[:0]), vString, "", 0},
		{Bytes(nil), vString, "", 0},
		{Bytes([]byte{}), vString, "", 0},
		{String("abab"), vString, "abab", 4},
		{Bytes([]byte(built)), vString, "abab", 4},
		{NumberValue("1.50"), vNumber, "1.50", 4 | numberBit},
		{NumberValue(""), vNumber, "", 0},
		{Int(-1), vInt, "", math.MaxUint64},
		{Uint(math.MaxUint64), vUint, "", math.MaxUint64},
		{Float(-0.5), vFloat, "", math.Float64bits(-0.5)},
		{Float32(0.1), vFloat32, "", math.Float64bits(float64(float32(0.1)))},
		{Bool(true), vBool, "", 1},
		{Bool(false), vBool, "", 0},
	}
	for i, c := range cases {
		if k := c.v.kind(); k != c.kind {
			t.Errorf("case %d: kind %d, want %d", i, k, c.kind)
		}
		if s := c.v.str(); s != c.str {
			t.Errorf("case %d: text %q, want %q", i, s, c.str)
		}
		if c.v.u != c.u {
			t.Errorf("case %d: payload %#x, want %#x", i, c.v.u, c.u)
		}
	}
	// A string's Value refers to the string's bytes.
	if v := String(built); v.p != mem.StringData(built) {
		t.Error("String copied its text")
	}
}

// TestValueEqual checks Equal: same kind and content, whatever the
// addresses of the texts.
func TestValueEqual(t *testing.T) {
	a := strings.Repeat("x", 3)
	b := string([]byte{'x', 'x', 'x'})
	same := [][2]Value{
		{String(a), String(b)},
		{String(a), Bytes([]byte(b))},
		{String(""), Bytes(nil)},
		{NumberValue("10"), NumberValue(Number(strings.Repeat("10", 1)))},
		{Int(7), Int(7)},
		{Float(1.5), Float(1.5)},
		{Bool(true), Bool(true)},
		{Null(), Value{}},
	}
	for i, p := range same {
		if !p[0].Equal(p[1]) || !p[1].Equal(p[0]) {
			t.Errorf("pair %d: %v and %v are not Equal", i, p[0], p[1])
		}
	}
	differ := [][2]Value{
		{String(a), String("xx")},
		{String(""), Null()},
		{String("1"), NumberValue("1")},
		{Int(1), Bool(true)},
		{Int(1), Uint(1)},
		{Int(0), Null()},
		{Bool(false), Null()},
		{Float(0), Float(math.Copysign(0, -1))},
		{Float(1), Float32(1)},
		{NumberValue(""), String("")},
	}
	for i, p := range differ {
		if p[0].Equal(p[1]) || p[1].Equal(p[0]) {
			t.Errorf("pair %d: %v and %v are Equal", i, p[0], p[1])
		}
	}
}

// TestValueString checks the text String gives, that of Marshal at the
// root.
func TestValueString(t *testing.T) {
	cases := []struct {
		v    Value
		want string
	}{
		{Null(), "null"},
		{String("a b"), "a b"},
		{String("1,2"), `"1,2"`},
		{String(""), `""`},
		{Int(-12), "-12"},
		{Float(1e21), "1e+21"},
		{Float(math.NaN()), "null"},
		{Bool(false), "false"},
		{NumberValue("1.50e1"), "15"},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
		out, err := Marshal(c.v)
		if err != nil || string(out) != c.want {
			t.Errorf("Marshal = %q, %v; want %q", out, err, c.want)
		}
	}
	if got := NumberValue("1x").String(); !strings.Contains(got, "1x") {
		t.Errorf("String of a malformed NumberValue: %q", got)
	}
}

func TestNumberValid(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "12": true, "1.5": true, "-1.5e10": true, "2E-3": true, "0.25": true,
		"": false, "-": false, "05": false, "+1": false, "1.": false, ".5": false, "1e": false, "1e+": false, "1x": false, " 1": false,
	} {
		if got := Number(s).Valid(); got != want {
			t.Errorf("Number(%q).Valid() = %v, want %v", s, got, want)
		}
	}
}
