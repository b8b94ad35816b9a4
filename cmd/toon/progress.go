package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progressThreshold is the input size from which a progress bar is shown.
const progressThreshold = 64 << 20

// progress draws a progress bar on a terminal while the input is read.
type progress struct {
	n     atomic.Int64 // bytes read so far (counted by countingReader/countingSeeker)
	total int64        // bytes to read in all, 0 when no bar is drawn
	w     io.Writer
	quit  chan struct{}
	done  sync.WaitGroup
	once  sync.Once
	start time.Time
}

// startProgress starts a bar on w if w is a terminal and the input is
// large. Encoding reads its input twice, so the total counts it twice.
func startProgress(w io.Writer, size int64, encode bool) *progress {
	p := &progress{w: w}
	if size < progressThreshold || !isTerminal(w) {
		return p
	}
	p.total = size
	if encode {
		p.total = 2 * size
	}
	p.start = time.Now()
	p.quit = make(chan struct{})
	p.done.Add(1)
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer p.done.Done()
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			io.WriteString(p.w, "\r\033[K")
			return
		case <-t.C:
			io.WriteString(p.w, "\r"+renderBar(p.n.Load(), p.total, time.Since(p.start), 30))
		}
	}
}

// stop removes the bar; it may be called more than once.
func (p *progress) stop() {
	p.once.Do(func() {
		if p.quit != nil {
			close(p.quit)
			p.done.Wait()
		}
	})
}

// renderBar renders "[=====>    ]  42%  1.2 GB/2.9 GB  310 MB/s" with a bar
// of width cells.
func renderBar(n, total int64, elapsed time.Duration, width int) string {
	if total <= 0 {
		total = 1
	}
	if n > total {
		n = total
	}
	fill := int(int64(width) * n / total)
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	rate := ""
	if s := elapsed.Seconds(); s > 0 {
		rate = "  " + humanBytes(int64(float64(n)/s)) + "/s"
	}
	return fmt.Sprintf("[%s] %3d%%  %s/%s%s", bar, 100*n/total, humanBytes(n), humanBytes(total), rate)
}

// humanBytes formats a byte count in decimal units.
func humanBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// countingSeeker counts the bytes read from a file and lets the reader
// seek it (convert.FromJSON reads a seekable input twice in place) and
// read it at an offset (FromJSON's first pass reads the far half of a big
// table that way, on another goroutine). It has no other methods, so
// io.Copy cannot bypass the count.
type countingSeeker struct {
	f *os.File
	n *atomic.Int64
}

func (c *countingSeeker) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingSeeker) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingSeeker) Seek(off int64, whence int) (int64, error) {
	return c.f.Seek(off, whence)
}
