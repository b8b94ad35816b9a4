package toon

import (
	"bytes"
	"fmt"
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

// TestFastQueueUnderGC checks the invariant of fastQueue (queue.go): its
// memory is not scanned by the collector, so every pointer the fast path
// stores there must stay alive elsewhere for as long as the queue holds it,
// and no typed store may write there. It decodes fastQueueDoc through a
// byte slice, a reader and a reader of a few bytes at a time, and Resets a
// decoder between documents, with the collector at GOGC=1 and another
// goroutine allocating all along, so that collections run concurrently
// with the decoder's stores into the queue, and requires the tokens
// of the general path. A broken invariant shows as a wrong token (a text
// freed under a queued token and reused) or as a fault in the collector
// (a write barrier that reads a stale pointer). TestFastQueueClobberFree
// runs it again with freed memory overwritten.
func TestFastQueueUnderGC(t *testing.T) {
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
	for i := 0; i < docs; i++ {
		data := fastQueueDoc(rng)
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

// TestFastQueueClobberFree runs TestFastQueueUnderGC in a child process
// with GOGC=1 and GODEBUG=clobberfree=1, under which the collector
// overwrites the memory it frees: a token left pointing at freed memory
// then reads garbage for certain rather than by chance.
func TestFastQueueClobberFree(t *testing.T) {
	if testing.Short() {
		t.Skip("a child process: run without -short")
	}
	if os.Getenv("TOON_QUEUE_CHILD") != "" {
		t.Skip("already the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFastQueueUnderGC$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TOON_QUEUE_CHILD=1", "GOGC=1", "GODEBUG=clobberfree=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("PASS")) {
		t.Fatalf("the child did not pass:\n%s", out)
	}
}
