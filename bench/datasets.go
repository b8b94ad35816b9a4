// Package bench generates the datasets of the comparative benchmarks and
// holds them in every format the benchmarks read: TOON, JSON, and CSV for
// the datasets that are tables.
//
// Every dataset is made from a fixed seed, so every run measures the same
// bytes. The values are generic (map[string]any, []any, string, float64,
// bool, nil), exactly what encoding/json and toon decode to, so both
// sides encode and decode the same data.
package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
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

	Value any           // the data as generic values
	Opts  []toon.Option // the options it is encoded with (the delimiter)
	TOON  []byte        // toon.Marshal(Value, Opts...)
	JSON  []byte        // json.Marshal(Value): compact, keys sorted like toon's

	// Flat tables only (nil otherwise): the table's key, its fields in
	// the order Marshal writes them, and the cells for WriteRow.
	Key    string
	Fields []string
	Rows   [][]toon.Value

	// Tables only (nil otherwise): the rows as CSV (header line first),
	// and the header and records it holds.
	CSV       []byte
	CSVHeader []string
	CSVRecs   [][]string
}

// Names lists the datasets in report order.
var Names = []string{"analytics", "repos", "orders", "kb", "diagnostics", "config"}

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
	case "orders":
		d = orders(n(4000))
	case "kb":
		d = knowledgeBase(n(15000))
	case "diagnostics":
		d = diagnostics(n(20000))
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

func (d *Dataset) encode() error {
	var err error
	if d.TOON, err = toon.Marshal(d.Value, d.Opts...); err != nil {
		return err
	}
	if d.JSON, err = json.Marshal(d.Value); err != nil {
		return err
	}
	if d.CSVRecs != nil {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		if err := w.WriteAll(d.CSVRecs); err != nil {
			return err
		}
		d.CSV = b.Bytes()
		d.CSVHeader, d.CSVRecs = d.CSVRecs[0], d.CSVRecs[1:]
	}
	return nil
}

// table fills the flat-table fields of d from rows of generic values: the
// fields are sorted, as Marshal writes a map's keys, and each cell becomes
// a toon.Value and a CSV text.
func (d *Dataset) table(key string, rows []map[string]any) {
	for k := range rows[0] {
		d.Fields = append(d.Fields, k)
	}
	sort.Strings(d.Fields)
	d.Key = key
	d.CSVRecs = [][]string{d.Fields}
	arr := make([]any, len(rows))
	for i, r := range rows {
		arr[i] = r
		cells := make([]toon.Value, len(d.Fields))
		rec := make([]string, len(d.Fields))
		for j, f := range d.Fields {
			cells[j], rec[j] = cell(r[f])
		}
		d.Rows = append(d.Rows, cells)
		d.CSVRecs = append(d.CSVRecs, rec)
	}
	d.Value = map[string]any{key: arr}
	d.Records = len(rows)
}

// cell converts a generic primitive to a WriteRow cell and a CSV field.
// Whole numbers are written as integers, as the canonical form requires.
func cell(v any) (toon.Value, string) {
	switch x := v.(type) {
	case string:
		return toon.String(x), x
	case bool:
		return toon.Bool(x), strconv.FormatBool(x)
	case float64:
		if x == float64(int64(x)) {
			return toon.Int(int64(x)), strconv.FormatInt(int64(x), 10)
		}
		return toon.Float(x), strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return toon.Null(), ""
	}
	panic(fmt.Sprintf("bench: cell of type %T", v))
}

// gen draws from a fixed-seed source.
type gen struct{ r *rand.Rand }

func newGen(seed int64) *gen { return &gen{rand.New(rand.NewSource(seed))} }

func (g *gen) pick(s []string) string { return s[g.r.Intn(len(s))] }
func (g *gen) intn(n int) float64     { return float64(g.r.Intn(n)) }

// money returns an amount with at most two decimals.
func (g *gen) money(max int) float64 { return float64(g.r.Intn(max*100)) / 100 }

