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

// The bar's first frame comes progressDelay after the start, so that a
// quick conversion draws nothing; frames follow every progressTick.
const (
	progressDelay = time.Second
	progressTick  = 200 * time.Millisecond
)

// barWidth is the bar's width in cells: the longest frame, with the pass,
// is then 72 columns ("[...] 100%  999.9 MB/999.9 MB  999.9 MB/s  pass
// 2/2"), so it fits an 80-column terminal without wrapping (a wrapped
// frame would not be overwritten by the next).
const barWidth = 24

// progress draws a progress bar on standard error while the input is read.
// Encoding reads the input twice: each pass counts from zero, and the bar
// says which pass it shows.
type progress struct {
	n         atomic.Int64 // bytes of the current pass read so far
	pass      atomic.Int32 // the current pass, from 1
	passStart atomic.Int64 // when the current pass began, in ns since start
	size      int64        // the input's size, -1 if unknown
	passes    int          // passes over the input: 1 or 2
	w         io.Writer
	start     time.Time
	drawn     bool // a frame has been drawn (the loop's own)
	quit      chan struct{}
	done      sync.WaitGroup
	once      sync.Once
}

// startProgress starts the bar when it is wanted (on), stderr is a
// terminal and screen, where the output is written as it goes (nil if
// nowhere), is not that same terminal: there the frames would mix with the
// output. It returns a progress that counts and draws nothing otherwise.
func startProgress(stderr, screen io.Writer, size int64, passes int, on bool) *progress {
	p := &progress{w: stderr, size: size, passes: passes, start: time.Now()}
	p.pass.Store(1)
	if !on || !isTerminal(stderr) || sameFile(screen, stderr) {
		return p
	}
	p.quit = make(chan struct{})
	p.done.Add(1)
	go p.loop()
	return p
}

// sameFile reports whether a and b are the same open file (or device).
func sameFile(a, b io.Writer) bool {
	fa, ok1 := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// add counts n bytes read.
func (p *progress) add(n int) { p.n.Add(int64(n)) }

// at records that the input has been read up to offset off in pass pass
// (convert.WithProgress).
func (p *progress) at(pass int, off int64) {
	if pass > int(p.pass.Load()) {
		p.nextPass()
	}
	p.n.Store(off)
}

// nextPass starts the next pass over the input.
func (p *progress) nextPass() {
	if int(p.pass.Load()) < p.passes {
		p.passStart.Store(int64(time.Since(p.start)))
		p.n.Store(0)
		p.pass.Add(1)
	}
}

func (p *progress) loop() {
	defer p.done.Done()
	t := time.NewTicker(progressTick)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			if p.drawn {
				io.WriteString(p.w, "\r\033[K")
			}
			return
		case <-t.C:
			el := time.Since(p.start)
			if el < progressDelay {
				continue
			}
			pass := int(p.pass.Load())
			rate := el - time.Duration(p.passStart.Load())
			frame := renderBar(p.n.Load(), p.size, rate, barWidth)
			if p.passes > 1 {
				frame += fmt.Sprintf("  pass %d/%d", pass, p.passes)
			}
			io.WriteString(p.w, "\r"+frame+"\033[K")
			p.drawn = true
		}
	}
}

// stop clears the bar's line if it drew one; it may be called more than
// once, and from another goroutine.
func (p *progress) stop() {
	p.once.Do(func() {
		if p.quit != nil {
			close(p.quit)
			p.done.Wait()
		}
	})
}

// renderBar renders "[=====>    ]  42%  1.2 GB/2.9 GB  310.0 MB/s" with a
// bar of width cells for n bytes of total read in elapsed; with total
// unknown (negative), only the bytes read and the rate.
func renderBar(n, total int64, elapsed time.Duration, width int) string {
	rate := ""
	if s := elapsed.Seconds(); s > 0 {
		rate = "  " + humanBytes(int64(float64(n)/s)) + "/s"
	}
	if total < 0 {
		return humanBytes(n) + " read" + rate
	}
	if total == 0 {
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
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.add(n)
	return n, err
}

// fileCounter is the input of convert.FromJSONLines and convert.FromCSV:
// the file from its current offset, which they read twice (seeking back
// to the start) and also read at offsets (a helper reads ahead on another
// goroutine). The bar shows how far the pass in progress has read: the
// end of the reads that go on, without a gap, from the input's start, so
// that a read ahead does not move it. A read from the start once a pass
// has reached the end begins the next pass. fileCounter has no other
// methods, so io.Copy cannot bypass it.
type fileCounter struct {
	f     *os.File
	p     *progress
	start int64 // the input's offset in f
	size  int64 // the input's size, -1 if unknown
	pos   int64 // f's offset, for Read

	mu      sync.Mutex
	pass    int
	reached int64 // the offset, from start, that the pass has read to
}

func newFileCounter(f *os.File, size int64, p *progress) (*fileCounter, error) {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return &fileCounter{f: f, p: p, start: start, size: size, pos: start, pass: 1}, nil
}

// count records a read of n bytes at offset off of f.
func (c *fileCounter) count(off int64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	off -= c.start
	if off == 0 && n > 0 && c.size > 0 && c.reached >= c.size {
		c.pass++
		c.reached = 0
	}
	if end := off + int64(n); off <= c.reached && end > c.reached {
		c.reached = end
		c.p.at(c.pass, end)
	}
}

func (c *fileCounter) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	c.count(c.pos, n)
	c.pos += int64(n)
	return n, err
}

func (c *fileCounter) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(b, off)
	c.count(off, n)
	return n, err
}

func (c *fileCounter) Seek(off int64, whence int) (int64, error) {
	pos, err := c.f.Seek(off, whence)
	if err == nil {
		c.pos = pos
	}
	return pos, err
}
