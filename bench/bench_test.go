package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// The benchmarks are named Benchmark<Operation>/<dataset>/<format>-<API>,
// and every one reports rows/s and rows/op beside ns/op, MB/s (of its own
// format's bytes) and allocations. The dataset size is multiplied by
// $TOON_BENCH_SCALE (default 1). run.sh turns the output into tables.

// scale reads $TOON_BENCH_SCALE.
func scale() float64 {
	if s := os.Getenv("TOON_BENCH_SCALE"); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
			return f
		}
	}
	return 1
}

// fixture is a dataset with the token streams the replay benchmarks write.
type fixture struct {
	*Dataset
	toonToks []toon.Token     // the decoder's tokens of TOON, cloned
	jsonToks []jsontext.Token // jsontext's tokens of JSON, cloned
}

var (
	fixtures   = map[string]*fixture{}
	fixturesMu sync.Mutex
)

// load generates (once) the named dataset at the benchmark scale.
func load(tb testing.TB, name string) *fixture {
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[name]; ok {
		return f
	}
	d, err := Generate(name, scale())
	if err != nil {
		tb.Fatal(err)
	}
	f := newFixture(tb, d)
	fixtures[name] = f
	return f
}

// newFixture decodes d's TOON and JSON into the token streams that the
// replay benchmarks write.
func newFixture(tb testing.TB, d *Dataset) *fixture {
	f := &fixture{Dataset: d}
	dec := toon.NewDecoder(bytes.NewReader(d.TOON))
	for {
		t, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("%s: %v", d.Name, err)
		}
		f.toonToks = append(f.toonToks, t.Clone())
	}
	jd := jsontext.NewDecoder(bytes.NewReader(d.JSON))
	for {
		t, err := jd.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("%s: %v", d.Name, err)
		}
		f.jsonToks = append(f.jsonToks, t.Clone())
	}
	return f
}

// countWriter counts what is written to it.
type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// measure runs op b.N times. op returns a count (tokens, fields or bytes)
// that must be the same on every run; a run before the timer starts
// checks that it is want, when want ≥ 0.
func measure(b *testing.B, f *fixture, size int, want int, op func() (int, error)) {
	first, err := op()
	if err != nil {
		b.Fatal(err)
	}
	if want >= 0 && first != want {
		b.Fatalf("count %d, want %d", first, want)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := op()
		if err != nil {
			b.Fatal(err)
		}
		if n != first {
			b.Fatalf("count %d, then %d", first, n)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(f.Records)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(f.Records), "rows/op")
}

// forEach runs body as a sub-benchmark per dataset.
func forEach(b *testing.B, body func(b *testing.B, f *fixture)) {
	for _, name := range Names {
		f := load(b, name)
		b.Run(name, func(b *testing.B) { body(b, f) })
	}
}

// BenchmarkTokens reads every token (or CSV field) of each dataset: the
// toon Decoder's Token loop, encoding/json's Decoder.Token,
// jsontext.Decoder.ReadToken, and encoding/csv's Reader.Read with
// ReuseRecord for the datasets that are tables.
func BenchmarkTokens(b *testing.B) {
	forEach(b, func(b *testing.B, f *fixture) {
		b.Run("toon-Token", func(b *testing.B) {
			r := bytes.NewReader(f.TOON)
			d := toon.NewDecoder(r)
			measure(b, f, len(f.TOON), len(f.toonToks), func() (int, error) {
				r.Reset(f.TOON)
				d.Reset(r)
				n := 0
				for {
					_, err := d.Token()
					if err == io.EOF {
						return n, nil
					}
					if err != nil {
						return n, err
					}
					n++
				}
			})
		})
		b.Run("json-Token", func(b *testing.B) {
			measure(b, f, len(f.JSON), -1, func() (int, error) {
				d := json.NewDecoder(bytes.NewReader(f.JSON))
				d.UseNumber()
				n := 0
				for {
					_, err := d.Token()
					if err == io.EOF {
						return n, nil
					}
					if err != nil {
						return n, err
					}
					n++
				}
			})
		})
		b.Run("jsontext-ReadToken", func(b *testing.B) {
			r := bytes.NewReader(f.JSON)
			d := jsontext.NewDecoder(r)
			measure(b, f, len(f.JSON), len(f.jsonToks), func() (int, error) {
				r.Reset(f.JSON)
				d.Reset(r)
				n := 0
				for {
					_, err := d.ReadToken()
					if err == io.EOF {
						return n, nil
					}
					if err != nil {
						return n, err
					}
					n++
				}
			})
		})
		if f.CSV != nil {
			b.Run("csv-Read", func(b *testing.B) {
				r := bytes.NewReader(f.CSV)
				measure(b, f, len(f.CSV), (len(f.CSVRecs)+1)*len(f.CSVHeader), func() (int, error) {
					r.Reset(f.CSV)
					cr := csv.NewReader(r)
					cr.ReuseRecord = true
					n := 0
					for {
						rec, err := cr.Read()
						if err == io.EOF {
							return n, nil
						}
						if err != nil {
							return n, err
						}
						n += len(rec)
					}
				})
			})
		}
	})
}

// size counts the elements of a generic value, so a decode benchmark can
// check that it built the whole value.
func size(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 1
		for _, e := range x {
			n += size(e)
		}
		return n
	case []any:
		n := 1
		for _, e := range x {
			n += size(e)
		}
		return n
	}
	return 1
}

