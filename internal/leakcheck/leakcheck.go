// Package leakcheck is test support: it checks that the goroutines a call
// started have ended.
package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Goroutines fails t unless the number of goroutines comes back to before
// (runtime.NumGoroutine before the calls) within two seconds: a goroutine
// that has been told to end may take a moment to do so.
func Goroutines(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines, %d before", n, before)
	}
}
