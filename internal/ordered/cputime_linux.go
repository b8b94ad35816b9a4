package ordered

import (
	"runtime"
	"sync"
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

// runnable returns the number of threads of the machine that run or wait
// to run, the caller's included, as the kernel counts them at the moment of
// reading: the number before the slash in the fourth field of
// /proc/loadavg ("0.52 0.58 0.59 3/345 6789"). The file is opened at the
// first reading and kept open: a reading is then one pread at offset 0,
// for which the kernel writes the line afresh, into a buffer on the stack.
func runnable() (int, bool) {
	loadavg.once.Do(func() {
		fd, err := unix.Open("/proc/loadavg", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			fd = -1
		}
		loadavg.fd = fd
	})
	if loadavg.fd < 0 {
		return 0, false
	}
	var buf [128]byte
	n, err := unix.Pread(loadavg.fd, buf[:], 0)
	if err != nil || n <= 0 {
		return 0, false
	}
	return parseRunnable(buf[:n])
}

// loadavg is /proc/loadavg, open for runnable (fd is -1 if it could not
// be opened).
var loadavg struct {
	once sync.Once
	fd   int
}

// parseRunnable returns the number before the slash in the fourth field of
// a line of /proc/loadavg.
func parseRunnable(b []byte) (int, bool) {
	i := 0
	for f := 0; f < 3; i++ {
		if i == len(b) {
			return 0, false
		}
		if b[i] == ' ' {
			f++
		}
	}
	r, j := 0, i
	for ; j < len(b) && j-i < 9 && b[j]-'0' < 10; j++ {
		r = 10*r + int(b[j]-'0')
	}
	if j == i || j == len(b) || b[j] != '/' {
		return 0, false
	}
	return r, true
}

// spareCPUs is the governor's spare: the CPUs the process may run on
// (runtime.NumCPU) less the machine's runnable threads, the caller's
// included. The count is the whole machine's, so a process allowed fewer
// CPUs than a busy machine has may find none to spare although its own are
// free: the workers are then left alone, which costs that process their
// speed, never the serial speed. Where /proc/loadavg cannot be read, every
// CPU counts as spare, and the governor goes by the rates and the CPU time
// alone.
func spareCPUs() int {
	r, ok := runnable()
	if !ok {
		return runtime.NumCPU()
	}
	return runtime.NumCPU() - r
}
