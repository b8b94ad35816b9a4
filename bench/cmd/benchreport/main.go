// Command benchreport turns the output of the bench module's benchmarks
// into the markdown of RESULTS.md: for every path of the library (a toon
// API on one job) and every dataset, the ratio of its rows/s to the best
// of its peers' on the same data in the same run, its allocations per
// row, and whether it meets the target of issue 17; per path the worst
// ratio over the datasets first, then the median. It reads one output per
// build mode (the native kernels, -tags purego, ...). With -tokens-scale
// it adds a table of o200k_base token counts of the datasets as JSON and
// as TOON.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem . > native.txt
//	go test -tags purego -run '^$' -bench . -benchmem . > purego.txt
//	go run ./cmd/benchreport -in native=native.txt -in purego=purego.txt -tokens-scale 0.1 -o RESULTS.md
//
// When a benchmark ran several times, the i-th run of toon's API is
// compared with the i-th runs of its peers (run.sh interleaves whole
// rounds, so the i-th runs are neighbours in time), and the tables give
// the median of these per-run ratios with their range.
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

// inputs are the -in flags: label=file, or a file (labelled "native").
type inputs []string

func (in *inputs) String() string     { return strings.Join(*in, " ") }
func (in *inputs) Set(s string) error { *in = append(*in, s); return nil }

