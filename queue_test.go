package toon

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestTokenLayout checks that rawToken, through which the fast path
// stores tokens into its queue, has Token's layout, and that tokenSize,
// the stride of the queue, is Token's size: the queue's memory is written
// as rawTokens (and by typeRows as three words) and read as Tokens.
func TestTokenLayout(t *testing.T) {
	if tokenSize != int(mem.Sizeof[Token]()) || tokenSize != int(mem.Sizeof[rawToken]()) {
		t.Fatalf("tokenSize %d, Token %d bytes, rawToken %d", tokenSize, mem.Sizeof[Token](), mem.Sizeof[rawToken]())
	}
	tt, rt := reflect.TypeOf(Token{}), reflect.TypeOf(rawToken{})
	if tt.NumField() != rt.NumField() {
		t.Fatalf("Token has %d fields, rawToken %d", tt.NumField(), rt.NumField())
	}
	for i := 0; i < tt.NumField(); i++ {
		a, b := tt.Field(i), rt.Field(i)
		if a.Offset != b.Offset || a.Type.Size() != b.Type.Size() {
			t.Errorf("field %d: Token.%s at %d (%d bytes), rawToken.%s at %d (%d bytes)", i, a.Name, a.Offset, a.Type.Size(), b.Name, b.Offset, b.Type.Size())
		}
	}
	// A token stored with putToken reads back whole.
	q := new(fastQueue)
	q.grow(4)
	toks := q.tokens()
	s := []byte("hello")
	for i, want := range []Token{StringToken(s), BoolToken(true), NullToken(), ArrayStartToken(3, FormTabular, Pipe, []Field{{Name: s}})} {
		putToken(mem.Of(&toks[i]), want)
		if got := toks[i]; got != want {
			t.Errorf("token %d: stored %v, read %v", i, want, got)
		}
	}
}

// fastQueueDoc is a document of several tables whose rows the fast path
// takes, with new headers (whose field names live in memory the next header
// reuses), escaped cells (decoded into scratch), multi-byte text, and one
// row longer than the decoder's first buffer, so that a decoder reading
// through a reader grows its buffer and drops the old one: every kind of
// memory that the fast path's queue points into, and that is replaced
// while stale pointers to it stay behind in the queue's memory.
func fastQueueDoc(rng *rand.Rand) []byte {
	var b strings.Builder
	cells := []string{"1", "2.5", "x", "Ada Lovelace", "true", "null", `"a,b"`, `"q\"q"`, `"\\"`, `"tab\there"`, "é", `"ü\n"`, "-3", `""`}
	for tbl := 0; tbl < 6; tbl++ {
		rows, cols := 300+rng.Intn(700), 1+rng.Intn(6)
		fmt.Fprintf(&b, "t%d[%d]{", tbl, rows)
		for c := 0; c < cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "field_%s%d", strings.Repeat("n", rng.Intn(40)), c)
		}
		b.WriteString("}:\n")
		long := -1
		if tbl == 3 {
			long = rows / 2
		}
		for r := 0; r < rows; r++ {
			b.WriteString("  ")
			for c := 0; c < cols; c++ {
				if c > 0 {
					b.WriteByte(',')
				}
				if r == long && c == 0 {
					b.WriteString(strings.Repeat("L", defaultBufSize+1000))
					continue
				}
				b.WriteString(cells[rng.Intn(len(cells))])
			}
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// TestQueueUnderGC checks the invariant of the queue's memory (queue.go):
// the collector does not scan it, so every pointer stored there must stay
// alive elsewhere for as long as the queue holds it, and no typed store
// may write there. It decodes fastQueueDoc (the fast path's queue) and
// generalQueueDoc (the general path's) through a byte slice, a reader and
// a reader of a few bytes at a time, and Resets a decoder between
// documents, with the collector at GOGC=1 and another goroutine allocating
// all along, so that collections run concurrently with the decoder's
// stores into the queue, and requires the tokens of the general path
// without the fast path. A broken invariant shows as a wrong token (a
// text freed under a queued token and reused) or as a fault in the
// collector (a write barrier that reads a stale pointer).
// TestQueueClobberFree runs it again with freed memory overwritten;
// TestQueueViewsHeld checks the invariant itself, token by token.
func TestQueueUnderGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var keep [][]byte
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			keep = append(keep, bytes.Repeat([]byte{'#'}, 1+i%256))
			if len(keep) == 512 {
				keep = nil
				runtime.Gosched()
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()

	rng := rand.New(rand.NewSource(7))
	docs := 2
	if testing.Short() {
		docs = 1
	}
	reused := NewDecoder(bytes.NewReader(nil))
	for i := 0; i < 2*docs; i++ {
		data := fastQueueDoc(rng)
		if i%2 == 1 {
			data = generalQueueDoc(rng)
		}
		want, wantErr := renderCollecting(withoutFastPath(newBytesDecoder(data, nil)), 0)
		if wantErr != nil {
			t.Fatal(wantErr)
		}
		reused.Reset(&chunkReader{data: data, pattern: []byte{200, 7, 255}})
		for name, d := range map[string]*Decoder{
			"bytes":   newBytesDecoder(data, nil),
			"reader":  NewDecoder(bytes.NewReader(data)),
			"chunked": NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2, 100}}),
			"reset":   reused,
		} {
			got, err := renderCollecting(d, 0)
			if err != nil || got != want {
				t.Fatalf("doc %d, %s: error %v, or tokens differ from the general path's", i, name, err)
			}
		}
	}
}

