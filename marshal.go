package toon

// This file holds what Encode and Marshal know of Go types: the encoding
// plan of each type, built once (encPlans), the writing of primitives, and
// the writing of tables of static objects, whose layout the type settles.
// The writer that walks values and chooses their forms is in encode.go.

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/toonstream/toon/internal/mem"
)

// Marshaler is implemented by types that encode themselves as TOON.
// MarshalTOON returns a value to encode in the receiver's place: a generic
// value (nil, string, bool, a number, Number, map[string]any, Object,
// []any) or any other value Marshal accepts. The value goes through the
// same form selection as any other (§9, §10), so a Marshaler's object can
// become a table row and its array a table, and streaming is unaffected.
//
// Marshal gives Marshaler precedence over json.Marshaler, and both over
// encoding.TextMarshaler; a method with a pointer receiver counts. These
// methods may be called more than once for one value: Encode looks at the
// values of an array or an object to choose its form before it writes
// them.
type Marshaler interface {
	MarshalTOON() (any, error)
}

// encKind is how a type is encoded.
type encKind uint8

const (
	ekBad      encKind = iota // not encodable: chan, func, complex, mem.Ptr
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
	ekNull                    // null: what a nil pointer, interface, slice or map stands for (nullPlan)
	ekPtr                     // pointers
	ekIface                   // interfaces
	ekStruct                  // structs: objects
	ekSlice                   // slices: arrays
	ekArray                   // Go arrays: arrays
	ekMap                     // maps: objects with sorted keys
	ekObject                  // Object: as the generic encoder writes it
	ekHook                    // Marshaler or json.Marshaler
)

// valClass is what a value is in the JSON model, as far as its kind tells:
// the writer resolves the kinds of class cRef (resolve) before it looks.
type valClass uint8

const (
	cBad  valClass = iota // not encodable
	cPrim                 // a primitive or null
	cObj                  // an object
	cArr                  // an array
	cRef                  // a pointer, interface or hook: it stands for another value
)

var kindClass = [...]valClass{
	ekBad: cBad, ekBool: cPrim, ekInt: cPrim, ekUint: cPrim, ekFloat32: cPrim, ekFloat64: cPrim,
	ekString: cPrim, ekNumber: cPrim, ekTime: cPrim, ekBytes: cPrim, ekBigInt: cPrim, ekBigFloat: cPrim,
	ekValue: cPrim, ekText: cPrim, ekNull: cPrim, ekPtr: cRef, ekIface: cRef, ekStruct: cObj,
	ekSlice: cArr, ekArray: cArr, ekMap: cObj, ekObject: cObj, ekHook: cRef,
}

// cls is the class of the plan's values.
func (pl *encPlan) cls() valClass { return kindClass[pl.kind] }

// valShape is what a type's values always are in the JSON model, as far as
// the type tells.
type valShape uint8

const (
	shapeDyn  valShape = iota // it depends on the value
	shapePrim                 // always a primitive (null included)
	shapeObj                  // always a non-empty object of the same fields, whose members are shapePrim or shapeObj: a tabular row
)

// mapKey is how a map's keys become the keys of its object.
type mapKey uint8

