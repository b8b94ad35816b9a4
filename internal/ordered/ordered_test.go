package ordered

import (
	"os"
	"testing"
	"time"
)

type square struct {
	Job
	in, out int
}

// TestMain makes the pipelines of the tests ignore the machine's load
// (IgnoreLoad): their workers then run first, whatever else runs on the
// machine during the tests, which the tests of the pipeline rely on. The
// tests of the load's readings and of the governor's use of them give
// their own.
func TestMain(m *testing.M) {
	IgnoreLoad()
	os.Exit(m.Run())
}

// TestOrder sends jobs that finish out of order and checks that Next
// hands them back in the order they were sent, each made once.
func TestOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		made := make(chan int, 1000)
		o := New(workers, func() func(*square) {
			return func(j *square) {
				if j.in%3 == 0 {
					time.Sleep(time.Millisecond) // finish after later jobs
				}
				j.out = j.in * j.in
				made <- j.in
			}
		})
		want := 0
		take := func() {
			j, ok := o.Next()
			if !ok {
				t.Fatalf("workers %d: job %d panicked", workers, want)
			}
			if j.in != want || j.out != want*want {
				t.Fatalf("workers %d: got job %d (%d), want %d", workers, j.in, j.out, want)
			}
			want++
		}
		for i := range 200 {
			o.Send(&square{in: i})
			for o.Full() {
				take()
			}
		}
		for !o.Idle() {
			take()
		}
		o.End()
		if want != 200 || len(made) != 200 {
			t.Fatalf("workers %d: %d taken back, %d made, want 200", workers, want, len(made))
		}
	}
}

// TestCallerHelps blocks the only worker and checks that the caller
// makes the jobs itself: the worker is let go only once the caller has
// made two (or after five seconds, which fails the test).
func TestCallerHelps(t *testing.T) {
	block := make(chan struct{})
	helped := 0
	makers := 0
	o := New(2, func() func(*square) {
		makers++
		if makers == 1 { // the worker's
			return func(j *square) {
				select {
				case <-block:
				case <-time.After(5 * time.Second):
				}
				j.out = j.in * j.in
			}
		}
		return func(j *square) { // the caller's
			j.out = j.in * j.in
			if helped++; helped == 2 {
				close(block)
			}
		}
	})
	for i := range 3 {
		o.Send(&square{in: i})
	}
	for !o.Idle() {
		if j, _ := o.Next(); j.out != j.in*j.in {
			t.Fatalf("job %d made wrong: %d", j.in, j.out)
		}
	}
	o.End()
	if helped < 2 {
		t.Fatalf("the caller made %d of 3 jobs, want at least 2", helped)
	}
}

// TestPanic checks that a panic of a job is raised again by End, after
// Next reports the job as failed.
func TestPanic(t *testing.T) {
	o := New(2, func() func(*square) {
		return func(j *square) {
			if j.in == 1 {
				panic("boom")
			}
		}
	})
	for i := range 3 {
		o.Send(&square{in: i})
	}
	if _, ok := o.Next(); !ok {
		t.Fatal("job 0 reported as panicked")
	}
	if _, ok := o.Next(); ok {
		t.Fatal("job 1 panicked but Next reported it made")
	}
	defer func() {
		if v := recover(); v != "boom" {
			t.Fatalf("End raised %v, want boom", v)
		}
	}()
	o.End()
	t.Fatal("End did not raise the panic")
}

// TestAhead checks the window of jobs in flight: Full once more than
// ahead jobs are sent and not taken back. (The windows tested end before
// the first probe of the caller alone, the third epoch, starts: a probe is
// timed alone, so it waits for the jobs in flight to be taken back.)
func TestAhead(t *testing.T) {
	for _, ahead := range []int{1, 5, 15} {
		o := NewAhead(2, ahead, func() func(*square) { return func(j *square) { j.out = j.in * j.in } })
		n := 0
		for !o.Full() {
			o.Send(&square{in: n})
			n++
		}
		if n != ahead+1 {
			t.Fatalf("ahead %d: full after %d jobs", ahead, n)
		}
		for i := range n {
			if j, ok := o.Next(); !ok || j.in != i || j.out != i*i {
				t.Fatalf("ahead %d: job %d: %d, %d, %v", ahead, i, j.in, j.out, ok)
			}
		}
		o.End()
	}
}
