package toon

// This file encodes Go values of any type: the typed half of Encode and
// Marshal. Each type gets an encoding plan once (encPlans). The output
// must be byte for byte what Encode writes for the equivalent generic
// value (structs as Objects in field order, maps as Objects in sorted key
// order, slices as []any), so the typed writer below mirrors the generic
// one in encoder.go step by step, and decides forms from the types where
// the types decide them: a slice of structs whose fields are all
// primitives or such structs is always tabular, with the header known
// before the first row. Where the form depends on the values (interfaces,
// maps, omitempty fields, hooks), the value is converted to its generic
// equivalent and handed to the generic writer, which decides exactly as
// it does for generic values.

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// Marshaler is implemented by types that encode themselves as TOON.
// MarshalTOON returns a value to encode in the receiver's place: a generic
// value (nil, string, bool, a number, Number, map[string]any, Object,
// []any) or any other value Marshal accepts. The value goes through the
// same form selection as any other (§9, §10), so a Marshaler's object can
// become a table row and its array a table, and streaming is unaffected.
//
// Marshal gives Marshaler precedence over json.Marshaler, and both over
// encoding.TextMarshaler; a method with a pointer receiver counts.
type Marshaler interface {
	MarshalTOON() (any, error)
}

func init() { encodeOther = encodeTyped }

// encodeTyped is Encode for values of types the generic encoder does not
// know.
func encodeTyped(e *Encoder, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			e.line(0)
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.tRoot(encPlanOf(rv.Type().Elem()), rv.UnsafePointer())
	}
	pv := reflect.New(rv.Type())
	pv.Elem().Set(rv)
	return e.tRoot(encPlanOf(rv.Type()), pv.UnsafePointer())
}

// encKind is how a type is encoded.
type encKind uint8

const (
	ekBad      encKind = iota // not encodable: chan, func, complex, unsafe.Pointer
	ekBool                    // bool kinds
	ekInt                     // signed integer kinds
	ekUint                    // unsigned integer kinds
	ekFloat32                 // float32 kinds
	ekFloat64                 // float64 kinds
	ekString                  // string kinds
	ekNumber                  // Number, json.Number: number text
	ekTime                    // time.Time: RFC 3339 string with nanoseconds
	ekBytes                   // []byte: base64 string
	ekBigInt                  // big.Int: exact integer
	ekBigFloat                // big.Float: exact number
	ekValue                   // Value
	ekText                    // encoding.TextMarshaler: string
	ekPtr                     // pointers
	ekIface                   // interfaces
	ekStruct                  // structs: objects
	ekSlice                   // slices: arrays
	ekArray                   // Go arrays: arrays
	ekMap                     // maps: objects with sorted keys
	ekObject                  // Object: as the generic encoder writes it
	ekHook                    // Marshaler or json.Marshaler
)

// valShape is what a type's values always are in the JSON model, as far as
// the type tells.
type valShape uint8

const (
	shapeDyn  valShape = iota // it depends on the value
	shapePrim                 // always a primitive (null included)
	shapeObj                  // always a non-empty object of the same fields, whose members are shapePrim or shapeObj: a tabular row
)

// encPlan is how values of one Go type are encoded.
type encPlan struct {
	typ      reflect.Type
	kind     encKind
	shape    valShape
	hook     hook
	size     uintptr
	elem     *encPlan   // pointers, slices, arrays, maps
	fields   []encField // structs
	building bool       // the plan is being built (for recursive types)

	// Static objects (shapeObj): the leaf cells in depth-first order with
	// offsets from the struct's start, and the depth of nested groups.
	leaves []encLeaf
	depth  int

	// simpleLeaves: no leaf has the kind vGeneral (copyLeaves).
	simpleLeaves bool

	// Keyed (§9.5): an shapeObj struct of at least two shapeObj fields with the
	// same field trees; keyedCells[i] are the cells of field i in the
	// first field's order.
	keyed      bool
	keyedCells [][]encLeaf
}

type encField struct {
	structField
	plan *encPlan
}

type encLeaf struct {
	off  uintptr
	plan *encPlan
	kind encKind   // plan.kind, at hand
	vk   valueKind // the kind of Value leafValues makes of it, or vGeneral
}

// vGeneral marks a leaf that leafValues converts with cellValue.
const vGeneral valueKind = 0xff

// newLeaf returns the leaf at offset off of a plan of shape shapePrim.
func newLeaf(off uintptr, pl *encPlan) encLeaf {
	vk := vGeneral
	switch {
	case pl.kind == ekString:
		vk = vString
	case pl.kind == ekInt && pl.size == 8:
		vk = vInt
	case pl.kind == ekFloat64:
		vk = vFloat
	case pl.kind == ekBool:
		vk = vBool
	}
	return encLeaf{off: off, plan: pl, kind: pl.kind, vk: vk}
}

