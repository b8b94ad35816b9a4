package toon

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

type uAddr struct {
	City    string `toon:"city"`
	Country string `json:"country"`
}

type uBase struct {
	ID      int    `toon:"id"`
	Created string `toon:"created"`
}

type UPtrBase struct {
	Note string `toon:"note"`
}

type uUser struct {
	uBase
	*UPtrBase
	Name     string           `toon:"name"`
	Email    string           `json:"email,omitempty"`
	Skip     string           `toon:"-"`
	Dash     string           `toon:"-,"`
	Plain    int              // no tag: the field name
	JSONOnly bool             `json:"json_only"`
	Both     int              `toon:"both_toon" json:"both_json"`
	Addr     uAddr            `toon:"addr"`
	AddrP    *uAddr           `toon:"addr_p"`
	Tags     []string         `toon:"tags"`
	Grid     [][]int          `toon:"grid"`
	Scores   map[string]int   `toon:"scores"`
	ByID     map[int]string   `toon:"by_id"`
	Any      any              `toon:"any"`
	Arr      [3]int           `toon:"arr"`
	Ptr      *int             `toon:"ptr"`
	When     time.Time        `toon:"when"`
	Raw      []byte           `toon:"raw"`
	JN       json.Number      `toon:"jn"`
	N        Number           `toon:"n"`
	Big      *big.Int         `toon:"big"`
	BigF     *big.Float       `toon:"bigf"`
	F32      float32          `toon:"f32"`
	U8       uint8            `toon:"u8"`
	I16      int16            `toon:"i16"`
	Ord      Object           `toon:"ord"`
	Rows     []uAddr          `toon:"rows"`
	Keyed    map[string]uAddr `toon:"keyed"`
	//lint:ignore U1000 an unexported field, which Unmarshal must leave alone
	unexport int
	Named    map[uKey]float64  `toon:"named"`
	Nested   map[string][]uint `toon:"nested"`
}

// uKey is a map key decoded through encoding.TextUnmarshaler.
type uKey struct{ a, b string }

func (k *uKey) UnmarshalText(b []byte) error {
	x, y, ok := strings.Cut(string(b), "/")
	if !ok {
		return errors.New("no slash")
	}
	k.a, k.b = x, y
	return nil
}

