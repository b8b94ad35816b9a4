package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
)

// oracleToJSON is non-strict ToJSON through the in-memory path that
// spoolToJSON replaced (lenient_oracle_test.go).
func oracleToJSON(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithStrict(false), toon.WithMaxDepth(c.maxDepth))
	jw := newJSONWriter(w, c.jsonIndent)
	err := lenientToJSON(jw, dec)
	jw.flushEnd()
	if jw.err != nil {
		err = jw.err
	}
	jw.release()
	return err
}

// spoolVariants are the settings of spoolToJSON every differential test
// runs: the defaults; a spool of 16 bytes in memory, so that the file is
// used; objects never rewritten in place, so that every object with a
// repeated key stays a rope; and a small rewrite limit, so that some are
// rewritten and some not.
var spoolVariants = []struct {
	name string
	opts []Option
}{
	{"default", nil},
	{"file", []Option{withSpoolBudget(16)}},
	{"ropes", []Option{withCompactMax(0)}},
	{"mixed", []Option{withCompactMax(40), withSpoolBudget(100)}},
}

// sameAsOracle converts in in non-strict mode with ToJSON and with the
// oracle, for each JSON indentation and spool variant, and fails if the
// outputs or errors differ. It reports whether the conversion succeeded.
func sameAsOracle(t *testing.T, in []byte, opts ...Option) bool {
	t.Helper()
	ok := false
	for _, ind := range []int{0, 1, 2, 4} {
		o := append(append([]Option(nil), opts...), WithStrict(false), WithJSONIndent(ind))
		var want bytes.Buffer
		werr := oracleToJSON(&want, bytes.NewReader(in), o...)
		ok = werr == nil
		for _, v := range spoolVariants {
			var got bytes.Buffer
			gerr := ToJSON(&got, bytes.NewReader(in), append(o, v.opts...)...)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("%s, indent %d, input %q:\nerror %v\n want %v", v.name, ind, in, gerr, werr)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s, indent %d, input:\n%s\n got %q\nwant %q", v.name, ind, in, got.Bytes(), want.Bytes())
			}
		}
	}
	return ok
}

// dupTOON builds a TOON document whose keys come from a set of four, so
// that most objects repeat some: objects, list-item objects, nested
// objects, inline, list and tabular arrays (with repeated fields and
// nested field groups) and keyed tables (with repeated entry keys), each
// of which a later member of the same key may replace by any other kind.
func dupTOON(rng *rand.Rand) []byte {
	var b []byte
	keys := []string{"a", "b", "c", `"a"`, "d"}
	key := func() string { return keys[rng.Intn(len(keys))] }
	prims := []string{"1", "-2.5", "true", "null", "x", `"q,r"`, `""`, "hello world", `"\n\t"`, "1e3"}
	prim := func() string { return prims[rng.Intn(len(prims))] }
	fields := func() (string, int) {
		n := 1 + rng.Intn(3)
		var f []string
		leaves := 0
		for i := 0; i < n; i++ {
			if rng.Intn(5) == 0 {
				f = append(f, key()+"{"+key()+","+key()+"}")
				leaves += 2
			} else {
				f = append(f, key())
				leaves++
			}
		}
		return strings.Join(f, ","), leaves
	}
	row := func(n int) string {
		var c []string
		for i := 0; i < n; i++ {
			c = append(c, strings.ReplaceAll(prim(), ",", ""))
		}
		return strings.Join(c, ",")
	}
	var obj func(ind string, depth int)
	var items func(ind string, depth int)
	// member writes one member: prefix goes before the key on its line
	// (the indentation, or a list item's hyphen) and ind is the
	// indentation of the member's level.
	member := func(prefix, ind string, depth int) {
		k := key()
		r := rng.Intn(9)
		if depth >= 4 && r < 6 {
			r = 8
		}
		switch r {
		case 0, 1:
			b = append(b, prefix+k+":\n"...)
			obj(ind+"  ", depth+1)
		case 2:
			m := rng.Intn(4)
			b = append(b, prefix+k+"["+strconv.Itoa(m)+"]:"...)
			if m > 0 {
				b = append(b, " "+row(m)...)
			}
			b = append(b, '\n')
		case 3:
			m := rng.Intn(4)
			f, leaves := fields()
			b = append(b, prefix+k+"["+strconv.Itoa(m)+"]{"+f+"}:\n"...)
			for i := 0; i < m; i++ {
				b = append(b, ind+"  "+row(leaves)+"\n"...)
			}
		case 4:
			m := rng.Intn(4)
			f, leaves := fields()
			b = append(b, prefix+k+"["+strconv.Itoa(m)+":]{"+f+"}:\n"...)
			for i := 0; i < m; i++ {
				b = append(b, ind+"  "+key()+": "+row(leaves)+"\n"...)
			}
		case 5:
			b = append(b, prefix+k+"["+strconv.Itoa(rng.Intn(4))+"]:\n"...)
			items(ind+"  ", depth+1)
		default:
			b = append(b, prefix+k+": "+prim()+"\n"...)
		}
	}
	obj = func(ind string, depth int) {
		for n := rng.Intn(6); n > 0; n-- {
			member(ind, ind, depth)
		}
	}
	items = func(ind string, depth int) {
		for n := rng.Intn(4); n > 0; n-- {
			switch rng.Intn(5) {
			case 0:
				b = append(b, ind+"- "+prim()+"\n"...)
			case 1:
				b = append(b, ind+"-\n"...)
			case 2:
				b = append(b, ind+"- [2]: "+row(2)+"\n"...)
			default:
				member(ind+"- ", ind+"  ", depth)
				obj(ind+"  ", depth)
			}
		}
	}
	switch r := rng.Intn(20); {
	case r < 14:
		obj("", 0)
	case r < 17:
		b = append(b, "["+strconv.Itoa(rng.Intn(4))+"]:\n"...)
		items("  ", 1)
	case r < 19:
		f, leaves := fields()
		b = append(b, "[2]{"+f+"}:\n"...)
		b = append(b, "  "+row(leaves)+"\n  "+row(leaves)+"\n"...)
	default:
		b = append(b, prim()+"\n"...)
	}
	return b
}

