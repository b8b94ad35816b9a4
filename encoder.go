package toon

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/toonstream/toon/internal/mem"

	"github.com/valyala/bytebufferpool"
)

// Buffer invariants: Encoder.b is the working slice of a ByteBuffer taken
// from outPool (Encoder.bb). Text is appended to it a line at a time and
// handed to the io.Writer once it holds flushSize bytes or more, at a line
// boundary, so memory stays flat at about flushSize plus one line whatever
// the size of the document. The first error from the io.Writer (or a short
// write) is kept in Encoder.err and returned from every later call.

// flushSize is the amount of buffered output that triggers a write to the
// underlying io.Writer.
const flushSize = 64 << 10

// outPool holds the encoders' output buffers, of up to maxPooled bytes.
// It is a plain sync.Pool: bytebufferpool's own Pool learns which buffers
// to keep from the lengths it is handed, and after 42,000 of them drops
// any larger than the usual; handed emptied buffers, it kept none above 64
// bytes, and handed their capacities, it makes every new buffer as large
// as the largest reused.
var outPool = sync.Pool{New: func() any { return new(bytebufferpool.ByteBuffer) }}

// maxPooled is the capacity of the largest output buffer kept for another
// document. A larger one, which only Marshal of a large document grows
// (and often hands over as its result), is left to the collector.
const maxPooled = 4 << 20

// writeOut writes p to w, turning a short write into io.ErrShortWrite.
func writeOut(w io.Writer, p []byte) error {
	n, err := w.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	return err
}

// An Encoder writes one TOON document to an io.Writer, in any of three
// ways that can be combined where they meet:
//
//   - Encode writes a whole document from a Go value, choosing every
//     array's and object's form as §9 and §10 require.
//   - WriteToken writes the document a token at a time, mirroring
//     Decoder.Token: arrays and keyed objects are laid out in the form
//     their start token declares, so decoder tokens can be piped straight
//     into an encoder.
//   - BeginTable, WriteRow and EndTable stream a tabular array of any
//     length at a fixed cost per row, at the root or as a field of an
//     object opened with WriteToken.
//
// Output is built in a pooled buffer and handed to the io.Writer in chunks
// of about 64 KiB, so memory stays flat whatever the size of the document.
// The document is flushed when it is complete; Flush writes what is
// buffered earlier. The first error (from the io.Writer, including a short
// write, or from misuse that leaves the document invalid) is sticky: every
// later call returns it.
//
// An Encoder writes a single document; use Reset to write another. It is
// not safe for concurrent use.
type Encoder struct {
	out     io.Writer
	opts    options
	delim   Delimiter // document delimiter
	docMask uint8     // quoting mask for object field values (§11.1)

	bb      *bytebufferpool.ByteBuffer // pooled buffer that b belongs to
	b       []byte                     // output not yet written to out
	err     error                      // sticky error
	noFlush bool                       // Marshal: keep everything in b
	sized   bool                       // Marshal: b is sized after the last document of its type (reserve leaves it)

	started bool // a line has been written: the next line starts with LF
	done    bool // the document is complete
	closed  bool // Close has been called

	carry int      // bytes of the current line already written out (checkLines)
	head  [40]byte // the first bytes of that line, for checkLines's error
	headN int      // ... how many of them head holds

	stack []wframe  // open containers of the token writer
	tkeys *keySets  // the keys of each open object of the token writer, by stack index
	prog  []progOp  // row program of the open tabular array or keyed object
	arena []byte    // field names of prog
	seg   []byte    // the fields segment of prog's header (tableHeader), or empty
	segD  Delimiter // seg's delimiter
	tbl   table     // the open streaming table

	// Encode and Marshal (encode.go):
	sc       *encScratch      // scratch stacks, while a value is written
	path     map[ref]struct{} // the containers on the path from the root past cycleDepth
	level    int              // current nesting depth
	dynType  mem.Ptr          // the type word of the last interface value of a type dynamic looked up ...
	dynPlan  *encPlan         // ... and its plan
	cellText []byte           // text of a row's cells that are not in the value (rowValues)
	rows     rowStyle         // the layout of valueRows' last table's rows
}

