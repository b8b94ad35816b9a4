package toon

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// These tests read documents a value at a time, as encoding/json's
// Decoder allows: Token to walk, Decode to take the next value, More to
// tell whether an array or object goes on, Skip to pass a value by.

const streamDoc = `meta:
  name: x
  count: 3
users[3]{id,name,ok,score}:
  1,a,true,0.5
  2,"b,c",false,-1
  3,"",true,1e3
list[2]:
  - id: 9
    name: z
  - id: 10
    name: w
tail: end`

// wantTok reads a token and fails unless it has kind k (and, for keys,
// strings and numbers, the text text).
func wantTok(t *testing.T, d *Decoder, k Kind, text string) {
	t.Helper()
	tok, err := d.Token()
	if err != nil {
		t.Fatalf("want %v %q, got error %v", k, text, err)
	}
	if tok.Kind() != k || text != "" && string(tok.Bytes()) != text {
		t.Fatalf("want %v %q, got %v %q", k, text, tok.Kind(), tok.Bytes())
	}
}

func TestDecodeAfterToken(t *testing.T) {
	for _, name := range []string{"bytes", "reader", "one byte"} {
		var d *Decoder
		switch name {
		case "bytes":
			d = newBytesDecoder([]byte(streamDoc), nil)
		case "reader":
			d = NewDecoder(strings.NewReader(streamDoc))
		default:
			d = NewDecoder(iotest.OneByteReader(strings.NewReader(streamDoc)))
		}
		if !d.More() {
			t.Fatal("More at the start: false")
		}
		wantTok(t, d, KindObjectStart, "")
		// At a key, Decode takes nothing.
		var x any
		if err := d.Decode(&x); !errors.Is(err, ErrNotValue) || !strings.Contains(err.Error(), "line 1") {
			t.Fatalf("%s: Decode at a key: %v", name, err)
		}
		wantTok(t, d, KindKey, "meta")
		var meta struct {
			Name  string `toon:"name"`
			Count int    `toon:"count"`
		}
		if err := d.Decode(&meta); err != nil || meta.Name != "x" || meta.Count != 3 {
			t.Fatalf("%s: meta %+v, %v", name, meta, err)
		}
		wantTok(t, d, KindKey, "users")
		wantTok(t, d, KindArrayStart, "")
		var users []rRow
		for d.More() {
			var r rRow
			if err := d.Decode(&r); err != nil {
				t.Fatalf("%s: row %d: %v", name, len(users), err)
			}
			users = append(users, r)
		}
		if want := []rRow{{1, "a", true, 0.5}, {2, "b,c", false, -1}, {3, "", true, 1000}}; !reflect.DeepEqual(users, want) {
			t.Fatalf("%s: users %+v", name, users)
		}
		if err := d.Decode(&x); !errors.Is(err, ErrNotValue) {
			t.Fatalf("%s: Decode at the end of an array: %v", name, err)
		}
		wantTok(t, d, KindArrayEnd, "")
		wantTok(t, d, KindKey, "list")
		wantTok(t, d, KindArrayStart, "")
		var items []any
		for d.More() {
			var m any
			if err := d.Decode(&m); err != nil {
				t.Fatal(err)
			}
			items = append(items, m)
		}
		if want := []any{map[string]any{"id": 9.0, "name": "z"}, map[string]any{"id": 10.0, "name": "w"}}; !reflect.DeepEqual(items, want) {
			t.Fatalf("%s: items %#v", name, items)
		}
		wantTok(t, d, KindArrayEnd, "")
		wantTok(t, d, KindKey, "tail")
		var tail string
		if err := d.Decode(&tail); err != nil || tail != "end" {
			t.Fatalf("%s: tail %q, %v", name, tail, err)
		}
		if d.More() {
			t.Fatalf("%s: More at the end of the root object: true", name)
		}
		wantTok(t, d, KindObjectEnd, "")
		if d.More() {
			t.Fatalf("%s: More after the root: true", name)
		}
		if err := d.Decode(&x); err != io.EOF {
			t.Fatalf("%s: Decode after the root: %v", name, err)
		}
		if _, err := d.Token(); err != io.EOF {
			t.Fatalf("%s: Token after the root: %v", name, err)
		}
	}
}

// TestDecodeWholeThenEOF: Decode before any Token reads the whole
// document (trailing content is its error); a second Decode gives io.EOF.
func TestDecodeWholeThenEOF(t *testing.T) {
	d := NewDecoder(strings.NewReader("a: 1\nb: 2"))
	var v map[string]any
	if err := d.Decode(&v); err != nil || len(v) != 2 {
		t.Fatalf("%v, %v", v, err)
	}
	if err := d.Decode(&v); err != io.EOF {
		t.Fatalf("second Decode: %v", err)
	}
	var s struct{ A int }
	if err := NewDecoder(strings.NewReader("[1]: 1\nb: 2")).Decode(&s); !errors.Is(err, ErrTrailing) {
		t.Fatalf("trailing content: %v", err)
	}
	// More before the first Token leaves Decode reading the whole document.
	d = NewDecoder(strings.NewReader("a: 1"))
	if !d.More() {
		t.Fatal("More: false")
	}
	if err := d.Decode(&v); err != nil || v["a"] != 1.0 {
		t.Fatalf("%v, %v", v, err)
	}
}

