package ordered

import (
	"slices"
	"time"
)

// The governor decides, an epoch of jobs at a time, whether the pipeline
// hands jobs to the workers or leaves them all to the caller, from the
// rate at which each way has taken jobs back lately. Workers are not
// always faster: when the process gets no more than one CPU's time (other
// processes keep the other cores busy, and the scheduler shares CPU time
// between sessions or control groups rather than between threads), the
// workers' share only replaces the caller's, and the hand-overs and the
// caches the goroutines share make the same jobs cost more CPU time in
// all. The governor then runs the jobs on the caller alone, as a serial
// loop would, and tries the workers again now and then.
//
// An epoch is epochJobs jobs sent in one mode. Its time is measured when
// its last job is taken back: the time since the epoch before it ended.
// The workers run for two epochs (the first is not timed: it pays for
// starting them), then the caller alone is probed for an epoch; the
// faster mode (the probe's epochs against the run's last few) runs for
// the next run of epochs, then the other is probed again (the workers for
// two epochs); a probe is timed alone (hold). A mode that wins again runs
// for a run four times as long (up to maxRun epochs), so that probing
// costs little when one mode is clearly better: over the 800 ranges of a
// 400 MB table, the caller alone makes three probes of 8 ranges when the
// workers keep winning. A run whose last epochs have become much slower
// than when it was chosen (the machine got busy) is cut short by a probe.
//
// A short probe's rate is noisy on a busy machine, where the scheduler's
// time slices are as long as a probe; and when the process gets no more
// than one CPU's time, the workers lose by a few percent only, less than
// that noise. So the governor also reads the process's CPU time (cpu). A
// run of the workers is judged in windows of minWall: if in two windows in
// a row the process used less than minParallel CPUs on average and the
// workers were not clearly faster than the caller alone (by fastEnough),
// they got no CPU of their own, and the caller alone runs next, for a run
// four times as long each time this is found again (up to maxRun epochs)
// until a window of the workers passes the test. A probe of the workers
// that fails the test does not win either. (Workers that wait rather than
// compute use no CPU time; the rate test keeps them.)
//
// Where the machine's runnable threads can be counted (spare), the workers
// are not even tried while no CPU is free: the first run is then an epoch
// of the caller alone, and runs of the caller alone follow one another
// without a probe of the workers until a reading at the end of one of
// their epochs finds a CPU free (noSpare). Trying them costs a process
// that gets one CPU's time the start of the workers, their first touch of
// their memory, and the hand-overs of their epochs: a few percent of a run
// of half a second, which the CPU time can only find once it is spent. The
// workers' first epoch is then part of their first probe, which is one
// epoch longer.

const (
	epochJobs = 8 // jobs in an epoch
	// A probe of the caller alone is an epoch; one of the workers two,
	// since it starts with no job in flight (hold) and its first jobs
	// wait for a worker to wake (three, the first not timed, when the
	// workers have not run yet: probeEpochs).
	serialProbe, workersProbe = 1, 2
	maxRun                    = 64 // the longest run of epochs between probes
	minRun                    = 2
	growth                    = 4 // a run after a mode won again is this much longer
	// margin is how much faster the other mode must have been to be
	// chosen: a probe is short, and its time is noisy.
	margin = 1.05
	// slowdown is how much slower a run's last epochs may become than
	// the rate it was chosen for before a probe is made at once.
	slowdown = 1.25
	recent   = 4 // the run's epochs its rate is measured over

	// A workers' run's CPU time is judged a window of at least minWall
	// seconds at a time, and it takes starvedWindows windows in a row to
	// find that the workers get no CPU of their own (the first epochs of
	// a conversion, or a stall of the machine, can look like that too).
	minWall        = 0.04
	starvedWindows = 2
	minParallel    = 1.15 // CPUs the process must use on average in the workers' run
	fastEnough     = 1.3  // or the workers' rate must be this much the caller's alone
)

type governor struct {
	// What send is sending: the mode of the epoch, whether it is a probe,
	// the jobs of the epoch sent so far, and the epochs left in the run or
	// the probe.
	serial, probe bool
	sent, left    int
	restart       bool // took chose another mode: a run of it starts at the next epoch
	warm          bool // an epoch of the workers has been taken back
	begun         bool // an epoch has been taken back
	open          bool // a probe has been sent and not yet taken back

	best bool // the mode of the runs (serial or not)
	run  int  // the length of the next run, in epochs
	// The times of the run's last epochs (a ring), the rate the run was
	// chosen for, and the probe's epochs so far.
	times      [recent]float64
	ntimes     int
	chosen     float64
	probeTimes float64
	probeCPU   float64 // the probe's CPU time, when known (else negative)
	probeN     int

	last time.Time // when the last epoch ended, or the first job was sent
	// now returns the time (time.Now; a test's clock in tests).
	now func() time.Time

	// cpu returns the process's CPU time, all its threads' (nil where it
	// is not known). lastCPU is its value when the last epoch ended; the
	// workers' run since it started has lasted runWall seconds and used
	// runCPU seconds of CPU. serialTimes are the times of the last
	// epochs of the caller alone (a ring).
	cpu             func() time.Duration
	lastCPU         time.Duration
	runCPU, runWall float64
	runEpochs       int
	starved         int // windows in a row in which the workers got no CPU
	serialTimes     [recent]float64
	nserial         int
	vetoRun         int // the caller's run after the next such finding

	// spare returns how many CPUs of the machine no thread runs on or
	// waits for, beyond the caller's (nil where it is not known).
	// spares are its readings when the pipeline started and when the
	// last epochs of the caller alone ended (a ring).
	spare   func() int
	spares  [recent]int
	nspares int
}