// ratio returns a value in [0, 1) with four decimals.
func (g *gen) ratio() float64 { return float64(g.r.Intn(10000)) / 10000 }

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// stamp returns an RFC 3339 timestamp within two years after the epoch.
func (g *gen) stamp() string {
	return epoch.Add(time.Duration(g.r.Int63n(2*365*24*3600)) * time.Second).Format(time.RFC3339)
}

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

// analytics is a wide table of daily web-analytics rows: 20 columns of
// dates, dimensions, counts and rates.
func analytics(n int) *Dataset {
	g := newGen(1)
	pages := []string{"/", "/pricing", "/docs", "/docs/getting-started", "/blog", "/blog/release-notes", "/signup", "/login", "/features", "/about", "/careers", "/contact"}
	referrers := []string{"google.com", "github.com", "news.ycombinator.com", "reddit.com", "twitter.com", "direct", "bing.com", "duckduckgo.com", "linkedin.com"}
	devices := []string{"desktop", "mobile", "tablet"}
	browsers := []string{"Chrome", "Safari", "Firefox", "Edge", "Samsung Internet", "Opera"}
	oses := []string{"Windows", "macOS", "iOS", "Android", "Linux", "ChromeOS"}
	campaigns := []string{"spring_launch", "newsletter_42", "retargeting", "brand", "none", "webinar_q3"}
	mediums := []string{"organic", "cpc", "email", "social", "referral", "none"}
	rows := make([]map[string]any, n)
	for i := range rows {
		sessions := 1 + g.r.Intn(5000)
		users := 1 + g.r.Intn(sessions)
		rows[i] = map[string]any{
			"date":        epoch.AddDate(0, 0, i/50).Format("2006-01-02"),
			"hour":        g.intn(24),
			"page":        g.pick(pages),
			"referrer":    g.pick(referrers),
			"country":     g.pick(countries),
			"device":      g.pick(devices),
			"browser":     g.pick(browsers),
			"os":          g.pick(oses),
			"sessions":    float64(sessions),
			"users":       float64(users),
			"new_users":   g.intn(users + 1),
			"pageviews":   float64(sessions + g.r.Intn(3*sessions)),
			"bounce_rate": g.ratio(),
			"avg_seconds": float64(g.r.Intn(60000)) / 100,
			"conversions": g.intn(50),
			"revenue":     g.money(20000),
			"campaign":    g.pick(campaigns),
			"medium":      g.pick(mediums),
			"landing":     g.r.Intn(2) == 0,
			"goal_rate":   g.ratio(),
		}
	}
	d := &Dataset{Name: "analytics", About: "wide web-analytics table: 20 columns of dates, dimensions, counts and rates"}
	d.table("rows", rows)
	return d
}

// repos is a table of GitHub repository records with long descriptions
// (commas and quotes, so quoted in TOON), timestamps and URLs.
func repos(n int) *Dataset {
	g := newGen(2)
	langs := []string{"Go", "Rust", "TypeScript", "Python", "C++", "Java", "Kotlin", "Swift", "Zig", "C"}
	licenses := []string{"MIT", "Apache-2.0", "BSD-3-Clause", "GPL-3.0", "MPL-2.0", "none"}
	rows := make([]map[string]any, n)
	for i := range rows {
		owner := strings.ToLower(g.pick(first) + g.pick(last))
		name := g.pick(words) + "-" + g.pick(words)
		rows[i] = map[string]any{
			"id":             float64(10_000_000 + i*37),
			"name":           name,
			"full_name":      owner + "/" + name,
			"description":    g.sentence(12 + g.r.Intn(25)),
			"language":       g.pick(langs),
			"stars":          g.intn(90000),
			"forks":          g.intn(9000),
			"open_issues":    g.intn(700),
			"watchers":       g.intn(3000),
			"license":        g.pick(licenses),
			"archived":       g.r.Intn(10) == 0,
			"fork":           g.r.Intn(5) == 0,
			"default_branch": []string{"main", "master", "develop"}[g.r.Intn(3)],
			"created_at":     g.stamp(),
			"updated_at":     g.stamp(),
			"pushed_at":      g.stamp(),
			"homepage":       "https://" + owner + ".github.io/" + name,
			"size_kb":        g.intn(500000),
		}
	}
	d := &Dataset{Name: "repos", About: "GitHub repository records: long quoted descriptions, timestamps, URLs"}
	d.table("repositories", rows)
	return d
}