func (k uKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

const uDoc = `id: 7
created: yesterday
note: embedded through a pointer
name: Ada
email: ada@example.com
Skip: ignored
"-": dash
Plain: 3
json_only: true
both_toon: 5
both_json: 6
addr:
  city: London
  country: UK
addr_p:
  city: Paris
tags[3]: a,"b,c",""
grid[2]:
  - [2]: 1,2
  - [0]:
scores:
  x: 1
  y: -2
by_id:
  "1": one
  "-20": minus twenty
any:
  k[2]: 1,true
arr[4]: 1,2,3,4
ptr: 42
when: "2024-05-06T07:08:09.123456789+02:00"
raw: aGVsbG8=
jn: 1.50
n: -0.0e5
big: 123456789012345678901234567890
bigf: 3.14159265358979323846264338327950288
f32: 1.5
u8: 255
i16: -32768
ord:
  z: 1
  a:
    y: 2
    b: 3
rows[2]{city,country}:
  Oslo,NO
  Rome,IT
keyed[2:]{city,country}:
  home: Bergen,NO
  work: Milan,IT
unknown:
  deep[1]: 1
named:
  a/b: 1.25
nested:
  q[2]: 1,2
`

func TestUnmarshalStruct(t *testing.T) {
	var u uUser
	if err := Unmarshal([]byte(uDoc), &u); err != nil {
		t.Fatal(err)
	}
	ptr := 42
	bigI, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	when, _ := time.Parse(time.RFC3339Nano, "2024-05-06T07:08:09.123456789+02:00")
	want := uUser{
		uBase:    uBase{ID: 7, Created: "yesterday"},
		UPtrBase: &UPtrBase{Note: "embedded through a pointer"},
		Name:     "Ada", Email: "ada@example.com", Dash: "dash", Plain: 3, JSONOnly: true, Both: 5,
		Addr:   uAddr{"London", "UK"},
		AddrP:  &uAddr{City: "Paris"},
		Tags:   []string{"a", "b,c", ""},
		Grid:   [][]int{{1, 2}, {}},
		Scores: map[string]int{"x": 1, "y": -2},
		ByID:   map[int]string{1: "one", -20: "minus twenty"},
		Any:    map[string]any{"k": []any{1.0, true}},
		Arr:    [3]int{1, 2, 3},
		Ptr:    &ptr,
		When:   when,
		Raw:    []byte("hello"),
		JN:     "1.50",
		N:      "-0.0e5",
		Big:    bigI,
		F32:    1.5, U8: 255, I16: -32768,
		Ord:    Object{{"z", 1.0}, {"a", Object{{"y", 2.0}, {"b", 3.0}}}},
		Rows:   []uAddr{{"Oslo", "NO"}, {"Rome", "IT"}},
		Keyed:  map[string]uAddr{"home": {"Bergen", "NO"}, "work": {"Milan", "IT"}},
		Named:  map[uKey]float64{{"a", "b"}: 1.25},
		Nested: map[string][]uint{"q": {1, 2}},
	}
	if u.BigF == nil || u.BigF.Text('g', 36) != "3.14159265358979323846264338327950288" {
		t.Errorf("bigf = %v", u.BigF)
	}
	u.BigF = nil
	if !u.When.Equal(want.When) {
		t.Errorf("when = %v, want %v", u.When, want.When)
	}
	u.When = want.When
	if !reflect.DeepEqual(u, want) {
		t.Errorf("got  %+v\nwant %+v", u, want)
	}
}

func TestUnmarshalEmbeddedConflicts(t *testing.T) {
	type A struct{ X, Y int }
	type B struct {
		X int
		Y int `toon:"Y"`
	}
	type C struct {
		A
		B
		X int `toon:"X"` // shallowest wins
	}
	var c C
	if err := Unmarshal([]byte("X: 1\nY: 2"), &c); err != nil {
		t.Fatal(err)
	}
	// X is C.X; Y is B.Y (tagged beats untagged at equal depth).
	if c.X != 1 || c.B.Y != 2 || c.A.Y != 0 || c.A.X != 0 || c.B.X != 0 {
		t.Errorf("got %+v", c)
	}
	type D struct {
		A
		B2 A `toon:"b2"`
	}
	type E struct {
		A
		D // D.A.X is deeper than E.A.X
	}
	var e E
	if err := Unmarshal([]byte("X: 5"), &e); err != nil {
		t.Fatal(err)
	}
	if e.A.X != 5 || e.D.A.X != 0 {
		t.Errorf("got %+v", e)
	}
}

func TestUnmarshalCaseSensitive(t *testing.T) {
	var v struct {
		Name string `toon:"name"`
		Age  int
	}
	if err := Unmarshal([]byte("Name: x\nname: y\nage: 3\nAge: 4"), &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != "y" || v.Age != 4 {
		t.Errorf("got %+v", v)
	}
}

// TestUnmarshalKeyWords holds decStruct's comparison of a key with the
// expected field's name by words (mem.TextWords) to the field lookup:
// names of the same length that differ in one byte, at every length the
// words cover and past it, keys in and out of the fields' order, and
// unknown keys of the expected name's length that differ from it in one
// byte, against encoding/json.
func TestUnmarshalKeyWords(t *testing.T) {
	type fields struct {
		A1  int `json:"a"`
		B1  int `json:"b"`
		A2  int `json:"ab"`
		B2  int `json:"ac"`
		A3  int `json:"abc"`
		B3  int `json:"abd"`
		C3  int `json:"xbc"`
		A4  int `json:"abcd"`
		B4  int `json:"abcx"`
		A7  int `json:"abcdefg"`
		B7  int `json:"abcxefg"`
		A8  int `json:"abcdefgh"`
		B8  int `json:"abcdefgx"`
		A9  int `json:"abcdefghi"`
		B9  int `json:"abcdxfghi"`
		A16 int `json:"abcdefghijklmnop"`
		B16 int `json:"abcdefghxjklmnop"`
		A17 int `json:"abcdefghijklmnopq"`
		B17 int `json:"abcdefghijklmnopx"`
	}
	keys := []string{"a", "b", "ab", "ac", "abc", "abd", "xbc", "abcd", "abcx", "abcdefg", "abcxefg", "abcdefgh", "abcdefgx",
		"abcdefghi", "abcdxfghi", "abcdefghijklmnop", "abcdefghxjklmnop", "abcdefghijklmnopq", "abcdefghijklmnopx",
		"c", "ax", "abe", "abcy", "abcdefx", "abcdefgy", "abcdefghx", "abcdefghijklmnox", "abcdefghijklmnopy", ""}
	orders := [][]string{keys, nil, nil}
	for i := len(keys) - 1; i >= 0; i-- {
		orders[1] = append(orders[1], keys[i])
	}
	for i := range keys {
		orders[2] = append(orders[2], keys[(i*7)%len(keys)])
	}
	// Every other field, by turns, is left out and stands as unknown keys
	// of its name's length that differ from it in the first, the middle
	// or the last byte: each of them comes when decStruct expects that
	// field next (after the field before it), so a comparison of only one
	// of the two words takes one of them for the field, which then holds
	// its value where encoding/json leaves it zero.
	for turn := range 2 {
		var ks []string
		seen := map[string]bool{}
		for i, k := range keys[:19] {
			if i%2 != turn {
				ks = append(ks, k)
				continue
			}
			for _, at := range []int{0, len(k) / 2, len(k) - 1} {
				for _, c := range "~!%^" {
					if tw := k[:at] + string(c) + k[at+1:]; !seen[tw] {
						seen[tw] = true
						ks = append(ks, tw)
						break
					}
				}
			}
		}
		orders = append(orders, ks)
	}
	for _, ks := range orders {
		var tb, jb strings.Builder
		jb.WriteString("{")
		for i, k := range ks {
			fmt.Fprintf(&tb, "%q: %d\n", k, i+1)
			if i > 0 {
				jb.WriteString(",")
			}
			fmt.Fprintf(&jb, "%q: %d", k, i+1)
		}
		jb.WriteString("}")
		var got, want fields
		if err := Unmarshal([]byte(tb.String()), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(jb.String()), &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("keys %q:\n got %+v\nwant %+v", ks, got, want)
		}
	}
}

func TestUnmarshalUnknownFields(t *testing.T) {
	type T struct {
		A int `toon:"a"`
	}
	var v T
	if err := Unmarshal([]byte("a: 1\nb: 2"), &v); err != nil || v.A != 1 {
		t.Fatalf("got %+v, %v", v, err)
	}
	err := Unmarshal([]byte("a: 1\n  \nb:\n  c: 2"), &v, DisallowUnknownFields())
	var ue *UnknownFieldError
	if !errors.As(err, &ue) || ue.Key != "b" || ue.Line != 3 || ue.Column != 1 {
		t.Fatalf("got %v", err)
	}
	var rows []T
	err = Unmarshal([]byte("[1]{a,zz}:\n  1,2"), &rows, DisallowUnknownFields())
	if !errors.As(err, &ue) || ue.Key != "zz" || ue.Line != 1 {
		t.Fatalf("got %v", err)
	}
	if len(rows) != 1 || rows[0].A != 1 {
		t.Errorf("rows = %+v", rows)
	}
}

// TestUnmarshalErrors checks each kind of mismatch: what, where and the
// Go type, and that decoding goes on past it.
func TestUnmarshalErrors(t *testing.T) {
	type Row struct {
		ID   int8      `toon:"id"`
		Name string    `toon:"name"`
		OK   bool      `toon:"ok"`
		At   time.Time `toon:"at"`
		U    uint16    `toon:"u"`
		F    float32   `toon:"f"`
	}
	type Doc struct {
		Title string `toon:"title"`
		Rows  []Row  `toon:"rows"`
		Inner struct {
			N int `toon:"n"`
		} `toon:"inner"`
	}
	cases := []struct {
		name, in       string
		value, typ     string
		field          string
		line, col      int
		cause          bool
		wantAfterTitle string
	}{
		{"overflow", "title: t\nrows[1]{id,name,ok,at,u,f}:\n  300,a,true,\"2024-01-01T00:00:00Z\",1,1", "number 300", "int8", "rows.id", 3, 3, false, "t"},
		{"negative unsigned", "rows[1]{id,name,ok,at,u,f}:\n  1,a,true,\"2024-01-01T00:00:00Z\",-1,1", "number -1", "uint16", "rows.u", 2, 35, false, ""},
		{"uint overflow", "rows[1]{id,name,ok,at,u,f}:\n  1,a,true,\"2024-01-01T00:00:00Z\",65536,1", "number 65536", "uint16", "rows.u", 2, 35, false, ""},
		{"fraction", "rows[1]{id,name,ok,at,u,f}:\n  1.5,a,true,\"2024-01-01T00:00:00Z\",1,1", "number 1.5", "int8", "rows.id", 2, 3, false, ""},
		{"float32 range", "rows[1]{id,name,ok,at,u,f}:\n  1,a,true,\"2024-01-01T00:00:00Z\",1,1e39", "number 1e39", "float32", "rows.f", 2, 37, true, ""},
		{"string for int", "rows[1]{id,name,ok,at,u,f}:\n  x1,a,true,\"2024-01-01T00:00:00Z\",1,1", `string "x1"`, "int8", "rows.id", 2, 3, false, ""},
		{"bool for string", "rows[1]{id,name,ok,at,u,f}:\n  1,true,true,\"2024-01-01T00:00:00Z\",1,1", "bool true", "string", "rows.name", 2, 5, false, ""},
		{"number for bool", "rows[1]{id,name,ok,at,u,f}:\n  1,a, 7 ,\"2024-01-01T00:00:00Z\",1,1", "number 7", "bool", "rows.ok", 2, 8, false, ""},
		{"null cell is fine, bad quoted cell", "rows[1]{id,name,ok,at,u,f}:\n  null,\"q\",null,\"yesterday\",1,1", `string "yesterday"`, "time.Time", "rows.at", 2, 17, true, ""},
		{"bad time in field", "title: x\ninner:\n  n: \"9\"", `string "9"`, "int", "inner.n", 3, 6, false, "x"},
		{"object for string", "title:\n  a: 1\ninner:\n  n: 1", "object", "string", "title", 1, 1, false, ""},
		{"array for struct", "inner[1]: 1", "array", "struct { N int \"toon:\\\"n\\\"\" }", "inner", 1, 1, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d Doc
			err := Unmarshal([]byte(c.in), &d)
			var ute *UnmarshalTypeError
			if !errors.As(err, &ute) {
				t.Fatalf("got %v, want an UnmarshalTypeError", err)
			}
			if ute.Value != c.value || ute.Type != c.typ || ute.Field != c.field || ute.Line != c.line || ute.Column != c.col {
				t.Errorf("got {%q %q %q line %d col %d}, want {%q %q %q line %d col %d}", ute.Value, ute.Type, ute.Field, ute.Line, ute.Column,
					c.value, c.typ, c.field, c.line, c.col)
			}
			if (ute.Err != nil) != c.cause {
				t.Errorf("cause = %v", ute.Err)
			}
			if d.Title != c.wantAfterTitle {
				t.Errorf("title = %q", d.Title)
			}
			if !strings.Contains(err.Error(), "line "+strconv.Itoa(c.line)+", column "+strconv.Itoa(c.col)) {
				t.Errorf("message %q lacks the position", err)
			}
		})
	}
}

func TestUnmarshalGoesOnPastMismatch(t *testing.T) {
	type Row struct {
		A int    `toon:"a"`
		B string `toon:"b"`
	}
	var rows []Row
	err := Unmarshal([]byte("[3]{a,b}:\n  1,x\n  y,z\n  3,w"), &rows)
	var ute *UnmarshalTypeError
	if !errors.As(err, &ute) || ute.Line != 3 {
		t.Fatalf("got %v", err)
	}
	want := []Row{{1, "x"}, {0, "z"}, {3, "w"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got %+v", rows)
	}
}

func TestUnmarshalNumbersFit(t *testing.T) {
	fits := func(in string, p any) error { return Unmarshal([]byte(in), p) }
	var i8 int8
	var i64 int64
	var u64 uint64
	var f64 float64
	for _, c := range []struct {
		in string
		p  any
		ok bool
	}{
		{"127", &i8, true}, {"128", &i8, false}, {"-128", &i8, true}, {"-129", &i8, false},
		{"9223372036854775807", &i64, true}, {"9223372036854775808", &i64, false},
		{"-9223372036854775808", &i64, true}, {"1e3", &i64, true}, {"1.0", &i64, true}, {"1.25e1", &i64, false},
		{"18446744073709551615", &u64, true}, {"18446744073709551616", &u64, false}, {"-0", &u64, true},
		{"1e308", &f64, true}, {"1e309", &f64, false}, {"-1e309", &f64, false},
	} {
		err := fits(c.in, c.p)
		if (err == nil) != c.ok {
			t.Errorf("%s into %T: %v", c.in, c.p, err)
		}
	}
	if i64 != 1 || u64 != 0 {
		t.Errorf("i64=%d u64=%d", i64, u64)
	}
}

func TestUnmarshalNullAndReuse(t *testing.T) {
	type T struct {
		A int            `toon:"a"`
		P *int           `toon:"p"`
		S []int          `toon:"s"`
		M map[string]int `toon:"m"`
		I any            `toon:"i"`
	}
	one := 1
	v := T{A: 5, P: &one, S: []int{1}, M: map[string]int{"a": 1}, I: 3}
	if err := Unmarshal([]byte("a: null\np: null\ns: null\nm: null\ni: null"), &v); err != nil {
		t.Fatal(err)
	}
	if v.A != 5 || v.P != nil || v.S != nil || v.M != nil || v.I != nil {
		t.Errorf("got %+v", v)
	}
	// A slice's backing array is reused and its elements start from zero.
	type R struct{ A, B int }
	rows := make([]R, 1, 4)
	rows[0] = R{9, 9}
	back := &rows[:4][3]
	*back = R{7, 7}
	if err := Unmarshal([]byte("[4]:\n  - A: 1\n  - B: 2\n  - A: 3\n  - B: 4"), &rows); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, []R{{1, 0}, {0, 2}, {3, 0}, {0, 4}}) || &rows[3] != back {
		t.Errorf("got %+v", rows)
	}
	var empty []int
	if err := Unmarshal([]byte("[]"), &empty); err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("got %#v, %v", empty, err)
	}
}

