package tokencount

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// cpuRate reports the bytes counted per second of the benchmark thread's
// CPU time as "cpu-MB/s", which is steadier than wall time on a machine
// shared with other work. Where the thread clock is not available it
// reports nothing. Call the function it returns at the end.
func cpuRate(b *testing.B, size int) func() {
	runtime.LockOSThread()
	start := threadCPU()
	return func() {
		end := threadCPU()
		runtime.UnlockOSThread()
		if start >= 0 && end > start {
			b.ReportMetric(float64(size)*float64(b.N)/1e6/(end-start).Seconds(), "cpu-MB/s")
		}
	}
}

// benchTexts are texts of the kinds the toon command counts: the rows of
// bench/cli.sh's table as compact JSON and as TOON, random text with
// letters outside ASCII, and a run of one letter (a single piece).
func benchTexts() map[string][]byte {
	var js, tn strings.Builder
	cities := []string{"Berlin", "Paris", "London", "Madrid", "Rome"}
	js.WriteString(`{"users":[`)
	tn.WriteString("users[20000]{id,name,email,age,active,score,city,joined,plan}:")
	for i := 1; i <= 20000; i++ {
		if i > 1 {
			js.WriteByte(',')
		}
		city := cities[i%len(cities)]
		fmt.Fprintf(&js, `{"id":%d,"name":"User %d","email":"user%d@example.com","age":%d,"active":%t,"score":%d.%d,"city":"%s","joined":"20%02d-%02d-%02d","plan":"pro"}`,
			i, i, i, 18+i*7%60, i%3 != 0, i*13%100, i*7%9+1, city, 10+i%15, 1+i%12, 1+i%28)
		fmt.Fprintf(&tn, "\n  %d,User %d,user%d@example.com,%d,%t,%d.%d,%s,20%02d-%02d-%02d,pro",
			i, i, i, 18+i*7%60, i%3 != 0, i*13%100, i*7%9+1, city, 10+i%15, 1+i%12, 1+i%28)
	}
	js.WriteString("]}")
	r := rand.New(rand.NewPCG(1, 1))
	var mixed strings.Builder
	for mixed.Len() < 1<<20 {
		mixed.WriteString(randomText(r, 100))
	}
	return map[string][]byte{
		"json":   []byte(js.String()),
		"toon":   []byte(tn.String()),
		"mixed":  []byte(mixed.String()),
		"letter": []byte(strings.Repeat("a", 1<<20)),
	}
}

// BenchmarkCount counts whole texts.
func BenchmarkCount(b *testing.B) {
	e, err := Get("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"json", "toon", "mixed", "letter"} {
		text := benchTexts()[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			defer cpuRate(b, len(text))()
			for i := 0; i < b.N; i++ {
				e.Count(text)
			}
		})
	}
}

// BenchmarkCounter streams texts in writes of 32 KiB.
func BenchmarkCounter(b *testing.B) {
	e, err := Get("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"json", "toon", "letter"} {
		text := benchTexts()[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			c := e.NewCounter()
			defer cpuRate(b, len(text))()
			for i := 0; i < b.N; i++ {
				for p := text; len(p) > 0; {
					n := min(len(p), 32<<10)
					c.Write(p[:n])
					p = p[n:]
				}
				c.Close()
			}
		})
	}
}
