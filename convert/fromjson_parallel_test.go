package convert

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
)

// jsonCells are cells of every kind the encoder writes differently:
// numbers in every form (canonicalised, §2), strings that need quotes
// for the delimiters (§7.2, §11.1), escapes, and the literals.
var jsonCells = []string{
	`0`, `-0`, `7`, `-12`, `123456789012345678`, `1234567890123456789012`, `1.5`, `-0.25`, `3.140000`,
	`1e5`, `1E-7`, `2.5e+3`, `0.000001`, `12345678.9`, `1e400`, `-1.0e-400`,
	`""`, `"plain"`, `"two words"`, `" padded "`, `"a,b"`, `"a|b"`, `"a\tb"`, `"q\"uote"`, `"back\\slash"`,
	`"line\nbreak"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00"`, `"é😀"`, `"true"`, `"12"`, `"-3.5"`, `"null"`,
	`"- item"`, `"x: y"`, `"[1]"`, `"{a}"`, `"#"`,
	`true`, `false`, `null`,
}

// jsonRows writes about size bytes of rows of a table with the fields
// names: most compact, some with whitespace or their keys in another
// order (rows the template does not match), so that a table has runs of
// matched rows and rows between them.
func jsonRows(rng *rand.Rand, b *bytes.Buffer, names []string, size int) int {
	n := 0
	start := b.Len()
	for n == 0 || b.Len()-start < size {
		if n > 0 {
			b.WriteByte(',')
		}
		order := names
		sep, colon := ",", ":"
		switch rng.IntN(200) {
		case 0:
			order = append([]string(nil), names...)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		case 1:
			sep, colon = " ,\n ", " : "
		}
		b.WriteByte('{')
		for i, name := range order {
			if i > 0 {
				b.WriteString(sep)
			}
			fmt.Fprintf(b, "%q%s", name, colon)
			if name == "id" {
				fmt.Fprint(b, n)
			} else {
				b.WriteString(jsonCells[rng.IntN(len(jsonCells))])
			}
		}
		b.WriteByte('}')
		n++
	}
	return n
}

// jsonTableDoc generates a document with a table of about size bytes of
// rows: the root array, or a field between others, or several tables.
func jsonTableDoc(rng *rand.Rand, size int) []byte {
	names := []string{"id", "name", "v", "w", "flag"}[:2+rng.IntN(4)]
	var b bytes.Buffer
	switch rng.IntN(3) {
	case 0:
		b.WriteByte('[')
		jsonRows(rng, &b, names, size)
		b.WriteByte(']')
	case 1:
		b.WriteString(`{"meta":{"v":1,"list":[1,2]},"data":{"t":[`)
		jsonRows(rng, &b, names, size)
		b.WriteString(`],"more":"x"},"end":true}`)
	default:
		b.WriteString(`{"a":[`)
		jsonRows(rng, &b, names, size/2)
		b.WriteString(`],"b":[`)
		jsonRows(rng, &b, names[:len(names)-1], size/2)
		b.WriteString(`],"c":[{"x":1},{"x":2}]}`)
	}
	return b.Bytes()
}

// fromJSONBoth converts data serially and in parallel, from memory (an
// io.ReaderAt) and from a mapped file, and fails unless the outputs and
// errors are the same. It returns the ranges encoded in parallel and
// those redone serially.
func fromJSONBoth(t *testing.T, data []byte, rng *rand.Rand, opts ...Option) (jobs, redone int) {
	t.Helper()
	var serial bytes.Buffer
	serr := FromJSON(&serial, bytes.NewReader(data), append(opts, withPipeline(false))...)
	encDone = func(j, r int) { jobs, redone = jobs+j, redone+r }
	defer func() { encDone = nil }()
	par := append(opts, withWorkers(2+rng.IntN(3)), withParRange(256+rng.IntN(8<<10)))
	switch rng.IntN(3) {
	case 0: // helpers whose rows are taken when their guess is right
		par = append(par, withAheadMin(1<<10))
	case 1: // helpers stopped where they are when the first pass meets them
		par = append(par, func(c *config) { c.aheadMin = 1 << 10 })
	}
	check := func(how string, out []byte, err error) {
		t.Helper()
		if !sameError(serr, err) {
			t.Fatalf("%s: errors differ:\nserial   %v\nparallel %v", how, serr, err)
		}
		if !bytes.Equal(serial.Bytes(), out) {
			a := serial.Bytes()
			i := 0
			for i < min(len(a), len(out)) && a[i] == out[i] {
				i++
			}
			t.Fatalf("%s: outputs differ at byte %d (lengths %d and %d): serial %q, parallel %q (error %v)",
				how, i, len(a), len(out), a[max(i-40, 0):min(i+40, len(a))], out[max(i-40, 0):min(i+40, len(out))], serr)
		}
	}
	var mem bytes.Buffer
	err := FromJSON(&mem, bytes.NewReader(data), par...)
	check("from memory", mem.Bytes(), err)
	path := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var file bytes.Buffer
	err = FromJSONFile(&file, f, par...)
	check("from a mapped file", file.Bytes(), err)
	return jobs, redone
}

