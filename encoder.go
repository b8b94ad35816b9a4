package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/valyala/bytebufferpool"
)

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

	started bool // a line has been written: the next line starts with LF
	done    bool // the document is complete
	closed  bool // Close has been called

	carry int      // bytes of the current line already written out (checkLines)
	head  [40]byte // the first bytes of that line, for checkLines's error
	headN int      // ... how many of them head holds

	stack []wframe // open containers of the token writer
	tkeys *keySets // the keys of each open object of the token writer, by stack index
	prog  []progOp // row program of the open tabular array or keyed object
	arena []byte   // field names of prog
	tbl   table    // the open streaming table

	keys    []string         // Encode: scratch stack of sorted map keys
	nodes   []tnode          // Encode: scratch stack of field trees
	fieldIx []objIndex       // Encode: key index of the Object of a row at each depth (field)
	path    map[ref]struct{} // Encode: the containers on the path from the root past cycleDepth
	level   int              // Encode: current nesting depth
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
	e.keys = e.keys[:0]
	e.nodes = e.nodes[:0]
	clear(e.path)
	e.forgetRows()
	e.level = 0
}

// errNoWriter reports output to a nil io.Writer.
var errNoWriter = errors.New("toon: Encoder has a nil io.Writer")

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

// UnsupportedTypeError is returned by Encode and Marshal for a value whose
// type they cannot encode.
type UnsupportedTypeError struct {
	Type reflect.Type
}

// Error implements error.
func (e *UnsupportedTypeError) Error() string {
	if e.Type == nil {
		return "toon: unsupported type <nil>"
	}
	return "toon: unsupported type " + e.Type.String()
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
		e.bb = outPool.Get()
		e.b = e.bb.B[:0]
	}
}

// release returns the output buffer to the pool, dropping its contents.
func (e *Encoder) release() {
	if e.bb != nil {
		e.bb.B = e.b[:0]
		outPool.Put(e.bb)
		e.bb, e.b = nil, nil
	}
	if e.tkeys != nil {
		keySetPool.Put(e.tkeys)
		e.tkeys = nil
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
func (e *Encoder) line(depth int) {
	if e.started {
		e.b = append(e.b, '\n')
	}
	e.started = true
	e.b = appendIndent(e.b, depth*e.opts.indent)
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
	e.setOptions(makeOptions(opts))
	e.noFlush = true
	e.acquire()
	var out []byte
	err := e.encodeRoot(v)
	if err == nil {
		err = e.checkLines()
	}
	if err == nil {
		if len(e.b) >= handOver && cap(e.b)-len(e.b) <= len(e.b)/8 {
			// A large document that fills its buffer (a table sized in
			// advance): hand the buffer over rather than copy it.
			out = e.b
			e.b = e.b[:0:0]
		} else {
			out = append(make([]byte, 0, len(e.b)), e.b...)
		}
	}
	e.Reset(nil)
	marshalPool.Put(e)
	return out, err
}

// ---- generic values ----

// vkind is the JSON-model kind of a Go value accepted by Encode.
type vkind uint8

const (
	kBad vkind = iota
	kPrim
	kObj
	kArr
)

func kindOf(v any) vkind {
	switch v.(type) {
	case nil, string, bool, float64, float32, int, int64, int32, int16, int8,
		uint, uint64, uint32, uint16, uint8, uintptr, json.Number, Number, Value:
		return kPrim
	case map[string]any, Object:
		return kObj
	case []any:
		return kArr
	}
	return kBad
}

func unsupported(v any) error { return &UnsupportedTypeError{Type: reflect.TypeOf(v)} }

// appendPrim appends the primitive v; mask is the quoting mask of the
// relevant delimiter.
func appendPrim(b []byte, v any, mask uint8) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendStr(b, x, mask), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case float64:
		return appendFloat(b, x, 64), nil
	case int:
		return appendInt(b, int64(x)), nil
	case int64:
		return appendInt(b, x), nil
	case float32:
		return appendFloat(b, float64(x), 32), nil
	case int32:
		return appendInt(b, int64(x)), nil
	case int16:
		return appendInt(b, int64(x)), nil
	case int8:
		return appendInt(b, int64(x)), nil
	case uint:
		return appendUint(b, uint64(x)), nil
	case uint64:
		return appendUint(b, x), nil
	case uint32:
		return appendUint(b, uint64(x)), nil
	case uint16:
		return appendUint(b, uint64(x)), nil
	case uint8:
		return appendUint(b, uint64(x)), nil
	case uintptr:
		return appendUint(b, uint64(x)), nil
	case json.Number:
		return appendNumberString(b, string(x))
	case Number:
		return appendNumberString(b, string(x))
	case Value:
		b, ok := appendValue(b, &x, mask)
		if !ok {
			return b, invalidNumber(x.str())
		}
		return b, nil
	}
	return b, unsupported(v)
}

func appendNumberString(b []byte, s string) ([]byte, error) {
	b, ok := appendNumber(b, unsafe.Slice(unsafe.StringData(s), len(s)))
	if !ok {
		return b, invalidNumber(s)
	}
	return b, nil
}

func invalidNumber(s string) error {
	return errors.New("toon: invalid number " + strconv.Quote(s))
}

// objLen returns the number of members of an object value, or -1 if v is
// not an object.
func objLen(v any) int {
	switch x := v.(type) {
	case map[string]any:
		return len(x)
	case Object:
		return len(x)
	}
	return -1
}

// lookup finds key k in the object value v. hint is the position where the
// key is expected in an Object.
func lookup(v any, k string, hint int) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		r, ok := x[k]
		return r, ok
	case Object:
		if hint < len(x) && x[hint].Key == k {
			return x[hint].Value, true
		}
		return x.Get(k)
	}
	return nil, false
}

