package toon

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

// strBenchTexts returns n strings of each kind the string writer meets in
// long text: multi-line free text with quotes, tabs and backslashes
// (every string needs escapes), the same text in one line without them,
// and text with accented and CJK letters and an escape now and then.
func strBenchTexts(n int) map[string][]string {
	r := rand.New(rand.NewSource(11))
	words := strings.Fields("the export of the report fails when the user opens a file with columns, then retries; " +
		"login token expired after save: please check the config and try again later")
	snippets := []string{
		"Steps to reproduce:\n1. Open the app\n2. Click \"Export\"\n3. Choose CSV, UTF-8",
		"Log:\n\t2025-05-09 14:30:01 ERROR db: connection refused\n\t2025-05-09 14:30:02 WARN retrying (1/3)",
		"Path: C:\\Program Files\\Acme\\config.ini, line 12",
		"Expected: \"OK\"\nActual:   \"Error: timeout, please retry\"",
	}
	sentence := func(sb *strings.Builder, k int) {
		for i := 0; i < k; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(words[r.Intn(len(words))])
		}
		sb.WriteByte('.')
	}
	out := map[string][]string{}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		sb.WriteString("Hi team,\n\n")
		for p := 0; p < 1+r.Intn(3); p++ {
			sentence(&sb, 10+r.Intn(25))
			sb.WriteString("\n\n")
			if r.Intn(10) < 6 {
				sb.WriteString(snippets[r.Intn(len(snippets))])
				sb.WriteString("\n\n")
			}
		}
		sb.WriteString("Thanks,\nAda")
		out["escaped"] = append(out["escaped"], sb.String())
		sb.Reset()
		sentence(&sb, 8+r.Intn(40))
		out["plain"] = append(out["plain"], sb.String())
		sb.Reset()
		sb.WriteString("Grüße aus Łódź, 東京からのメッセージ: ")
		sentence(&sb, 5+r.Intn(10))
		if r.Intn(2) == 0 {
			sb.WriteString(" \"quoted\"\n")
		}
		out["intl"] = append(out["intl"], sb.String())
	}
	return out
}

// BenchmarkAppendStr measures the string writer (appendStr, which every
// writer uses for a string value) on long strings of each kind of
// strBenchTexts, in bytes of input per second, and per second of the
// thread's CPU time (MB/cpu-s), the steadier figure on a busy machine.
func BenchmarkAppendStr(b *testing.B) {
	texts := strBenchTexts(256)
	for _, kind := range []string{"escaped", "plain", "intl"} {
		b.Run(kind, func(b *testing.B) {
			ss := texts[kind]
			size := 0
			for _, s := range ss {
				size += len(s)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			buf := make([]byte, 0, 4*size)
			mask := quoteMask(Comma)
			b.ResetTimer()
			cpu := startCPU()
			for range b.N {
				buf = buf[:0]
				for _, s := range ss {
					buf = appendStr(buf, s, mask)
				}
			}
			if d, ok := cpu.stop(); ok && d > 0 {
				b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
			}
		})
	}
}

// BenchmarkAppendTime measures appendTime, the text of a time.Time field,
// on UTC instants with and without a fraction, in ns per time of the
// thread's CPU time (cpu-ns/op).
func BenchmarkAppendTime(b *testing.B) {
	r := rand.New(rand.NewSource(3))
	times := make([]time.Time, 256)
	for i := range times {
		ns := int64(0)
		if i%2 == 0 {
			ns = r.Int63n(1e9)
		}
		times[i] = time.Unix(1.6e9+r.Int63n(2e8), ns).UTC()
	}
	buf := make([]byte, 0, 64*len(times))
	b.ResetTimer()
	cpu := startCPU()
	for range b.N {
		buf = buf[:0]
		for i := range times {
			buf = appendTime(buf, &times[i])
		}
	}
	if d, ok := cpu.stop(); ok && d > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N*len(times)), "cpu-ns/op")
	}
}
