package bench

// This file generates the datasets whose records are not flat: a table
// with a nested field group (diagnostics), a list of orders with objects,
// tables and arrays inside each, and a deep configuration tree. Their
// types declare their fields in sorted key order (see the package
// comment).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Diagnostic is a language-server diagnostic.
type Diagnostic struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Range    Range  `json:"range"`
	Severity int    `json:"severity"`
	Source   string `json:"source"`
	URI      string `json:"uri"`
}

// Range is a span of a text document.
type Range struct {
	End   Position `json:"end"`
	Start Position `json:"start"`
}

// Position is a place in a text document.
type Position struct {
	Character int `json:"character"`
	Line      int `json:"line"`
}

// DiagnosticsDoc is the diagnostics dataset.
type DiagnosticsDoc struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// fromCSV reads the flattened CSV form: code, message, the four numbers
// of the range (end before start, character before line), severity,
// source, uri.
func (r *Diagnostic) fromCSV(c *csvCells) {
	r.Code, r.Message = c.str(), c.str()
	r.Range.End.Character, r.Range.End.Line, r.Range.Start.Character, r.Range.Start.Line = c.int(), c.int(), c.int(), c.int()
	r.Severity, r.Source, r.URI = c.int(), c.str(), c.str()
}

// diagnostics are language-server diagnostics: a table whose range column
// is a nested field group range{end{character,line},start{character,line}}.
// Their CSV form flattens the range into four columns.
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
	list := make([]Diagnostic, n)
	recs := [][]string{{"code", "message", "range.end.character", "range.end.line", "range.start.character", "range.start.line", "severity", "source", "uri"}}
	for i := range list {
		line := g.r.Intn(2000)
		char := g.r.Intn(100)
		msg := g.pick(messages)
		if strings.Contains(msg, "%s") {
			msg = fmt.Sprintf(msg, g.pick(words))
		}
		v := Diagnostic{URI: "file:///home/dev/project/" + g.pick(files)}
		v.Range.Start = Position{Line: line, Character: char}
		v.Range.End = Position{Line: line + g.r.Intn(3), Character: char + 1 + g.r.Intn(30)}
		v.Severity = 1 + g.r.Intn(4)
		v.Code = fmt.Sprintf("E%04d", g.r.Intn(3000))
		v.Source = g.pick(sources)
		v.Message = msg
		list[i] = v
		recs = append(recs, []string{v.Code, v.Message, strconv.Itoa(v.Range.End.Character), strconv.Itoa(v.Range.End.Line),
			strconv.Itoa(v.Range.Start.Character), strconv.Itoa(v.Range.Start.Line), strconv.Itoa(v.Severity), v.Source, v.URI})
	}
	return &Dataset{Name: "diagnostics", About: "language-server diagnostics: a table with a nested field group range{end{…},start{…}}",
		Key: "diagnostics", Typed: &DiagnosticsDoc{list}, CSVRecs: recs,
		kit: recordKit[DiagnosticsDoc, Diagnostic]{list: func(d *DiagnosticsDoc) []Diagnostic { return d.Diagnostics }, fromCSV: (*Diagnostic).fromCSV}}
}

// Order is an e-commerce order.
type Order struct {
	Coupon    *string   `json:"coupon"`
	CreatedAt time.Time `json:"created_at"`
	Customer  Customer  `json:"customer"`
	ID        string    `json:"id"`
	Items     []Item    `json:"items"`
	Note      string    `json:"note"`
	Status    string    `json:"status"`
	Tags      []string  `json:"tags"`
	Totals    Totals    `json:"totals"`
}

// Customer is the buyer of an order.
type Customer struct {
	Address Address `json:"address"`
	Email   string  `json:"email"`
	ID      int     `json:"id"`
	Name    string  `json:"name"`
}

// Address is a postal address.
type Address struct {
	City    string `json:"city"`
	Country string `json:"country"`
	Street  string `json:"street"`
	Zip     string `json:"zip"`
}

// Item is a line item of an order.
type Item struct {
	Name  string `json:"name"`
	Price Price  `json:"price"`
	Qty   int    `json:"qty"`
	SKU   string `json:"sku"`
}

// Price is an amount of money.
type Price struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// Totals sums up an order.
type Totals struct {
	Currency string  `json:"currency"`
	Shipping float64 `json:"shipping"`
	Subtotal float64 `json:"subtotal"`
	Tax      float64 `json:"tax"`
}