func newGovernor(now func() time.Time, cpu func() time.Duration, spare func() int) governor {
	// The first run is two epochs of the workers'; or, when a first
	// reading finds no CPU to spare, one of the caller's alone, at whose
	// end another reading decides whether the workers are probed. (At a
	// command's start, the threads of the process and of its parent
	// starting often take a CPU for a moment: on an idle machine, the first
	// reading then costs an epoch of the caller alone.)
	g := governor{left: 2, run: minRun, now: now, cpu: cpu, vetoRun: minRun * growth, spare: spare}
	if spare != nil {
		g.readSpare()
		if g.noSpare() {
			g.serial, g.best, g.left = true, true, 1
		}
	}
	return g
}

// readSpare records a reading of spare.
func (g *governor) readSpare() {
	g.spares[g.nspares%recent] = g.spare()
	g.nspares++
}

// noSpare reports whether the machine had no CPU to spare for a worker
// lately, while the caller ran alone: none at any of the last readings. (A
// reading counts the threads that run or wait at that moment, the
// process's own included: its collector's, or its output's, may make a CPU
// seem taken for a moment, never free.) The workers are then not probed:
// on a machine whose CPUs are all busy, a worker's thread only gets CPU
// time that the scheduler takes from another thread, and when the process
// gets no more than one CPU's share it is the caller's. The probe would
// lose, or win on time the scheduler lends the process for a few
// milliseconds and takes back later; either way the process pays for
// starting the workers and for their memory. (Whether the process gets a
// CPU beyond the caller's, the readings cannot tell: noCPU judges that,
// once the workers run.)
func (g *governor) noSpare() bool {
	n := min(g.nspares, recent)
	if n == 0 {
		return false
	}
	return slices.Max(g.spares[:n]) < 1
}

// send returns the mode of the next job to send, whether it is a probe's,
// and whether it is the last job of its epoch.
func (g *governor) send() (serial, probe, last bool) {
	if g.last.IsZero() {
		g.last = g.now()
		if g.cpu != nil {
			g.lastCPU = g.cpu()
		}
	}
	if g.sent == epochJobs {
		g.sent = 0
		g.next()
	}
	g.sent++
	last = g.sent == epochJobs
	g.open = g.open || last && g.probe && g.left == 1
	return g.serial, g.probe, last
}

// probeLen returns the timed epochs of a probe of the caller alone
// (serial) or of the workers.
func probeLen(serial bool) int {
	if serial {
		return serialProbe
	}
	return workersProbe
}

// probeEpochs returns the epochs of a probe of the caller alone (serial) or
// of the workers: probeLen, and one more, not timed, for workers that have
// not run yet (took).
func (g *governor) probeEpochs(serial bool) int {
	if !serial && !g.warm {
		return workersProbe + 1
	}
	return probeLen(serial)
}

// hold reports whether the next job must wait until every job in flight
// has been taken back: a probe starts, or has been sent and not yet been
// taken back, or a run of the caller alone ends where the machine's spare
// CPUs are read (noSpare). So a probe is timed alone. Were jobs of the
// epoch before it still in flight, some of the probe's jobs would be made
// during that epoch (by the workers after a run of the caller alone, by
// the caller while it waits for the workers' last jobs), and the probe
// would seem faster. Were jobs of the next run sent before it is taken
// back, it would seem slower: after a probe of the caller alone, a worker
// would make them on the process's one CPU while the caller makes the
// probe's last jobs, and workers that share that CPU would then seem
// clearly faster than the caller alone (noCPU).
func (g *governor) hold() bool {
	if g.open {
		return true
	}
	if g.sent < epochJobs || g.probe {
		return false // the epoch goes on, or a probe does
	}
	if g.serial && g.left == 1 && g.spare != nil {
		// A run of the caller alone ends: whether the workers are
		// probed next depends on the reading made when its last epoch
		// is taken back. (Its jobs are the caller's to make anyway.)
		return true
	}
	_, probe, _ := g.following()
	return probe
}

