package convert

import (
	"bytes"
	"io"
	"strconv"
	"testing"
)

// benchRows returns a JSON document {"users":[...]} of n uniform rows, the
// shape the command-line benchmark (bench/cli.sh) measures.
func benchRows(n int) []byte {
	cities := []string{"Berlin", "Paris", "London", "Madrid", "Rome", "Vienna", "Prague", "Warsaw", "Lisbon", "Dublin"}
	b := []byte(`{"users":[`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"name":"User `...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `","email":"user`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `@example.com","age":`...)
		b = strconv.AppendInt(b, int64(18+i*7%60), 10)
		b = append(b, `,"active":`...)
		b = strconv.AppendBool(b, i%3 != 0)
		b = append(b, `,"score":`...)
		b = strconv.AppendInt(b, int64(i*13%100), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(i*7%9+1), 10)
		b = append(b, `,"city":"`...)
		b = append(b, cities[i%10]...)
		b = append(b, `"}`...)
	}
	return append(b, "]}"...)
}

func BenchmarkFromJSON(b *testing.B) { benchFromJSON(b) }

// BenchmarkFromJSONSerial and BenchmarkFromJSONPipeline fix whether the
// second pass writes rows on a goroutine of their own; the default
// depends on GOMAXPROCS.
func BenchmarkFromJSONSerial(b *testing.B)   { benchFromJSON(b, withPipeline(false)) }
func BenchmarkFromJSONPipeline(b *testing.B) { benchFromJSON(b, withPipeline(true)) }

func benchFromJSON(b *testing.B, opts ...Option) {
	in := benchRows(20000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := FromJSON(io.Discard, bytes.NewReader(in), opts...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToJSON converts the TOON of the rows above to JSON; see
// benchToJSON, and BenchmarkToJSONText for the jsontext peer.
func BenchmarkToJSON(b *testing.B) { benchToJSON(b, ToJSON) }

// benchNested returns a JSON document of n orders, each with a nested
// customer object and a list of items: rows that are not flat, which both
// passes read token by token, and a list array in the output.
func benchNested(n int) []byte {
	b := []byte(`{"orders":[`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"customer":{"name":"Customer `...)
		b = strconv.AppendInt(b, int64(i%977), 10)
		b = append(b, `","tier":"gold"},"total":`...)
		b = strconv.AppendInt(b, int64(i*37%1000), 10)
		b = append(b, `.25,"items":[`...)
		for j := 0; j <= i%3; j++ {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"sku":"A-`...)
			b = strconv.AppendInt(b, int64(j+i%50), 10)
			b = append(b, `","qty":`...)
			b = strconv.AppendInt(b, int64(1+j), 10)
			b = append(b, '}')
		}
		b = append(b, `],"note":null}`...)
	}
	return append(b, "]}"...)
}

func BenchmarkFromJSONNested(b *testing.B) {
	in := benchNested(10000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := FromJSON(io.Discard, bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
