package ordered

import "sync"

// Pool holds what the jobs one goroutine made were made into (a buffer, a
// block of rows), once the caller has taken it back and is done with it,
// for the next jobs that goroutine makes: the memory it filled last is the
// likeliest to be in its core's cache still. (Memory handed out as jobs
// are sent rotates through every job in flight, and is out of the cache
// by the time it is filled again.) Get and Put may be called from any
// goroutine.
type Pool[T any] struct {
	mu   sync.Mutex
	free []T
}

// Get returns the value put last, and false if there is none.
func (p *Pool[T]) Get() (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var v T
	n := len(p.free)
	if n == 0 {
		return v, false
	}
	v, p.free = p.free[n-1], p.free[:n-1]
	return v, true
}

// Put gives v back, for a later Get.
func (p *Pool[T]) Put(v T) {
	p.mu.Lock()
	p.free = append(p.free, v)
	p.mu.Unlock()
}
