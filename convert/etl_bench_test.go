package convert

import (
	"bytes"
	"io"
	"strconv"
	"testing"
)

// The rows of benchRows as JSON Lines and as CSV.

func benchLines(n int) []byte {
	doc := benchRows(n)
	doc = doc[len(`{"users":[`) : len(doc)-len("]}")]
	return append(bytes.ReplaceAll(doc, []byte("},{"), []byte("}\n{")), '\n')
}

func benchCSV(n int) []byte {
	cities := []string{"Berlin", "Paris", "London", "Madrid", "Rome", "Vienna", "Prague", "Warsaw", "Lisbon", "Dublin"}
	b := []byte("id,name,email,age,active,score,city\n")
	for i := 1; i <= n; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ",User "...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ",user"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "@example.com,"...)
		b = strconv.AppendInt(b, int64(18+i*7%60), 10)
		b = append(b, ',')
		b = strconv.AppendBool(b, i%3 != 0)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(i*13%100), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(i*7%9+1), 10)
		b = append(b, ',')
		b = append(b, cities[i%10]...)
		b = append(b, '\n')
	}
	return b
}

func benchConvert(b *testing.B, in []byte, conv func(io.Writer, io.Reader, ...Option) error, opts ...Option) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := conv(io.Discard, bytes.NewReader(in), opts...); err != nil {
			b.Fatal(err)
		}
	}
}

// Serial and Pipeline fix whether rows are written on a goroutine of their
// own; the default depends on GOMAXPROCS.
func BenchmarkFromJSONLines(b *testing.B) {
	in := benchLines(20000)
	b.Run("Serial", func(b *testing.B) { benchConvert(b, in, FromJSONLines, withPipeline(false)) })
	b.Run("Pipeline", func(b *testing.B) { benchConvert(b, in, FromJSONLines, withPipeline(true)) })
}

func BenchmarkFromCSV(b *testing.B) {
	in := benchCSV(20000)
	b.Run("Serial", func(b *testing.B) { benchConvert(b, in, FromCSV, withPipeline(false)) })
	b.Run("Pipeline", func(b *testing.B) { benchConvert(b, in, FromCSV, withPipeline(true)) })
}

func BenchmarkToJSONLines(b *testing.B) {
	var doc bytes.Buffer
	if err := FromJSONLines(&doc, bytes.NewReader(benchLines(20000))); err != nil {
		b.Fatal(err)
	}
	benchConvert(b, doc.Bytes(), ToJSONLines)
}

func BenchmarkToCSV(b *testing.B) {
	var doc bytes.Buffer
	if err := FromCSV(&doc, bytes.NewReader(benchCSV(20000))); err != nil {
		b.Fatal(err)
	}
	benchConvert(b, doc.Bytes(), ToCSV)
}
