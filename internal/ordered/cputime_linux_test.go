package ordered

import (
	"runtime"
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
		{"", 0, false},
	} {
		if got, ok := parseRunnable([]byte(c.line)); got != c.want || ok != c.ok {
			t.Errorf("parseRunnable(%q) = %d, %v, want %d, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// TestSpareCPUs reads /proc/loadavg twice: the reading counts the test's
// own thread, so at most NumCPU-1 CPUs are spare.
func TestSpareCPUs(t *testing.T) {
	if _, ok := runnable(); !ok {
		t.Fatal("/proc/loadavg could not be read")
	}
	if got := spareCPUs(); got > runtime.NumCPU()-1 {
		t.Errorf("spareCPUs() = %d, want at most NumCPU-1 = %d", got, runtime.NumCPU()-1)
	}
}
