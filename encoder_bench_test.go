//go:build unix

package toon

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math/rand"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The benchmarks share one generated table: 500,000 rows of 9 mixed
// columns (int id, name, email, bool, float price, int qty, country,
// timestamp, float score), made from a fixed seed.

const benchRows = 500_000

var benchFields = []string{"id", "name", "email", "active", "price", "qty", "country", "created", "score"}

type benchData struct {
	values  [][]Value  // WriteRow cells
	records [][]string // encoding/csv records, numbers already formatted
	generic []any      // Encode and json.Marshal: []any of map[string]any
}

var (
	encBenchOnce sync.Once
	encBench     benchData
)

// encBenchTable returns the benchmark table, made once.
func encBenchTable() *benchData {
	encBenchOnce.Do(func() { encBench = makeBenchTable(benchRows) })
	return &encBench
}

// makeBenchTable makes the first n rows of the benchmark table.
func makeBenchTable(n int) benchData {
	r := rand.New(rand.NewSource(42))
	first := []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Margaret", "Linus", "Radia"}
	last := []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Thompson", "Hamilton", "Torvalds", "Perlman"}
	countries := []string{"US", "UK", "DE", "FR", "JP", "BR", "IN", "Czech Republic", "New Zealand", "Korea, Republic of"}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	// The columns first, then each representation of the rows in a
	// pass of its own, so that each is laid out in memory as in a
	// program that held only it: built in one pass, the rows of each
	// were interleaved with the other two's, and a writer that is
	// bound by memory read past their bytes too.
	type benchRow struct {
		id, qty                       int64
		name, email, country, created string
		active                        bool
		price, score                  float64
	}
	cols := make([]benchRow, n)
	for i := range cols {
		f, l := first[r.Intn(len(first))], last[r.Intn(len(last))]
		c := &cols[i]
		c.name = f + " " + l
		c.email = f + "." + l + strconv.Itoa(r.Intn(1000)) + "@example.com"
		c.active = r.Intn(2) == 0
		c.price = float64(r.Intn(100000)) / 100
		c.qty = int64(r.Intn(500))
		c.country = countries[r.Intn(len(countries))]
		c.created = base.Add(time.Duration(r.Int63n(int64(365 * 24 * time.Hour)))).Format(time.RFC3339)
		c.score = float64(r.Intn(10000)) / 10000
		c.id = int64(1_000_000 + i)
	}
	var d benchData
	d.values = make([][]Value, n)
	for i, c := range cols {
		d.values[i] = []Value{Int(c.id), String(c.name), String(c.email), Bool(c.active), Float(c.price), Int(c.qty),
			String(c.country), String(c.created), Float(c.score)}
	}
	d.records = make([][]string, n)
	for i, c := range cols {
		d.records[i] = []string{strconv.FormatInt(c.id, 10), c.name, c.email, strconv.FormatBool(c.active),
			strconv.FormatFloat(c.price, 'f', -1, 64), strconv.FormatInt(c.qty, 10), c.country, c.created,
			strconv.FormatFloat(c.score, 'f', -1, 64)}
	}
	d.generic = make([]any, n)
	for i, c := range cols {
		d.generic[i] = map[string]any{"id": c.id, "name": c.name, "email": c.email, "active": c.active, "price": c.price,
			"qty": c.qty, "country": c.country, "created": c.created, "score": c.score}
	}
	return d
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readSink keeps the sum of BenchmarkTable/read-cells-only live.
var readSink uint64

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

func writeTable(w io.Writer, d *benchData) error {
	enc := NewEncoder(w)
	if err := enc.BeginTable("rows", len(d.values), benchFields...); err != nil {
		return err
	}
	for _, row := range d.values {
		if err := enc.WriteRow(row...); err != nil {
			return err
		}
	}
	if err := enc.EndTable(); err != nil {
		return err
	}
	return enc.Close()
}

// writeTableUnknown writes the table with BeginTable(n < 0), raising
// *peak to the heap in use before EndTable.
func writeTableUnknown(w io.Writer, d *benchData, peak *uint64, opts ...Option) error {
	enc := NewEncoder(w, opts...)
	if err := enc.BeginTable("rows", -1, benchFields...); err != nil {
		return err
	}
	for _, row := range d.values {
		if err := enc.WriteRow(row...); err != nil {
			return err
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	*peak = max(*peak, ms.HeapInuse)
	if err := enc.EndTable(); err != nil {
		return err
	}
	return enc.Close()
}

func writeCSV(w io.Writer, d *benchData) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(benchFields); err != nil {
		return err
	}
	for _, rec := range d.records {
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// runRows runs f b.N times over the table, reporting bytes of output,
// rows per second and allocations per row.
func runRows(b *testing.B, f func(io.Writer) error) {
	var cw countingWriter
	if err := f(&cw); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(cw.n)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := f(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	rows := float64(b.N) * benchRows
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	// CPU time is less disturbed than wall time on a shared machine.
	b.ReportMetric(float64(cpu.Nanoseconds())/rows, "cpu-ns/row")
	b.ReportMetric(float64(cw.n)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
}

// BenchmarkTable compares streaming a table with WriteRow against
// encoding/csv's Writer on the same records (the CSV records hold numbers
// already formatted as strings; "csv-formatting" formats them per row, as
// WriteRow does).
func BenchmarkTable(b *testing.B) {
	d := encBenchTable()
	b.Run("WriteRow", func(b *testing.B) {
		runRows(b, func(w io.Writer) error { return writeTable(w, d) })
	})
	// A table of unknown length holds its rows until EndTable: the table
	// (about 50 MB) fits the default budget of 64 MiB; with a budget of
	// 8 MiB, most of it goes through a temporary file. held-heap-MB is the
	// most heap in use just before EndTable, when the most rows are held,
	// beyond what was in use before the first table.
	unknown := func(b *testing.B, opts ...Option) {
		var base runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&base)
		peak := base.HeapInuse
		runRows(b, func(w io.Writer) error { return writeTableUnknown(w, d, &peak, opts...) })
		b.ReportMetric(float64(peak-base.HeapInuse)/(1<<20), "held-heap-MB")
	}
	b.Run("WriteRow-unknown-count", func(b *testing.B) { unknown(b) })
	b.Run("WriteRow-unknown-count-spilled", func(b *testing.B) {
		unknown(b, WithTableBudget(8<<20), WithTempDir(b.TempDir()))
	})
	b.Run("csv", func(b *testing.B) {
		runRows(b, func(w io.Writer) error { return writeCSV(w, d) })
	})
	// Not an encoder: the cost of only reading WriteRow's input, every
	// cell's words and the last byte of every string, which bounds from
	// below what any writer of these rows can take (on a shared 2-core
	// machine, much of it is waiting for memory). It writes nothing.
	b.Run("read-cells-only", func(b *testing.B) {
		runRows(b, func(io.Writer) error {
			var sum uint64
			for _, row := range d.values {
				for i := range row {
					c := &row[i]
					sum += c.u + uint64(c.p.Uintptr())
					if s := c.str(); len(s) > 0 {
						sum += uint64(s[len(s)-1])
					}
				}
			}
			readSink += sum
			return nil
		})
	})
	b.Run("csv-formatting", func(b *testing.B) {
		rec := make([]string, len(benchFields))
		runRows(b, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			for i, row := range d.values {
				rec[0] = strconv.FormatInt(int64(row[0].u), 10)
				rec[1], rec[2] = row[1].str(), row[2].str()
				rec[3] = strconv.FormatBool(row[3].u != 0)
				rec[4] = d.records[i][4]
				rec[5] = strconv.FormatInt(int64(row[5].u), 10)
				rec[6], rec[7] = row[6].str(), row[7].str()
				rec[8] = d.records[i][8]
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
			cw.Flush()
			return cw.Error()
		})
	})
}

// BenchmarkEncodeGeneric compares Encode of the table as generic values
// ([]any of map[string]any, written in tabular form) with encoding/json's
// Marshal of the same value.
func BenchmarkEncodeGeneric(b *testing.B) {
	d := encBenchTable()
	v := map[string]any{"rows": d.generic}
	b.Run("Encode", func(b *testing.B) {
		runRows(b, func(w io.Writer) error { return NewEncoder(w).Encode(v) })
	})
	b.Run("json.Marshal", func(b *testing.B) {
		runRows(b, func(w io.Writer) error {
			out, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_, err = w.Write(out)
			return err
		})
	})
}

// TestBenchTableOutput checks that the benchmark's table output is what
// Marshal writes for the same rows (on a prefix of the data).
func TestBenchTableOutput(t *testing.T) {
	small := makeBenchTable(2000)
	var got countingBuffer
	if err := writeTable(&got, &small); err != nil {
		t.Fatal(err)
	}
	// Marshal sorts the keys; WriteRow keeps the bench field order. Compare
	// through the token-free path: re-encode the rows as Objects in field
	// order.
	objs := make([]any, len(small.generic))
	for i, g := range small.generic {
		m := g.(map[string]any)
		o := Object{}
		for _, f := range benchFields {
			o = append(o, Member{Key: f, Value: m[f]})
		}
		objs[i] = o
	}
	want, err := Marshal(Object{{"rows", objs}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got.b) != string(want) {
		t.Fatalf("table output differs from Marshal:\n got: %.200q\nwant: %.200q", got.b, want)
	}
}

type countingBuffer struct{ b []byte }

func (w *countingBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
