package convert

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toonstream/toon/internal/leakcheck"
)

// exclusiveWriter keeps what it is given and fails the test if it is
// called concurrently or after the conversion returned.
type exclusiveWriter struct {
	t      *testing.T
	buf    bytes.Buffer
	busy   atomic.Bool
	closed atomic.Bool
}

func (w *exclusiveWriter) Write(p []byte) (int, error) {
	if w.closed.Load() {
		w.t.Error("Write after ToJSON returned")
	}
	if !w.busy.CompareAndSwap(false, true) {
		w.t.Error("concurrent Write")
	}
	defer w.busy.Store(false)
	return w.buf.Write(p)
}

// pipeDocs are documents whose JSON is several buffers long, some with an
// error or a value longer than the buffer after the first buffers.
func pipeDocs(t *testing.T) map[string][]byte {
	rows := fromJSON(t, []byte(`{"users":`+string(benchRows(3000))[9:]))
	long := strings.Repeat("7", 3*jsonBufSize)
	return map[string][]byte{
		"table":      rows,
		"bad row":    append(append([]byte(nil), rows[:len(rows)/2]...), "\n  x,y\n"...),
		"bad end":    append(append([]byte(nil), rows...), "\n  1,2,3\n"...),
		"long num":   append(append([]byte(nil), rows...), "\nlong: "+long+"\nafter: "+long+"\n"...),
		"long str":   append(append([]byte(nil), rows...), "\nlong: \""+strings.Repeat("\\t", 2*jsonBufSize)+"\"\n"...),
		"small":      []byte("a: 1\n"),
		"bad small":  []byte("a: 1\n b: 2\n"),
		"empty":      nil,
		"deep":       nestedTOON(300),
		"long start": []byte(long),
	}
}

// pipeChunks are the sizes of the pipe's buffers the tests try: the
// default, one window (every flush sends the buffer), and a few windows
// and a bit (the window moves on, and the buffer is sent part full).
var pipeChunks = []int{0, jsonBufSize, 2*jsonBufSize + 1000}

// TestToJSONPipe checks that the piped output (outPipe) is the serial one:
// the same bytes, also those written before an error, and the same error;
// that w is never called concurrently nor after ToJSON returns; and that
// no goroutine is left behind.
func TestToJSONPipe(t *testing.T) {
	before := runtime.NumGoroutine()
	for name, in := range pipeDocs(t) {
		for _, strict := range []bool{true, false} {
			for _, ind := range []int{0, 2} {
				o := []Option{WithIndent(1), WithStrict(strict), WithJSONIndent(ind)}
				if name != "deep" {
					o[0] = WithIndent(2)
				}
				var serial bytes.Buffer
				serr := ToJSON(&serial, bytes.NewReader(in), append(o, withPipeline(false))...)
				for _, chunk := range pipeChunks {
					piped := &exclusiveWriter{t: t}
					perr := ToJSON(piped, bytes.NewReader(in), append(o, withPipeline(true), withPipeChunk(chunk))...)
					piped.closed.Store(true)
					if (serr == nil) != (perr == nil) || serr != nil && serr.Error() != perr.Error() {
						t.Fatalf("%s, strict %v, indent %d, chunk %d: error %v, serial %v", name, strict, ind, chunk, perr, serr)
					}
					if !bytes.Equal(piped.buf.Bytes(), serial.Bytes()) {
						t.Fatalf("%s, strict %v, indent %d, chunk %d: output differs (lengths %d, %d)", name, strict, ind, chunk, piped.buf.Len(), serial.Len())
					}
				}
				if name == "table" && serial.Len() < 2*pipeChunks[len(pipeChunks)-1] {
					t.Fatalf("the table's JSON, %d bytes, does not fill the pipe's buffers", serial.Len())
				}
			}
		}
	}
	leakcheck.Goroutines(t, before)
}

// TestToJSONPipeWriteErrors checks that with a pipe an error of w comes
// back as it is, after the same bytes as without one, and that the pipe's
// goroutine ends.
func TestToJSONPipeWriteErrors(t *testing.T) {
	before := runtime.NumGoroutine()
	errDisk := errors.New("disk full")
	for name, in := range pipeDocs(t) {
		for _, n := range []int{0, 10, jsonBufSize - 1, jsonBufSize, jsonBufSize + 5, 3*jsonBufSize + 7} {
			var got [2]int
			var errs [2]error
			for _, chunk := range pipeChunks {
				for i, on := range []bool{false, true} {
					w := &failWriter{n: n, err: errDisk}
					errs[i] = ToJSON(w, bytes.NewReader(in), withPipeline(on), withPipeChunk(chunk))
					got[i] = n - w.n
				}
				if errs[0] != errs[1] && (errs[0] == nil || errs[1] == nil || errs[0].Error() != errs[1].Error()) {
					t.Fatalf("%s, chunk %d, fail after %d bytes: error %v, serial %v", name, chunk, n, errs[1], errs[0])
				}
				if got[0] != got[1] {
					t.Fatalf("%s, chunk %d, fail after %d bytes: %d bytes written, serial %d", name, chunk, n, got[1], got[0])
				}
			}
		}
		// Every document writes something before it ends or fails.
		for _, chunk := range pipeChunks {
			if err := ToJSON(shortWriter{}, bytes.NewReader(in), WithIndent(1), withPipeline(true), withPipeChunk(chunk)); err != io.ErrShortWrite {
				t.Fatalf("%s, chunk %d, short write: got %v", name, chunk, err)
			}
		}
	}
	leakcheck.Goroutines(t, before)
}