var encPlans planCache[encPlan]

func encPlanOf(t reflect.Type) *encPlan { return encPlans.get(t, buildEncPlan) }

func buildEncPlan(b *planBuild[encPlan], t reflect.Type, pl *encPlan) {
	pl.typ = t
	pl.size = t.Size()
	pl.building = true
	defer func() { pl.building = false }()
	switch t {
	case timeType:
		pl.kind, pl.shape = ekTime, shapePrim
		return
	case bigIntType:
		pl.kind, pl.shape = ekBigInt, shapePrim
		return
	case bigFloatType:
		pl.kind, pl.shape = ekBigFloat, shapePrim
		return
	case numberType, jsonNumberType:
		pl.kind, pl.shape = ekNumber, shapePrim
		return
	case valueType:
		pl.kind, pl.shape = ekValue, shapePrim
		return
	case objectType:
		pl.kind = ekObject
		return
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		switch h := marshalHook(t); h {
		case hookTOON, hookJSON:
			pl.kind, pl.hook = ekHook, h
			return
		case hookText:
			pl.kind, pl.shape = ekText, shapePrim
			return
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		pl.kind, pl.shape = ekBool, shapePrim
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		pl.kind, pl.shape = ekInt, shapePrim
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		pl.kind, pl.shape = ekUint, shapePrim
	case reflect.Float32:
		pl.kind, pl.shape = ekFloat32, shapePrim
	case reflect.Float64:
		pl.kind, pl.shape = ekFloat64, shapePrim
	case reflect.String:
		pl.kind, pl.shape = ekString, shapePrim
	case reflect.Pointer:
		pl.kind = ekPtr
		pl.elem = b.get(t.Elem())
		if !pl.elem.building && pl.elem.shape == shapePrim {
			pl.shape = shapePrim // nil is null, and the rest a primitive
		}
	case reflect.Interface:
		pl.kind = ekIface
	case reflect.Slice:
		pl.elem = b.get(t.Elem())
		pl.kind = ekSlice
		if t.Elem().Kind() == reflect.Uint8 && pl.elem.kind == ekUint {
			pl.kind, pl.shape = ekBytes, shapePrim
		}
	case reflect.Array:
		pl.elem = b.get(t.Elem())
		pl.kind = ekArray
	case reflect.Map:
		kt := t.Key()
		if kt.Kind() != reflect.String && !reflect.PointerTo(kt).Implements(textMarshalerType) && !isIntKind(kt.Kind()) {
			return // ekBad
		}
		pl.elem = b.get(t.Elem())
		pl.kind = ekMap
	case reflect.Struct:
		pl.kind = ekStruct
		fs := typeFields(t)
		pl.fields = make([]encField, len(fs))
		for i := range fs {
			pl.fields[i] = encField{structField: fs[i], plan: b.get(fs[i].typ)}
		}
		pl.staticShape()
	}
}

// staticShape decides whether a struct is a static object (shapeObj), and if
// so lays out its cells and its keyed form.
func (pl *encPlan) staticShape() {
	if len(pl.fields) == 0 {
		return
	}
	for i := range pl.fields {
		f := &pl.fields[i]
		if !f.direct || f.omitEmpty || f.omitZero || f.plan.building || f.plan.shape == shapeDyn {
			return
		}
	}
	pl.shape = shapeObj
	for i := range pl.fields {
		f := &pl.fields[i]
		if f.plan.shape == shapePrim {
			pl.leaves = append(pl.leaves, newLeaf(f.off, f.plan))
			continue
		}
		for _, l := range f.plan.leaves {
			pl.leaves = append(pl.leaves, newLeaf(f.off+l.off, l.plan))
		}
		pl.depth = max(pl.depth, f.plan.depth+1)
	}
	pl.simpleLeaves = true
	for _, l := range pl.leaves {
		if l.vk == vGeneral {
			pl.simpleLeaves = false
		}
	}
	if len(pl.fields) < 2 {
		return
	}
	first := pl.fields[0].plan
	for i := range pl.fields {
		if pl.fields[i].plan.shape != shapeObj || !sameTree(first, pl.fields[i].plan) {
			return
		}
	}
	pl.keyed = true
	pl.keyedCells = make([][]encLeaf, len(pl.fields))
	for i := range pl.fields {
		pl.keyedCells[i] = cellsInOrder(first, pl.fields[i].plan, pl.fields[i].off, nil)
	}
}

// sameTree reports whether two static objects have the same field trees,
// in any order at each level (as the generic encoder's matchTree).
func sameTree(a, b *encPlan) bool {
	if len(a.fields) != len(b.fields) {
		return false
	}
	for i := range a.fields {
		g := b.field(a.fields[i].name)
		if g == nil {
			return false
		}
		fa, fb := a.fields[i].plan, g.plan
		if (fa.shape == shapeObj) != (fb.shape == shapeObj) || fa.shape == shapeObj && !sameTree(fa, fb) {
			return false
		}
	}
	return true
}

func (pl *encPlan) field(name string) *encField {
	for i := range pl.fields {
		if pl.fields[i].name == name {
			return &pl.fields[i]
		}
	}
	return nil
}

// cellsInOrder lists the leaves of the static object b, at offset off, in
// the field order of a (sameTree(a, b)).
func cellsInOrder(a, b *encPlan, off uintptr, out []encLeaf) []encLeaf {
	for i := range a.fields {
		g := b.field(a.fields[i].name)
		if g.plan.shape == shapePrim {
			out = append(out, newLeaf(off+g.off, g.plan))
			continue
		}
		out = cellsInOrder(a.fields[i].plan, g.plan, off+g.off, out)
	}
	return out
}

// ---- primitives ----

func loadInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 8:
		return *(*int64)(p)
	case 4:
		return int64(*(*int32)(p))
	case 2:
		return int64(*(*int16)(p))
	}
	return int64(*(*int8)(p))
}