const (
	mkString mapKey = iota // a string kind: the key itself
	mkText                 // an encoding.TextMarshaler: its text
	mkInt                  // a signed integer kind: its decimal text
	mkUint                 // an unsigned integer kind: its decimal text
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

	// plain: the value at an address of this type is the value itself,
	// with no pointer, interface, hook or nil to resolve (resolve).
	plain bool
	// direct: an interface holding a value of this type holds the value
	// itself in its pointer word (as reflect has it), not a pointer to it.
	direct bool

	alen    int                                             // Go arrays: the length
	eface   bool                                            // interfaces: without methods, laid out as any
	rtype   mem.Ptr                                         // maps: the type word of an interface holding one
	anyMap  bool                                            // maps: of underlying type map[string]any
	mapKey  mapKey                                          // maps: how the keys are written
	collect func(e *Encoder, m mem.Ptr, s *mapScratch) bool // maps: how openMap collects the entries in Go, if it can (sorted, if it says so)
	// writeSmall writes a small map of the type as the value of a field
	// in Go, if it can (writeSmallMap).
	writeSmall func(e *Encoder, pl *encPlan, m mem.Ptr, d int) (bool, error)

	// Structs: allPresent, every field is always written (none is
	// omitempty, omitzero or reached through an embedded pointer);
	// neverKeyed, some field that is always written is never an object,
	// so the struct is never a keyed table (§9.5); keysBad, some field's
	// key has bad UTF-8 bytes replaced, so two keys may be written alike;
	// byName, the field index by name when there are many fields.
	allPresent bool
	neverKeyed bool
	keysBad    bool
	byName     map[string]int

	// Structs whose fields are all written and whose keys need no clash
	// check: steps are their field lines with those of the nested static
	// objects and structs of fields always written spliced in, in
	// writing order (buildSteps); stepDepth is the deepest step's depth
	// below the struct's fields.
	steps     []encStep
	stepDepth int
	// laid holds the steps laid out at the indentations they were written
	// at (laidAt), up to laidSlots of them.
	laid [laidSlots]atomic.Pointer[laidSteps]

	// Static objects (shapeObj): the leaf cells in depth-first order with
	// offsets from the struct's start, and the depth of nested groups.
	leaves []encLeaf
	depth  int

	// simpleLeaves: no leaf has the kind vGeneral (valueRows has a loop
	// of its own for them).
	simpleLeaves bool

	// Keyed (§9.5): an shapeObj struct of at least two shapeObj fields with the
	// same field trees; keyedCells[i] are the cells of field i in the
	// first field's order.
	keyed      bool
	keyedCells [][]encLeaf

	// segs are a static object's fields segment (staticFields)
	// with each delimiter, by delimIndex.
	segs [3][]byte

	// marshalLen is the length of the last document Marshal wrote of a
	// value of this type at the root, which sizes the next one's buffer.
	marshalLen atomic.Int64
}

type encField struct {
	structField
	plan   *encPlan
	key    []byte    // the key as written (appendKeyR)
	keyBad bool      // key has bad UTF-8 bytes replaced
	form   fieldForm // what the type settles of how the field is written
	// lit is the text of a field line after its indentation and before
	// its value: the key, and ": " for formPrim or ":" for formStatic
	// (nothing for formOther, whose value starts with what it needs),
	// padded for putText.
	lit []byte
}

// encStep is one field line of a struct's steps: the field f at offset off
// from the struct's start, rel levels below the struct's own fields, and
// what writes its value (op).
type encStep struct {
	lit []byte // f.lit
	off uintptr
	f   *encField
	rel int32
	op  stepOp
}

// laidSteps is a struct's steps laid out at one indentation: a step's
// text is its whole field line up to its value (LF, indentation, key),
// after the lines of the objects that open before it (stepOpen), so that
// writeSteps copies one text for each value and none for an open line.
type laidSteps struct {
	base, unit int // the spaces before the struct's own fields, and per level
	steps      []laidStep
	// items are the steps of a list item, whose first field is on the
	// hyphen line one level up (§10): steps but for the first text, when
	// base allows one, else nil.
	items []laidStep
}

// laidStep is an encStep other than a stepOpen, with its text laid out.
type laidStep struct {
	encStep
	text []byte // padded as putText reads it
}

// laidSlots is how many indentations a plan keeps its steps laid out at. A
// type written at more is written at the others by writeStructFields' own
// loop, so that no layout is made per value.
const laidSlots = 4

// laidAt returns the plan's steps laid out with base spaces before the
// struct's own fields and unit spaces a level, making them if a slot is
// free, and nil when every slot holds another indentation.
func (pl *encPlan) laidAt(base, unit int) *laidSteps {
	for i := range pl.laid {
		ls := pl.laid[i].Load()
		if ls == nil {
			ls = pl.layOut(base, unit)
			if pl.laid[i].CompareAndSwap(nil, ls) {
				return ls
			}
			ls = pl.laid[i].Load() // another goroutine filled the slot
		}
		if ls.base == base && ls.unit == unit {
			return ls
		}
	}
	return nil
}

