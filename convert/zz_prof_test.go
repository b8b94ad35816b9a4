package convert

import (
	"bufio"
	"os"
	"testing"
)

func TestZZFileProf(t *testing.T) {
	name := os.Getenv("FJ_IN")
	if name == "" {
		t.Skip()
	}
	in, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create("/tmp/fjprof/out.toon")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := bufio.NewWriterSize(out, 64<<10)
	if err := FromJSON(w, in); err != nil {
		t.Fatal(err)
	}
	w.Flush()
}