// field finds key k in the object x of a table row, at nesting depth
// level, as lookup does. An Object that lists its members in another order
// than the header is searched through an index of its keys, built once for
// the Object (e.fieldIx[level]), so that each of its fields costs constant
// time rather than a scan of the Object.
func (e *Encoder) field(x any, k string, hint, level int) (any, bool) {
	o, ok := x.(Object)
	if !ok || hint < len(o) && o[hint].Key == k || len(o) <= smallNames {
		return lookup(x, k, hint)
	}
	for len(e.fieldIx) <= level {
		e.fieldIx = append(e.fieldIx, objIndex{})
	}
	ix := &e.fieldIx[level]
	if ix.first != &o[0] || ix.n != len(o) {
		ix.build(o)
	}
	if i, ok := ix.pos[k]; ok && o[i].Key == k {
		return o[i].Value, true
	}
	return nil, false
}

// forgetRows drops the key indexes of field, which are valid for the rows
// of one table only: the caller may change an Object between tables.
func (e *Encoder) forgetRows() {
	for i := range e.fieldIx {
		e.fieldIx[i].first = nil
	}
}

// objIndex maps the keys of one Object (identified by its first member
// and length) to their positions.
type objIndex struct {
	first *Member
	n     int
	pos   map[string]int
}

func (ix *objIndex) build(o Object) {
	if ix.pos == nil || len(ix.pos) > 2*len(o)+64 {
		ix.pos = make(map[string]int, len(o))
	} else {
		clear(ix.pos)
	}
	for i := len(o) - 1; i >= 0; i-- { // the first of repeated keys wins, as in Get
		ix.pos[o[i].Key] = i
	}
	ix.first, ix.n = &o[0], len(o)
}

// objView iterates over an object's members in output order.
type objView struct {
	m    map[string]any
	o    Object
	keys []string // m's keys, sorted
}

func (v *objView) len() int {
	if v.m != nil {
		return len(v.keys)
	}
	return len(v.o)
}

func (v *objView) key(i int) string {
	if v.m != nil {
		return v.keys[i]
	}
	return v.o[i].Key
}

func (v *objView) val(i int) any {
	if v.m != nil {
		return v.m[v.keys[i]]
	}
	return v.o[i].Value
}

// open returns a view of the object value x, taking sorted keys for a map
// from the scratch stack. The caller must call e.closeView(mark) when done
// with it, in last-in first-out order.
func (e *Encoder) open(x any) (v objView, mark int) {
	mark = len(e.keys)
	switch o := x.(type) {
	case map[string]any:
		for k := range o {
			e.keys = append(e.keys, k)
		}
		v.keys = e.keys[mark:]
		slices.Sort(v.keys)
		v.m = o
		if v.m == nil {
			v.m = map[string]any{}
		}
	case Object:
		v.o = o
	}
	return v, mark
}

func (e *Encoder) closeView(mark int) { e.keys = e.keys[:mark] }

// checkKeys reports a repeated key in an Object.
func (e *Encoder) checkKeys(o Object) error {
	if len(o) < 2 {
		return nil
	}
	if len(o) <= 16 {
		for i := 1; i < len(o); i++ {
			for j := 0; j < i; j++ {
				if o[i].Key == o[j].Key {
					return errDupKey(o[i].Key)
				}
			}
		}
		return nil
	}
	mark := len(e.keys)
	for i := range o {
		e.keys = append(e.keys, o[i].Key)
	}
	ks := e.keys[mark:]
	slices.Sort(ks)
	var err error
	for i := 1; i < len(ks); i++ {
		if ks[i] == ks[i-1] {
			err = errDupKey(ks[i])
			break
		}
	}
	e.keys = e.keys[:mark]
	return err
}

func errDupKey(k string) error {
	return errors.New("toon: duplicate key " + strconv.Quote(k) + " in Object")
}

