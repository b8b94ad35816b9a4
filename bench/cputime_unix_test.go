//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time used so far by the process, all threads
// (the garbage collector's included), or -1 if it is not known.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