// TestLenientMatchesOracle compares non-strict ToJSON with the in-memory
// path on generated documents with repeated keys at every depth, on
// random TOON, on hand-written cases and on the specification's decode
// fixtures.
func TestLenientMatchesOracle(t *testing.T) {
	for _, in := range []string{
		"", "x", "a: 1\nb: 2\na: 3\n", "a: 1\na: 2\n", "a: 1\na: 2\na: 3\n",
		"a:\n  b: 1\n  b: 2\n", "a:\n  x: 1\nb: 2\na: 3\n", "a: 1\nb: 2\na:\n  c: 1\n  c: 2\n",
		"a:\n  b:\n    c: 1\n    c: 2\n  b: 3\n  b:\n    d: 1\n    d: 2\n",
		"a[2]{x,y}:\n  1,2\n  3,4\na: 5\n", "a: 5\na[2]{x,x}:\n  1,2\n  3,4\n",
		"[2]:\n  - a: 1\n    a: 2\n  - b: 1\n", "a[1]:\n  - x: 1\n    y: 2\n    x:\n      z: 1\n      z: 2\n",
		"a[2:]{x}:\n  k: 1\n  k: 2\nb: 1\na: 2\n", "b: 1\na: 2\nb:\n", "a:\nb: 1\na:\n",
		"a: \"\\q\"\n", "a: 1\n  b: 2\n", "a: 1\na: \"unterminated\n",
	} {
		sameAsOracle(t, []byte(in))
	}
	rng := rand.New(rand.NewSource(11))
	converted, dups := 0, 0
	n := longtest.Size(t, 400, 2000)
	for i := 0; i < n; i++ {
		in := dupTOON(rng)
		if sameAsOracle(t, in) {
			converted++
			if err := ToJSON(io.Discard, bytes.NewReader(in)); errors.Is(err, toon.ErrDuplicateKey) {
				dups++
			}
		}
	}
	t.Logf("generated documents: %d of %d converted, %d of them with a repeated key", converted, n, dups)
	if converted < n*3/4 || dups < n/3 {
		t.Fatalf("too few documents convert (%d) or repeat keys (%d)", converted, dups)
	}
	for i := 0; i < 300; i++ {
		sameAsOracle(t, randomTOON(rng))
	}
	eachDecodeInput(t, func(in []byte, opts ...Option) { sameAsOracle(t, in, opts...) })
}

// TestLenientLarge compares the two paths on documents larger than the
// buffers and the rewrite limit: objects with repeated keys around and
// inside long tables, with long strings, so that ranges cross the spool's
// writes and the file's reads.
func TestLenientLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: 1\nbig:\n  t[3000]{x,y,x}:\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "    %d,%s,%d\n", i, strings.Repeat("s", i%97), -i)
	}
	b.WriteString("  u: 1\n  t: 2\nb[2000]:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "  - k: %d\n    v: %s\n    k: %d\n", i, strings.Repeat("v", i%50), i*2)
	}
	b.WriteString("a:\n  long: \"" + strings.Repeat("L", 200000) + "\"\n  long: 1\nbig: 3\n")
	sameAsOracle(t, []byte(b.String()))
	sameAsOracle(t, []byte(b.String()), withPipeline(true))
}