func main() {
	var ins inputs
	flag.Var(&ins, "in", "benchmark output to read, as `mode=file` or file (mode native); repeat for each build mode, the reference mode first; - is standard input")
	out := flag.String("o", "-", "markdown file to write (- for standard output)")
	tokScale := flag.Float64("tokens-scale", 0, "dataset scale for the token table (0: no token table)")
	basisName := flag.String("basis", "wall", "what the summary and the matrix take ratios of: wall (rows/s) or cpu (rows/cpu-s)")
	flag.Parse()
	if len(ins) == 0 {
		ins = inputs{"-"}
	}
	bases := []basis{wallTime, cpuTime}
	switch *basisName {
	case "wall":
	case "cpu":
		bases = []basis{cpuTime, wallTime}
	default:
		fmt.Fprintln(os.Stderr, "benchreport: -basis must be wall or cpu")
		os.Exit(2)
	}
	if err := run(ins, *out, *tokScale, bases); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// result is one benchmark's metrics: unit → the values of its runs, in
// the order they ran.
type result struct {
	op, dataset, api string
	metrics          map[string][]float64
}

// median returns the median of the runs of a metric, or NaN.
func (r *result) median(unit string) float64 { return median(r.metrics[unit]) }

func median(v []float64) float64 {
	v = append([]float64(nil), v...)
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// report is the parsed benchmark output of one build mode.
type report struct {
	mode    string
	env     map[string]string // goos, goarch, cpu, pkg
	procs   string
	results []*result
	byName  map[string]*result // op/dataset/api
}

func parse(mode string, r io.Reader) (*report, error) {
	rep := &report{mode: mode, env: map[string]string{}, byName: map[string]*result{}}
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
		res := rep.byName[strings.Join(parts, "/")]
		if res == nil {
			res = &result{op: parts[0], dataset: parts[1], api: parts[2], metrics: map[string][]float64{}}
			rep.byName[strings.Join(parts, "/")] = res
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
		return nil, fmt.Errorf("no benchmark results in the %s input", mode)
	}
	return rep, nil
}

func (rep *report) get(op, dataset, api string) *result {
	return rep.byName[op+"/"+dataset+"/"+api]
}

// isTable reports whether the dataset is a table: whether encoding/csv
// read it.
func (rep *report) isTable(dataset string) bool { return rep.get("Tokens", dataset, "csv-Read") != nil }

// A path is one job of the library measured against its peers.
type path struct {
	name   string   // its name in the tables
	op     string   // the benchmark function, without "Benchmark"
	api    string   // toon's sub-benchmark
	about  string   // what it does
	peers  []string // the peers' sub-benchmarks; the ratio is to the best of those that ran
	target *target  // issue 17's target, if it sets one
}

// A target is a minimum ratio to given peers, and perhaps no allocation
// per row.
type target struct {
	text     string                   // the target, in words
	factor   func(table bool) float64 // the minimum ratio on a table, on a nested dataset
	peers    func(table bool) []string
	noAllocs bool // allocs/row must stay below allocLimit
}

// allocLimit is the most allocations per row a path may report and still
// count as allocating nothing per row: below it, what it allocates is the
// fixed cost of a document (a decoder, an encoder, a growing output).
const allocLimit = 0.05

func fixed(f float64) func(bool) float64 { return func(bool) float64 { return f } }
func these(p ...string) func(bool) []string {
	return func(bool) []string { return p }
}

var paths = []path{
	{"Token", "Tokens", "toon-Token", "`Decoder.Token` over the whole document, every token read, nothing built",
		[]string{"csv-Read", "jsontext-ReadToken", "json-Token"},
		&target{"≥ 2x the better of csv `Read` and jsontext on tables, ≥ 1.5x jsontext on nested data; 0 allocs/row",
			func(table bool) float64 {
				if table {
					return 2
				}
				return 1.5
			},
			func(table bool) []string {
				if table {
					return []string{"csv-Read", "jsontext-ReadToken"}
				}
				return []string{"jsontext-ReadToken"}
			}, true}},
	{"Row", "Tokens", "toon-Row", "the same tokens read with `Decoder.Row` where a row is ready, else `Token`",
		[]string{"csv-Read", "jsontext-ReadToken", "json-Token"}, nil},
	{"Rows[T]", "Rows", "toon-Rows", "`Rows[T]`: the record array decoded one typed record at a time into a reused value",
		[]string{"csv-ReadParse", "json-Decode", "jsonv2-UnmarshalDecode"}, nil},
	{"Unmarshal", "Unmarshal", "toon-Unmarshal", "`Unmarshal` of the whole document into a new typed document struct",
		[]string{"json-Unmarshal", "jsonv2-Unmarshal"},
		&target{"≥ 4x encoding/json `Unmarshal`", fixed(4), these("json-Unmarshal"), false}},
	{"Unmarshal any", "UnmarshalAny", "toon-Unmarshal", "`Unmarshal` into an `any` (map[string]any, []any, float64, ...)",
		[]string{"json-Unmarshal", "jsonv2-Unmarshal"}, nil},
	{"Marshal", "Marshal", "toon-Marshal", "`Marshal` of the typed document struct",
		[]string{"json-Marshal", "jsonv2-Marshal"},
		&target{"≥ 2x encoding/json `Marshal`, no allocation per record", fixed(2), these("json-Marshal"), true}},
	{"Marshal any", "MarshalAny", "toon-Marshal", "`Marshal` of the generic values (map[string]any)",
		[]string{"json-Marshal", "jsonv2-Marshal"},
		&target{"≥ 1.5x encoding/json `Marshal`", fixed(1.5), these("json-Marshal"), false}},
	{"Encode", "Encode", "toon-Encode", "`Encoder.Encode` of the typed document to an io.Writer",
		[]string{"json-Encode", "jsonv2-MarshalWrite"}, nil},
	{"WriteRow", "WriteRow", "toon-WriteRow", "`BeginTable`/`WriteRow`/`EndTable` of the flat tables, cells as `toon.Value`s",
		[]string{"csv-Write"},
		&target{"≥ 2x encoding/csv `Writer` given pre-formatted strings; 0 allocs/row", fixed(2), these("csv-Write"), true}},
	{"WriteRows[T]", "WriteRow", "toon-WriteRows", "`WriteRows[T]` of the typed records of the flat tables",
		[]string{"csv-Write"}, nil},
	{"WriteToken", "WriteToken", "toon-WriteToken", "`Encoder.WriteToken` replaying the decoder's tokens",
		[]string{"jsontext-WriteToken"}, nil},
}

// apiNames are the peers' sub-benchmarks in words.
var apiNames = map[string]string{
	"csv-Read":               "csv `Read` (ReuseRecord)",
	"csv-ReadParse":          "csv `Read` + strconv into the struct",
	"csv-Write":              "csv `Writer`",
	"json-Token":             "encoding/json `Decoder.Token`",
	"json-Decode":            "encoding/json `Decoder.Decode` per record",
	"json-Unmarshal":         "encoding/json `Unmarshal`",
	"json-Marshal":           "encoding/json `Marshal`",
	"json-Encode":            "encoding/json `Encoder.Encode`",
	"jsontext-ReadToken":     "jsontext `ReadToken`",
	"jsontext-WriteToken":    "jsontext `WriteToken`",
	"jsonv2-UnmarshalDecode": "json v2 `UnmarshalDecode` per record",
	"jsonv2-Unmarshal":       "json v2 `Unmarshal`",
	"jsonv2-Marshal":         "json v2 `Marshal`",
	"jsonv2-MarshalWrite":    "json v2 `MarshalWrite`",
}

func apiName(api string) string {
	if s, ok := apiNames[api]; ok {
		return s
	}
	return api
}

// A basis is the rate ratios are taken of: rows per second of wall time
// (rows/s) or of the process's CPU time (rows/cpu-s).
type basis struct{ unit, name string }

var (
	wallTime = basis{"rows/s", "wall time"}
	cpuTime  = basis{"rows/cpu-s", "CPU time"}
)

// ratio is toon's rate over the best peer's, run by run.
type ratio struct {
	med, lo, hi float64
	best        string // the peer with the highest median rate
	runs        int
}

// compare returns the ratio of the path's rate on the dataset to the
// best of the peers that ran there, pairing the i-th runs; false when
// toon's API or every peer is missing, or the rate was not measured.
func (rep *report) compare(op, dataset, api string, peers []string, b basis) (ratio, bool) {
	t := rep.get(op, dataset, api)
	if t == nil {
		return ratio{}, false
	}
	var ps []*result
	var best string
	bestMed := 0.0
	for _, p := range peers {
		if r := rep.get(op, dataset, p); r != nil {
			ps = append(ps, r)
			if m := r.median(b.unit); m > bestMed {
				best, bestMed = p, m
			}
		}
	}
	if len(ps) == 0 {
		return ratio{}, false
	}
	n := len(t.metrics[b.unit])
	for _, p := range ps {
		n = min(n, len(p.metrics[b.unit]))
	}
	var rs []float64
	for i := 0; i < n; i++ {
		best := 0.0
		for _, p := range ps {
			best = math.Max(best, p.metrics[b.unit][i])
		}
		rs = append(rs, t.metrics[b.unit][i]/best)
	}
	if len(rs) == 0 {
		return ratio{}, false
	}
	sort.Float64s(rs)
	return ratio{med: median(rs), lo: rs[0], hi: rs[len(rs)-1], best: best, runs: len(rs)}, true
}

// verdict is a path's standing against its target on one dataset.
type verdict struct {
	ratio  ratio
	factor float64
	allocs float64
	ok     bool
}

// halved reports whether the mode is held to half the targets: issue 17
// asks the portable code (-tags purego) for half of each.
func halved(mode string) bool { return mode == "purego" }

func (rep *report) check(p path, dataset string, b basis) (verdict, bool) {
	if p.target == nil {
		return verdict{}, false
	}
	table := rep.isTable(dataset)
	r, ok := rep.compare(p.op, dataset, p.api, p.target.peers(table), b)
	if !ok {
		return verdict{}, false
	}
	v := verdict{ratio: r, factor: p.target.factor(table), allocs: rep.get(p.op, dataset, p.api).median("allocs/row")}
	if halved(rep.mode) {
		v.factor /= 2
	}
	v.ok = r.med >= v.factor && (!p.target.noAllocs || v.allocs < allocLimit)
	return v, true
}

// run writes the report of the inputs; bases are the primary basis of
// the ratios, then the other.
func run(ins inputs, out string, tokScale float64, bases []basis) error {
	var reps []*report
	for _, in := range ins {
		mode, file, ok := strings.Cut(in, "=")
		if !ok {
			mode, file = "native", in
		}
		var r io.Reader = os.Stdin
		if file != "-" {
			f, err := os.Open(file)
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		rep, err := parse(mode, r)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	var b bytes.Buffer
	write(&b, reps, bases)
	if tokScale > 0 {
		if err := tokenTable(&b, tokScale); err != nil {
			return err
		}
	}
	if out == "-" {
		_, err := os.Stdout.Write(b.Bytes())
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// datasets lists the datasets that ran, in report order.
func datasets(reps []*report) []string {
	seen := map[string]bool{}
	for _, rep := range reps {
		for _, r := range rep.results {
			seen[r.dataset] = true
		}
	}
	var ds []string
	for _, name := range bench.Names {
		if seen[name] {
			ds = append(ds, name)
		}
	}
	return ds
}

func write(w *bytes.Buffer, reps []*report, bases []basis) {
	ref := reps[0]
	ds := datasets(reps)
	var modes []string
	for _, rep := range reps {
		modes = append(modes, "`"+rep.mode+"`")
	}
	fmt.Fprintf(w, "# Benchmark results\n\n")
	fmt.Fprintf(w, "Written by `bench/run.sh` from the benchmarks in `bench/`; do not edit by hand.\n\n")
	fmt.Fprintf(w, "| | |\n|---|---|\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "| %s | %s |\n", k, v)
		}
	}
	row("Date", envOr("BENCH_DATE", time.Now().UTC().Format("2006-01-02 15:04 UTC")))
	row("Commit", os.Getenv("BENCH_COMMIT"))
	row("Go", envOr("BENCH_GOVERSION", runtime.Version()))
	row("OS/arch", ref.env["goos"]+"/"+ref.env["goarch"])
	row("CPU", ref.env["cpu"])
	row("GOMAXPROCS", ref.procs)
	row("Load average before the run", os.Getenv("BENCH_LOADAVG"))
	row("Dataset scale", envOr("TOON_BENCH_SCALE", "1"))
	row("Benchmark flags", os.Getenv("BENCH_FLAGS"))
	row("Build modes", strings.Join(modes, ", "))
	fmt.Fprintf(w, "\nA *path* is one job of the library (a toon API on one kind of input); each is measured on every dataset against its peers, ")
	fmt.Fprintf(w, "which do the same job on the same records in the same run. A *row* is a top-level record of the dataset (a table row, an order, a diagnostic, a configured service). ")
	fmt.Fprintf(w, "A ratio divides toon's rate by the rate of the fastest peer that ran on the dataset: above 1, toon is faster. ")
	fmt.Fprintf(w, "A rate is rows per second of wall time (rows/s) or of the process's CPU time, all threads and the garbage collector's included (rows/cpu-s); ")
	fmt.Fprintf(w, "on a machine shared with other work, the CPU time is the steadier measure. ")
	fmt.Fprintf(w, "The summary and the matrices take ratios of **%s** (the summary of %s follows); the path tables give both. ", bases[0].name, bases[1].name)
	fmt.Fprintf(w, "When the benchmarks ran several times (in interleaved rounds), the i-th run of toon is compared with the i-th runs of its peers; ")
	fmt.Fprintf(w, "a ratio is the median of these per-run ratios, with their range in brackets. ")
	fmt.Fprintf(w, "MB/s counts each format's own bytes (TOON for toon, JSON for encoding/json, jsontext and json v2, CSV for encoding/csv). ")
	fmt.Fprintf(w, "A path counts as allocating nothing per row below %g allocations per row (the fixed cost of a document: a decoder, an encoder, the growing output).\n\n", allocLimit)
	fmt.Fprintf(w, "The targets are those of issue 17; the `purego` mode is held to half of each.\n\n")

	writeSummary(w, reps, ds, bases[0])
	writeSummary(w, reps, ds, bases[1])
	writeDatasets(w, ref, ds)
	for _, rep := range reps {
		writeMatrix(w, rep, ds, bases[0])
	}
	for _, p := range paths {
		writePath(w, reps, p, ds, bases)
	}
	for _, rep := range reps {
		writeAll(w, rep, ds)
	}
}

// writeSummary writes, per path and mode, the worst ratio over the
// datasets (with the dataset), the median, and the datasets that miss the
// target.
func writeSummary(w *bytes.Buffer, reps []*report, ds []string, b basis) {
	fmt.Fprintf(w, "## Summary, ratios of %s\n\n", b.name)
	fmt.Fprintf(w, "Per path: the worst ratio (%s) over the datasets, then the median over the datasets, for each build mode; then the target and where it is met.\n\n", b.unit)
	fmt.Fprintf(w, "| Path | Peers |")
	for _, rep := range reps {
		fmt.Fprintf(w, " `%s` worst | `%s` median |", rep.mode, rep.mode)
	}
	fmt.Fprintf(w, " Target |")
	for _, rep := range reps {
		fmt.Fprintf(w, " `%s`: met on |", rep.mode)
	}
	fmt.Fprintf(w, "\n|---|---|")
	for range reps {
		fmt.Fprintf(w, "--:|--:|")
	}
	fmt.Fprintf(w, "---|")
	for range reps {
		fmt.Fprintf(w, "---|")
	}
	fmt.Fprintln(w)
	for _, p := range paths {
		var peers []string
		for _, a := range p.peers {
			peers = append(peers, apiName(a))
		}
		fmt.Fprintf(w, "| %s | %s |", p.name, strings.Join(peers, ", "))
		for _, rep := range reps {
			worst, where := math.Inf(1), ""
			var meds []float64
			for _, d := range ds {
				if r, ok := rep.compare(p.op, d, p.api, p.peers, b); ok {
					meds = append(meds, r.med)
					if r.med < worst {
						worst, where = r.med, d
					}
				}
			}
			if len(meds) == 0 {
				fmt.Fprintf(w, " – | – |")
				continue
			}
			fmt.Fprintf(w, " **%s** (%s) | %s |", x(worst), where, x(median(meds)))
		}
		if p.target == nil {
			fmt.Fprintf(w, " – |")
			for range reps {
				fmt.Fprintf(w, " |")
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, " %s |", p.target.text)
		for _, rep := range reps {
			met, all := 0, 0
			var missed []string
			for _, d := range ds {
				v, ok := rep.check(p, d, b)
				if !ok {
					continue
				}
				all++
				if v.ok {
					met++
				} else {
					missed = append(missed, d)
				}
			}
			if all == 0 {
				fmt.Fprintf(w, " – |")
				continue
			}
			cell := fmt.Sprintf("%d of %d", met, all)
			if len(missed) > 0 {
				cell += "; not " + strings.Join(missed, ", ")
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

func writeDatasets(w *bytes.Buffer, ref *report, ds []string) {
	scale, err := strconv.ParseFloat(envOr("TOON_BENCH_SCALE", "1"), 64)
	if err != nil {
		scale = 1
	}
	fmt.Fprintf(w, "## Datasets\n\n| Dataset | What | Rows | TOON bytes | JSON bytes | CSV bytes |\n|---|---|--:|--:|--:|--:|\n")
	for _, name := range ds {
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
}

// writeMatrix writes one mode's ratios of every path on every dataset,
// marking those that miss their target.
func writeMatrix(w *bytes.Buffer, rep *report, ds []string, b basis) {
	fmt.Fprintf(w, "## Matrix, `%s`, ratios of %s\n\n", rep.mode, b.name)
	fmt.Fprintf(w, "The median ratio (%s) of each path to its best peer on each dataset; ✗ marks a missed target, – a path that does not apply.\n\n", b.unit)
	fmt.Fprintf(w, "| Dataset |")
	for _, p := range paths {
		fmt.Fprintf(w, " %s |", p.name)
	}
	fmt.Fprintf(w, "\n|---|")
	for range paths {
		fmt.Fprintf(w, "--:|")
	}
	fmt.Fprintln(w)
	for _, d := range ds {
		fmt.Fprintf(w, "| %s |", d)
		for _, p := range paths {
			r, ok := rep.compare(p.op, d, p.api, p.peers, b)
			if !ok {
				fmt.Fprintf(w, " – |")
				continue
			}
			mark := ""
			if v, ok := rep.check(p, d, b); ok && !v.ok {
				mark = " ✗"
			}
			fmt.Fprintf(w, " %s%s |", x(r.med), mark)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// writePath writes one path's figures on every dataset in every mode:
// its rates and allocations, its best peer and its ratios on both bases,
// and its standing against the target on the primary basis.
func writePath(w *bytes.Buffer, reps []*report, p path, ds []string, bases []basis) {
	fmt.Fprintf(w, "## %s\n\n%s. ", p.name, p.about)
	var peers []string
	for _, a := range p.peers {
		peers = append(peers, apiName(a))
	}
	fmt.Fprintf(w, "Peers: %s.", strings.Join(peers, ", "))
	if p.target != nil {
		fmt.Fprintf(w, " Target: %s (judged on %s).", p.target.text, bases[0].name)
	}
	fmt.Fprintf(w, "\n\n| Dataset | Mode | rows/s | rows/cpu-s | allocs/row | best peer | ratio, %s [range] | ratio, %s [range] |", bases[0].name, bases[1].name)
	if p.target != nil {
		fmt.Fprintf(w, " target |")
	}
	fmt.Fprintf(w, "\n|---|---|--:|--:|--:|---|--:|--:|")
	if p.target != nil {
		fmt.Fprintf(w, "--:|")
	}
	fmt.Fprintln(w)
	for _, d := range ds {
		for _, rep := range reps {
			t := rep.get(p.op, d, p.api)
			r, ok := rep.compare(p.op, d, p.api, p.peers, bases[0])
			if t == nil || !ok {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s [%s–%s] |", d, rep.mode, num(t.median("rows/s")), num(t.median("rows/cpu-s")),
				num(t.median("allocs/row")), apiName(r.best), x(r.med), x(r.lo), x(r.hi))
			if r2, ok := rep.compare(p.op, d, p.api, p.peers, bases[1]); ok {
				fmt.Fprintf(w, " %s [%s–%s] |", x(r2.med), x(r2.lo), x(r2.hi))
			} else {
				fmt.Fprintf(w, " – |")
			}
			if p.target != nil {
				v, _ := rep.check(p, d, bases[0])
				mark, cmp := "✓", "≥"
				if !v.ok {
					mark, cmp = "✗", "<"
					if v.ratio.med >= v.factor {
						cmp = "≥" // the ratio is met, the allocations are not
					}
				}
				fmt.Fprintf(w, " %s %sx %s %gx |", mark, strconv.FormatFloat(v.ratio.med, 'f', 3, 64), cmp, v.factor)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w)
}

// writeAll writes every benchmark of one mode: MB/s, rows/s, allocations
// and bytes per row.
func writeAll(w *bytes.Buffer, rep *report, ds []string) {
	fmt.Fprintf(w, "## All benchmarks, `%s`\n\n<details><summary>%d benchmarks (medians of the runs)</summary>\n\n", rep.mode, len(rep.results))
	fmt.Fprintf(w, "| Benchmark | Dataset | API | runs | MB/s | rows/s | rows/cpu-s | allocs/row | B/row |\n|---|---|---|--:|--:|--:|--:|--:|--:|\n")
	var ops []string
	seen := map[string]bool{}
	for _, r := range rep.results {
		if !seen[r.op] {
			seen[r.op] = true
			ops = append(ops, r.op)
		}
	}
	for _, op := range ops {
		for _, d := range ds {
			for _, r := range rep.results {
				if r.op != op || r.dataset != d {
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", r.op, r.dataset, r.api, len(r.metrics["rows/s"]),
					num(r.median("MB/s")), num(r.median("rows/s")), num(r.median("rows/cpu-s")), num(r.median("allocs/row")), num(r.median("B/op")/r.median("rows/op")))
			}
		}
	}
	fmt.Fprintf(w, "\n</details>\n\n")
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// x formats a ratio.
func x(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "x"
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
