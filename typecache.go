package toon

// This file resolves the TOON fields of Go struct types, once per type, for
// both Marshal and Unmarshal: tags, embedded structs and name conflicts
// follow encoding/json.

import (
	"cmp"
	"encoding"
	"encoding/json"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toonstream/toon/internal/mem"
)

// structField is one TOON field of a struct type.
type structField struct {
	name      string       // the TOON key
	index     []int        // reflect index path from the outer struct
	typ       reflect.Type // the field's type
	tagged    bool         // the name came from a tag
	omitEmpty bool         // omitempty: false, 0, "", nil, empty slice/map/array
	omitZero  bool         // omitzero: the zero value, or IsZero() true

	// off is the byte offset of the field from the start of the outer
	// struct when direct; a path through an embedded pointer is not direct
	// and goes through index.
	off    uintptr
	direct bool
}

// parseTag splits a struct tag into its name and options.
func parseTag(tag string) (name string, opts string) {
	name, opts, _ = strings.Cut(tag, ",")
	return name, opts
}

func hasOpt(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}

// fieldTag returns the tag that governs sf: its toon tag, else its json tag.
func fieldTag(sf reflect.StructField) (string, bool) {
	if tag, ok := sf.Tag.Lookup("toon"); ok {
		return tag, true
	}
	return sf.Tag.Lookup("json")
}

// typeFields returns the TOON fields of struct type t in field order, with
// the rules of encoding/json: exported fields only, `-` skips a field, the
// fields of embedded structs are promoted (inlined) unless the embedded
// field has a name in its tag, and among fields of the same name the
// shallowest wins, a tagged one breaking a tie; remaining ties drop the
// name altogether.
func typeFields(t reflect.Type) []structField {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	var current []queued
	next := []queued{{typ: t}}
	var count map[reflect.Type]int
	nextCount := map[reflect.Type]int{}
	visited := map[reflect.Type]bool{}
	var fields []structField

	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && (et.Kind() != reflect.Struct || sf.Type.Kind() == reflect.Pointer) {
						continue // an unexported embedded non-struct, or a pointer we cannot set
					}
				} else if !sf.IsExported() {
					continue
				}
				tag, _ := fieldTag(sf)
				if tag == "-" {
					continue
				}
				name, opts := parseTag(tag)
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i

				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, structField{
						name:      name,
						index:     index,
						typ:       sf.Type,
						tagged:    tagged,
						omitEmpty: hasOpt(opts, "omitempty"),
						omitZero:  hasOpt(opts, "omitzero"),
					})
					if count[f.typ] > 1 {
						// The same embedded type twice at one depth: both
						// copies conflict, and the dominance rule drops them.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index})
				}
			}
		}
	}

	slices.SortStableFunc(fields, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		if f, ok := dominantField(fields[i:j]); ok {
			out = append(out, f)
		}
		i = j
	}
	fields = out
	slices.SortFunc(fields, func(a, b structField) int { return slices.Compare(a.index, b.index) })

	for i := range fields {
		f := &fields[i]
		f.direct = true
		st := t
		for _, x := range f.index {
			if st.Kind() == reflect.Pointer {
				f.direct = false
				break
			}
			sf := st.Field(x)
			f.off += sf.Offset
			st = sf.Type
		}
	}
	return fields
}

// dominantField picks the field that wins among fields of one name, sorted
// by depth and then tagged first.
func dominantField(fs []structField) (structField, bool) {
	if len(fs) > 1 && len(fs[0].index) == len(fs[1].index) && fs[0].tagged == fs[1].tagged {
		return structField{}, false
	}
	return fs[0], true
}

// fieldPtr returns a pointer to field f of the struct at p. For a field
// reached through embedded pointers, alloc decides what a nil pointer on
// the way does: with alloc it is allocated, without it the result is the
// nil address.
//
// It is small enough to be inlined: most fields are direct.
func fieldPtr(t reflect.Type, p mem.Ptr, f *structField, alloc bool) mem.Ptr {
	if f.direct {
		return p.Offset(f.off)
	}
	return pathFieldPtr(t, p, f, alloc)
}

// pathFieldPtr is fieldPtr for a field that is not direct: it follows the
// field's index path.
func pathFieldPtr(t reflect.Type, p mem.Ptr, f *structField, alloc bool) mem.Ptr {
	v := mem.NewAt(t, p).Elem()
	for i, x := range f.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc {
					return mem.Ptr{}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return mem.PtrOf(v.Addr())
}

// Types with a fixed mapping, ahead of the hooks.
var (
	timeType          = reflect.TypeFor[time.Time]()
	bigIntType        = reflect.TypeFor[big.Int]()
	bigFloatType      = reflect.TypeFor[big.Float]()
	jsonNumberType    = reflect.TypeFor[json.Number]()
	numberType        = reflect.TypeFor[Number]()
	valueType         = reflect.TypeFor[Value]()
	objectType        = reflect.TypeFor[Object]()
	marshalerType     = reflect.TypeFor[Marshaler]()
	unmarshalerType   = reflect.TypeFor[Unmarshaler]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshType   = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshType   = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// hook is the serialization hook a type has, in the order of precedence.
type hook uint8

const (
	hookNone hook = iota
	hookTOON
	hookJSON
	hookText
)

// marshalHook returns the hook Marshal calls for values of type t. Methods
// with pointer receivers count: values are always reached through a
// pointer.
func marshalHook(t reflect.Type) hook {
	return hookOf(t, marshalerType, jsonMarshalerType, textMarshalerType)
}

// unmarshalHook returns the hook Unmarshal calls for values of type t.
func unmarshalHook(t reflect.Type) hook {
	return hookOf(t, unmarshalerType, jsonUnmarshType, textUnmarshType)
}

// hookOf returns the first of the library's, encoding/json's and
// encoding's interfaces (in that order of precedence, §3) that *t
// implements.
func hookOf(t, toonIface, jsonIface, textIface reflect.Type) hook {
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(toonIface):
		return hookTOON
	case pt.Implements(jsonIface):
		return hookJSON
	case pt.Implements(textIface):
		return hookText
	}
	return hookNone
}

// planCache builds per-type plans once. Plans of recursive types refer to
// each other, so a plan is published only when every plan it needs is
// complete: builds run under mu, and the plans of one build are stored
// together at its end.
type planCache[P any] struct {
	mu   sync.Mutex
	done sync.Map // reflect.Type -> *P
}

// planBuild is one build in progress: the plans it has started.
type planBuild[P any] struct {
	c       *planCache[P]
	build   func(b *planBuild[P], t reflect.Type, p *P)
	pending map[reflect.Type]*P
}

// get returns the plan of t, building it (and the plans it needs) with
// build, which calls planBuild.get for the plans it refers to.
func (c *planCache[P]) get(t reflect.Type, build func(b *planBuild[P], t reflect.Type, p *P)) *P {
	if p, ok := c.done.Load(t); ok {
		return p.(*P)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := &planBuild[P]{c: c, build: build, pending: map[reflect.Type]*P{}}
	p := b.get(t)
	for k, v := range b.pending {
		c.done.Store(k, v)
	}
	return p
}

// get returns the plan of t, complete or under construction.
func (b *planBuild[P]) get(t reflect.Type) *P {
	if p, ok := b.c.done.Load(t); ok {
		return p.(*P)
	}
	if p, ok := b.pending[t]; ok {
		return p
	}
	p := new(P)
	b.pending[t] = p
	b.build(b, t, p)
	return p
}
