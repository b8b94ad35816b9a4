package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether w is a terminal: a file that answers the
// terminal's TCGETS request (a device such as /dev/null does not).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		_, ioErr = unix.IoctlGetTermios(int(fd), unix.TCGETS)
	})
	return err == nil && ioErr == nil
}