// layOut lays out the plan's steps (laidSteps). Every stepOpen has a step
// after it, the first of its object's fields (a static object and a struct
// of fields always written have at least one), whose text takes its line.
func (pl *encPlan) layOut(base, unit int) *laidSteps {
	ls := &laidSteps{base: base, unit: unit}
	var text []byte
	for _, s := range pl.steps {
		text = append(text, '\n')
		text = appendIndent(text, base+int(s.rel)*unit)
		text = append(text, s.lit...)
		if s.op == stepOpen {
			continue
		}
		ls.steps = append(ls.steps, laidStep{encStep: s, text: padText(text)})
		text = text[:0]
	}
	if base >= unit {
		// The first line, "\n" and base spaces, as the hyphen line.
		h := appendIndent([]byte{'\n'}, base-unit)
		h = append(h, '-', ' ')
		ls.items = slices.Clone(ls.steps)
		ls.items[0].text = padText(append(h, ls.steps[0].text[1+base:]...))
	}
	return ls
}

// stepOp is what writes the value of a step's field.
type stepOp uint8

const (
	stepString stepOp = iota // a string (putStr)
	stepInt                  // a signed integer (putInt)
	stepBool                 // a bool
	stepPrim                 // another primitive (appendTyped)
	stepOpen                 // nothing: the object's fields are the steps that follow
	stepValue                // the field's value as writeFieldValue writes it
)

// fieldForm is what a field's type settles of how it is written
// (writeStructFields).
type fieldForm uint8

const (
	formOther  fieldForm = iota // it depends on the value
	formPrim                    // a primitive: `key: value` (shapePrim)
	formStatic                  // a static object that is not a keyed table: `key:` and its fields
	formStruct                  // a struct of fields always written that is never a keyed table: `key:` and its fields, as the values choose
)

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

// byNameMin is the number of fields from which a struct's plan has an
// index of its fields by name.
const byNameMin = 16

func buildEncPlan(b *planBuild[encPlan], t reflect.Type, pl *encPlan) {
	pl.typ = t
	pl.size = t.Size()
	pl.building = true
	pl.kindOf(b, t)
	switch pl.kind {
	case ekPtr, ekIface, ekHook, ekSlice, ekMap:
	default:
		pl.plain = true
	}
	pl.direct = storedDirect(t)
	pl.building = false
}

// storedDirect reports whether an interface holding a value of type t
// holds the value itself in its pointer word: pointer-shaped types. For
// structs and arrays, which are when they consist of one pointer-shaped
// element, it looks at the zero value in an interface, whose word is then
// nil, and else points to a zero value.
func storedDirect(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Struct, reflect.Array:
		z := reflect.Zero(t).Interface()
		return mem.AnyData(&z).IsNil()
	}
	return false
}

// kindOf sets the plan's kind and what goes with it. The kind is set
// before the plans of the types t refers to are built, so that a plan
// under construction that they refer back to has its kind.
func (pl *encPlan) kindOf(b *planBuild[encPlan], t reflect.Type) {
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
		pl.eface = t.NumMethod() == 0
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && marshalHook(t.Elem()) == hookNone {
			pl.kind, pl.shape = ekBytes, shapePrim
			pl.elem = b.get(t.Elem())
			return
		}
		pl.kind = ekSlice
		pl.elem = b.get(t.Elem())
	case reflect.Array:
		pl.kind = ekArray
		pl.alen = t.Len()
		pl.elem = b.get(t.Elem())
	case reflect.Map:
		kt := t.Key()
		switch {
		case kt.Kind() == reflect.String:
			pl.mapKey = mkString
		case reflect.PointerTo(kt).Implements(textMarshalerType):
			pl.mapKey = mkText
		case isIntKind(kt.Kind()):
			pl.mapKey = mkInt
			if kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr {
				pl.mapKey = mkUint
			}
		default:
			return // ekBad
		}
		pl.kind = ekMap
		z := reflect.Zero(t).Interface()
		pl.rtype = mem.AnyType(&z)
		pl.anyMap = t.ConvertibleTo(anyMapType)
		if c, ok := mapCollectors[t.Elem()]; ok && t.ConvertibleTo(reflect.MapOf(stringType, t.Elem())) {
			pl.collect = c
			pl.writeSmall = smallMapWriters[t.Elem()]
		}
		pl.elem = b.get(t.Elem())
	case reflect.Struct:
		pl.kind = ekStruct
		fs := typeFields(t)
		pl.fields = make([]encField, len(fs))
		pl.allPresent = true
		for i := range fs {
			f := &pl.fields[i]
			*f = encField{structField: fs[i], plan: b.get(fs[i].typ)}
			f.key, f.keyBad = appendKeyR(nil, f.name)
			pl.keysBad = pl.keysBad || f.keyBad
			always := f.direct && !f.omitEmpty && !f.omitZero
			pl.allPresent = pl.allPresent && always
			if always && neverObject(f.plan) {
				pl.neverKeyed = true
			}
		}
		if len(fs) >= byNameMin {
			pl.byName = make(map[string]int, len(fs))
			for i := range fs {
				pl.byName[fs[i].name] = i
			}
		}
		for i := range pl.fields {
			f := &pl.fields[i]
			// A plan still under construction here is that of a type
			// that contains this one, which is neither a primitive nor
			// a static object.
			switch {
			case f.plan.building:
			case f.plan.shape == shapePrim:
				f.form = formPrim
			case f.plan.shape == shapeObj && !f.plan.keyed:
				f.form = formStatic
			case f.plan.kind == ekStruct && f.plan.allPresent && len(f.plan.fields) > 0 &&
				(f.plan.neverKeyed || len(f.plan.fields) == 1):
				f.form = formStruct
			}
			f.lit = fieldLit(f.key, f.form)
		}
		if !pl.neverKeyed {
			pl.neverKeyed = unlikeFields(pl)
		}
		pl.staticShape()
		pl.buildSteps()
	}
}

