package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// The benchmarks are named Benchmark<Path>/<dataset>/<format>-<API>: one
// function per path, a sub-benchmark per dataset, and in it toon's API and
// each peer's on the same data, doing the same job. Every one reports
// ns/op, MB/s of its own format's bytes (b.SetBytes), allocations per op
// (b.ReportAllocs), and rows/s, rows/op and allocs/row, and rows/cpu-s:
// rows per second of the process's CPU time (all threads, the garbage
// collector's included), which other programs on a shared machine
// disturb less than the wall time of rows/s. The dataset size
// is multiplied by $TOON_BENCH_SCALE (default 1). run.sh turns the output
// into the tables of RESULTS.md.

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
	loaded   *fixture // the dataset the benchmarks use now
	loadedMu sync.Mutex
)

// load generates the named dataset at the benchmark scale, unless it is
// the one loaded last. Only one dataset is held at a time, so the live
// heap, which paces the garbage collector, is what a program holding that
// data would have, not the sum of all datasets.
func load(tb testing.TB, name string) *fixture {
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if loaded != nil && loaded.Name == name {
		return loaded
	}
	loaded = nil
	d, err := Generate(name, scale())
	if err != nil {
		tb.Fatal(err)
	}
	loaded = newFixture(tb, d)
	return loaded
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

// measure runs op b.N times. op returns a count (tokens, records or
// bytes) that must be the same on every run; a run before the timer starts
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
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := processCPU()
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
	if cpu >= 0 {
		cpu = processCPU() - cpu
	}
	runtime.ReadMemStats(&after)
	rows := float64(f.Records) * float64(b.N)
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	if cpu > 0 {
		b.ReportMetric(rows/cpu.Seconds(), "rows/cpu-s")
	}
	b.ReportMetric(float64(f.Records), "rows/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
}

// forEach runs body as a sub-benchmark per dataset, or per dataset for
// which applies reports true when it is not nil. A dataset is loaded
// inside its sub-benchmark, so that a -test.bench pattern that names some
// datasets generates only those (a profile of one dataset then holds no
// other's generation); one the path does not apply to is skipped there,
// which prints nothing without -test.v.
func forEach(b *testing.B, applies func(f *fixture) bool, body func(b *testing.B, f *fixture)) {
	for _, name := range Names {
		b.Run(name, func(b *testing.B) {
			f := load(b, name)
			if applies != nil && !applies(f) {
				b.Skip("the path does not apply to this dataset")
			}
			body(b, f)
		})
	}
}

// readTokens reads every token of the decoder's document. Its loop, as
// the peers' loops of BenchmarkTokens, tests err against nil before
// io.EOF: the loop of a token is then a few instructions around the
// inlined Token, whose time does not depend on where the linker places
// it (with io.EOF first, the same loop took 7% or 11% of the portable
// Token's time on analytics, as its address moved by 32 bytes).
func readTokens(d *toon.Decoder) (int, error) {
	n := 0
	for {
		_, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// readRows reads every token of the decoder's document, a row at a time
// with Row where the decoder has the row ready, else with Token.
func readRows(d *toon.Decoder, each func(toon.Token)) (int, error) {
	n := 0
	for {
		if row := d.Row(); row != nil {
			if each != nil {
				for _, t := range row {
					each(t)
				}
			}
			n += len(row)
			continue
		}
		t, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		if each != nil {
			each(t)
		}
		n++
	}
}

// BenchmarkTokens reads every token (or CSV field) of each dataset: the
// toon Decoder's Token loop and its Row loop (Row where a row is ready,
// else Token), encoding/json's Decoder.Token, jsontext.Decoder.ReadToken,
// and encoding/csv's Reader.Read with ReuseRecord for the tables.
func BenchmarkTokens(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) {
		b.Run("toon-Token", func(b *testing.B) {
			r := bytes.NewReader(f.TOON)
			d := toon.NewDecoder(r)
			measure(b, f, len(f.TOON), len(f.toonToks), func() (int, error) {
				r.Reset(f.TOON)
				d.Reset(r)
				return readTokens(d)
			})
		})
		b.Run("toon-Row", func(b *testing.B) {
			r := bytes.NewReader(f.TOON)
			d := toon.NewDecoder(r)
			measure(b, f, len(f.TOON), len(f.toonToks), func() (int, error) {
				r.Reset(f.TOON)
				d.Reset(r)
				return readRows(d, nil)
			})
		})
		b.Run("json-Token", func(b *testing.B) {
			measure(b, f, len(f.JSON), -1, func() (int, error) {
				d := json.NewDecoder(bytes.NewReader(f.JSON))
				d.UseNumber()
				n := 0
				for {
					_, err := d.Token()
					if err != nil {
						if err == io.EOF {
							return n, nil
						}
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
					if err != nil {
						if err == io.EOF {
							return n, nil
						}
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
					cr.Comma = f.csvComma()
					n := 0
					for {
						rec, err := cr.Read()
						if err != nil {
							if err == io.EOF {
								return n, nil
							}
							return n, err
						}
						n += len(rec)
					}
				})
			})
		}
	})
}

// BenchmarkRows reads the records one at a time into a reused typed
// value: toon's Rows, encoding/json's Decoder.Decode per element, json
// v2's UnmarshalDecode per element, and for the tables encoding/csv's
// Read (ReuseRecord) with each record parsed by strconv and time.Parse.
// Each reads the whole document, from a new decoder.
func BenchmarkRows(b *testing.B) {
	forEach(b, func(f *fixture) bool { return f.kit.hasArray() }, func(b *testing.B, f *fixture) {
		b.Run("toon-Rows", func(b *testing.B) {
			measure(b, f, len(f.TOON), f.Records, func() (int, error) {
				n, _, err := f.kit.rowsTOON(f.TOON, f.Key, false)
				return n, err
			})
		})
		b.Run("json-Decode", func(b *testing.B) {
			measure(b, f, len(f.JSON), f.Records, func() (int, error) {
				n, _, err := f.kit.rowsJSON(f.JSON, f.Key, false)
				return n, err
			})
		})
		b.Run("jsonv2-UnmarshalDecode", func(b *testing.B) {
			measure(b, f, len(f.JSON), f.Records, func() (int, error) {
				n, _, err := f.kit.rowsJSONv2(f.JSON, f.Key, false)
				return n, err
			})
		})
		if f.kit.hasCSV() {
			b.Run("csv-ReadParse", func(b *testing.B) {
				measure(b, f, len(f.CSV), f.Records, func() (int, error) {
					n, _, err := f.kit.rowsCSV(f.CSV, f.csvComma(), false)
					return n, err
				})
			})
		}
	})
}

// BenchmarkUnmarshal decodes each whole document into a new typed
// document struct: toon's Unmarshal, encoding/json's Unmarshal, json v2's
// Unmarshal.
func BenchmarkUnmarshal(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) {
		unmarshal := func(data []byte, dec func([]byte, any) error) func() (int, error) {
			return func() (int, error) {
				doc := f.kit.newDoc()
				err := dec(data, doc)
				return f.kit.count(doc), err
			}
		}
		b.Run("toon-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.TOON), f.Records, unmarshal(f.TOON, func(d []byte, v any) error { return toon.Unmarshal(d, v) }))
		})
		b.Run("json-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), f.Records, unmarshal(f.JSON, json.Unmarshal))
		})
		b.Run("jsonv2-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), f.Records, unmarshal(f.JSON, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) }))
		})
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

// BenchmarkUnmarshalAny decodes each whole document into generic values
// (map[string]any, []any, float64, ...): toon's, encoding/json's and json
// v2's Unmarshal into an any.
func BenchmarkUnmarshalAny(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) {
		want := size(f.Value)
		unmarshal := func(data []byte, dec func([]byte, any) error) func() (int, error) {
			return func() (int, error) {
				var v any
				err := dec(data, &v)
				return size(v), err
			}
		}
		b.Run("toon-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.TOON), want, unmarshal(f.TOON, func(d []byte, v any) error { return toon.Unmarshal(d, v) }))
		})
		b.Run("json-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), want, unmarshal(f.JSON, json.Unmarshal))
		})
		b.Run("jsonv2-Unmarshal", func(b *testing.B) {
			measure(b, f, len(f.JSON), want, unmarshal(f.JSON, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) }))
		})
	})
}