// NewEncoder returns an Encoder that writes to w. The options that apply
// are WithIndent, WithDelimiter, WithTableBudget, WithTempDir,
// WithMaxDepth (the deepest nesting Encode and WriteToken accept) and
// WithMaxLineLength (the longest line written: a longer one is an error
// wrapping ErrLineTooLong, as a decoder would refuse it).
func NewEncoder(w io.Writer, opts ...Option) *Encoder {
	e := &Encoder{out: w}
	e.setOptions(makeOptions(opts))
	return e
}

func (e *Encoder) setOptions(o options) {
	switch o.delim {
	case Comma, Tab, Pipe:
	default:
		o.delim = Comma
	}
	e.opts = o
	e.delim = o.delim
	e.docMask = quoteMask(o.delim)
}

// Reset discards the Encoder's state, including any buffered output, an
// open table and a sticky error, and makes it write a new document to w.
func (e *Encoder) Reset(w io.Writer) {
	e.dropTable()
	e.release()
	e.out = w
	e.err = nil
	e.started, e.done, e.closed = false, false, false
	e.carry, e.headN = 0, 0
	e.stack = e.stack[:0]
	e.prog = e.prog[:0]
	e.arena = e.arena[:0]
	clear(e.path)
	e.level = 0
}

// ended returns the misuse error of a call (named by call) made after
// Close or after the end of the document, or nil. Misuse errors are not
// sticky unless the document written so far is invalid.
func (e *Encoder) ended(call string) error {
	switch {
	case e.closed:
		return misuse(ErrClosed, call+" after Close")
	case e.done:
		return misuse(ErrComplete, call+" after the end of the document")
	}
	return nil
}

// fail records err as the sticky error and returns it.
func (e *Encoder) fail(err error) error {
	if e.err == nil {
		e.err = err
	}
	return e.err
}

// acquire makes sure the output buffer is held.
func (e *Encoder) acquire() {
	if e.bb == nil {
		e.bb = outPool.Get().(*bytebufferpool.ByteBuffer)
		e.b = e.bb.B[:0]
	}
}

// release returns the output buffer to the pool, dropping its contents.
func (e *Encoder) release() {
	if e.bb != nil {
		if cap(e.b) <= maxPooled {
			e.bb.B = e.b[:0]
			outPool.Put(e.bb)
		}
		e.bb, e.b = nil, nil
	}
	if e.tkeys != nil {
		keySetPool.Put(e.tkeys)
		e.tkeys = nil
	}
	if e.sc != nil {
		e.sc.reset()
		scratchPool.Put(e.sc)
		e.sc = nil
	}
}

// keySets are the key sets of the token writer's open objects, by stack
// index.
type keySets struct{ s []keySet }

// keySetPool holds keySets between documents, so that they keep their
// capacity: an encoder per document then costs no allocation for them.
var keySetPool = sync.Pool{New: func() any { return new(keySets) }}

// flush writes the buffered output to the io.Writer.
func (e *Encoder) flush() error {
	if e.err != nil {
		return e.err
	}
	if e.noFlush || len(e.b) == 0 {
		return nil
	}
	if e.out == nil {
		return e.fail(errNoWriter)
	}
	if err := e.checkLines(); err != nil {
		return e.fail(err)
	}
	if err := writeOut(e.out, e.b); err != nil {
		return e.fail(err)
	}
	e.wrote(e.b)
	e.b = e.b[:0]
	return nil
}

// Line length. A decoder refuses a line longer than its maximum line
// length, so the encoder does not write one: the output is checked before
// it leaves the buffer (flush), and Marshal checks its document. The
// table writer checks each row as it writes it, so as to name the row.

// checkLines returns an error wrapping ErrLineTooLong if a line in e.b,
// with the e.carry bytes of its first line already written out, is longer
// than the maximum line length. It steps through the buffer a window of
// that length at a time, looking back from the end of each window for its
// last line feed, so its cost is that of the lines around the windows'
// ends, not that of the output.
func (e *Encoder) checkLines() error {
	limit := e.opts.maxLine
	b := e.b
	p := -e.carry // start of the line being checked, before b when < 0
	for len(b)-p > limit {
		lo := max(p, 0)
		q := bytes.LastIndexByte(b[lo:p+limit+1], '\n')
		if q < 0 {
			return e.errLongLine(p)
		}
		p = lo + q + 1
	}
	return nil
}

