package main

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// output is where the converted text goes: standard output, or the file
// named by -o, written in one of the ways of outputMode.
type output struct {
	mode   outputMode
	path   string // the user's -o path, named in every error; "" for standard output
	target string // the file written or replaced: path with symbolic links resolved
	bw     *bufio.Writer
	w      io.Writer   // what bw writes to
	f      *os.File    // replace, rewrite: the temporary file; direct: the target (a socket: connected)
	dst    *os.File    // rewrite: the target, opened before the conversion
	old    fs.FileInfo // replace: the file replaced, nil for a new one
	tty    bool        // standard output is a terminal
	last   byte        // the last byte written, for abort on a terminal

	mu          sync.Mutex // guards tmp and interrupted against removeTemp (a signal)
	tmp         string     // replace: the temporary file's name until it is renamed or removed
	interrupted bool       // removeTemp has run: no temporary file may be made
}

// outputMode is how an -o file is written.
type outputMode int

const (
	toStdout outputMode = iota
	// toReplace writes a temporary file in the target's directory, syncs
	// it, gives it the target's mode and owner, and renames it over the
	// target: the target is never half written, and an error leaves it as
	// it was.
	toReplace
	// toRewrite writes an unlinked temporary file and, once the
	// conversion has succeeded, copies it into the target, truncated: for
	// a file with other hard links, which a rename would part from this
	// one, and for a file whose directory does not let a temporary file
	// be made there.
	toRewrite
	// toDirect writes into the target as it goes: a FIFO, a device or a
	// socket, which cannot be replaced and are not files to keep whole.
	toDirect
)

// bufSize is the output buffer's size.
const bufSize = 64 << 10

// openOutput opens the output: standard output when path is "" or "-",
// otherwise the file path, in the mode its type calls for. The output is
// stored in published before any temporary file is made, for the
// interrupt handler (see removeTemp).
func openOutput(path string, stdout io.Writer, published *atomic.Pointer[output]) (*output, error) {
	if path == "" || path == "-" {
		o := &output{mode: toStdout, tty: isTerminal(stdout)}
		o.writeTo(stdout)
		return o, nil
	}
	o := &output{path: path}
	published.Store(o)
	target, fi, err := resolveLinks(path)
	if err != nil {
		return nil, o.pathErr("open", err)
	}
	o.target = target
	switch {
	case fi == nil:
		err = o.openReplace(nil)
	case fi.IsDir():
		return nil, o.pathErr("open", errors.New("is a directory"))
	case fi.Mode().IsRegular():
		if err := checkWritable(target); err != nil {
			return nil, o.pathErr("open", err)
		}
		if linkCount(fi) > 1 {
			err = o.openRewrite()
			break
		}
		if err = o.openReplace(fi); err != nil && errors.Is(err, fs.ErrPermission) {
			err = o.openRewrite() // the directory does not let us make a file
		}
	default:
		err = o.openDirect(fi)
	}
	if err != nil {
		return nil, o.pathErr("open", err)
	}
	return o, nil
}

// resolveLinks follows path's symbolic links to the file they lead to,
// which may not exist yet (fi is then nil). A relative link is taken from
// its own directory, as the system does.
func resolveLinks(path string) (target string, fi fs.FileInfo, err error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, fi, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			// The link's directory with its own links resolved, so that
			// ".." in link goes where the system would take it.
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", nil, err
			}
			link = filepath.Join(dir, link)
		}
		path = link
	}
	return "", nil, errors.New("too many levels of symbolic links")
}

// openReplace starts a replacement of o.target (old is the file there, or
// nil). The temporary file is made with old's permission bits, or with
// 0666 for a new file, the umask narrowing them in both cases; commit
// sets old's exact mode.
func (o *output) openReplace(old fs.FileInfo) error {
	perm := fs.FileMode(0o666)
	if old != nil {
		perm = old.Mode().Perm()
	}
	dir, base := filepath.Split(o.target)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.interrupted {
		return errors.New("interrupted")
	}
	f, err := createTemp(dir, "."+base+".", ".tmp", perm)
	if err != nil {
		return err
	}
	o.mode, o.f, o.old, o.tmp = toReplace, f, old, f.Name()
	o.writeTo(pathWriter{f, o.path})
	return nil
}

