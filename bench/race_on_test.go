//go:build race

package bench

// raceEnabled reports a -race build, whose instrumentation allocates: the
// zero-allocation tests skip themselves under it.
const raceEnabled = true