// hooked implements all three unmarshal hooks; Unmarshaler must win.
type hooked struct{ via string }

func (h *hooked) UnmarshalTOON(v any) error {
	if s, ok := v.(string); ok && s == "fail" {
		return errors.New("refused")
	}
	h.via = "toon:" + describe(v)
	return nil
}
func (h *hooked) UnmarshalJSON(b []byte) error { h.via = "json:" + string(b); return nil }
func (h *hooked) UnmarshalText(b []byte) error { h.via = "text:" + string(b); return nil }

type jsonHooked struct{ via string }

func (h *jsonHooked) UnmarshalJSON(b []byte) error { h.via = "json:" + string(b); return nil }
func (h *jsonHooked) UnmarshalText(b []byte) error { h.via = "text:" + string(b); return nil }

type textHooked struct{ via string }

func (h *textHooked) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("bad text")
	}
	h.via = "text:" + string(b)
	return nil
}

func TestUnmarshalHooks(t *testing.T) {
	var v struct {
		H  hooked      `toon:"h"`
		J  jsonHooked  `toon:"j"`
		T  textHooked  `toon:"t"`
		TP *textHooked `toon:"tp"`
		N  Number      `toon:"n"`
	}
	in := "h:\n  a[2]: 1,x\nj:\n  b: 1.50\n  a[1]: \"q\\\"\"\nt: hello\ntp: there\nn: 2"
	if err := Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.H.via != "toon:object" || v.J.via != `json:{"b":1.50,"a":["q\""]}` || v.T.via != "text:hello" || v.TP.via != "text:there" {
		t.Errorf("got %+v %+v %+v %+v", v.H, v.J, v.T, v.TP)
	}
	err := Unmarshal([]byte("t: x\nh: fail"), &v)
	var ute *UnmarshalTypeError
	if !errors.As(err, &ute) || ute.Line != 2 || ute.Column != 4 || ute.Err == nil || ute.Err.Error() != "refused" {
		t.Fatalf("got %#v", err)
	}
	err = Unmarshal([]byte("t: bad"), &v)
	if !errors.As(err, &ute) || ute.Line != 1 || ute.Column != 4 || ute.Field != "t" {
		t.Fatalf("got %v", err)
	}
}

func TestUnmarshalIntern(t *testing.T) {
	type R struct {
		C string `toon:"c"`
	}
	in := []byte("[3]{c}:\n  DK\n  DK\n  UK")
	var rows []R
	if err := Unmarshal(in, &rows, InternStrings()); err != nil {
		t.Fatal(err)
	}
	if unsafe.StringData(rows[0].C) != unsafe.StringData(rows[1].C) || rows[2].C != "UK" {
		t.Error("repeated strings are not shared")
	}
	// The strings do not refer to the input.
	copy(in, strings.Repeat("x", len(in)))
	if rows[0].C != "DK" {
		t.Errorf("string changed with the input: %q", rows[0].C)
	}
}

func TestUnmarshalInvalidTarget(t *testing.T) {
	var ie *InvalidUnmarshalError
	var x int
	for _, target := range []any{nil, x, (*int)(nil)} {
		if err := Unmarshal([]byte("1"), target); !errors.As(err, &ie) {
			t.Errorf("%T: got %v", target, err)
		}
	}
	var ch chan int
	var ute *UnmarshalTypeError
	if err := Unmarshal([]byte("1"), &ch); !errors.As(err, &ute) {
		t.Errorf("chan: got %v", err)
	}
}

