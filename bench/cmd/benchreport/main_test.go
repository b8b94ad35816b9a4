package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestReport parses a small made-up benchmark output (three runs of toon's
// Token loop and its peers on a table and on a nested dataset, given as
// two build modes) and checks the per-run ratios, the summary's worst and
// median, the target verdicts (halved for purego) and the allocations.
func TestReport(t *testing.T) {
	t.Setenv("TOON_BENCH_SCALE", "0.01") // the datasets table generates them
	in := `goos: linux
goarch: amd64
pkg: github.com/toonstream/toon/bench
cpu: Some CPU @ 2.00GHz
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 300.0 MB/s	 0 allocs/row	 400 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/json-Token-2         	10	 1000 ns/op	 50.0 MB/s	 2.5 allocs/row	 10 rows/s	 10 rows/op	 80 B/op	 25 allocs/op
BenchmarkTokens/analytics/jsontext-ReadToken-2 	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 150 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/csv-Read-2           	10	 1000 ns/op	 60.0 MB/s	 0.1 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 1 allocs/op
BenchmarkTokens/orders/toon-Token-2            	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/orders/jsontext-ReadToken-2    	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 100.0 MB/s	 0 allocs/row	 200 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/json-Token-2         	10	 1000 ns/op	 50.0 MB/s	 2.5 allocs/row	 10 rows/s	 10 rows/op	 80 B/op	 25 allocs/op
BenchmarkTokens/analytics/jsontext-ReadToken-2 	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 50 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/csv-Read-2           	10	 1000 ns/op	 60.0 MB/s	 0.1 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 1 allocs/op
BenchmarkTokens/orders/toon-Token-2            	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/orders/jsontext-ReadToken-2    	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 50 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 200.0 MB/s	 0 allocs/row	 300 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/json-Token-2         	10	 1000 ns/op	 50.0 MB/s	 2.5 allocs/row	 10 rows/s	 10 rows/op	 80 B/op	 25 allocs/op
BenchmarkTokens/analytics/jsontext-ReadToken-2 	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/csv-Read-2           	10	 1000 ns/op	 60.0 MB/s	 0.1 allocs/row	 150 rows/s	 10 rows/op	 0 B/op	 1 allocs/op
BenchmarkTokens/orders/toon-Token-2            	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 100 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/orders/jsontext-ReadToken-2    	10	 1000 ns/op	 60.0 MB/s	 0 allocs/row	 200 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
PASS
`
	in = withCPU(in)
	native, err := parse("native", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if native.procs != "2" || native.env["cpu"] != "Some CPU @ 2.00GHz" || len(native.results) != 6 {
		t.Fatalf("parsed %+v", native)
	}
	purego, err := parse("purego", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	// analytics: per-run best peers 150, 100, 150 → ratios 2.67, 2, 2.
	// orders: jsontext 100, 50, 200 → ratios 1, 2, 0.5.
	r, ok := native.compare("Tokens", "analytics", "toon-Token", paths[0].peers, wallTime)
	if !ok || r.med != 2 || r.lo != 2 || r.hi != 400.0/150 || r.best != "csv-Read" || r.runs != 3 {
		t.Fatalf("analytics ratio %+v", r)
	}
	var b bytes.Buffer
	write(&b, []*report{native, purego}, []basis{wallTime, cpuTime})
	out := b.String()
	for _, want := range []string{
		"| **1.00x** (orders) | 1.50x | **1.00x** (orders) | 1.50x |", // worst, then the median of 2.00 and 1.00, in both modes
		"| 1 of 2; not orders | 2 of 2 |",                             // nested target 1.5x; halved for purego
		// The path table, native: the CPU-time ratios are twice the others.
		"| analytics | native | 300 | 600 | 0 | csv `Read` (ReuseRecord) | 2.00x [2.00x–2.67x] | 4.00x [4.00x–5.33x] | ✓ 2.000x ≥ 2x |",
		"| orders | native | 100 | 200 | 0 | jsontext `ReadToken` | 1.00x [0.50x–2.00x] | 2.00x [1.00x–4.00x] | ✗ 1.000x < 1.5x |",
		"| orders | purego | 100 | 200 | 0 | jsontext `ReadToken` | 1.00x [0.50x–2.00x] | 2.00x [1.00x–4.00x] | ✓ 1.000x ≥ 0.75x |",
		"| orders | 1.00x ✗ | – |",                                    // the native matrix: no Row results
		"| **2.00x** (orders) | 3.00x | **2.00x** (orders) | 3.00x |", // the summary of CPU time
		"| Tokens | analytics | json-Token | 3 | 50 | 10 | 10 | 2.5 | 8 |",
		"| GOMAXPROCS | 2 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := parse("native", strings.NewReader("PASS\n")); err == nil {
		t.Error("no error for output without results")
	}
}

// withCPU adds a rows/cpu-s metric to each benchmark line: twice its rows/s
// for toon's APIs, the same for the peers'.
func withCPU(in string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(in, "\n") {
		f := strings.Fields(line)
		if strings.HasPrefix(line, "Benchmark") {
			for i := 2; i+1 < len(f); i += 2 {
				if f[i+1] == "rows/s" {
					v, _ := strconv.ParseFloat(f[i], 64)
					if strings.Contains(f[0], "/toon-") {
						v *= 2
					}
					line = strings.TrimSuffix(line, "\n") + " " + strconv.FormatFloat(v, 'f', -1, 64) + " rows/cpu-s\n"
				}
			}
		}
		b.WriteString(line)
	}
	return b.String()
}
