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

// stop returns the thread CPU time since startCPU, and false where the
// thread clock is not available.
func (c *cpuTimer) stop() (time.Duration, bool) {
	end := threadCPU()
	runtime.UnlockOSThread()
	return end - c.start, c.start >= 0 && end >= 0
}

// report adds the thread CPU time per row as the "cpu-ns/row" metric.
func (c *cpuTimer) report(b *testing.B, rows int) {
	if d, ok := c.stop(); ok {
		b.ReportMetric(float64(d)/float64(rows)/float64(b.N), "cpu-ns/row")
	}
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
			n, err := drain(d)
			if err != nil {
				b.Fatal(err)
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

// BenchmarkLexTable measures the line layer alone over the 500,000-row
// table: every line read, checked as UTF-8, split at its unquoted
// delimiters and its cells trimmed (a row event with its cells), without
// typing cells or making tokens. It is the part of the work the SIMD
// scanner speeds up.
func BenchmarkLexTable(b *testing.B) {
	bt := genBenchTable(500000)
	b.SetBytes(int64(len(bt.toon)))
	b.ReportAllocs()
	o := defaultOptions()
	var l lineReader
	var ln rawLine
	var seps []int32
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		l = lineReader{buf: l.buf}
		l.init(bytes.NewReader(bt.toon), &o)
		rows, cells := 0, 0
		for {
			err := l.readLine(&ln)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if !validUTF8(ln.full) {
				b.Fatal("invalid UTF-8")
			}
			seps, _ = scanLine(ln.text, ',', seps[:0])
			for c := 0; c <= len(seps); c++ {
				if s, e := cellSpan(ln.text, seps, c); e >= s {
					cells++
				}
			}
			rows++
		}
		if rows != bt.rows+1 || cells != (bt.rows+1)*9 {
			b.Fatalf("%d rows, %d cells", rows, cells)
		}
	}
	cpu.report(b, bt.rows)
	reportRows(b, bt.rows)
}

// BenchmarkIndexTable measures the row fast path's lexing alone over the
// same table: the row index (indexRows) a 16 KiB window at a time, and the
// walk over its entries that splits each row into its cells' spans, as
// bulkRows walks them, with each kernel. The header line is skipped.
func BenchmarkIndexTable(b *testing.B) {
	bt := genBenchTable(500000)
	body := bt.toon[bytes.IndexByte(bt.toon, '\n')+1:]
	body = append(body[:len(body):len(body)], '\n')
	seen := map[string]bool{}
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		name := indexKernelName()
		if seen[name] {
			restore()
			continue
		}
		seen[name] = true
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var idx []uint32
			var spans []int32
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				rows, cells := 0, 0
				for pos := 0; pos < len(body); {
					win := body[pos:min(len(body), pos+16<<10)]
					idx = indexRows(win, ',', idx[:0])
					ls, cs := 0, 0
					spans = spans[:0]
					for _, p := range idx {
						switch win[p] {
						case ',', '\n':
							spans = append(spans, int32(cs), int32(p))
							cs = int(p) + 1
							if win[p] == '\n' {
								rows++
								cells += len(spans) / 2
								ls = cs
								spans = spans[:0]
							}
						}
					}
					if ls == 0 {
						b.Fatal("a row longer than the window")
					}
					pos += ls
				}
				if rows != bt.rows || cells != bt.rows*9 {
					b.Fatalf("%d rows, %d cells", rows, cells)
				}
			}
			cpu.report(b, bt.rows)
			reportRows(b, bt.rows)
		})
		restore()
	}
}

// genShapeDoc builds the other shapes the Token loop is measured on, so a
// gain on the 9-column table cannot hide a loss elsewhere.
func genShapeDoc(shape string) []byte {
	rng := rand.New(rand.NewSource(7))
	var sb bytes.Buffer
	switch shape {
	case "wide50":
		const rows, cols = 50000, 50
		sb.WriteString("[" + strconv.Itoa(rows) + "]{")
		for c := 0; c < cols; c++ {
			if c > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString("c" + strconv.Itoa(c))
		}
		sb.WriteString("}:")
		for r := 0; r < rows; r++ {
			sb.WriteString("\n  ")
			for c := 0; c < cols; c++ {
				if c > 0 {
					sb.WriteByte(',')
				}
				switch c % 3 {
				case 0:
					sb.WriteString(strconv.Itoa(rng.Intn(1000000)))
				case 1:
					sb.WriteString("v" + strconv.Itoa(rng.Intn(1000)))
				default:
					sb.WriteString(strconv.FormatFloat(rng.Float64()*100, 'f', 2, 64))
				}
			}
		}
	case "quoted":
		const rows = 50000
		sb.WriteString("[" + strconv.Itoa(rows) + "]{id,title,body}:")
		words := []string{"alpha", "beta, gamma", "delta: epsilon", `say \"hi\"`, "tab\\there", "zeta"}
		for r := 0; r < rows; r++ {
			sb.WriteString("\n  " + strconv.Itoa(r) + `,"`)
			for w := 0; w < 4; w++ {
				sb.WriteString(words[rng.Intn(len(words))] + " ")
			}
			sb.WriteString(`","`)
			for w := 0; w < 40; w++ {
				sb.WriteString(words[rng.Intn(len(words))] + " ")
			}
			sb.WriteString(`"`)
		}
	case "nested":
		// Objects inside lists inside objects, a few levels deep.
		sb.WriteString("services[2000]:")
		for i := 0; i < 2000; i++ {
			sb.WriteString("\n  - name: svc" + strconv.Itoa(i))
			sb.WriteString("\n    config:\n      replicas: " + strconv.Itoa(rng.Intn(9)+1))
			sb.WriteString("\n      limits:\n        cpu: 2.5\n        memory: 4Gi")
			sb.WriteString("\n      env[3]:\n        - key: MODE\n          value: prod\n        - key: REGION\n          value: eu\n        - key: DEBUG\n          value: false")
			sb.WriteString("\n    ports[2]: 80,443")
		}
	}
	return sb.Bytes()
}

// BenchmarkDecodeShapes runs the Token loop over a 50-column table, a table
// of long quoted strings with escapes, and a nested non-tabular document.
func BenchmarkDecodeShapes(b *testing.B) {
	for _, shape := range []string{"wide50", "quoted", "nested"} {
		doc := genShapeDoc(shape)
		b.Run(shape, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			d := NewDecoder(bytes.NewReader(doc))
			for i := 0; i < b.N; i++ {
				d.Reset(bytes.NewReader(doc))
				if _, err := drain(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