// wrote records that b has been written out: the length of the line it
// leaves open and that line's first bytes.
func (e *Encoder) wrote(b []byte) {
	if q := bytes.LastIndexByte(b, '\n'); q >= 0 {
		e.carry = len(b) - q - 1
		e.headN = copy(e.head[:], b[q+1:])
		return
	}
	e.headN += copy(e.head[e.headN:], b)
	e.carry += len(b)
}

// errLongLine reports the line that starts at e.b[p] (before e.b, where
// its first bytes are e.head, when p < 0) as too long.
func (e *Encoder) errLongLine(p int) error {
	var start []byte
	if p < 0 {
		start = e.head[:e.headN]
	} else {
		start = e.b[p:min(len(e.b), p+40)]
	}
	return fmt.Errorf("toon: %w: the line that begins %q... would be longer than %d bytes, the longest a decoder accepts (see WithMaxLineLength)",
		ErrLineTooLong, start, e.opts.maxLine)
}

// maybeFlush flushes once a chunk's worth of output is buffered.
func (e *Encoder) maybeFlush() error {
	if len(e.b) >= flushSize {
		return e.flush()
	}
	return e.err
}

// complete marks the document as complete and flushes it.
func (e *Encoder) complete() error {
	e.done = true
	if e.noFlush {
		return e.err
	}
	err := e.flush()
	e.release()
	return err
}

// Flush writes any buffered output to the io.Writer. The document need not
// be complete. It returns the sticky error, if any.
func (e *Encoder) Flush() error {
	if e.bb == nil {
		return e.err
	}
	if t := &e.tbl; t.holding {
		// The rows of the open table wait for its header in the table's
		// chunks; the output before the table is in pre.
		e.b, t.pre = t.pre, e.b
		err := e.flush()
		e.b, t.pre = t.pre, e.b
		return err
	}
	return e.flush()
}

// Close completes the document and flushes it. A root object opened
// implicitly by BeginTable is closed here. It is an error to Close with a
// table or a container still open; in that case nothing more is written,
// and a temporary file of the table is removed. Close returns the sticky
// error, if any.
func (e *Encoder) Close() error {
	if e.tbl.active {
		name := e.tbl.name
		e.dropTable()
		e.fail(misuse(ErrTableOpen, "Close with "+name+" still open"))
	}
	if e.err == nil && len(e.stack) == 1 && e.stack[0].implicit && !e.stack[0].keyPending {
		e.stack = e.stack[:0]
		e.complete()
	}
	if e.err == nil && len(e.stack) > 0 {
		e.fail(misuse(ErrIncomplete, "Close before the end of the document"))
	}
	if e.err == nil {
		e.flush()
	}
	e.release()
	e.closed = true
	return e.err
}

// begun reports whether anything of the document has been written or
// opened.
func (e *Encoder) begun() bool { return e.started || e.done || len(e.stack) > 0 }

// line starts a new line at the given depth.
func (e *Encoder) line(depth int) { e.newLine(depth*e.opts.indent, "") }

// newLine starts a new line indented by n spaces, and appends lead to it.
// The text goes to a local slice, stored back with setB: a store of e.b
// itself costs a write barrier while the collector marks.
func (e *Encoder) newLine(n int, lead string) {
	b := e.b
	if e.started {
		b = append(b, '\n')
	}
	e.started = true
	if n <= len(spaces) {
		b = append(b, spaces[:n]...)
	} else {
		b = appendIndent(b, n)
	}
	if lead != "" {
		b = append(b, lead...)
	}
	e.setB(b)
}

// setB stores b, which extends the output e.b, in e.b. Where b is still
// e.b's array (it did not grow), only the length is stored: a store of the
// array's address to the Encoder, which is on the heap, costs a write
// barrier while the collector marks, and a Marshal that allocates its
// large result runs with the collector marking much of the time.
func (e *Encoder) setB(b []byte) {
	if mem.BytesData(b) == mem.BytesData(e.b) && cap(b) == cap(e.b) {
		e.b = e.b[:len(b)]
		return
	}
	e.b = b
}

