package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/convert"
)

// TestParallelFromJSONMatrix encodes every dataset of the matrix with one
// CPU (the serial path) and with four (the rows of the large flat tables
// encoded in ranges by several goroutines), from memory and from a mapped
// file, with each delimiter, and requires the same bytes.
func TestParallelFromJSONMatrix(t *testing.T) {
	dir := t.TempDir()
	for _, name := range Names {
		d, err := Generate(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, d.JSON, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, delim := range []toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe} {
			opts := []convert.Option{convert.WithDelimiter(delim)}
			old := runtime.GOMAXPROCS(1)
			var serial bytes.Buffer
			err := convert.FromJSON(&serial, bytes.NewReader(d.JSON), opts...)
			runtime.GOMAXPROCS(4)
			var mem, file bytes.Buffer
			merr := convert.FromJSON(&mem, bytes.NewReader(d.JSON), opts...)
			f, ferr := os.Open(path)
			if ferr == nil {
				ferr = convert.FromJSONFile(&file, f, opts...)
				f.Close()
			}
			runtime.GOMAXPROCS(old)
			if err != nil || merr != nil || ferr != nil {
				t.Fatalf("%s: %v, %v, %v", name, err, merr, ferr)
			}
			if !bytes.Equal(serial.Bytes(), mem.Bytes()) || !bytes.Equal(serial.Bytes(), file.Bytes()) {
				t.Errorf("%s (%q): the parallel encoding differs from the serial one", name, delim)
			}
		}
		t.Logf("%s: %d bytes of JSON", name, len(d.JSON))
	}
}