// TestLenientTempFile checks that past its budget the spool moves to a
// temporary file, and that the file is closed (it was unlinked when
// created) however the conversion ends: success, an error in the input,
// an error of the writer.
func TestLenientTempFile(t *testing.T) {
	var doc strings.Builder
	// Longer than the spool writer's buffer (jsonBufSize), which is what
	// reaches the spool.
	doc.WriteString("a: 1\nrows[5000]{x,y}:\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&doc, "  %d,text %d\n", i, i)
	}
	doc.WriteString("a: 2\n")
	good := doc.String()
	bad := good + "b: \"unterminated\n"
	cases := []struct {
		name string
		in   string
		w    io.Writer
		err  func(error) bool
	}{
		{"success", good, io.Discard, func(err error) bool { return err == nil }},
		{"input error", bad, io.Discard, func(err error) bool {
			var se *toon.SyntaxError
			return errors.As(err, &se)
		}},
		{"writer error", good, &failWriter{n: 100, err: io.ErrClosedPipe}, func(err error) bool { return err == io.ErrClosedPipe }},
	}
	for _, c := range cases {
		dir := t.TempDir()
		var files []*os.File
		spoolFileHook = func(f *os.File) { files = append(files, f) }
		err := ToJSON(c.w, strings.NewReader(c.in), WithStrict(false), withSpoolBudget(1024), WithTempDir(dir))
		spoolFileHook = nil
		if !c.err(err) {
			t.Fatalf("%s: got error %v", c.name, err)
		}
		if len(files) != 1 {
			t.Fatalf("%s: %d temporary files, want 1", c.name, len(files))
		}
		if err := files[0].Close(); !errors.Is(err, os.ErrClosed) {
			t.Fatalf("%s: the temporary file was left open (%v)", c.name, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("%s: %d files left in the temporary directory", c.name, len(left))
		}
	}
	// A temporary file that cannot be made is an error, and nothing is
	// written.
	var none bytes.Buffer
	err := ToJSON(&none, strings.NewReader(good), WithStrict(false), withSpoolBudget(1024), WithTempDir(t.TempDir()+"/missing"))
	if !errors.Is(err, os.ErrNotExist) || none.Len() != 0 {
		t.Fatalf("missing temporary directory: %v, %d bytes written", err, none.Len())
	}
	// Within the budget no file is made.
	spoolFileHook = func(*os.File) { t.Fatal("a temporary file for a small document") }
	defer func() { spoolFileHook = nil }()
	if err := ToJSON(io.Discard, strings.NewReader(good), WithStrict(false)); err != nil {
		t.Fatal(err)
	}
	// On an input error nothing is written, as by the in-memory path.
	var out bytes.Buffer
	if err := ToJSON(&out, strings.NewReader(bad), WithStrict(false)); err == nil || out.Len() != 0 {
		t.Fatalf("input error: %v, %d bytes written", err, out.Len())
	}
}

// lenientMemDoc is a TOON document of a root object with a table of n
// rows (each with a repeated field when rowDup) between keys that repeat.
func lenientMemDoc(n int, rowDup bool) []byte {
	var b bytes.Buffer
	b.WriteString("id: 1\nname: first\n")
	if rowDup {
		fmt.Fprintf(&b, "rows[%d]{id,name,score,id}:\n", n)
	} else {
		fmt.Fprintf(&b, "rows[%d]{id,name,score,active}:\n", n)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  %d,user number %d,%d.%d,%v\n", i, i, i%1000, i%7, i%3 == 0)
	}
	b.WriteString("name: second\nextra:\n  k: 1\n  k: 2\nid: 2\n")
	return b.Bytes()
}

// TestLenientMemory converts a 200,000-row table in non-strict mode and
// checks that what is allocated in all stays small beside the document:
// the spool goes to a file past its budget (set to 1 MiB here; 32 MiB by
// default) and no bookkeeping is left per row.
func TestLenientMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("converts documents of several megabytes")
	}
	conv := func(in []byte, w io.Writer) uint64 {
		// Twice: a decoder leaves its buffers to the next one in a
		// sync.Pool, which two collections empty, so that each
		// conversion makes its own.
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := ToJSON(w, bytes.NewReader(in), WithStrict(false), withSpoolBudget(1<<20), withPipeline(false), WithTempDir(t.TempDir()))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, rowDup := range []bool{false, true} {
		in := lenientMemDoc(200000, rowDup)
		var jsonSize countWriter
		alloc := conv(in, &jsonSize)
		small := conv(lenientMemDoc(20000, rowDup), io.Discard)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := oracleToJSON(io.Discard, bytes.NewReader(in), WithStrict(false)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		oracle := after.TotalAlloc - before.TotalAlloc
		t.Logf("rows repeat a field: %v; TOON %d bytes, JSON %d bytes; allocated in all %d bytes (%d for a tenth of the rows; in-memory path: %d)",
			rowDup, len(in), jsonSize, alloc, small, oracle)
		// The spool's memory (1 MiB, grown by doubling) and the buffers
		// are all there is: nothing grows with the rows.
		if alloc > 4<<20 || alloc > small+256<<10 {
			t.Fatalf("allocated %d bytes for a document of %d (%d for a tenth of it)", alloc, len(in), small)
		}
	}
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// FuzzLenientMatchesOracle compares non-strict ToJSON with the in-memory
// path on any input.
func FuzzLenientMatchesOracle(f *testing.F) {
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < 30; i++ {
		f.Add(dupTOON(rng))
	}
	f.Add([]byte("a: 1\nb: 2\na: 3\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		sameAsOracle(t, in)
	})
}
