//go:build linux

package toon

import (
	"math/rand"
	"syscall"
	"testing"
)

// TestScanLineNoOverread places lines directly against inaccessible pages,
// ending at the first byte of one and starting right after another, so an
// implementation that reads a single byte outside its line faults and the
// test binary dies.
func TestScanLineNoOverread(t *testing.T) {
	data := guardedPage(t)
	page := len(data)
	impls := testedScanImpls()
	rng := rand.New(rand.NewSource(11))
	for n := 0; n <= 300; n++ {
		src := randomLine(rng, n, 8)
		end := data[page-n : page : page] // ends against the guard page after
		copy(end, src)
		start := data[:n:n] // starts against the guard page before
		copy(start, src)
		for _, d := range testDelims {
			checkScan(t, impls, end, d)
			checkScan(t, impls, start, d)
		}
	}
}

// guardedPage returns a page of memory between two inaccessible pages, so
// that a read of one byte before or after it faults and the test binary
// dies. The memory is unmapped when the test ends.
func guardedPage(t *testing.T) []byte {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, guard := range [][]byte{mem[:page], mem[2*page:]} {
		if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
			t.Skipf("mprotect: %v", err)
		}
	}
	return mem[page : 2*page]
}
