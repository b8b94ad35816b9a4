package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/toonstream/toon"
)

// testScale keeps the datasets small in tests.
const testScale = 0.02

// TestDatasets checks every dataset: generation is deterministic; the
// typed records, the generic values, the TOON, the JSON and the CSV hold
// the same data; every toon path the benchmarks measure reads or writes
// exactly that data (Token, Row, Rows, Unmarshal, Marshal and Encode of
// typed and generic values, WriteRow, WriteRows, WriteToken); every peer
// does too; and each dataset has the layout it is meant to measure.
func TestDatasets(t *testing.T) {
	for _, name := range Names {
		t.Run(name, func(t *testing.T) {
			d, err := Generate(name, testScale)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Generate(name, testScale)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(d.TOON, again.TOON) || !bytes.Equal(d.JSON, again.JSON) || !bytes.Equal(d.CSV, again.CSV) {
				t.Fatal("two generations differ")
			}
			if d.Records < 2 {
				t.Fatalf("%d records", d.Records)
			}
			f := newFixture(t, d)
			checkFormats(t, d)
			checkTypedDecoders(t, d)
			checkWriters(t, f)
			checkTokens(t, f)
			if d.CSV != nil {
				checkCSV(t, f)
			}
			checkLayout(t, d)
		})
	}
}

// checkFormats checks that TOON, JSON, the generic values and the typed
// document hold the same data.
func checkFormats(t *testing.T, d *Dataset) {
	t.Helper()
	var fromTOON, fromJSON any
	if err := toon.Unmarshal(d.TOON, &fromTOON); err != nil {
		t.Fatalf("TOON does not decode: %v", err)
	}
	if err := json.Unmarshal(d.JSON, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromTOON, fromJSON) || !reflect.DeepEqual(fromJSON, d.Value) {
		t.Fatal("TOON, JSON and the generic values differ")
	}
	typedJSON, err := json.Marshal(d.Typed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(typedJSON, d.JSON) {
		t.Fatal(errMismatch("json.Marshal of the typed document", typedJSON, d.JSON))
	}
	if n := d.kit.count(d.Typed); n != d.Records {
		t.Fatalf("%d typed records, want %d", n, d.Records)
	}
	// json v2 writes the same data (its bytes may differ: it escapes
	// fewer characters).
	for what, v := range map[string]any{"typed": d.Typed, "generic": d.Value} {
		out, err := jsonv2.Marshal(v, deterministic)
		if err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, d.Value) {
			t.Fatalf("json v2 Marshal of the %s document holds other data (%v)", what, err)
		}
	}
}

// checkTypedDecoders checks that each decoder of typed values gives the
// typed document or its records: toon's Unmarshal and Rows, and the
// peers'.
func checkTypedDecoders(t *testing.T, d *Dataset) {
	t.Helper()
	decoders := []struct {
		name string
		data []byte
		dec  func([]byte, any) error
	}{
		{"toon.Unmarshal", d.TOON, func(b []byte, v any) error { return toon.Unmarshal(b, v) }},
		{"json.Unmarshal", d.JSON, json.Unmarshal},
		{"json v2 Unmarshal", d.JSON, func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }},
	}
	for _, c := range decoders {
		doc := d.kit.newDoc()
		if err := c.dec(c.data, doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(doc, d.Typed) {
			t.Fatalf("%s into the typed document differs from it", c.name)
		}
	}
	var generic any
	if err := jsonv2.Unmarshal(d.JSON, &generic); err != nil || !reflect.DeepEqual(generic, d.Value) {
		t.Fatalf("json v2 Unmarshal into any differs (%v)", err)
	}
	if !d.kit.hasArray() {
		if d.Name != "config" {
			t.Fatal("no record array")
		}
		return
	}
	want := d.kit.records(d.Typed)
	rows := []struct {
		name string
		read func(collect bool) (int, any, error)
	}{
		{"toon.Rows", func(c bool) (int, any, error) { return d.kit.rowsTOON(d.TOON, d.Key, c) }},
		{"json Decoder.Decode", func(c bool) (int, any, error) { return d.kit.rowsJSON(d.JSON, d.Key, c) }},
		{"json v2 UnmarshalDecode", func(c bool) (int, any, error) { return d.kit.rowsJSONv2(d.JSON, d.Key, c) }},
	}
	if d.kit.hasCSV() {
		rows = append(rows, struct {
			name string
			read func(collect bool) (int, any, error)
		}{"CSV Read and parse", func(c bool) (int, any, error) { return d.kit.rowsCSV(d.CSV, d.csvComma(), c) }})
	}
	for _, c := range rows {
		for _, collect := range []bool{true, false} {
			n, got, err := c.read(collect)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if n != d.Records {
				t.Fatalf("%s: %d records, want %d", c.name, n, d.Records)
			}
			if collect && !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: the records differ from the typed ones", c.name)
			}
		}
	}
}