// TestQueueClobberFree runs TestQueueUnderGC in a child process
// with GOGC=1 and GODEBUG=clobberfree=1, under which the collector
// overwrites the memory it frees: a token left pointing at freed memory
// then reads garbage for certain rather than by chance.
func TestQueueClobberFree(t *testing.T) {
	if testing.Short() {
		t.Skip("a child process: run without -short")
	}
	if os.Getenv("TOON_QUEUE_CHILD") != "" {
		t.Skip("already the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestQueueUnderGC$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TOON_QUEUE_CHILD=1", "GOGC=1", "GODEBUG=clobberfree=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("PASS")) {
		t.Fatalf("the child did not pass:\n%s", out)
	}
}

// generalQueueDoc is a nested document whose tokens the general path and
// its runs of lines queue (lineruns.go), made to replace, while tokens
// still view it, every kind of memory they point into: escaped keys and
// values of growing length, unescaped into scratch until it outgrows its
// array in the middle of a run; headers whose escaped key is followed by
// escaped field names (scratch must not move under the key's token);
// tables, keyed tables and list items of changing fields; inline arrays of
// quoted values; and values longer than the decoder's first buffer.
func generalQueueDoc(rng *rand.Rand) []byte {
	var b strings.Builder
	esc := func(n int) string { // a quoted value with escapes, n bytes of text
		return `"` + strings.Repeat(`a\"\tb`, n/4+1) + `"`
	}
	value := func(i int) string {
		switch rng.Intn(7) {
		case 0:
			return esc(i % 300)
		case 1:
			return fmt.Sprint(rng.Intn(100000) - 500)
		case 2:
			return "true"
		case 3:
			return `""`
		case 4:
			return "plain text é"
		case 5:
			return esc(rng.Intn(40))
		}
		return "null"
	}
	key := func(i int) string {
		if rng.Intn(3) == 0 {
			return fmt.Sprintf(`"k\"%d%s"`, i, strings.Repeat("q", rng.Intn(50)))
		}
		return fmt.Sprintf("key_%d", i)
	}
	var obj func(depth, lines int)
	obj = func(depth, lines int) {
		ind := strings.Repeat("  ", depth)
		for i := 0; i < lines; i++ {
			k := key(i)
			switch c := rng.Intn(12); {
			case c < 5 || depth > 4:
				fmt.Fprintf(&b, "%s%s: %s\n", ind, k, value(i))
			case c < 7:
				fmt.Fprintf(&b, "%s%s:\n", ind, k)
				obj(depth+1, 1+rng.Intn(8))
			case c == 7:
				n := rng.Intn(5)
				vals := make([]string, n)
				for j := range vals {
					vals[j] = value(j)
				}
				fmt.Fprintf(&b, "%s%s[%d]: %s\n", ind, k, n, strings.Join(vals, ","))
			case c == 8 || c == 9:
				// A table or keyed table, of escaped field names.
				nf, n, keyed := 1+rng.Intn(3), rng.Intn(4), c == 9
				names := make([]string, nf)
				for f := range names {
					names[f] = fmt.Sprintf(`"f\"%d%s"`, f, strings.Repeat("g", rng.Intn(30)))
				}
				colon := ""
				if keyed {
					colon = ":"
				}
				fmt.Fprintf(&b, "%s%s[%d%s]{%s}:\n", ind, k, n, colon, strings.Join(names, ","))
				for r := 0; r < n; r++ {
					cells := make([]string, nf)
					for f := range cells {
						cells[f] = value(r + f)
					}
					if keyed {
						fmt.Fprintf(&b, "%s  %s: %s\n", ind, key(r), strings.Join(cells, ","))
					} else {
						fmt.Fprintf(&b, "%s  %s\n", ind, strings.Join(cells, ","))
					}
				}
			case c == 10:
				// List items of like objects, each with tables of the
				// same fields segments, which runs take from the header
				// parser's memory.
				n := 1 + rng.Intn(4)
				fmt.Fprintf(&b, "%s%s[%d]:\n", ind, k, n)
				for j := 0; j < n; j++ {
					fmt.Fprintf(&b, "%s  - %s: %s\n", ind, key(0), value(j))
					fmt.Fprintf(&b, "%s    %s: %s\n", ind, key(1), value(j+1))
					rows := rng.Intn(3)
					fmt.Fprintf(&b, "%s    t[%d]{\"f\\\"1\",g}:\n", ind, rows)
					for r := 0; r < rows; r++ {
						fmt.Fprintf(&b, "%s      %s,%s\n", ind, value(r), value(r+1))
					}
					fmt.Fprintf(&b, "%s    e[%d:]{\"h\\\"2\"}:\n", ind, rows)
					for r := 0; r < rows; r++ {
						fmt.Fprintf(&b, "%s      %s: %s\n", ind, key(r), value(r))
					}
				}
			default:
				fmt.Fprintf(&b, "%s%s: %s\n", ind, k, esc(defaultBufSize+rng.Intn(500)))
			}
		}
	}
	obj(0, 40+rng.Intn(40))
	return []byte(b.String())
}

// heldRanges returns the address ranges [lo, hi) of the memory d holds
// that a queued token may view: the line reader's buffer, scratch and the
// arrays it outgrew, a root primitive's line, the header parser's names
// and field lists, and zeroByte.
func heldRanges(d *Decoder) [][2]uintptr {
	var rs [][2]uintptr
	add := func(p mem.Ptr, n int) {
		if n > 0 {
			rs = append(rs, [2]uintptr{p.Uintptr(), p.Uintptr() + uintptr(n)})
		}
	}
	addBytes := func(b []byte) { add(mem.BytesData(b), cap(b)) }
	var addFields func(fs []Field)
	addFields = func(fs []Field) {
		add(mem.SliceData(fs), cap(fs)*int(mem.Sizeof[Field]()))
		for _, f := range fs {
			addBytes(f.Name)
			addFields(f.Fields)
		}
	}
	addBytes(d.lr.buf)
	addBytes(d.scratch)
	for _, p := range d.scratchPins {
		addBytes(p)
	}
	addBytes(d.scalar.full)
	addBytes(d.names)
	addFields(d.farena)
	addFields(d.hdr.fields)
	for _, g := range d.seen {
		addFields(g.fields)
	}
	add(mem.Of(&zeroByte), 1)
	return rs
}

// checkQueueHeld fails t when a token in d's queue points at memory that
// d does not hold (heldRanges): with the queue's memory unscanned, the
// collector could free it while the token waits to be taken.
func checkQueueHeld(t *testing.T, d *Decoder, what string, at int) {
	t.Helper()
	rs := heldRanges(d)
	for i := d.qi; i < len(d.queue); i++ {
		tok := d.queue[i]
		p := tok.p.Uintptr()
		if p == 0 {
			continue
		}
		end := p + 1 // the bytes the token views
		switch tok.Kind() {
		case KindKey, KindString, KindNumber:
			end = p + uintptr(max(tok.n, 1))
		case KindArrayStart, KindObjectStart:
			end = p + uintptr(max(tok.nf(), 1))*mem.Sizeof[Field]()
		}
		held := false
		for _, r := range rs {
			if r[0] <= p && end <= r[1] {
				held = true
				break
			}
		}
		if !held {
			// The text may be freed memory: only the kind is printed.
			t.Fatalf("%s, after token %d: queued token %d (%c) points at memory the decoder does not hold", what, at, i, tok.Kind())
		}
	}
}

// TestQueueViewsHeld checks the queue's invariant (queueMemory) token by
// token: after every call to Token, each token still queued points into
// memory the decoder holds. It reads generalQueueDoc, fastQueueDoc and a
// header whose escaped key is followed by escaped field names that make
// scratch grow, through a byte slice, a reader and a reader of a few bytes
// at a time, strict and not.
func TestQueueViewsHeld(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	docs := [][]byte{
		[]byte("\"k\\\"1\"[0]{\"f\\\"1\",\"g\\\"222222222222222\"}:\nq[0]{\"f\\\"1\",\"g\\\"222222222222222\"}:\n"),
	}
	n := 6
	if testing.Short() {
		n = 2
	}
	for i := 0; i < n; i++ {
		docs = append(docs, generalQueueDoc(rng))
	}
	docs = append(docs, fastQueueDoc(rng))
	for i, data := range docs {
		for _, strict := range []bool{true, false} {
			opts := []Option{WithStrict(strict)}
			for name, d := range map[string]*Decoder{
				"bytes":   newBytesDecoder(data, opts),
				"reader":  NewDecoder(bytes.NewReader(data), opts...),
				"chunked": NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2, 100}}, opts...),
			} {
				what := fmt.Sprintf("doc %d, %s, strict %v", i, name, strict)
				for j := 0; ; j++ {
					_, err := d.Token()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					checkQueueHeld(t, d, what, j)
				}
			}
		}
	}
}