// TestParallelFromJSONMatchesSerial compares the parallel encoding of
// tables with the serial one on random documents, delimiters and
// indentations, with ranges small enough to split every table, and checks
// that the ranges were encoded in parallel.
func TestParallelFromJSONMatchesSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	total := 0
	count := longtest.Size(t, 20, 150)
	for k := 0; k < count; k++ {
		data := jsonTableDoc(rng, 20<<10+rng.IntN(200<<10))
		opts := []Option{WithDelimiter([]toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}[rng.IntN(3)]), WithIndent(1 + rng.IntN(3))}
		if rng.IntN(4) == 0 {
			opts = append(opts, withBufSize(512+rng.IntN(4096)))
		}
		jobs, redone := fromJSONBoth(t, data, rng, opts...)
		if redone != 0 {
			t.Fatalf("document %d: %d of %d ranges redone serially", k, redone, jobs)
		}
		total += jobs
	}
	if total < 4*count {
		t.Fatalf("only %d ranges encoded in parallel", total)
	}
}

// TestParallelFromJSONLines: the root array of JSON Lines, whose rows
// follow line breaks, is split too.
func TestParallelFromJSONLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	var b bytes.Buffer
	jsonRows(rng, &b, []string{"id", "name", "v"}, 200<<10)
	lines := strings.ReplaceAll(strings.ReplaceAll(b.String(), " ,\n ", ","), "},{", "}\n{")
	var serial, par bytes.Buffer
	serr := FromJSONLines(&serial, strings.NewReader(lines), withPipeline(false))
	var jobs int
	encDone = func(j, _ int) { jobs += j }
	defer func() { encDone = nil }()
	perr := FromJSONLines(&par, strings.NewReader(lines), withWorkers(3), withParRange(4<<10))
	if !sameError(serr, perr) || !bytes.Equal(serial.Bytes(), par.Bytes()) {
		t.Fatalf("JSON Lines: serial %v, parallel %v, outputs equal %v", serr, perr, bytes.Equal(serial.Bytes(), par.Bytes()))
	}
	if jobs == 0 {
		t.Fatal("no range encoded in parallel")
	}
}

// TestParallelFromJSONLongLine: a row too long for the line limit fails
// its range, which the serial path encodes again, reporting the row as
// the serial encoder does, after the same output. (The JSON of a row must
// fit the first pass's buffer, of the line limit, for the row to be in a
// range: the row is made long by its indentation.)
func TestParallelFromJSONLongLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	redoneAll := 0
	for k := 0; k < 10; k++ {
		var b bytes.Buffer
		b.WriteString(`{"t":[`)
		for i := range 3000 {
			if i > 0 {
				b.WriteByte(',')
			}
			a := "xx"
			if i == 1000+k*100 {
				a = strings.Repeat("x", 100)
			}
			fmt.Fprintf(&b, `{"id":%d,"a":"%s","b":true}`, i, a)
		}
		b.WriteString(`]}`)
		jobs, redone := fromJSONBoth(t, b.Bytes(), rng, withMaxLine(256), WithIndent(150))
		if jobs == 0 {
			t.Fatal("no range encoded in parallel")
		}
		redoneAll += redone
	}
	// The long row may fall between ranges: the first pass matches a row
	// whole only if it is in its buffer, of the line limit.
	if redoneAll == 0 {
		t.Fatal("the long row was never in a range")
	}
}

// FuzzParallelFromJSON puts a fuzzed element among the rows of a large
// table (or anywhere in the document) and requires the same output and
// error of the serial and parallel encodings.
func FuzzParallelFromJSON(f *testing.F) {
	f.Add([]byte(`{"id":1,"name":"x"}`), uint16(7), uint64(1))
	f.Add([]byte(`{"name":"x","id":1}`), uint16(300), uint64(2))
	f.Add([]byte(`{"id":1,"name":[1]}`), uint16(1000), uint64(3))
	f.Add([]byte(`{ "id" : 1 , "name" : "\u0041" }`), uint16(5), uint64(4))
	f.Add([]byte(`{"id":1,"name":"a"`), uint16(2500), uint64(5))
	f.Add([]byte(`]`), uint16(40), uint64(6))
	f.Fuzz(func(t *testing.T, elem []byte, at uint16, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 19))
		var b bytes.Buffer
		b.WriteString(`{"t":[`)
		jsonRows(rng, &b, []string{"id", "name"}, 60<<10)
		b.WriteString(`]}`)
		doc := b.Bytes()
		// At a row boundary: just after a '}' followed by ','.
		cuts := []int{}
		for i := 1; i < len(doc); i++ {
			if doc[i] == ',' && doc[i-1] == '}' {
				cuts = append(cuts, i+1)
			}
		}
		i := cuts[int(at)%len(cuts)]
		data := append(append(append([]byte(nil), doc[:i]...), elem...), append([]byte{','}, doc[i:]...)...)
		fromJSONBoth(t, data, rng)
	})
}