// OrdersDoc is the orders dataset.
type OrdersDoc struct {
	Orders []Order `json:"orders"`
}

// orders are e-commerce orders: a customer object with a nested address,
// a table of line items (with a nested field group price{amount,currency})
// inside each list item, totals, tags, an optional coupon and a note. The
// order list is not uniform, so it is an expanded list.
func orders(n int) *Dataset {
	g := newGen(3)
	statuses := []string{"pending", "paid", "shipped", "delivered", "cancelled", "refunded"}
	products := []string{"Mechanical Keyboard", "USB-C Hub, 7-in-1", "27\" Monitor", "Noise-Cancelling Headphones", "Laptop Stand", "Webcam 4K", "Desk Mat (XL)", "Ergonomic Mouse", "Cable Organizer", "Standing Desk"}
	tags := []string{"gift", "express", "bulk", "b2b", "first-order", "vip", "fragile"}
	notes := []string{"Leave at the door, please.", `Ring twice; the bell is "broken".`, "Deliver after 5pm", "Gift wrap, no invoice in the box.", "Call +1 555 0100 on arrival"}
	list := make([]Order, n)
	for i := range list {
		items := make([]Item, 1+g.r.Intn(5))
		subtotal := 0.0
		for j := range items {
			qty := 1 + g.r.Intn(4)
			price := g.money(500)
			subtotal += float64(qty) * price
			items[j] = Item{SKU: fmt.Sprintf("SKU-%05d", g.r.Intn(100000)), Name: g.pick(products), Qty: qty, Price: Price{Amount: price, Currency: "EUR"}}
		}
		subtotal = float64(int64(subtotal*100+0.5)) / 100
		tax := float64(int64(subtotal*19+0.5)) / 100
		var coupon *string
		if g.r.Intn(4) == 0 {
			c := fmt.Sprintf("SAVE%d", 5*(1+g.r.Intn(6)))
			coupon = &c
		}
		ts := make([]string, g.r.Intn(3))
		for j := range ts {
			ts[j] = g.pick(tags)
		}
		fn, ln := g.pick(first), g.pick(last)
		o := Order{ID: fmt.Sprintf("ORD-%07d", 1000000+i), Status: g.pick(statuses), CreatedAt: g.instant()}
		o.Customer = Customer{ID: g.r.Intn(1000000), Name: fn + " " + ln, Email: strings.ToLower(fn+"."+ln) + "@example.com"}
		o.Customer.Address.Street = strconv.Itoa(1+g.r.Intn(300)) + " " + g.pick(last) + " Street"
		o.Customer.Address.City = g.pick(cities)
		o.Customer.Address.Zip = fmt.Sprintf("%05d", g.r.Intn(100000))
		o.Customer.Address.Country = g.pick(countries)
		o.Items = items
		o.Totals = Totals{Subtotal: subtotal, Tax: tax, Shipping: g.money(30), Currency: "EUR"}
		o.Coupon = coupon
		o.Tags = ts
		if g.chance(40) {
			o.Note = g.pick(notes)
		}
		list[i] = o
	}
	return &Dataset{Name: "orders", About: "e-commerce orders: customer and address objects, a line-item table (nested field group) in each list item, tags, a note",
		Key: "orders", Typed: &OrdersDoc{list},
		kit: recordKit[OrdersDoc, Order]{list: func(d *OrdersDoc) []Order { return d.Orders }}}
}

// VectorsDoc is the vectors dataset: text chunks with their embeddings.
type VectorsDoc struct {
	Chunks []Chunk `json:"chunks"`
}

// Chunk is one passage of a document as a vector store exports it.
type Chunk struct {
	Embedding []float64 `json:"embedding"`
	ID        string    `json:"id"`
	Score     float64   `json:"score"`
	Source    string    `json:"source"`
	Text      string    `json:"text"`
}