// buildSteps lays out the steps of a struct whose fields are all written
// and none of whose keys has bad bytes replaced: its fields in order, each
// nested static object or struct of fields always written (formStatic,
// formStruct) followed by its own steps, one level deeper, unless it has
// such keys. writeSteps writes them, laid out at the indentation they are
// written at (laidAt), as writeStructFields would.
func (pl *encPlan) buildSteps() {
	if !pl.allPresent || pl.keysBad || len(pl.fields) == 0 {
		return
	}
	var steps []encStep
	depth := 0
	var add func(q *encPlan, off uintptr, rel int)
	add = func(q *encPlan, off uintptr, rel int) {
		depth = max(depth, rel)
		for i := range q.fields {
			f := &q.fields[i]
			s := encStep{lit: f.lit, off: off + f.off, f: f, rel: int32(rel), op: stepValue}
			switch f.form {
			case formPrim:
				switch f.plan.kind {
				case ekString:
					s.op = stepString
				case ekInt:
					s.op = stepInt
				case ekBool:
					s.op = stepBool
				default:
					s.op = stepPrim
				}
			case formStatic, formStruct:
				if !f.plan.keysBad {
					s.op = stepOpen
					steps = append(steps, s)
					add(f.plan, s.off, rel+1)
					continue
				}
			}
			steps = append(steps, s)
		}
	}
	add(pl, 0, 0)
	pl.steps, pl.stepDepth = steps, depth
}

// unlikeFields reports whether two of the fields of a struct's plan that
// are always written can never be objects of the same field tree, so that
// the struct is never a keyed table (§9.5), which needs every member to
// have the first one's tree.
func unlikeFields(pl *encPlan) bool {
	var first *encPlan
	for i := range pl.fields {
		f := &pl.fields[i]
		if !f.direct || f.omitEmpty || f.omitZero {
			continue
		}
		if first == nil {
			first = f.plan
		} else if !sameTreeMay(first, f.plan, 0) {
			return true
		}
	}
	return false
}

// sameTreeMayDepth is how deep sameTreeMay compares before it answers
// that the trees may be the same: recursive types have no bottom.
const sameTreeMayDepth = 8

// sameTreeMay reports whether a value of plan a and one of plan b may be
// objects of the same field tree (as buildTree and matchTree make and
// compare them: the same keys at each level, each a primitive in both or
// an object in both). It answers false only where the types settle it:
// structs whose fields are always written have a fixed set of keys, a
// map's values are all of its element type, and a primitive, a slice or
// an array is never an object. Plans under construction, interfaces,
// hooks and generic objects may be anything.
func sameTreeMay(a, b *encPlan, depth int) bool {
	a, b = derefPlan(a), derefPlan(b)
	if a == b || depth >= sameTreeMayDepth || a.building || b.building {
		return true
	}
	if neverObject(a) || neverObject(b) {
		return false
	}
	if a.kind != ekStruct && a.kind != ekMap || b.kind != ekStruct && b.kind != ekMap {
		return true
	}
	if a.kind == ekMap && b.kind == ekStruct {
		a, b = b, a
	}
	switch {
	case a.kind == ekMap: // both maps
		return sameMemberMay(a.elem, b.elem, depth)
	case !a.allPresent:
		return true
	case b.kind == ekMap: // a struct's fields against a map's values
		for i := range a.fields {
			if !sameMemberMay(a.fields[i].plan, b.elem, depth) {
				return false
			}
		}
		return true
	case !b.allPresent:
		return true
	}
	if len(a.fields) != len(b.fields) {
		return false
	}
	for i := range a.fields {
		g := b.field(a.fields[i].name)
		if g == nil || !sameMemberMay(a.fields[i].plan, g.plan, depth) {
			return false
		}
	}
	return true
}

// sameMemberMay reports whether members of plans a and b may be the same
// node of two field trees: primitives both, or objects of the same tree.
func sameMemberMay(a, b *encPlan, depth int) bool {
	if mayPrim(a) && mayPrim(b) {
		return true
	}
	return mayObject(a) && mayObject(b) && sameTreeMay(a, b, depth+1)
}

// derefPlan returns the plan of what a pointer of plan pl points to, through
// any number of pointers; a nil pointer is null, a primitive.
func derefPlan(pl *encPlan) *encPlan {
	for i := 0; pl.kind == ekPtr && !pl.building && i < sameTreeMayDepth; i++ {
		pl = pl.elem
	}
	return pl
}

// mayPrim reports whether a value of plan pl may be a primitive (null
// included).
func mayPrim(pl *encPlan) bool {
	switch pl.kind {
	case ekStruct, ekArray:
		return pl.building
	}
	return true // primitives, and what may be null or anything
}

// mayObject reports whether a value of plan pl may be an object.
func mayObject(pl *encPlan) bool {
	return !neverObject(derefPlan(pl)) || pl.building
}

// neverObject reports whether no value of a plan's type is an object.
func neverObject(pl *encPlan) bool {
	switch pl.kind {
	case ekSlice, ekArray, ekBad:
		return true
	}
	return pl.shape == shapePrim
}

// staticShape decides whether a struct is a static object (shapeObj), and if
// so lays out its cells and its keyed form.
func (pl *encPlan) staticShape() {
	if len(pl.fields) == 0 || !pl.allPresent {
		return
	}
	for i := range pl.fields {
		f := &pl.fields[i]
		if f.plan.building || f.plan.shape == shapeDyn {
			return
		}
	}
	if pl.keysBad {
		// Two keys written alike would make a header repeat a field; the
		// values are examined, and the writer reports the clash.
		if _, _, clash := nameClash(len(pl.fields), func(i int) string { return pl.fields[i].name }); clash {
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
	for i, d := range [...]Delimiter{Comma, Tab, Pipe} {
		pl.segs[i] = appendFieldSeg(nil, staticFields(pl), d)
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
// in any order at each level (as the writer's matchTree).
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
	if i := pl.fieldIndex(name, 0); i >= 0 {
		return &pl.fields[i]
	}
	return nil
}

// fieldIndex returns the index of the struct field named name, looking
// first at index hint, or -1.
func (pl *encPlan) fieldIndex(name string, hint int) int {
	if hint < len(pl.fields) && pl.fields[hint].name == name {
		return hint
	}
	if pl.byName != nil {
		if i, ok := pl.byName[name]; ok {
			return i
		}
		return -1
	}
	for i := range pl.fields {
		if pl.fields[i].name == name {
			return i
		}
	}
	return -1
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

func loadInt(p mem.Ptr, size uintptr) int64 {
	switch size {
	case 8:
		return *mem.As[int64](p)
	case 4:
		return int64(*mem.As[int32](p))
	case 2:
		return int64(*mem.As[int16](p))
	}
	return int64(*mem.As[int8](p))
}

func loadUint(p mem.Ptr, size uintptr) uint64 {
	switch size {
	case 8:
		return p.Load64(0)
	case 4:
		return uint64(p.Load32(0))
	case 2:
		return uint64(p.Load16(0))
	}
	return uint64(p.Byte(0))
}

// appendTyped appends the primitive at p, of a plan whose shape is shapePrim;
// mask is the quoting mask of the relevant delimiter.
func appendTyped(b []byte, pl *encPlan, p mem.Ptr, mask uint8) ([]byte, error) {
	switch pl.kind {
	case ekString:
		return appendStr(b, *mem.As[string](p), mask), nil
	case ekInt:
		return appendInt(b, loadInt(p, pl.size)), nil
	case ekFloat64:
		return appendFloat(b, *mem.As[float64](p), 64), nil
	case ekBool:
		if *mem.As[bool](p) {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case ekUint:
		return appendUint(b, loadUint(p, pl.size)), nil
	case ekFloat32:
		return appendFloat(b, float64(*mem.As[float32](p)), 32), nil
	case ekNumber:
		return appendNumberString(b, *mem.As[string](p))
	case ekPtr:
		q := *mem.As[mem.Ptr](p)
		if q.IsNil() {
			return append(b, "null"...), nil
		}
		return appendTyped(b, pl.elem, q, mask)
	case ekValue:
		v := mem.As[Value](p)
		b, ok := appendValue(b, v, mask)
		if !ok {
			return b, invalidNumber(v.str())
		}
		return b, nil
	case ekNull:
		return append(b, "null"...), nil
	case ekTime:
		// The text of a time has the colons of its clock, which force
		// quotes (§7.2), and no byte that needs an escape.
		b = append(b, '"')
		b = appendTime(b, mem.As[time.Time](p))
		return append(b, '"'), nil
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
func primText(pl *encPlan, p mem.Ptr) (s string, isNull, num bool, err error) {
	switch pl.kind {
	case ekTime:
		var buf [64]byte
		return string(appendTime(buf[:0], mem.As[time.Time](p))), false, false, nil
	case ekBytes:
		bs := *mem.As[[]byte](p)
		if bs == nil {
			return "", true, false, nil
		}
		return base64.StdEncoding.EncodeToString(bs), false, false, nil
	case ekBigInt:
		return mem.As[big.Int](p).String(), false, true, nil
	case ekBigFloat:
		f := mem.As[big.Float](p)
		if f.IsInf() {
			return "", true, false, nil // §3: infinities are null
		}
		return f.Text('g', -1), false, true, nil
	case ekText:
		txt, err := reflect.NewAt(pl.typ, p.Unsafe()).Interface().(encoding.TextMarshaler).MarshalText()
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

// ---- tables of static objects ----

// writeStaticTable writes the header and the rows of a tabular array of n
// static objects of plan ep at base, with rows at depth d: the form the
// type settles (§9.3), as writeArray has decided.
func (e *Encoder) writeStaticTable(ep *encPlan, base mem.Ptr, n, d int) error {
	e.setB(appendTableHeader(e.b, n, false, staticFields(ep), e.delim))
	if len(ep.leaves) <= maxValueRow {
		return e.valueRows(ep, base, n, d)
	}
	start := len(e.b)
	for i := 0; i < n; i++ {
		if i == sampleRows && e.noFlush && n > 2*sampleRows {
			e.reserve((len(e.b)-start)/sampleRows, n-i)
		}
		e.line(d)
		b, err := appendLeafCells(e.b, ep.leaves, base.Offset(uintptr(i)*ep.size), e.delim, e.docMask)
		e.setB(b)
		if err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeStaticKeyed writes a static struct whose fields are static objects
// of the same field tree (pl.keyed) as a keyed table (§9.5), with its
// entries at depth d.
func (e *Encoder) writeStaticKeyed(pl *encPlan, p mem.Ptr, d int) error {
	e.setB(appendTableHeader(e.b, len(pl.fields), true, staticFields(pl.fields[0].plan), e.delim))
	for i := range pl.fields {
		e.line(d)
		e.setB(append(e.b, pl.fields[i].key...))
		e.setB(append(e.b, ':', ' '))
		b, err := appendLeafCells(e.b, pl.keyedCells[i], p, e.delim, e.docMask)
		e.setB(b)
		if err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeStaticKeyedMap writes an open map of two or more static objects as
// a keyed table (§9.5), with its entries at depth d.
func (e *Encoder) writeStaticKeyedMap(v *objView, d int) error {
	ep := v.pl.elem
	e.setB(appendTableHeader(e.b, v.n, true, staticFields(ep), e.delim))
	checked := false // keyClash has run for v
	for _, ent := range e.sc.ents[v.lo : v.lo+v.n] {
		e.line(d)
		b, bad := appendKeyR(e.b, ent.key)
		e.setB(b)
		if bad && !checked {
			if err := e.keyClash(v); err != nil {
				return err
			}
			checked = true
		}
		e.setB(append(e.b, ':', ' '))
		b, err := appendLeafCells(e.b, ep.leaves, ent.p, e.delim, e.docMask)
		e.setB(b)
		if err != nil {
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
// is the same as appendLeafCells would write (cellValue and appendTyped agree
// on every primitive; TestWriteRowsMatchesMarshal and
// TestMarshalRowsMatchesGeneric check it).
func (e *Encoder) valueRows(ep *encPlan, base mem.Ptr, n, d int) error {
	// The row style of the last table is kept: the next is most often at
	// the same depth (a table in each item of a list).
	rs := &e.rows
	if indent := d * e.opts.indent; len(rs.lead) != indent+1 || rs.delim != byte(e.delim) {
		rs.set(indent, e.delim)
	}
	var row [maxValueRow]Value
	cells := row[:len(ep.leaves)]
	setLeafKinds(cells, ep.leaves)
	// The text goes to a local slice, stored back in e.b only where
	// something else uses it: a store to e.b, which is on the heap, costs
	// a write barrier while the collector runs, which for a large Marshal
	// is much of the time.
	b := e.b
	start := len(b)
	for i := 0; i < n; i++ {
		if i == sampleRows && e.noFlush && n > 2*sampleRows {
			e.setB(b)
			e.reserve((len(b)-start)/sampleRows, n-i)
			b = e.b
		}
		q := base.Offset(uintptr(i) * ep.size)
		// leafValues, here: a store of a string's address into row, an
		// array on this function's stack, needs no write barrier, where
		// a store through a slice in another function does while the
		// collector marks. The leaves of the common kinds have a loop of
		// their own; the text of a time goes to text, which the row's
		// cell views until the row is written.
		if ep.simpleLeaves {
			for j := range ep.leaves {
				l := &ep.leaves[j]
				c := q.Offset(l.off)
				switch l.vk {
				case vString:
					row[j] = String(*mem.As[string](c))
				case vBool:
					row[j].u = uint64(c.Byte(0))
				default: // vInt, vFloat
					row[j].u = c.Load64(0)
				}
			}
		} else {
			text := e.cellText[:0]
			for j := range ep.leaves {
				l := &ep.leaves[j]
				c := q.Offset(l.off)
				switch l.vk {
				case vString:
					row[j] = String(*mem.As[string](c))
				case vBool:
					row[j].u = uint64(c.Byte(0))
				case vInt, vFloat:
					row[j].u = c.Load64(0)
				default:
					if l.kind == ekTime {
						at := len(text)
						text = appendTime(text, mem.As[time.Time](c))
						row[j] = Bytes(text[at:])
						continue
					}
					v, err := cellValue(l.plan, c)
					if err != nil {
						e.setB(b)
						return err
					}
					row[j] = v
				}
			}
			e.cellText = text // its capacity, for the next row
		}
		// The whole-row writer first; a row it does not finish goes on
		// from the cell it stopped at, as WriteRow's does.
		bad := -1 // a malformed number's cell
		switch o, k := rs.putRow(b, cells); {
		case k == len(cells):
			b = b[:o-1] // o is past the last cell's delimiter
		case k >= 0:
			b, bad = rowFrom(b[:o], cells, k, rs)
		default:
			b, bad = appendRowCells(b, cells, rs)
		}
		if bad >= 0 {
			e.setB(b)
			return invalidNumber(cells[bad].str())
		}
		// Marshal (noFlush) keeps everything: past flushSize, every row
		// would call flush for nothing.
		if len(b) >= flushSize && !e.noFlush {
			e.setB(b)
			if err := e.flush(); err != nil {
				return err
			}
			b = e.b
		}
	}
	e.setB(b)
	return nil
}

// leafValues sets cells to the leaves of the static object at p, as
// cellValue does. Numbers and booleans only have their payload copied:
// the tag of their cell (its kind) is set once, by setLeafKinds, and
// stays; a string's cell is set whole, as its text is its kind. The text
// of a time is appended to *text, which the caller empties before each
// row: the row's cells refer to it until the row is written.
func leafValues(cells []Value, leaves []encLeaf, p mem.Ptr, text *[]byte) error {
	for i := range leaves {
		l := &leaves[i]
		q := p.Offset(l.off)
		c := &cells[i]
		switch l.vk {
		case vString:
			*c = String(*mem.As[string](q))
		case vInt, vFloat:
			c.u = q.Load64(0)
		case vBool:
			c.u = uint64(q.Byte(0))
		default:
			if l.kind == ekTime {
				start := len(*text)
				*text = appendTime(*text, mem.As[time.Time](q))
				*c = Bytes((*text)[start:])
				continue
			}
			var err error
			if *c, err = cellValue(l.plan, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowValues is leafValues for one row, with the encoder's scratch text.
func (e *Encoder) rowValues(cells []Value, leaves []encLeaf, p mem.Ptr) error {
	e.cellText = e.cellText[:0]
	return leafValues(cells, leaves, p, &e.cellText)
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
// large table grows the buffer once rather than by repeated doubling. A
// buffer sized after the last document of the type (Encoder.sized) is
// grown only for a document much larger than that one: the estimate is
// rough, and the room left holds a document as large as the last.
func (e *Encoder) reserve(perRow, rows int) {
	need := perRow*rows + perRow*rows/16
	short := need // the room short of which the buffer grows
	if e.sized {
		short /= 2
	}
	if need > 0 && cap(e.b)-len(e.b) < short {
		e.b = slices.Grow(e.b, need)
	}
}

// staticFields returns the fields of a static object, or of a struct whose
// fields are primitives or structs of them (WriteRows), as a fieldGroup:
// its fields that are not primitives are nested groups.
func staticFields(pl *encPlan) planFields { return planFields{pl: pl} }

// planFields is the fields of a static object's plan from field i on.
type planFields struct {
	pl *encPlan
	i  int
}

func (g planFields) more() bool       { return g.i < len(g.pl.fields) }
func (g planFields) name() string     { return g.pl.fields[g.i].name }
func (g planFields) next() planFields { return planFields{g.pl, g.i + 1} }
func (g planFields) sub() (planFields, bool) {
	pl := g.pl.fields[g.i].plan
	return planFields{pl: pl}, pl.shape != shapePrim
}

// cached returns the segment made when the plan was (encPlan.segs).
func (g planFields) cached(d Delimiter) []byte {
	if g.i != 0 {
		return nil
	}
	return g.pl.segs[delimIndex(d)]
}

// delimIndex numbers the delimiters from 0 to 2.
func delimIndex(d Delimiter) int {
	switch d {
	case Tab:
		return 1
	case Pipe:
		return 2
	}
	return 0
}

// appendLeafCells appends the cells of one row of a static object: its
// leaves, separated by delim.
func appendLeafCells(b []byte, leaves []encLeaf, p mem.Ptr, delim Delimiter, mask uint8) ([]byte, error) {
	for i := range leaves {
		l := &leaves[i]
		if i > 0 {
			b = append(b, byte(delim))
		}
		q := p.Offset(l.off)
		switch l.kind {
		case ekString:
			b = appendStr(b, *mem.As[string](q), mask)
		case ekInt:
			if l.plan.size == 8 {
				b = strconv.AppendInt(b, *mem.As[int64](q), 10)
			} else {
				b = appendInt(b, loadInt(q, l.plan.size))
			}
		case ekFloat64:
			b = appendFloat(b, *mem.As[float64](q), 64)
		case ekBool:
			if *mem.As[bool](q) {
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

// omitted reports whether field f, at fp, is left out by omitempty (false,
// 0, "", nil, and empty arrays, slices and maps, as encoding/json) or
// omitzero (the zero value, or IsZero() true).
func omitted(f *encField, fp mem.Ptr) bool {
	if !f.omitEmpty && !f.omitZero {
		return false
	}
	v := reflect.NewAt(f.typ, fp.Unsafe()).Elem()
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
		return nil, encodeErr(ErrTrailing, "trailing data after the JSON value")
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
