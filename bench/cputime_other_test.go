//go:build !unix

package bench

import "time"

// processCPU is not known here: the benchmarks report wall time only.
func processCPU() time.Duration { return -1 }
