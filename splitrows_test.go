package toon

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/leakcheck"
)

type splitRow struct {
	A int    `json:"a"`
	B string `json:"b"`
	C any    `json:"c"`
	G struct {
		X any `json:"x"`
		Y any `json:"y"`
	} `json:"g"`
}

// toFirstTable reads d up to the first tabular array, which its next
// token starts, or returns false.
func toFirstTable(d *Decoder) bool {
	for {
		t, err := d.peek()
		if err != nil {
			return false
		}
		if t.Kind() == KindArrayStart && t.Form() == FormTabular {
			return true
		}
		d.Token()
	}
}

// rowsText renders what a row iterator yields, and what the decoder gives
// after it.
func rowsText(d *Decoder, seq func(*Decoder) func(func(splitRow, error) bool)) string {
	var b strings.Builder
	stopped := false
	for v, err := range seq(d) {
		fmt.Fprintf(&b, "%+v %v\n", v, err)
		if err != nil && !isMismatchErr(err) {
			stopped = true
		}
	}
	if !stopped {
		toks, err := serialRest(d)
		fmt.Fprintf(&b, "after: %v %v\n", toks, err)
	}
	return b.String()
}

func isMismatchErr(err error) bool {
	_, a := err.(*UnmarshalTypeError)
	_, b := err.(*UnknownFieldError)
	return a || b
}

func serialRest(d *Decoder) ([]string, error) {
	var out []string
	for {
		t, err := d.Token()
		if err != nil {
			return out, err
		}
		out = append(out, splitTokText(t))
	}
}

func TestParallelRowsMatchesRows(t *testing.T) {
	smallRanges(t, 1)
	parallelRowsRange(t, 1)
	rng := rand.New(rand.NewPCG(19, 11))
	for i := range 800 {
		doc := randomTableDoc(rng)
		for range rng.IntN(3) {
			doc = mutate(rng, doc)
		}
		d1, d2 := NewBytesDecoder(doc), NewBytesDecoder(doc)
		if !toFirstTable(d1) || !toFirstTable(d2) {
			continue
		}
		want := rowsText(d1, func(d *Decoder) func(func(splitRow, error) bool) { return Rows[splitRow](d) })
		got := rowsText(d2, func(d *Decoder) func(func(splitRow, error) bool) { return ParallelRows[splitRow](d, 3) })
		if got != want {
			t.Fatalf("doc %d:\n%s\nRows:\n%s\nParallelRows:\n%s", i, doc, want, got)
		}
	}
}

// TestParallelRowsBreak checks that breaking out of the loop stops the
// workers, and that the decoder then fails with ErrSplitStopped.
func TestParallelRowsBreak(t *testing.T) {
	smallRanges(t, 1)
	parallelRowsRange(t, 64)
	var b strings.Builder
	b.WriteString("[3000]{a,b,c,g{x,y}}:\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "  %d,row %d,%d.5,x,y\n", i, i, i)
	}
	before := runtime.NumGoroutine()
	for range 5 {
		d := NewBytesDecoder([]byte(b.String()))
		n := 0
		for v, err := range ParallelRows[splitRow](d, 4) {
			if err != nil || v.A != n {
				t.Fatalf("row %d: %+v, %v", n, v, err)
			}
			if n++; n == 1000 {
				break
			}
		}
		if _, err := d.Token(); err != ErrSplitStopped {
			t.Fatalf("after a break: %v, want ErrSplitStopped", err)
		}
	}
	leakcheck.Goroutines(t, before)
}

// BenchmarkParallelRows decodes a table of 200,000 rows into structs with
// Rows (workers=1) and with ParallelRows on two workers.
func BenchmarkParallelRows(b *testing.B) {
	var sb strings.Builder
	const n = 200000
	fmt.Fprintf(&sb, "rows[%d]{a,b,c,g{x,y}}:\n", n)
	for i := range n {
		fmt.Fprintf(&sb, "  %d,user %d <user%d@example.com>,%d.25,%d,label %d\n", i, i, i, i, i%1000, i%7)
	}
	doc := []byte(sb.String())
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for range b.N {
				d := NewBytesDecoder(doc)
				if _, err := d.Token(); err != nil { // the root object
					b.Fatal(err)
				}
				if _, err := d.Token(); err != nil { // the key
					b.Fatal(err)
				}
				got := 0
				for v, err := range ParallelRows[splitRow](d, w) {
					if err != nil || v.A != got {
						b.Fatalf("row %d: %+v, %v", got, v, err)
					}
					got++
				}
				if got != n {
					b.Fatalf("%d rows, want %d", got, n)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