// vectors is the export of a vector store: text chunks, each with its
// embedding (64 floats of unit length, computed in float32 and written in
// full as float64s print them, as a Python list of numpy float32 values
// is), a similarity score, the document it comes from and its text. The
// array in each record makes the chunks an expanded list.
func vectors(n int) *Dataset {
	g := newGen(7)
	exts := []string{".md", ".pdf", ".html", ".txt"}
	list := make([]Chunk, n)
	for i := range list {
		e := g.unitVector(64)
		for j := range e {
			e[j] = float64(float32(e[j]))
		}
		doc := g.pick(words) + "-" + g.pick(words)
		list[i] = Chunk{Embedding: e, ID: fmt.Sprintf("%s#%d", doc, g.r.Intn(40)), Score: 1 - 0.6*g.r.Float64(),
			Source: "docs/" + doc + g.pick(exts), Text: g.sentence(12 + g.r.Intn(24))}
	}
	return &Dataset{Name: "vectors", About: "vector store export: text chunks with 64-float embeddings at full precision, scores, sources",
		Key: "chunks", Typed: &VectorsDoc{list},
		kit: recordKit[VectorsDoc, Chunk]{list: func(d *VectorsDoc) []Chunk { return d.Chunks }}}
}

// EmbeddingsDoc is the embeddings dataset: passages with their embeddings
// as an embedding API returns them.
type EmbeddingsDoc struct {
	Items []Embedding `json:"items"`
}

// Embedding is one passage and its embedding.
type Embedding struct {
	Embedding []float32 `json:"embedding"`
	ID        string    `json:"id"`
	Model     string    `json:"model"`
	Source    string    `json:"source"`
	Text      string    `json:"text"`
	Tokens    int       `json:"tokens"`
}

// embeddings is what a pipeline that embeds passages keeps: each passage
// with its embedding of 1536 float32s of unit length (the size of common
// embedding models; float32, as embedding APIs and vector stores hold
// them, so each is written in its shortest float32 text, up to 9
// digits), the model, the token count and the source. Each embedding is
// an inline array longer than the decoder queues at once.
func embeddings(n int) *Dataset {
	g := newGen(11)
	models := []string{"text-embedding-3-small", "embed-multilingual-v3", "nomic-embed-text-v1.5"}
	list := make([]Embedding, n)
	for i := range list {
		x := g.unitVector(1536)
		e := make([]float32, len(x))
		for j := range e {
			e[j] = float32(x[j])
		}
		text := g.sentence(20 + g.r.Intn(60))
		list[i] = Embedding{Embedding: e, ID: fmt.Sprintf("p-%06d", 100000+i), Model: g.pick(models),
			Source: "kb/" + g.pick(words) + "-" + g.pick(words) + ".md", Text: text, Tokens: len(text) / 4}
	}
	return &Dataset{Name: "embeddings", About: "passages with 1536-float32 embeddings, each an inline array longer than the decoder queues at once",
		Key: "items", Typed: &EmbeddingsDoc{list},
		kit: recordKit[EmbeddingsDoc, Embedding]{list: func(d *EmbeddingsDoc) []Embedding { return d.Items }}}
}

// GeoDoc is the geo dataset: the features of a GeoJSON feature
// collection (without its "type" member: the records are the root's one
// array, as in the other datasets).
type GeoDoc struct {
	Features []Feature `json:"features"`
}

// Feature is a GeoJSON feature whose geometry is a line.
type Feature struct {
	Geometry struct {
		Coordinates [][]float64 `json:"coordinates"`
		Type        string      `json:"type"`
	} `json:"geometry"`
	ID         string `json:"id"`
	Properties struct {
		Kind     string  `json:"kind"`
		Lanes    int     `json:"lanes"`
		MaxSpeed int     `json:"maxspeed"`
		Name     string  `json:"name"`
		Oneway   bool    `json:"oneway"`
		Surface  string  `json:"surface"`
		Width    float64 `json:"width"`
	} `json:"properties"`
	Type string `json:"type"`
}

