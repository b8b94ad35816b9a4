//go:build unix

package main

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noTemp fails if a temporary file of the command is left in dir.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}

// TestOutputFIFO: -o onto a FIFO writes into it; the FIFO stays a FIFO.
func TestOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // waits for the writer
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if r := runToon(t, dir, nil, "u.json", "-o", "out.fifo"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	if s := receive(t, got); s != usersOut {
		t.Fatalf("read from the FIFO: %q", s)
	}
	noTemp(t, dir)
}

// receive waits for what a reader goroutine got.
func receive(t *testing.T, got chan string) string {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(20 * time.Second):
		t.Fatal("nothing was written")
	}
	return ""
}

// mknodChar makes a character device in dir with the given numbers (Linux
// encoding), or skips the test when the system does not allow it.
func mknodChar(t *testing.T, dir, name string, major, minor int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, major<<8|minor); err != nil {
		t.Skipf("mknod not permitted: %v", err)
	}
	// A file system mounted nodev refuses to open devices.
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("device nodes cannot be opened in %s: %v", dir, err)
	}
	f.Close()
	return p
}

// TestOutputCharDevice: -o onto a character device (a null device made
// with mknod in a temporary directory) writes into it and leaves it a
// device; onto a full device (1,7), the write error names the user's path.
func TestOutputCharDevice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("device numbers are Linux's")
	}
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	null := mknodChar(t, dir, "null", 1, 3)
	if r := runToon(t, dir, nil, "u.json", "-o", "null"); r.code != 0 || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	fi, err := os.Lstat(null)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("the device was replaced: %v %v", fi.Mode(), err)
	}
	mknodChar(t, dir, "full", 1, 7)
	r := runToon(t, dir, nil, "u.json", "-o", "full")
	if r.code != 1 || r.stderr != "toon: write full: no space left on device\n" {
		t.Fatalf("%+v", r)
	}
	noTemp(t, dir)
}

// TestOutputSocket: -o onto a Unix socket connects to it and writes.
func TestOutputSocket(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	sock := filepath.Join(dir, "out.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(c)
		c.Close()
		got <- string(b)
	}()
	if r := runToon(t, dir, nil, "u.json", "-o", "out.sock"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("the socket was replaced: %v %v", fi.Mode(), err)
	}
	if s := receive(t, got); s != usersOut {
		t.Fatalf("read from the socket: %q", s)
	}
}

