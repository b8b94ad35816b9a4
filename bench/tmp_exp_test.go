package bench

import (
	"testing"

	"github.com/toonstream/toon"
)

func BenchmarkTmpReuse(b *testing.B) {
	f := load(b, "config")
	doc := &ConfigDoc{}
	if err := toon.Unmarshal(f.TOON, doc); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := toon.Unmarshal(f.TOON, doc); err != nil {
			b.Fatal(err)
		}
	}
}