// deterministic makes json v2 write map keys sorted, as toon and
// encoding/json do.
var deterministic = jsonv2.Deterministic(true)

// marshalBench runs the Marshal benchmarks of one value (typed or
// generic): toon's, encoding/json's and json v2's Marshal.
func marshalBench(b *testing.B, f *fixture, v any) {
	b.Run("toon-Marshal", func(b *testing.B) {
		measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
			out, err := toon.Marshal(v, f.Opts...)
			return len(out), err
		})
	})
	b.Run("json-Marshal", func(b *testing.B) {
		measure(b, f, len(f.JSON), len(f.JSON), func() (int, error) {
			out, err := json.Marshal(v)
			return len(out), err
		})
	})
	b.Run("jsonv2-Marshal", func(b *testing.B) {
		measure(b, f, len(f.JSON), -1, func() (int, error) {
			out, err := jsonv2.Marshal(v, deterministic)
			return len(out), err
		})
	})
}

// BenchmarkMarshal writes each typed document to a new byte slice.
func BenchmarkMarshal(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) { marshalBench(b, f, f.Typed) })
}

// BenchmarkMarshalAny writes each dataset's generic values to a new byte
// slice.
func BenchmarkMarshalAny(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) { marshalBench(b, f, f.Value) })
}

// BenchmarkEncode writes each typed document to an io.Writer: toon's
// Encoder.Encode, encoding/json's Encoder.Encode and json v2's
// MarshalWrite, each with a new encoder.
func BenchmarkEncode(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) {
		b.Run("toon-Encode", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				var w countWriter
				err := toon.NewEncoder(&w, f.Opts...).Encode(f.Typed)
				return w.n, err
			})
		})
		b.Run("json-Encode", func(b *testing.B) {
			measure(b, f, len(f.JSON), len(f.JSON)+1, func() (int, error) {
				var w countWriter
				err := json.NewEncoder(&w).Encode(f.Typed)
				return w.n, err
			})
		})
		b.Run("jsonv2-MarshalWrite", func(b *testing.B) {
			measure(b, f, len(f.JSON), -1, func() (int, error) {
				var w countWriter
				err := jsonv2.MarshalWrite(&w, f.Typed, deterministic)
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

// writeCSV writes f's CSV header and records with encoding/csv.
func writeCSV(w io.Writer, f *fixture) error {
	cw := csv.NewWriter(w)
	cw.Comma = f.csvComma()
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

// BenchmarkWriteRow writes each flat table a row at a time: toon's
// WriteRow of cells (toon.Values: strings, integers, floats, booleans,
// null), toon's WriteRows of the typed records, and encoding/csv's Writer
// of the same rows as pre-formatted strings.
func BenchmarkWriteRow(b *testing.B) {
	forEach(b, func(f *fixture) bool { return f.Rows != nil }, func(b *testing.B, f *fixture) {
		b.Run("toon-WriteRow", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				var w countWriter
				err := writeRows(&w, f)
				return w.n, err
			})
		})
		b.Run("toon-WriteRows", func(b *testing.B) {
			measure(b, f, len(f.TOON), len(f.TOON), func() (int, error) {
				var w countWriter
				err := f.kit.writeRows(&w, f.Typed, f.Key, f.Opts)
				return w.n, err
			})
		})
		b.Run("csv-Write", func(b *testing.B) {
			measure(b, f, len(f.CSV), len(f.CSV), func() (int, error) {
				var w countWriter
				err := writeCSV(&w, f)
				return w.n, err
			})
		})
	})
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

// BenchmarkWriteToken writes each dataset a token at a time: toon's
// WriteToken replaying its decoder's tokens, and jsontext's WriteToken
// replaying its decoder's tokens.
func BenchmarkWriteToken(b *testing.B) {
	forEach(b, nil, func(b *testing.B, f *fixture) {
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
