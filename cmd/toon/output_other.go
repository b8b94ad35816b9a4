//go:build !unix

package main

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
)

// dialUnix is not available: a socket cannot be written to here.
func dialUnix(string) (*os.File, error) {
	return nil, errors.New("writing to a socket is not supported on this system")
}

// linkCount is the number of hard links of a file: not known here.
func linkCount(fs.FileInfo) uint64 { return 1 }

// checkWritable leaves the check to the system.
func checkWritable(string) error { return nil }

// keepOwner does nothing: files have no Unix owner here.
func keepOwner(*os.File, fs.FileInfo) {}

// onSignal runs cleanup on an interrupt and exits with status 130.
func onSignal(cleanup func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			exitMu.Lock() // main waits from here on: this goroutine ends the process
			cleanup()
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
