package ordered

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU returns the CPU time the process has used, all its threads'
// (the governor's cpu).
func processCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// cpuClock is processCPU, or nil if the clock cannot be read.
var cpuClock = func() func() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return nil
	}
	return processCPU
}()