// geo is a GeoJSON export of streets: features with a properties object
// and a line of 2 to 40 points, each a [longitude, latitude] pair with 6
// or 7 decimals. In TOON each point is a list item that is an inline
// array ("- [2]: 13.404954,52.520008"), the shape of any array of arrays
// (coordinates, matrices, series of pairs).
func geo(n int) *Dataset {
	g := newGen(13)
	kinds := []string{"residential", "primary", "secondary", "footway", "cycleway", "service"}
	surfaces := []string{"asphalt", "paving_stones", "gravel", "concrete", "sett"}
	list := make([]Feature, n)
	for i := range list {
		f := &list[i]
		f.Type, f.ID = "Feature", fmt.Sprintf("way/%d", 20000000+g.r.Intn(900000000))
		f.Geometry.Type = "LineString"
		lon, lat := -10+40*g.r.Float64(), 36+24*g.r.Float64()
		pts := make([][]float64, 2+g.r.Intn(39))
		for j := range pts {
			lon += (g.r.Float64() - 0.5) / 500
			lat += (g.r.Float64() - 0.5) / 800
			pts[j] = []float64{math.Round(lon*1e6) / 1e6, math.Round(lat*1e7) / 1e7}
		}
		f.Geometry.Coordinates = pts
		p := &f.Properties
		p.Kind, p.Surface = g.pick(kinds), g.pick(surfaces)
		p.Name = g.pick(last) + " " + []string{"Street", "Road", "Lane", "Avenue", "Weg", "Straße"}[g.r.Intn(6)]
		p.Lanes, p.MaxSpeed, p.Oneway = 1+g.r.Intn(4), 10*(2+g.r.Intn(10)), g.chance(30)
		p.Width = float64(20+g.r.Intn(200)) / 10
	}
	return &Dataset{Name: "geo", About: "GeoJSON streets: features with properties and lines of [lon, lat] points, each point a list item that is an inline array",
		Key: "features", Typed: &GeoDoc{Features: list},
		kit: recordKit[GeoDoc, Feature]{list: func(d *GeoDoc) []Feature { return d.Features }}}
}

// ConfigDoc is the config dataset: services by name.
type ConfigDoc struct {
	Services map[string]Service `json:"services"`
	Version  int                `json:"version"`
}

// Service is the configuration of one service.
type Service struct {
	Cache    Cache           `json:"cache"`
	Database Database        `json:"database"`
	Deploy   Deploy          `json:"deploy"`
	Enabled  bool            `json:"enabled"`
	Features map[string]bool `json:"features"`
	Logging  Logging         `json:"logging"`
	Owner    string          `json:"owner"`
	Server   Server          `json:"server"`
}

type Cache struct {
	Backend string `json:"backend"`
	SizeMB  int    `json:"size_mb"`
	TTL     struct {
		Default string `json:"default"`
		Max     string `json:"max"`
	} `json:"ttl"`
}

type Database struct {
	Primary struct {
		Host string `json:"host"`
		Pool struct {
			Health struct {
				Interval string `json:"interval"`
				Query    string `json:"query"`
			} `json:"health"`
			IdleTimeout string `json:"idle_timeout"`
			Max         int    `json:"max"`
			Min         int    `json:"min"`
		} `json:"pool"`
		Port int `json:"port"`
	} `json:"primary"`
	Replicas []Replica `json:"replicas"`
}

type Replica struct {
	Host   string `json:"host"`
	Port   int    `json:"port"`
	Weight int    `json:"weight"`
}

type Deploy struct {
	Regions  map[string]Region `json:"regions"`
	Strategy struct {
		Rolling struct {
			MaxSurge       string `json:"max_surge"`
			MaxUnavailable int    `json:"max_unavailable"`
		} `json:"rolling"`
		Type string `json:"type"`
	} `json:"strategy"`
}

type Region struct {
	CPU      string `json:"cpu"`
	Memory   string `json:"memory"`
	Replicas int    `json:"replicas"`
}

type Logging struct {
	Level    string   `json:"level"`
	Outputs  []string `json:"outputs"`
	Sampling struct {
		Initial int `json:"initial"`
		Per     struct {
			Second struct {
				Burst int `json:"burst"`
			} `json:"second"`
		} `json:"per"`
		Thereafter int `json:"thereafter"`
	} `json:"sampling"`
}

type Server struct {
	HTTP struct {
		Listen   string `json:"listen"`
		Timeouts struct {
			Idle     string `json:"idle"`
			Read     string `json:"read"`
			Shutdown struct {
				Force string `json:"force"`
				Grace string `json:"grace"`
			} `json:"shutdown"`
			Write string `json:"write"`
		} `json:"timeouts"`
		TLS struct {
			Cert       string   `json:"cert"`
			Ciphers    []string `json:"ciphers"`
			ClientAuth struct {
				CA struct {
					File   string `json:"file"`
					Reload struct {
						Interval string `json:"interval"`
						OnChange bool   `json:"on_change"`
					} `json:"reload"`
				} `json:"ca"`
				Mode string `json:"mode"`
			} `json:"client_auth"`
			Enabled bool   `json:"enabled"`
			Key     string `json:"key"`
		} `json:"tls"`
	} `json:"http"`
	Limits struct {
		MaxBodyBytes   int `json:"max_body_bytes"`
		MaxHeaderBytes int `json:"max_header_bytes"`
		Rate           struct {
			Burst     int `json:"burst"`
			PerSecond int `json:"per_second"`
		} `json:"rate"`
	} `json:"limits"`
}