// openRewrite opens the target for writing now, so that a refusal comes
// before the conversion, and a temporary file to convert into: in the
// target's directory if possible, else in the system's temporary
// directory, unlinked at once either way.
func (o *output) openRewrite() error {
	dst, err := os.OpenFile(o.target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(o.target)
	f, err := createTemp(dir, "."+base+".", ".tmp", 0o600)
	if err != nil {
		f, err = createTemp(os.TempDir(), "toon-output-", ".tmp", 0o600)
	}
	if err != nil {
		dst.Close()
		return err
	}
	os.Remove(f.Name())
	o.mode, o.f, o.dst = toRewrite, f, dst
	o.writeTo(pathWriter{f, o.path})
	return nil
}

// openDirect opens a FIFO, a device or a socket to write into. Opening a
// FIFO waits for a reader, as a shell's redirection does.
func (o *output) openDirect(fi fs.FileInfo) error {
	o.mode = toDirect
	var f *os.File
	var err error
	if fi.Mode()&fs.ModeSocket != 0 {
		f, err = dialUnix(o.target)
	} else {
		f, err = os.OpenFile(o.target, os.O_WRONLY, 0)
	}
	if err != nil {
		return err
	}
	o.f = f
	o.writeTo(pathWriter{f, o.path})
	return nil
}

// createTemp creates a new file in dir named prefix, a random number and
// suffix, with permission bits perm less the umask.
func createTemp(dir, prefix, suffix string, perm fs.FileMode) (*os.File, error) {
	if dir == "" {
		dir = "."
	}
	seed := uint32(time.Now().UnixNano()) ^ uint32(os.Getpid())<<16
	for range 10000 {
		seed = seed*1664525 + 1013904223
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(seed), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("cannot find an unused temporary name")
}

// screen returns what the output is written into as it goes, and might
// share a terminal with standard error: standard output, or a file
// written directly (-o /dev/tty); nil for a file written at the end.
func (o *output) screen(stdout io.Writer) io.Writer {
	switch {
	case o.mode == toStdout:
		return stdout
	case o.mode == toDirect:
		return o.f
	}
	return nil
}

// writeTo makes w the writer under the output's buffer.
func (o *output) writeTo(w io.Writer) {
	o.w, o.bw = w, bufio.NewWriterSize(w, bufSize)
}

// Write writes p through the buffer, or straight to the writer under it
// when the buffer is empty and p fills half of it or more: the converters
// write their output in chunks of tens of KiB, which the buffer would only
// copy.
func (o *output) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	o.last = p[len(p)-1]
	if len(p) >= bufSize/2 && o.bw.Buffered() == 0 {
		return o.w.Write(p)
	}
	return o.bw.Write(p)
}

// commit completes the output after a successful conversion.
func (o *output) commit() error {
	err := o.bw.Flush()
	switch o.mode {
	case toReplace:
		if err == nil {
			err = o.finishReplace()
		}
		if err != nil {
			o.f.Close() // closed already unless the flush failed
			o.removeTemp()
		}
	case toRewrite:
		if err == nil {
			err = o.rewrite()
		}
		o.f.Close()
		if cerr := o.dst.Close(); err == nil && cerr != nil {
			err = o.pathErr("close", cerr)
		}
	case toDirect:
		if cerr := o.closeDirect(); err == nil && cerr != nil {
			err = o.pathErr("close", cerr)
		}
	}
	return err
}

// finishReplace gives the temporary file the replaced file's owner (where
// the system allows it) and mode, syncs it, and renames it over the target.
// The owner comes first, since a change of owner clears set-user-ID bits.
func (o *output) finishReplace() error {
	if o.old != nil {
		keepOwner(o.f, o.old)
		if err := o.f.Chmod(o.old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return o.pathErr("chmod", err)
		}
	}
	if err := o.f.Sync(); err != nil {
		return o.pathErr("sync", err)
	}
	if err := o.f.Close(); err != nil {
		return o.pathErr("close", err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.tmp == "" { // removed by an interrupt
		return o.pathErr("write", errors.New("interrupted"))
	}
	if err := os.Rename(o.tmp, o.target); err != nil {
		return o.pathErr("rename", err)
	}
	o.tmp = ""
	// The rename is durable once the directory is synced; not every
	// system can sync a directory, and the file is in place either way.
	if d, err := os.Open(filepath.Dir(o.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// rewrite copies the temporary file's text into the target, holding o.mu
// so that an interrupt (removeTemp) waits until the target is whole.
func (o *output) rewrite() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.interrupted {
		return o.pathErr("write", errors.New("interrupted"))
	}
	return o.copyInto()
}

// copyInto rewrites the target with the temporary file's text.
func (o *output) copyInto() error {
	if _, err := o.f.Seek(0, io.SeekStart); err != nil {
		return o.pathErr("write", err)
	}
	if err := o.dst.Truncate(0); err != nil {
		return o.pathErr("truncate", err)
	}
	if _, err := io.Copy(pathWriter{o.dst, o.path}, onlyReader{o.f}); err != nil {
		return err
	}
	if err := o.dst.Sync(); err != nil {
		return o.pathErr("sync", err)
	}
	return nil
}

// onlyReader hides a reader's other methods, so that io.Copy reads and
// writes through pathWriter, which names the user's path in its errors.
type onlyReader struct{ r io.Reader }

func (r onlyReader) Read(p []byte) (int, error) { return r.r.Read(p) }

func (o *output) closeDirect() error { return o.f.Close() }

// abort ends the output after a failed conversion. Standard output and a
// file written directly keep what was converted before the error; a
// terminal gets a newline after it, so the error message starts on a line
// of its own. An -o file that was to be replaced or rewritten is left as
// it was.
func (o *output) abort() {
	switch o.mode {
	case toStdout:
		if o.tty && o.last != 0 && o.last != '\n' {
			o.bw.WriteByte('\n')
		}
		o.bw.Flush()
	case toReplace:
		o.f.Close()
		o.removeTemp()
	case toRewrite:
		o.f.Close()
		o.dst.Close()
	case toDirect:
		o.bw.Flush()
		o.closeDirect()
	}
}

// removeTemp removes the temporary file of a replacement that has not been
// renamed yet, and keeps one from being made, or a rewrite from starting,
// after it; a rewrite under way is let finish. It is safe to call from
// another goroutine (on a signal).
func (o *output) removeTemp() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.interrupted = true
	if o.tmp != "" {
		os.Remove(o.tmp)
		o.tmp = ""
	}
}

// pathErr is an error about the output, named by the user's path (never
// by the temporary file's).
func (o *output) pathErr(op string, err error) error { return pathError(op, o.path, err) }

// pathError is err, an error of op on a file, named by path: the name the
// user knows, in place of a temporary file's (which a *fs.PathError or an
// *os.LinkError from the system would name).
func pathError(op, path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// pathWriter writes to w, naming path in its errors.
type pathWriter struct {
	w    io.Writer
	path string
}

func (p pathWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil {
		err = pathError("write", p.path, err)
	}
	return n, err
}
