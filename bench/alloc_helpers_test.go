package bench

import "testing"

// eachDataset generates every dataset of the matrix at scale and calls f
// with it, for the allocation tests; it skips them under -race, whose
// instrumentation allocates.
func eachDataset(t *testing.T, scale float64, f func(name string, d *Dataset)) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, name := range Names {
		d, err := Generate(name, scale)
		if err != nil {
			t.Fatal(err)
		}
		f(name, d)
	}
}