// TestDecodeCountErrorAfterValue: the count error of an array whose last
// element Decode took comes with the next call, in place of the array's
// end token.
func TestDecodeCountErrorAfterValue(t *testing.T) {
	d := NewDecoder(strings.NewReader("t[3]{id}:\n  1\n  2\nz: 1"))
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "t")
	wantTok(t, d, KindArrayStart, "")
	var r rRow
	for i := 0; i < 2; i++ {
		if err := d.Decode(&r); err != nil || r.ID != i+1 {
			t.Fatalf("row %d: %+v, %v", i, r, err)
		}
	}
	if d.More() {
		t.Fatal("More after the last row: true")
	}
	// The count error comes in place of the table's end token.
	if _, err := d.Token(); !errors.Is(err, ErrCount) {
		t.Fatalf("after the last row: %v", err)
	}
	// Decode of the whole table after its key reports the count.
	d = NewDecoder(strings.NewReader("t[3]{id}:\n  1\n  2\nz: 1"))
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "t")
	var rs []rRow
	if err := d.Decode(&rs); !errors.Is(err, ErrCount) {
		t.Fatalf("Decode of a short table: %v", err)
	}
	d = NewDecoder(strings.NewReader("t[3]{id}:\n  1\n  2\nz: 1"))
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "t")
	var a any
	if err := d.Decode(&a); !errors.Is(err, ErrCount) {
		t.Fatalf("Decode of a short table into any: %v", err)
	}
	// An element before a bad one decodes without the error, which comes
	// with the element it is in.
	d = NewDecoder(strings.NewReader(`a[3]: 1,2,"\q"`))
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "a")
	wantTok(t, d, KindArrayStart, "")
	for _, want := range []int{1, 2} {
		var n int
		if err := d.Decode(&n); err != nil || n != want {
			t.Fatalf("element %d: %d, %v", want, n, err)
		}
	}
	var n int
	if err := d.Decode(&n); !errors.Is(err, ErrEscape) {
		t.Fatalf("the bad element: %v", err)
	}
}

