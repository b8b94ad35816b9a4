//go:build linux && !race

package ordered

import "testing"

// TestRunnableAllocs checks that a reading of the runnable threads, made
// at the end of every epoch of the caller alone, allocates nothing. (A
// -race build's instrumentation allocates.)
func TestRunnableAllocs(t *testing.T) {
	openLoadavg()
	if a := testing.AllocsPerRun(100, func() { spareNow() }); a != 0 {
		t.Errorf("spareNow allocates %.1f times a reading, want 0", a)
	}
}