func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 8:
		return *(*uint64)(p)
	case 4:
		return uint64(*(*uint32)(p))
	case 2:
		return uint64(*(*uint16)(p))
	}
	return uint64(*(*uint8)(p))
}

// appendTyped appends the primitive at p, of a plan whose shape is shapePrim;
// mask is the quoting mask of the relevant delimiter.
func appendTyped(b []byte, pl *encPlan, p unsafe.Pointer, mask uint8) ([]byte, error) {
	switch pl.kind {
	case ekString:
		return appendStr(b, *(*string)(p), mask), nil
	case ekInt:
		return appendInt(b, loadInt(p, pl.size)), nil
	case ekFloat64:
		return appendFloat(b, *(*float64)(p), 64), nil
	case ekBool:
		if *(*bool)(p) {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case ekUint:
		return appendUint(b, loadUint(p, pl.size)), nil
	case ekFloat32:
		return appendFloat(b, float64(*(*float32)(p)), 32), nil
	case ekNumber:
		return appendNumberString(b, *(*string)(p))
	case ekPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(b, "null"...), nil
		}
		return appendTyped(b, pl.elem, q, mask)
	case ekValue:
		v := (*Value)(p)
		b, ok := appendValue(b, v, mask)
		if !ok {
			return b, invalidNumber(v.str())
		}
		return b, nil
	}
	s, isNull, num, err := primText(pl, p)
	switch {
	case err != nil:
		return b, err
	case isNull:
		return append(b, "null"...), nil
	case num:
		b2, ok := appendNumber(b, []byte(s))
		if !ok {
			return b, invalidNumber(s)
		}
		return b2, nil
	}
	return appendStr(b, s, mask), nil
}

// primText renders the primitives that are not Go basic types: a string,
// a number's text (num), or null.
func primText(pl *encPlan, p unsafe.Pointer) (s string, isNull, num bool, err error) {
	switch pl.kind {
	case ekTime:
		var buf [48]byte
		return string((*time.Time)(p).AppendFormat(buf[:0], time.RFC3339Nano)), false, false, nil
	case ekBytes:
		bs := *(*[]byte)(p)
		if bs == nil {
			return "", true, false, nil
		}
		return base64.StdEncoding.EncodeToString(bs), false, false, nil
	case ekBigInt:
		return (*big.Int)(p).String(), false, true, nil
	case ekBigFloat:
		f := (*big.Float)(p)
		if f.IsInf() {
			return "", true, false, nil // §3: infinities are null
		}
		return f.Text('g', -1), false, true, nil
	case ekText:
		txt, err := reflect.NewAt(pl.typ, p).Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return "", false, false, &MarshalerError{Type: pl.typ, Err: err, method: "MarshalText"}
		}
		return string(txt), false, false, nil
	}
	return "", false, false, &UnsupportedTypeError{Type: pl.typ}
}

// MarshalerError is an error from a MarshalTOON, MarshalJSON or
// MarshalText method.
type MarshalerError struct {
	Type   reflect.Type
	Err    error
	method string
}

// Error implements error.
func (e *MarshalerError) Error() string {
	return "toon: error calling " + e.method + " for type " + e.Type.String() + ": " + e.Err.Error()
}

// Unwrap returns the method's error.
func (e *MarshalerError) Unwrap() error { return e.Err }

// ---- the typed writer, mirroring encodeRoot, writeValue, writeItem,
// writeArray and writeFields ----