// TestKeptRowAcrossGrowth reads, in non-strict mode, tables whose rows go
// from the general path to the fast path and back: a row the fast path
// stops at (a cell with an unquoted colon, or a blank line before it),
// which the general path writes at the start of the queue and keeps there
// (rowKept), rows the fast path takes, then rows past the declared count,
// which only the general path reads, after a run has made room in the
// queue. The tokens must be those of the general path alone: a kept row
// lost when the queue's memory grows would come back as invalid tokens.
func TestKeptRowAcrossGrowth(t *testing.T) {
	for _, odd := range []string{"1,a:b", "\n  1,x"} {
		for _, extra := range []int{1, 3} {
			for _, rows := range []int{40, 400} {
				var b strings.Builder
				fmt.Fprintf(&b, "t[%d]{a,b}:\n  %s\n", rows, odd)
				for r := 1; r < rows+extra; r++ {
					fmt.Fprintf(&b, "  %d,v%d\n", r, r)
				}
				b.WriteString("after: 1\n")
				data := []byte(b.String())
				opts := []Option{WithStrict(false)}
				want, wantErr := renderCollecting(withoutFastPath(newBytesDecoder(data, opts)), 0)
				if wantErr != nil {
					t.Fatalf("%q: %v", data, wantErr)
				}
				for name, d := range map[string]*Decoder{
					"bytes":  newBytesDecoder(data, opts),
					"reader": NewDecoder(bytes.NewReader(data), opts...),
				} {
					got, err := renderCollecting(d, 0)
					if err != nil || got != want {
						t.Errorf("odd row %q, %d rows, %d extra, %s: error %v, or tokens differ from the general path's:\n got %.300s\nwant %.300s", odd, rows, extra, name, err, got, want)
					}
				}
			}
		}
	}
}
