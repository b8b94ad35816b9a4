package toon

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"sync"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// rowBlockCase is a random table to write both ways.
type rowBlockCase struct {
	opts  []Option
	depth int // objects around the table (0: a root table)
	key   string
	n     int // declared rows; -1 for unknown
	rows  [][]Value
}

func randomRowBlockCase(r *rand.Rand, floats []float64) rowBlockCase {
	c := rowBlockCase{depth: r.Intn(3), n: -2}
	c.opts = []Option{WithDelimiter([]Delimiter{Comma, Tab, Pipe}[r.Intn(3)]), WithIndent(1 + r.Intn(4))}
	if r.Intn(4) == 0 {
		c.opts = append(c.opts, WithMaxLineLength(20+r.Intn(200)))
	}
	if c.depth > 0 {
		c.key = "t" + strconv.Itoa(r.Intn(3))
	}
	width := 1 + r.Intn(12)
	if r.Intn(20) == 0 {
		width = 40 + r.Intn(40)
	}
	nrows := r.Intn(200)
	if r.Intn(10) == 0 {
		nrows = 2000 + r.Intn(3000) // blocks past flushSize
	}
	for range nrows {
		row := make([]Value, width)
		for i := range row {
			row[i] = randomCell(r, floats)
		}
		if r.Intn(500) == 0 {
			row = row[:r.Intn(width)] // a row of the wrong width
		}
		c.rows = append(c.rows, row)
	}
	switch r.Intn(6) {
	case 0:
		c.n = -1
	case 1:
		c.n = max(0, nrows-1-r.Intn(3)) // fewer declared than written
	default:
		c.n = nrows
	}
	return c
}

// begin opens the case's table on e.
func (c *rowBlockCase) begin(e *Encoder, width int) error {
	for i := 0; i < c.depth; i++ {
		if i > 0 {
			if err := e.WriteToken(KeyToken([]byte("o" + strconv.Itoa(i)))); err != nil {
				return err
			}
		}
		if err := e.WriteToken(ObjectStartToken()); err != nil {
			return err
		}
	}
	names := make([]string, width)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	return e.BeginTable(c.key, c.n, names...)
}

// writeLog records the writes it gets: their text, and where each ends.
type writeLog struct {
	bytes.Buffer
	ends []int
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.Buffer.Write(p)
	w.ends = append(w.ends, w.Len())
	return len(p), nil
}

// String returns the text and the ends of the writes.
func (w *writeLog) String() string { return w.Buffer.String() + fmt.Sprint(w.ends) }

// serial writes the case with WriteRow, stopping at the first error.
func (c *rowBlockCase) serial(width int) (string, error) {
	var out writeLog
	e := NewEncoder(&out, c.opts...)
	if err := c.begin(e, width); err != nil {
		return "", err
	}
	for _, row := range c.rows {
		if err := e.WriteRow(row...); err != nil {
			e.Flush()
			return out.String(), err
		}
	}
	err := e.EndTable()
	e.Flush()
	return out.String(), err
}

// blocks writes the case in blocks of random sizes, filled on goroutines
// of their own, stopping at the first error.
func (c *rowBlockCase) blocks(r *rand.Rand, width int) (string, error) {
	var out writeLog
	e := NewEncoder(&out, c.opts...)
	if err := c.begin(e, width); err != nil {
		return "", err
	}
	type part struct {
		b   *RowBlock
		err error
	}
	var parts []*part
	var ends []int
	for first := 0; first < len(c.rows); {
		b, err := e.NewRowBlock()
		if err != nil {
			return "", err
		}
		b.Reset(first)
		parts = append(parts, &part{b: b})
		first += min(len(c.rows)-first, 1+r.Intn(300))
		ends = append(ends, first)
	}
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func(rows [][]Value) {
			defer wg.Done()
			for _, row := range rows {
				if p.err = p.b.AppendRow(row...); p.err != nil {
					return
				}
			}
		}(c.rows[p.b.first:ends[i]])
	}
	wg.Wait()
	for _, p := range parts {
		if err := e.WriteRowBlock(p.b); err != nil {
			e.Flush()
			return out.String(), err
		}
		if p.err != nil {
			e.Flush()
			return out.String(), p.err
		}
	}
	err := e.EndTable()
	e.Flush()
	return out.String(), err
}

// TestRowBlockMatchesWriteRow writes random tables with WriteRow and with
// blocks filled on other goroutines: the output, the writes it is made of
// (so also what is written before an error) and the first error are the
// same, for every delimiter, indentation and depth, line limits that
// rows pass, wrong widths, declared counts too small and unknown counts.
func TestRowBlockMatchesWriteRow(t *testing.T) {
	r := rand.New(rand.NewSource(19))
	floats := floatCases(r)
	for k, n := 0, longtest.Size(t, 300, 3000); k < n; k++ {
		c := randomRowBlockCase(r, floats)
		width := 1
		if len(c.rows) > 0 {
			width = len(c.rows[0])
		}
		want, werr := c.serial(width)
		got, gerr := c.blocks(r, width)
		if got != want || errText(gerr) != errText(werr) {
			t.Fatalf("case %d (%d rows of %d, n %d, depth %d):\nserial: %v\nblocks: %v\noutputs equal: %v (%d and %d bytes)",
				k, len(c.rows), width, c.n, c.depth, werr, gerr, got == want, len(want), len(got))
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRowBlockLayout: a block is refused by a table of another layout,
// and by an encoder with no table open.
func TestRowBlockLayout(t *testing.T) {
	var out bytes.Buffer
	e := NewEncoder(&out)
	if _, err := e.NewRowBlock(); !errors.Is(err, ErrNoTable) {
		t.Fatalf("NewRowBlock without a table: %v", err)
	}
	if err := e.BeginTable("a", 1, "x", "y"); err != nil {
		t.Fatal(err)
	}
	b, err := e.NewRowBlock()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AppendRow(Int(1), String("p")); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendRow(Int(1)); !errors.Is(err, ErrWidth) || b.Rows() != 1 {
		t.Fatalf("AppendRow of a short row: %v, %d rows", err, b.Rows())
	}
	if err := e.WriteRowBlock(b); err != nil {
		t.Fatal(err)
	}
	if err := e.EndTable(); err != nil {
		t.Fatal(err)
	}
	// The same layout under another key and count takes it; another
	// width, depth or delimiter does not.
	if err := e.BeginTable("b", 1, "u", "v"); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRowBlock(b); err != nil {
		t.Fatal(err)
	}
	if err := e.EndTable(); err != nil {
		t.Fatal(err)
	}
	if err := e.BeginTable("c", 1, "u"); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRowBlock(b); !errors.Is(err, ErrPlacement) {
		t.Fatalf("a block of width 2 in a table of width 1: %v", err)
	}
	e2 := NewEncoder(&out, WithDelimiter(Pipe))
	if err := e2.BeginTable("a", 1, "x", "y"); err != nil {
		t.Fatal(err)
	}
	if err := e2.WriteRowBlock(b); !errors.Is(err, ErrPlacement) {
		t.Fatalf("a comma block in a pipe table: %v", err)
	}
	if err := e.WriteRow(Int(2)); err != nil {
		t.Fatal(err)
	}
	if err := e.EndTable(); err != nil || e.Close() != nil {
		t.Fatal(err)
	}
	want := "a[1]{x,y}:\n  1,p\nb[1]{u,v}:\n  1,p\nc[1]{u}:\n  2"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
}
