package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReport parses a small benchmark output (made-up values for two
// APIs) and checks the medians, per-row figures and the ratio column.
func TestReport(t *testing.T) {
	t.Setenv("TOON_BENCH_SCALE", "0.01") // the datasets table generates them
	in := `goos: linux
goarch: amd64
pkg: github.com/toonstream/toon/bench
cpu: Some CPU @ 2.00GHz
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 300.0 MB/s	 400 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 100.0 MB/s	 200 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/toon-Token-2         	10	 1000 ns/op	 200.0 MB/s	 300 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
BenchmarkTokens/analytics/json-Token-2         	10	 1000 ns/op	 50.0 MB/s	 100 rows/s	 10 rows/op	 80 B/op	 25 allocs/op
BenchmarkTokens/analytics/jsontext-ReadToken-2 	10	 1000 ns/op	 60.0 MB/s	 150 rows/s	 10 rows/op	 0 B/op	 0 allocs/op
PASS
`
	rep, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if rep.procs != "2" || rep.env["cpu"] != "Some CPU @ 2.00GHz" || len(rep.results) != 3 {
		t.Fatalf("parsed %+v", rep)
	}
	var b bytes.Buffer
	rep.write(&b)
	out := b.String()
	for _, want := range []string{
		"| analytics | toon-Token | 200 | 300 | 0 | 0 |  | 3.00 | 2.00 |",
		"| analytics | json-Token | 50 | 100 | 2.5 | 8 |  |  |  |",
		"| GOMAXPROCS | 2 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := parse(strings.NewReader("PASS\n")); err == nil {
		t.Error("no error for output without results")
	}
}
