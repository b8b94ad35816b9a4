package convert

import (
	"bytes"
	"strconv"
	"testing"
	"time"
)

// Hostile input to the converters: each case must end in a clear error or
// a correct result, in linear time and bounded memory.

// within runs f and fails the test if it takes longer than limit, which is
// set far above the time a linear algorithm needs on a slow, loaded
// machine and far below what a quadratic one would need.
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
		t.Fatalf("still running after %v: not linear time", limit)
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
