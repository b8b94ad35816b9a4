package convert

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toonstream/toon"
)

// Hostile input to the converters: each case must end in a clear error or
// a correct result, in linear time and bounded memory.

// within runs f and fails the test if it takes longer than limit, which is
// set far above the time a linear algorithm needs on a slow, loaded
// machine and far below what a quadratic one (or a loop) would need.
func within(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		t.Logf("took %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(limit):
		t.Fatalf("still running after %v", limit)
	}
}

// A JSON array of two objects of 100,000 keys becomes a table whose header
// has 100,000 fields; checking them costs linear time (pairwise it takes
// about a minute).
func TestFromJSONWideRows(t *testing.T) {
	const n = 100_000
	var in bytes.Buffer
	in.WriteString(`{"t":[`)
	for r := 0; r < 2; r++ {
		if r > 0 {
			in.WriteByte(',')
		}
		in.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				in.WriteByte(',')
			}
			in.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i*(1-2*r)))
		}
		in.WriteByte('}')
	}
	in.WriteString(`]}`)
	var out, back bytes.Buffer
	var err error
	within(t, 10*time.Second, func() { err = FromJSON(&out, bytes.NewReader(in.Bytes())) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("t[2]{k0,k1,k2,")) {
		t.Fatalf("not a table: %.40q", out.Bytes())
	}
	if err := ToJSON(&back, bytes.NewReader(out.Bytes())); err != nil {
		t.Fatal(err)
	}
	if err := sameValue(in.Bytes(), back.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// A JSON string or number longer than the TOON line limit is a JSONError
// at its start, wrapping toon.ErrLineTooLong; one at the limit converts.
func TestFromJSONLongToken(t *testing.T) {
	const limit = 1000
	for _, tc := range []struct {
		name, under, over string
	}{
		{"string", `{"k":"` + strings.Repeat("x", limit) + `"}`, `{"k":"` + strings.Repeat("x", limit+1) + `"}`},
		{"number", `{"k":` + strings.Repeat("1", limit) + `}`, `{"k":` + strings.Repeat("1", limit+1) + `}`},
	} {
		for _, bufSize := range []int{16, 64, lexBufSize} {
			// At the limit, the lexer takes the token, and the line
			// ("k: " and the token) is the encoder's to refuse.
			err := FromJSON(io.Discard, strings.NewReader(tc.under), withMaxLine(limit), withBufSize(bufSize))
			var je *JSONError
			if errors.As(err, &je) || !errors.Is(err, toon.ErrLineTooLong) {
				t.Fatalf("%s of %d bytes: got %v, want the encoder's ErrLineTooLong", tc.name, limit, err)
			}
			var out bytes.Buffer
			if err := FromJSON(&out, strings.NewReader(tc.under), withMaxLine(limit+20), withBufSize(bufSize)); err != nil {
				t.Fatalf("%s of %d bytes: %v", tc.name, limit, err)
			}
			err = FromJSON(&out, strings.NewReader(tc.over), withMaxLine(limit), withBufSize(bufSize))
			if !errors.As(err, &je) || !errors.Is(err, toon.ErrLineTooLong) || je.Offset != 5 || je.Line != 1 || je.Column != 6 {
				t.Fatalf("%s of %d bytes (buffer %d): got %v, want a JSONError at offset 5 wrapping ErrLineTooLong", tc.name, limit+1, bufSize, err)
			}
		}
	}
	// A line at the limit converts.
	var out bytes.Buffer
	if err := FromJSON(&out, strings.NewReader(`{"k":"`+strings.Repeat("x", limit-3)+`"}`), withMaxLine(limit)); err != nil || out.Len() != limit {
		t.Fatalf("a line of %d bytes: %d bytes written, %v", limit, out.Len(), err)
	}
}

// hugeJSON is a seekable JSON document of one string of n bytes,
// synthesized as it is read: {"k":"xxx...x"}.
type hugeJSON struct {
	n, off int64
	read   int64 // bytes handed out
}

func (h *hugeJSON) size() int64 { return h.n + 8 }

func (h *hugeJSON) Read(p []byte) (int, error) {
	if h.off >= h.size() {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && h.off < h.size() {
		switch {
		case h.off < 6:
			p[n] = `{"k":"`[h.off]
		case h.off < h.size()-2:
			k := copy(p[n:], hugeFill[:min(int64(len(hugeFill)), h.size()-2-h.off)])
			n += k
			h.off += int64(k)
			continue
		default:
			p[n] = `"}`[h.off-(h.size()-2)]
		}
		n++
		h.off++
	}
	h.read += int64(n)
	return n, nil
}

func (h *hugeJSON) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		h.off = off
	case io.SeekCurrent:
		h.off += off
	case io.SeekEnd:
		h.off = h.size() + off
	}
	return h.off, nil
}

var hugeFill = bytes.Repeat([]byte("x"), 64<<10)

// One JSON string of 2 GiB: FromJSON stops once the string is longer than
// toon.DefaultMaxLineLength, having read and held about that much.
func TestFromJSONHugeString(t *testing.T) {
	h := &hugeJSON{n: 2 << 30}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var err error
	within(t, 20*time.Second, func() { err = FromJSON(io.Discard, h) })
	runtime.ReadMemStats(&after)
	var je *JSONError
	if !errors.As(err, &je) || !errors.Is(err, toon.ErrLineTooLong) || je.Offset != 5 {
		t.Fatalf("got %v, want a JSONError at offset 5 wrapping ErrLineTooLong", err)
	}
	if h.read > 2*toon.DefaultMaxLineLength {
		t.Fatalf("read %d bytes of the string", h.read)
	}
	// The buffer doubles from 256 KiB up to the limit: twice the limit in all.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*toon.DefaultMaxLineLength {
		t.Fatalf("allocated %d bytes", alloc)
	}
}