// BenchmarkDecode builds each dataset as generic values: toon's Unmarshal
// (from bytes) and Decode (through an io.Reader), encoding/json's
// Unmarshal, and encoding/csv's ReadAll for the tables.
func BenchmarkDecode(b *testing.B) {
	forEach(b, func(b *testing.B, f *fixture) {
		want := size(f.Value)
		b.Run("toon-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.TOON), want, func() (int, error) {
				var v any
				err := toon.Unmarshal(f.TOON, &v)
				return size(v), err
			})
		})
		b.Run("toon-Decode", func(b *testing.B) {
			r := bytes.NewReader(f.TOON)
			measure(b, f, len(f.TOON), want, func() (int, error) {
				r.Reset(f.TOON)
				var v any
				err := toon.NewDecoder(r).Decode(&v)
				return size(v), err
			})
		})
		b.Run("json-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), want, func() (int, error) {
				var v any
				err := json.Unmarshal(f.JSON, &v)
				return size(v), err
			})
		})
		if f.CSV != nil {
			b.Run("csv-ReadAll", func(b *testing.B) {
				r := bytes.NewReader(f.CSV)
				measure(b, f, len(f.CSV), len(f.CSVRecs)+1, func() (int, error) {
					r.Reset(f.CSV)
					recs, err := csv.NewReader(r).ReadAll()
					return len(recs), err
				})
			})
		}
	})
}

// BenchmarkEncode writes each dataset from generic values: toon's Marshal
// and Encoder.Encode, encoding/json's Marshal and Encoder.Encode.
func BenchmarkEncode(b *testing.B) {
	forEach(b, func(b *testing.B, f *fixture) {
		b.Run("toon-Marshal", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				out, err := toon.Marshal(f.Value, f.Opts...)
				return len(out), err
			})
		})
		b.Run("toon-Encode", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				var w countWriter
				err := toon.NewEncoder(&w, f.Opts...).Encode(f.Value)
				return w.n, err
			})
		})
		b.Run("json-Marshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), len(f.JSON), func() (int, error) {
				out, err := json.Marshal(f.Value)
				return len(out), err
			})
		})
		b.Run("json-Encode", func(b *testing.B) {
			measure(b, f, len(f.JSON), len(f.JSON)+1, func() (int, error) {
				var w countWriter
				err := json.NewEncoder(&w).Encode(f.Value)
				return w.n, err
			})
		})
	})
}

// writeRows streams f's table with BeginTable, WriteRow and EndTable.
func writeRows(w io.Writer, f *fixture) error {
	e := toon.NewEncoder(w, f.Opts...)
	if err := e.BeginTable(f.Key, len(f.Rows), f.Fields...); err != nil {
		return err
	}
	for _, row := range f.Rows {
		if err := e.WriteRow(row...); err != nil {
			return err
		}
	}
	if err := e.EndTable(); err != nil {
		return err
	}
	return e.Close()
}

// replayTOON writes f's toon tokens with WriteToken.
func replayTOON(w io.Writer, f *fixture) error {
	e := toon.NewEncoder(w, f.Opts...)
	for _, t := range f.toonToks {
		if err := e.WriteToken(t); err != nil {
			return err
		}
	}
	return e.Close()
}

// replayJSON writes f's jsontext tokens with jsontext's WriteToken.
func replayJSON(w io.Writer, f *fixture) error {
	e := jsontext.NewEncoder(w)
	for _, t := range f.jsonToks {
		if err := e.WriteToken(t); err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes f's CSV header and records with encoding/csv.
func writeCSV(w io.Writer, f *fixture) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(f.CSVHeader); err != nil {
		return err
	}
	for _, rec := range f.CSVRecs {
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// BenchmarkStream writes each dataset a piece at a time: toon's WriteRow
// (flat tables) and WriteToken (a replay of the decoder's tokens),
// jsontext's WriteToken (a replay of its decoder's tokens) and
// encoding/csv's Writer (tables).
func BenchmarkStream(b *testing.B) {
	forEach(b, func(b *testing.B, f *fixture) {
		if f.Rows != nil {
			b.Run("toon-WriteRow", func(b *testing.B) {
				measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
					var w countWriter
					err := writeRows(&w, f)
					return w.n, err
				})
			})
		}
		b.Run("toon-WriteToken", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				var w countWriter
				err := replayTOON(&w, f)
				return w.n, err
			})
		})
		b.Run("jsontext-WriteToken", func(b *testing.B) {
			measure(b, f, len(f.JSON), len(f.JSON)+1, func() (int, error) {
				var w countWriter
				err := replayJSON(&w, f)
				return w.n, err
			})
		})
		if f.CSV != nil {
			b.Run("csv-Write", func(b *testing.B) {
				measure(b, f, len(f.CSV), len(f.CSV), func() (int, error) {
					var w countWriter
					err := writeCSV(&w, f)
					return w.n, err
				})
			})
		}
	})
}

// errMismatch reports output that differs from the reference bytes.
func errMismatch(what string, got, want []byte) error {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	lo := max(0, n-40)
	return fmt.Errorf("%s differs at byte %d: got %q, want %q", what, n, got[lo:min(len(got), n+40)], want[lo:min(len(want), n+40)])
}