// following returns the mode of the epoch after the current one, whether
// it is a probe's, and the epochs left in its run or probe counting it:
// the run's until it ends, then the other mode's for a probe (none of the
// workers when the machine has no CPU to spare: another run of the caller
// alone), then a run of the mode took chose (at once if took chose another
// mode).
func (g *governor) following() (serial, probe bool, left int) {
	switch {
	case g.restart:
		return g.best, false, g.run
	case g.left > 1:
		return g.serial, g.probe, g.left - 1
	case !g.probe:
		if g.best && g.noSpare() {
			return true, false, g.run // the caller alone runs on
		}
		return !g.best, true, g.probeEpochs(!g.best)
	}
	return g.best, false, g.run
}

// next moves on to the epoch following returns; a probe starts with no
// time measured.
func (g *governor) next() {
	probe := g.probe
	g.serial, g.probe, g.left = g.following()
	if g.probe && !probe {
		g.probeTimes, g.probeCPU, g.probeN = 0, 0, 0
	}
	g.restart = false
}

// took records that the last job of an epoch has been taken back, with
// the mode and the phase (run or probe) it was sent in. When it ends a
// probe, took chooses the mode of the next run; send takes it up at the
// next epoch.
func (g *governor) took(serial, probe bool) {
	now := g.now()
	d := max(now.Sub(g.last).Seconds(), 1e-9)
	g.last = now
	c := -1.0 // the epoch's CPU time, if known
	if g.cpu != nil {
		t := g.cpu()
		c = (t - g.lastCPU).Seconds()
		g.lastCPU = t
	}
	if serial && g.spare != nil {
		g.readSpare()
	}
	if !serial && !g.warm || !g.begun {
		// The workers' first epoch pays for starting them and for the
		// first touch of the memory of the jobs in flight, and the
		// pipeline's first, whoever makes it, for the first touch of
		// the maker's: neither stands for a rate.
		g.warm = g.warm || !serial
		g.begun = true
		return
	}
	if serial {
		g.serialTimes[g.nserial%recent] = d
		g.nserial++
	}
	switch {
	case probe:
		g.open = false
		g.probeTimes += d
		g.probeCPU += c
		if g.probeN++; g.probeN < probeLen(serial) {
			return
		}
		probeRate := float64(g.probeN*epochJobs) / g.probeTimes
		runRate := g.runRate()
		if probeRate > runRate*margin && (serial || !g.noCPU(g.probeCPU, g.probeTimes, probeRate)) {
			g.best, g.run, g.chosen = serial, minRun, probeRate
			g.ntimes = 0
			g.runCPU, g.runWall, g.runEpochs, g.starved = 0, 0, 0, 0 // a run of the workers starts, or ends
		} else {
			g.run, g.chosen = min(growth*g.run, maxRun), runRate
		}
		if !g.probe && g.serial != g.best {
			g.restart = true // the run being sent is of the other mode
		}
	case serial == g.best:
		g.times[g.ntimes%recent] = d
		g.ntimes++
		if !serial && c >= 0 {
			g.runCPU += c
			g.runWall += d
			g.runEpochs++
			if g.runWall >= minWall {
				starved := g.noCPU(g.runCPU, g.runWall, float64(g.runEpochs*epochJobs)/g.runWall)
				g.runCPU, g.runWall, g.runEpochs = 0, 0, 0
				if !starved {
					g.starved, g.vetoRun = 0, minRun*growth
				} else if g.starved++; g.starved == starvedWindows {
					// The workers got no CPU of their own: the
					// caller alone runs next, for longer each time.
					g.best, g.run, g.chosen = true, g.vetoRun, g.serialRate()
					g.vetoRun = min(growth*g.vetoRun, maxRun)
					g.ntimes, g.starved = 0, 0
					if !g.probe {
						g.restart = true
					}
					return
				}
			}
		}
		if g.ntimes >= recent && !g.probe && g.runRate()*slowdown < g.chosen {
			// The run has become much slower: probe at once.
			g.left, g.chosen = 1, g.runRate()
		}
	}
	// Otherwise the epoch is of a run that took has ended.
}

// noCPU reports whether workers that used cpu seconds of CPU in wall
// seconds, at rate jobs per second, got no CPU of their own: the process
// used less than minParallel CPUs, and the rate is not clearly above the
// caller's alone.
func (g *governor) noCPU(cpu, wall, rate float64) bool {
	return cpu >= 0 && cpu < minParallel*wall && rate < fastEnough*g.serialRate()
}

// serialRate returns the jobs per second of the fastest of the last
// epochs of the caller alone, or 0 before there was one. (The fastest: the
// epoch after a change of mode is slower, and on a busy machine a short
// epoch's rate is noisy; the rate is compared with that of workers that
// got no CPU of their own, which cannot beat the caller's best.)
func (g *governor) serialRate() float64 {
	n := min(g.nserial, recent)
	if n == 0 {
		return 0
	}
	return epochJobs / slices.Min(g.serialTimes[:n])
}

// runRate returns the jobs per second of the run's last epochs.
func (g *governor) runRate() float64 {
	n := min(g.ntimes, recent)
	if n == 0 {
		return 0
	}
	sum := 0.0
	for _, t := range g.times[:n] {
		sum += t
	}
	return float64(n*epochJobs) / sum
}
