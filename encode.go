package toon

// This file writes Go values as TOON documents, for Encode and Marshal.
// Every value, generic (map[string]any, Object, []any, primitives) or of
// any other type, is taken as the plan of its type (marshal.go) and its
// address, and written by the same code, which chooses each form from the
// values as §8 to §10 require:
//
//   - an array is inline when its elements are all primitives (§9.1); a
//     table when they are non-empty objects with the same keys whose
//     columns are primitive or nested-uniform (§9.3), unless it is a list
//     item; else a list (§9.4);
//   - an object of two or more members that are such objects is a keyed
//     table (§9.5), unless it is a list item; else its fields, the first on
//     the hyphen line of a list item (§8, §10).
//
// Where a type settles the question for all its values (a slice of
// strings is inline, a slice of structs of primitives is a table), the
// plan says so and the values are not looked at. Otherwise they are, where
// they are: nothing is built but the field tree of a table (Encoder.nodes),
// in a scratch stack. Struct fields, Object members and slice elements
// have addresses; a map's values do not, so a map of a type other than
// map[string]any has its values copied into a scratch slice of their type
// while it is open (mapScratch).
//
// WriteToken (tokenwriter.go) does not choose forms, its tokens declare
// them, but it lays them out with the same pieces: arrayLead, primLead,
// itemLead and emptyItem for what comes before a value at each place,
// and appendTableHeader for the headers of tables and keyed objects.

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toonstream/toon/internal/mem"
)

// The generic types, their plans, and null's.
var (
	anyPlan        = encPlanOf(reflect.TypeFor[any]())
	anyMapType     = reflect.TypeFor[map[string]any]()
	anyMapPlan     = encPlanOf(anyMapType)
	anySlicePlan   = encPlanOf(reflect.TypeFor[[]any]())
	objectPlan     = encPlanOf(objectType)
	stringType     = reflect.TypeFor[string]()
	stringPlan     = encPlanOf(stringType)
	float64Plan    = encPlanOf(reflect.TypeFor[float64]())
	boolPlan       = encPlanOf(reflect.TypeFor[bool]())
	intPlan        = encPlanOf(reflect.TypeFor[int]())
	int64Plan      = encPlanOf(reflect.TypeFor[int64]())
	numberPlan     = encPlanOf(numberType)
	jsonNumberPlan = encPlanOf(jsonNumberType)
	valuePlan      = encPlanOf(valueType)
	nullPlan       = &encPlan{kind: ekNull, shape: shapePrim, plain: true}
)

// encScratch holds the scratch stacks of the writer. An encoder takes one
// from scratchPool for a document and gives it back at the end, so that
// an encoder per document costs no allocation for them.
type encScratch struct {
	keys    []string                 // the keys of a large Object (checkKeys)
	ents    []mapEnt                 // the sorted entries of open maps
	entsMax int                      // the most entries ents has held since reset
	vals    []any                    // the values of open map[string]any
	valsMax int                      // the most values vals has held since reset
	fidx    []int32                  // the fields written of open structs
	maps    map[*encPlan]*mapScratch // copies of the values of open maps, by map type
	nodes   []tnode                  // field trees
	fieldIx []objIndex               // key index of the Object of a row at each depth (field)
}

var scratchPool = sync.Pool{New: func() any { return new(encScratch) }}

// reset empties the stacks, which a failed document may leave in use.
func (sc *encScratch) reset() {
	sc.keys = sc.keys[:0]
	clear(sc.ents[:sc.entsMax]) // the keys of the document's maps
	sc.ents = sc.ents[:0]
	sc.entsMax = 0
	clear(sc.vals[:sc.valsMax])
	sc.vals = sc.vals[:0]
	sc.valsMax = 0
	sc.fidx = sc.fidx[:0]
	sc.nodes = sc.nodes[:0]
	for _, s := range sc.maps {
		for i := range min(max(s.hi, s.used), s.len) {
			s.vals.Index(i).SetZero()
		}
		s.used, s.hi = 0, 0
		clear(s.known) // the keys of the document's maps
		s.known = s.known[:0]
		s.hits, s.misses = 0, 0
	}
	for i := range sc.fieldIx {
		sc.fieldIx[i].first = nil
	}
}

// encodeRoot writes v as the document.
func (e *Encoder) encodeRoot(v any) error {
	if e.sc == nil {
		e.sc = scratchPool.Get().(*encScratch)
	}
	pl, p, err := e.resolveAny(v)
	if err != nil {
		return err
	}
	switch pl.cls() {
	case cPrim:
		e.line(0)
		b, err := appendTyped(e.b, pl, p, e.docMask)
		e.setB(b)
		return err
	case cArr:
		return e.writeArray(pl, p, atRoot, 0)
	case cObj:
		return e.writeObject(pl, p, atRoot, 0)
	}
	return &UnsupportedTypeError{Type: pl.typ}
}

// ---- values ----

// resolve returns the value that the value at p, of plan pl, stands for:
// the target of a pointer, the dynamic value of an interface, what a hook
// returns, null (nullPlan) for a nil pointer, interface, slice or map, and
// else the value itself. A map is returned as the map (its pointer), not
// the address of a variable holding it: a map in an interface has no such
// address.
func (e *Encoder) resolve(pl *encPlan, p mem.Ptr) (*encPlan, mem.Ptr, error) {
	if pl.plain {
		return pl, p, nil
	}
	return e.resolveRef(pl, p)
}

// resolveAny is resolve for the value x of an interface.
func (e *Encoder) resolveAny(x any) (*encPlan, mem.Ptr, error) {
	pl, p, done := e.dynamic(x)
	if done {
		return pl, p, nil
	}
	return e.resolve(pl, p)
}

// resolveRef is resolve for a plan that is not plain.
func (e *Encoder) resolveRef(pl *encPlan, p mem.Ptr) (*encPlan, mem.Ptr, error) {
	var seen map[ref]struct{}
	for steps := 0; ; steps++ {
		if steps >= cycleDepth {
			// A chain of pointers, interfaces and hooks this long may
			// come back to where it was (a hook that returns its
			// receiver): from here on, its steps are tracked.
			if steps > e.opts.maxDepth {
				return nil, mem.Ptr{}, errDepth(e.opts.maxDepth)
			}
			if seen == nil {
				seen = make(map[ref]struct{})
			}
			r := ref{p: p, t: pl.typ}
			if _, ok := seen[r]; ok {
				return nil, mem.Ptr{}, &UnsupportedValueError{Value: reflect.NewAt(pl.typ, p.Unsafe()), Str: "encountered a cycle via " + pl.typ.String()}
			}
			seen[r] = struct{}{}
		}
		var done bool
		switch pl.kind {
		case ekPtr:
			if p = *mem.As[mem.Ptr](p); p.IsNil() {
				return nullPlan, mem.Ptr{}, nil
			}
			pl = pl.elem
			continue
		case ekIface:
			var x any
			if pl.eface {
				x = *mem.As[any](p)
			} else {
				x = reflect.NewAt(pl.typ, p.Unsafe()).Elem().Interface()
			}
			if pl, p, done = e.dynamic(x); done {
				return pl, p, nil
			}
			continue
		case ekHook:
			x, err := e.callHook(pl, p)
			if err != nil {
				return nil, mem.Ptr{}, err
			}
			if pl, p, done = e.dynamic(x); done {
				return pl, p, nil
			}
			continue
		case ekSlice:
			if mem.As[mem.SliceHeader](p).Data.IsNil() {
				return nullPlan, mem.Ptr{}, nil
			}
		case ekMap:
			if p = *mem.As[mem.Ptr](p); p.IsNil() {
				return nullPlan, mem.Ptr{}, nil
			}
		}
		return pl, p, nil
	}
}

// dynamic returns the plan and the address of x's dynamic value, and
// whether that is the value itself (done) rather than a value to resolve.
// The generic containers are taken as they are: a nil map[string]any,
// Object or []any in an interface is an empty object or array (a nil
// container of any other type, or one in a typed variable, is null).
func (e *Encoder) dynamic(x any) (pl *encPlan, p mem.Ptr, done bool) {
	data := mem.AnyData(&x)
	switch x.(type) {
	case nil:
		return nullPlan, mem.Ptr{}, true
	case string:
		return stringPlan, data, true
	case float64:
		return float64Plan, data, true
	case bool:
		return boolPlan, data, true
	case int:
		return intPlan, data, true
	case int64:
		return int64Plan, data, true
	case map[string]any:
		return anyMapPlan, data, true
	case []any:
		return anySlicePlan, data, true
	case Object:
		return objectPlan, data, true
	case Number:
		return numberPlan, data, true
	case json.Number:
		return jsonNumberPlan, data, true
	case Value:
		return valuePlan, data, true
	}
	pl = e.typePlan(x)
	switch {
	case pl.kind == ekPtr:
		if data.IsNil() {
			return nullPlan, mem.Ptr{}, true
		}
		return pl.elem, data, false
	case pl.kind == ekMap:
		if data.IsNil() {
			return nullPlan, mem.Ptr{}, true
		}
		return pl, data, true
	case pl.direct && pl.kind != ekBad:
		// The value is the interface's word, which has no address of
		// its own to give.
		bp := new(mem.Ptr)
		*bp = data
		return pl, mem.Of(bp), false
	}
	return pl, data, false
}

