package ordered

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU returns the CPU time the process has used, all its threads'
// (the governor's cpu), and whether the clock could be read.
func processCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// cpuClock reads processCPU, or is nil if the clock cannot be read.
var cpuClock = func() func() time.Duration {
	if _, ok := processCPU(); !ok {
		return nil
	}
	return func() time.Duration { t, _ := processCPU(); return t }
}()