// TestOutputSymlink: -o onto a symbolic link replaces the file it leads
// to, through relative links and a link to a link, and keeps the links; a
// dangling link gets its target made.
func TestOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := write(t, dir, "sub/real.toon", "old")
	if err := os.Symlink("sub/real.toon", filepath.Join(dir, "link1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("link1", filepath.Join(dir, "link2")); err != nil {
		t.Fatal(err)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "link2"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	for _, l := range []string{"link1", "link2"} {
		fi, err := os.Lstat(filepath.Join(dir, l))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v", l, err)
		}
	}
	if s := readFile(t, target); s != usersOut {
		t.Fatalf("target: %q", s)
	}
	noTemp(t, dir)
	noTemp(t, filepath.Join(dir, "sub"))

	if err := os.Symlink("sub/new.toon", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "dangling"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if s := readFile(t, filepath.Join(dir, "sub", "new.toon")); s != usersOut {
		t.Fatalf("dangling link's target: %q", s)
	}
}

// TestOutputHardLink: a file with two links is rewritten in place, so both
// names still share it; a failed conversion leaves it as it was.
func TestOutputHardLink(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	write(t, dir, "bad.json", `{"a":`)
	a := write(t, dir, "a.toon", strings.Repeat("old text that is longer than the new\n", 10))
	b := filepath.Join(dir, "b.toon")
	if err := os.Link(a, b); err != nil {
		t.Skipf("link: %v", err)
	}
	before, _ := os.Stat(a)
	if r := runToon(t, dir, nil, "bad.json", "-o", "b.toon"); r.code != 1 {
		t.Fatalf("%+v", r)
	}
	if s := readFile(t, a); !strings.HasPrefix(s, "old text") {
		t.Fatalf("a failed conversion changed the file: %q", s)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "b.toon"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if sa, sb := readFile(t, a), readFile(t, b); sa != usersOut || sb != usersOut {
		t.Fatalf("a %q, b %q", sa, sb)
	}
	after, _ := os.Stat(a)
	if !os.SameFile(before, after) || linkCount(after) != 2 {
		t.Fatalf("the links no longer share the file")
	}
	noTemp(t, dir)
}

// TestOutputMode: a replaced file keeps its mode (0600 stays 0600, not
// readable by others); a new file gets 0666 less the umask (077: 0600).
func TestOutputMode(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	p := write(t, dir, "private.toon", "old")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "private.toon"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 || readFile(t, p) != usersOut {
		t.Fatalf("mode %v after replacing a 0600 file", fi.Mode())
	}
	for _, c := range []struct {
		umask string
		want  os.FileMode
	}{{"077", 0o600}, {"022", 0o644}, {"002", 0o664}} {
		name := "new" + c.umask + ".toon"
		cmd := exec.Command("sh", "-c", "umask "+c.umask+" && exec \"$0\" u.json -o "+name, toonBin)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("umask %s: %v %s", c.umask, err, out)
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != c.want {
			t.Fatalf("umask %s: new file mode %v, want %v (%v)", c.umask, fi.Mode().Perm(), c.want, err)
		}
	}
}

// TestOutputOwner: a replaced file keeps its owner and group (only root
// may give a file to another user, so the test needs root).
func TestOutputOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another owner needs root")
	}
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	p := write(t, dir, "owned.toon", "old")
	if err := os.Chown(p, 1234, 5678); err != nil {
		t.Skipf("chown: %v", err)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "owned.toon"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 1234 || st.Gid != 5678 {
		t.Fatalf("owner %d:%d, want 1234:5678", st.Uid, st.Gid)
	}
}

// TestOutputErrorsNameThePath: errors about the output name the user's
// path, never the temporary file's.
func TestOutputErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	r := runToon(t, dir, nil, "u.json", "-o", "missing/x.toon")
	if r.code != 1 || r.stderr != "toon: open missing/x.toon: no such file or directory\n" {
		t.Fatalf("%+v", r)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runToon(t, dir, nil, "u.json", "-o", "d"); r.code != 1 || r.stderr != "toon: open d: is a directory\n" {
		t.Fatalf("%+v", r)
	}
	if os.Geteuid() != 0 { // root may write anything
		p := write(t, dir, "ro.toon", "old")
		os.Chmod(p, 0o444)
		if r := runToon(t, dir, nil, "u.json", "-o", "ro.toon"); r.code != 1 || r.stderr != "toon: open ro.toon: permission denied\n" {
			t.Fatalf("%+v", r)
		}
		if readFile(t, p) != "old" {
			t.Fatal("a read-only file was replaced")
		}
	}
	noTemp(t, dir)
}

// TestInterrupt: SIGINT or SIGTERM in the middle of a conversion to a file
// removes the temporary file, leaves no output file, and ends the command
// by the signal. The input comes through a pipe that the test holds open,
// so the conversion is surely under way, its temporary file written to,
// when the signal is sent.
func TestInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(toonBin, "-d", "-o", "out.json")
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
			doc.WriteString("rows[1000000]{id,name}:\n")
			for i := 0; i < 50000; i++ {
				doc.WriteString("  1,some name\n")
			}
			if _, err := io.WriteString(in, doc.String()); err != nil {
				t.Fatal(err)
			}
			// Wait for the temporary file to hold output.
			deadline := time.Now().Add(20 * time.Second)
			for {
				ents, _ := os.ReadDir(dir)
				if len(ents) == 1 && strings.HasSuffix(ents[0].Name(), ".tmp") {
					if fi, err := ents[0].Info(); err == nil && fi.Size() > 0 {
						break
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("no temporary output appeared: %v", ents)
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

// TestWriteErrors: -h, --version, toon split -h and a conversion fail with status 1 when
// standard output cannot be written (/dev/full), and say why.
func TestWriteErrors(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("/dev/full: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	for _, args := range [][]string{{"-h"}, {"--help"}, {"--version"}, {"u.json"}, {"split", "-h"}, {"split", "--help"}} {
		cmd := exec.Command(toonBin, args...)
		cmd.Dir = dir
		cmd.Stdout = full
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v: %v, stderr %q", args, err, stderr.String())
		}
	}
}
