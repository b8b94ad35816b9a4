//go:build !race

package toon

// raceEnabled reports a -race build, whose instrumentation allocates: the
// zero-allocation tests of the typed binding skip themselves under it.
const raceEnabled = false
