package ordered

import (
	"fmt"
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
	workerStartup    time.Duration // added to the time of the first job the workers make
}

func newSimulated(parallel, serial time.Duration) *simulated {
	s := &simulated{clock: time.Unix(0, 0), parallel: parallel, serial: serial, cpus: 2}
	s.g = newGovernor(func() time.Time { return s.clock }, func() time.Duration { return s.cpuTime }, nil)
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
			s.clock = s.clock.Add(s.workerStartup)
			s.cpuTime += s.workerStartup
			s.workerStartup = 0
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

// TestGovernorSpare checks the use of the machine's spare CPUs: with none
// to spare, the workers are neither run first nor probed, however fast
// they would be; once a CPU is spare, they are probed and kept at once,
// although their first epoch pays for starting them.
func TestGovernorSpare(t *testing.T) {
	spare := 0
	s := newSimulated(500*time.Microsecond, time.Millisecond)
	s.g = newGovernor(s.g.now, s.g.cpu, func() int { return spare })
	const n = 100 * epochJobs
	if got := s.run(n); got != n {
		t.Fatalf("no CPU to spare: %d of %d jobs serial, want all", got, n)
	}
	spare = 1
	s.workerStartup = 40 * time.Millisecond // the workers' first epoch seems ten times slower than the caller's
	// The caller's run ends within minRun epochs; then the workers'
	// probe wins, and a probe of the caller alone follows each of their
	// runs (of 2, 8 and 32 epochs, and of 64 after that).
	if got, most := s.run(n), (minRun+4)*epochJobs; got > most {
		t.Fatalf("a CPU to spare: %d of %d jobs serial, want at most %d", got, n, most)
	}
	// The readings are made while the caller runs alone: a machine that
	// gets busy while the workers run is found by their CPU time (noCPU),
	// here for workers that seem a little faster on one CPU.
	spare = 0
	s.parallel, s.cpus = 950*time.Microsecond, 1
	if got := s.run(n); got < n*3/4 {
		t.Fatalf("busy again: %d of %d jobs serial", got, n)
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

// TestPipelineSpare runs a pipeline on a machine with no CPU to spare,
// then with one: no job goes to a worker until a reading made at the end
// of a run of the caller alone finds the CPU, and then the workers run
// within the next epochs.
func TestPipelineSpare(t *testing.T) {
	var spare atomic.Int64
	o := New(2, func() func(*napJob) {
		return func(j *napJob) { spin(20 * time.Microsecond) }
	})
	o.gov = newGovernor(time.Now, cpuClock, func() int { return int(spare.Load()) })
	defer func() {
		for !o.Idle() {
			o.Next()
		}
		o.End()
	}()
	toWorkers := 0
	sendEpochs := func(n int) {
		for range n * epochJobs {
			j := &napJob{}
			o.Send(j)
			if !j.serial {
				toWorkers++
			}
			for o.Full() {
				o.Next()
			}
		}
	}
	sendEpochs(20)
	if toWorkers != 0 {
		t.Fatalf("no CPU to spare: %d jobs sent to the workers", toWorkers)
	}
	spare.Store(1)
	sendEpochs(minRun + 2) // the caller's run ends; the workers' probe follows it
	if toWorkers == 0 {
		t.Fatalf("a CPU to spare: no job sent to the workers in %d epochs", minRun+2)
	}
}

// TestProbesTimedAlone checks that a probe is timed alone: it is sent
// with no job of another epoch in flight, and no job follows it before it
// is taken back. When the caller alone is faster, the workers are probed
// after runs of the caller alone, whose jobs are sent ahead too; when the
// workers are faster, the caller alone is probed between runs of theirs.
// Each case runs with the load ignored, and with a CPU always to spare
// (the pipeline then starts with the caller alone, and the workers' first
// probe is one epoch longer).
func TestProbesTimedAlone(t *testing.T) {
	for _, c := range []struct {
		name             string
		serial, parallel time.Duration // a job's time in each mode
		probeSerial      bool          // the probes counted: of the caller alone, or of the workers
	}{
		{"caller alone faster", time.Millisecond, 2 * time.Millisecond, false},
		{"workers faster", 2 * time.Millisecond, time.Millisecond, true},
	} {
		for _, spare := range []func() int{nil, func() int { return 1 }} {
			name := fmt.Sprintf("%s (spare read: %v)", c.name, spare != nil)
			o := New(2, func() func(*napJob) {
				return func(j *napJob) { spin(50 * time.Microsecond) }
			})
			// A simulated clock (the governor's time and CPU time)
			// advances by a job's time in each mode, as simulated does.
			var clock time.Time
			var cpu time.Duration
			o.gov = newGovernor(func() time.Time { return clock }, func() time.Duration { return cpu }, spare)
			probes := 0
			for range 400 * epochJobs {
				j := &napJob{}
				o.Send(j)
				for _, p := range o.pending[:len(o.pending)-1] {
					pb := p.Ordered()
					if j.probe && !(pb.probe && pb.serial == j.serial) {
						t.Fatalf("%s: a probe (serial: %v) was sent with a job of another epoch in flight", name, j.serial)
					}
					if !j.probe && pb.probe {
						t.Fatalf("%s: a job was sent before the probe in flight (serial: %v) was taken back", name, pb.serial)
					}
				}
				if j.probe && j.last && j.serial == c.probeSerial {
					probes++
				}
				for o.Full() {
					j, _ := o.Next()
					d := c.parallel
					if j.serial {
						d = c.serial
					}
					clock = clock.Add(d)
					cpu += d
				}
			}
			for !o.Idle() {
				o.Next()
			}
			o.End()
			if probes < 3 {
				t.Fatalf("%s: %d probes (serial: %v), want at least 3", name, probes, c.probeSerial)
			}
		}
	}
}