// checkWriters checks that every toon writer writes the reference TOON:
// Marshal and Encode of the typed and the generic document, WriteRow and
// WriteRows of the flat tables, and WriteToken replaying the decoder's
// tokens; and that jsontext's replay writes the reference JSON.
func checkWriters(t *testing.T, f *fixture) {
	t.Helper()
	for what, v := range map[string]any{"typed": f.Typed, "generic": f.Value} {
		out, err := toon.Marshal(v, f.Opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, f.TOON) {
			t.Fatal(errMismatch("Marshal of the "+what+" document", out, f.TOON))
		}
		var w bytes.Buffer
		if err := toon.NewEncoder(&w, f.Opts...).Encode(v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), f.TOON) {
			t.Fatal(errMismatch("Encode of the "+what+" document", w.Bytes(), f.TOON))
		}
	}
	var w bytes.Buffer
	if f.Rows != nil {
		if err := writeRows(&w, f); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), f.TOON) {
			t.Fatal(errMismatch("WriteRow", w.Bytes(), f.TOON))
		}
		w.Reset()
		if err := f.kit.writeRows(&w, f.Typed, f.Key, f.Opts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), f.TOON) {
			t.Fatal(errMismatch("WriteRows", w.Bytes(), f.TOON))
		}
		w.Reset()
	}
	if err := replayTOON(&w, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), f.TOON) {
		t.Fatal(errMismatch("WriteToken", w.Bytes(), f.TOON))
	}
	w.Reset()
	if err := replayJSON(&w, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), append(f.JSON, '\n')) {
		t.Fatal(errMismatch("jsontext WriteToken", w.Bytes(), f.JSON))
	}
}

// checkTokens checks that the Row loop reads the tokens the Token loop
// reads, and that it takes rows with Row in the tables.
func checkTokens(t *testing.T, f *fixture) {
	t.Helper()
	var got []toon.Token
	rows := 0
	d := toon.NewDecoder(bytes.NewReader(f.TOON))
	n, err := readRows(d, func(tok toon.Token) { got = append(got, tok.Clone()) })
	if err != nil {
		t.Fatal(err)
	}
	if n != len(f.toonToks) || len(got) != n {
		t.Fatalf("Row loop: %d tokens, Token loop %d", n, len(f.toonToks))
	}
	for i, tok := range got {
		want := f.toonToks[i]
		if tok.Kind() != want.Kind() || tok.String() != want.String() || tok.Len() != want.Len() || tok.Form() != want.Form() ||
			!reflect.DeepEqual(tok.Fields(), want.Fields()) {
			t.Fatalf("token %d: Row loop %v %q, Token loop %v %q", i, tok.Kind(), tok.String(), want.Kind(), want.String())
		}
	}
	d = toon.NewDecoder(bytes.NewReader(f.TOON))
	for {
		if d.Row() != nil {
			rows++
			continue
		}
		if _, err := d.Token(); err != nil {
			break
		}
	}
	if f.CSV != nil && rows < f.Records/2 {
		t.Fatalf("Row gave %d of %d rows", rows, f.Records)
	}
}