// Encode writes v as a complete document and flushes it. v may be:
//
//   - nil, a string, a bool, any integer or floating-point type, a
//     json.Number or Number (written exactly, in canonical form, without
//     passing through float64), or a Value;
//   - map[string]any, written with its keys in sorted order, or Object,
//     written in its own order;
//   - []any.
//
// Values nest freely. Floats are written in canonical form (§2) with NaN
// and the infinities as null (§3); strings and keys that are not valid
// UTF-8 have their bad bytes replaced by U+FFFD (two keys of one object
// that are then written alike are an error, not a duplicate key). A root
// value of any other type is
// encoded by type, as Marshal describes, and so are such values inside the
// generic containers above. Encode must be the first write of the document.
func (e *Encoder) Encode(v any) error {
	if e.err != nil {
		return e.err
	}
	if err := e.ended("Encode"); err != nil {
		return err
	}
	if e.tbl.active {
		return misuse(ErrTableOpen, "Encode while "+e.tbl.name+" is open")
	}
	if e.begun() {
		return misuse(ErrPlacement, "Encode after the document has begun")
	}
	e.acquire()
	if err := e.encodeRoot(v); err != nil {
		return e.fail(err)
	}
	return e.complete()
}

var marshalPool = sync.Pool{New: func() any { return new(Encoder) }}

// handOver is the size from which Marshal returns its buffer instead of a
// copy, when the buffer is nearly full.
const handOver = 1 << 20

// Marshal returns the TOON document for v. The options that apply are
// WithIndent, WithDelimiter, WithMaxDepth and WithMaxLineLength.
//
// Generic values are written as Encoder.Encode describes. Values of other
// types are written as their generic equivalents, byte for byte, so their
// forms follow from the data (§9, §10): a slice of structs with primitive
// fields is a tabular array, a struct field holding a struct is a nested
// field group when uniform, a map of uniform structs is a keyed table, and
// everything else the matching list or object form. The equivalents, as
// encoding/json maps types:
//
//   - A struct is an Object of its fields in field order, named by the
//     field's `toon:"name"` tag, else its `json:"name"` tag, else the field
//     name; "-" skips a field, unexported fields are left out, the fields
//     of embedded structs are promoted (inlined), and the options
//     omitempty (false, 0, "", nil, empty slices, maps and arrays) and
//     omitzero leave fields out.
//   - A map is an Object in sorted key order; keys are strings, integers
//     or encoding.TextMarshalers. A slice or array is []any; nil slices,
//     maps, pointers and interfaces are null.
//   - time.Time is its RFC 3339 text with nanoseconds, []byte base64 text
//     (as encoding/json), *big.Int and *big.Float their exact numbers, and
//     Number and json.Number their numbers.
//   - A type implementing Marshaler, json.Marshaler (whose JSON is read
//     with its key order and exact numbers) or encoding.TextMarshaler (a
//     string), in that order of precedence, is what its method returns.
//     Methods with pointer receivers count.
//
// Channels, functions and complex numbers are an UnsupportedTypeError.
// Values of these types may also stand inside generic containers
// (map[string]any{"users": []User{...}}): the document is then written as
// the generic equivalent of the whole. A value that contains itself
// (through pointers, maps or slices) is an UnsupportedValueError, found
// as encoding/json finds it: once the nesting passes 1,000 levels, the
// containers on the current path are tracked, so Encode has written at
// most those levels when it fails. Values nested deeper than WithMaxDepth
// are an error too.
func Marshal(v any, opts ...Option) ([]byte, error) {
	e := marshalPool.Get().(*Encoder)
	e.Reset(nil)
	// The options go into the pooled encoder: options of Marshal's own
	// would be on the heap, as an Option may keep their address.
	e.opts = defaultOptions()
	applyOptions(&e.opts, opts)
	e.setOptions(e.opts)
	e.noFlush = true
	// A large document is written into the slice it is returned in, sized
	// after the last document of the same type, so that it need not be
	// copied out. The others, and the first of their type, are written
	// into a pooled buffer and copied.
	root := nullPlan
	if v != nil {
		root = e.typePlan(v)
	}
	own := false
	if n := int(root.marshalLen.Load()); n >= ownMin {
		// Not cleared: the encoder writes every byte before it reads it
		// (it writes into pooled buffers that hold old text too), and the
		// room past the document is cleared below when it is returned.
		e.b = mem.MakeNoZero(n + n/marshalSlack + rowSlack + 1024)
		own, e.sized = true, true
	} else {
		e.acquire()
	}
	var out []byte
	err := e.encodeRoot(v)
	if err == nil {
		err = e.checkLines()
	}
	if err == nil {
		root.marshalLen.Store(int64(len(e.b)))
		switch {
		case own && len(e.b) >= cap(e.b)/2:
			out = e.b
			clear(out[len(out):cap(out)]) // no bytes of other memory past the document
		case !own && len(e.b) >= handOver && cap(e.b)-len(e.b) <= len(e.b)/8:
			// A large document that fills its buffer (a table sized in
			// advance): hand the buffer over rather than copy it.
			out = e.b
			e.b = e.b[:0:0]
		default:
			out = bytes.Clone(e.b)
		}
	}
	if own {
		e.b, e.sized = nil, false // not pooled
	}
	e.Reset(nil)
	marshalPool.Put(e)
	return out, err
}