// FuzzUnmarshalStruct checks that no input makes typed decoding panic.
func FuzzUnmarshalStruct(f *testing.F) {
	f.Add([]byte(uDoc))
	f.Add([]byte("[2]{id,name}:\n  1,a\n  2,b"))
	f.Add([]byte("rows[1]{city,country}:\n  \"x\",1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var u uUser
		_ = Unmarshal(data, &u)
		var rows []uAddr
		_ = Unmarshal(data, &rows)
		var m map[int]uint8
		_ = Unmarshal(data, &m)
	})
}

func TestUnmarshalValue(t *testing.T) {
	var v []Value
	if err := Unmarshal([]byte("[4]: x,1.50,true,null"), &v); err != nil {
		t.Fatal(err)
	}
	want := []Value{String("x"), NumberValue("1.50"), Bool(true), Null()}
	if len(v) != len(want) {
		t.Fatalf("got %v", v)
	}
	for i := range v {
		if !v[i].Equal(want[i]) {
			t.Errorf("cell %d: got %v, want %v", i, v[i], want[i])
		}
	}
	out, err := Marshal(v)
	if err != nil || string(out) != "[4]: x,1.5,true,null" {
		t.Errorf("got %q, %v", out, err)
	}
}

// TestUnmarshalRowPlanReuse decodes tables in the items of a list, whose
// headers repeat, differ, or name fields the struct lacks: a row plan
// reused for a repeated header must give what a new plan gives, and an
// unknown field is reported at its own header.
func TestUnmarshalRowPlanReuse(t *testing.T) {
	type P struct {
		A int    `toon:"a"`
		B string `toon:"b"`
		G struct {
			X int `toon:"x"`
		} `toon:"g"`
	}
	type Q struct {
		A string `toon:"a"`
		B int    `toon:"b"`
	}
	type Item struct {
		Ps []P `toon:"ps"`
		Qs []Q `toon:"qs"`
	}
	doc := "[5]:\n" +
		"  - ps[1]{a,b}:\n      1,x\n    qs[1]{a,b}:\n      y,2\n" +
		"  - ps[1]{b,a}:\n      z,3\n" + // the same names in another order
		"  - ps[1]{a,b}:\n      4,w\n" +
		"  - ps[1]{a,g{x}}:\n      5,6\n" + // a nested group
		"  - ps[2]{a,g{x}}:\n      7,8\n      9,10\n"
	var items []Item
	if err := Unmarshal([]byte(doc), &items); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v", items)
	want := "[{Ps:[{A:1 B:x G:{X:0}}] Qs:[{A:y B:2}]} {Ps:[{A:3 B:z G:{X:0}}] Qs:[]} {Ps:[{A:4 B:w G:{X:0}}] Qs:[]} " +
		"{Ps:[{A:5 B: G:{X:6}}] Qs:[]} {Ps:[{A:7 B: G:{X:8}} {A:9 B: G:{X:10}}] Qs:[]}]"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var ue *UnknownFieldError
	err := Unmarshal([]byte("[2]:\n  - ps[1]{a,b}:\n      1,x\n  - ps[1]{a,zz}:\n      2,y\n"), &items, DisallowUnknownFields())
	if !errors.As(err, &ue) || ue.Key != "zz" || ue.Line != 4 {
		t.Fatalf("got %v, want the unknown field zz on line 4", err)
	}
	// Element by element, each header with an unknown field reports it,
	// however many tables of that header came before.
	doc = "[3]:\n  - ps[1]{a,zz}:\n      1,x\n  - ps[1]{a,zz}:\n      2,y\n  - ps[1]{a,zz}:\n      3,z\n"
	lines := []int{}
	for _, err := range Rows[Item](NewDecoder(strings.NewReader(doc), DisallowUnknownFields())) {
		if errors.As(err, &ue) {
			lines = append(lines, ue.Line)
		}
	}
	if fmt.Sprint(lines) != "[2 4 6]" {
		t.Fatalf("unknown fields reported on lines %v, want [2 4 6]", lines)
	}
}

// TestUnmarshalRowPlanByFieldsID decodes tables in the items of a list
// under headers of every order of four fields, with tables of fields the
// struct lacks between them, so many that the decoder forgets the headers
// it parsed (seenMax) and parses the next one into the memory of the first:
// a later header's fields then lie where an earlier, other header's were,
// whose plan rowPlan still holds, and must not make rowPlan take it (it
// reuses a plan by the decoder's id of the fields, never by their memory
// alone). Every cell names its field, so a plan of another order puts a
// cell in the wrong field.
func TestUnmarshalRowPlanByFieldsID(t *testing.T) {
	type R struct {
		A string `toon:"a"`
		B string `toon:"b"`
		C string `toon:"c"`
		D string `toon:"d"`
	}
	type Item struct {
		Rs []R `toon:"rs"`
	}
	var perms [][]string
	var permute func(rest, at []string)
	permute = func(rest, at []string) {
		if len(rest) == 0 {
			perms = append(perms, slices.Clone(at))
		}
		for i := range rest {
			permute(slices.Concat(rest[:i], rest[i+1:]), append(at, rest[i]))
		}
	}
	permute([]string{"a", "b", "c", "d"}, nil)
	var body strings.Builder
	var want []Item
	table := func(i int, p []string) {
		fmt.Fprintf(&body, "  - rs[2]{%s}:\n", strings.Join(p, ","))
		var it Item
		for r := range 2 {
			var row R
			cells := make([]string, len(p))
			for j, f := range p {
				v := fmt.Sprintf("%s%d.%d", f, i, r)
				cells[j] = v
				*map[string]*string{"a": &row.A, "b": &row.B, "c": &row.C, "d": &row.D}[f] = v
			}
			fmt.Fprintf(&body, "      %s\n", strings.Join(cells, ","))
			it.Rs = append(it.Rs, row)
		}
		want = append(want, it)
	}
	for i, p := range perms {
		table(i, p)
		// Tables the struct skips: headers parsed, no plan made. With
		// these seven, the decoder holds seenMax headers, and parses the
		// next one where it parsed the first of them.
		for k := range seenMax - 1 {
			fmt.Fprintf(&body, "  - x[1]{p%d,q}:\n      1,2\n", 8*i+k)
			want = append(want, Item{})
		}
	}
	for i := range 3 * len(perms) { // runs of like headers, every order, back again
		table(len(perms)+i, perms[(i*7+i/5)%len(perms)])
	}
	doc := fmt.Sprintf("[%d]:\n%s", len(want), body.String())
	var got []Item
	if err := Unmarshal([]byte(doc), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal: got %+v, want %+v", got, want)
	}
	// A RowDecoder's elements, each with a decState of its own.
	got = got[:0]
	for it, err := range Rows[Item](NewDecoder(strings.NewReader(doc))) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Rows: got %+v, want %+v", got, want)
	}
}

