//go:build !linux

package ordered

import "time"

// cpuClock is nil where the process's CPU time is not read: the governor
// then goes by the rates of its epochs alone.
var cpuClock func() time.Duration

// spareCPUs returns nil where the machine's runnable threads are not
// read: the governor then probes the workers whatever the load.
func spareCPUs() func() int { return nil }
