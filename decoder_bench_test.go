package toon

import (
	"bytes"
	"encoding/csv"
	"io"
	"math/rand"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// benchTable is a generated table of 9 mixed columns, written both as TOON
// (one tabular array at the root) and as CSV, with the same records.
type benchTable struct {
	rows int
	toon []byte
	csv  []byte
}

var benchTables sync.Map // rows -> *benchTable

// genBenchTable builds the table with a fixed seed, so every run measures
// the same bytes.
func genBenchTable(rows int) *benchTable {
	if v, ok := benchTables.Load(rows); ok {
		return v.(*benchTable)
	}
	rng := rand.New(rand.NewSource(42))
	names := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Ken Thompson", "Donald Knuth", "Frances Allen"}
	countries := []string{"DK", "UK", "US", "NL", "DE", "FR", "JP", "BR"}
	var t, c bytes.Buffer
	t.WriteString("[" + strconv.Itoa(rows) + "]{id,name,email,active,price,qty,country,created,score}:\n")
	c.WriteString("id,name,email,active,price,qty,country,created,score\n")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rec [9]string
	for i := 0; i < rows; i++ {
		name := names[rng.Intn(len(names))]
		rec[0] = strconv.Itoa(i + 1)
		rec[1] = name
		rec[2] = "user" + strconv.Itoa(rng.Intn(100000)) + "@example.com"
		rec[3] = strconv.FormatBool(rng.Intn(2) == 0)
		rec[4] = strconv.FormatFloat(float64(rng.Intn(100000))/100, 'f', -1, 64)
		rec[5] = strconv.Itoa(rng.Intn(500))
		rec[6] = countries[rng.Intn(len(countries))]
		rec[7] = base.Add(time.Duration(rng.Int63n(365*24*3600)) * time.Second).Format(time.RFC3339)
		rec[8] = strconv.FormatFloat(rng.Float64()*10, 'f', 4, 64)
		t.WriteString("  ")
		for j, v := range rec {
			if j > 0 {
				t.WriteByte(',')
				c.WriteByte(',')
			}
			if j == 7 { // timestamps hold ':' and must be quoted in TOON
				t.WriteString(`"` + v + `"`)
			} else {
				t.WriteString(v)
			}
			c.WriteString(v)
		}
		if i < rows-1 {
			t.WriteByte('\n')
		}
		c.WriteByte('\n')
	}
	bt := &benchTable{rows: rows, toon: t.Bytes(), csv: c.Bytes()}
	benchTables.Store(rows, bt)
	return bt
}

func reportRows(b *testing.B, rows int) {
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// cpuTimer measures the CPU time of the benchmark's own thread, which is
// steadier than wall time on a machine shared with other work. Where the
// thread clock is not available it reports nothing.
type cpuTimer struct{ start time.Duration }

func startCPU() *cpuTimer {
	runtime.LockOSThread()
	return &cpuTimer{start: threadCPU()}
}

// report adds the thread CPU time per row as the "cpu-ns/row" metric.
func (c *cpuTimer) report(b *testing.B, rows int) {
	end := threadCPU()
	runtime.UnlockOSThread()
	if c.start < 0 || end < 0 {
		return
	}
	b.ReportMetric(float64(end-c.start)/float64(rows)/float64(b.N), "cpu-ns/row")
}

// BenchmarkDecodeTable measures the Token loop over the 500,000-row table
// beside encoding/csv reading the same records with ReuseRecord.
func BenchmarkDecodeTable(b *testing.B) {
	bt := genBenchTable(500000)
	b.Run("Token", func(b *testing.B) {
		b.SetBytes(int64(len(bt.toon)))
		b.ReportAllocs()
		d := NewDecoder(bytes.NewReader(bt.toon))
		cpu := startCPU()
		for i := 0; i < b.N; i++ {
			d.Reset(bytes.NewReader(bt.toon))
			n := 0
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != bt.rows*20+2 {
				b.Fatalf("got %d tokens", n)
			}
		}
		cpu.report(b, bt.rows)
		reportRows(b, bt.rows)
	})
	b.Run("encoding-csv", func(b *testing.B) {
		b.SetBytes(int64(len(bt.csv)))
		b.ReportAllocs()
		cpu := startCPU()
		for i := 0; i < b.N; i++ {
			r := csv.NewReader(bytes.NewReader(bt.csv))
			r.ReuseRecord = true
			n := 0
			for {
				rec, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n += len(rec)
			}
			if n != (bt.rows+1)*9 {
				b.Fatalf("got %d fields", n)
			}
		}
		cpu.report(b, bt.rows)
		reportRows(b, bt.rows)
	})
}
