//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSplitCommandMode: chunk files get 0666 less the umask, as toon's
// new output files do.
func TestSplitCommandMode(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in.toon", "[3]: 1,2,3")
	for _, c := range []struct {
		umask string
		want  os.FileMode
	}{{"077", 0o600}, {"022", 0o644}, {"002", 0o664}} {
		out := "out" + c.umask
		cmd := exec.Command("sh", "-c", "umask "+c.umask+" && exec \"$0\" split --max-rows 2 --out-dir "+out+" in.toon", toonBin)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("umask %s: %v %s", c.umask, err, b)
		}
		for _, name := range chunkFilesIn(t, filepath.Join(dir, out)) {
			fi, err := os.Stat(filepath.Join(dir, out, name))
			if err != nil || fi.Mode().Perm() != c.want {
				t.Fatalf("umask %s: %s mode %v, want %v (%v)", c.umask, name, fi.Mode().Perm(), c.want, err)
			}
		}
	}
}

// TestSplitCommandErrorsNameTheChunk: an error about a chunk file names
// the chunk, never its temporary file, and leaves no chunk. Here the
// rename of the first chunk fails: with --force, a directory stands where
// chunk-0001.toon goes.
func TestSplitCommandErrorsNameTheChunk(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in.toon", "[3]: 1,2,3")
	if err := os.MkdirAll(filepath.Join(dir, "out", "chunk-0001.toon", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := runToon(t, dir, nil, "split", "--max-rows", "2", "--out-dir", "out", "--force", "in.toon")
	if res.code != 1 || !strings.HasPrefix(res.stderr, "toon split: rename out/chunk-0001.toon: ") || strings.Contains(res.stderr, ".tmp") {
		t.Fatalf("exit %d: %q", res.code, res.stderr)
	}
	if names := chunkFilesIn(t, filepath.Join(dir, "out")); len(names) != 1 || names[0] != "chunk-0001.toon" {
		t.Fatalf("left in out: %q", names)
	}
}

// TestSplitCommandInterrupt: SIGINT or SIGTERM while chunks are written
// removes their temporary files and the directory made for them, and ends
// the command by the signal. The input comes through a pipe that the test
// holds open, so chunks are surely being written when the signal is sent.
func TestSplitCommandInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(toonBin, "split", "--max-rows", "100", "--out-dir", "out")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var doc strings.Builder
			doc.WriteString("[1000000]{id,name}:\n")
			for i := 0; i < 50000; i++ {
				doc.WriteString("  1,some name\n")
			}
			if _, err := io.WriteString(in, doc.String()); err != nil {
				t.Fatal(err)
			}
			// Wait for temporary chunk files.
			deadline := time.Now().Add(20 * time.Second)
			for {
				ents, _ := os.ReadDir(filepath.Join(dir, "out"))
				if len(ents) > 1 && strings.HasSuffix(ents[0].Name(), ".tmp") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no temporary chunk files appeared: %v", ents)
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			in.Close()
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("the command ended with %v; stderr %q", err, stderr.String())
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Fatalf("status %v, want the command ended by %v; stderr %q", ws, sig, stderr.String())
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("left behind: %v", ents)
			}
		})
	}
}
