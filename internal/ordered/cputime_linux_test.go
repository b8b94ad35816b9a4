package ordered

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestParseRunnable reads the runnable threads from lines of
// /proc/loadavg, and rejects lines of another form.
func TestParseRunnable(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
		ok   bool
	}{
		{"0.52 0.58 0.59 3/345 6789\n", 3, true},
		{"10.00 9.00 8.00 123/4567 1", 123, true},
		{"0.00 0.00 0.00 0/1 1", 0, true},
		{"0.52 0.58 0.59 /345 6789", 0, false},
		{"0.52 0.58 0.59 3", 0, false},
		{"0.52 0.58 0.59 x/345 1", 0, false},
		{"0.52 0.58", 0, false},
		{"1 2 3 1234567890/5 1", 0, false},
		{"", 0, false},
	} {
		if got, ok := parseRunnable([]byte(c.line)); got != c.want || ok != c.ok {
			t.Errorf("parseRunnable(%q) = %d, %v, want %d, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// TestSpareCPUs checks the governor's spare on this machine: read where
// the process may run on every online CPU, and then at most NumCPU-1 (the
// reading counts the test's own thread); not read otherwise.
func TestSpareCPUs(t *testing.T) {
	spare := spareCPUs()
	if onlineCPUs() != runtime.NumCPU() {
		if spare != nil {
			t.Fatalf("spare read on %d of %d online CPUs", runtime.NumCPU(), onlineCPUs())
		}
		return
	}
	if spare == nil {
		t.Fatal("spare not read: /proc/loadavg could not be read")
	}
	if got := spare(); got > runtime.NumCPU()-1 {
		t.Errorf("spare() = %d, want at most NumCPU-1 = %d", got, runtime.NumCPU()-1)
	}
}

// TestLoadavgFresh checks that a pread of the open /proc/loadavg gives the
// line of the moment: its last field, the last process started, changes
// once a process is started.
func TestLoadavgFresh(t *testing.T) {
	last := func() string {
		var buf [128]byte
		openLoadavg()
		n, ok := readLoadavg(loadavg.fd, &buf)
		if !ok {
			t.Fatal("/proc/loadavg could not be read")
		}
		f := strings.Fields(string(buf[:n]))
		return f[len(f)-1]
	}
	before := last()
	if err := exec.Command("true").Run(); err != nil {
		t.Fatal(err)
	}
	if after := last(); after == before {
		t.Fatalf("the last process started is still %s after starting one", after)
	}
}

// TestCountCPUList counts the CPUs of kernel CPU lists.
func TestCountCPUList(t *testing.T) {
	for _, c := range []struct {
		list string
		want int
	}{
		{"0-63\n", 64},
		{"0\n", 1},
		{"0-3,8-11\n", 8},
		{"0,2,4-5", 4},
		{"", 0},
		{"3-1\n", 0},
		{"0-\n", 0},
		{"a\n", 0},
		{"0;1\n", 0},
	} {
		if got := countCPUList([]byte(c.list)); got != c.want {
			t.Errorf("countCPUList(%q) = %d, want %d", c.list, got, c.want)
		}
	}
}