// tRoot writes the value at p as the document.
func (e *Encoder) tRoot(pl *encPlan, p unsafe.Pointer) error {
	switch {
	case pl.shape == shapePrim:
		e.line(0)
		var err error
		e.b, err = appendTyped(e.b, pl, p, e.docMask)
		return err
	case pl.kind == ekPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			e.line(0)
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.tRoot(pl.elem, q)
	case pl.kind == ekStruct:
		return e.tObject(pl, p, atRoot, 0)
	case pl.kind == ekSlice || pl.kind == ekArray:
		if ok, err := e.tArray(pl, p, atRoot, 0); ok {
			return err
		}
	}
	g, err := e.toGeneric(pl, p, 0)
	if err != nil {
		return err
	}
	return e.encodeRoot(g)
}

// tValue writes the value at p of a field whose key is written at depth d.
func (e *Encoder) tValue(pl *encPlan, p unsafe.Pointer, d int) error {
	switch {
	case pl.shape == shapePrim:
		e.b = append(e.b, ':', ' ')
		var err error
		e.b, err = appendTyped(e.b, pl, p, e.docMask)
		return err
	case pl.kind == ekPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			e.b = append(e.b, ": null"...)
			return nil
		}
		if e.level > cycleDepth {
			r := ref{p: q, t: pl.typ}
			if err := e.visit(r, reflect.NewAt(pl.elem.typ, q).Interface()); err != nil {
				return err
			}
			defer e.unvisit(r)
		}
		return e.tValue(pl.elem, q, d)
	case pl.kind == ekStruct:
		return e.tObject(pl, p, atField, d)
	case pl.kind == ekSlice || pl.kind == ekArray:
		if ok, err := e.tArray(pl, p, atField, d); ok {
			return err
		}
	}
	g, err := e.toGeneric(pl, p, e.level)
	if err != nil {
		return err
	}
	return e.writeValue(g, d)
}

// tItem writes the value at p as a list item at depth d.
func (e *Encoder) tItem(pl *encPlan, p unsafe.Pointer, d int) error {
	switch {
	case pl.shape == shapePrim:
		e.line(d)
		e.b = append(e.b, '-', ' ')
		var err error
		e.b, err = appendTyped(e.b, pl, p, e.docMask)
		return err
	case pl.kind == ekPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			e.line(d)
			e.b = append(e.b, "- null"...)
			return nil
		}
		if e.level > cycleDepth {
			r := ref{p: q, t: pl.typ}
			if err := e.visit(r, reflect.NewAt(pl.elem.typ, q).Interface()); err != nil {
				return err
			}
			defer e.unvisit(r)
		}
		return e.tItem(pl.elem, q, d)
	case pl.kind == ekStruct:
		return e.tObject(pl, p, atItem, d)
	case pl.kind == ekSlice || pl.kind == ekArray:
		if ok, err := e.tArray(pl, p, atItem, d); ok {
			return err
		}
	}
	g, err := e.toGeneric(pl, p, e.level)
	if err != nil {
		return err
	}
	return e.writeItem(g, d)
}

// tArray writes a slice or array whose elements are static (primitives or
// static objects), and reports false, writing nothing, for others.
func (e *Encoder) tArray(pl *encPlan, p unsafe.Pointer, at place, d int) (bool, error) {
	ep := pl.elem
	var base unsafe.Pointer
	var n int
	if pl.kind == ekSlice {
		h := (*sliceHeader)(p)
		if h.data == nil {
			return false, nil // null: the generic writer has it
		}
		base, n = h.data, h.len
	} else {
		base, n = p, pl.typ.Len()
	}
	if ep.shape == shapeDyn {
		return false, nil
	}
	return true, e.tElems(ep, base, n, at, d)
}

// tElems writes n static elements at base as an array at place at.
func (e *Encoder) tElems(ep *encPlan, base unsafe.Pointer, n int, at place, d int) error {
	child, err := e.beginArray(at, d)
	if err != nil {
		return err
	}
	defer e.leave()
	if n == 0 {
		e.b = appendEmptyArray(e.b, at, e.delim)
		return nil
	}
	size := ep.size
	if ep.shape == shapePrim { // §9.1 inline
		e.b = e.appendHeader(e.b, n, false)
		e.b = append(e.b, ':', ' ')
		for i := 0; i < n; i++ {
			if i > 0 {
				e.b = append(e.b, byte(e.delim))
			}
			var err error
			if e.b, err = appendTyped(e.b, ep, unsafe.Add(base, uintptr(i)*size), e.docMask); err != nil {
				return err
			}
		}
		return nil
	}
	// Static objects: tabular (§9.3) where the tree fits the depth limit
	// as the generic encoder's tabularTree checks it, and not a list item.
	if at != atItem && e.level+1+ep.depth <= e.opts.maxDepth {
		e.b = e.appendHeader(e.b, n, false)
		e.b = appendStaticFields(e.b, ep, e.delim)
		e.b = append(e.b, ':')
		if len(ep.leaves) <= maxValueRow {
			return e.valueRows(ep, base, n, child)
		}
		start := len(e.b)
		for i := 0; i < n; i++ {
			if i == sampleRows && e.noFlush && n > 2*sampleRows {
				e.reserve((len(e.b)-start)/sampleRows, n-i)
			}
			e.line(child)
			var err error
			if e.b, err = appendCells(e.b, ep.leaves, unsafe.Add(base, uintptr(i)*size), e.delim, e.docMask); err != nil {
				return err
			}
			if err := e.maybeFlush(); err != nil {
				return err
			}
		}
		return nil
	}
	e.b = e.appendHeader(e.b, n, false)
	e.b = append(e.b, ':')
	for i := 0; i < n; i++ {
		if err := e.tItem(ep, unsafe.Add(base, uintptr(i)*size), child); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// maxValueRow is the most leaves a static object may have for valueRows,
// which holds a row's cells on its stack.
const maxValueRow = 32

// valueRows writes the rows of a table of n static objects of plan ep at
// base, at depth d: each row's leaves become Values, which the streaming
// table's row writer, appendRowCells, writes as WriteRow would. The text
// is the same as appendCells would write (cellValue and appendTyped agree
// on every primitive; TestWriteRowsMatchesMarshal and
// TestMarshalRowsMatchesGeneric check it).
func (e *Encoder) valueRows(ep *encPlan, base unsafe.Pointer, n, d int) error {
	var rs rowStyle
	rs.set(d*e.opts.indent, e.delim)
	var row [maxValueRow]Value
	cells := row[:len(ep.leaves)]
	setLeafKinds(cells, ep.leaves)
	// The text goes to a local slice, stored back in e.b only where
	// something else uses it: a store to e.b, which is on the heap, costs
	// a write barrier while the collector runs, which for a large Marshal
	// is much of the time.
	b := e.b
	start := len(b)
	bad := 0
	for i := 0; i < n; i++ {
		if i == sampleRows && e.noFlush && n > 2*sampleRows {
			e.b = b
			e.reserve((len(b)-start)/sampleRows, n-i)
			b = e.b
		}
		q := unsafe.Add(base, uintptr(i)*ep.size)
		if ep.simpleLeaves {
			copyLeaves(cells, ep.leaves, q)
		} else if err := leafValues(cells, ep.leaves, q); err != nil {
			e.b = b
			return err
		}
		if o, ok := rs.putRow(b, cells); ok {
			b = b[:o]
		} else if b, bad = appendRowCells(b, cells, &rs); bad >= 0 {
			e.b = b
			return invalidNumber(cells[bad].str())
		}
		// Marshal (noFlush) keeps everything: past flushSize, every row
		// would call flush for nothing.
		if len(b) >= flushSize && !e.noFlush {
			e.b = b
			if err := e.flush(); err != nil {
				return err
			}
			b = e.b
		}
	}
	e.b = b
	return nil
}

// leafValues sets cells to the leaves of the static object at p, as
// cellValue does. Numbers and booleans only have their payload copied:
// the tag of their cell (its kind) is set once, by setLeafKinds, and
// stays; a string's cell is set whole, as its text is its kind.
func leafValues(cells []Value, leaves []encLeaf, p unsafe.Pointer) error {
	for i := range leaves {
		l := &leaves[i]
		q := unsafe.Add(p, l.off)
		c := &cells[i]
		switch l.vk {
		case vString:
			*c = String(*(*string)(q))
		case vInt, vFloat:
			c.u = *(*uint64)(q)
		case vBool:
			c.u = uint64(*(*uint8)(q))
		default:
			var err error
			if *c, err = cellValue(l.plan, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyLeaves is leafValues for static objects whose leaves are all of the
// common kinds (simpleLeaves). It calls nothing, so that its loop runs in
// registers (see appendRowCells).
func copyLeaves(cells []Value, leaves []encLeaf, p unsafe.Pointer) {
	cells = cells[:len(leaves)]
	for i := range leaves {
		l := &leaves[i]
		q := unsafe.Add(p, l.off)
		switch l.vk {
		case vString:
			cells[i] = String(*(*string)(q))
		case vBool:
			cells[i].u = uint64(*(*uint8)(q))
		default: // vInt, vFloat
			cells[i].u = *(*uint64)(q)
		}
	}
}

// setLeafKinds sets the tags of the cells of the number and boolean
// leaves, which leafValues leaves alone.
func setLeafKinds(cells []Value, leaves []encLeaf) {
	for i := range leaves {
		if vk := leaves[i].vk; vk != vGeneral && vk != vString {
			cells[i].p = tagOf(vk)
		}
	}
}

// sampleRows is the number of rows Marshal writes before it estimates the
// size of a large table and makes room for the rest at once.
const sampleRows = 64

// reserve makes room in the output buffer of Marshal (which keeps the
// whole document) for rows more rows of about perRow bytes, so that a
// large table grows the buffer once rather than by repeated doubling.
func (e *Encoder) reserve(perRow, rows int) {
	need := perRow*rows + perRow*rows/16
	if need > 0 && cap(e.b)-len(e.b) < need {
		e.b = slices.Grow(e.b, need)
	}
}

// appendStaticFields appends the fields segment of a static object, or of
// a struct whose fields are primitives or structs of them (WriteRows): its
// fields that are not primitives are nested groups.
func appendStaticFields(b []byte, pl *encPlan, delim Delimiter) []byte {
	b = append(b, '{')
	for i := range pl.fields {
		if i > 0 {
			b = append(b, byte(delim))
		}
		b = appendKey(b, pl.fields[i].name)
		if pl.fields[i].plan.shape != shapePrim {
			b = appendStaticFields(b, pl.fields[i].plan, delim)
		}
	}
	return append(b, '}')
}

// appendCells appends the cells of one row.
func appendCells(b []byte, leaves []encLeaf, p unsafe.Pointer, delim Delimiter, mask uint8) ([]byte, error) {
	for i := range leaves {
		l := &leaves[i]
		if i > 0 {
			b = append(b, byte(delim))
		}
		q := unsafe.Add(p, l.off)
		switch l.kind {
		case ekString:
			b = appendStr(b, *(*string)(q), mask)
		case ekInt:
			if l.plan.size == 8 {
				b = strconv.AppendInt(b, *(*int64)(q), 10)
			} else {
				b = appendInt(b, loadInt(q, l.plan.size))
			}
		case ekFloat64:
			b = appendFloat(b, *(*float64)(q), 64)
		case ekBool:
			if *(*bool)(q) {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		default:
			var err error
			if b, err = appendTyped(b, l.plan, q, mask); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// tObject writes a struct at place at, with the generic writer's choices:
// nothing (at the root), `key:` or a bare `-` for an empty object, the
// keyed tabular form (§9.5) when its fields are uniform objects, else its
// fields.
func (e *Encoder) tObject(pl *encPlan, p unsafe.Pointer, at place, d int) error {
	n := 0
	maybeKeyed := true
	for i := range pl.fields {
		f := &pl.fields[i]
		fp := fieldPtr(pl.typ, p, &f.structField, false)
		if fp == nil || omitted(f, fp) {
			continue
		}
		n++
		if maybeKeyed && !mayBeObject(f.plan, fp) {
			maybeKeyed = false
		}
	}
	if n == 0 {
		switch at {
		case atField:
			e.b = append(e.b, ':')
		case atItem:
			e.line(d)
			e.b = append(e.b, '-')
		}
		return nil
	}
	if at != atItem && n >= 2 && maybeKeyed {
		if pl.shape != shapeObj {
			// The form depends on the values: let the generic writer
			// decide.
			g, err := e.toGeneric(pl, p, e.level)
			if err != nil {
				return err
			}
			if at == atRoot {
				return e.encodeRoot(g)
			}
			return e.writeValue(g, d)
		}
		if pl.keyed && e.level+1+pl.fields[0].plan.depth <= e.opts.maxDepth {
			rows := d + 1
			if at == atRoot {
				e.line(0)
				rows = 1
			}
			e.b = e.appendHeader(e.b, len(pl.fields), true)
			e.b = appendStaticFields(e.b, pl.fields[0].plan, e.delim)
			e.b = append(e.b, ':')
			for i := range pl.fields {
				e.line(rows)
				e.b = appendKey(e.b, pl.fields[i].name)
				e.b = append(e.b, ':', ' ')
				var err error
				if e.b, err = appendCells(e.b, pl.keyedCells[i], p, e.delim, e.docMask); err != nil {
					return err
				}
				if err := e.maybeFlush(); err != nil {
					return err
				}
			}
			return nil
		}
	}
	switch at {
	case atRoot:
		return e.tFields(pl, p, 0, false)
	case atField:
		e.b = append(e.b, ':')
		return e.tFields(pl, p, d+1, false)
	}
	return e.tFields(pl, p, d+1, true)
}

// mayBeObject reports whether the value at p may be a non-empty object in
// the generic model; false means it surely is not.
func mayBeObject(pl *encPlan, p unsafe.Pointer) bool {
	switch pl.kind {
	case ekPtr:
		return *(*unsafe.Pointer)(p) != nil
	case ekStruct, ekHook, ekObject:
		return true
	case ekMap:
		return *(*unsafe.Pointer)(p) != nil
	case ekIface:
		return !reflect.NewAt(pl.typ, p).Elem().IsNil()
	}
	return false
}

// tFields writes the fields of a non-empty struct as field lines at depth
// d; with hyphen, the first on the hyphen line at depth d-1 (§10).
func (e *Encoder) tFields(pl *encPlan, p unsafe.Pointer, d int, hyphen bool) error {
	if err := e.enter(); err != nil {
		return err
	}
	defer e.leave()
	first := true
	for i := range pl.fields {
		f := &pl.fields[i]
		fp := fieldPtr(pl.typ, p, &f.structField, false)
		if fp == nil || omitted(f, fp) {
			continue
		}
		if hyphen && first {
			e.line(d - 1)
			e.b = append(e.b, '-', ' ')
		} else {
			e.line(d)
		}
		first = false
		e.b = appendKey(e.b, f.name)
		if err := e.tValue(f.plan, fp, d); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// omitted reports whether field f, at fp, is left out by omitempty (false,
// 0, "", nil, and empty arrays, slices and maps, as encoding/json) or
// omitzero (the zero value, or IsZero() true).
func omitted(f *encField, fp unsafe.Pointer) bool {
	if !f.omitEmpty && !f.omitZero {
		return false
	}
	v := reflect.NewAt(f.typ, fp).Elem()
	if f.omitEmpty {
		switch v.Kind() {
		case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
			if v.Len() == 0 {
				return true
			}
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
			if v.IsZero() {
				return true
			}
		}
	}
	if f.omitZero {
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return true
			}
			return z.IsZero()
		}
		return v.IsZero()
	}
	return false
}

// ---- generic equivalents ----

// toGeneric converts the value at p to the generic value it is equivalent
// to: structs to Objects in field order, maps to Objects in sorted key
// order, slices and arrays to []any, primitives to Go basic types, Number
// or Value, and hooks to what they return. depth counts the levels above,
// for the depth limit and the cycle check (visit).
func (e *Encoder) toGeneric(pl *encPlan, p unsafe.Pointer, depth int) (any, error) {
	if depth > e.opts.maxDepth {
		return nil, errors.New("toon: value nested deeper than " + strconv.Itoa(e.opts.maxDepth) + " levels (a cycle?)")
	}
	switch pl.kind {
	case ekBool:
		return *(*bool)(p), nil
	case ekInt:
		return loadInt(p, pl.size), nil
	case ekUint:
		return loadUint(p, pl.size), nil
	case ekFloat32:
		return *(*float32)(p), nil
	case ekFloat64:
		return *(*float64)(p), nil
	case ekString:
		return *(*string)(p), nil
	case ekNumber:
		if pl.typ == jsonNumberType {
			return *(*json.Number)(p), nil
		}
		return *(*Number)(p), nil
	case ekValue:
		return *(*Value)(p), nil
	case ekTime, ekBytes, ekBigInt, ekBigFloat, ekText:
		s, isNull, num, err := primText(pl, p)
		switch {
		case err != nil:
			return nil, err
		case isNull:
			return nil, nil
		case num:
			return Number(s), nil
		}
		return s, nil
	case ekPtr:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return nil, nil
		}
		if depth > cycleDepth {
			r := ref{p: q, t: pl.typ}
			if err := e.visit(r, reflect.NewAt(pl.elem.typ, q).Interface()); err != nil {
				return nil, err
			}
			defer e.unvisit(r)
		}
		return e.toGeneric(pl.elem, q, depth+1)
	case ekIface:
		v := reflect.NewAt(pl.typ, p).Elem()
		if v.IsNil() {
			return nil, nil
		}
		return e.genericOf(v.Elem().Interface(), depth+1)
	case ekStruct:
		o := make(Object, 0, len(pl.fields))
		for i := range pl.fields {
			f := &pl.fields[i]
			fp := fieldPtr(pl.typ, p, &f.structField, false)
			if fp == nil || omitted(f, fp) {
				continue
			}
			v, err := e.toGeneric(f.plan, fp, depth+1)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{Key: f.name, Value: v})
		}
		return o, nil
	case ekSlice, ekArray:
		var base unsafe.Pointer
		var n int
		if pl.kind == ekSlice {
			h := (*sliceHeader)(p)
			if h.data == nil {
				return nil, nil
			}
			base, n = h.data, h.len
		} else {
			base, n = p, pl.typ.Len()
		}
		if pl.kind == ekSlice && n > 0 && depth > cycleDepth {
			r := ref{p: base, n: n, t: pl.typ}
			if err := e.visit(r, reflect.NewAt(pl.typ, p).Elem().Interface()); err != nil {
				return nil, err
			}
			defer e.unvisit(r)
		}
		a := make([]any, n)
		for i := range a {
			v, err := e.toGeneric(pl.elem, unsafe.Add(base, uintptr(i)*pl.elem.size), depth+1)
			if err != nil {
				return nil, err
			}
			a[i] = v
		}
		return a, nil
	case ekMap:
		if q := *(*unsafe.Pointer)(p); q != nil && depth > cycleDepth {
			r := ref{p: q, t: pl.typ}
			if err := e.visit(r, reflect.NewAt(pl.typ, p).Elem().Interface()); err != nil {
				return nil, err
			}
			defer e.unvisit(r)
		}
		return e.mapGeneric(pl, p, depth)
	case ekObject:
		o := *(*Object)(p)
		if len(o) > 0 && depth > cycleDepth {
			r := genericRef(o)
			if err := e.visit(r, o); err != nil {
				return nil, err
			}
			defer e.unvisit(r)
		}
		out := make(Object, len(o))
		for i := range o {
			v, err := e.genericOf(o[i].Value, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = Member{Key: o[i].Key, Value: v}
		}
		return out, nil
	case ekHook:
		rv := reflect.NewAt(pl.typ, p)
		if pl.hook == hookTOON {
			v, err := rv.Interface().(Marshaler).MarshalTOON()
			if err != nil {
				return nil, &MarshalerError{Type: pl.typ, Err: err, method: "MarshalTOON"}
			}
			return e.genericOf(v, depth+1)
		}
		js, err := rv.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return nil, &MarshalerError{Type: pl.typ, Err: err, method: "MarshalJSON"}
		}
		v, err := parseJSON(js)
		if err != nil {
			return nil, &MarshalerError{Type: pl.typ, Err: err, method: "MarshalJSON"}
		}
		return v, nil
	}
	return nil, &UnsupportedTypeError{Type: pl.typ}
}

// genericOf converts any value to its generic equivalent.
func (e *Encoder) genericOf(v any, depth int) (any, error) {
	if kindOf(v) == kPrim {
		return v, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, nil
		}
		if depth > cycleDepth {
			// (A pointer a hook returns: the pointer plan's own check
			// does not see it.)
			r := ref{p: rv.UnsafePointer(), t: rv.Type()}
			if err := e.visit(r, v); err != nil {
				return nil, err
			}
			defer e.unvisit(r)
		}
		return e.toGeneric(encPlanOf(rv.Type().Elem()), rv.UnsafePointer(), depth)
	}
	pv := reflect.New(rv.Type())
	pv.Elem().Set(rv)
	return e.toGeneric(encPlanOf(rv.Type()), pv.UnsafePointer(), depth)
}

// mapGeneric converts a map to an Object in sorted key order. Keys are
// strings, encoding.TextMarshalers or integers, in that order of
// precedence (as encoding/json).
func (e *Encoder) mapGeneric(pl *encPlan, p unsafe.Pointer, depth int) (any, error) {
	m := reflect.NewAt(pl.typ, p).Elem()
	if m.IsNil() {
		return nil, nil
	}
	kt := pl.typ.Key()
	o := make(Object, 0, m.Len())
	it := m.MapRange()
	ev := reflect.New(pl.typ.Elem()).Elem()
	kv := reflect.New(kt).Elem()
	for it.Next() {
		var k string
		kv.SetIterKey(it)
		switch {
		case kt.Kind() == reflect.String:
			k = kv.String()
		case reflect.PointerTo(kt).Implements(textMarshalerType):
			txt, err := kv.Addr().Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return nil, &MarshalerError{Type: kt, Err: err, method: "MarshalText"}
			}
			k = string(txt)
		case kv.CanInt():
			k = strconv.FormatInt(kv.Int(), 10)
		default:
			k = strconv.FormatUint(kv.Uint(), 10)
		}
		ev.SetIterValue(it)
		v, err := e.toGeneric(pl.elem, ev.Addr().UnsafePointer(), depth+1)
		if err != nil {
			return nil, err
		}
		o = append(o, Member{Key: k, Value: v})
	}
	slices.SortFunc(o, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	return o, nil
}

// parseJSON converts JSON text to a generic value, keeping the key order
// of objects (as Objects) and numbers exactly (as Number).
func parseJSON(js []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("toon: trailing data after the JSON value")
	}
	return v, nil
}

func jsonValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case json.Delim:
		if x == '{' {
			o := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				o = setMember(o, kt.(string), v)
			}
			_, err := dec.Token()
			return o, err
		}
		a := []any{}
		for dec.More() {
			v, err := jsonValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	case json.Number:
		return Number(x), nil
	}
	return tok, nil
}