// orders are e-commerce orders: a customer object with a nested address
// (nested field groups in the line-items' and totals' tables), a list of
// line items, tags, and an optional coupon. The order list is not uniform,
// so it is an expanded list whose items hold tables.
func orders(n int) *Dataset {
	g := newGen(3)
	statuses := []string{"pending", "paid", "shipped", "delivered", "cancelled", "refunded"}
	products := []string{"Mechanical Keyboard", "USB-C Hub, 7-in-1", "27\" Monitor", "Noise-Cancelling Headphones", "Laptop Stand", "Webcam 4K", "Desk Mat (XL)", "Ergonomic Mouse", "Cable Organizer", "Standing Desk"}
	tags := []string{"gift", "express", "bulk", "b2b", "first-order", "vip", "fragile"}
	list := make([]any, n)
	for i := range list {
		items := make([]any, 1+g.r.Intn(5))
		subtotal := 0.0
		for j := range items {
			qty := 1 + g.r.Intn(4)
			price := g.money(500)
			subtotal += float64(qty) * price
			items[j] = map[string]any{
				"sku":   fmt.Sprintf("SKU-%05d", g.r.Intn(100000)),
				"name":  g.pick(products),
				"qty":   float64(qty),
				"price": map[string]any{"amount": price, "currency": "EUR"},
			}
		}
		subtotal = float64(int64(subtotal*100+0.5)) / 100
		tax := float64(int64(subtotal*19+0.5)) / 100
		var coupon any
		if g.r.Intn(4) == 0 {
			coupon = fmt.Sprintf("SAVE%d", 5*(1+g.r.Intn(6)))
		}
		ts := make([]any, g.r.Intn(3))
		for j := range ts {
			ts[j] = g.pick(tags)
		}
		fn, ln := g.pick(first), g.pick(last)
		list[i] = map[string]any{
			"id":         fmt.Sprintf("ORD-%07d", 1000000+i),
			"status":     g.pick(statuses),
			"created_at": g.stamp(),
			"customer": map[string]any{
				"id":    float64(g.r.Intn(1000000)),
				"name":  fn + " " + ln,
				"email": strings.ToLower(fn+"."+ln) + "@example.com",
				"address": map[string]any{
					"street":  strconv.Itoa(1+g.r.Intn(300)) + " " + g.pick(last) + " Street",
					"city":    g.pick(cities),
					"zip":     fmt.Sprintf("%05d", g.r.Intn(100000)),
					"country": g.pick(countries),
				},
			},
			"items":  items,
			"totals": map[string]any{"subtotal": subtotal, "tax": tax, "shipping": g.money(30), "currency": "EUR"},
			"coupon": coupon,
			"tags":   ts,
		}
	}
	return &Dataset{Name: "orders", About: "e-commerce orders: nested customer and address objects, line-item tables with nested field groups, lists",
		Records: n, Value: map[string]any{"orders": list}}
}