// typePlan returns the plan of the dynamic type of x, which is not nil,
// through a cache of the last type's.
func (e *Encoder) typePlan(x any) *encPlan {
	if mem.AnyType(&x) == e.dynType {
		return e.dynPlan
	}
	return e.cacheTypePlan(x)
}

// cacheTypePlan is typePlan for a type other than the last one.
func (e *Encoder) cacheTypePlan(x any) *encPlan {
	e.dynType, e.dynPlan = mem.AnyType(&x), encPlanOf(reflect.TypeOf(x))
	return e.dynPlan
}

// callHook calls the MarshalTOON or MarshalJSON method of the value at p
// and returns the value it stands for.
func (e *Encoder) callHook(pl *encPlan, p mem.Ptr) (any, error) {
	rv := reflect.NewAt(pl.typ, p.Unsafe())
	if pl.hook == hookTOON {
		v, err := rv.Interface().(Marshaler).MarshalTOON()
		if err != nil {
			return nil, &MarshalerError{Type: pl.typ, Err: err, method: "MarshalTOON"}
		}
		return v, nil
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

// mapValue returns the map m of plan pl as a reflect.Value.
func mapValue(pl *encPlan, m mem.Ptr) reflect.Value {
	return reflect.ValueOf(mem.MakeAny(pl.rtype, m))
}

// anyMap returns the map m of a plan whose type has the underlying type
// map[string]any (anyMap).
func anyMap(m mem.Ptr) map[string]any { return mem.Load[map[string]any](mem.Of(&m)) }

// objLen returns the number of members of the resolved object at p.
func (e *Encoder) objLen(pl *encPlan, p mem.Ptr) int {
	switch pl.kind {
	case ekStruct:
		if pl.allPresent {
			return len(pl.fields)
		}
		n := 0
		for i := range pl.fields {
			if !present(pl, p, &pl.fields[i]).IsNil() {
				n++
			}
		}
		return n
	case ekObject:
		return len(*mem.As[Object](p))
	case ekMap:
		if pl.anyMap {
			return len(anyMap(p))
		}
		return mapValue(pl, p).Len()
	}
	return -1
}

// present returns the address of field f of the struct at p, or nil if
// the field is not written: omitted (omitempty, omitzero), or reached
// through a nil embedded pointer.
func present(pl *encPlan, p mem.Ptr, f *encField) mem.Ptr {
	fp := fieldPtr(pl.typ, p, &f.structField, false)
	if fp.IsNil() || omitted(f, fp) {
		return mem.Ptr{}
	}
	return fp
}

// ---- objects ----

// viewKind is how an objView holds its object.
type viewKind uint8

const (
	vwStruct viewKind = iota // a struct: its plan's fields
	vwObject                 // an Object
	vwAnyMap                 // a map[string]any: entries sorted in encScratch.ents
	vwMap                    // another map: entries sorted in encScratch.ents
)

// objView is an open object: its members in the order they are written.
// What it needs to hold, it holds in the encoder's scratch stacks, from
// index lo: the fields written of a struct that may leave some out
// (encScratch.fidx), or the sorted entries of a map (encScratch.ents),
// whose values are copied into encScratch.vals for a map[string]any, else
// into scr. A view opened for lookups only (openLookup) may leave a
// struct's fields or a map[string]any's entries unlisted (lo < 0).
type objView struct {
	kind viewKind
	pl   *encPlan
	p    mem.Ptr     // the struct's address, the map, or the Object's address
	n    int         // members
	lo   int         // the view's first entry in its scratch stack, or -1
	scr  *mapScratch // vwMap: the copies of its values
	used int         // the length of scr's stack (vwMap) or of encScratch.vals (vwAnyMap) before
}

// mapEnt is a member of an open map: its key as written (before §7.3
// quoting), the key's first bytes (keyPrefix), and the address of a copy
// of its value: in encScratch.vals for a map[string]any, else in the
// scratch slice of the map's type.
type mapEnt struct {
	key string
	pre uint64
	p   mem.Ptr
}

// keyPrefix returns the first 8 bytes of k as a big-endian number, padded
// with zeros: keys whose prefixes differ compare as their prefixes do.
func keyPrefix(k string) uint64 {
	if len(k) >= 8 {
		return binary.BigEndian.Uint64(mem.Bytes(k[:8]))
	}
	var u uint64
	for i := 0; i < 8; i++ {
		u <<= 8
		if i < len(k) {
			u |= uint64(k[i])
		}
	}
	return u
}

// sortEnts sorts the entries of a map by key. Most maps are small: they
// are sorted by insertion, with the comparison inline, of their indexes
// in an array on the stack, and then each entry is stored once in its
// place. Entries hold pointers, and ents is on the heap: each move of an
// entry there costs write barriers while the collector marks, which a
// Marshal that allocates its large result has it do much of the time.
func sortEnts(ents []mapEnt) {
	if len(ents) <= sortSmall {
		var ix [sortSmall]uint8
		moved := false
		for i := range ents {
			j := i
			for ; j > 0 && entBefore(&ents[i], &ents[ix[j-1]]); j-- {
				ix[j] = ix[j-1]
			}
			ix[j] = uint8(i)
			moved = moved || j != i
		}
		if !moved {
			return
		}
		var tmp [sortSmall]mapEnt
		copy(tmp[:], ents)
		for i := range ents {
			ents[i] = tmp[ix[i]]
		}
		return
	}
	slices.SortFunc(ents, func(a, b mapEnt) int {
		if a.pre != b.pre {
			if a.pre < b.pre {
				return -1
			}
			return 1
		}
		return strings.Compare(a.key, b.key)
	})
}

// entBefore reports whether entry a's key sorts before entry b's.
func entBefore(a, b *mapEnt) bool { return keyBefore(a.pre, a.key, b.pre, b.key) }

// keyBefore reports whether key a, whose first bytes are apre
// (keyPrefix), sorts before key b, whose first bytes are bpre.
func keyBefore(apre uint64, a string, bpre uint64, b string) bool {
	return apre < bpre || apre == bpre && a < b
}

// mapScratch holds copies of the values of the open maps of one type.
// Maps nest (a map's value may hold a map of the same type), so it is a
// stack: a view takes the next slots and gives them back when closed. When
// it runs out, a larger slice replaces it; the open views keep the slots
// they have in the old one.
type mapScratch struct {
	vals reflect.Value // a []V
	len  int           // its length
	base mem.Ptr       // its first element
	size uintptr       // the size of a V
	used int           // the slots taken by open views
	hi   int           // the most slots taken since reset, which clears them
	key  reflect.Value // a variable of the key type

	// known are the sorted keys of the last map of the type that openMap
	// sorted, for openKnown, which has found them hits times and not
	// misses times in the document.
	known        []mapEnt
	hits, misses int
}

// scratchFor returns the scratch slice of the maps of plan pl.
func (e *Encoder) scratchFor(pl *encPlan) *mapScratch {
	s := e.sc.maps[pl]
	if s == nil {
		if e.sc.maps == nil {
			e.sc.maps = make(map[*encPlan]*mapScratch)
		}
		s = &mapScratch{size: pl.elem.size, key: reflect.New(pl.typ.Key()).Elem()}
		e.sc.maps[pl] = s
	}
	return s
}

// open opens the resolved object at p as v: its members in output order.
// The caller must call closeView(v) when done with it, in last-in
// first-out order, even when open fails.
func (e *Encoder) open(v *objView, pl *encPlan, p mem.Ptr) error {
	*v = objView{pl: pl, p: p, lo: -1}
	switch pl.kind {
	case ekStruct:
		v.kind = vwStruct
		if pl.allPresent {
			v.n = len(pl.fields)
			return nil
		}
		v.lo = len(e.sc.fidx)
		for i := range pl.fields {
			if !present(pl, p, &pl.fields[i]).IsNil() {
				e.sc.fidx = append(e.sc.fidx, int32(i))
			}
		}
		v.n = len(e.sc.fidx) - v.lo
	case ekObject:
		v.kind = vwObject
		v.n = len(*mem.As[Object](p))
	case ekMap:
		if pl.anyMap {
			v.kind = vwAnyMap
			v.lo = len(e.sc.ents)
			v.used = len(e.sc.vals)
			for k, x := range anyMap(p) {
				// An earlier value's address stays good if vals grows:
				// the old array keeps it, and is not written again.
				e.sc.vals = append(e.sc.vals, x)
				e.sc.ents = append(e.sc.ents, mapEnt{key: k, pre: keyPrefix(k), p: mem.Of(&e.sc.vals[len(e.sc.vals)-1])})
			}
			e.sc.valsMax = max(e.sc.valsMax, len(e.sc.vals))
			v.n = len(e.sc.ents) - v.lo
			e.sc.entsMax = max(e.sc.entsMax, len(e.sc.ents))
			sortEnts(e.sc.ents[v.lo:])
			return nil
		}
		v.kind = vwMap
		return e.openMap(v)
	}
	return nil
}

// openLookup opens the resolved object at p as v for lookups by key
// (get): as open, but a struct's fields and a map[string]any's keys are
// left unlisted.
func (e *Encoder) openLookup(v *objView, pl *encPlan, p mem.Ptr) error {
	switch {
	case pl.kind == ekStruct:
		*v = objView{kind: vwStruct, pl: pl, p: p, n: e.objLen(pl, p), lo: -1}
		return nil
	case pl.kind == ekMap && pl.anyMap:
		*v = objView{kind: vwAnyMap, pl: pl, p: p, n: len(anyMap(p)), lo: -1}
		return nil
	}
	return e.open(v, pl, p)
}

// openMap lists the entries of the map v.p in e.sc.ents, sorted by key.
// The values of a map with string keys that no collector takes are read
// where the map holds them (mem.MapElemString), looked up once the keys
// are sorted; those of other maps are copied into the scratch slice of
// the map's type.
func (e *Encoder) openMap(v *objView) error {
	pl := v.pl
	mv := mapValue(pl, v.p)
	n := mv.Len()
	v.lo = len(e.sc.ents)
	s := e.scratchFor(pl)
	if pl.mapKey == mkString && pl.collect == nil {
		if e.openKnown(v, s, n) {
			return nil
		}
		var it reflect.MapIter
		it.Reset(mv)
		for it.Next() {
			s.key.SetIterKey(&it)
			k := s.key.String()
			e.sc.ents = append(e.sc.ents, mapEnt{key: k, pre: keyPrefix(k)})
		}
		ents := e.sc.ents[v.lo:]
		v.n = len(ents)
		e.sc.entsMax = max(e.sc.entsMax, len(e.sc.ents))
		sortEnts(ents)
		for i := range ents {
			ents[i].p = mem.MapElemString(pl.rtype, v.p, ents[i].key)
		}
		s.remember(ents)
		return nil
	}
	if s.used+n > s.len {
		s.len = max(2*s.len, s.used+n, 8)
		s.vals = reflect.MakeSlice(reflect.SliceOf(pl.typ.Elem()), s.len, s.len)
		s.base = mem.FromUnsafe(s.vals.UnsafePointer())
	}
	v.scr, v.used = s, s.used
	sorted := false
	if pl.collect != nil {
		sorted = pl.collect(e, v.p, s)
	} else if err := e.collectReflect(pl, mv, s); err != nil {
		return err
	}
	ents := e.sc.ents[v.lo:]
	v.n = len(ents)
	e.sc.entsMax = max(e.sc.entsMax, len(e.sc.ents))
	if !sorted {
		sortEnts(ents)
	}
	if pl.mapKey != mkString {
		// Distinct keys may have the same text.
		for i := 1; i < len(ents); i++ {
			if ents[i].key == ents[i-1].key {
				return errDupKey(ents[i].key)
			}
		}
	}
	return nil
}

// knownMax is the most keys a map may have for mapScratch to remember
// them, and knownTries how many more maps of a document may miss than
// hit the keys remembered before it stops trying.
const (
	knownMax   = 64
	knownTries = 8
)

// openKnown lists the entries of the map v.p, of n entries, in e.sc.ents
// if its keys are those of the last map of its type that openMap sorted
// (mapScratch.known): the maps of one type in a document often have the
// same keys, which are then looked up in their order, with no iteration
// and no sort. It reports whether they were.
func (e *Encoder) openKnown(v *objView, s *mapScratch, n int) bool {
	if n == 0 || len(s.known) != n || s.misses > s.hits+knownTries {
		return false
	}
	for _, k := range s.known {
		p := mem.MapElemString(v.pl.rtype, v.p, k.key)
		if p.IsNil() {
			e.sc.ents = e.sc.ents[:v.lo]
			s.misses++
			return false
		}
		e.sc.ents = append(e.sc.ents, mapEnt{key: k.key, pre: k.pre, p: p})
	}
	// n distinct keys found in a map of n entries: they are all its keys.
	s.hits++
	v.n = n
	e.sc.entsMax = max(e.sc.entsMax, len(e.sc.ents))
	return true
}

// remember keeps the sorted keys of a map for openKnown, unless the maps
// of the type have too many keys or seldom the same.
func (s *mapScratch) remember(ents []mapEnt) {
	if len(ents) > knownMax || s.misses > s.hits+knownTries {
		return
	}
	s.known = s.known[:0]
	for i := range ents {
		s.known = append(s.known, mapEnt{key: ents[i].key, pre: ents[i].pre})
	}
}

// collectReflect copies the entries of the map mv into the scratch slice
// s and lists them in e.sc.ents, through reflect.
func (e *Encoder) collectReflect(pl *encPlan, mv reflect.Value, s *mapScratch) error {
	var it reflect.MapIter
	it.Reset(mv)
	for i := s.used; i < s.len && it.Next(); i++ {
		s.vals.Index(i).SetIterValue(&it)
		s.used = i + 1
		s.key.SetIterKey(&it)
		var k string
		switch pl.mapKey {
		case mkString:
			k = s.key.String()
		case mkText:
			txt, err := s.key.Addr().Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return &MarshalerError{Type: pl.typ.Key(), Err: err, method: "MarshalText"}
			}
			k = string(txt)
		case mkInt:
			k = strconv.FormatInt(s.key.Int(), 10)
		default:
			k = strconv.FormatUint(s.key.Uint(), 10)
		}
		e.sc.ents = append(e.sc.ents, mapEnt{key: k, pre: keyPrefix(k), p: s.base.Offset(uintptr(i) * s.size)})
	}
	return nil
}

// collectMap is collectReflect for a map of underlying type map[string]V,
// in Go. It reports whether it listed the entries sorted: a map of up to
// sortSmall entries is sorted as it is read, by insertion into an array on
// this function's stack, where moving an entry (its key and address) costs
// no write barrier, and listed once in its order.
func collectMap[V any](e *Encoder, m mem.Ptr, s *mapScratch) (sorted bool) {
	vals := mem.SliceAt[V](s.base, s.len)
	i := s.used
	mp := mem.Load[map[string]V](mem.Of(&m))
	if len(mp) <= sortSmall && len(mp) <= s.len-i {
		var loc [sortSmall]mapEnt
		n := 0
		for k, x := range mp {
			if n == len(loc) || i+n == s.len {
				break
			}
			vals[i+n] = x
			ent := mapEnt{key: k, pre: keyPrefix(k), p: mem.Of(&vals[i+n])}
			j := n
			for ; j > 0 && entBefore(&ent, &loc[j-1]); j-- {
				loc[j] = loc[j-1]
			}
			loc[j] = ent
			n++
		}
		e.sc.ents = append(e.sc.ents, loc[:n]...)
		s.used = i + n
		return true
	}
	for k, x := range mp {
		if i == s.len {
			break
		}
		vals[i] = x
		e.sc.ents = append(e.sc.ents, mapEnt{key: k, pre: keyPrefix(k), p: mem.Of(&vals[i])})
		i++
	}
	s.used = i
	return false
}

// sortSmall is the most entries of a map sorted by insertion on the
// stack: by collectMap as it reads them, and by sortEnts.
const sortSmall = 16

// mapCollectors are the maps that openMap iterates in Go: of these
// underlying types, by their value type.
var mapCollectors = map[reflect.Type]func(e *Encoder, m mem.Ptr, s *mapScratch) bool{
	reflect.TypeFor[bool]():    collectMap[bool],
	reflect.TypeFor[string]():  collectMap[string],
	reflect.TypeFor[int]():     collectMap[int],
	reflect.TypeFor[int64]():   collectMap[int64],
	reflect.TypeFor[float64](): collectMap[float64],
}

// smallMapWriters are writeSmallMap for the maps of mapCollectors, by
// their value type.
var smallMapWriters = map[reflect.Type]func(e *Encoder, pl *encPlan, m mem.Ptr, d int) (bool, error){
	reflect.TypeFor[bool]():    writeSmallMap[bool],
	reflect.TypeFor[string]():  writeSmallMap[string],
	reflect.TypeFor[int]():     writeSmallMap[int],
	reflect.TypeFor[int64]():   writeSmallMap[int64],
	reflect.TypeFor[float64](): writeSmallMap[float64],
}

// smallEnt is an entry of a map that writeSmallMap writes: its key, the
// key's first bytes (keyPrefix) and its value.
type smallEnt[V any] struct {
	key string
	pre uint64
	val V
}

// writeSmallMap writes the map m, of underlying type map[string]V for a
// primitive V, as the value of a field whose key is written at depth d,
// as writeObject would: `:` and a field line at depth d+1 for each entry,
// in key order. It does when the map has from 1 to sortSmall entries, the
// nesting allows one more level without tracking it (enter, visit), and
// no key has bad bytes replaced (keyClash); it reports whether it did, and
// writes nothing when it did not. The entries are sorted by insertion as
// they are read, with their values, in an array on this function's stack,
// where no store costs a write barrier, and nothing goes through the
// scratch stacks.
func writeSmallMap[V any](e *Encoder, pl *encPlan, m mem.Ptr, d int) (bool, error) {
	mp := mem.Load[map[string]V](mem.Of(&m))
	n := len(mp)
	if n == 0 || n > sortSmall || e.level+1 > min(e.opts.maxDepth, cycleDepth) {
		return false, nil
	}
	var loc [sortSmall]smallEnt[V]
	k := 0
	for key, x := range mp {
		if k == n {
			break
		}
		ent := smallEnt[V]{key: key, pre: keyPrefix(key), val: x}
		j := k
		for ; j > 0 && keyBefore(ent.pre, ent.key, loc[j-1].pre, loc[j-1].key); j-- {
			loc[j] = loc[j-1]
		}
		loc[j] = ent
		k++
	}
	indent := (d + 1) * e.opts.indent
	kind, size, mask := pl.elem.kind, pl.elem.size, e.docMask
	b := append(e.b, ':')
	for i := range loc[:k] {
		b = append(b, '\n')
		b = appendIndent(b, indent)
		var bad bool
		if b, bad = appendKeyR(b, loc[i].key); bad {
			return false, nil // for keyClash, on the general path
		}
		b = append(b, ':', ' ')
		b = appendBasic(b, kind, size, mem.Of(&loc[i].val), mask)
	}
	e.setB(b)
	return true, e.maybeFlush()
}

// appendBasic appends the value at p of a Go basic kind that a map of
// smallMapWriters holds, as appendTyped does. (appendTyped's p escapes,
// through its pointer kinds: called with an entry of writeSmallMap's
// array, it would move the array to the heap.)
func appendBasic(b []byte, kind encKind, size uintptr, p mem.Ptr, mask uint8) []byte {
	switch kind {
	case ekString:
		return appendStr(b, *mem.As[string](p), mask)
	case ekInt:
		return appendInt(b, loadInt(p, size))
	case ekFloat64:
		return appendFloat(b, *mem.As[float64](p), 64)
	}
	if *mem.As[bool](p) {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// closeView returns the scratch stacks to their state before v was
// opened. The copies of a map's values stay in their slots until the next
// map takes them or the document ends (encScratch.reset).
func (e *Encoder) closeView(v *objView) {
	if v.lo < 0 {
		return
	}
	switch v.kind {
	case vwStruct:
		e.sc.fidx = e.sc.fidx[:v.lo]
	case vwAnyMap:
		e.sc.ents = e.sc.ents[:v.lo]
		e.sc.vals = e.sc.vals[:v.used]
	case vwMap:
		e.sc.ents = e.sc.ents[:v.lo]
		if s := v.scr; s != nil {
			// The copies stay until reset clears them: slots are
			// written again whole by the next map opened.
			s.hi = max(s.hi, s.used)
			s.used = v.used
		}
	}
}

// obj returns the Object of a vwObject view.
func (v *objView) obj() Object { return *mem.As[Object](v.p) }

// fieldOf returns the struct field of member i of a vwStruct view.
func (e *Encoder) fieldOf(v *objView, i int) *encField {
	if v.lo >= 0 {
		i = int(e.sc.fidx[v.lo+i])
	}
	return &v.pl.fields[i]
}

// key returns the key of member i of v.
func (e *Encoder) key(v *objView, i int) string {
	switch v.kind {
	case vwStruct:
		return e.fieldOf(v, i).name
	case vwObject:
		return v.obj()[i].Key
	}
	return e.sc.ents[v.lo+i].key
}

// member returns the resolved value of member i of v.
func (e *Encoder) member(v *objView, i int) (*encPlan, mem.Ptr, error) {
	switch v.kind {
	case vwStruct:
		f := e.fieldOf(v, i)
		if f.direct {
			return e.resolve(f.plan, v.p.Offset(f.off))
		}
		return e.resolve(f.plan, fieldPtr(v.pl.typ, v.p, &f.structField, false))
	case vwObject:
		return e.resolve(anyPlan, mem.Of(&v.obj()[i].Value))
	}
	return e.resolve(v.pl.elem, e.sc.ents[v.lo+i].p)
}

// get returns the resolved value of the member with key k of v, opened
// with openLookup, looking first at member hint; level is the view's
// nesting depth in a table row (for Encoder.field).
func (e *Encoder) get(v *objView, k string, hint, level int) (*encPlan, mem.Ptr, bool, error) {
	switch v.kind {
	case vwStruct:
		i := v.pl.fieldIndex(k, hint)
		if i < 0 {
			return nil, mem.Ptr{}, false, nil
		}
		f := &v.pl.fields[i]
		fp := present(v.pl, v.p, f)
		if fp.IsNil() {
			return nil, mem.Ptr{}, false, nil
		}
		pl, p, err := e.resolve(f.plan, fp)
		return pl, p, true, err
	case vwObject:
		o := v.obj()
		i, ok := e.field(o, k, hint, level)
		if !ok {
			return nil, mem.Ptr{}, false, nil
		}
		pl, p, err := e.resolve(anyPlan, mem.Of(&o[i].Value))
		return pl, p, true, err
	case vwAnyMap:
		x, ok := anyMap(v.p)[k]
		if !ok {
			return nil, mem.Ptr{}, false, nil
		}
		pl, p, err := e.resolveAny(x)
		return pl, p, true, err
	}
	ents := e.sc.ents[v.lo : v.lo+v.n]
	i := hint
	if i >= len(ents) || ents[i].key != k {
		var ok bool
		if i, ok = slices.BinarySearchFunc(ents, k, func(a mapEnt, k string) int { return strings.Compare(a.key, k) }); !ok {
			return nil, mem.Ptr{}, false, nil
		}
	}
	pl, p, err := e.resolve(v.pl.elem, ents[i].p)
	return pl, p, true, err
}

// ref returns the ref of an open object, for the cycle check.
func (v *objView) ref() ref {
	if v.kind == vwObject {
		o := v.obj()
		return ref{p: mem.SliceData(o), n: len(o), t: objectType}
	}
	return ref{p: v.p, t: v.pl.typ}
}

// keyClash returns an error if two keys of v are written alike
// (writtenKey), and nil otherwise. The writers call it when they have
// written a key with bad bytes replaced, the only way two distinct keys
// can be written alike.
func (e *Encoder) keyClash(v *objView) error {
	if a, b, ok := nameClash(v.n, func(i int) string { return e.key(v, i) }); ok {
		return errKeysAlike(a, b, writtenKey(b))
	}
	return nil
}

// mayClash reports whether some key of v may have bad bytes replaced.
func (e *Encoder) mayClash(v *objView) bool {
	if v.kind == vwStruct {
		return v.pl.keysBad
	}
	for i := 0; i < v.n; i++ {
		if !validString(e.key(v, i)) {
			return true
		}
	}
	return false
}

// field finds key k in the Object o of a table row, at nesting depth
// level, looking first at member hint. An Object that lists its members
// in another order than the header is searched through an index of its
// keys, built once for the Object (e.sc.fieldIx[level]), so that each of its
// fields costs constant time rather than a scan of the Object.
func (e *Encoder) field(o Object, k string, hint, level int) (int, bool) {
	if hint < len(o) && o[hint].Key == k {
		return hint, true
	}
	if len(o) <= smallNames {
		for i := range o {
			if o[i].Key == k {
				return i, true
			}
		}
		return 0, false
	}
	for len(e.sc.fieldIx) <= level {
		e.sc.fieldIx = append(e.sc.fieldIx, objIndex{})
	}
	ix := &e.sc.fieldIx[level]
	if ix.first != &o[0] || ix.n != len(o) {
		ix.build(o)
	}
	if i, ok := ix.pos[k]; ok && o[i].Key == k {
		return i, true
	}
	return 0, false
}

// forgetRows drops the key indexes of field, which are valid for the rows
// of one table only: the caller may change an Object between tables.
func (e *Encoder) forgetRows() {
	for i := range e.sc.fieldIx {
		e.sc.fieldIx[i].first = nil
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
	mark := len(e.sc.keys)
	for i := range o {
		e.sc.keys = append(e.sc.keys, o[i].Key)
	}
	ks := e.sc.keys[mark:]
	slices.Sort(ks)
	var err error
	for i := 1; i < len(ks); i++ {
		if ks[i] == ks[i-1] {
			err = errDupKey(ks[i])
			break
		}
	}
	e.sc.keys = e.sc.keys[:mark]
	return err
}

func errDupKey(k string) error {
	return encodeErr(ErrDuplicateKey, "duplicate key "+strconv.Quote(k)+" in Object")
}

// ---- the writer ----

// enter and leave track the nesting depth of Encode.
func (e *Encoder) enter() error {
	e.level++
	if e.level > e.opts.maxDepth {
		return errDepth(e.opts.maxDepth)
	}
	return nil
}

func (e *Encoder) leave() { e.level-- }

// beginArray enters one nesting level and writes what comes before an
// array's header at place p (arrayLead). It returns the depth of the
// array's content. Unless it fails, the caller must call e.leave when done.
func (e *Encoder) beginArray(p place, d int) (child int, err error) {
	if err := e.enter(); err != nil {
		return 0, err
	}
	return e.arrayLead(p, d), nil
}

// The layout of a value's start, shared by Encode, Marshal and WriteToken:
// where a value's text goes at each place (§8, §9, §10).

// place is where a value stands, which decides where its text starts.
type place uint8

const (
	atRoot  place = iota // the document's root
	atField              // after a key already written
	atItem               // a list item at the given depth
)

// arrayLead writes what comes before the header of an array (or keyed
// object) at place p: the root's line, or a list item's line and hyphen
// at depth d (a field's key is already written), which is what primLead
// writes there. It returns the depth of the array's content. It is small
// enough to inline, so that an array that is a field's value, the common
// case, costs no call.
func (e *Encoder) arrayLead(p place, d int) (child int) {
	if p == atField {
		return d + 1
	}
	e.primLead(p, d)
	if p == atRoot {
		return 1
	}
	return d + 1
}

// primLead writes what comes before a primitive at place p: the root's
// line, ": " after a key, or a list item's line and hyphen at depth d.
func (e *Encoder) primLead(p place, d int) {
	switch p {
	case atRoot:
		e.line(0)
	case atField:
		e.setB(append(e.b, ':', ' '))
	case atItem:
		e.itemLead(d)
	}
}

// itemLead starts a list item at depth d: its line and hyphen (§10). It is
// small enough to inline, as are line and emptyItem, so that the loops
// over fields and items call none of them.
func (e *Encoder) itemLead(d int) { e.newLine(d*e.opts.indent, "- ") }

// emptyItem writes an empty object as a list item at depth d: a lone
// hyphen (§10).
func (e *Encoder) emptyItem(d int) { e.newLine(d*e.opts.indent, "-") }

// writeValue writes the resolved value at p of a field whose key has been
// written at depth d.
func (e *Encoder) writeValue(pl *encPlan, p mem.Ptr, d int) error {
	switch pl.cls() {
	case cPrim:
		e.setB(append(e.b, ':', ' '))
		b, err := appendTyped(e.b, pl, p, e.docMask)
		e.setB(b)
		return err
	case cArr:
		return e.writeArray(pl, p, atField, d)
	case cObj:
		return e.writeObject(pl, p, atField, d)
	}
	return &UnsupportedTypeError{Type: pl.typ}
}

// writeItem writes the resolved value at p as a list item at depth d
// (§9.4, §10).
func (e *Encoder) writeItem(pl *encPlan, p mem.Ptr, d int) error {
	switch pl.cls() {
	case cPrim:
		e.itemLead(d)
		b, err := appendTyped(e.b, pl, p, e.docMask)
		e.setB(b)
		return err
	case cArr:
		return e.writeArray(pl, p, atItem, d)
	case cObj:
		var v objView
		err := e.openChecked(&v, pl, p)
		defer e.closeView(&v)
		if err != nil {
			return err
		}
		if v.n == 0 {
			e.emptyItem(d)
			return nil
		}
		return e.writeFields(&v, d+1, true)
	}
	return &UnsupportedTypeError{Type: pl.typ}
}

// openChecked opens the object at p as open does and, for an Object,
// checks that no two of its keys are written alike. The caller closes v
// (closeView) whatever the result.
func (e *Encoder) openChecked(v *objView, pl *encPlan, p mem.Ptr) error {
	if err := e.open(v, pl, p); err != nil {
		return err
	}
	if v.kind == vwObject {
		return e.checkKeys(v.obj())
	}
	return nil
}

// writeObject writes the resolved object at p at the root or as the value
// of a field whose key is written at depth d: nothing (an empty document,
// §8) or `key:` for an empty object, the keyed form when it qualifies
// (§9.5), else its fields.
func (e *Encoder) writeObject(pl *encPlan, p mem.Ptr, at place, d int) error {
	if at == atField && pl.writeSmall != nil {
		if done, err := pl.writeSmall(e, pl, p, d); done {
			return err
		}
	}
	var v objView
	err := e.openChecked(&v, pl, p)
	defer e.closeView(&v)
	if err != nil {
		return err
	}
	if v.n == 0 {
		if at == atField {
			e.setB(append(e.b, ':'))
		}
		return nil
	}
	if v.n >= 2 {
		if ok, err := e.writeKeyedIf(&v, at, d); ok || err != nil {
			return err
		}
	}
	if at == atRoot {
		return e.writeFields(&v, 0, false)
	}
	e.setB(append(e.b, ':'))
	return e.writeFields(&v, d+1, false)
}

// writeFields writes the members of a non-empty open object as field lines
// at depth d. With hyphen set, the object is a list item: its first field
// goes on the hyphen line at depth d-1 (§10).
func (e *Encoder) writeFields(v *objView, d int, hyphen bool) error {
	if err := e.enter(); err != nil {
		return err
	}
	var err error
	switch {
	case e.level > cycleDepth:
		r := v.ref()
		if err = e.visit(r); err == nil {
			err = e.writeMembers(v, d, hyphen)
			e.unvisit(r)
		}
	case v.kind == vwStruct:
		err = e.writeStructFields(v.pl, v.p, v.lo, v.n, d, hyphen)
	default:
		err = e.writeMembers(v, d, hyphen)
	}
	e.leave()
	return err
}

// writeMembers is writeFields inside the object's nesting level.
func (e *Encoder) writeMembers(v *objView, d int, hyphen bool) error {
	if v.kind == vwStruct {
		return e.writeStructFields(v.pl, v.p, v.lo, v.n, d, hyphen)
	}
	checked := false // keyClash has run for v
	for i := 0; i < v.n; i++ {
		// The first field of an object that is a list item goes on
		// the hyphen line (§10).
		if hyphen && i == 0 {
			e.itemLead(d - 1)
		} else {
			e.line(d)
		}
		b, bad := appendKeyR(e.b, e.key(v, i))
		e.setB(b)
		if bad && !checked {
			if err := e.keyClash(v); err != nil {
				return err
			}
			checked = true
		}
		pl, p, err := e.member(v, i)
		if err != nil {
			return err
		}
		if err := e.writeValue(pl, p, d); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeStructFields is writeFields for the struct at p, of plan pl, whose
// fields written are its n fields, or, with lo >= 0, the n fields listed
// in e.sc.fidx from lo (objView). A field whose type is primitive is
// written whole with the text in a local slice, stored back in e.b once: a
// store to e.b, which is on the heap, costs a write barrier while the
// collector runs. A struct with steps (buildSteps) is written by
// writeSteps where it can be.
func (e *Encoder) writeStructFields(pl *encPlan, p mem.Ptr, lo, n, d int, hyphen bool) error {
	if lo < 0 && e.started && pl.steps != nil &&
		e.level+pl.stepDepth <= min(e.opts.maxDepth, cycleDepth) && useSteps {
		if ls := pl.laidAt(d*e.opts.indent, e.opts.indent); ls != nil && (!hyphen || ls.items != nil) {
			return e.writeSteps(ls, p, d, hyphen)
		}
	}
	checked := !pl.keysBad // keyClash has run for v, or need not
	indent := d * e.opts.indent
	dw := delimWord(e.docMask)
	b := e.b
	for i := 0; i < n; i++ {
		f := &pl.fields[i]
		if lo >= 0 {
			f = &pl.fields[e.sc.fidx[lo+i]]
		}
		// The key, with what follows it in the field's form (f.lit).
		switch {
		case i == 0 && hyphen:
			e.line(d - 1)
			b = append(e.b, '-', ' ')
			b = append(b, f.lit...)
		case i == 0 && !e.started:
			e.line(d)
			b = append(e.b, f.lit...)
		default:
			var p mem.Ptr
			var o int
			b, p, o = spare(b, indent+len(f.lit)+fieldLineRoom, false)
			b = b[:o+putFieldLine(p, indent, f.lit)]
		}
		if f.keyBad && !checked {
			e.setB(b)
			v := objView{kind: vwStruct, pl: pl, p: p, n: n, lo: lo}
			if err := e.keyClash(&v); err != nil {
				return err
			}
			checked = true
		}
		fp := p.Offset(f.off)
		if !f.direct {
			fp = fieldPtr(pl.typ, p, &f.structField, false)
		}
		if f.form == formPrim {
			// Strings and integers are written here, a call less each
			// than through appendTyped.
			switch f.plan.kind {
			case ekString:
				b = appendStrW(b, *mem.As[string](fp), dw)
			case ekInt:
				var p mem.Ptr
				var o int
				b, p, o = spare(b, numRoom, false)
				b = b[:o+putInt(p, loadInt(fp, f.plan.size))]
			default:
				var err error
				if b, err = appendTyped(b, f.plan, fp, e.docMask); err != nil {
					e.setB(b)
					return err
				}
			}
		} else {
			e.setB(b)
			if err := e.writeFieldValue(f, fp, d); err != nil {
				return err
			}
			b = e.b
		}
		// Marshal (noFlush) keeps everything: past flushSize, every field
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
	return e.err
}

// writeFieldValue writes the value at fp of the struct field f, not of
// formPrim, whose key is written at depth d.
func (e *Encoder) writeFieldValue(f *encField, fp mem.Ptr, d int) error {
	switch f.form {
	case formStatic:
		// A static object that is not a keyed table: its fields, as
		// writeObject would choose, the type settling it. It holds no
		// container that could lead back to it (visit).
		if err := e.enter(); err != nil {
			return err
		}
		if err := e.writeStructFields(f.plan, fp, -1, len(f.plan.fields), d+1, false); err != nil {
			return err
		}
		e.leave()
		return nil
	case formStruct:
		// A struct whose fields are all written and which is never a
		// keyed table: its fields, as writeObject would write them once
		// it found that out.
		v := objView{kind: vwStruct, pl: f.plan, p: fp, n: len(f.plan.fields), lo: -1}
		return e.writeFields(&v, d+1, false)
	}
	fpl, fp, err := e.resolve(f.plan, fp)
	if err != nil {
		return err
	}
	return e.writeValue(fpl, fp, d)
}

// useSteps lets writeStructFields take writeSteps; the tests clear it to
// compare the two.
var useSteps = true

// writeSteps is writeStructFields for the struct at p, whose steps ls
// holds laid out at the indentation of depth d, all of whose fields are
// written at depth d and below, none the first line of the document; with
// hyphen, the struct is a list item, whose first field is on the hyphen
// line. The caller has checked that the steps' nesting stays within the
// encoder's depth limit and short of the cycle check (writeFields), which
// the levels they open would otherwise pass through enter and writeFields.
func (e *Encoder) writeSteps(ls *laidSteps, p mem.Ptr, d int, hyphen bool) error {
	dw := delimWord(e.docMask)
	limit := flushSize
	if e.noFlush {
		limit = math.MaxInt // Marshal keeps everything
	}
	b := e.b
	steps := ls.steps
	if hyphen {
		steps = ls.items
	}
	for i := range steps {
		s := &steps[i]
		var q mem.Ptr
		var o int
		b, q, o = spare(b, len(s.text)+textRoom, false)
		b = b[:o+putText(q, s.text)]
		fp := p.Offset(s.off)
		switch s.op {
		case stepString:
			b = appendStrW(b, *mem.As[string](fp), dw)
		case stepInt:
			b, q, o = spare(b, numRoom, false)
			b = b[:o+putInt(q, loadInt(fp, s.f.plan.size))]
		case stepBool:
			if *mem.As[bool](fp) {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case stepPrim:
			var err error
			if b, err = appendTyped(b, s.f.plan, fp, e.docMask); err != nil {
				e.setB(b)
				return err
			}
		case stepValue:
			e.setB(b)
			e.level += int(s.rel)
			if err := e.writeFieldValue(s.f, fp, d+int(s.rel)); err != nil {
				return err
			}
			e.level -= int(s.rel)
			b = e.b
		}
		if len(b) >= limit {
			e.setB(b)
			if err := e.flush(); err != nil {
				return err
			}
			b = e.b
		}
	}
	e.setB(b)
	return e.err
}

// writeKeyedIf writes the open object v, of two or more members, in the
// keyed form (§9.5) with its entries at depth d+1, if it qualifies, and
// reports whether it did. At the root (d = 0) the header has a line of
// its own.
func (e *Encoder) writeKeyedIf(v *objView, at place, d int) (bool, error) {
	rows := d + 1
	begin := func() {
		if at == atRoot {
			e.line(0)
		}
	}
	switch {
	case v.kind == vwStruct && v.pl.shape == shapeObj:
		if !v.pl.keyed || e.level+1+v.pl.fields[0].plan.depth > e.opts.maxDepth {
			return false, nil
		}
		begin()
		return true, e.writeStaticKeyed(v.pl, v.p, rows)
	case v.kind == vwStruct && v.pl.neverKeyed:
		return false, nil
	case v.kind == vwMap && v.pl.elem.shape == shapePrim:
		return false, nil
	case v.kind == vwMap && v.pl.elem.shape == shapeObj:
		if e.level+1+v.pl.elem.depth > e.opts.maxDepth {
			return false, nil
		}
		begin()
		return true, e.writeStaticKeyedMap(v, rows)
	}
	root, ok := e.keyedTree(v)
	if !ok {
		return false, nil
	}
	begin()
	err := e.writeKeyed(v, root, rows)
	e.sc.nodes = e.sc.nodes[:root]
	return true, err
}

// writeKeyed writes the keyed header (after the key, if any) and the entry
// rows at depth d of an object that passed keyedTree (§9.5).
func (e *Encoder) writeKeyed(v *objView, root, d int) error {
	e.setB(appendTableHeader(e.b, v.n, true, groupFields(e.sc.nodes, root), e.delim))
	checked := false // keyClash has run for v
	for i := 0; i < v.n; i++ {
		e.line(d)
		b, bad := appendKeyR(e.b, e.key(v, i))
		e.setB(b)
		if bad && !checked {
			if err := e.keyClash(v); err != nil {
				return err
			}
			checked = true
		}
		e.setB(append(e.b, ':', ' '))
		pl, p, err := e.member(v, i)
		if err != nil {
			return err
		}
		if _, _, err := e.appendCells(pl, p, root, e.level+1, true, false); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeArray writes the resolved array (slice or Go array) at p at place
// at. For atField, the key is written and d is its depth; for atItem, d is
// the depth of the list item.
func (e *Encoder) writeArray(pl *encPlan, p mem.Ptr, at place, d int) error {
	base, n := p, pl.alen
	if pl.kind == ekSlice {
		h := mem.As[mem.SliceHeader](p)
		base, n = h.Data, h.Len
	}
	child, err := e.beginArray(at, d)
	if err != nil {
		return err
	}
	if e.level > cycleDepth && pl.kind == ekSlice && n > 0 {
		r := ref{p: base, n: n, t: pl.typ}
		if err = e.visit(r); err == nil {
			err = e.writeElems(pl.elem, base, n, at, child)
			e.unvisit(r)
		}
	} else {
		err = e.writeElems(pl.elem, base, n, at, child)
	}
	e.leave()
	return err
}

// writeElems is writeArray inside the array's nesting level, for its n
// elements of plan ep at base, with its content at depth child.
func (e *Encoder) writeElems(ep *encPlan, base mem.Ptr, n int, at place, child int) error {
	if n == 0 {
		e.setB(appendEmptyArray(e.b, at, e.delim))
		return nil
	}
	var err error
	inline := ep.shape == shapePrim
	if !inline && !ep.plain {
		// Pointers, interfaces, hooks, slices and maps may all be null.
		if inline, err = e.allPrims(ep, base, n); err != nil {
			return err
		}
	}
	if inline { // §9.1
		e.setB(e.appendHeader(e.b, n, false))
		e.setB(append(e.b, ':', ' '))
		b, err := e.appendElems(e.b, ep, base, n)
		e.setB(b)
		return err
	}
	if at != atItem { // §9.4: no tabular form in list-item position
		switch {
		case ep.shape == shapeObj:
			if e.level+1+ep.depth <= e.opts.maxDepth {
				return e.writeStaticTable(ep, base, n, child)
			}
		case ep.cls() == cObj || ep.cls() == cRef:
			if root, ok := e.rowTree(ep, base); ok {
				mark := len(e.b)
				done, err := e.writeTable(ep, base, n, root, child)
				e.sc.nodes = e.sc.nodes[:root]
				if done || err != nil {
					return err
				}
				// A row does not match the first: the array is a list.
				e.b = e.b[:mark]
			}
		}
	}
	e.setB(e.appendHeader(e.b, n, false))
	e.setB(append(e.b, ':'))
	if (ep.kind == ekSlice || ep.kind == ekArray) && ep.elem.shape == shapePrim &&
		e.level+1 <= min(e.opts.maxDepth, cycleDepth) {
		return e.writeInlineItems(ep, base, n, child)
	}
	for i := 0; i < n; i++ {
		pl, p, err := e.resolve(ep, base.Offset(uintptr(i)*ep.size))
		if err != nil {
			return err
		}
		if err := e.writeItem(pl, p, child); err != nil {
			return err
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// writeInlineItems is writeElems's list of n items for items that are
// arrays of primitives, slices or Go arrays of plan ep at base (the points
// of a line, the rows of a matrix): each is written as writeItem writes it,
// "- [N]: values" at depth d, in a loop that neither resolves nor
// dispatches per item. A nil or empty one is written by writeItem. The caller
// has checked that an item's level is within the depth limit and below
// the depth from which writeArray tracks cycles.
func (e *Encoder) writeInlineItems(ep *encPlan, base mem.Ptr, n, d int) error {
	for i := 0; i < n; i++ {
		p := base.Offset(uintptr(i) * ep.size)
		data, m := p, ep.alen
		if ep.kind == ekSlice {
			h := mem.As[mem.SliceHeader](p)
			data, m = h.Data, h.Len
		}
		if data.IsNil() || m == 0 {
			pl, q, err := e.resolve(ep, p)
			if err == nil {
				err = e.writeItem(pl, q, d)
			}
			if err != nil {
				return err
			}
		} else {
			e.itemLead(d)
			b := append(e.appendHeader(e.b, m, false), ':', ' ')
			e.level++ // the item's level, as writeArray enters it
			b, err := e.appendElems(b, ep.elem, data, m)
			e.level--
			e.setB(b)
			if err != nil {
				return err
			}
		}
		if err := e.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// appendElems appends the n primitive elements of plan ep at base to b,
// separated by the delimiter: an inline array's values (§9.1). They are
// appended to b rather than to e.b, and an element that is its own value
// (a plain plan: numbers, strings, booleans) is not resolved, so that a
// list of tags costs no call per element beyond its text's; floats,
// the vectors of an embedding, take a loop of their own (appendFloats).
func (e *Encoder) appendElems(b []byte, ep *encPlan, base mem.Ptr, n int) ([]byte, error) {
	delim, mask := byte(e.delim), e.docMask
	switch ep.kind {
	case ekFloat64:
		return appendFloats(b, mem.SliceAt[float64](base, n), 64, delim), nil
	case ekFloat32:
		return appendFloats(b, mem.SliceAt[float32](base, n), 32, delim), nil
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, delim)
		}
		pl, p := ep, base.Offset(uintptr(i)*ep.size)
		var err error
		if !ep.plain {
			if pl, p, err = e.resolveRef(ep, p); err != nil {
				return b, err
			}
		}
		if b, err = appendTyped(b, pl, p, mask); err != nil {
			return b, err
		}
	}
	return b, nil
}

// appendFloats appends the texts of fs, floats of the given bits,
// separated by delim: appendElems for the elements of a []float64 or a
// []float32 (an embedding, a series of measures), with no dispatch on the
// element's kind.
func appendFloats[F float32 | float64](b []byte, fs []F, bits int, delim byte) []byte {
	for i, f := range fs {
		if i > 0 {
			b = append(b, delim)
		}
		b = appendFloat(b, float64(f), bits)
	}
	return b
}

// allPrims reports whether the n elements of plan ep at base are all
// primitives (null included).
func (e *Encoder) allPrims(ep *encPlan, base mem.Ptr, n int) (bool, error) {
	for i := 0; i < n; i++ {
		pl, _, err := e.resolve(ep, base.Offset(uintptr(i)*ep.size))
		if err != nil || pl.cls() != cPrim {
			return false, err
		}
	}
	return true, nil
}

// writeTable writes the header and the rows at depth d of a tabular array
// (§9.3) of the n elements of plan ep at base, whose first element's field
// tree is at root (rowTree). It checks each further row against the tree
// as it writes it (appendCells), which costs one walk of each row where
// tabularTree and then the writing would cost two. If a row does not
// match, it returns done false, having flushed nothing of the table: the
// caller drops the table and writes the list form. Before the table's
// first flush, the rows still to write are checked at once (matchRows).
func (e *Encoder) writeTable(ep *encPlan, base mem.Ptr, n, root, d int) (done bool, _ error) {
	e.setB(appendTableHeader(e.b, n, false, groupFields(e.sc.nodes, root), e.delim))
	checked := false // the rows not yet written are known to match
	for i := 0; i < n; i++ {
		e.line(d)
		pl, p, err := e.resolve(ep, base.Offset(uintptr(i)*ep.size))
		if err != nil {
			return checked, err
		}
		_, ok, err := e.appendCells(pl, p, root, e.level+1, true, i > 0 && !checked)
		if !ok {
			return false, nil
		}
		if err != nil {
			return true, err
		}
		if len(e.b) >= flushSize {
			if !checked && !e.noFlush {
				if !e.matchRows(ep, base, i+1, n, root) {
					return false, nil
				}
				checked = true
			}
			if err := e.flush(); err != nil {
				return true, err
			}
		}
	}
	return true, e.err
}

// ---- tables ----

// tnode is one node of a field tree (§9.3), stored in pre-order in
// Encoder.nodes: a leaf field, or a nested field group whose children
// follow it. The tree's root is an unnamed group.
type tnode struct {
	name   string
	size   int      // nodes in the subtree, itself included
	nchild int      // direct children; 0 for a leaf
	pl     *encPlan // a group built from a static object's plan (planTree): that plan
}

// nodeFields is the children of a group of e.sc.nodes from child c on, up
// to end, as a fieldGroup.
type nodeFields struct {
	nodes  []tnode
	c, end int
}

// groupFields returns the fields of the group at nodes[root].
func groupFields(nodes []tnode, root int) nodeFields {
	return nodeFields{nodes, root + 1, root + nodes[root].size}
}

func (g nodeFields) more() bool              { return g.c < g.end }
func (g nodeFields) name() string            { return g.nodes[g.c].name }
func (g nodeFields) next() nodeFields        { return nodeFields{g.nodes, g.c + g.nodes[g.c].size, g.end} }
func (g nodeFields) cached(Delimiter) []byte { return nil }
func (g nodeFields) sub() (nodeFields, bool) {
	return groupFields(g.nodes, g.c), g.nodes[g.c].nchild > 0
}

// appendHeader appends "[N<delim?>]" or, keyed, "[N:<delim?>]".
func (e *Encoder) appendHeader(b []byte, n int, keyed bool) []byte {
	return appendBracket(b, n, keyed, e.delim)
}

// tabularTree decides whether the n elements of plan ep at base make a
// tabular array (§9.3). If they do, the field tree is at e.sc.nodes[root:]
// and the caller must truncate e.sc.nodes to root when done.
func (e *Encoder) tabularTree(ep *encPlan, base mem.Ptr, n int) (root int, ok bool) {
	if root, ok = e.rowTree(ep, base); ok && !e.matchRows(ep, base, 1, n, root) {
		e.sc.nodes = e.sc.nodes[:root]
		ok = false
	}
	return root, ok
}

// rowTree builds the field tree of the first of the elements of plan ep
// at base, if it can be a tabular row: a non-empty object whose members
// are primitives or such objects. If it can, the tree is at
// e.sc.nodes[root:] and the caller must truncate e.sc.nodes to root when
// done.
func (e *Encoder) rowTree(ep *encPlan, base mem.Ptr) (root int, ok bool) {
	e.forgetRows()
	root = len(e.sc.nodes)
	pl, p, err := e.resolve(ep, base)
	if err != nil || pl.cls() != cObj || e.objLen(pl, p) <= 0 || !e.buildTree(pl, p, e.level+1) {
		e.sc.nodes = e.sc.nodes[:root]
		return root, false
	}
	return root, true
}

// matchRows reports whether the elements i to n-1 of plan ep at base all
// match the field tree at root (matchTree).
func (e *Encoder) matchRows(ep *encPlan, base mem.Ptr, i, n, root int) bool {
	for ; i < n; i++ {
		pl, p, err := e.resolve(ep, base.Offset(uintptr(i)*ep.size))
		if err != nil || !e.matchTree(pl, p, root, e.level+1) {
			return false
		}
	}
	return true
}

// keyedTree decides whether the open object v takes the keyed tabular form
// (§9.5): at least two entries whose values are non-empty objects with the
// same fields, every column primitive or nested-uniform.
func (e *Encoder) keyedTree(v *objView) (root int, ok bool) {
	e.forgetRows()
	root = len(e.sc.nodes)
	if v.n < 2 {
		return root, false
	}
	// The members' sizes first: they tell most objects that are not keyed
	// tables from those that may be, without building a tree.
	pl, p, err := e.member(v, 0)
	if err != nil || pl.cls() != cObj {
		return root, false
	}
	n := e.objLen(pl, p)
	if n <= 0 {
		return root, false
	}
	for i := 1; i < v.n; i++ {
		mpl, mp, err := e.member(v, i)
		if err != nil || mpl.cls() != cObj || e.objLen(mpl, mp) != n || !maySameKeys(pl, mpl) ||
			i == 1 && otherKeys(pl, p, mpl, mp) {
			return root, false
		}
	}
	if !e.buildTree(pl, p, e.level+1) {
		e.sc.nodes = e.sc.nodes[:root]
		return root, false
	}
	for i := 1; i < v.n; i++ {
		pl, p, err := e.member(v, i)
		if err != nil || !e.matchTree(pl, p, root, e.level+1) {
			e.sc.nodes = e.sc.nodes[:root]
			return root, false
		}
	}
	return root, true
}

// otherKeys reports whether the object b has a key that the object a, of
// the same size, has not, where that is quick to tell: a is a
// map[string]any, whose keys are looked up at once, or both are small
// Objects. keyedTree asks it of its first two members, so that an object
// whose members differ at the first level does not have the first
// member's tree built, with its nested maps opened, for nothing.
func otherKeys(pa *encPlan, a mem.Ptr, pb *encPlan, b mem.Ptr) bool {
	switch {
	case pa.kind == ekMap && pa.anyMap:
		am := anyMap(a)
		if pb.kind == ekMap && pb.anyMap {
			for k := range anyMap(b) {
				if _, ok := am[k]; !ok {
					return true
				}
			}
			return false
		}
		if pb.kind == ekObject {
			for _, m := range *mem.As[Object](b) {
				if _, ok := am[m.Key]; !ok {
					return true
				}
			}
		}
	case pa.kind == ekObject && pb.kind == ekObject:
		oa, ob := *mem.As[Object](a), *mem.As[Object](b)
		if len(oa) > smallNames {
			return false
		}
	next:
		for _, m := range ob {
			for _, x := range oa {
				if x.Key == m.Key {
					continue next
				}
			}
			return true
		}
	}
	return false
}

// maySameKeys reports whether two objects of plans a and b, of the same
// size, may have the same keys: false when they are structs whose fields,
// all written, have different names.
func maySameKeys(a, b *encPlan) bool {
	if a == b || a.kind != ekStruct || b.kind != ekStruct || !a.allPresent || !b.allPresent {
		return true
	}
	for i := range a.fields {
		if b.fieldIndex(a.fields[i].name, i) < 0 {
			return false
		}
	}
	return true
}

// buildTree appends the field tree of the resolved non-empty object at p,
// at nesting depth level, to e.sc.nodes. It fails if the object is not a
// candidate for a tabular row: a member that is an array, an empty object
// or of an unsupported type, or keys written alike.
func (e *Encoder) buildTree(pl *encPlan, p mem.Ptr, level int) bool {
	if level > e.opts.maxDepth {
		return false
	}
	if pl.shape == shapeObj {
		// A static object: its plan is its tree.
		if level+pl.depth > e.opts.maxDepth {
			return false
		}
		e.planTree(pl)
		return true
	}
	var v objView
	ok := e.openChecked(&v, pl, p) == nil
	switch {
	case !ok:
	case level > cycleDepth:
		// A row that contains itself is not a row (writeFields then
		// reports the cycle).
		if r := v.ref(); e.visit(r) == nil {
			ok = e.buildMembers(&v, level)
			e.unvisit(r)
		} else {
			ok = false
		}
	default:
		ok = e.buildMembers(&v, level)
	}
	e.closeView(&v)
	return ok
}

// buildMembers is buildTree for the members of the open object v.
func (e *Encoder) buildMembers(v *objView, level int) bool {
	if e.mayClash(v) && e.keyClash(v) != nil {
		// A header would repeat a field: the object is written expanded,
		// where writeFields reports the clash.
		return false
	}
	// What rules the object out at its own level (a member that is an
	// array, an empty object, not encodable) is looked for first, so that
	// no nested object is opened and walked for nothing.
	for i := 0; i < v.n; i++ {
		mpl, mp, err := e.member(v, i)
		if err != nil {
			return false
		}
		switch mpl.cls() {
		case cPrim:
		case cObj:
			if e.objLen(mpl, mp) == 0 {
				return false
			}
		default:
			return false
		}
	}
	root := len(e.sc.nodes)
	e.sc.nodes = append(e.sc.nodes, tnode{nchild: v.n})
	for i := 0; i < v.n; i++ {
		mpl, mp, err := e.member(v, i)
		if err != nil {
			return false
		}
		switch mpl.cls() {
		case cPrim:
			e.sc.nodes = append(e.sc.nodes, tnode{name: e.key(v, i), size: 1})
		case cObj:
			at := len(e.sc.nodes)
			if !e.buildTree(mpl, mp, level+1) {
				return false
			}
			e.sc.nodes[at].name = e.key(v, i)
		default:
			return false
		}
	}
	e.sc.nodes[root].size = len(e.sc.nodes) - root
	return true
}

// planTree appends the field tree of a static object's plan to e.sc.nodes.
func (e *Encoder) planTree(pl *encPlan) {
	root := len(e.sc.nodes)
	e.sc.nodes = append(e.sc.nodes, tnode{nchild: len(pl.fields), pl: pl})
	for i := range pl.fields {
		f := &pl.fields[i]
		if f.plan.shape == shapePrim {
			e.sc.nodes = append(e.sc.nodes, tnode{name: f.name, size: 1})
			continue
		}
		at := len(e.sc.nodes)
		e.planTree(f.plan)
		e.sc.nodes[at].name = f.name
	}
	e.sc.nodes[root].size = len(e.sc.nodes) - root
}

// matchTree reports whether the resolved value at p is an object with
// exactly the fields of the group at e.sc.nodes[root], with primitives at the
// leaves and non-empty objects matching the nested groups.
func (e *Encoder) matchTree(pl *encPlan, p mem.Ptr, root, level int) bool {
	if level > e.opts.maxDepth || pl.cls() != cObj {
		return false
	}
	if g := e.sc.nodes[root].pl; g != nil && g == pl {
		return true // the static object the group was built from
	}
	if e.objLen(pl, p) != e.sc.nodes[root].nchild {
		return false
	}
	var v objView
	err := e.openLookup(&v, pl, p)
	defer e.closeView(&v)
	if err != nil {
		return false
	}
	end := root + e.sc.nodes[root].size
	hint := 0
	for c := root + 1; c < end; c += e.sc.nodes[c].size {
		n := &e.sc.nodes[c]
		mpl, mp, ok, err := e.get(&v, n.name, hint, level)
		hint++
		if !ok || err != nil {
			return false
		}
		if n.nchild == 0 {
			if mpl.cls() != cPrim {
				return false
			}
		} else if !e.matchTree(mpl, mp, c, level+1) {
			return false
		}
	}
	return true
}

// appendCells appends the leaf values of the resolved object at p, at
// nesting depth level, in the depth-first order of the group at
// e.sc.nodes[root], each preceded by the delimiter except the first. With
// check set, it makes matchTree's test of the object as it goes, and
// returns ok false, with part of the row appended, if the object does not
// match the group; a value it cannot resolve then counts as a mismatch,
// for the list form to report.
func (e *Encoder) appendCells(pl *encPlan, p mem.Ptr, root, level int, first, check bool) (_ bool, ok bool, _ error) {
	if check && (level > e.opts.maxDepth || pl.cls() != cObj) {
		return first, false, nil
	}
	if g := e.sc.nodes[root].pl; g != nil && g == pl {
		if !first {
			e.setB(append(e.b, byte(e.delim)))
		}
		b, err := appendLeafCells(e.b, pl.leaves, p, e.delim, e.docMask)
		e.setB(b)
		return false, true, err
	}
	if check && e.objLen(pl, p) != e.sc.nodes[root].nchild {
		return first, false, nil
	}
	var v objView
	err := e.openLookup(&v, pl, p)
	defer e.closeView(&v)
	if err != nil {
		return first, !check, err
	}
	end := root + e.sc.nodes[root].size
	hint := 0
	for c := root + 1; c < end; c += e.sc.nodes[c].size {
		n := &e.sc.nodes[c]
		mpl, mp, found, err := e.get(&v, n.name, hint, level)
		hint++
		if check && (!found || err != nil) {
			return first, false, nil
		}
		if err != nil {
			return first, true, err
		}
		if n.nchild > 0 {
			if first, ok, err = e.appendCells(mpl, mp, c, level+1, first, check); !ok || err != nil {
				return first, ok, err
			}
			continue
		}
		if check && mpl.cls() != cPrim {
			return first, false, nil
		}
		if !first {
			e.setB(append(e.b, byte(e.delim)))
		}
		first = false
		b, err := appendTyped(e.b, mpl, mp, e.docMask)
		e.setB(b)
		if err != nil {
			return first, true, err
		}
	}
	return first, true, nil
}

// ---- cycles ----

// Cycles. A value that contains itself (through pointers, maps, slices or
// interfaces) would nest without end. As encoding/json does, the writer
// tracks the containers (structs, maps, slices, Objects) on the path from
// the root to the value it is at once the nesting passes cycleDepth, and
// reports a container met again on its own path as an
// UnsupportedValueError. Below that depth nothing is tracked: a cycle
// then costs at most cycleDepth levels of work and output, and acyclic
// values that share containers cost nothing. A chain of pointers,
// interfaces and hooks that comes back to itself without a container in
// between (a hook that returns its receiver) is found by resolve, which
// tracks the chain's steps past cycleDepth.
const cycleDepth = 1000

// ref identifies a container: its address (a map's, a slice's first
// element's, the target of a pointer), a slice's length (a slice and its
// prefix are different values) and its type (a struct and its first field
// share an address).
type ref struct {
	p mem.Ptr
	n int
	t reflect.Type
}

func (e *Encoder) unvisit(r ref) { delete(e.path, r) }

// visit adds r, a container, to the path, or returns an
// UnsupportedValueError if it is on the path already. The caller must
// call unvisit(r) when it leaves the container, unless visit failed.
func (e *Encoder) visit(r ref) error {
	if e.path == nil {
		e.path = make(map[ref]struct{})
	}
	if _, ok := e.path[r]; ok {
		return &UnsupportedValueError{Value: refValue(r), Str: "encountered a cycle via " + r.t.String()}
	}
	e.path[r] = struct{}{}
	return nil
}

// refValue returns the container r refers to, for an error.
func refValue(r ref) reflect.Value {
	switch r.t.Kind() {
	case reflect.Slice:
		return reflect.NewAt(r.t, mem.Of(&mem.SliceHeader{Data: r.p, Len: r.n, Cap: r.n}).Unsafe()).Elem()
	case reflect.Map:
		m := new(mem.Ptr)
		*m = r.p
		return reflect.NewAt(r.t, mem.Of(m).Unsafe()).Elem()
	}
	return reflect.NewAt(r.t, r.p.Unsafe()).Elem()
}

func errDepth(max int) error {
	return encodeErr(ErrDepth, "value nested deeper than "+strconv.Itoa(max)+" levels (a cycle?)")
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
