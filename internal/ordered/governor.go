package ordered

import "time"

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
// The workers run for two epochs, then the caller alone is probed for
// probeEpochs epochs; the faster mode (the probe's epochs against the
// run's last few) runs for the next run of epochs, then the other is
// probed again. A mode that wins again runs for a run four times as long
// (up to maxRun epochs), so that probing costs little when one mode is
// clearly better: over the 800 ranges of a 400 MB table, the caller alone
// makes three probes of 8 ranges when the workers keep winning. A run
// whose last epochs have become much slower than when it was chosen (the
// machine got busy) is cut short by a probe.

const (
	epochJobs   = 8  // jobs in an epoch
	probeEpochs = 1  // epochs in a probe
	maxRun      = 64 // the longest run of epochs between probes
	minRun      = 2
	growth      = 4 // a run after a mode won again is this much longer
	// margin is how much faster the other mode must have been to be
	// chosen: a probe is short, and its time is noisy.
	margin = 1.05
	// slowdown is how much slower a run's last epochs may become than
	// the rate it was chosen for before a probe is made at once.
	slowdown = 1.25
	recent   = 4 // the run's epochs its rate is measured over
)

type governor struct {
	// What send is sending: the mode of the epoch, whether it is a probe,
	// the jobs of the epoch sent so far, and the epochs left in the run or
	// the probe.
	serial, probe bool
	sent, left    int
	restart       bool // took chose another mode: a run of it starts at the next epoch

	best bool // the mode of the runs (serial or not)
	run  int  // the length of the next run, in epochs
	// The times of the run's last epochs (a ring), the rate the run was
	// chosen for, and the probe's epochs so far.
	times      [recent]float64
	ntimes     int
	chosen     float64
	probeTimes float64
	probeN     int

	last time.Time // when the last epoch ended, or the first job was sent
	// now returns the time (time.Now; a test's clock in tests).
	now func() time.Time
}

func newGovernor(now func() time.Time) governor {
	// The first run is two epochs of the workers'.
	return governor{left: 2, run: minRun, now: now}
}

// send returns the mode of the next job to send, whether it is a probe's,
// and whether it is the last job of its epoch.
func (g *governor) send() (serial, probe, last bool) {
	if g.last.IsZero() {
		g.last = g.now()
	}
	if g.sent == epochJobs {
		g.sent = 0
		g.next()
	}
	g.sent++
	return g.serial, g.probe, g.sent == epochJobs
}

// next chooses the mode of the next epoch: the run's until it ends, then
// the other mode's for a probe, then a run of the mode took chose.
func (g *governor) next() {
	if g.restart {
		g.restart = false
		g.serial, g.probe, g.left = g.best, false, g.run
		return
	}
	if g.left--; g.left > 0 {
		return
	}
	if !g.probe {
		g.serial, g.probe, g.left = !g.best, true, probeEpochs
		g.probeTimes, g.probeN = 0, 0
		return
	}
	g.serial, g.probe, g.left = g.best, false, g.run
}

// took records that the last job of an epoch has been taken back, with
// the mode and the phase (run or probe) it was sent in. When it ends a
// probe, took chooses the mode of the next run; send takes it up at the
// next epoch.
func (g *governor) took(serial, probe bool) {
	now := g.now()
	d := max(now.Sub(g.last).Seconds(), 1e-9)
	g.last = now
	switch {
	case probe:
		g.probeTimes += d
		if g.probeN++; g.probeN < probeEpochs {
			return
		}
		probeRate := probeEpochs * epochJobs / g.probeTimes
		runRate := g.runRate()
		if probeRate > runRate*margin {
			g.best, g.run, g.chosen = serial, minRun, probeRate
			g.ntimes = 0
		} else {
			g.run, g.chosen = min(growth*g.run, maxRun), runRate
		}
		if !g.probe && g.serial != g.best {
			g.restart = true // the run being sent is of the other mode
		}
	case serial == g.best:
		g.times[g.ntimes%recent] = d
		g.ntimes++
		if g.ntimes >= recent && !g.probe && g.runRate()*slowdown < g.chosen {
			// The run has become much slower: probe at once.
			g.left, g.chosen = 1, g.runRate()
		}
	}
	// Otherwise the epoch is of a run that took has ended.
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