// knowledgeBase is a pipe-delimited table of knowledge-base articles in
// which most optional columns are empty.
func knowledgeBase(n int) *Dataset {
	g := newGen(4)
	categories := []string{"Billing", "Accounts", "Networking", "Storage", "Security", "API", "Integrations"}
	rows := make([]map[string]any, n)
	maybe := func(p int, f func() string) any {
		if g.r.Intn(100) < p {
			return f()
		}
		return ""
	}
	for i := range rows {
		rows[i] = map[string]any{
			"id":            fmt.Sprintf("KB%06d", i+1),
			"title":         g.sentence(4 + g.r.Intn(6)),
			"category":      g.pick(categories),
			"subcategory":   maybe(40, func() string { return g.pick(words) }),
			"tags":          maybe(30, func() string { return g.pick(words) + ", " + g.pick(words) }),
			"author":        g.pick(first) + " " + g.pick(last),
			"reviewer":      maybe(20, func() string { return g.pick(first) + " " + g.pick(last) }),
			"summary":       maybe(35, func() string { return g.sentence(10 + g.r.Intn(10)) }),
			"related":       maybe(15, func() string { return fmt.Sprintf("KB%06d", 1+g.r.Intn(n)) }),
			"deprecated_by": maybe(5, func() string { return fmt.Sprintf("KB%06d", 1+g.r.Intn(n)) }),
			"notes":         maybe(10, func() string { return g.sentence(6) }),
			"product":       maybe(50, func() string { return g.pick(words) }),
			"version":       maybe(25, func() string { return fmt.Sprintf("v%d.%d", 1+g.r.Intn(5), g.r.Intn(20)) }),
			"views":         g.intn(100000),
			"helpful":       g.ratio(),
			"updated":       epoch.AddDate(0, 0, g.r.Intn(700)).Format("2006-01-02"),
		}
	}
	d := &Dataset{Name: "kb", About: "knowledge-base table, pipe-delimited, most optional cells empty", Opts: []toon.Option{toon.WithDelimiter(toon.Pipe)}}
	d.table("articles", rows)
	return d
}

// diagnostics are language-server diagnostics: a table whose range column
// is a nested field group range{end{character,line},start{character,line}}.
// Their CSV peer flattens the range into four columns.
func diagnostics(n int) *Dataset {
	g := newGen(5)
	files := []string{"internal/server/handler.go", "internal/store/sqlite.go", "cmd/app/main.go", "pkg/api/client.go", "pkg/api/types.go", "web/src/App.tsx", "web/src/components/Table.tsx"}
	sources := []string{"compiler", "go vet", "staticcheck", "eslint", "tsc"}
	messages := []string{
		"declared and not used: %s",
		"undefined: %s",
		"cannot use %s (variable of type int) as string value in argument",
		"unreachable code",
		"result of fmt.Sprintf call not used",
		"'%s' is possibly 'undefined'.",
		"Property '%s' does not exist on type 'Props'. Did you mean 'items'?",
		"should omit comparison to bool constant, can be simplified to !%s",
	}
	list := make([]any, n)
	recs := [][]string{{"code", "message", "range.end.character", "range.end.line", "range.start.character", "range.start.line", "severity", "source", "uri"}}
	for i := range list {
		line := g.r.Intn(2000)
		char := g.r.Intn(100)
		msg := g.pick(messages)
		if strings.Contains(msg, "%s") {
			msg = fmt.Sprintf(msg, g.pick(words))
		}
		v := map[string]any{
			"uri": "file:///home/dev/project/" + g.pick(files),
			"range": map[string]any{
				"start": map[string]any{"line": float64(line), "character": float64(char)},
				"end":   map[string]any{"line": float64(line + g.r.Intn(3)), "character": float64(char + 1 + g.r.Intn(30))},
			},
			"severity": float64(1 + g.r.Intn(4)),
			"code":     fmt.Sprintf("E%04d", g.r.Intn(3000)),
			"source":   g.pick(sources),
			"message":  msg,
		}
		list[i] = v
		r := v["range"].(map[string]any)
		st, en := r["start"].(map[string]any), r["end"].(map[string]any)
		rec := []string{v["code"].(string), msg}
		for _, x := range []any{en["character"], en["line"], st["character"], st["line"], v["severity"]} {
			_, s := cell(x)
			rec = append(rec, s)
		}
		recs = append(recs, append(rec, v["source"].(string), v["uri"].(string)))
	}
	return &Dataset{Name: "diagnostics", About: "language-server diagnostics: a table with a nested field group range{end{…},start{…}}",
		Records: n, Value: map[string]any{"diagnostics": list}, CSVRecs: recs}
}

