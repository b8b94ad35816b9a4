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

// runnableAt returns the number of threads of the machine that run or
// wait to run, the caller's included, as the kernel counts them at the
// moment of reading the open /proc/loadavg fd: the number before the slash
// in its fourth field ("0.52 0.58 0.59 3/345 6789").
func runnableAt(fd int) (int, bool) {
	var buf [128]byte
	n, ok := readLoadavg(fd, &buf)
	if !ok {
		return 0, false
	}
	return parseRunnable(buf[:n])
}

// readLoadavg reads the line of the open /proc/loadavg fd (-1 if it could
// not be opened) into buf: one pread at offset 0, for which the kernel
// writes the line afresh.
func readLoadavg(fd int, buf *[128]byte) (int, bool) {
	if fd < 0 {
		return 0, false
	}
	n, err := unix.Pread(fd, buf[:], 0)
	return n, err == nil && n > 0
}

// loadavg is /proc/loadavg, opened by openLoadavg (fd is -1 if it could
// not be), and whether its count of runnable threads is the governor's to
// use (spareCPUs).
var loadavg struct {
	once   sync.Once
	fd     int
	usable bool
}

// openLoadavg opens /proc/loadavg at its first call, and decides once
// whether the governor reads it.
func openLoadavg() {
	loadavg.once.Do(func() {
		fd, err := unix.Open("/proc/loadavg", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			fd = -1
		}
		loadavg.fd = fd
		_, ok := runnableAt(fd)
		loadavg.usable = ok && onlineCPUs() == runtime.NumCPU()
	})
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
	r, rest, ok := leadingNumber(b[i:])
	if !ok || len(rest) == 0 || rest[0] != '/' {
		return 0, false
	}
	return r, true
}

// spareCPUs returns the governor's spare (spareNow), or nil where it is
// not read: where /proc/loadavg cannot be read, and where the process may
// run on fewer CPUs than the machine has online (a CPU set, as containers
// have). The count of runnable threads is the whole machine's, so such a
// process could find no CPU to spare although its own are free.
func spareCPUs() func() int {
	if openLoadavg(); !loadavg.usable {
		return nil
	}
	return spareNow
}

// spareNow returns the CPUs the process may run on (runtime.NumCPU) less
// the machine's runnable threads, the caller's included; a reading that
// fails counts every CPU as spare. /proc/loadavg is open (spareCPUs).
func spareNow() int {
	r, ok := runnableAt(loadavg.fd)
	if !ok {
		return runtime.NumCPU()
	}
	return runtime.NumCPU() - r
}

// onlineCPUs returns the number of the machine's online CPUs, from
// /sys/devices/system/cpu/online ("0-63", or "0-3,8-11"), or 0 if it
// cannot be read.
func onlineCPUs() int {
	var buf [256]byte
	fd, err := unix.Open("/sys/devices/system/cpu/online", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	n, err := unix.Read(fd, buf[:])
	unix.Close(fd)
	if err != nil || n <= 0 {
		return 0
	}
	return countCPUList(buf[:n])
}

// countCPUList returns the number of CPUs in a kernel CPU list ("0-3,8,10-11"
// followed by a line feed), or 0 if it is not one.
func countCPUList(b []byte) int {
	count := 0
	for len(b) > 0 && b[0] != '\n' {
		lo, rest, ok := leadingNumber(b)
		if !ok {
			return 0
		}
		hi := lo
		if len(rest) > 0 && rest[0] == '-' {
			if hi, rest, ok = leadingNumber(rest[1:]); !ok || hi < lo {
				return 0
			}
		}
		count += hi - lo + 1
		if len(rest) > 0 && rest[0] == ',' {
			rest = rest[1:]
		}
		b = rest
	}
	return count
}

// leadingNumber reads the decimal number of at most 9 digits at the start
// of b, and returns the bytes after it; ok is false if b starts with no
// digit.
func leadingNumber(b []byte) (n int, rest []byte, ok bool) {
	i := 0
	for ; i < len(b) && i < 9 && b[i]-'0' < 10; i++ {
		n = 10*n + int(b[i]-'0')
	}
	return n, b[i:], i > 0
}
