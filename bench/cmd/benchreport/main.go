// Command benchreport turns the output of the bench module's benchmarks
// into markdown tables: MB/s, rows/s and allocations per row of every API
// on every dataset, the ratio of each toon API to each peer, the machine
// and the Go version; and, with -tokens-scale, a table of o200k_base token
// counts of the datasets as JSON and as TOON.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem . > bench.txt
//	go run ./cmd/benchreport -in bench.txt -tokens-scale 0.1 -o RESULTS.md
//
// Every number in its output comes from the benchmark output it reads or
// from counting tokens of the generated datasets; it computes nothing
// else but ratios, medians and divisions.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiktoken-go/tokenizer"
	"github.com/toonstream/toon/bench"
)

func main() {
	in := flag.String("in", "-", "benchmark output to read (- for standard input)")
	out := flag.String("o", "-", "markdown file to write (- for standard output)")
	tokScale := flag.Float64("tokens-scale", 0, "dataset scale for the token table (0: no token table)")
	flag.Parse()
	if err := run(*in, *out, *tokScale); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// result is one benchmark's metrics: unit → the values of its runs.
type result struct {
	op, dataset, api string
	metrics          map[string][]float64
}

// median returns the median of the runs of a metric, or NaN.
func (r *result) median(unit string) float64 {
	v := append([]float64(nil), r.metrics[unit]...)
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// report is the parsed benchmark output.
type report struct {
	env     map[string]string // goos, goarch, cpu, pkg
	procs   string
	results []*result
	byName  map[string]*result
}

func parse(r io.Reader) (*report, error) {
	rep := &report{env: map[string]string{}, byName: map[string]*result{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "Benchmark") && !strings.Contains(k, " ") {
			rep.env[k] = v
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				rep.procs = name[i+1:]
				name = name[:i]
			}
		}
		parts := strings.Split(strings.TrimPrefix(name, "Benchmark"), "/")
		if len(parts) != 3 {
			continue
		}
		res := rep.byName[name]
		if res == nil {
			res = &result{op: parts[0], dataset: parts[1], api: parts[2], metrics: map[string][]float64{}}
			rep.byName[name] = res
			rep.results = append(rep.results, res)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("bad value %q in %q", f[i], line)
			}
			res.metrics[f[i+1]] = append(res.metrics[f[i+1]], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rep.results) == 0 {
		return nil, fmt.Errorf("no benchmark results in the input")
	}
	return rep, nil
}

// opTitles orders and names the operations.
var opTitles = []struct{ op, title, about string }{
	{"Tokens", "Reading tokens", "Every token of the document (every field, for CSV), nothing built."},
	{"Decode", "Decoding to generic values", "The whole document into map[string]any / []any (CSV: ReadAll into [][]string)."},
	{"Encode", "Encoding generic values", "The same generic values written out."},
	{"Stream", "Streaming writes", "A row (WriteRow, csv.Writer) or a token (WriteToken, replaying the decoder's tokens) at a time."},
}

var peers = []struct{ prefix, name string }{
	{"csv-", "encoding/csv"},
	{"json-", "encoding/json"},
	{"jsontext-", "jsontext"},
}

func run(in, out string, tokScale float64) error {
	var r io.Reader = os.Stdin
	if in != "-" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	rep, err := parse(r)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	rep.write(&b)
	if tokScale > 0 {
		if err := tokenTable(&b, tokScale); err != nil {
			return err
		}
	}
	if out == "-" {
		_, err = os.Stdout.Write(b.Bytes())
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

func (rep *report) write(w *bytes.Buffer) {
	fmt.Fprintf(w, "# Benchmark results\n\n")
	fmt.Fprintf(w, "Written by `bench/run.sh` from one run of the benchmarks in `bench/`; do not edit by hand.\n\n")
	fmt.Fprintf(w, "| | |\n|---|---|\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "| %s | %s |\n", k, v)
		}
	}
	row("Date", envOr("BENCH_DATE", time.Now().UTC().Format("2006-01-02 15:04 UTC")))
	row("Commit", os.Getenv("BENCH_COMMIT"))
	row("Go", envOr("BENCH_GOVERSION", runtime.Version()))
	row("OS/arch", rep.env["goos"]+"/"+rep.env["goarch"])
	row("CPU", rep.env["cpu"])
	row("GOMAXPROCS", rep.procs)
	row("Load average before the run", os.Getenv("BENCH_LOADAVG"))
	row("Dataset scale", envOr("TOON_BENCH_SCALE", "1"))
	row("Benchmark flags", os.Getenv("BENCH_FLAGS"))
	fmt.Fprintf(w, "\nMB/s counts each format's own bytes (TOON for toon, JSON for encoding/json and jsontext, CSV for encoding/csv), so compare rows/s across formats. ")
	fmt.Fprintf(w, "A *row* is a top-level record of the dataset (a table row, an order, a diagnostic, a configured service). ")
	fmt.Fprintf(w, "The ×peer columns divide the toon API's rows/s by the rows/s of the peer's fastest API on the same data and operation: above 1, toon is faster. ")
	fmt.Fprintf(w, "Values are medians when the benchmarks ran more than once.\n\n")

	scale, err := strconv.ParseFloat(envOr("TOON_BENCH_SCALE", "1"), 64)
	if err != nil {
		scale = 1
	}
	fmt.Fprintf(w, "## Datasets\n\n| Dataset | What | Rows | TOON bytes | JSON bytes | CSV bytes |\n|---|---|--:|--:|--:|--:|\n")
	for _, name := range bench.Names {
		d, err := bench.Generate(name, scale)
		if err != nil {
			fmt.Fprintf(w, "| %s | %v | | | | |\n", name, err)
			continue
		}
		csvSize := "–"
		if d.CSV != nil {
			csvSize = group(strconv.Itoa(len(d.CSV)))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", name, d.About, group(strconv.Itoa(d.Records)),
			group(strconv.Itoa(len(d.TOON))), group(strconv.Itoa(len(d.JSON))), csvSize)
	}
	fmt.Fprintln(w)
	for _, o := range opTitles {
		var rs []*result
		for _, name := range bench.Names {
			for _, r := range rep.results {
				if r.op == o.op && r.dataset == name {
					rs = append(rs, r)
				}
			}
		}
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(w, "## %s\n\n%s\n\n", o.title, o.about)
		fmt.Fprintf(w, "| Dataset | API | MB/s | rows/s | allocs/row | B/row |")
		for _, p := range peers {
			fmt.Fprintf(w, " ×%s |", p.name)
		}
		fmt.Fprintf(w, "\n|---|---|--:|--:|--:|--:|")
		for range peers {
			fmt.Fprintf(w, "--:|")
		}
		fmt.Fprintln(w)
		for _, r := range rs {
			rows := r.median("rows/op")
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |", r.dataset, r.api, num(r.median("MB/s")), num(r.median("rows/s")),
				num(r.median("allocs/op")/rows), num(r.median("B/op")/rows))
			for _, p := range peers {
				cell := ""
				if strings.HasPrefix(r.api, "toon-") {
					if best := rep.best(r.op, r.dataset, p.prefix); best > 0 {
						cell = fmt.Sprintf("%.2f", r.median("rows/s")/best)
					}
				}
				fmt.Fprintf(w, " %s |", cell)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
}

// best returns the highest rows/s of the peer's APIs on the dataset.
func (rep *report) best(op, dataset, prefix string) float64 {
	best := 0.0
	for _, r := range rep.results {
		if r.op == op && r.dataset == dataset && strings.HasPrefix(r.api, prefix) {
			best = math.Max(best, r.median("rows/s"))
		}
	}
	return best
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// num formats a metric with three significant digits (more for large
// whole numbers), or "–" when it is missing.
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1000:
		return group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// group inserts thousands separators into a whole number.
func group(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// tokenTable counts o200k_base tokens of every dataset, generated at the
// given scale, as compact JSON, as JSON indented by two spaces, and as
// TOON.
func tokenTable(w *bytes.Buffer, scale float64) error {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "## Tokens (o200k_base)\n\n")
	fmt.Fprintf(w, "The datasets generated at scale %g, counted with github.com/tiktoken-go/tokenizer. ", scale)
	fmt.Fprintf(w, "Savings are 1 − TOON tokens ÷ JSON tokens.\n\n")
	fmt.Fprintf(w, "| Dataset | Rows | JSON bytes | TOON bytes | JSON tokens (compact) | JSON tokens (indented) | TOON tokens | saving vs compact | saving vs indented |\n")
	fmt.Fprintf(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, name := range bench.Names {
		d, err := bench.Generate(name, scale)
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, d.JSON, "", "  "); err != nil {
			return err
		}
		var counts [3]int
		for i, text := range [][]byte{d.JSON, pretty.Bytes(), d.TOON} {
			if counts[i], err = enc.Count(string(text)); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %.1f%% | %.1f%% |\n", name, group(strconv.Itoa(d.Records)),
			group(strconv.Itoa(len(d.JSON))), group(strconv.Itoa(len(d.TOON))),
			group(strconv.Itoa(counts[0])), group(strconv.Itoa(counts[1])), group(strconv.Itoa(counts[2])),
			100*(1-float64(counts[2])/float64(counts[0])), 100*(1-float64(counts[2])/float64(counts[1])))
	}
	fmt.Fprintln(w)
	return nil
}