// checkCSV checks the CSV text against its records, and encoding/csv's
// writer against the text.
func checkCSV(t *testing.T, f *fixture) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(f.CSV))
	r.Comma = f.csvComma()
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs[0], f.CSVHeader) || !reflect.DeepEqual(recs[1:], f.CSVRecs) || len(f.CSVRecs) != f.Records {
		t.Fatal("CSV differs from its records")
	}
	var w bytes.Buffer
	if err := writeCSV(&w, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), f.CSV) {
		t.Fatal(errMismatch("csv Writer", w.Bytes(), f.CSV))
	}
}

// checkLayout checks that each dataset has the shape it is meant to
// measure.
func checkLayout(t *testing.T, d *Dataset) {
	t.Helper()
	text := string(d.TOON)
	first, _, _ := strings.Cut(text, "\n")
	layout := map[string]string{
		"analytics":   "rows[",
		"repos":       "repositories[",
		"kb":          "articles[",
		"intl":        "messages[",
		"codes":       "shipments[",
		"store":       "products[",
		"tickets":     "tickets[",
		"metrics":     "samples[",
		"edges":       "edges[",
		"diagnostics": "{code,message,range{end{character,line},start{character,line}},severity,source,uri}:",
		"orders":      "orders[",
		"vectors":     "chunks[",
		"embeddings":  "items[",
		"geo":         "features[",
		"config":      "services:",
	}[d.Name]
	if layout == "" || !strings.Contains(first, layout) {
		t.Fatalf("first line %.120q lacks %q", first, layout)
	}
	if (d.Rows != nil || d.CSV != nil) && !strings.HasSuffix(first, "}:") {
		t.Fatalf("not a table: %.120q", first)
	}
	if d.Delim != 0 && !strings.Contains(first, string(rune(d.Delim))) {
		t.Fatalf("not delimited by %q: %.120q", d.Delim, first)
	}
	// share is the fraction of the TOON bytes for which in reports true.
	share := func(in func(r rune) bool) float64 {
		n := 0
		for _, r := range text {
			if in(r) {
				n += utf8.RuneLen(r)
			}
		}
		return float64(n) / float64(len(text))
	}
	want := func(ok bool, what string) {
		if !ok {
			t.Fatalf("the dataset lacks %s", what)
		}
	}
	switch d.Name {
	case "intl":
		want(share(func(r rune) bool { return r >= utf8.RuneSelf }) > 0.25, "a quarter of non-ASCII bytes")
		for _, s := range []string{"ü", "ł", "д", "京", "서", "😊"} {
			want(strings.Contains(text, s), s)
		}
	case "codes":
		for _, s := range []string{`,"0`, `"400`, ",+", "-20", "x"} {
			want(strings.Contains(text, s), "the text "+s)
		}
	case "store", "kb":
		empty := 0
		for _, rec := range d.CSVRecs {
			for _, c := range rec {
				if c == "" {
					empty++
				}
			}
		}
		want(empty*3 > len(d.CSVRecs)*len(d.CSVHeader), "a third of empty cells")
		if d.Name == "store" {
			want(strings.Contains(text, "\tnull\t") && len(d.Fields) == 19, "null cells and 19 columns")
		}
	case "tickets":
		for _, s := range []string{`\n`, `\t`, `\"`, `\\`, ","} {
			want(strings.Contains(text, s), "the escape "+s)
		}
	case "metrics":
		for _, s := range []string{"e-", "e+", ",-"} {
			want(strings.Contains(text, s), "the text "+s)
		}
	case "orders":
		for _, s := range []string{"{name,price{amount,currency},qty,sku}:", "note:", "tags[", "address:"} {
			want(strings.Contains(text, s), s)
		}
	case "vectors":
		want(strings.Contains(text, "- embedding[64]: ") && strings.Contains(text, "\n    score: 0."), "embeddings and scores")
	case "embeddings":
		want(strings.Contains(text, "- embedding[1536]: "), "embeddings of 1536 floats")
	case "geo":
		want(strings.Contains(text, "\n        - [2]: "), "points that are list items")
	case "config":
		want(strings.Contains(text, "\n              "), "eight levels of nesting")
	}
}
