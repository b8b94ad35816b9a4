package ordered

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestGovernorChooses runs the governor on a clock where a job takes a
// fixed time in each mode, and checks the share of jobs left to the
// caller: small when the workers are faster, large when they are slower.
func TestGovernorChooses(t *testing.T) {
	cases := []struct {
		name             string
		parallel, serial time.Duration // a job's time in each mode
		minSerial        float64       // the least and most share of serial jobs
		maxSerial        float64
	}{
		{"workers twice as fast", 500 * time.Microsecond, time.Millisecond, 0, 0.12},
		{"workers a little faster", 900 * time.Microsecond, time.Millisecond, 0, 0.12},
		{"workers slower", 1100 * time.Microsecond, time.Millisecond, 0.85, 1},
		{"workers much slower", 5 * time.Millisecond, time.Millisecond, 0.85, 1},
	}
	for _, c := range cases {
		clock := time.Unix(0, 0)
		g := newGovernor(func() time.Time { return clock })
		const jobs = 400 * epochJobs
		serial := 0
		for range jobs {
			s, probe, last := g.send()
			if s {
				serial++
				clock = clock.Add(c.serial)
			} else {
				clock = clock.Add(c.parallel)
			}
			if last {
				g.took(s, probe)
			}
		}
		share := float64(serial) / jobs
		if share < c.minSerial || share > c.maxSerial {
			t.Errorf("%s: %.1f%% of the jobs serial, want %.0f%% to %.0f%%", c.name, 100*share, 100*c.minSerial, 100*c.maxSerial)
		}
	}
}

// TestGovernorFollowsChange checks that the governor turns to the caller
// alone when the workers stop helping half way, and back when they help
// again.
func TestGovernorFollowsChange(t *testing.T) {
	clock := time.Unix(0, 0)
	g := newGovernor(func() time.Time { return clock })
	par := 500 * time.Microsecond
	count := func(n int) (serial int) {
		for range n {
			s, probe, last := g.send()
			if s {
				serial++
				clock = clock.Add(time.Millisecond)
			} else {
				clock = clock.Add(par)
			}
			if last {
				g.took(s, probe)
			}
		}
		return serial
	}
	const n = 200 * epochJobs
	if s := count(n); s > n/8 {
		t.Fatalf("fast workers: %d of %d jobs serial", s, n)
	}
	par = 3 * time.Millisecond // the workers' threads get no CPU
	if s := count(n); s < n*3/4 {
		t.Fatalf("starved workers: %d of %d jobs serial", s, n)
	}
	// Workers that get faster are found at the next probe, at most maxRun
	// epochs on.
	par = 500 * time.Microsecond
	if s := count(n); s > maxRun*epochJobs+n/8 {
		t.Fatalf("fast workers again: %d of %d jobs serial", s, n)
	}
}

type napJob struct {
	Job
	byWorker bool
}

// spin keeps the CPU busy for d (a sleep that short lasts much longer).
func spin(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// TestPipelineLeavesSlowWorkers runs jobs that a worker makes slowly (as
// when its thread gets no CPU) and the caller quickly: the governor must
// leave most jobs to the caller. With jobs that take the same time on
// both, it must keep the worker busy.
func TestPipelineLeavesSlowWorkers(t *testing.T) {
	run := func(workerNap, callerWork time.Duration) float64 {
		makers := 0
		o := New(2, func() func(*napJob) {
			makers++
			if makers == 1 { // the worker's
				return func(j *napJob) { time.Sleep(workerNap); j.byWorker = true }
			}
			return func(j *napJob) { spin(callerWork) }
		})
		var byWorker atomic.Int64
		const jobs = 60 * epochJobs
		for range jobs {
			o.Send(&napJob{})
			for o.Full() {
				if j, _ := o.Next(); j.byWorker {
					byWorker.Add(1)
				}
			}
		}
		for !o.Idle() {
			if j, _ := o.Next(); j.byWorker {
				byWorker.Add(1)
			}
		}
		o.End()
		return float64(byWorker.Load()) / jobs
	}
	if share := run(4*time.Millisecond, 100*time.Microsecond); share > 0.1 {
		t.Errorf("slow worker: it made %.0f%% of the jobs, want at most 10%%", 100*share)
	}
	if share := run(2*time.Millisecond, 2*time.Millisecond); share < 0.3 {
		t.Errorf("worker as fast as the caller: it made %.0f%% of the jobs, want at least 30%%", 100*share)
	}
}