// ownMin is the length of the last document of a type from which Marshal
// writes the next one into a slice of its own, and marshalSlack sets the
// room it leaves past that length: a 1/marshalSlack part of it, for a
// document a little longer, and the room the row writers keep ahead of
// their text (rowSlack), which would else grow the slice near its end.
// From ownMin on, the room left is not much more than what the rounding
// of a large allocation to whole pages adds to a copy.
const (
	ownMin       = 64 << 10
	marshalSlack = 32
)

func appendNumberString(b []byte, s string) ([]byte, error) {
	b, ok := appendNumber(b, mem.Bytes(s))
	if !ok {
		return b, invalidNumber(s)
	}
	return b, nil
}

func invalidNumber(s string) error {
	return encodeErr(ErrInvalidNumber, "invalid number "+strconv.Quote(s))
}

// repeatedName finds two of the n names of a field list (name(i)) that
// are written alike: first a name given twice, else, when some name is not
// valid UTF-8, two whose bad bytes are replaced alike (nameClash). It
// returns the earlier and the later, or ok false.
//
// A short list is searched pair by pair, which allocates nothing; a long
// one goes through a set, so a header of many fields costs linear time.
func repeatedName(n int, name func(int) string) (earlier, later string, ok bool) {
	valid := true // every name is valid UTF-8, and written as it is
	if n <= smallNames {
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if name(i) == name(j) {
					return name(j), name(i), true
				}
			}
			valid = valid && validString(name(i))
		}
	} else {
		seen := make(map[string]struct{}, n)
		for i := 0; i < n; i++ {
			k := name(i)
			if _, dup := seen[k]; dup {
				return k, k, true
			}
			seen[k] = struct{}{}
			valid = valid && validString(k)
		}
	}
	if valid {
		return "", "", false
	}
	return nameClash(n, name)
}

// smallNames is the longest field list repeatedName searches pair by pair.
const smallNames = 16

// nameClash finds the first of n names (name(i)) that is written as an
// earlier one is (writtenKey): the same name again, or one whose bad
// UTF-8 bytes are replaced alike. It returns the earliest such earlier
// name and the later one, or ok false.
func nameClash(n int, name func(int) string) (earlier, later string, ok bool) {
	seen := make(map[string]string, n)
	for i := 0; i < n; i++ {
		k := name(i)
		w := writtenKey(k)
		if prev, dup := seen[w]; dup {
			return prev, k, true
		}
		seen[w] = k
	}
	return "", "", false
}

func errKeysAlike(a, b, w string) error {
	return encodeErr(ErrDuplicateKey, "keys "+strconv.Quote(a)+" and "+strconv.Quote(b)+
		" are both written as "+strconv.Quote(w)+" (invalid UTF-8 is replaced by U+FFFD), a duplicate key")
}
