// Package longtest is the switch between the test suite that `go test ./...`
// runs by default, sized to take about a minute on a small machine, and the
// long one that CI runs (.ci/run sets TOON_LONG=1): stress runs, generated
// corpora of thousands of documents, multi-megabyte memory checks and
// exhaustive sweeps of lengths and alignments.
//
// A long test keeps a short form that checks the same behaviour on a
// smaller input (Size); only a test that has no meaningful small form is
// skipped (Skip). Either way the test says, in its log or its skip message,
// how to run the long form.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tests on.
const Env = "TOON_LONG"

// how is what the messages say to run the long form.
const how = Env + "=1 runs the long form (.ci/run sets it)"

var on = enabled(os.Getenv(Env))

// enabled reports whether the value v of TOON_LONG turns the switch on.
func enabled(v string) bool { return v != "" && v != "0" && v != "false" }

// On reports whether the long tests run: TOON_LONG is set to anything but
// "", "0" or "false".
func On() bool { return on }

// Size returns full when the long tests run and short otherwise, and then
// logs that the test ran its short form.
func Size(t testing.TB, short, full int) int {
	t.Helper()
	if on {
		return full
	}
	t.Logf("short form: %d (long form: %d); %s", short, full, how)
	return short
}

// Skip skips t unless the long tests run, saying what it leaves out and how
// to run it.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !on {
		t.Skip(what + ": a long test; " + how)
	}
}