// keyClash returns an error if two keys of v have the same written key
// (writtenKey), and nil otherwise. The writers call it when they have
// written a key with bad bytes replaced, the only way two distinct keys
// can be written alike.
func keyClash(v *objView) error {
	if a, b, ok := nameClash(v.len(), v.key); ok {
		return errKeysAlike(a, b, writtenKey(b))
	}
	return nil
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
			valid = valid && utf8.ValidString(name(i))
		}
	} else {
		seen := make(map[string]struct{}, n)
		for i := 0; i < n; i++ {
			k := name(i)
			if _, dup := seen[k]; dup {
				return k, k, true
			}
			seen[k] = struct{}{}
			valid = valid && utf8.ValidString(k)
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
	return errors.New("toon: keys " + strconv.Quote(a) + " and " + strconv.Quote(b) +
		" are both written as " + strconv.Quote(w) + " (invalid UTF-8 is replaced by U+FFFD), a duplicate key")
}

// tnode is one node of a field tree (§9.3), stored in pre-order in
// Encoder.nodes: a leaf field, or a nested field group whose children
// follow it. The tree's root is an unnamed group.
type tnode struct {
	name   string
	size   int // nodes in the subtree, itself included
	nchild int // direct children; 0 for a leaf
}

// buildTree appends the field tree of the non-empty object x to e.nodes.
// It fails if x is not a candidate for a tabular row: a member that is an
// array, an empty object or of an unsupported type, or a repeated key.
func (e *Encoder) buildTree(x any, level int) bool {
	if level > e.opts.maxDepth {
		return false
	}
	if o, ok := x.(Object); ok && e.checkKeys(o) != nil {
		return false
	}
	if level > cycleDepth {
		// A row that contains itself is not a row (writeFields then
		// reports the cycle).
		r := genericRef(x)
		if e.visit(r, x) != nil {
			return false
		}
		defer e.unvisit(r)
	}
	v, mark := e.open(x)
	defer e.closeView(mark)
	for i := 0; i < v.len(); i++ {
		if !utf8.ValidString(v.key(i)) {
			if keyClash(&v) != nil {
				// A header would repeat a field: the object is written
				// expanded, where writeFields reports the clash.
				return false
			}
			break // keyClash has looked at every key
		}
	}
	root := len(e.nodes)
	e.nodes = append(e.nodes, tnode{nchild: v.len()})
	for i := 0; i < v.len(); i++ {
		val := v.val(i)
		switch kindOf(val) {
		case kPrim:
			e.nodes = append(e.nodes, tnode{name: v.key(i), size: 1})
		case kObj:
			if objLen(val) == 0 {
				return false
			}
			at := len(e.nodes)
			if !e.buildTree(val, level+1) {
				return false
			}
			e.nodes[at].name = v.key(i)
		default:
			return false
		}
	}
	e.nodes[root].size = len(e.nodes) - root
	return true
}

// matchTree reports whether the object x has exactly the fields of the
// group at e.nodes[root], with primitives at the leaves and non-empty
// objects matching the nested groups.
func (e *Encoder) matchTree(x any, root, level int) bool {
	if level > e.opts.maxDepth || objLen(x) != e.nodes[root].nchild {
		return false
	}
	end := root + e.nodes[root].size
	hint := 0
	for c := root + 1; c < end; c += e.nodes[c].size {
		n := &e.nodes[c]
		v, ok := e.field(x, n.name, hint, level)
		hint++
		if !ok {
			return false
		}
		if n.nchild == 0 {
			if kindOf(v) != kPrim {
				return false
			}
		} else if !e.matchTree(v, c, level+1) {
			return false
		}
	}
	return true
}

// tabularTree decides whether the array a takes the tabular form (§9.3).
// If it does, the field tree is at e.nodes[root:] and the caller must
// truncate e.nodes to root when done.
func (e *Encoder) tabularTree(a []any) (root int, ok bool) {
	e.forgetRows()
	root = len(e.nodes)
	if objLen(a[0]) <= 0 || !e.buildTree(a[0], e.level+1) {
		e.nodes = e.nodes[:root]
		return root, false
	}
	for _, x := range a[1:] {
		if !e.matchTree(x, root, e.level+1) {
			e.nodes = e.nodes[:root]
			return root, false
		}
	}
	return root, true
}

// keyedTree decides whether the object v takes the keyed tabular form
// (§9.5): at least two entries whose values are non-empty objects with the
// same fields, every column primitive or nested-uniform.
func (e *Encoder) keyedTree(v *objView) (root int, ok bool) {
	e.forgetRows()
	root = len(e.nodes)
	if v.len() < 2 {
		return root, false
	}
	first := v.val(0)
	if objLen(first) <= 0 || !e.buildTree(first, e.level+1) {
		e.nodes = e.nodes[:root]
		return root, false
	}
	for i := 1; i < v.len(); i++ {
		if !e.matchTree(v.val(i), root, e.level+1) {
			e.nodes = e.nodes[:root]
			return root, false
		}
	}
	return root, true
}

// appendFieldsSeg appends the fields segment of the group at e.nodes[root]
// ("{a,b{c,d}}"), without the colon.
func (e *Encoder) appendFieldsSeg(b []byte, root int) []byte {
	b = append(b, '{')
	end := root + e.nodes[root].size
	for c := root + 1; c < end; c += e.nodes[c].size {
		if c > root+1 {
			b = append(b, byte(e.delim))
		}
		b = appendKey(b, e.nodes[c].name)
		if e.nodes[c].nchild > 0 {
			b = e.appendFieldsSeg(b, c)
		}
	}
	return append(b, '}')
}

// appendHeader appends "[N<delim?>]" or, keyed, "[N:<delim?>]".
func (e *Encoder) appendHeader(b []byte, n int, keyed bool) []byte {
	return appendBracket(b, n, keyed, e.delim)
}

// appendCells appends the leaf values of x, at nesting depth level, in the
// depth-first order of the group at e.nodes[root], each preceded by the
// delimiter except the first.
func (e *Encoder) appendCells(x any, root, level int, first bool) (bool, error) {
	end := root + e.nodes[root].size
	hint := 0
	for c := root + 1; c < end; c += e.nodes[c].size {
		n := &e.nodes[c]
		v, _ := e.field(x, n.name, hint, level)
		hint++
		if n.nchild > 0 {
			var err error
			if first, err = e.appendCells(v, c, level+1, first); err != nil {
				return first, err
			}
			continue
		}
		if !first {
			e.b = append(e.b, byte(e.delim))
		}
		first = false
		var err error
		if e.b, err = appendPrim(e.b, v, e.docMask); err != nil {
			return first, err
		}
	}
	return first, nil
}

// placement of a value: where its text starts.
type place uint8

const (
	atRoot  place = iota // the document's root
	atField              // after a key already written
	atItem               // a list item at the given depth
)

func (e *Encoder) encodeRoot(v any) error {
	if k := kindOf(v); k == kObj || k == kArr {
		foreign, err := e.hasForeign(v, 0)
		if err != nil {
			return err
		}
		if foreign {
			// Go values of other types (structs, typed slices and maps)
			// inside generic containers: write the generic equivalent of
			// the whole.
			if v, err = e.genericOf(v, 0); err != nil {
				return err
			}
		}
	}
	switch kindOf(v) {
	case kPrim:
		e.line(0)
		var err error
		e.b, err = appendPrim(e.b, v, e.docMask)
		return err
	case kArr:
		return e.writeArray(v.([]any), atRoot, 0)
	case kObj:
		if o, ok := v.(Object); ok {
			if err := e.checkKeys(o); err != nil {
				return err
			}
		}
		ov, mark := e.open(v)
		defer e.closeView(mark)
		if ov.len() == 0 {
			return nil // an empty root object is an empty document (§8)
		}
		if root, ok := e.keyedTree(&ov); ok {
			defer func() { e.nodes = e.nodes[:root] }()
			e.line(0)
			return e.writeKeyed(&ov, root, 1)
		}
		return e.writeFields(&ov, 0, false)
	}
	return encodeOther(e, v)
}

// hasForeign reports whether a generic container holds, at any depth, a
// value of a type kindOf does not know. Past the maximum depth it stops and
// leaves the depth error to the encoder; a cycle is an error.
func (e *Encoder) hasForeign(v any, depth int) (bool, error) {
	if depth > e.opts.maxDepth {
		return false, nil
	}
	if depth > cycleDepth {
		r := genericRef(v) // the zero ref, which visit ignores, for a primitive
		if err := e.visit(r, v); err != nil {
			return false, err
		}
		defer e.unvisit(r)
	}
	switch x := v.(type) {
	case map[string]any:
		for _, m := range x {
			if f, err := e.hasForeign(m, depth+1); f || err != nil {
				return f, err
			}
		}
	case Object:
		for i := range x {
			if f, err := e.hasForeign(x[i].Value, depth+1); f || err != nil {
				return f, err
			}
		}
	case []any:
		for _, m := range x {
			if f, err := e.hasForeign(m, depth+1); f || err != nil {
				return f, err
			}
		}
	default:
		return kindOf(v) == kBad, nil
	}
	return false, nil
}

// Cycles. A value that contains itself (through a pointer, a map or a
// slice) would nest without end. As encoding/json does, the encoder
// tracks the containers on the path from the root to the value it is at
// once the nesting passes cycleDepth, and reports a container met again
// on its own path as an UnsupportedValueError. Below that depth nothing is
// tracked: a cycle then costs at most cycleDepth levels of work and
// output, and acyclic values that share containers cost nothing.
const cycleDepth = 1000

// ref identifies a container: its address (a map's, a slice's first
// element's, the target of a pointer), a slice's length (a slice and its
// prefix are different values) and its type (a struct and its first field
// share an address).
type ref struct {
	p unsafe.Pointer
	n int
	t reflect.Type
}

// genericRef returns the ref of a generic container: a map[string]any, an
// Object or an []any; the zero ref for an empty slice, which holds
// nothing.
func genericRef(v any) ref {
	switch x := v.(type) {
	case map[string]any:
		return ref{p: reflect.ValueOf(x).UnsafePointer(), t: reflect.TypeOf(x)}
	case Object:
		if len(x) > 0 {
			return ref{p: unsafe.Pointer(&x[0]), n: len(x), t: reflect.TypeOf(x)}
		}
	case []any:
		if len(x) > 0 {
			return ref{p: unsafe.Pointer(&x[0]), n: len(x), t: reflect.TypeOf(x)}
		}
	}
	return ref{}
}

// visit adds r, the container v, to the path, or returns an
// UnsupportedValueError if it is on the path already. The caller must
// call unvisit(r) when it leaves the container, unless visit failed.
func (e *Encoder) visit(r ref, v any) error {
	if r.p == nil {
		return nil
	}
	if e.path == nil {
		e.path = make(map[ref]struct{})
	}
	if _, ok := e.path[r]; ok {
		return &UnsupportedValueError{Value: reflect.ValueOf(v), Str: "encountered a cycle via " + r.t.String()}
	}
	e.path[r] = struct{}{}
	return nil
}

func (e *Encoder) unvisit(r ref) { delete(e.path, r) }

// encodeOther encodes a root value of a type kindOf does not know: Go
// structs, typed slices and maps, pointers, hooks (marshal.go sets it).
var encodeOther = func(e *Encoder, v any) error { return unsupported(v) }

// enter and leave track the nesting depth of Encode.
func (e *Encoder) enter() error {
	e.level++
	if e.level > e.opts.maxDepth {
		return errors.New("toon: value nested deeper than " + strconv.Itoa(e.opts.maxDepth) + " levels (a cycle?)")
	}
	return nil
}

func (e *Encoder) leave() { e.level-- }

// beginArray enters one nesting level and writes what comes before an
// array's header at place p: the root's line, or a list item's hyphen (a
// field's key is already written). It returns the depth of the array's
// content. Unless it fails, the caller must call e.leave when done.
func (e *Encoder) beginArray(p place, d int) (child int, err error) {
	if err := e.enter(); err != nil {
		return 0, err
	}
	switch p {
	case atRoot:
		e.line(0)
		return 1, nil
	case atItem:
		e.line(d)
		e.b = append(e.b, '-', ' ')
	}
	return d + 1, nil
}

// writeArray writes the array a at place p. For atField, the key is
// written and d is its depth; for atItem, d is the depth of the list item.
func (e *Encoder) writeArray(a []any, p place, d int) error {
	child, err := e.beginArray(p, d)
	if err != nil {
		return err
	}
	defer e.leave()
	if e.level > cycleDepth {
		r := genericRef(a)
		if err := e.visit(r, a); err != nil {
			return err
		}
		defer e.unvisit(r)
	}
	if len(a) == 0 {
		e.b = appendEmptyArray(e.b, p, e.delim)
		return nil
	}
	prims := true
	for _, x := range a {
		if kindOf(x) != kPrim {
			prims = false
			break
		}
	}
	if prims { // §9.1 inline
		e.b = e.appendHeader(e.b, len(a), false)
		e.b = append(e.b, ':', ' ')
		for i, x := range a {
			if i > 0 {
				e.b = append(e.b, byte(e.delim))
			}
			var err error
			if e.b, err = appendPrim(e.b, x, e.docMask); err != nil {
				return err
			}
		}
		return nil
	}
	if p != atItem { // §9.4: no tabular form in list-item position
		if root, ok := e.tabularTree(a); ok {
			defer func() { e.nodes = e.nodes[:root] }()
			e.b = e.appendHeader(e.b, len(a), false)
			e.b = e.appendFieldsSeg(e.b, root)
			e.b = append(e.b, ':')
			for _, x := range a {
				e.line(child)
				if _, err := e.appendCells(x, root, e.level+1, true); err != nil {
					return err
				}
				if err := e.maybeFlush(); err != nil {
					return err
				}
			}
			return nil
		}
	}
	e.b = e.appendHeader(e.b, len(a), false)
	e.b = append(e.b, ':')
	for _, x := range a {
		if err := e.writeItem(x, child); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeItem writes x as a list item at depth d (§9.4, §10).
func (e *Encoder) writeItem(x any, d int) error {
	switch kindOf(x) {
	case kPrim:
		e.line(d)
		e.b = append(e.b, '-', ' ')
		var err error
		e.b, err = appendPrim(e.b, x, e.docMask)
		return err
	case kArr:
		return e.writeArray(x.([]any), atItem, d)
	case kObj:
		if o, ok := x.(Object); ok {
			if err := e.checkKeys(o); err != nil {
				return err
			}
		}
		if objLen(x) == 0 {
			e.line(d)
			e.b = append(e.b, '-')
			return nil
		}
		ov, mark := e.open(x)
		defer e.closeView(mark)
		return e.writeFields(&ov, d+1, true)
	}
	return unsupported(x)
}

// writeFields writes the members of a non-empty object as field lines at
// depth d. With hyphen set, the object is a list item: its first field goes
// on the hyphen line at depth d-1 (§10).
func (e *Encoder) writeFields(v *objView, d int, hyphen bool) error {
	if err := e.enter(); err != nil {
		return err
	}
	defer e.leave()
	if e.level > cycleDepth {
		var x any = v.o
		if v.m != nil {
			x = v.m
		}
		r := genericRef(x)
		if err := e.visit(r, x); err != nil {
			return err
		}
		defer e.unvisit(r)
	}
	if v.o != nil {
		if err := e.checkKeys(v.o); err != nil {
			return err
		}
	}
	checked := false // keyClash has run for v
	for i := 0; i < v.len(); i++ {
		if hyphen && i == 0 {
			e.line(d - 1)
			e.b = append(e.b, '-', ' ')
		} else {
			e.line(d)
		}
		var bad bool
		if e.b, bad = appendKeyR(e.b, v.key(i)); bad && !checked {
			if err := keyClash(v); err != nil {
				return err
			}
			checked = true
		}
		if err := e.writeValue(v.val(i), d); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeValue writes the value of a field whose key has been written at
// depth d.
func (e *Encoder) writeValue(x any, d int) error {
	switch kindOf(x) {
	case kPrim:
		e.b = append(e.b, ':', ' ')
		var err error
		e.b, err = appendPrim(e.b, x, e.docMask)
		return err
	case kArr:
		return e.writeArray(x.([]any), atField, d)
	case kObj:
		if objLen(x) == 0 {
			e.b = append(e.b, ':')
			return nil
		}
		if o, ok := x.(Object); ok {
			if err := e.checkKeys(o); err != nil {
				return err
			}
		}
		ov, mark := e.open(x)
		defer e.closeView(mark)
		if root, ok := e.keyedTree(&ov); ok {
			defer func() { e.nodes = e.nodes[:root] }()
			return e.writeKeyed(&ov, root, d+1)
		}
		e.b = append(e.b, ':')
		return e.writeFields(&ov, d+1, false)
	}
	return unsupported(x)
}

// writeKeyed writes the keyed header (after the key, if any) and the entry
// rows at depth d of an object that passed keyedTree (§9.5).
func (e *Encoder) writeKeyed(v *objView, root, d int) error {
	e.b = e.appendHeader(e.b, v.len(), true)
	e.b = e.appendFieldsSeg(e.b, root)
	e.b = append(e.b, ':')
	checked := false // keyClash has run for v
	for i := 0; i < v.len(); i++ {
		e.line(d)
		var bad bool
		if e.b, bad = appendKeyR(e.b, v.key(i)); bad && !checked {
			if err := keyClash(v); err != nil {
				return err
			}
			checked = true
		}
		e.b = append(e.b, ':', ' ')
		if _, err := e.appendCells(v.val(i), root, e.level+1, true); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// ---- the token writer ----

// wframeKind is the kind of an open container of the token writer.
type wframeKind uint8

const (
	wObject  wframeKind = iota // an ordinary object: keys and values
	wKeyed                     // a keyed tabular object: entry keys and entry rows
	wList                      // an expanded list: items
	wInline                    // an inline primitive array: values
	wTabular                   // a tabular array: rows
	wEmpty                     // an empty array: nothing
)

// wframe is an open container of the token writer.
type wframe struct {
	kind       wframeKind
	delim      Delimiter // the active delimiter of an array or keyed object
	mask       uint8     // quoteMask(delim)
	hyphen     bool      // object list item whose first key is still to come
	keyPending bool      // a key has been written and its value has not
	implicit   bool      // root object opened by BeginTable
	replaced   bool      // a key of the object had bad UTF-8 bytes replaced
	depth      int       // depth of the object's field lines, or of the items, rows or entries
	n, count   int       // declared and written items, rows or entries
	pc         int       // position in the row program; -1 between rows
	cell       int       // cells written in the current row
}

// progOp is one step of a row program: the tokens a tabular row or keyed
// entry value must consist of, compiled from the header's field list.
type progOp struct {
	op     uint8 // opKey, opVal, opObj or opEnd
	lo, hi int32 // opKey: the field name, Encoder.arena[lo:hi]
}

const (
	opKey uint8 = iota // a Key token naming the next field
	opVal              // a primitive: the next cell
	opObj              // the ObjectStart of a nested field group
	opEnd              // the ObjectEnd of a group or of the row
)

// WriteToken writes the next token of the document. The tokens follow the
// grammar of Decoder.Token: a root value; in an object, Key tokens each
// followed by a value, then ObjectEnd; in an array, its elements, then
// ArrayEnd.
//
// An ArrayStart token declares its length and form, and the array is written
// in that form (FormEmpty `key: []`, FormInline, FormList, FormTabular with
// the token's field list); a keyed ObjectStart (KeyedStartToken) writes a
// keyed tabular object (§9.5). A delimiter of 0 in a token means the
// document delimiter. The elements must then fit: primitives in an inline
// array; in a tabular array, one object per row whose keys are the header's
// fields in header order (nested groups as nested objects); in a keyed
// object, each entry key followed by such an object. An object that is a
// list item has its first field written on the hyphen line, so nothing is
// buffered beyond the current line. A key that its object already has, or
// that is written as one of its keys is (invalid UTF-8 is replaced by
// U+FFFD), is an error: the document would have a duplicate key (§14.3).
//
// Too many elements are an error before anything is written; too few are
// an error at the end token, when the header has already been written; both
// are sticky. The document is flushed when its root value is complete. The
// bytes a token refers to are used during the call only, so tokens from a
// Decoder need not be cloned.
func (e *Encoder) WriteToken(t Token) error {
	if e.err != nil {
		return e.err
	}
	if err := e.ended("WriteToken"); err != nil {
		return err
	}
	if e.tbl.active {
		return misuse(ErrTableOpen, "WriteToken while "+e.tbl.name+" is open")
	}
	e.acquire()
	if err := e.token(t); err != nil {
		return e.fail(err)
	}
	if len(e.stack) == 0 && e.started || e.done {
		return e.complete()
	}
	return e.maybeFlush()
}

func tokenErr(what string, t Token) error {
	return misuse(ErrPlacement, "unexpected "+t.Kind().String()+" token "+what)
}

func isPrimKind(k Kind) bool {
	return k == KindString || k == KindNumber || k == KindBool || k == KindNull
}

// appendPrimToken appends a primitive token; mask is the quoting mask of
// the relevant delimiter. Numbers are written in canonical form.
func appendPrimToken(b []byte, t Token, mask uint8) ([]byte, error) {
	switch t.Kind() {
	case KindString:
		return appendBytesStr(b, t.Bytes(), mask), nil
	case KindNumber:
		b2, ok := appendNumber(b, t.Bytes())
		if !ok {
			return b, invalidNumber(string(t.Bytes()))
		}
		return b2, nil
	case KindBool:
		if t.Bool() {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	}
	return append(b, "null"...), nil
}

func (e *Encoder) push(f wframe) error {
	if len(e.stack) >= e.opts.maxDepth {
		return errors.New("toon: tokens nested deeper than " + strconv.Itoa(e.opts.maxDepth) + " levels")
	}
	e.stack = append(e.stack, f)
	if f.kind == wObject || f.kind == wKeyed {
		i := len(e.stack) - 1
		if e.tkeys == nil {
			e.tkeys = keySetPool.Get().(*keySets)
		}
		for len(e.tkeys.s) <= i {
			e.tkeys.s = append(e.tkeys.s, keySet{})
		}
		e.tkeys.s[i].reset()
	}
	return nil
}

// tokenKey writes the key k of the object f, the top of the token
// writer's stack, and records it in the object's key set. It fails if the
// object already has a key that is written as k is (a duplicate key,
// §14.3, which a strict decoder would reject), and then cuts the output
// back to start, its length before the key's line.
//
// The set holds the keys as written. Until a key of the object has had
// bad bytes replaced (appendKeyR says so), every key was written as it is,
// and k is recorded as it is, with no test of its UTF-8; from then on,
// each key's written form is.
func (e *Encoder) tokenKey(f *wframe, k []byte, start int) error {
	var bad bool
	e.b, bad = appendKeyR(e.b, unsafe.String(unsafe.SliceData(k), len(k)))
	w := k
	if bad || f.replaced {
		f.replaced = true
		w = []byte(writtenKey(string(k)))
	}
	if e.tkeys.s[len(e.stack)-1].add(w) {
		return nil
	}
	e.b = e.b[:start]
	if len(w) == len(k) && string(w) == string(k) {
		return errors.New("toon: duplicate key " + strconv.Quote(string(k)) + " in an object")
	}
	return errors.New("toon: key " + strconv.Quote(string(k)) + " is written as " + strconv.Quote(string(w)) +
		" (invalid UTF-8 is replaced by U+FFFD), a key the object already has")
}

// pop closes the top container; the document is complete when it was the
// root.
func (e *Encoder) pop() {
	e.stack = e.stack[:len(e.stack)-1]
	if len(e.stack) == 0 {
		e.done = true
	}
}

func (e *Encoder) token(t Token) error {
	if len(e.stack) == 0 {
		return e.tokenValue(t, atRoot, 0, e.docMask)
	}
	f := &e.stack[len(e.stack)-1]
	switch f.kind {
	case wObject:
		if f.keyPending {
			f.keyPending = false
			return e.tokenValue(t, atField, f.depth, e.docMask)
		}
		switch t.Kind() {
		case KindKey:
			start := len(e.b)
			e.fieldLine(f)
			if err := e.tokenKey(f, t.Bytes(), start); err != nil {
				return err
			}
			f.keyPending = true
			return nil
		case KindObjectEnd:
			if f.hyphen { // an empty object list item (§10)
				e.line(f.depth - 1)
				e.b = append(e.b, '-')
			}
			e.pop()
			return nil
		}
		return tokenErr("in an object, where a key or the end of the object belongs", t)
	case wKeyed:
		if f.pc >= 0 {
			return e.rowToken(f, t)
		}
		if f.keyPending {
			if t.Kind() != KindObjectStart || t.Form() != FormNone {
				return tokenErr("after an entry key of a keyed object, where an object belongs", t)
			}
			f.keyPending = false
			f.pc, f.cell = 0, 0
			return nil
		}
		switch t.Kind() {
		case KindKey:
			if f.count == f.n {
				return countError("keyed object", "entry", "entries", f.n, f.n+1)
			}
			start := len(e.b)
			e.line(f.depth)
			if err := e.tokenKey(f, t.Bytes(), start); err != nil {
				return err
			}
			f.count++
			e.b = append(e.b, ':', ' ')
			f.keyPending = true
			return nil
		case KindObjectEnd:
			if f.count != f.n {
				return countError("keyed object", "entry", "entries", f.n, f.count)
			}
			e.pop()
			return nil
		}
		return tokenErr("in a keyed object, where an entry key or the end of the object belongs", t)
	case wTabular:
		if f.pc >= 0 {
			return e.rowToken(f, t)
		}
		switch t.Kind() {
		case KindObjectStart:
			if t.Form() != FormNone {
				return tokenErr("of form "+t.Form().String()+" as a tabular row", t)
			}
			if f.count == f.n {
				return countError("tabular array", "row", "rows", f.n, f.n+1)
			}
			f.count++
			e.line(f.depth)
			f.pc, f.cell = 0, 0
			return nil
		case KindArrayEnd:
			if f.count != f.n {
				return countError("tabular array", "row", "rows", f.n, f.count)
			}
			e.pop()
			return nil
		}
		return tokenErr("in a tabular array, where a row object or the end of the array belongs", t)
	case wList:
		if t.Kind() == KindArrayEnd {
			if f.count != f.n {
				return countError("list array", "item", "items", f.n, f.count)
			}
			e.pop()
			return nil
		}
		if f.count == f.n {
			return countError("list array", "item", "items", f.n, f.n+1)
		}
		f.count++
		return e.tokenValue(t, atItem, f.depth, f.mask)
	case wInline:
		if t.Kind() == KindArrayEnd {
			if f.count != f.n {
				return countError("inline array", "value", "values", f.n, f.count)
			}
			e.pop()
			return nil
		}
		if !isPrimKind(t.Kind()) {
			return tokenErr("in an inline array, where a primitive belongs", t)
		}
		if f.count == f.n {
			return countError("inline array", "value", "values", f.n, f.n+1)
		}
		if f.count == 0 {
			e.b = append(e.b, ' ')
		} else {
			e.b = append(e.b, byte(f.delim))
		}
		f.count++
		var err error
		e.b, err = appendPrimToken(e.b, t, f.mask)
		return err
	default: // wEmpty
		if t.Kind() != KindArrayEnd {
			return tokenErr("in an empty array", t)
		}
		e.pop()
		return nil
	}
}

// fieldLine starts the line of the next field of object f: on the hyphen
// line for the first field of a list item (§10), else at f's depth.
func (e *Encoder) fieldLine(f *wframe) {
	if f.hyphen {
		e.line(f.depth - 1)
		e.b = append(e.b, '-', ' ')
		f.hyphen = false
		return
	}
	e.line(f.depth)
}

// rowToken takes the next token of a tabular row or keyed entry value.
func (e *Encoder) rowToken(f *wframe, t Token) error {
	op := e.prog[f.pc]
	switch op.op {
	case opKey:
		if t.Kind() != KindKey || string(t.Bytes()) != string(e.arena[op.lo:op.hi]) {
			if t.Kind() == KindKey {
				return errors.New("toon: row key " + strconv.Quote(string(t.Bytes())) + " where the header has field " + strconv.Quote(string(e.arena[op.lo:op.hi])))
			}
			return tokenErr("in a row, where the key "+strconv.Quote(string(e.arena[op.lo:op.hi]))+" belongs", t)
		}
	case opVal:
		if !isPrimKind(t.Kind()) {
			return tokenErr("in a row, where a primitive cell belongs", t)
		}
		if f.cell > 0 {
			e.b = append(e.b, byte(f.delim))
		}
		f.cell++
		var err error
		if e.b, err = appendPrimToken(e.b, t, f.mask); err != nil {
			return err
		}
	case opObj:
		if t.Kind() != KindObjectStart || t.Form() != FormNone {
			return tokenErr("in a row, where the object of a nested field group belongs", t)
		}
	case opEnd:
		if t.Kind() != KindObjectEnd {
			return tokenErr("in a row, where the end of an object belongs", t)
		}
	}
	f.pc++
	if f.pc == len(e.prog) {
		f.pc = -1
	}
	return nil
}

// tokenDelim resolves a token's delimiter.
func (e *Encoder) tokenDelim(t Token) (Delimiter, error) {
	switch d := t.Delim(); d {
	case 0:
		return e.delim, nil
	case Comma, Tab, Pipe:
		return d, nil
	}
	return 0, errors.New("toon: invalid delimiter " + strconv.QuoteRune(rune(t.Delim())))
}

// compile compiles a header's field list into the row program and checks
// it: every group non-empty, no name repeated within a group.
func (e *Encoder) compile(fs []Field) error {
	e.prog = e.prog[:0]
	e.arena = e.arena[:0]
	if err := e.compileGroup(fs, 0); err != nil {
		return err
	}
	e.prog = append(e.prog, progOp{op: opEnd})
	return nil
}

func (e *Encoder) compileGroup(fs []Field, level int) error {
	if len(fs) == 0 {
		return errors.New("toon: empty field list in a tabular header")
	}
	if level > e.opts.maxDepth {
		return errors.New("toon: field groups nested too deep")
	}
	// The names as strings that view the token's bytes: no copies.
	name := func(i int) string { return unsafe.String(unsafe.SliceData(fs[i].Name), len(fs[i].Name)) }
	if a, b, ok := repeatedName(len(fs), name); ok {
		if a != b {
			return errKeysAlike(a, b, writtenKey(b))
		}
		return errors.New("toon: repeated field " + strconv.Quote(b) + " in a tabular header")
	}
	for _, f := range fs {
		lo := len(e.arena)
		e.arena = append(e.arena, f.Name...)
		e.prog = append(e.prog, progOp{op: opKey, lo: int32(lo), hi: int32(len(e.arena))})
		if f.Fields == nil {
			e.prog = append(e.prog, progOp{op: opVal})
			continue
		}
		e.prog = append(e.prog, progOp{op: opObj})
		if err := e.compileGroup(f.Fields, level+1); err != nil {
			return err
		}
		e.prog = append(e.prog, progOp{op: opEnd})
	}
	return nil
}

// appendFields appends a fields segment from a token's field list.
func appendFields(b []byte, fs []Field, d Delimiter) []byte {
	b = append(b, '{')
	for i, f := range fs {
		if i > 0 {
			b = append(b, byte(d))
		}
		b = appendBytesKey(b, f.Name)
		if f.Fields != nil {
			b = appendFields(b, f.Fields, d)
		}
	}
	return append(b, '}')
}

// appendEmptyArray appends an empty array at place p (§9.2): "[]" at the
// root, ": []" after a key, and "[0]:" as a list item, never "- []".
func appendEmptyArray(b []byte, p place, d Delimiter) []byte {
	switch p {
	case atRoot:
		return append(b, '[', ']')
	case atField:
		return append(b, ':', ' ', '[', ']')
	}
	return append(appendBracket(b, 0, false, d), ':')
}

// appendBracket appends a header's bracket: the length, a ':' for a keyed
// object, and the symbol of delimiter d where it is not the comma.
func appendBracket(b []byte, n int, keyed bool, d Delimiter) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(n), 10)
	if keyed {
		b = append(b, ':')
	}
	b = appendDelimSym(b, d)
	return append(b, ']')
}

// tokenValue writes the value token t at place p: at the root, after a key
// written at depth d, or as a list item at depth d whose array's quoting
// mask is mask.
func (e *Encoder) tokenValue(t Token, p place, d int, mask uint8) error {
	k := t.Kind()
	if isPrimKind(k) {
		switch p {
		case atRoot:
			e.line(0)
			e.done = true
		case atField:
			e.b = append(e.b, ':', ' ')
		case atItem:
			e.line(d)
			e.b = append(e.b, '-', ' ')
		}
		var err error
		e.b, err = appendPrimToken(e.b, t, mask)
		return err
	}
	child := d + 1 // content depth of an array or keyed object
	if p == atRoot {
		child = 1
	}
	switch k {
	case KindObjectStart:
		switch t.Form() {
		case FormNone:
			switch p {
			case atRoot:
				return e.push(wframe{kind: wObject, depth: 0, pc: -1})
			case atField:
				e.b = append(e.b, ':')
				return e.push(wframe{kind: wObject, depth: d + 1, pc: -1})
			}
			return e.push(wframe{kind: wObject, depth: d + 1, hyphen: true, pc: -1})
		case FormKeyed:
			if p == atItem {
				return errors.New("toon: a keyed object cannot be a list item (§10)")
			}
			if t.Len() < 0 {
				return errors.New("toon: keyed object with negative entry count")
			}
			delim, err := e.tokenDelim(t)
			if err != nil {
				return err
			}
			if err := e.compile(t.Fields()); err != nil {
				return err
			}
			if p == atRoot {
				e.line(0)
			}
			e.b = appendBracket(e.b, t.Len(), true, delim)
			e.b = appendFields(e.b, t.Fields(), delim)
			e.b = append(e.b, ':')
			return e.push(wframe{kind: wKeyed, delim: delim, mask: quoteMask(delim), depth: child, n: t.Len(), pc: -1})
		}
		return errors.New("toon: ObjectStart token of form " + t.Form().String())
	case KindArrayStart:
		n := t.Len()
		if n < 0 {
			return errors.New("toon: ArrayStart token with negative length")
		}
		delim, err := e.tokenDelim(t)
		if err != nil {
			return err
		}
		form := t.Form()
		if t.Fields() != nil && form != FormTabular {
			return errors.New("toon: ArrayStart token of form " + form.String() + " with a field list")
		}
		switch form {
		case FormEmpty, FormInline, FormList:
		case FormTabular:
			if p == atItem {
				return errors.New("toon: a tabular array cannot be a list item (§9.4)")
			}
			if err := e.compile(t.Fields()); err != nil {
				return err
			}
		default:
			return errors.New("toon: ArrayStart token of form " + form.String())
		}
		if form == FormEmpty && n != 0 {
			return errors.New("toon: ArrayStart token of form empty with length " + strconv.Itoa(n))
		}
		switch p {
		case atRoot:
			e.line(0)
		case atItem:
			e.line(d)
			e.b = append(e.b, '-', ' ')
		}
		f := wframe{delim: delim, mask: quoteMask(delim), depth: child, n: n, pc: -1}
		switch form {
		case FormEmpty:
			e.b = appendEmptyArray(e.b, p, delim)
			f.kind = wEmpty
		case FormInline:
			e.b = appendBracket(e.b, n, false, delim)
			e.b = append(e.b, ':')
			f.kind = wInline
		case FormList:
			e.b = appendBracket(e.b, n, false, delim)
			e.b = append(e.b, ':')
			f.kind = wList
		case FormTabular:
			e.b = appendBracket(e.b, n, false, delim)
			e.b = appendFields(e.b, t.Fields(), delim)
			e.b = append(e.b, ':')
			f.kind = wTabular
		}
		return e.push(f)
	}
	return tokenErr("where a value belongs", t)
}