// TestUnmarshalMapEntries checks that the entries of a map, decoded one
// after another through the same element, do not share memory or keep
// anything of the entry before, and that a keyed object fills its map.
func TestUnmarshalMapEntries(t *testing.T) {
	type V struct {
		N  int      `toon:"n"`
		S  []string `toon:"s"`
		P  *int     `toon:"p"`
		On bool     `toon:"on"`
	}
	var m map[string]V
	doc := "a:\n  n: 1\n  s[2]: x,y\n  p: 5\n  on: true\nb:\n  n: 2\nc:\n  s[1]: z\n  p: 6\n"
	if err := Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 3 || m["b"].S != nil || m["b"].P != nil || m["b"].On || m["c"].N != 0 || m["a"].N != 1 {
		t.Fatalf("entries keep values of the ones before: %+v", m)
	}
	if *m["a"].P != 5 || *m["c"].P != 6 || &m["a"].S[0] == &m["c"].S[0] || m["c"].S[0] != "z" || m["a"].S[1] != "y" {
		t.Fatalf("entries share memory or lost values: %+v", m)
	}
	var k map[string]V
	if err := Unmarshal([]byte("[2:]{n,on}:\n  x: 1,true\n  y: 2,false\n"), &k); err != nil || len(k) != 2 || k["x"].N != 1 || !k["x"].On || k["y"].N != 2 {
		t.Fatalf("keyed: %+v, %v", k, err)
	}
	var big map[string]int
	if err := Unmarshal([]byte("[1000000000:]{n}:\n  x: 1\n"), &big); !errors.Is(err, ErrCount) {
		t.Fatalf("a keyed object of a huge declared count: %v", err)
	}
}

// TestUnmarshalAnyBoxes checks the numbers and strings of a generic tree,
// whose interface values share blocks: each keeps its own value, across
// blocks and across documents, and they cost far less than an allocation
// each.
func TestUnmarshalAnyBoxes(t *testing.T) {
	var n, s []string
	for i := 0; i < 300; i++ {
		n = append(n, strconv.Itoa(i)+".5")
		s = append(s, "v"+strconv.Itoa(i))
	}
	doc := []byte("n[300]: " + strings.Join(n, ",") + "\ns[300]: " + strings.Join(s, ",") + "\n")
	var v, w any
	if err := Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(doc, &w); err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	for i := 0; i < 300; i++ {
		if m["n"].([]any)[i] != float64(i)+0.5 || m["s"].([]any)[i] != "v"+strconv.Itoa(i) {
			t.Fatalf("element %d: %v, %v", i, m["n"].([]any)[i], m["s"].([]any)[i])
		}
	}
	if !reflect.DeepEqual(v, w) {
		t.Fatal("two decodings of one document differ")
	}
	allocs := testing.AllocsPerRun(5, func() {
		var x any
		if err := Unmarshal(doc, &x); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 100 { // one per value would be 600
		t.Fatalf("%.0f allocations for 600 values", allocs)
	}
}

// TestUnmarshalMapReplacesEntries checks that a key the map had before,
// a key repeated (non-strict mode), or an integer key written twice in
// two ways (strict mode too) gets a value decoded from zero, as m[k] = v
// would store it, not the old value with fields merged in; with values
// held inside the map and values larger than 128 bytes, which the map
// holds through a pointer.
func TestUnmarshalMapReplacesEntries(t *testing.T) {
	type small struct {
		N int      `toon:"n"`
		S []string `toon:"s"`
	}
	type large struct {
		N   int      `toon:"n"`
		S   []string `toon:"s"`
		Pad [20]int  `toon:"pad"`
	}
	doc := "a:\n  n: 1\nb:\n  s[1]: y\nb:\n  n: 3\n"
	sm := map[string]small{"a": {N: 9, S: []string{"old"}}, "z": {N: 7}}
	if err := Unmarshal([]byte(doc), &sm, WithStrict(false)); err != nil {
		t.Fatal(err)
	}
	if len(sm) != 3 || sm["a"].N != 1 || sm["a"].S != nil || sm["b"].N != 3 || sm["b"].S != nil || sm["z"].N != 7 {
		t.Fatalf("small values: %+v", sm)
	}
	lm := map[string]large{"a": {N: 9, S: []string{"old"}, Pad: [20]int{19: 4}}}
	if err := Unmarshal([]byte(doc), &lm, WithStrict(false)); err != nil {
		t.Fatal(err)
	}
	if len(lm) != 2 || lm["a"].N != 1 || lm["a"].S != nil || lm["a"].Pad[19] != 0 || lm["b"].N != 3 || lm["b"].S != nil {
		t.Fatalf("large values: %+v", lm)
	}
	im := map[int8]string{1: "old"}
	if err := Unmarshal([]byte("\"1\": x\n\"-2\": y\n"), &im); err != nil || len(im) != 2 || im[1] != "x" || im[-2] != "y" {
		t.Fatalf("integer keys: %v, %v", im, err)
	}
	// Two keys of one integer in a map made by Unmarshal: strict mode
	// lets them both through (their texts differ).
	var nm map[int]small
	if err := Unmarshal([]byte("\"1\":\n  n: 1\n\"01\":\n  s[1]: y\n"), &nm); err != nil || len(nm) != 1 || nm[1].N != 0 || len(nm[1].S) != 1 {
		t.Fatalf("integer keys of one value: %+v, %v", nm, err)
	}
}

// TestUnmarshalSlabs decodes many small slices and pointers, whose memory
// comes from shared blocks, with the collector running all along: each
// value must hold its own elements, appending to one slice must not write
// into another's, and no pointer may be left past the end of a block (the
// runtime would throw). Groups of 8, 16 and 32 bytes fill their blocks
// exactly.
func TestUnmarshalSlabs(t *testing.T) {
	type item struct {
		A int    `toon:"a"`
		B string `toon:"b"`
	}
	type rec struct {
		Tags  []string `toon:"tags"`
		Nums  []int64  `toon:"nums"`
		P     *int     `toon:"p"`
		Items []item   `toon:"items"`
	}
	want := make([]rec, 3000)
	for i := range want {
		r := &want[i]
		for j := 0; j < i%4+1; j++ {
			r.Tags = append(r.Tags, "t"+strconv.Itoa(i*10+j))
			r.Nums = append(r.Nums, int64(i*10+j))
			r.Items = append(r.Items, item{A: i + j, B: "b" + strconv.Itoa(j)})
		}
		if i%3 == 0 {
			p := i
			r.P = &p
		}
	}
	doc, err := Marshal(map[string]any{"r": want})
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	for round := 0; round < 3; round++ {
		var got struct {
			R []rec `toon:"r"`
		}
		if err := Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		if !reflect.DeepEqual(got.R, want) {
			t.Fatal("the decoded records differ from the encoded ones")
		}
		for i := range got.R {
			r := &got.R[i]
			if cap(r.Tags) != len(r.Tags) || cap(r.Nums) != len(r.Nums) || cap(r.Items) != len(r.Items) {
				t.Fatalf("record %d: capacity beyond the elements", i)
			}
			r.Tags = append(r.Tags, "extra")
			r.Nums = append(r.Nums, -1)
			r.Items = append(r.Items, item{A: -1})
			if r.P != nil {
				*r.P = -1
			}
		}
		for i := range got.R {
			w, r := &want[i], &got.R[i]
			n := len(w.Tags)
			if !reflect.DeepEqual(r.Tags[:n], w.Tags) || !reflect.DeepEqual(r.Nums[:n], w.Nums) || !reflect.DeepEqual(r.Items[:n], w.Items) {
				t.Fatalf("record %d: an append to another record wrote into its elements", i)
			}
			if w.P != nil && (*r.P != -1 || (i >= 3 && got.R[i-3].P == r.P)) {
				t.Fatalf("record %d: pointers shared", i)
			}
		}
	}
}

// TestUnmarshalAllocsPerRecord holds Unmarshal of records with short
// arrays inside to a few allocations for the whole document (blocks of
// strings and elements, the slice of records), not one per record: an
// empty array costs no allocation, and the elements of the records near
// the end of the input get their capacity ahead as those at the start do.
func TestUnmarshalAllocsPerRecord(t *testing.T) {
	type rec struct {
		ID   int      `toon:"id"`
		Tags []string `toon:"tags"`
		Nums []int    `toon:"nums"`
	}
	recs := make([]rec, 3000)
	for i := range recs {
		recs[i] = rec{ID: i, Tags: []string{}, Nums: []int{}}
		if i%3 != 0 {
			recs[i].Tags = []string{"a" + strconv.Itoa(i%7), "b"}
			recs[i].Nums = []int{i, i + 1, i + 2}
		}
	}
	doc, err := Marshal(map[string]any{"recs": recs})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Recs []rec `toon:"recs"`
	}
	allocs := testing.AllocsPerRun(3, func() {
		got.Recs = nil
		if err := Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
	})
	if !reflect.DeepEqual(got.Recs, recs) {
		t.Fatal("the decoded records differ from the encoded ones")
	}
	for i := range got.Recs {
		if got.Recs[i].Tags == nil || got.Recs[i].Nums == nil {
			t.Fatalf("record %d: an empty array decoded to a nil slice", i)
		}
	}
	if max := float64(len(recs)) / 25; allocs > max {
		t.Errorf("Unmarshal of %d records: %.0f allocations, want at most %.0f", len(recs), allocs, max)
	}
}

// TestUnmarshalGroupPlan holds the rows of a table with nested field
// groups, decoded through the row plan's group plans (groupPlan), to
// decStruct's result: the same values, and the same first mismatch, at
// the same place with the same field path. Groups decoded into a pointer
// field have no group plan and go through decStruct.
func TestUnmarshalGroupPlan(t *testing.T) {
	type pos struct {
		Line int    `toon:"line"`
		Char int    `toon:"char"`
		Tag  string `toon:"tag"`
	}
	type span struct {
		End   pos  `toon:"end"`
		Start pos  `toon:"start"`
		Flag  bool `toon:"flag"`
	}
	type spanP struct {
		End   *pos `toon:"end"`
		Start *pos `toon:"start"`
		Flag  bool `toon:"flag"`
	}
	type row struct {
		Name string  `toon:"name"`
		Span span    `toon:"span"`
		Amt  float64 `toon:"amt"`
	}
	type rowP struct {
		Name string  `toon:"name"`
		Span *spanP  `toon:"span"`
		Amt  float64 `toon:"amt"`
	}
	const head = "rows[3]{name,span{end{line,char,tag},start{line,char,tag},flag},amt}:\n"
	docs := []string{
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,6,\"z w\",7,8,\"\",false,-2\n  c,9,10,null,11,12,v,null,3e2\n",
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,oops,z,7,8,u,false,-2\n  c,9,10,t,11,12,v,true,0\n", // a string for an int
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,6,z,7,8,u,1,-2\n  c,9,10,t,11,12,v,true,0\n",        // a number for a bool
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,6,7,7,8,u,true,-2\n  c,9,10,t,11,12,v,true,0\n",     // a number for a string
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,6,z,7,false,u,true,-2\n  c,9,10,t,11,12,v,true,0\n", // a bool for an int
		head + "  a,1,2,x,3,4,y,true,1.5\n  b,5,6,z,1e400,8,u,true,-2\n  c,9,10,t,11,12,v,true,0\n", // out of range
		"rows[2]{name,span{end{line,zz},flag},amt}:\n  a,1,2,true,1\n  b,3,4,false,2\n",             // a field the group's struct lacks
		"rows[1]{name,span{end,flag},amt}:\n  a,1,true,1\n",                                         // a leaf where the struct has a group
	}
	for i, doc := range docs {
		for _, opts := range [][]Option{nil, {DisallowUnknownFields()}} {
			var got struct {
				Rows []row `toon:"rows"`
			}
			var want struct {
				Rows []rowP `toon:"rows"`
			}
			gerr := Unmarshal([]byte(doc), &got, opts...)
			werr := Unmarshal([]byte(doc), &want, opts...)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Errorf("doc %d, %d options: error\n%v\nwant\n%v", i, len(opts), gerr, werr)
			}
			if len(got.Rows) != len(want.Rows) {
				t.Fatalf("doc %d: %d rows, want %d", i, len(got.Rows), len(want.Rows))
			}
			for j, r := range got.Rows {
				w := want.Rows[j]
				var ws span
				if w.Span != nil {
					ws.Flag = w.Span.Flag
					if w.Span.End != nil {
						ws.End = *w.Span.End
					}
					if w.Span.Start != nil {
						ws.Start = *w.Span.Start
					}
				}
				if r.Name != w.Name || r.Amt != w.Amt || r.Span != ws {
					t.Errorf("doc %d row %d: got %+v, want %+v %+v", i, j, r, w, ws)
				}
			}
		}
	}
}

