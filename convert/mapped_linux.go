package convert

import (
	"errors"
	"os"
	"syscall"
)

// mapGuard, when tests set it to a page size, makes mapFile map that
// much more of the file, past its end: the mapping then ends with a page
// that faults, after an input that ends on a page boundary.
var mapGuard int64

// mapFile maps size bytes of f from offset off, read-only. mem is the
// mapping, which starts at the page boundary at or before off, and data
// the requested part of it.
func mapFile(f *os.File, off, size int64) (mem, data []byte, err error) {
	page := int64(os.Getpagesize())
	at := off &^ (page - 1)
	n := off - at + size + mapGuard
	if n != int64(int(n)) {
		return nil, nil, errors.New("convert: file too large to map")
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, err
	}
	cerr := rc.Control(func(fd uintptr) {
		mem, err = syscall.Mmap(int(fd), at, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	})
	if cerr != nil {
		return nil, nil, cerr
	}
	if err != nil {
		return nil, nil, err
	}
	end := off - at + size
	return mem, mem[off-at : end : end], nil
}

func unmapFile(mem []byte) { syscall.Munmap(mem) }

// releasePages removes the pages of b, a page-aligned part of a mapping,
// from the process's memory. They stay in the page cache, and are read
// from it again if b is read again.
func releasePages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }
