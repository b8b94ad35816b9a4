package convert

// The options below reach config's sizes and switches that only tests
// change: they make the paths of large inputs (spilling, spooling, buffer
// refills, the output goroutine, the first pass's helper) run on small ones.

// withMemBudget sets how many bytes of FromJSON's plan stay in memory
// before they spill to a temporary file; tests lower it to exercise the
// spill path.
func withMemBudget(n int) Option { return func(c *config) { c.memBudget = n } }

// withSpoolBudget sets how many bytes of JSON non-strict ToJSON keeps in
// memory before its spool moves to a temporary file; tests lower it to
// exercise the file.
func withSpoolBudget(n int) Option { return func(c *config) { c.spoolBudget = n } }

// withCompactMax sets the largest object with a repeated key that
// non-strict ToJSON rewrites in place; tests lower it (0: never) to
// exercise the ropes.
func withCompactMax(n int) Option { return func(c *config) { c.compactMax = n } }

// withMaxLine sets the TOON line limit of FromJSON, its JSON lexer's and
// its encoder's (default toon.DefaultMaxLineLength); tests lower it to
// reach it with small inputs.
func withMaxLine(n int) Option { return func(c *config) { c.maxLine = n } }

// withBufSize sets the initial size of FromJSON's read buffer; tests make
// it small so that tokens and rows straddle refills.
func withBufSize(n int) Option { return func(c *config) { c.bufSize = n } }

// withPipeline makes FromJSON write table rows, and ToJSON its output, on
// a goroutine of their own (on) or not (off), whatever the number of CPUs;
// tests use it to cover both ways.
func withPipeline(on bool) Option {
	return func(c *config) {
		c.pipe = -1
		if on {
			c.pipe = 1
		}
	}
}

// withPipeChunk sets the size of the buffers ToJSON's output goroutine
// writes (at least jsonBufSize); tests make it small, so that a document
// of a few hundred KiB fills several.
func withPipeChunk(n int) Option { return func(c *config) { c.pipeChunk = n } }

// withAheadMin sets how much input must be left after a table's first row
// for the first pass to start a helper; tests lower it,
// and make the pass wait for the helper's guess of a row boundary, so
// that the helper's rows are taken whenever the guess is right.
func withAheadMin(n int) Option {
	return func(c *config) { c.aheadMin, c.aheadWait = n, true }
}

// withWorkers sets the goroutines that convert a large table's ranges
// (tests); n > 0 also converts tables of small inputs in parallel.
func withWorkers(n int) Option { return func(c *config) { c.workers = n } }

// withParRange sets the bytes of TOON per range (tests).
func withParRange(n int) Option { return func(c *config) { c.parRange = n } }
