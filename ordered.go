package toon

import (
	"sync"
	"sync/atomic"
)

// This file holds ordered, the pipeline under WriteRowsParallel and
// ParallelRows: jobs are sent in order, made by worker goroutines, and
// taken back in the order they were sent. While the caller waits for the
// oldest job, it makes a job no worker has taken yet itself, so that jobs
// go on being made when the workers' threads get no CPU. A panic while a
// job is made is kept with the job and raised again on the caller's
// goroutine by end, once every worker has ended.

// orderedJob is the part of a job the pipeline uses; a job type embeds it.
type orderedJob struct {
	panic any // a panic while the job was made
	done  chan struct{}
	taken atomic.Bool // set by the goroutine that makes it: a worker, or the caller
}

func (j *orderedJob) ordered() *orderedJob { return j }

// ordered is one run of the pipeline, used by the caller's goroutine only.
type ordered[J interface{ ordered() *orderedJob }] struct {
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
}

// newOrdered returns a pipeline for workers goroutines (the caller
// included), with up to 2*workers jobs in flight past the oldest.
func newOrdered[J interface{ ordered() *orderedJob }](workers int, maker func() func(J)) *ordered[J] {
	ahead := 2 * workers
	return &ordered[J]{
		ahead:   ahead,
		workers: workers,
		maker:   maker,
		jobs:    make(chan J, ahead+2),
		stop:    make(chan struct{}),
	}
}

// send hands j to the workers, starting one while fewer than workers-1
// (at least one) have been started.
func (o *ordered[J]) send(j J) {
	if o.started < max(o.workers-1, 1) { // the caller is one of the workers (help)
		o.started++
		o.wg.Add(1)
		go o.worker(o.maker())
	}
	j.ordered().done = make(chan struct{})
	o.pending = append(o.pending, j)
	o.jobs <- j
}

// full reports whether more than ahead jobs are in flight past the oldest.
func (o *ordered[J]) full() bool { return len(o.pending) > o.ahead }

// idle reports whether no job is in flight.
func (o *ordered[J]) idle() bool { return len(o.pending) == 0 }

// next waits for the oldest job to be made, making others meanwhile, and
// takes it back. It reports false when making it panicked: the panic is
// raised again by end.
func (o *ordered[J]) next() (J, bool) {
	j := o.pending[0]
	b := j.ordered()
wait:
	for {
		select {
		case <-b.done:
			break wait
		default:
		}
		helped := false
		for _, h := range o.pending {
			if hb := h.ordered(); hb.taken.CompareAndSwap(false, true) {
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
	if b.panic != nil {
		o.panicked = b.panic
		return j, false
	}
	return j, true
}

// end stops the workers and waits for them to end; it raises again the
// panic next found. The caller defers it.
func (o *ordered[J]) end() {
	close(o.stop)
	close(o.jobs)
	o.wg.Wait()
	if o.panicked != nil {
		panic(o.panicked)
	}
}

// worker makes the jobs it takes from jobs until jobs is closed; once
// stop is closed it only hands them back.
func (o *ordered[J]) worker(mk func(J)) {
	defer o.wg.Done()
	for j := range o.jobs {
		b := j.ordered()
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
func make1[J interface{ ordered() *orderedJob }](mk func(J), j J) {
	defer func() {
		if v := recover(); v != nil {
			j.ordered().panic = v
		}
	}()
	mk(j)
}
