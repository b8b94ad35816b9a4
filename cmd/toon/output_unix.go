//go:build unix

package main

import (
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// dialUnix connects to the Unix stream socket at path, for writing into it.
// (Package net would do it too, and cost the command 2 MB of memory at
// start.)
func dialUnix(path string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// linkCount is the number of hard links of the file fi describes.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// checkWritable reports whether path may be written, as a redirection of
// the shell would find: a file the user may not write is not replaced
// either, though its directory would allow it.
func checkWritable(path string) error {
	if err := syscall.Access(path, 2 /* W_OK */); err != nil {
		return err
	}
	return nil
}

// keepOwner gives f the owner and group of the file old describes, or, when
// the system does not allow that (only root may give a file away), at least
// its group.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if f.Chown(int(st.Uid), int(st.Gid)) != nil {
		f.Chown(-1, int(st.Gid))
	}
}

// onSignal runs cleanup when SIGINT, SIGTERM or SIGHUP arrives, then ends
// the process by that signal, so that its parent sees the usual status
// (130, 143 or 129 in a shell). A signal the command was started with
// ignored (SIGINT in a shell's background job) stays ignored. The
// returned function stops the watch.
func onSignal(cleanup func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			signal.Notify(ch, s)
		}
	}
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			exitMu.Lock() // main waits from here on: this goroutine ends the process
			cleanup()
			s := sig.(syscall.Signal)
			signal.Reset(s)
			syscall.Kill(syscall.Getpid(), s)
			// The signal is normally delivered before Kill returns;
			// otherwise end with the status a shell would report.
			time.Sleep(100 * time.Millisecond)
			os.Exit(128 + int(s))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
