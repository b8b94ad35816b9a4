package bench

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/toonstream/toon/convert"
)

// TestParallelToJSONMatrix converts every dataset of the matrix with one
// CPU (the serial path) and with four (the tables of inputs of a megabyte
// or more split into ranges converted in parallel), and requires the same
// bytes, which must also be the JSON of the dataset.
func TestParallelToJSONMatrix(t *testing.T) {
	for _, name := range Names {
		d, err := Generate(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		var serial, par bytes.Buffer
		old := runtime.GOMAXPROCS(1)
		err = convert.ToJSONBytes(&serial, d.TOON)
		runtime.GOMAXPROCS(4)
		perr := convert.ToJSONBytes(&par, d.TOON)
		runtime.GOMAXPROCS(old)
		if err != nil || perr != nil {
			t.Fatalf("%s: %v, %v", name, err, perr)
		}
		t.Logf("%s: %d bytes of TOON", name, len(d.TOON))
		if !bytes.Equal(serial.Bytes(), par.Bytes()) {
			t.Errorf("%s: the parallel conversion differs from the serial one", name)
		}
		if !bytes.Equal(bytes.TrimSuffix(par.Bytes(), []byte("\n")), d.JSON) {
			t.Errorf("%s: the conversion is not the dataset's JSON", name)
		}
	}
}