// TestUnmarshalValueRows decodes the rows of tables into Values, which hold
// primitives only: a row is an object, and so a mismatch, as the items of
// a list of objects are, not a Value left null without an error.
func TestUnmarshalValueRows(t *testing.T) {
	var ue *UnmarshalTypeError
	for _, doc := range []string{"[2]{a,b}:\n  1,2\n  3,4\n", "[2]:\n  - a: 1\n    b: 2\n  - a: 3\n    b: 4\n"} {
		var v []Value
		err := Unmarshal([]byte(doc), &v)
		if !errors.As(err, &ue) || ue.Line != 2 || len(v) != 2 {
			t.Errorf("%q: got %v, %v; want a mismatch on line 2 and two Values", doc, v, err)
		}
	}
	var rows []Value
	for _, err := range Rows[Value](NewDecoder(strings.NewReader("[2]{a,b}:\n  1,2\n  3,4\n"))) {
		if !errors.As(err, &ue) {
			t.Errorf("Rows: got %v, want a mismatch", err)
		}
		rows = append(rows, Value{})
	}
	if len(rows) != 2 {
		t.Errorf("Rows gave %d results, want 2", len(rows))
	}
}

// TestSameFields compares header field lists as rowPlan does to reuse a
// plan: names, order and nested groups must all match.
func TestSameFields(t *testing.T) {
	f := func(name string, sub ...Field) Field {
		fd := Field{Name: []byte(name)}
		if sub != nil {
			fd.Fields = sub
		}
		return fd
	}
	a := []Field{f("a"), f("g", f("x"), f("y")), f("b")}
	cases := []struct {
		b    []Field
		same bool
	}{
		{[]Field{f("a"), f("g", f("x"), f("y")), f("b")}, true},
		{[]Field{f("a"), f("g", f("x"), f("z")), f("b")}, false}, // a nested name differs
		{[]Field{f("a"), f("g", f("x")), f("b")}, false},         // a nested group is shorter
		{[]Field{f("a"), f("g"), f("b")}, false},                 // a leaf for a group
		{[]Field{f("a"), f("g", f("x"), f("y"))}, false},         // a field fewer
		{[]Field{f("b"), f("g", f("x"), f("y")), f("a")}, false}, // another order
		{[]Field{f("a"), f("h", f("x"), f("y")), f("b")}, false}, // a group's name differs
	}
	for i, c := range cases {
		if got := sameFields(a, c.b); got != c.same {
			t.Errorf("case %d: sameFields = %v, want %v", i, got, c.same)
		}
		if got := sameFields(c.b, a); got != c.same {
			t.Errorf("case %d, swapped: sameFields = %v, want %v", i, got, c.same)
		}
	}
	// A leaf against a group of the same name, in either order.
	if sameFields([]Field{f("g")}, []Field{f("g", f("x"))}) || sameFields([]Field{f("g", f("x"))}, []Field{f("g")}) {
		t.Error("a leaf matches a group")
	}
}

