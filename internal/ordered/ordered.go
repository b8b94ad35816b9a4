// Package ordered is the pipeline under the parallel paths of the toon and
// convert packages: jobs are sent in order, made by worker goroutines, and
// taken back in the order they were sent. While the caller waits for the
// oldest job, it makes a job no worker has taken yet itself, so that jobs
// go on being made when the workers' threads get no CPU. A governor
// (governor.go) measures whether the workers make the pipeline faster and
// leaves the jobs to the caller alone while they do not. A panic while a
// job is made is kept with the job and raised again on the caller's
// goroutine by End, once every worker has ended.
package ordered

import (
	"sync"
	"sync/atomic"
	"time"
)

// Job is the part of a job the pipeline uses; a job type embeds it.
type Job struct {
	panic any // a panic while the job was made
	done  chan struct{}
	taken atomic.Bool // set by the goroutine that makes it: a worker, or the caller
	// serial: the governor left the job to the caller; probe: it was sent
	// in a probe; last: it is the last of its epoch (governor.go).
	serial, probe, last bool
}

// Ordered returns j: a type that embeds Job has the method too, which is
// how the pipeline finds the Job of a job.
func (j *Job) Ordered() *Job { return j }

// Pipeline is one run of the pipeline, used by the caller's goroutine only.
type Pipeline[J interface{ Ordered() *Job }] struct {
	ahead   int // jobs in flight past the oldest before the caller waits
	workers int // the goroutines making jobs, the caller included
	// maker returns a function that makes a job, with state of its own:
	// one per worker, and one for the caller when it first helps. It is
	// called on the caller's goroutine.
	maker func() func(J)

	jobs     chan J
	stop     chan struct{}
	wg       sync.WaitGroup
	pending  []J // sent, not yet taken back, oldest first
	started  int
	help     func(J) // the caller's, once it has helped
	panicked any
	gov      governor
}

// New returns a pipeline for workers goroutines (the caller
// included), with up to 2*workers jobs in flight past the oldest.
func New[J interface{ Ordered() *Job }](workers int, maker func() func(J)) *Pipeline[J] {
	return NewAhead(workers, 2*workers, maker)
}

// NewAhead is New with up to ahead jobs in flight past the oldest (at
// least 1). A wider window lets the caller make more jobs while a worker
// whose thread gets no CPU holds the oldest, at the cost of the memory of
// the jobs in flight.
func NewAhead[J interface{ Ordered() *Job }](workers, ahead int, maker func() func(J)) *Pipeline[J] {
	ahead = max(ahead, 1)
	return &Pipeline[J]{
		ahead:   ahead,
		workers: workers,
		maker:   maker,
		jobs:    make(chan J, ahead+2),
		stop:    make(chan struct{}),
		gov:     newGovernor(time.Now, cpuClock, spareSource()),
	}
}

// spareSource returns what the governor of a new pipeline reads the
// machine's spare CPUs with, or nil where they are not read.
var spareSource = spareCPUs

// IgnoreLoad makes the pipelines made from then on ignore the machine's
// load: their workers run first, and are probed, however busy the
// machine is. The tests of the packages built on the pipeline call it in
// TestMain, before any pipeline is made, so that their parallel paths run
// workers while the other packages' tests keep the machine busy.
func IgnoreLoad() { spareSource = func() func() int { return nil } }

// Send hands j to the workers, starting one while fewer than workers-1
// (at least one) have been started, or, when the governor says the
// workers do not help, leaves it to the caller, who makes it in Next.
func (o *Pipeline[J]) Send(j J) {
	b := j.Ordered()
	b.done = make(chan struct{})
	b.serial, b.probe, b.last = o.gov.send()
	o.pending = append(o.pending, j)
	if b.serial {
		return
	}
	if o.started < max(o.workers-1, 1) { // the caller is one of the workers (help)
		o.started++
		o.wg.Add(1)
		go o.worker(o.maker())
	}
	o.jobs <- j
}

// Full reports whether more than ahead jobs are in flight past the oldest,
// or the next job must wait until none is (a probe is timed alone, and a
// run of the caller alone may end with a reading of the machine's load:
// governor.hold).
func (o *Pipeline[J]) Full() bool {
	return len(o.pending) > o.ahead || len(o.pending) > 0 && o.gov.hold()
}

// Idle reports whether no job is in flight.
func (o *Pipeline[J]) Idle() bool { return len(o.pending) == 0 }

// Next waits for the oldest job to be made, making others meanwhile, and
// takes it back. It reports false when making it panicked: the panic is
// raised again by End.
func (o *Pipeline[J]) Next() (J, bool) {
	j := o.pending[0]
	b := j.Ordered()
wait:
	for {
		select {
		case <-b.done:
			break wait
		default:
		}
		helped := false
		for _, h := range o.pending {
			if hb := h.Ordered(); hb.taken.CompareAndSwap(false, true) {
				if o.help == nil {
					o.help = o.maker()
				}
				make1(o.help, h)
				close(hb.done)
				helped = true
				break
			}
		}
		if !helped {
			<-b.done
			break
		}
	}
	o.pending = o.pending[1:]
	if b.last {
		o.gov.took(b.serial, b.probe)
	}
	if b.panic != nil {
		o.panicked = b.panic
		return j, false
	}
	return j, true
}

// End stops the workers and waits for them to end; it raises again the
// panic Next found. The caller defers it.
func (o *Pipeline[J]) End() {
	close(o.stop)
	close(o.jobs)
	o.wg.Wait()
	if o.panicked != nil {
		panic(o.panicked)
	}
}

// worker makes the jobs it takes from jobs until jobs is closed; once
// stop is closed it only hands them back.
func (o *Pipeline[J]) worker(mk func(J)) {
	defer o.wg.Done()
	for j := range o.jobs {
		b := j.Ordered()
		if !b.taken.CompareAndSwap(false, true) {
			continue // the caller took it
		}
		select {
		case <-o.stop:
		default:
			make1(mk, j)
		}
		close(b.done)
	}
}

// make1 makes j with mk, keeping a panic with j.
func make1[J interface{ Ordered() *Job }](mk func(J), j J) {
	defer func() {
		if v := recover(); v != nil {
			j.Ordered().panic = v
		}
	}()
	mk(j)
}
