package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toonstream/toon"
)

// testScale keeps the datasets small in tests.
const testScale = 0.02

// TestDatasets checks every dataset: generation is deterministic, the TOON
// and JSON texts decode to the same values, the CSV holds the same rows,
// each dataset has the layout it is meant to measure, and the streaming
// paths (WriteRow, WriteToken replays) write the reference bytes.
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
			var fromTOON, fromJSON any
			if err := toon.Unmarshal(d.TOON, &fromTOON); err != nil {
				t.Fatalf("TOON does not decode: %v", err)
			}
			if err := json.Unmarshal(d.JSON, &fromJSON); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fromTOON, fromJSON) || !reflect.DeepEqual(fromJSON, d.Value) {
				t.Fatal("TOON, JSON and the generated value differ")
			}
			if d.Records < 2 {
				t.Fatalf("%d records", d.Records)
			}
			if d.CSV != nil {
				recs, err := csv.NewReader(bytes.NewReader(d.CSV)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(recs[0], d.CSVHeader) || !reflect.DeepEqual(recs[1:], d.CSVRecs) || len(d.CSVRecs) != d.Records {
					t.Fatal("CSV differs from its records")
				}
			}
			f := newFixture(t, d)
			var w bytes.Buffer
			if d.Rows != nil {
				if err := writeRows(&w, f); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(w.Bytes(), d.TOON) {
					t.Fatal(errMismatch("WriteRow", w.Bytes(), d.TOON))
				}
				w.Reset()
			}
			if err := replayTOON(&w, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), d.TOON) {
				t.Fatal(errMismatch("WriteToken", w.Bytes(), d.TOON))
			}
			w.Reset()
			if err := replayJSON(&w, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), append(d.JSON, '\n')) {
				t.Fatal(errMismatch("jsontext WriteToken", w.Bytes(), d.JSON))
			}
			first, _, _ := strings.Cut(string(d.TOON), "\n")
			layout := map[string]string{
				"analytics":   "rows[",
				"repos":       "repositories[",
				"kb":          "articles[",
				"diagnostics": "{code,message,range{end{character,line},start{character,line}},severity,source,uri}:",
				"orders":      "orders[",
				"config":      "services:",
			}[name]
			if !strings.Contains(first, layout) {
				t.Fatalf("first line %.120q lacks %q", first, layout)
			}
			switch name {
			case "analytics", "repos", "kb", "diagnostics":
				if !strings.HasSuffix(first, "}:") {
					t.Fatalf("not a table: %.120q", first)
				}
			case "orders":
				if !strings.Contains(string(d.TOON), "{name,price{amount,currency},qty,sku}:") {
					t.Fatal("orders have no line-item table with a nested field group")
				}
			case "config":
				if strings.Count(string(d.TOON), "\n              ") == 0 {
					t.Fatal("config is not nested deeply")
				}
			}
			if name == "kb" && !strings.Contains(first, "|") {
				t.Fatal("kb is not pipe-delimited")
			}
		})
	}
}