// TestSameFieldsByWords holds sameFields to a plain comparison of the
// names: lists that differ in one byte of one name, at lengths of 1 to 20
// bytes (those of a key's words and past them), in a nested group or not,
// and in the shape of a group.
func TestSameFieldsByWords(t *testing.T) {
	var ref func(a, b []Field) bool
	ref = func(a, b []Field) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if string(a[i].Name) != string(b[i].Name) || (a[i].Fields == nil) != (b[i].Fields == nil) || !ref(a[i].Fields, b[i].Fields) {
				return false
			}
		}
		return true
	}
	mk := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		return b
	}
	for n := 1; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for _, nested := range []bool{false, true} {
				list := func(name []byte) []Field {
					f := []Field{{Name: []byte("id")}, {Name: name}}
					if nested {
						f = []Field{{Name: []byte("g"), Fields: f}, {Name: []byte("x")}}
					}
					return f
				}
				a := list(mk(n))
				c := mk(n)
				c[at] ^= 0x20
				for _, b := range [][]Field{list(mk(n)), list(c), list(mk(n + 1)), list(mk(n))[:1]} {
					if got, want := sameFields(a, b), ref(a, b); got != want {
						t.Fatalf("n=%d at=%d nested=%v: sameFields = %v, want %v", n, at, nested, got, want)
					}
				}
			}
		}
	}
	g := []Field{{Name: []byte("g"), Fields: []Field{{Name: []byte("a")}}}}
	h := []Field{{Name: []byte("g"), Fields: []Field{}}}
	if sameFields(g, h) != ref(g, h) || sameFields(h, g) != ref(h, g) {
		t.Fatal("sameFields and the reference differ on a group's shape")
	}
}

// TestTextStoreShort holds textStore.str's copies of short strings (by
// words, where they fit the current block) to their text: strings of 1 to
// 20 bytes, one after another in one block, each equal to its source, and
// no string changed by the ones copied after it.
func TestTextStoreShort(t *testing.T) {
	ts := textStore{pack: true}
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte('A' + i%58)
	}
	var got, want []string
	for round := range 3 {
		for n := 1; n <= 20; n++ {
			b := src[round+n%7 : round+n%7+n]
			got = append(got, ts.str(b, false))
			want = append(want, string(b))
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// TestUnmarshalSmallDocumentMemory checks that the strings and the small
// slices of a small document take blocks sized by the document, not
// blocks of packBlock and slabBytes bytes: Unmarshal of a document of 120
// bytes into a struct allocates less than 4 KiB a call (3.5 KiB; 9.9 KiB
// with slabs of slabBytes, 11.4 KiB with string blocks of packBlock), and
// its strings and slices, escaped and quoted strings among them, are
// right.
func TestUnmarshalSmallDocumentMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race")
	}
	doc := []byte("user:\n  id: 7\n  name: \"Ada \\\"L\\\"\"\n  tags[3]: admin,ops,\"a,b\"\nitems[2]{sku,qty}:\n  A1-x,2\n  B2-y,3\nnote: hello\n")
	type item struct {
		SKU string `toon:"sku"`
		Qty int    `toon:"qty"`
	}
	type target struct {
		User struct {
			ID   int      `toon:"id"`
			Name string   `toon:"name"`
			Tags []string `toon:"tags"`
		} `toon:"user"`
		Items []item `toon:"items"`
		Note  string `toon:"note"`
	}
	want := target{Items: []item{{"A1-x", 2}, {"B2-y", 3}}, Note: "hello"}
	want.User.ID, want.User.Name, want.User.Tags = 7, `Ada "L"`, []string{"admin", "ops", "a,b"}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	call := func() {
		var v target
		if err := Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("got %+v, want %+v", v, want)
		}
	}
	call()
	if per := allocatedEach(20, call); per >= 4096 {
		t.Errorf("%d bytes allocated a call, want less than 4 KiB", per)
	}
}

// TestFloat32Fields holds the float32s that decSlice, decStruct and
// decodeRow store themselves to parseFloat, the plan's reader, on random
// float32s in their shortest form and with more digits, on texts near
// the midpoints between float32s, and on decimals of random lengths and
// exponents: as an array's elements, a field's value and a row's cell,
// each is the float32 parseFloat gives, or an error where it gives one.
// A path that read such a text as a float64 and then rounded it to 32
// bits would differ from parseFloat near a midpoint. (parseFloat itself
// is held to strconv by TestDecimalFloat and FuzzDecimalFloat.)
func TestFloat32Fields(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	var texts []string
	for len(texts) < 3000 {
		f := math.Float32frombits(r.Uint32())
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		texts = append(texts, strconv.FormatFloat(float64(f), 'g', -1, 32), strconv.FormatFloat(float64(f), 'e', 12, 64))
		// Near the midpoint between f and the next float32, where a
		// float64 read first and then rounded to 32 bits may round
		// twice the wrong way (a fast path's error; parseFloat reads
		// them once).
		mid := (float64(f) + float64(math.Nextafter32(f, float32(math.Inf(1))))) / 2
		texts = append(texts, strconv.FormatFloat(mid, 'e', 15, 64), strconv.FormatFloat(mid, 'e', 16, 64))
		m := strconv.FormatUint(r.Uint64()>>(r.Intn(60)), 10)
		texts = append(texts, m+"e"+strconv.Itoa(r.Intn(100)-60), "-0."+m)
	}
	type rec struct {
		F float32 `toon:"f"`
	}
	for _, x := range texts {
		want, wantErr := parseFloat([]byte(x), 32)
		// A slice with room: decSlice stores the elements the queue
		// holds in a loop of their own (decFloats).
		arr := make([]float32, 0, 4)
		var one rec
		var rows []rec
		errs := []error{
			Unmarshal([]byte("[2]: "+x+","+x), &arr),
			Unmarshal([]byte("f: "+x), &one),
			Unmarshal([]byte("[1]{f}:\n  "+x), &rows),
		}
		for i, err := range errs {
			if (err != nil) != (wantErr != nil) {
				t.Errorf("%s, layout %d: error %v, parseFloat's %v", x, i, err, wantErr)
			}
		}
		if wantErr != nil {
			continue
		}
		if len(arr) != 2 || arr[0] != float32(want) || arr[1] != float32(want) || one.F != float32(want) || len(rows) != 1 || rows[0].F != float32(want) {
			t.Errorf("%s: got %v, %v, %v; want %v", x, arr, one.F, rows, float32(want))
		}
	}
}