// config is a deeply nested configuration document: services, each with
// server, database, cache, feature, logging and deployment sections nested
// up to eight levels deep, a few primitive arrays, and keyed tables.
func config(n int) *Dataset {
	g := newGen(6)
	services := make(map[string]Service, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s-%s-%03d", g.pick(words), g.pick(words), i)
		var s Service
		s.Database.Replicas = make([]Replica, 1+g.r.Intn(3))
		for j := range s.Database.Replicas {
			s.Database.Replicas[j] = Replica{Host: fmt.Sprintf("db-%d-%d.internal", i, j), Port: 5432, Weight: 1 + g.r.Intn(10)}
		}
		s.Features = map[string]bool{}
		for j := 0; j < 3+g.r.Intn(6); j++ {
			s.Features[g.pick(words)+"_"+strconv.Itoa(j)] = g.r.Intn(2) == 0
		}
		s.Enabled = g.r.Intn(8) != 0
		s.Owner = strings.ToLower(g.pick(first)) + "@example.com"

		h := &s.Server.HTTP
		h.Listen = fmt.Sprintf("0.0.0.0:%d", 8000+i)
		h.Timeouts.Read, h.Timeouts.Write, h.Timeouts.Idle = "5s", "10s", "2m"
		h.Timeouts.Shutdown.Grace, h.Timeouts.Shutdown.Force = "30s", "45s"
		h.TLS.Enabled = g.r.Intn(3) != 0
		h.TLS.Cert, h.TLS.Key = "/etc/ssl/"+name+".crt", "/etc/ssl/"+name+".key"
		h.TLS.Ciphers = []string{"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}
		h.TLS.ClientAuth.Mode = []string{"none", "request", "require"}[g.r.Intn(3)]
		h.TLS.ClientAuth.CA.File = "/etc/ssl/ca.pem"
		h.TLS.ClientAuth.CA.Reload.Interval, h.TLS.ClientAuth.CA.Reload.OnChange = "1h", true
		l := &s.Server.Limits
		l.MaxBodyBytes, l.MaxHeaderBytes = 1<<(20+g.r.Intn(4)), 65536
		l.Rate.PerSecond, l.Rate.Burst = g.r.Intn(1000), g.r.Intn(5000)

		p := &s.Database.Primary
		p.Host, p.Port = fmt.Sprintf("db-%d.internal", i), 5432
		p.Pool.Min, p.Pool.Max, p.Pool.IdleTimeout = g.r.Intn(4), 8+g.r.Intn(56), "5m"
		p.Pool.Health.Query, p.Pool.Health.Interval = "SELECT 1", "15s"

		s.Cache.Backend = []string{"redis", "memcached", "memory"}[g.r.Intn(3)]
		s.Cache.TTL.Default, s.Cache.TTL.Max = "10m", "24h"
		s.Cache.SizeMB = g.r.Intn(4096)

		s.Logging.Level = []string{"debug", "info", "warn", "error"}[g.r.Intn(4)]
		s.Logging.Outputs = []string{"stdout", "file:/var/log/" + name + ".log"}
		s.Logging.Sampling.Initial, s.Logging.Sampling.Thereafter = 100, g.r.Intn(1000)
		s.Logging.Sampling.Per.Second.Burst = 10

		s.Deploy.Regions = map[string]Region{
			"eu-west": {Replicas: 1 + g.r.Intn(6), CPU: "500m", Memory: "512Mi"},
			"us-east": {Replicas: 1 + g.r.Intn(6), CPU: "500m", Memory: "1Gi"},
			"ap-east": {Replicas: 1 + g.r.Intn(6), CPU: "250m", Memory: "256Mi"},
		}
		s.Deploy.Strategy.Type = "rolling"
		s.Deploy.Strategy.Rolling.MaxSurge, s.Deploy.Strategy.Rolling.MaxUnavailable = "25%", 0
		services[name] = s
	}
	return &Dataset{Name: "config", About: "deeply nested configuration: services with sections nested up to 8 levels, keyed tables, primitive arrays",
		Typed: &ConfigDoc{Services: services, Version: 3},
		kit:   recordKit[ConfigDoc, Service]{size: func(d *ConfigDoc) int { return len(d.Services) }}}
}
