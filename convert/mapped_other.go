//go:build !linux

package convert

import (
	"errors"
	"os"
)

// mapFile does not map files here: the callers read them with ReadAt.
// Mapping is kept to Linux, where its gain is measured (see the README).
func mapFile(f *os.File, off, size int64) (mem, data []byte, err error) {
	return nil, nil, errors.New("convert: files are not mapped on this system")
}

func unmapFile(mem []byte) {}

func releasePages(b []byte) {}
