// Package bench generates the datasets of the comparative benchmarks and
// holds each in every form the benchmarks read: typed Go structs, generic
// values, TOON, JSON, and CSV for the datasets that are tables.
//
// Every dataset is made from a fixed seed, so every run measures the same
// bytes. The generators build the typed records first; the generic values
// are encoding/json's decoding of their JSON (map[string]any, []any,
// string, float64, bool, nil), exactly what encoding/json and toon decode
// to, so every side of a comparison encodes and decodes the same data.
// The struct fields are declared in sorted key order, so a typed document
// and its generic equivalent have the same TOON and JSON texts; numbers
// stay within ±2^53, so float64 holds them exactly.
package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toonstream/toon"
)

// Dataset is one benchmark dataset.
type Dataset struct {
	Name    string // short name, used in benchmark names
	About   string // one line on what it is and how it is laid out in TOON
	Records int    // top-level records: table rows, orders, diagnostics, services

	Typed any           // the data as a pointer to a typed document struct
	Value any           // the data as generic values
	Opts  []toon.Option // the options it is encoded with (the delimiter)
	Delim toon.Delimiter
	TOON  []byte // toon.Marshal(Value, Opts...)
	JSON  []byte // json.Marshal(Value): compact, keys sorted like toon's

	// Key is the key of the array of records in the root object, "" when
	// the records are not an array (config's services are an object).
	Key string

	// Flat tables only (nil otherwise): the table's fields in the order
	// Marshal writes them, and the cells for WriteRow.
	flat   bool // set by the generator: every field of a record is a primitive
	Fields []string
	Rows   [][]toon.Value

	// Tables only (nil otherwise): the rows as CSV with the dataset's
	// delimiter (header line first), and the header and records it holds,
	// numbers in the canonical text TOON writes.
	CSV       []byte
	CSVHeader []string
	CSVRecs   [][]string

	kit kit // the typed paths: see typed.go
}

// Names lists the datasets in report order: the flat tables, the table
// with a nested field group, then the nested documents.
var Names = []string{
	"analytics", "repos", "kb", "intl", "codes", "store", "tickets", "metrics", "edges",
	"diagnostics", "orders", "vectors", "embeddings", "geo", "config",
}

// Generate builds the named dataset. scale multiplies its default size
// (1 gives a few megabytes of JSON per dataset).
func Generate(name string, scale float64) (*Dataset, error) {
	n := func(base int) int {
		if v := int(float64(base) * scale); v > 1 {
			return v
		}
		return 2
	}
	var d *Dataset
	switch name {
	case "analytics":
		d = analytics(n(20000))
	case "repos":
		d = repos(n(8000))
	case "kb":
		d = knowledgeBase(n(15000))
	case "intl":
		d = international(n(25000))
	case "codes":
		d = codes(n(20000))
	case "store":
		d = store(n(15000))
	case "tickets":
		d = tickets(n(3000))
	case "metrics":
		d = metrics(n(20000))
	case "edges":
		d = edges(n(100000))
	case "diagnostics":
		d = diagnostics(n(20000))
	case "orders":
		d = orders(n(4000))
	case "vectors":
		d = vectors(n(2000))
	case "embeddings":
		d = embeddings(n(400))
	case "geo":
		d = geo(n(4000))
	case "config":
		d = config(n(400))
	default:
		return nil, fmt.Errorf("bench: unknown dataset %q", name)
	}
	if err := d.encode(); err != nil {
		return nil, fmt.Errorf("bench: dataset %s: %w", name, err)
	}
	return d, nil
}

// encode derives the generic values from the typed document, then the
// TOON, JSON and CSV texts, and for flat tables the WriteRow cells.
func (d *Dataset) encode() error {
	typed, err := json.Marshal(d.Typed)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(typed, &d.Value); err != nil {
		return err
	}
	d.Records = d.kit.count(d.Typed)
	if d.Delim != 0 {
		d.Opts = []toon.Option{toon.WithDelimiter(d.Delim)}
	}
	if d.TOON, err = toon.Marshal(d.Value, d.Opts...); err != nil {
		return err
	}
	if d.JSON, err = json.Marshal(d.Value); err != nil {
		return err
	}
	if d.flat {
		d.table()
	}
	if d.CSVRecs != nil {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Comma = d.csvComma()
		if err := w.WriteAll(d.CSVRecs); err != nil {
			return err
		}
		d.CSV = b.Bytes()
		d.CSVHeader, d.CSVRecs = d.CSVRecs[0], d.CSVRecs[1:]
	}
	return nil
}

// csvComma is the CSV delimiter: the dataset's TOON delimiter, so that
// both texts separate cells alike.
func (d *Dataset) csvComma() rune {
	if d.Delim != 0 {
		return rune(d.Delim)
	}
	return ','
}

// table fills the fields, the WriteRow cells and the CSV records of a
// flat table from its generic rows. The fields are the rows' keys in
// sorted order, as Marshal writes them.
func (d *Dataset) table() {
	rows := d.Value.(map[string]any)[d.Key].([]any)
	for k := range rows[0].(map[string]any) {
		d.Fields = append(d.Fields, k)
	}
	sort.Strings(d.Fields)
	d.CSVRecs = [][]string{d.Fields}
	for _, r := range rows {
		m := r.(map[string]any)
		cells := make([]toon.Value, len(d.Fields))
		rec := make([]string, len(d.Fields))
		for j, f := range d.Fields {
			cells[j], rec[j] = cell(m[f])
		}
		d.Rows = append(d.Rows, cells)
		d.CSVRecs = append(d.CSVRecs, rec)
	}
}

// cell converts a generic primitive to a WriteRow cell and a CSV field.
// Whole numbers are cells of integers; the CSV field of a number is the
// canonical text TOON writes, and of null the empty field.
func cell(v any) (toon.Value, string) {
	switch x := v.(type) {
	case string:
		return toon.String(x), x
	case bool:
		return toon.Bool(x), strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return toon.Int(int64(x)), strconv.FormatInt(int64(x), 10)
		}
		return toon.Float(x), numText(x)
	case nil:
		return toon.Null(), ""
	}
	panic(fmt.Sprintf("bench: cell of type %T", v))
}

// numText formats a number as TOON's canonical form does (§2): plain
// decimal digits when 1e-6 ≤ |x| < 1e21, else the shortest exponent form
// with a signed exponent without leading zeros (1e-7, 6.02e+23).
func numText(x float64) string {
	if a := math.Abs(x); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	i := strings.IndexByte(s, 'e') + 2 // after the exponent's sign
	j := i
	for j < len(s)-1 && s[j] == '0' {
		j++
	}
	return s[:i] + s[j:]
}

// gen draws from a fixed-seed source.
type gen struct{ r *rand.Rand }

func newGen(seed int64) *gen { return &gen{rand.New(rand.NewSource(seed))} }

func (g *gen) pick(s []string) string { return s[g.r.Intn(len(s))] }

// unitVector returns n normally distributed numbers scaled to unit
// length, as an embedding model's output is.
func (g *gen) unitVector(n int) []float64 {
	x := make([]float64, n)
	norm := 0.0
	for j := range x {
		x[j] = g.r.NormFloat64()
		norm += x[j] * x[j]
	}
	norm = math.Sqrt(norm)
	for j := range x {
		x[j] /= norm
	}
	return x
}

// chance reports true with probability p percent.
func (g *gen) chance(p int) bool { return g.r.Intn(100) < p }

// money returns an amount with at most two decimals.
func (g *gen) money(max int) float64 { return float64(g.r.Intn(max*100)) / 100 }

// ratio returns a value in [0, 1) with four decimals.
func (g *gen) ratio() float64 { return float64(g.r.Intn(10000)) / 10000 }

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// instant returns a time, to the second, within two years after the epoch.
func (g *gen) instant() time.Time {
	return epoch.Add(time.Duration(g.r.Int63n(2*365*24*3600)) * time.Second)
}

// date returns a date (2025-05-09) within two years after the epoch.
func (g *gen) date() string { return epoch.AddDate(0, 0, g.r.Intn(730)).Format(time.DateOnly) }

// sentence joins words from the vocabulary into a sentence of n words,
// sometimes with a comma, a quoted phrase or a colon.
func (g *gen) sentence(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			switch g.r.Intn(12) {
			case 0:
				b.WriteString(", ")
			case 1:
				if i < n-1 {
					b.WriteString(`, "`)
					b.WriteString(g.pick(words))
					b.WriteString(`" `)
					continue
				}
				b.WriteByte(' ')
			default:
				b.WriteByte(' ')
			}
		}
		w := g.pick(words)
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

var words = strings.Fields(`fast streaming parser for structured data with zero allocations and a small
	memory footprint library tool command line client server framework toolkit minimal modern simple
	reliable secure portable native async concurrent distributed lightweight extensible plugin based
	configuration management deployment monitoring logging metrics tracing database cache queue
	scheduler compiler runtime interpreter editor terminal shell graphics audio video image text
	markdown html json yaml toml csv protocol buffers network http grpc websocket api rest sdk`)

var (
	countries = []string{"US", "DE", "FR", "GB", "JP", "BR", "IN", "CA", "AU", "NL", "SE", "ES", "IT", "KR", "MX"}
	cities    = []string{"Berlin", "Paris", "London", "Tokyo", "São Paulo", "Mumbai", "Toronto", "Sydney", "Amsterdam", "Stockholm", "Madrid", "Rome", "Seoul", "Mexico City", "New York"}
	first     = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Margaret", "Linus", "Radia", "John", "Frances", "Dennis", "Niklaus", "Tony"}
	last      = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Thompson", "Hamilton", "Torvalds", "Perlman", "McCarthy", "Allen", "Ritchie", "Wirth", "Hoare"}
)
