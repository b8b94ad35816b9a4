package convert

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/leakcheck"

	"github.com/toonstream/toon"
)

// parallelDoc generates a document of a table of about size bytes of
// rows with cells of every kind, at the root or as a field between
// others, with the given delimiter.
func parallelDoc(rng *rand.Rand, size int, root bool, delim byte) []byte {
	var rows bytes.Buffer
	n := 0
	words := []string{"alpha", "beta gamma", `"q,u:o|te"`, `"tab\there"`, "é😀", "-0.5", "1e3", "true", "null", `""`, "x#y"}
	d := string(delim)
	for rows.Len() < size {
		fmt.Fprintf(&rows, "    %d%s%s%s%v%s%s\n", n, d, words[rng.IntN(len(words))], d, rng.Float64(), d, words[rng.IntN(len(words))])
		n++
	}
	ds := ""
	if delim != ',' {
		ds = d
	}
	if root {
		return []byte(fmt.Sprintf("[%d%s]{id%sa%sb%sc}:\n", n, ds, d, d, d) + strings.ReplaceAll(rows.String(), "\n    ", "\n  ")[2:])
	}
	return []byte(fmt.Sprintf("meta:\n  v: 1\ndata:\n  t[%d%s]{id%sa%sb%sc}:\n%s  more: x\nend: true\n", n, ds, d, d, d, rows.String()))
}

// convertBoth converts data serially and in parallel (with small ranges),
// with and without an output pipe (which takes the ranges' buffers whole),
// and fails unless the outputs and errors are the same.
func convertBoth(t *testing.T, data []byte) {
	t.Helper()
	var serial bytes.Buffer
	serr := ToJSONBytes(&serial, data, withWorkers(1))
	for _, piped := range []bool{false, true} {
		var par bytes.Buffer
		perr := ToJSONBytes(&par, data, withWorkers(3), withParRange(16<<10), withPipeline(piped))
		sameOutput(t, serial.Bytes(), par.Bytes(), serr, perr)
	}
}

// sameOutput fails unless the outputs and errors of a serial and a
// parallel conversion are the same.
func sameOutput(t *testing.T, a, b []byte, serr, perr error) {
	t.Helper()
	if !sameError(serr, perr) || fmt.Sprint(serr) != fmt.Sprint(perr) {
		t.Fatalf("errors differ:\nserial   %v\nparallel %v", serr, perr)
	}
	if !bytes.Equal(a, b) {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		t.Fatalf("outputs differ at byte %d (lengths %d and %d): serial %q, parallel %q (error %v)",
			i, len(a), len(b), a[max(i-40, 0):min(i+40, len(a))], b[max(i-40, 0):min(i+40, len(b))], serr)
	}
}

func TestParallelToJSONMatchesSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	for _, root := range []bool{true, false} {
		for _, delim := range []byte{',', '\t', '|'} {
			data := parallelDoc(rng, 400<<10, root, delim)
			convertBoth(t, data)
			// The parallel path was taken: the table split into ranges.
			c := makeConfig([]Option{withWorkers(3), withParRange(16 << 10)})
			c.par = parallelFor(&c, len(data))
			if err := toJSON(new(bytes.Buffer), toon.NewBytesDecoder(data), c); err != nil {
				t.Fatal(err)
			}
			if c.par.ranges < 4 {
				t.Fatalf("%d ranges converted in parallel", c.par.ranges)
			}
		}
	}
}

// TestParallelToJSONLongCells converts, in parallel ranges, rows with
// cells longer than the JSON writer's buffer: a number, which is written
// past the buffer, and strings, which are escaped in pieces, so that the
// output of a range outgrows its window at every kind of write.
func TestParallelToJSONLongCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 9))
	data := parallelDoc(rng, 400<<10, true, ',')
	lines := bytes.Split(data, []byte("\n"))
	long := map[int]string{
		40:   strings.Repeat("7", 3*jsonBufSize),
		900:  strings.Repeat("ab c", jsonBufSize),
		2000: `"` + strings.Repeat(`\t"é`, jsonBufSize/2) + `"`,
		3000: "1." + strings.Repeat("5", jsonBufSize+100),
	}
	for i, cell := range long {
		f := bytes.SplitN(lines[i], []byte(","), 3)
		lines[i] = append(append(append([]byte{}, f[0]...), ","+cell+","...), f[2]...)
	}
	convertBoth(t, bytes.Join(lines, []byte("\n")))
}

