package toon

import (
	"encoding/json"
	"reflect"
	"sync"
	"testing"
)

// benchRow is a record of the generated benchmark table (genBenchTable):
// nine columns of int, string, bool and float fields.
type benchRow struct {
	ID      int     `toon:"id" json:"id"`
	Name    string  `toon:"name" json:"name"`
	Email   string  `toon:"email" json:"email"`
	Active  bool    `toon:"active" json:"active"`
	Price   float64 `toon:"price" json:"price"`
	Qty     int     `toon:"qty" json:"qty"`
	Country string  `toon:"country" json:"country"`
	Created string  `toon:"created" json:"created"`
	Score   float64 `toon:"score" json:"score"`
}

// structBench is the benchmark table in the forms the struct benchmarks
// compare: TOON text, the same records as a JSON array of objects, and
// the records as []benchRow.
type structBench struct {
	toon []byte
	json []byte
	rows []benchRow
}

var structBenches sync.Map // rows -> *structBench

// genStructBench derives the JSON text from the generic decoding of the
// TOON table (Decode into any), so it does not depend on the typed code
// under test; rows come from encoding/json's decoding of that JSON.
func genStructBench(tb testing.TB, n int) *structBench {
	if v, ok := structBenches.Load(n); ok {
		return v.(*structBench)
	}
	bt := genBenchTable(n)
	var g any
	if err := Unmarshal(bt.toon, &g); err != nil {
		tb.Fatal(err)
	}
	js, err := json.Marshal(g)
	if err != nil {
		tb.Fatal(err)
	}
	var rows []benchRow
	if err := json.Unmarshal(js, &rows); err != nil {
		tb.Fatal(err)
	}
	sb := &structBench{toon: bt.toon, json: js, rows: rows}
	structBenches.Store(n, sb)
	return sb
}

func TestStructBenchData(t *testing.T) {
	sb := genStructBench(t, 5000)
	var got []benchRow
	if err := Unmarshal(sb.toon, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sb.rows) {
		t.Fatal("Unmarshal of the TOON table differs from encoding/json's decoding of the same records")
	}
}

// BenchmarkUnmarshalRows compares Unmarshal of the 500,000-row table into
// []benchRow with encoding/json's Unmarshal of the same records; the
// target of issue 5 is a rows/s ratio of at least 8.
func BenchmarkUnmarshalRows(b *testing.B) {
	sb := genStructBench(b, 500000)
	b.Run("toon", func(b *testing.B) {
		b.SetBytes(int64(len(sb.toon)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var rows []benchRow
			if err := Unmarshal(sb.toon, &rows); err != nil {
				b.Fatal(err)
			}
			if len(rows) != len(sb.rows) {
				b.Fatalf("%d rows", len(rows))
			}
		}
		reportRows(b, len(sb.rows))
	})
	b.Run("toon-intern", func(b *testing.B) {
		b.SetBytes(int64(len(sb.toon)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var rows []benchRow
			if err := Unmarshal(sb.toon, &rows, InternStrings()); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, len(sb.rows))
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(sb.json)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var rows []benchRow
			if err := json.Unmarshal(sb.json, &rows); err != nil {
				b.Fatal(err)
			}
		}
		reportRows(b, len(sb.rows))
	})
}
