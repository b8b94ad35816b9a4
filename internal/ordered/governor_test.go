package ordered

import (
	"sync/atomic"
	"testing"
	"time"
)

// simulated is a governor on a clock of its own, where a job takes a
// fixed time in each mode, the jobs taken back as soon as they are sent,
// and the process uses cpus CPUs while the workers run (one while the
// caller is alone).
type simulated struct {
	g                governor
	clock            time.Time
	cpuTime          time.Duration
	parallel, serial time.Duration // a job's time in each mode
	cpus             float64
	startup          time.Duration // added to the first job's time
}

func newSimulated(parallel, serial time.Duration) *simulated {
	s := &simulated{clock: time.Unix(0, 0), parallel: parallel, serial: serial, cpus: 2}
	s.g = newGovernor(func() time.Time { return s.clock }, func() time.Duration { return s.cpuTime })
	return s
}

// run sends n jobs and returns how many the governor left to the caller.
func (s *simulated) run(n int) (serial int) {
	for range n {
		ser, probe, last := s.g.send()
		s.clock = s.clock.Add(s.startup)
		s.cpuTime += s.startup
		s.startup = 0
		if ser {
			serial++
			s.clock = s.clock.Add(s.serial)
			s.cpuTime += s.serial
		} else {
			s.clock = s.clock.Add(s.parallel)
			s.cpuTime += time.Duration(float64(s.parallel) * s.cpus)
		}
		if last {
			s.g.took(ser, probe)
		}
	}
	return serial
}

// TestGovernorChooses checks the share of jobs the governor leaves to the
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
		for _, cpu := range []bool{true, false} {
			const jobs = 400 * epochJobs
			s := newSimulated(c.parallel, c.serial)
			if !cpu {
				s.g.cpu = nil
			}
			share := float64(s.run(jobs)) / jobs
			if share < c.minSerial || share > c.maxSerial {
				t.Errorf("%s (CPU time read: %v): %.1f%% of the jobs serial, want %.0f%% to %.0f%%", c.name, cpu, 100*share, 100*c.minSerial, 100*c.maxSerial)
			}
		}
	}
}

// TestGovernorFirstEpochNotTimed: the first epoch, which pays for
// starting the workers, does not make the caller alone seem faster than
// workers that are twice as fast.
func TestGovernorFirstEpochNotTimed(t *testing.T) {
	s := newSimulated(500*time.Microsecond, time.Millisecond)
	s.startup = 40 * time.Millisecond // the workers' first epoch seems ten times slower than the caller's
	const n = 11 * epochJobs
	if got := s.run(n); got > epochJobs {
		t.Fatalf("%d of the first %d jobs serial, want the probe's %d at most", got, n, epochJobs)
	}
}

// TestGovernorReadsCPUTime checks the governor's use of the process's CPU
// time: workers that seem a little faster (the noise of a busy machine)
// while the process uses one CPU are left, workers that use a second CPU
// are kept, and so are workers that wait rather than compute, when they
// are clearly faster.
func TestGovernorReadsCPUTime(t *testing.T) {
	cases := []struct {
		name             string
		parallel, serial time.Duration
		cpus             float64
		minSerial        float64
		maxSerial        float64
	}{
		{"a little faster on one CPU", 950 * time.Microsecond, time.Millisecond, 1, 0.85, 1},
		{"a little faster on two CPUs", 950 * time.Microsecond, time.Millisecond, 1.9, 0, 0.12},
		{"waiting, twice as fast", 500 * time.Microsecond, time.Millisecond, 0.6, 0, 0.12},
	}
	for _, c := range cases {
		const jobs = 400 * epochJobs
		s := newSimulated(c.parallel, c.serial)
		s.cpus = c.cpus
		share := float64(s.run(jobs)) / jobs
		if share < c.minSerial || share > c.maxSerial {
			t.Errorf("%s: %.1f%% of the jobs serial, want %.0f%% to %.0f%%", c.name, 100*share, 100*c.minSerial, 100*c.maxSerial)
		}
	}
}

// TestGovernorFollowsChange checks that the governor turns to the caller
// alone when the workers stop helping half way, and back when they help
// again.
func TestGovernorFollowsChange(t *testing.T) {
	s := newSimulated(500*time.Microsecond, time.Millisecond)
	const n = 200 * epochJobs
	if got := s.run(n); got > n/8 {
		t.Fatalf("fast workers: %d of %d jobs serial", got, n)
	}
	s.parallel = 3 * time.Millisecond // the workers' threads get no CPU
	if got := s.run(n); got < n*3/4 {
		t.Fatalf("starved workers: %d of %d jobs serial", got, n)
	}
	// Workers that get faster are found at the next probe, at most maxRun
	// epochs on.
	s.parallel = 500 * time.Microsecond
	if got := s.run(n); got > maxRun*epochJobs+n/8 {
		t.Fatalf("fast workers again: %d of %d jobs serial", got, n)
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
// leave most jobs to the caller. With a worker that waits rather than
// computes and makes a job in half the caller's time, it must keep the
// worker busy. (The worker's sleeps end late on a busy machine, by a
// millisecond or more: with a worker only as fast as the caller, the
// workers are then no faster, and the governor may rightly leave them.)
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
	if share := run(time.Millisecond, 2*time.Millisecond); share < 0.3 {
		t.Errorf("worker twice as fast as the caller: it made %.0f%% of the jobs, want at least 30%%", 100*share)
	}
}

// TestProbeOfWorkersTimedAlone checks that a probe of the workers is sent
// with no other job in flight and that no job follows it before it is
// taken back: the caller alone wins here (the worker is slow), so the
// workers are probed after runs of the caller alone, whose jobs are sent
// ahead too.
func TestProbeOfWorkersTimedAlone(t *testing.T) {
	o := New(2, func() func(*napJob) {
		return func(j *napJob) { spin(50 * time.Microsecond) }
	})
	// The caller alone is twice as fast: a simulated clock (the
	// governor's time and CPU time) advances by a job's time in each
	// mode, as simulated does.
	var clock time.Time
	var cpu time.Duration
	o.gov.now = func() time.Time { return clock }
	o.gov.cpu = func() time.Duration { return cpu }
	isProbe := func(j *napJob) bool { b := j.Ordered(); return b.probe && !b.serial }
	probes := 0
	for range 400 * epochJobs {
		j := &napJob{}
		o.Send(j)
		if isProbe(j) {
			for _, p := range o.pending {
				if !isProbe(p) {
					t.Fatalf("a probe of the workers was sent with a job of another epoch in flight")
				}
			}
			if j.last {
				probes++
			}
		} else if len(o.pending) > 1 && isProbe(o.pending[len(o.pending)-2]) {
			t.Fatalf("a job was sent before the probe of the workers in flight was taken back")
		}
		for o.Full() {
			j, _ := o.Next()
			if j.serial {
				clock = clock.Add(time.Millisecond)
				cpu += time.Millisecond
			} else {
				clock = clock.Add(2 * time.Millisecond)
				cpu += 2 * time.Millisecond
			}
		}
	}
	for !o.Idle() {
		o.Next()
	}
	o.End()
	if probes < 3 {
		t.Fatalf("%d probes of the workers, want at least 3", probes)
	}
}
