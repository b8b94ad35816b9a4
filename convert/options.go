package convert

import "github.com/toonstream/toon"

// Option configures ToJSON and FromJSON. Options that do not apply to the
// direction of a call are ignored.
type Option func(*config)

type config struct {
	// Set by the exported options.
	indent     int            // TOON indentation: written by FromJSON, expected by ToJSON
	delim      toon.Delimiter // FromJSON: the document delimiter
	strict     bool           // ToJSON: the decoder's strict mode
	jsonIndent int            // ToJSON: spaces per level of JSON output; 0 is compact
	tempDir    string         // FromJSON: where spooled input and spilled plans go; ToJSON: the non-strict spool
	maxHeader  int            // FromJSON: bytes of field names one tabular header may hold
	maxDepth   int            // both: deepest nesting accepted
	progress   progressFunc   // FromJSONFile, ToJSONFile: WithProgress
	csvComma   byte           // FromCSV, ToCSV: the CSV field delimiter
	csvStrings bool           // FromCSV: every cell a string
	maxRecord  int            // FromCSV: bytes of the longest record

	// Set by the package's entry points for their own calls.
	flushed func()     // ToJSON: called on its goroutine after each piece of output (mapped.go)
	lines   *linesView // FromJSON: the input is JSON Lines seen as an array (FromJSONLines)

	// Sizes and switches that makeConfig sets to their defaults; only the
	// tests change them (export_test.go), to reach with small inputs the
	// paths that large inputs take.
	maxLine     int  // FromJSON: longest TOON line, and so longest JSON string or number
	memBudget   int  // FromJSON: bytes of plan kept in memory before spilling
	bufSize     int  // FromJSON: the JSON lexer's initial buffer
	spoolBudget int  // ToJSON, non-strict: bytes of JSON kept in memory before spilling
	compactMax  int  // ToJSON, non-strict: largest object with a repeated key rewritten in place
	pipe        int  // FromJSON, ToJSON: use a second goroutine: 0 when useful, 1 always, -1 never
	pipeChunk   int  // ToJSON: bytes per buffer of the output goroutine; 0 for pipeChunk
	aheadMin    int  // FromJSON: input left for the first pass to start a helper
	aheadWait   bool // FromJSON: the first pass waits for its helper's guess
	workers     int  // ToJSON, FromJSON: goroutines converting a large table's ranges; 0 for GOMAXPROCS (parallel.go, fromjson_parallel.go)
	parRange    int  // ToJSON: bytes of TOON per range; 0 for parRange; FromJSON: bytes of JSON, 0 for encRangeBytes

	// Set by the ToJSON entry points when the input allows a parallel
	// conversion of its tables.
	par *parallel
}

func makeConfig(opts []Option) config {
	c := config{
		indent:      2,
		delim:       toon.Comma,
		strict:      true,
		maxHeader:   8 << 20,
		maxDepth:    10000,
		maxLine:     toon.DefaultMaxLineLength,
		memBudget:   1 << 20,
		spoolBudget: spoolBudget,
		compactMax:  compactMax,
		bufSize:     lexBufSize,
		aheadMin:    aheadMin,
		csvComma:    ',',
		maxRecord:   64 << 20,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithIndent sets the number of spaces per TOON indentation level (default
// 2): the indentation FromJSON writes and the one ToJSON expects.
func WithIndent(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = 1
		}
		c.indent = n
	}
}

// WithDelimiter sets the document delimiter FromJSON writes (default
// toon.Comma; toon.Tab and toon.Pipe are the alternatives).
func WithDelimiter(d toon.Delimiter) Option { return func(c *config) { c.delim = d } }

// WithStrict turns the TOON decoder's strict checks (§14) on, the default,
// or off for ToJSON. Without them a document may repeat a key in an object;
// its meaning is last write wins (§14.3), which ToJSON applies: the key is
// written once, at its first position, with its last value. Because that
// cannot be known before an object ends, non-strict ToJSON writes the
// JSON to a spool first, in memory up to a budget and then in a temporary
// file, and copies it to w at the end (see ToJSON); strict ToJSON streams
// in constant memory, with no temporary file.
//
// For FromJSON, WithStrict(false) accepts JSON objects that repeat a
// member name, with the same meaning, as JSON parsers read them; strict
// FromJSON rejects them (see FromJSON).
func WithStrict(strict bool) Option { return func(c *config) { c.strict = strict } }

// WithJSONIndent makes ToJSON write indented JSON with n spaces per level.
// The default, 0, writes compact JSON.
func WithJSONIndent(n int) Option {
	return func(c *config) {
		if n < 0 {
			n = 0
		}
		c.jsonIndent = n
	}
}

// WithTempDir sets the directory for the temporary files of FromJSON and
// of non-strict ToJSON (default os.TempDir()). The files are unlinked as soon as they are created, so
// nothing is left behind even if the process is killed.
func WithTempDir(dir string) Option { return func(c *config) { c.tempDir = dir } }

// WithMaxHeaderSize sets how many bytes of field names FromJSON accepts in
// one tabular or keyed header (default 8 MiB). A document whose table
// needs a longer header is rejected with an error rather than held in
// memory.
func WithMaxHeaderSize(n int) Option {
	return func(c *config) {
		if n < 64 {
			n = 64
		}
		c.maxHeader = n
	}
}

// WithMaxDepth sets the deepest nesting accepted in either direction
// (default 10,000).
func WithMaxDepth(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = 1
		}
		c.maxDepth = n
	}
}

// WithCSVDelimiter sets the field delimiter of the CSV that FromCSV reads
// and ToCSV writes (default ','; ';' and '\t' are common). It must be an
// ASCII character other than '"', CR and LF. The TOON side's delimiter is
// WithDelimiter's.
func WithCSVDelimiter(c byte) Option { return func(cf *config) { cf.csvComma = c } }

// WithCSVStrings makes FromCSV write every cell as a string, instead of
// typing the cells that read as numbers, true, false or null.
func WithCSVStrings(on bool) Option { return func(c *config) { c.csvStrings = on } }

// WithMaxRecordSize sets the longest CSV record FromCSV accepts, in bytes
// (default 64 MiB): a record is held whole in memory while it is read, so
// a longer one, or a quote that is never closed, is an error rather than
// a buffer that grows with the input.
func WithMaxRecordSize(n int) Option {
	return func(c *config) {
		if n < 1024 {
			n = 1024
		}
		c.maxRecord = n
	}
}
