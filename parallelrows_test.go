package toon

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toonstream/toon/internal/leakcheck"
)

type parGroup struct {
	City string `json:"city"`
	Zip  int    `json:"zip"`
}

// parText is a cell whose text comes from a method, which fails for "bad"
// and panics for "panic".
type parText string

func (p parText) MarshalText() ([]byte, error) {
	switch p {
	case "bad":
		return nil, errors.New("bad text")
	case "panic":
		panic("parText panics")
	}
	return []byte("t:" + p), nil
}

type parRow struct {
	ID    int       `json:"id"`
	Name  string    `json:"name"`
	Score float64   `json:"score"`
	OK    bool      `json:"ok"`
	At    time.Time `json:"at"`
	Raw   []byte    `json:"raw"`
	Num   Number    `json:"num"`
	Text  parText   `json:"text"`
	Where parGroup  `json:"where"`
	Ptr   *int      `json:"ptr"`
}

func parRows(rng *rand.Rand, n int) []parRow {
	words := []string{"plain", "with, comma", "a|pipe", "tab\there", `"quoted"`, "", "é😀", "- dash", "true", "42", "#x"}
	rows := make([]parRow, n)
	for i := range rows {
		r := &rows[i]
		r.ID = i
		r.Name = words[rng.IntN(len(words))]
		r.Score = rng.Float64() * 1e3
		r.OK = rng.IntN(2) == 0
		r.At = time.Unix(int64(rng.IntN(1e9)), 0).UTC()
		r.Raw = []byte(r.Name)
		r.Num = Number(fmt.Sprint(rng.IntN(1000)))
		r.Text = parText(words[rng.IntN(len(words))])
		r.Where = parGroup{words[rng.IntN(len(words))], rng.IntN(99999)}
		if rng.IntN(3) == 0 {
			v := i
			r.Ptr = &v
		}
	}
	return rows
}

// writeBoth writes rows with WriteRows and with WriteRowsParallel, and
// fails unless the outputs and errors are the same.
func writeBoth(t *testing.T, rows []parRow, n int, opts ...Option) {
	t.Helper()
	var a, b bytes.Buffer
	ea, eb := NewEncoder(&a, opts...), NewEncoder(&b, opts...)
	errA := WriteRows(ea, "rows", n, slices.Values(rows))
	errB := WriteRowsParallel(eb, "rows", n, slices.Values(rows), 3)
	if fmt.Sprint(errA) != fmt.Sprint(errB) || errors.Is(errA, ErrCount) != errors.Is(errB, ErrCount) {
		t.Fatalf("errors differ:\nWriteRows         %v\nWriteRowsParallel %v", errA, errB)
	}
	ca, cb := ea.Close(), eb.Close()
	if fmt.Sprint(ca) != fmt.Sprint(cb) {
		t.Fatalf("Close errors differ: %v, %v", ca, cb)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("outputs differ (%d and %d bytes, error %v)", a.Len(), b.Len(), errA)
	}
}

func TestWriteRowsParallelMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	for _, n := range []int{0, 1, 2047, 2048, 2049, 9000} {
		rows := parRows(rng, n)
		writeBoth(t, rows, n)
		writeBoth(t, rows, -1)
		writeBoth(t, rows, -1, WithTableBudget(64<<10)) // rows spill to a file
		writeBoth(t, rows, n, WithDelimiter(Pipe), WithIndent(4))
	}
}

func TestWriteRowsParallelErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 8))
	rows := parRows(rng, 7000)
	writeBoth(t, rows, 6999) // one row too many
	writeBoth(t, rows, 7001) // one short
	writeBoth(t, rows, 2048) // too many, at a batch's end
	for _, at := range []int{0, 2047, 5000} {
		bad := slices.Clone(rows)
		bad[at].Text = "bad" // an error of the row's values
		writeBoth(t, bad, -1)
		writeBoth(t, bad, at) // and the count reached just before it
		bad = slices.Clone(rows)
		bad[at].Num = "1.2.3" // an invalid number
		writeBoth(t, bad, -1)
		writeBoth(t, bad, at)
		bad = slices.Clone(rows)
		bad[at].Name = strings.Repeat("x", 5000) // a line too long
		writeBoth(t, bad, -1, WithMaxLineLength(4096))
	}
	// A failing writer.
	var w failAfter
	w.n = 100 << 10
	e := NewEncoder(&w)
	if err := WriteRowsParallel(e, "rows", -1, slices.Values(rows), 3); err != nil {
		// held rows are written at EndTable
		if !errors.Is(err, errFailAfter) {
			t.Fatalf("%v, want the writer's error", err)
		}
	}
	w.n = 100 << 10
	e = NewEncoder(&w)
	if err := WriteRowsParallel(e, "rows", len(rows), slices.Values(rows), 3); !errors.Is(err, errFailAfter) {
		t.Fatalf("%v, want the writer's error", err)
	}
}

type failAfter struct{ n int }

var errFailAfter = errors.New("writer failed")

func (f *failAfter) Write(b []byte) (int, error) {
	if len(b) > f.n {
		return 0, errFailAfter
	}
	f.n -= len(b)
	return len(b), nil
}

// TestWriteRowsParallelNoLeak checks that no worker outlives a call: after
// errors, a sequence stopped early, and a panic of a row's method.
func TestWriteRowsParallelNoLeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 9))
	rows := parRows(rng, 9000)
	before := runtime.NumGoroutine()
	for range 3 {
		bad := slices.Clone(rows)
		bad[3000].Text = "bad"
		if err := WriteRowsParallel(NewEncoder(new(bytes.Buffer)), "r", -1, slices.Values(bad), 4); err == nil {
			t.Fatal("no error")
		}
		bad[3000].Text = "panic"
		func() {
			defer func() {
				if v := recover(); v != "parText panics" {
					t.Fatalf("recovered %v, want the method's panic", v)
				}
			}()
			WriteRowsParallel(NewEncoder(new(bytes.Buffer)), "r", -1, slices.Values(bad), 4)
		}()
		// A sequence of more rows than declared stops being read.
		var seq iter.Seq[parRow] = func(yield func(parRow) bool) {
			for i := 0; ; i++ {
				if !yield(rows[i%len(rows)]) {
					return
				}
			}
		}
		if err := WriteRowsParallel(NewEncoder(new(bytes.Buffer)), "r", 5000, seq, 4); !errors.Is(err, ErrCount) {
			t.Fatalf("%v, want ErrCount", err)
		}
	}
	leakcheck.Goroutines(t, before)
}

// BenchmarkWriteRowsParallel writes 100,000 rows with WriteRows and with
// WriteRowsParallel on two workers.
func BenchmarkWriteRowsParallel(b *testing.B) {
	rows := parRows(rand.New(rand.NewPCG(19, 10)), 100000)
	var size int64
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				var c countWriter
				e := NewEncoder(&c)
				if err := WriteRowsParallel(e, "rows", len(rows), slices.Values(rows), w); err != nil {
					b.Fatal(err)
				}
				if err := e.Close(); err != nil {
					b.Fatal(err)
				}
				size = c.n
			}
			b.SetBytes(size)
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(b []byte) (int, error) { c.n += int64(len(b)); return len(b), nil }