// stalledReader returns its data, then (0, nil) forever.
type stalledReader struct {
	data  []byte
	empty int // empty reads so far
}

func (s *stalledReader) Read(p []byte) (int, error) {
	if len(s.data) > 0 {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	s.empty++
	return 0, nil
}

// stalledSeeker is a stalledReader that can seek (to the start only).
type stalledSeeker struct{ stalledReader }

func (s *stalledSeeker) Seek(off int64, whence int) (int64, error) { return 0, nil }

// A reader that stops returning data without an error: the converters
// give up with io.ErrNoProgress after a bounded number of empty reads, as
// bufio and the TOON decoder do, instead of spinning.
func TestConvertNoProgress(t *testing.T) {
	for _, tc := range []struct {
		name string
		conv func(r io.Reader) error
		r    func() (io.Reader, *stalledReader)
	}{
		{"FromJSON", func(r io.Reader) error { return FromJSON(io.Discard, r) },
			func() (io.Reader, *stalledReader) { s := &stalledReader{data: []byte(`{"a":[1,2`)}; return s, s }},
		{"FromJSON seekable", func(r io.Reader) error { return FromJSON(io.Discard, r) },
			func() (io.Reader, *stalledReader) {
				s := &stalledSeeker{stalledReader{data: []byte(`{"a":[1,2`)}}
				return s, &s.stalledReader
			}},
		{"ToJSON", func(r io.Reader) error { return ToJSON(io.Discard, r) },
			func() (io.Reader, *stalledReader) { s := &stalledReader{data: []byte("a[3]: 1,2")}; return s, s }},
		{"ToJSON non-strict", func(r io.Reader) error { return ToJSON(io.Discard, r, WithStrict(false)) },
			func() (io.Reader, *stalledReader) { s := &stalledReader{data: []byte("a[3]: 1,2")}; return s, s }},
	} {
		r, s := tc.r()
		var err error
		within(t, 10*time.Second, func() { err = tc.conv(r) })
		if !errors.Is(err, io.ErrNoProgress) {
			t.Errorf("%s: got %v, want io.ErrNoProgress", tc.name, err)
		}
		if s.empty > 1000 {
			t.Errorf("%s: %d empty reads before giving up", tc.name, s.empty)
		}
	}
}

// Numbers out of float64's range pass through both converters exactly
// (their canonical form in TOON, their text in JSON), as toon.Decode keeps
// them as Number.
func TestConvertNumberRange(t *testing.T) {
	for _, tc := range []struct{ json, toon string }{
		{`{"k":1e309}`, "k: 1e+309"},
		{`{"k":-1E+309}`, "k: -1e+309"},
		{`{"k":1e-400}`, "k: 1e-400"},
		{`{"k":1e99999999999999999999}`, "k: 1e+99999999999999999999"},
	} {
		var out, back bytes.Buffer
		if err := FromJSON(&out, strings.NewReader(tc.json)); err != nil || out.String() != tc.toon {
			t.Errorf("FromJSON(%s) = %q, %v; want %q", tc.json, out.String(), err, tc.toon)
		}
		if err := ToJSON(&back, strings.NewReader(tc.toon)); err != nil || strings.TrimSpace(back.String()) != `{"k":`+tc.toon[3:]+`}` {
			t.Errorf("ToJSON(%q) = %q, %v", tc.toon, back.String(), err)
		}
	}
}