// TestParallelToJSONErrors breaks a large table at random lines and
// requires the serial error, at the same line and column, and the same
// output up to it.
func TestParallelToJSONErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	breaks := []func(line []byte) []byte{
		func(l []byte) []byte { return append(l[:len(l)-1:len(l)-1], ",x\n"...) }, // width
		func(l []byte) []byte { return []byte("\n") },                             // blank line
		func(l []byte) []byte { return append([]byte("\t"), l...) },               // tab
		func(l []byte) []byte { return append([]byte(" "), l...) },                // odd indentation
		func(l []byte) []byte { return []byte("    k: v\n") },                     // key-value line
		func(l []byte) []byte { return append([]byte("  "), l...) },               // deeper
		func(l []byte) []byte { return []byte("    1,\"\\q\",2,3\n") },            // bad escape
		func(l []byte) []byte { return []byte("    1,\xff,2,3\n") },               // UTF-8
		func(l []byte) []byte { return nil },                                      // a row short
		func(l []byte) []byte { return append(l, l...) },                          // a row long
		func(l []byte) []byte { return []byte("  # comment\n") },                  // fine
	}
	for _, root := range []bool{true, false} {
		base := parallelDoc(rng, 300<<10, root, ',')
		lines := bytes.SplitAfter(base, []byte{'\n'})
		for k, brk := range breaks {
			for range 3 {
				i := 1 + rng.IntN(len(lines)-4)
				if !root {
					i = 4 + rng.IntN(len(lines)-8)
				}
				doc := slicesJoin(lines[:i], brk(bytes.Clone(lines[i])), lines[i+1:])
				if root && k == 5 {
					doc = slicesJoin(lines[:i], append([]byte("  "), lines[i]...), lines[i+1:])
				}
				convertBoth(t, doc)
			}
		}
	}
}

func slicesJoin(a [][]byte, mid []byte, b [][]byte) []byte {
	var out bytes.Buffer
	for _, l := range a {
		out.Write(l)
	}
	out.Write(mid)
	for _, l := range b {
		out.Write(l)
	}
	return out.Bytes()
}

// parFailWriter fails after n bytes.
type parFailWriter struct{ n int }

var errFail = errors.New("write failed")

func (w *parFailWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		return 0, errFail
	}
	w.n -= len(b)
	return len(b), nil
}

// TestParallelNoLeak checks that no worker outlives ToJSONBytes, after a
// conversion, an error in the input and a failing writer.
func TestParallelNoLeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	data := parallelDoc(rng, 1<<20, true, ',')
	bad := bytes.Clone(data)
	bad[len(bad)/3] = 0xff
	before := runtime.NumGoroutine()
	for range 5 {
		if err := ToJSONBytes(new(bytes.Buffer), data, withWorkers(4), withParRange(16<<10)); err != nil {
			t.Fatal(err)
		}
		if err := ToJSONBytes(new(bytes.Buffer), bad, withWorkers(4), withParRange(16<<10)); err == nil {
			t.Fatal("no error")
		}
		if err := ToJSONBytes(&parFailWriter{200 << 10}, data, withWorkers(4), withParRange(16<<10)); !errors.Is(err, errFail) {
			t.Fatalf("%v, want the writer's error", err)
		}
	}
	leakcheck.Goroutines(t, before)
}

// FuzzParallelToJSON decodes a random table both ways: the fuzzer's line
// stands at a place among generated rows, in a table large enough to be
// split into several ranges.
func FuzzParallelToJSON(f *testing.F) {
	f.Add([]byte("    1,a,2,b\n"), uint16(7), uint64(1), false)
	f.Add([]byte("\n"), uint16(300), uint64(2), true)
	f.Add([]byte("    k: v\n"), uint16(1000), uint64(3), false)
	f.Add([]byte("\t1,2,3,4\n"), uint16(5), uint64(4), true)
	f.Add([]byte("  x: 1\n"), uint16(2500), uint64(5), false)
	f.Fuzz(func(t *testing.T, line []byte, at uint16, seed uint64, root bool) {
		rng := rand.New(rand.NewPCG(seed, 19))
		base := parallelDoc(rng, 100<<10, root, ',')
		lines := bytes.SplitAfter(base, []byte{'\n'})
		i := int(at) % len(lines)
		convertBoth(t, slicesJoin(lines[:i], line, lines[i:]))
	})
}

// TestParallelSplitsTheTable checks that the large tables of the tests
// above are split: the parallel state converts them, not the serial loop.
func TestParallelSplitsTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	data := parallelDoc(rng, 400<<10, false, ',')
	dec := toon.NewBytesDecoder(data)
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind() == toon.KindArrayStart {
			break
		}
	}
	tab, err := dec.SplitTable(int(int64(len(data)) / (16 << 10)))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Ranges) < 4 {
		t.Fatalf("%d ranges", len(tab.Ranges))
	}
}