// TestFloatCellsPastQueue holds decFloats's reading of a long inline
// array's cells past the queue to the element plan's, in layouts that
// TestSliceFastKinds leaves out: a slice that fills up before the array
// ends and grows (non-strict mode with a count below the values given, a
// reused slice of small capacity, a reader's decoder, which gives at
// most 1024 elements ahead), tab and pipe delimiters, spaces around
// cells, and arrays that are fields of list items.
func TestFloatCellsPastQueue(t *testing.T) {
	cells := func(n int, delim string, odd int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(delim)
			}
			v := strconv.FormatFloat(float64(i)*0.37-100, 'f', -1, 64)
			if i%97 == 5 {
				v = " " + v + "  "
			}
			if i == odd {
				v = "05"
			}
			b.WriteString(v)
		}
		return b.String()
	}
	type item struct {
		V []float32 `toon:"v"`
		N int       `toon:"n"`
	}
	type doc struct {
		Items []item `toon:"items"`
	}
	cases := []struct {
		doc    string
		strict bool
		bad    bool // a cell is a string
	}{
		{"[300]: " + cells(700, ",", -1), false, false},
		{"[300]: " + cells(700, ",", 650), false, true},
		{"[2000]: " + cells(2000, ",", -1), true, false},
		{"[2000]: " + cells(2000, ",", 1500), true, true},
		{"[600\t]: " + cells(600, "\t", -1), true, false},
		{"[600|]: " + cells(600, "|", 400), true, true},
		{"items[2]:\n  - v[600]: " + cells(600, ",", -1) + "\n    n: 1\n  - v[600|]: " + cells(600, "|", 599) + "\n    n: 2\n", true, true},
		{"items[1]:\r\n  - v[700]: " + cells(700, ",", -1) + "\r\n    n: 3\r\n", true, false},
	}
	floatPlans := []*decPlan{decPlanOf(reflect.TypeFor[[]float32]()).elem, decPlanOf(reflect.TypeFor[[]float64]()).elem}
	decode := func(text string, strict, reader bool, v any, fast bool) (string, string) {
		saved := []uint8{floatPlans[0].fast, floatPlans[1].fast}
		if !fast {
			floatPlans[0].fast, floatPlans[1].fast = fastNone, fastNone
		}
		var err error
		if reader {
			err = NewDecoder(strings.NewReader(text), WithStrict(strict)).Decode(v)
		} else {
			err = Unmarshal([]byte(text), v, WithStrict(strict))
		}
		floatPlans[0].fast, floatPlans[1].fast = saved[0], saved[1]
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		return fmt.Sprint(reflect.ValueOf(v).Elem().Interface()), msg
	}
	for _, c := range cases {
		targets := []func() any{
			func() any { return new([]float64) },
			func() any { return new([]float32) },
			func() any { f := make([]float32, 3, 10); f[0], f[2] = 9, 9; return &f },
		}
		if strings.HasPrefix(c.doc, "items") {
			targets = []func() any{func() any { return new(doc) }}
		}
		for _, newV := range targets {
			for _, reader := range []bool{false, true} {
				got, gotErr := decode(c.doc, c.strict, reader, newV(), true)
				want, wantErr := decode(c.doc, c.strict, reader, newV(), false)
				if got != want || gotErr != wantErr {
					t.Errorf("%.40q… into %T (reader %v): the cells read past the queue give %.80s… (%s), the plan %.80s… (%s)",
						c.doc, newV(), reader, got, gotErr, want, wantErr)
				}
				if (gotErr != "") != c.bad {
					t.Errorf("%.40q… into %T (reader %v): error %q", c.doc, newV(), reader, gotErr)
				}
			}
		}
	}
}

// TestSliceFastKinds holds the elements decSlice stores itself (its fast
// kinds) to their plans: each array is decoded into slices of every fast
// kind with them, then with them turned off, and the values and errors
// must agree. The arrays mix numbers in every form, strings, booleans,
// nulls and values of the wrong kind, inline and as lists.
func TestSliceFastKinds(t *testing.T) {
	docs := []string{
		"[6]: 1.5,-0,1e3,0.12345678901234567,9007199254740993,-2.5E-7",
		"[4]: 1,-2,9223372036854775807,-9223372036854775808",
		"[3]: 9223372036854775808,1.0,2e3",
		`[3]: a,"b,c",""`,
		"[3]: true,false,null",
		"[4]: 1,x,null,true",
		"[2]: 1e400,2",
		"[7]: 1e39,3.4028235e38,1.4e-45,1e-50,0.1,-0,16777217",
		"[3]: 0.500000029802322387695312,0.5000000298023224,0.5000000298023223",
		"[3]:\n  - 1.25\n  - \"s\"\n  - 7",
		"[2]:\n  - a: 1\n  - 2",
	}
	// Arrays past a lazy chunk (the queue's tokens come a chunk at a
	// time), as values and as list items, with a token that is no number
	// near a chunk's end, and one whose count is wrong.
	long := func(n, odd int, item bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, "[%d]:", n)
		for i := 0; i < n; i++ {
			v := strconv.FormatFloat(float64(i)*1.25-300, 'f', -1, 64)
			if i == odd {
				v = "null"
			}
			switch {
			case item:
				b.WriteString("\n  - " + v)
			case i == 0:
				b.WriteString(" " + v)
			default:
				b.WriteString("," + v)
			}
		}
		return b.String()
	}
	for _, n := range []int{255, 256, 257, 600} {
		docs = append(docs, long(n, -1, false), long(n, n-2, false), long(n, -1, true), long(n, 254, true))
	}
	docs = append(docs, strings.Replace(long(300, -1, false), "[300]", "[301]", 1))
	// Long inline arrays whose cells decFloats reads itself past the
	// queue (fastFloat), with one odd cell at the first place, the
	// second, the middle, or the last two: a string (a mismatch for the
	// plan), or a number that fastFloat leaves to the plan.
	for _, odd := range []string{"05", "-007", "00", "0", "-0", "0e5", "1.2.3", "1.", "-", ".5", "+1", "1e", "1e+",
		"1E-5", "1e00007", "12345678901234567890123", "0.000000000000000000000000001", `""`, `"1.5"`, "", "1_0", "x", "null", "true"} {
		for _, at := range []int{0, 1, 300, 598, 599} {
			d := long(600, -1, false)
			cells := strings.Split(strings.TrimPrefix(d, "[600]: "), ",")
			cells[at] = odd
			docs = append(docs, "[600]: "+strings.Join(cells, ","))
		}
	}
	decode := func(doc string, v any, fast bool) (any, string) {
		ep := decPlanOf(reflect.TypeOf(v).Elem()).elem
		saved := ep.fast
		if !fast {
			ep.fast = fastNone
		}
		err := Unmarshal([]byte(doc), v)
		ep.fast = saved
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		return reflect.ValueOf(v).Elem().Interface(), msg
	}
	for _, doc := range docs {
		for _, newV := range []func() any{
			func() any { return new([]float64) }, func() any { return new([]int) }, func() any { return new([]int64) },
			func() any { f := make([]float64, 3, 700); f[0], f[2] = 9, 9; return &f }, // reused, with old values
			func() any { return new([]float32) },
			func() any { f := make([]float32, 3, 700); f[0], f[2] = 9, 9; return &f },
			func() any { return new([]string) }, func() any { return new([]bool) },
		} {
			if pl := decPlanOf(reflect.TypeOf(newV()).Elem()); pl.elem.fast == fastNone {
				t.Fatalf("%T: no fast kind", newV())
			}
			got, gotErr := decode(doc, newV(), true)
			want, wantErr := decode(doc, newV(), false)
			// fmt tells -0 from 0, which DeepEqual does not.
			if !reflect.DeepEqual(got, want) || fmt.Sprint(got) != fmt.Sprint(want) || gotErr != wantErr {
				t.Errorf("%q into %T: fast kinds give %v (%s), the plan %v (%s)", doc, newV(), got, gotErr, want, wantErr)
			}
		}
	}
}