// TestDecodeRowsMixed reads a large table taking turns between Decode,
// Row and Token, row by row, through every kind of input and with the
// table fast path off, and checks every row.
func TestDecodeRowsMixed(t *testing.T) {
	const rows = 6000
	var sb strings.Builder
	sb.WriteString("before: 1\nt[" + strconv.Itoa(rows) + "]{id,name,ok,score}:\n")
	for i := 0; i < rows; i++ {
		sb.WriteString("  " + strconv.Itoa(i) + ",n" + strconv.Itoa(i%7) + "," + strconv.FormatBool(i%2 == 0) + "," + strconv.Itoa(i%5) + ".5\n")
	}
	sb.WriteString("after: 2\n")
	data := []byte(sb.String())
	want := func(i int) rRow { return rRow{i, "n" + strconv.Itoa(i%7), i%2 == 0, float64(i%5) + 0.5} }
	noBulk := withoutFastPath(newBytesDecoder(data, nil))
	for name, d := range map[string]*Decoder{
		"bytes":   newBytesDecoder(data, nil),
		"reader":  NewDecoder(bytes.NewReader(data)),
		"chunked": NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2, 200}}),
		"no bulk": noBulk,
	} {
		wantTok(t, d, KindObjectStart, "")
		wantTok(t, d, KindKey, "before")
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		wantTok(t, d, KindKey, "t")
		wantTok(t, d, KindArrayStart, "")
		byRow := 0
		for i := 0; d.More(); i++ {
			var r rRow
			switch i % 4 {
			case 0:
				if err := d.Decode(&r); err != nil {
					t.Fatalf("%s: row %d: %v", name, i, err)
				}
			case 1:
				var m map[string]any
				if err := d.Decode(&m); err != nil {
					t.Fatalf("%s: row %d: %v", name, i, err)
				}
				r = rRow{int(m["id"].(float64)), m["name"].(string), m["ok"].(bool), m["score"].(float64)}
			default:
				// Row when the fast path has the row ready, else tokens.
				toks := d.Row()
				if toks != nil {
					byRow++
				} else {
					for {
						tok, err := d.Token()
						if err != nil {
							t.Fatal(err)
						}
						toks = append(toks, tok.Clone())
						if tok.Kind() == KindObjectEnd {
							break
						}
					}
				}
				if len(toks) != 10 {
					t.Fatalf("%s: row %d: %d tokens", name, i, len(toks))
				}
				id, _ := toks[2].Int()
				score, _ := toks[8].Float()
				r = rRow{int(id), string(toks[4].Bytes()), toks[6].Bool(), score}
			}
			if r != want(i) {
				t.Fatalf("%s: row %d: %+v, want %+v", name, i, r, want(i))
			}
			if i == rows-1 && d.More() {
				t.Fatalf("%s: More after the last row", name)
			}
		}
		if byRow == 0 && (name == "bytes" || name == "reader") {
			t.Errorf("%s: Row never had a row ready", name)
		}
		wantTok(t, d, KindArrayEnd, "")
		wantTok(t, d, KindKey, "after")
		var after int
		if err := d.Decode(&after); err != nil || after != 2 {
			t.Fatalf("%s: after %d, %v", name, after, err)
		}
		wantTok(t, d, KindObjectEnd, "")
		if _, err := d.Token(); err != io.EOF {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestSkip(t *testing.T) {
	doc := "a: 1\nb:\n  c: 2\n  d[2]: x,y\nt[2]{p,q}:\n  1,2\n  3,4\nl[2]:\n  - 1\n  - e: 5\n    f: 6\nz: last"
	d := NewDecoder(strings.NewReader(doc))
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "a")
	must(t, d.Skip()) // a primitive
	wantTok(t, d, KindKey, "b")
	must(t, d.Skip()) // an object
	must(t, d.Skip()) // at a key: the member t and its table
	wantTok(t, d, KindKey, "l")
	wantTok(t, d, KindArrayStart, "")
	must(t, d.Skip()) // an element
	wantTok(t, d, KindObjectStart, "")
	wantTok(t, d, KindKey, "e")
	must(t, d.Skip())
	must(t, d.Skip()) // the member f
	if err := d.Skip(); !errors.Is(err, ErrNotValue) {
		t.Fatalf("Skip at an end: %v", err)
	}
	wantTok(t, d, KindObjectEnd, "")
	wantTok(t, d, KindArrayEnd, "")
	wantTok(t, d, KindKey, "z")
	wantTok(t, d, KindString, "last")
	wantTok(t, d, KindObjectEnd, "")
	if err := d.Skip(); err != io.EOF {
		t.Fatalf("Skip after the root: %v", err)
	}
	// At the start, the whole root value.
	d = NewDecoder(strings.NewReader(doc))
	must(t, d.Skip())
	if _, err := d.Token(); err != io.EOF {
		t.Fatalf("after skipping the root: %v", err)
	}
	// Errors in the skipped text are reported.
	d = NewDecoder(strings.NewReader("t[3]{p}:\n  1\n  2\nz: 1"))
	wantTok(t, d, KindObjectStart, "")
	if err := d.Skip(); !errors.Is(err, ErrCount) {
		t.Fatalf("Skip of a short table: %v", err)
	}
}

// skipDoc is a document with a table of rows rows between two fields.
func skipDoc(rows int) []byte {
	return append(append([]byte("a: 1\nt"), genBenchTable(rows).toon...), "\nz: 2\n"...)
}

// TestSkipConstantMemory skips tables of 10 and of 100,000 rows with a
// reused decoder: neither allocates anything, and skipping the large one
// allocates no more bytes than the small one.
func TestSkipConstantMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var bytesFor [2]uint64
	for i, rows := range []int{10, 100000} {
		doc := skipDoc(rows)
		r := bytes.NewReader(doc)
		d := NewDecoder(r)
		run := func() {
			r.Reset(doc)
			d.Reset(r)
			wantTok(t, d, KindObjectStart, "")
			wantTok(t, d, KindKey, "a")
			wantTok(t, d, KindNumber, "1")
			wantTok(t, d, KindKey, "t")
			if err := d.Skip(); err != nil {
				t.Fatal(err)
			}
			wantTok(t, d, KindKey, "z")
		}
		run()
		if allocs := testing.AllocsPerRun(3, run); allocs != 0 {
			t.Errorf("%d rows: %v allocations", rows, allocs)
		}
		// The least of three runs: TotalAlloc counts every goroutine's
		// allocations, and another test's may still be ending.
		bytesFor[i] = math.MaxUint64
		for range 3 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			run()
			runtime.ReadMemStats(&after)
			bytesFor[i] = min(bytesFor[i], after.TotalAlloc-before.TotalAlloc)
		}
	}
	if bytesFor[1] > bytesFor[0] {
		t.Errorf("skipping 100,000 rows allocated %d bytes, 10 rows %d", bytesFor[1], bytesFor[0])
	}
}

// BenchmarkSkipTable skips a table of 100,000 rows.
func BenchmarkSkipTable(b *testing.B) {
	doc := skipDoc(100000)
	r := bytes.NewReader(doc)
	d := NewDecoder(r)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Reset(doc)
		d.Reset(r)
		for j := 0; j < 4; j++ {
			d.Token()
		}
		if err := d.Skip(); err != nil {
			b.Fatal(err)
		}
	}
}
