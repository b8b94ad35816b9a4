package bench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update makes TestMatrixTestdata write the documents rather than check
// them.
var update = flag.Bool("update", false, "rewrite ../testdata/matrix from the generators")

// matrixDataScale is the scale of the documents in ../testdata/matrix:
// about 220 KB for all fifteen, from 3.7 KB (config, two services) to 40
// KB (embeddings, two passages).
const matrixDataScale = 0.005

// TestMatrixTestdata checks that the root package's copies of the
// matrix's documents (testdata/matrix/NAME.toon), on which its tests hold
// the decoder's fast paths to its general path, are the documents the
// generators make now. -update writes them.
func TestMatrixTestdata(t *testing.T) {
	dir := filepath.Join("..", "testdata", "matrix")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range Names {
		d, err := Generate(name, matrixDataScale)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".toon")
		if *update {
			if err := os.WriteFile(path, d.TOON, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, d.TOON) {
			t.Errorf("%s is not the %s dataset at scale %v (%v): in bench, go test -run TestMatrixTestdata -update writes it",
				path, name, matrixDataScale, err)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Names) {
		t.Errorf("%s holds %d files, want one for each of the %d datasets: %v", dir, len(files), len(Names), files)
	}
}
