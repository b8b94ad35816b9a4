package toon

// Option configures a Decoder, an Encoder, Marshal or Unmarshal. Options that
// do not apply to the receiving side are ignored.
type Option func(*options)

type options struct {
	indent          int       // spaces per level, both sides
	strict          bool      // decoder: enforce §14
	maxLine         int       // both: longest line accepted and written
	maxDepth        int       // decoder: deepest nesting accepted
	useNumber       bool      // Decode: numbers as Number instead of float64
	delim           Delimiter // encoder: document delimiter
	tableBudget     int64     // encoder: bytes of rows kept in memory for tables of unknown length
	tempDir         string    // encoder: where rows beyond the budget spill
	disallowUnknown bool      // Unmarshal: unknown keys are an error
	intern          bool      // Unmarshal: intern repeated strings
}

func defaultOptions() options {
	return options{
		indent:      2,
		strict:      true,
		maxLine:     DefaultMaxLineLength,
		maxDepth:    10000,
		delim:       Comma,
		tableBudget: 64 << 20,
	}
}

func makeOptions(opts []Option) options {
	o := defaultOptions()
	applyOptions(&o, opts)
	return o
}

// applyOptions applies opts to o.
func applyOptions(o *options, opts []Option) {
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
}

// WithIndent sets the number of spaces per indentation level (default 2).
// Values below 1 are treated as 1.
func WithIndent(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = 1
		}
		o.indent = n
	}
}

// WithStrict turns the strict checks of §14 on (the default) or off. Without
// them the decoder follows the spec's lenient rules: last write wins for
// duplicate keys (and duplicate field names), counts are not checked, blank
// lines in arrays are skipped, indentation depth is floor(spaces/indent)
// and the first line of a scope may be deeper than one level, malformed
// headers are read as key-value lines, and keys before a bracket and field
// names are read as the reference implementation reads them (foo-bar[2]:
// a,b is the array "foo-bar"; see README.md, "Conformance notes"). What
// the lenient rules do not cover stays an error, as in the reference
// implementation, rather than dropping or inventing data: a row of the
// wrong width, a line that belongs to no scope, content after a root array,
// a root primitive followed by more lines.
func WithStrict(strict bool) Option { return func(o *options) { o.strict = strict } }

// DefaultMaxLineLength is the longest line, in bytes without its line
// feed, that a Decoder accepts and an Encoder or Marshal writes unless
// WithMaxLineLength says otherwise. The converters of package convert
// apply it to the JSON strings and numbers they read, each of which
// becomes part of one line.
const DefaultMaxLineLength = 64 << 20

// WithMaxLineLength sets the longest line, in bytes without its line feed,
// that the decoder accepts and the encoder writes (default
// DefaultMaxLineLength, 64 MiB). The decoder's buffer grows up to this
// size and no further; a longer line is an ErrLineTooLong error. The
// encoder refuses to write a longer line with an error that wraps
// ErrLineTooLong, so that what it writes, a decoder with the same limit
// reads: a document with longer lines needs the option on both sides.
func WithMaxLineLength(n int) Option {
	return func(o *options) {
		if n < 64 {
			n = 64
		}
		o.maxLine = n
	}
}

// WithMaxDepth sets the deepest nesting the decoder accepts (default 10,000).
func WithMaxDepth(n int) Option {
	return func(o *options) {
		if n < 1 {
			n = 1
		}
		o.maxDepth = n
	}
}

// UseNumber makes Decode and Unmarshal store numbers in interface values as
// Number (their exact text) instead of float64.
func UseNumber() Option { return func(o *options) { o.useNumber = true } }

// WithDelimiter sets the encoder's document delimiter (default Comma). It is
// used for every array the encoder writes and for quoting object values.
func WithDelimiter(d Delimiter) Option { return func(o *options) { o.delim = d } }

// WithTableBudget sets how many bytes of rows a table of unknown length
// (BeginTable with n < 0) keeps in memory before it spills them to a
// temporary file (default 64 MiB).
func WithTableBudget(n int64) Option { return func(o *options) { o.tableBudget = n } }

// WithTempDir sets the directory for temporary files (default os.TempDir()).
func WithTempDir(dir string) Option { return func(o *options) { o.tempDir = dir } }

// DisallowUnknownFields makes Unmarshal into a struct fail on keys that match
// no field.
func DisallowUnknownFields() Option { return func(o *options) { o.disallowUnknown = true } }

// InternStrings makes Unmarshal share one string for repeated values, which
// saves memory for low-cardinality columns.
func InternStrings() Option { return func(o *options) { o.intern = true } }