// config is a deeply nested configuration document: services, each with
// server, database, cache, feature, logging and deployment sections nested
// six to eight levels deep, a few primitive arrays, and keyed tables.
func config(n int) *Dataset {
	g := newGen(6)
	services := make(map[string]any, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s-%s-%03d", g.pick(words), g.pick(words), i)
		replicas := make([]any, 1+g.r.Intn(3))
		for j := range replicas {
			replicas[j] = map[string]any{"host": fmt.Sprintf("db-%d-%d.internal", i, j), "port": 5432.0, "weight": float64(1 + g.r.Intn(10))}
		}
		features := map[string]any{}
		for j := 0; j < 3+g.r.Intn(6); j++ {
			features[g.pick(words)+"_"+strconv.Itoa(j)] = g.r.Intn(2) == 0
		}
		services[name] = map[string]any{
			"enabled": g.r.Intn(8) != 0,
			"owner":   strings.ToLower(g.pick(first)) + "@example.com",
			"server": map[string]any{
				"http": map[string]any{
					"listen":   fmt.Sprintf("0.0.0.0:%d", 8000+i),
					"timeouts": map[string]any{"read": "5s", "write": "10s", "idle": "2m", "shutdown": map[string]any{"grace": "30s", "force": "45s"}},
					"tls": map[string]any{
						"enabled": g.r.Intn(3) != 0,
						"cert":    "/etc/ssl/" + name + ".crt",
						"key":     "/etc/ssl/" + name + ".key",
						"ciphers": []any{"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"},
						"client_auth": map[string]any{
							"mode": []string{"none", "request", "require"}[g.r.Intn(3)],
							"ca":   map[string]any{"file": "/etc/ssl/ca.pem", "reload": map[string]any{"interval": "1h", "on_change": true}},
						},
					},
				},
				"limits": map[string]any{"max_body_bytes": float64(int(1) << (20 + g.r.Intn(4))), "max_header_bytes": 65536.0, "rate": map[string]any{"per_second": g.intn(1000), "burst": g.intn(5000)}},
			},
			"database": map[string]any{
				"primary":  map[string]any{"host": fmt.Sprintf("db-%d.internal", i), "port": 5432.0, "pool": map[string]any{"min": g.intn(4), "max": float64(8 + g.r.Intn(56)), "idle_timeout": "5m", "health": map[string]any{"query": "SELECT 1", "interval": "15s"}}},
				"replicas": replicas,
			},
			"cache":    map[string]any{"backend": []string{"redis", "memcached", "memory"}[g.r.Intn(3)], "ttl": map[string]any{"default": "10m", "max": "24h"}, "size_mb": g.intn(4096)},
			"features": features,
			"logging": map[string]any{
				"level":    []string{"debug", "info", "warn", "error"}[g.r.Intn(4)],
				"outputs":  []any{"stdout", "file:/var/log/" + name + ".log"},
				"sampling": map[string]any{"initial": 100.0, "thereafter": g.intn(1000), "per": map[string]any{"second": map[string]any{"burst": 10.0}}},
			},
			"deploy": map[string]any{
				"regions": map[string]any{
					"eu-west": map[string]any{"replicas": float64(1 + g.r.Intn(6)), "cpu": "500m", "memory": "512Mi"},
					"us-east": map[string]any{"replicas": float64(1 + g.r.Intn(6)), "cpu": "500m", "memory": "1Gi"},
					"ap-east": map[string]any{"replicas": float64(1 + g.r.Intn(6)), "cpu": "250m", "memory": "256Mi"},
				},
				"strategy": map[string]any{"type": "rolling", "rolling": map[string]any{"max_surge": "25%", "max_unavailable": 0.0}},
			},
		}
	}
	return &Dataset{Name: "config", About: "deeply nested configuration: services with sections nested up to 8 levels, keyed tables, primitive arrays",
		Records: n, Value: map[string]any{"version": 3.0, "services": services}}
}
