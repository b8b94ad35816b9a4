package toon

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// scanBenchSets are the line shapes the scanning benchmarks run over. Each
// is a set of lines scanned one after another, as the lexer would.
func scanBenchSets() []struct {
	name  string
	lines [][]byte
} {
	rng := rand.New(rand.NewSource(1))
	words := []string{"Alice", "Bob", "Carol Smith", "Dave", "Eve-Marie", "Mallory", "Trent", "Zoë Çelik"}
	depts := []string{"Engineering", "Sales", "Marketing", "Support", "Finance"}
	var rows9, wide, quoted, short [][]byte
	for i := 0; i < 1000; i++ {
		// 9 columns, about 70 bytes: id,name,email,age,active,dept,salary,date,score
		name := words[rng.Intn(len(words))]
		rows9 = append(rows9, fmt.Appendf(nil, "%d,%s,%s%d@example.com,%d,%t,%s,%d.%02d,2024-%02d-%02d,%d",
			100000+i, name, strings.ToLower(name[:3]), i, 20+rng.Intn(50), rng.Intn(2) == 0,
			depts[rng.Intn(len(depts))], 30000+rng.Intn(90000), rng.Intn(100), 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(1000)))
		// 50 columns of short numbers and words.
		var b []byte
		for c := 0; c < 50; c++ {
			if c > 0 {
				b = append(b, ',')
			}
			if c%3 == 0 {
				b = append(b, words[rng.Intn(len(words))]...)
			} else {
				b = fmt.Appendf(b, "%d", rng.Intn(100000))
			}
		}
		wide = append(wide, b)
		// Long quoted strings with escapes, delimiters and colons inside.
		quoted = append(quoted, fmt.Appendf(nil, `%d,"%s \"quoted\" text, with: commas\\ and a path C:\\dir\\file, %s",%s,"%s"`,
			i, strings.Repeat("lorem ipsum dolor sit amet, ", 2+rng.Intn(4)), name, depts[rng.Intn(len(depts))],
			strings.Repeat(`say \"hi\", `, 1+rng.Intn(6))))
		// Short key-value lines.
		short = append(short, fmt.Appendf(nil, "key%d: %s", i, name))
	}
	var big []byte
	for len(big) < 1<<20 {
		big = append(big, rows9[len(big)%len(rows9)]...)
		big = append(big, ',')
	}
	return []struct {
		name  string
		lines [][]byte
	}{
		{"row9", rows9},
		{"wide50", wide},
		{"quoted", quoted},
		{"kv-short", short},
		{"line1MB", [][]byte{big[:1<<20]}},
	}
}

// BenchmarkScanLine measures scanLine's throughput per line shape and per
// implementation (the kernels called directly, without scanLine's
// short-line shortcut), so the paths can be compared in one run.
func BenchmarkScanLine(b *testing.B) {
	impls := scanKernels()
	for _, set := range scanBenchSets() {
		total := 0
		for _, l := range set.lines {
			total += len(l)
		}
		for _, im := range impls {
			b.Run(set.name+"/"+im.name, func(b *testing.B) {
				seps := make([]int32, 0, 1<<20)
				b.ResetTimer()
				b.SetBytes(int64(total))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for _, l := range set.lines {
						seps, _ = im.fn(l, ',', seps[:0])
					}
				}
			})
		}
	}
}
