//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal: the command gets tty, the test reads what it
// writes there from master.
type pty struct {
	master, tty *os.File
	mu          sync.Mutex
	out         bytes.Buffer // what was read from master so far
	done        chan struct{}
}

// openPty opens a pseudo-terminal pair through /dev/ptmx and starts reading
// its master side.
func openPty(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		master.Close()
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	p := &pty{master: master, tty: tty, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil { // EIO once no process has the terminal open
				return
			}
		}
	}()
	t.Cleanup(func() {
		tty.Close()
		master.Close()
	})
	return p
}

func (p *pty) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// wait waits until the terminal's text contains s, and returns false if it
// does not within a long time.
func (p *pty) wait(s string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if strings.Contains(p.text(), s) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// finish closes the test's side of the terminal and returns all the
// command wrote there (the command must have ended).
func (p *pty) finish(t *testing.T) string {
	t.Helper()
	p.tty.Close()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal was not closed")
	}
	return p.text()
}

// bigJSON writes a JSON document whose TOON is a few megabytes.
func bigJSON(t *testing.T, dir string) (path string, size int64) {
	var b strings.Builder
	b.WriteString(`{"rows":[`)
	for i := 0; i < 100000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":` + strconv.Itoa(i) + `,"name":"user number ` + strconv.Itoa(i) + `"}`)
	}
	b.WriteString(`]}`)
	path = write(t, dir, "big.json", b.String())
	return path, int64(b.Len())
}

// barFrame is how every frame of the bar starts.
const barFrame = "\r["

// TestProgressToFile: with standard output and standard error on a
// terminal and -o, the bar is drawn on standard error, with the input's
// size as its total and the pass of the encoding, and its line is cleared
// at the end. The output goes into a FIFO that the test reads only once a
// frame has been drawn, so the conversion is still running then however
// fast the machine is. With --no-progress, no frame comes in the same time.
func TestProgressToFile(t *testing.T) {
	for _, noProgress := range []bool{false, true} {
		dir := t.TempDir()
		_, size := bigJSON(t, dir)
		fifo := filepath.Join(dir, "out.fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		p := openPty(t)
		args := []string{"big.json", "-o", "out.fifo"}
		if noProgress {
			args = append(args, "--no-progress")
		}
		cmd := exec.Command(toonBin, args...)
		cmd.Dir = dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = p.tty, p.tty, p.tty
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out, err := os.Open(fifo)
		if err != nil {
			t.Fatal(err)
		}
		if noProgress {
			time.Sleep(2 * progressDelay)
		} else if !p.wait(barFrame) {
			t.Fatalf("no bar drawn: %q", p.text())
		}
		n, _ := io.Copy(io.Discard, out)
		out.Close()
		if err := cmd.Wait(); err != nil || n < 1<<20 {
			t.Fatalf("%v after %d bytes", err, n)
		}
		text := p.finish(t)
		if noProgress {
			if text != "" {
				t.Fatalf("--no-progress: the terminal got %q", text)
			}
			continue
		}
		last := strings.LastIndex(text, barFrame)
		frame := text[last:]
		if !strings.Contains(frame, "/"+humanBytes(size)+" ") || !strings.Contains(frame, "pass 2/2") {
			t.Fatalf("frame %q: want the size %s and pass 2/2", frame, humanBytes(size))
		}
		if !strings.HasSuffix(text, "\r\033[K") {
			t.Fatalf("the bar's line is not cleared at the end: %q", text[max(0, len(text)-200):])
		}
	}
}

// TestProgressPipe: standard output in a pipe, standard error on a
// terminal: the bar is drawn. The test reads the pipe only once a frame
// has been drawn.
func TestProgressPipe(t *testing.T) {
	dir := t.TempDir()
	bigJSON(t, dir)
	p := openPty(t)
	cmd := exec.Command(toonBin, "big.json")
	cmd.Dir = dir
	cmd.Stderr = p.tty
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !p.wait(barFrame) {
		t.Fatalf("no bar drawn: %q", p.text())
	}
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if text := p.finish(t); !strings.HasSuffix(text, "\r\033[K") {
		t.Fatalf("the bar's line is not cleared: %q", text)
	}
}

// TestNoProgressOnSameTerminal: standard output and standard error on the
// same terminal: no bar, only the output, however long the conversion
// takes. The input comes through a pipe that the test keeps open past the
// bar's delay; the output is the decoded JSON alone.
func TestNoProgressOnSameTerminal(t *testing.T) {
	p := openPty(t)
	cmd := exec.Command(toonBin, "-d")
	cmd.Stdout, cmd.Stderr = p.tty, p.tty
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString("rows[4000]{id,name}:\n")
	for i := 0; i < 4000; i++ {
		doc.WriteString("  " + strconv.Itoa(i) + ",some name\n")
	}
	half := doc.Len() / 2
	io.WriteString(in, doc.String()[:half])
	time.Sleep(progressDelay + 5*progressTick)
	io.WriteString(in, doc.String()[half:])
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	text := p.finish(t)
	if strings.Contains(text, "\r[") || strings.Contains(text, " read ") || strings.Contains(text, "\033[K") {
		t.Fatalf("progress frames on the output's terminal: %q", text[:min(len(text), 300)])
	}
	// The terminal turns "\n" into "\r\n".
	if !strings.HasPrefix(text, `{"rows":[{"id":0,"name":"some name"}`) || !strings.HasSuffix(text, "}]}\r\n") {
		t.Fatalf("output %q ... %q", text[:min(len(text), 100)], text[max(0, len(text)-100):])
	}
}
