//go:build !linux

package tokencount

import "time"

// threadCPU is not available here; benchmarks report wall time only.
func threadCPU() time.Duration { return -1 }
