package toon

// This file decodes TOON into Go values of any type: the typed half of
// Decode and Unmarshal. Each type gets a decoding plan once (decPlans); a
// plan writes through addresses (internal/mem) at offsets computed from
// reflection ahead of time, so decoding a struct costs no reflection per
// field, and tabular rows decoded into structs cost no key lookups
// either (rowPlan).

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"github.com/toonstream/toon/internal/mem"
	"io"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"time"
)

// Unmarshaler is implemented by types that decode themselves from TOON.
// UnmarshalTOON receives the value in generic form: objects as
// map[string]any, arrays as []any, numbers as Number (their exact text),
// strings, booleans and nil. It must copy anything it keeps that it does
// not own; the generic values are its own.
//
// Unmarshal gives Unmarshaler precedence over json.Unmarshaler, and both
// over encoding.TextUnmarshaler; a method with a pointer receiver counts.
type Unmarshaler interface {
	UnmarshalTOON(v any) error
}

// unmarshalReflect is Decode for every target other than *any,
// *map[string]any and *[]any: of the next value, or with whole of the
// whole document, checked to its end.
func unmarshalReflect(d *Decoder, v any, whole bool) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	pl := decPlanOf(rv.Type().Elem())
	s := wholeState(d)
	return s.root(whole, func(t Token) error { return pl.fn(&s, pl, t, mem.PtrOf(rv)) })
}

// root decodes the next value with decode, which is given its first
// token; whole asks for the whole document, checked to its end. Errors
// that stop decoding come first, then the first mismatch recorded in s.
func (s *decState) root(whole bool, decode func(t Token) error) error {
	d := s.d
	t, err := d.Token()
	if err != nil {
		return unexpectedEOF(err)
	}
	if err := decode(t); err != nil {
		return err
	}
	if !whole {
		if err := d.endErr(t); err != nil {
			return err
		}
	} else if _, err := d.Token(); err != io.EOF {
		if err == nil {
			err = errAfterRoot
		}
		return err
	}
	return s.err
}

// decState is the state of one Decode call, or of one RowDecoder.
type decState struct {
	d    *Decoder
	err  error     // the first mismatch; decoding goes on past it
	text textStore // the strings the decoded values keep
	box  anyBoxes  // the interface values of generic numbers and strings

	// The current tabular cell, to locate a mismatch in its row.
	cell  int  // leaf index of the cell, or -1 outside a row
	delim byte // delimiter of the row's table

	slabs slabs // the memory of small slices and pointed-to values (newElems)

	// The row plans made last, for the tables that repeat the same
	// header (a table in each item of a list), in a ring.
	rowPlans [rowPlansKept]*rowPlan
	rowNext  int
}

// wholeState returns the decState of a Decode call on d, whose result
// keeps all its values: strings are packed into shared blocks, small
// slices and pointed-to values carved out of slabs. For a decoder of
// bytes, those bytes size both: a string is a copy of text in them, or
// shorter (unescaped), and an element takes about two of them at least
// (textStore.left, slabs.most), so a small document gets small blocks.
func wholeState(d *Decoder) decState {
	s := decState{d: d, cell: -1, text: textStore{pack: true}}
	if d.lr.r == nil {
		s.text.left = d.lr.end
		s.slabs.most = d.lr.end/2 + 1
	}
	return s
}

// rowPlansKept is how many row plans a decState keeps for reuse.
const rowPlansKept = 4

// decFunc decodes the value that starts with token t into the Go value at
// p, of the plan's type. It returns only errors that stop decoding (syntax
// and reader errors); mismatches are recorded with mismatch, their value
// skipped, and decoding goes on.
type decFunc func(s *decState, pl *decPlan, t Token, p mem.Ptr) error

// decPlan is how values of one Go type are decoded.
type decPlan struct {
	typ  reflect.Type
	fn   decFunc
	size uintptr
	elem *decPlan // pointers, slices, arrays, maps
	// pointers: the slice type of the element, for slabs; maps: the type
	// word of the map type, for mem.MapAssign
	elems   reflect.Type
	mapType mem.Ptr
	key     *decPlan // maps with TextUnmarshaler keys; nil otherwise

	// fast is the fast kind of the values the plan decodes, fastNone for
	// any other: decStruct, decodeRow and decSlice store those themselves.
	fast uint8

	hook   hook          // the hook of decHook
	zeroed reflect.Value // arrays: the zero element
	// isStruct reports a plan of decStruct: a struct decoded field by
	// field (no hook, not a type of its own such as time.Time or Value).
	isStruct bool

	structFields // structs
}

// structFields are the fields of a struct plan, and the index that finds
// them by key.
type structFields struct {
	fields []decField
	byName map[string]int // structs with many fields: the index of a name
}

// decField is one field of a struct plan.
type decField struct {
	structField
	plan *decPlan
	fast uint8 // fastNone, or the kind decStruct and decodeRow store without a call
	// The name's words (mem.TextWords), for names of 1 to 16 bytes.
	lo, hi uint64
}

// The kinds of fields and slice elements that decStruct, decodeRow and
// decSlice store without a call through their plan: basic types with no
// hook, at a direct offset. A null, a mismatch or a float outside
// fastFloat still goes through the plan.
const (
	fastNone uint8 = iota
	fastString
	fastInt64
	fastFloat64
	fastFloat32
	fastBool
)

// fastKind returns the fast kind of a field whose plan is pl, or fastNone.
func fastKind(f *structField, pl *decPlan) uint8 {
	if !f.direct {
		return fastNone
	}
	return pl.fast
}

var decPlans planCache[decPlan]

func decPlanOf(t reflect.Type) *decPlan { return decPlans.get(t, buildDecPlan) }

func buildDecPlan(b *planBuild[decPlan], t reflect.Type, pl *decPlan) {
	pl.typ = t
	pl.size = t.Size()
	switch t {
	case timeType:
		pl.fn = decTime
		return
	case bigIntType:
		pl.fn = decBigInt
		return
	case bigFloatType:
		pl.fn = decBigFloat
		return
	case numberType, jsonNumberType:
		pl.fn = decNumber
		return
	case objectType:
		pl.fn = decObject
		return
	case valueType:
		pl.fn = decValue
		return
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		if h := unmarshalHook(t); h != hookNone {
			pl.hook = h
			pl.fn = decHook
			return
		}
	}
	// The types of their own and those with a hook have returned above:
	// the basic types left that are stored as they are have a fast kind.
	switch t.Kind() {
	case reflect.Bool:
		pl.fn, pl.fast = decBool, fastBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		pl.fn = decInt
		if t.Size() == 8 {
			pl.fast = fastInt64
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		pl.fn = decUint
	case reflect.Float32, reflect.Float64:
		pl.fn = decFloat
		pl.fast = fastFloat64
		if t.Kind() == reflect.Float32 {
			pl.fast = fastFloat32
		}
	case reflect.String:
		pl.fn, pl.fast = decString, fastString
	case reflect.Pointer:
		pl.elem = b.get(t.Elem())
		pl.elems = reflect.SliceOf(t.Elem())
		pl.fn = decPtr
	case reflect.Interface:
		pl.fn = decIface
	case reflect.Slice:
		pl.elem = b.get(t.Elem())
		pl.fn = decSlice
		if t.Elem().Kind() == reflect.Uint8 && pl.elem.hook == hookNone {
			pl.fn = decBytes
		}
	case reflect.Array:
		pl.elem = b.get(t.Elem())
		pl.zeroed = reflect.Zero(t.Elem())
		pl.fn = decArray
	case reflect.Map:
		kt := t.Key()
		switch {
		case kt.Kind() == reflect.String:
		case reflect.PointerTo(kt).Implements(textUnmarshType):
			pl.key = b.get(kt)
		case isIntKind(kt.Kind()):
		default:
			pl.fn = decUnsupported
			return
		}
		pl.elem = b.get(t.Elem())
		pl.mapType = mem.TypeWord(t)
		pl.fn = decMap
	case reflect.Struct:
		fs := typeFields(t)
		pl.fields = make([]decField, len(fs))
		for i := range fs {
			fp := b.get(fs[i].typ)
			pl.fields[i] = decField{structField: fs[i], plan: fp, fast: fastKind(&fs[i], fp)}
			if n := len(fs[i].name); n >= 1 && n <= 16 {
				pl.fields[i].lo, pl.fields[i].hi = mem.TextWords(mem.StringData(fs[i].name), n)
			}
		}
		if len(fs) > 8 {
			pl.byName = make(map[string]int, len(fs))
			for i := range fs {
				pl.byName[fs[i].name] = i
			}
		}
		pl.fn = decStruct
		pl.isStruct = true
	default:
		pl.fn = decUnsupported
	}
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// ---- positions and mismatches ----

// pos returns the 1-based line and column of token t, which must be the
// last token read. Texts that lie in the current line are located exactly;
// the cells of a tabular row through the row's delimiters; other tokens at
// the start of their line's content.
func (s *decState) pos(t Token) (line, col int) {
	d := s.d
	ln := d.tokenLine()
	full := ln.full
	line = ln.num
	switch t.kind() {
	case KindString, KindNumber, KindKey:
		if tb := t.text(); len(full) > 0 && tb != nil {
			// Addresses compared as integers: the text may lie in another buffer.
			base := mem.BytesData(full).Uintptr()
			if q := mem.BytesData(tb).Uintptr(); q >= base && q < base+uintptr(len(full)) {
				i := int(q - base)
				if i > 0 && full[i-1] == '"' && t.kind() != KindNumber {
					i-- // the opening quote of a quoted string
				}
				return line, i + 1
			}
		}
	}
	start := len(full) - len(ln.text)
	if s.cell >= 0 {
		if c := cellStart(ln.text, s.cell, s.delim); c >= 0 {
			return line, start + c + 1
		}
	}
	return line, start + 1
}

// cellStart returns the offset in text of cell i of a row split at delim,
// after leading spaces, or -1 if the row has fewer cells.
func cellStart(text []byte, i int, delim byte) int {
	at := 0
	quoted := false
	for j := 0; j < len(text) && i > 0; j++ {
		c := text[j]
		if quoted {
			if c == '\\' {
				j++
			} else if c == '"' {
				quoted = false
			}
			continue
		}
		if c == '"' {
			quoted = true
		} else if c == delim {
			i--
			at = j + 1
		}
	}
	if i > 0 {
		return -1
	}
	for at < len(text) && text[at] == ' ' {
		at++
	}
	return at
}

// describeToken names the TOON value of t for an UnmarshalTypeError.
func describeToken(t Token) string {
	switch t.kind() {
	case KindObjectStart:
		return "object"
	case KindArrayStart:
		return "array"
	case KindString:
		return "string " + strconv.Quote(string(t.text()))
	case KindNumber:
		return "number " + string(t.text())
	case KindBool:
		if t.Bool() {
			return "bool true"
		}
		return "bool false"
	case KindNull:
		return "null"
	}
	return t.kind().String()
}

// mismatch records an UnmarshalTypeError for the value that starts with t
// (the last token read) and skips the rest of the value. cause, if not
// nil, is the error behind it.
func (s *decState) mismatch(t Token, typ reflect.Type, cause error) error {
	if s.err == nil {
		line, col := s.pos(t)
		s.err = &UnmarshalTypeError{Value: describeToken(t), Type: typ.String(), Line: line, Column: col, Err: cause}
	}
	return s.skip(t)
}

// mismatchAt records an UnmarshalTypeError at a position taken before the
// value was read.
func (s *decState) mismatchAt(what string, typ reflect.Type, cause error, line, col int) {
	if s.err == nil {
		s.err = &UnmarshalTypeError{Value: what, Type: typ.String(), Line: line, Column: col, Err: cause}
	}
}

// inField prefixes the field path of a mismatch recorded while decoding the
// field name; had is whether a mismatch was recorded before.
func (s *decState) inField(had bool, name string) {
	if had || s.err == nil {
		return
	}
	if e, ok := s.err.(*UnmarshalTypeError); ok {
		if e.Field == "" {
			e.Field = name
		} else {
			e.Field = name + "." + e.Field
		}
	}
}

// skip consumes the rest of the value that starts with t.
func (s *decState) skip(t Token) error {
	switch t.kind() {
	case KindObjectStart, KindArrayStart:
	default:
		return nil
	}
	depth := 1
	for depth > 0 {
		t, err := s.d.Token()
		if err != nil {
			return unexpectedEOF(err)
		}
		switch t.kind() {
		case KindObjectStart, KindArrayStart:
			depth++
		case KindObjectEnd, KindArrayEnd:
			depth--
		}
	}
	return nil
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// next reads the next token inside a value, where the end of the input is
// unexpected.
func (s *decState) next() (Token, error) {
	t, err := s.d.Token()
	if err != nil {
		return t, unexpectedEOF(err)
	}
	return t, nil
}

// str returns the text b as a string the caller keeps, interned with the
// InternStrings option. An empty text, common in sparse tables, costs no
// call.
func (s *decState) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return s.text.str(b, s.d.opts.intern)
}

// ---- primitives ----

func decUnsupported(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	return s.mismatch(t, pl.typ, errUnsupportedType(pl.typ))
}

func decBool(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindBool:
		mem.Store[bool](p, t.Bool())
		return nil
	case KindNull:
		return nil
	}
	return s.mismatch(t, pl.typ, nil)
}

// parseInt parses number text as an int64: plain integers quickly, others
// (fraction, exponent, 19 digits and more) by Number.Int64's rules, which
// accept whole values such as 1.0 and 1e3. ok is false if the number is
// not a whole number in range.
func parseInt(b []byte) (int64, bool) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	if n := len(b) - i; n > 0 && n <= 18 {
		var v int64
		for _, c := range b[i:] {
			c -= '0'
			if c > 9 {
				v = -1
				break
			}
			v = v*10 + int64(c)
		}
		if v >= 0 {
			if i == 1 {
				v = -v
			}
			return v, true
		}
	}
	v, err := Number(mem.String(b)).Int64()
	return v, err == nil
}

func parseUint(b []byte) (uint64, bool) {
	if n := len(b); n > 0 && n <= 19 {
		var v uint64
		ok := true
		for _, c := range b {
			c -= '0'
			if c > 9 {
				ok = false
				break
			}
			v = v*10 + uint64(c)
		}
		if ok {
			return v, true
		}
	}
	v, err := Number(mem.String(b)).Uint64()
	return v, err == nil
}

func decInt(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindNumber, KindNumber); !ok {
		return err
	}
	v, ok := parseInt(t.text())
	if !ok {
		return s.mismatch(t, pl.typ, nil)
	}
	switch pl.size {
	case 8:
		mem.Store[int64](p, v)
	case 4:
		if v != int64(int32(v)) {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[int32](p, int32(v))
	case 2:
		if v != int64(int16(v)) {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[int16](p, int16(v))
	default:
		if v != int64(int8(v)) {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[int8](p, int8(v))
	}
	return nil
}

func decUint(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindNumber, KindNumber); !ok {
		return err
	}
	v, ok := parseUint(t.text())
	if !ok {
		return s.mismatch(t, pl.typ, nil)
	}
	switch pl.size {
	case 8:
		mem.Store[uint64](p, v)
	case 4:
		if v > math.MaxUint32 {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[uint32](p, uint32(v))
	case 2:
		if v > math.MaxUint16 {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[uint16](p, uint16(v))
	default:
		if v > math.MaxUint8 {
			return s.mismatch(t, pl.typ, nil)
		}
		mem.Store[uint8](p, uint8(v))
	}
	return nil
}

// accept sorts the token a primitive decoder is given: ok for kind k or k2,
// which the decoder then reads; a null leaves the target as it is (no
// error); any other kind is a mismatch.
func (s *decState) accept(t Token, pl *decPlan, k, k2 Kind) (ok bool, err error) {
	switch t.kind() {
	case k, k2:
		return true, nil
	case KindNull:
		return false, nil
	}
	return false, s.mismatch(t, pl.typ, nil)
}

// decFloat stores the nearest float; a number beyond the type's range is a
// mismatch, not an infinity, and so is one so small that it would become
// zero.
func decFloat(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindNumber, KindNumber); !ok {
		return err
	}
	b := t.text()
	bits := 64
	if pl.size == 4 {
		bits = 32
	}
	f, err := parseFloat(b, bits)
	if err != nil {
		return s.mismatch(t, pl.typ, err)
	}
	if f == 0 {
		f = 0 // -0 decodes to 0 (§4)
	}
	if bits == 32 {
		mem.Store[float32](p, float32(f))
	} else {
		mem.Store[float64](p, f)
	}
	return nil
}

// exactPow10 are the powers of ten that a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat is decimalFloat for a float field of the given bits, -0 read
// as 0 (§4).
func fastFloat(b []byte, bits int) (float64, bool) {
	f, ok := decimalFloat(b, bits)
	if f == 0 {
		f = 0
	}
	return f, ok
}

func decString(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindString:
		mem.Store[string](p, s.str(t.text()))
		return nil
	case KindNull:
		return nil
	}
	return s.mismatch(t, pl.typ, nil)
}

// decNumber decodes Number and json.Number: the exact text of a number.
func decNumber(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindNumber:
		mem.Store[string](p, string(t.text()))
		return nil
	case KindNull:
		return nil
	}
	return s.mismatch(t, pl.typ, nil)
}

// decValue decodes a primitive into a Value: numbers keep their text.
func decValue(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	v := mem.As[Value](p)
	switch t.kind() {
	case KindString:
		*v = String(s.str(t.text()))
	case KindNumber:
		*v = NumberValue(Number(t.text()))
	case KindBool:
		*v = Bool(t.Bool())
	case KindNull:
		*v = Null()
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	return nil
}

// decTime decodes an RFC 3339 string, with or without fractional seconds.
func decTime(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindString, KindString); !ok {
		return err
	}
	b := t.text()
	if tm, ok := parseUTC(b); ok {
		mem.Store[time.Time](p, tm)
		return nil
	}
	tm, err := time.Parse(time.RFC3339Nano, mem.String(b))
	if err != nil {
		// The error refers to its input: parse a copy for the report.
		_, err = time.Parse(time.RFC3339Nano, string(b))
		return s.mismatch(t, pl.typ, err)
	}
	mem.Store[time.Time](p, tm)
	return nil
}

// decBigInt decodes an integer of any size, from a number or from a string
// holding one (the lossless form some encoders use).
func decBigInt(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindNumber, KindString); !ok {
		return err
	}
	z := mem.As[big.Int](p)
	txt := string(t.text())
	if _, ok := z.SetString(txt, 10); ok {
		return nil
	}
	if _, exp, _, ok := splitNumber(txt); ok && exp <= 10000 {
		if r, ok := new(big.Rat).SetString(txt); ok && r.IsInt() {
			z.Set(r.Num())
			return nil
		}
	}
	return s.mismatch(t, pl.typ, nil)
}

// decBigFloat decodes a number, or a string holding one, with at least
// enough precision for all its digits.
func decBigFloat(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if ok, err := s.accept(t, pl, KindNumber, KindString); !ok {
		return err
	}
	if !isNumber(t.text()) {
		return s.mismatch(t, pl.typ, nil)
	}
	f := mem.As[big.Float](p)
	if f.Prec() == 0 {
		f.SetPrec(max(64, uint(len(t.text()))*4))
	}
	if _, ok := f.SetString(string(t.text())); !ok {
		return s.mismatch(t, pl.typ, nil)
	}
	return nil
}

// decBytes decodes a base64 string (as encoding/json writes []byte), or an
// array of numbers.
func decBytes(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if t.kind() != KindString {
		return decSlice(s, pl, t, p)
	}
	src := t.text()
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(dst, src)
	if err != nil {
		return s.mismatch(t, pl.typ, err)
	}
	mem.NewAt(pl.typ, p).Elem().SetBytes(dst[:n])
	return nil
}

// ---- hooks ----

func decHook(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	line, col := s.pos(t)
	what := describeToken(t)
	target := mem.NewAt(pl.typ, p).Interface()
	var err error
	switch pl.hook {
	case hookText:
		switch t.kind() {
		case KindString:
			err = target.(encoding.TextUnmarshaler).UnmarshalText(t.text())
		case KindNull:
			return nil
		default:
			return s.mismatch(t, pl.typ, nil)
		}
	case hookTOON:
		v, ferr := s.generic(t, 0, false, true)
		if ferr != nil {
			return ferr
		}
		err = target.(Unmarshaler).UnmarshalTOON(v)
	case hookJSON:
		v, ferr := s.generic(t, 0, true, true)
		if ferr != nil {
			return ferr
		}
		js, jerr := appendJSON(nil, v)
		if jerr != nil {
			err = jerr
		} else {
			err = target.(json.Unmarshaler).UnmarshalJSON(js)
		}
	}
	if err != nil {
		s.mismatchAt(what, pl.typ, err, line, col)
	}
	return nil
}

// ---- containers ----

// newElems returns n zeroed elements of plan ep's type, of slice type st,
// from the slabs when the result keeps all its values (text.pack) and the
// elements are few and small; ok is false otherwise.
func (s *decState) newElems(ep *decPlan, st reflect.Type, n int) (mem.Ptr, bool) {
	if !s.text.pack {
		return mem.Ptr{}, false
	}
	return s.slabs.alloc(ep, st, n)
}

func decPtr(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	if t.kind() == KindNull {
		mem.Store(p, mem.Ptr{})
		return nil
	}
	q := mem.Load[mem.Ptr](p)
	if q.IsNil() {
		var ok bool
		if q, ok = s.newElems(pl.elem, pl.elems, 1); !ok {
			q = mem.PtrOf(reflect.New(pl.elem.typ))
		}
		mem.Store(p, q)
	}
	return pl.elem.fn(s, pl.elem, t, q)
}

func decIface(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	v := mem.NewAt(pl.typ, p).Elem()
	if t.kind() == KindNull {
		v.SetZero()
		return nil
	}
	if v.NumMethod() == 0 {
		g, err := s.generic(t, 0, false, false)
		if err != nil {
			return err
		}
		mem.Store[any](p, g)
		return nil
	}
	// A non-empty interface: decode into the pointer it holds, if any.
	if !v.IsNil() {
		if e := v.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() {
			ep := decPlanOf(e.Type().Elem())
			return ep.fn(s, ep, t, mem.PtrOf(e))
		}
	}
	return s.mismatch(t, pl.typ, nil)
}

// decSlice decodes an array into a slice, reusing its backing array. Each
// element is decoded into a zeroed element. The elements of a tabular
// array decoded into structs go through a row plan.
func decSlice(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindArrayStart:
	case KindNull:
		mem.Store(p, mem.SliceHeader{})
		return nil
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	h := mem.As[mem.SliceHeader](p)
	ep := pl.elem
	var rp *rowPlan
	if t.Form() == FormTabular && isStructPlan(ep) {
		rp = s.rowPlan(ep, t)
	}
	declared := t.n
	dirty := h.Cap // elements below dirty may hold old values
	if h.Data.IsNil() {
		dirty = 0
	}
	ahead := 0 // elements given ahead, charged to s.d.ahead until each is read
	if want := s.d.preallocLen(declared, ep.size); want > h.Cap {
		if q, ok := s.newElems(ep, pl.typ, want); ok {
			*h = mem.SliceHeader{Data: q, Cap: want}
		} else {
			mem.NewAt(pl.typ, p).Elem().Set(reflect.MakeSlice(pl.typ, 0, want))
		}
		dirty = 0
		ahead = s.d.charge(want, ep.size)
	}
	n := 0
	d := s.d
	for {
		if ep.fast == fastFloat64 || ep.fast == fastFloat32 {
			// A []float64 or []float32 (an embedding, a series of
			// measures): the numbers the queue holds, in a loop of their
			// own; the token after them (the first of a refilled queue,
			// one that is no number) goes on below, through the
			// element's plan.
			var m int
			if ep.fast == fastFloat64 {
				m = decFloats[float64](d, h, n, 64)
			} else {
				m = decFloats[float32](d, h, n, 32)
			}
			if read := min(m, ahead) - min(n, ahead); read > 0 {
				d.ahead -= read * int(ep.size)
			}
			n = m
		}
		et, err := d.Token() // s.next, written out to save a call per element
		if err != nil {
			return unexpectedEOF(err)
		}
		if et.kind() == KindArrayEnd {
			break
		}
		if n == h.Cap {
			growSlice(pl, p, n, declared)
			dirty = n
		}
		e := h.Data.Offset(uintptr(n) * ep.size)
		if n < dirty {
			mem.NewAt(ep.typ, e).Elem().SetZero()
		}
		if n < ahead {
			// The element is read: the input holds it, and its memory
			// leaves the account at once, so that the arrays inside the
			// elements still to come may be given their capacity too.
			s.d.ahead -= int(ep.size)
		}
		n++
		h.Len = n
		// The fast kinds, written out as in decStruct, to save the calls
		// through the element's plan (floats: decFloats, above).
		switch ep.fast {
		case fastString:
			if et.kind() == KindString {
				mem.Store[string](e, s.str(et.text()))
				continue
			}
		case fastInt64:
			if et.kind() == KindNumber {
				if v, ok := parseInt(et.text()); ok {
					mem.Store[int64](e, v)
					continue
				}
			}
		case fastBool:
			if et.kind() == KindBool {
				mem.Store[bool](e, et.n != 0)
				continue
			}
		}
		if rp != nil {
			err = s.decodeRow(rp, et, e)
		} else {
			err = ep.fn(s, ep, et, e)
		}
		if err != nil {
			return err
		}
	}
	if h.Data.IsNil() {
		// An empty array is an empty slice, not a nil one: its data
		// points at noElems, as the runtime's empty allocations point at
		// a variable of its own, and nothing is allocated.
		h.Data = mem.Of(&noElems)
	}
	h.Len = n
	return nil
}

// decFloats decodes into the elements of the []float64 or []float32
// (floats of the given bits) whose header is h, from its nth on, the
// numbers that d's queue holds next and, once the queue is read, those
// of the long inline array that inlineChunk would queue next, as
// decSlice would, while h has capacity for them and fastFloat takes
// each. It returns n plus the numbers it decoded, and makes that h's
// length when it decoded any (decSlice sets the length as each element
// is read).
func decFloats[F float32 | float64](d *Decoder, h *mem.SliceHeader, n, bits int) int {
	if d.qerr != nil {
		return n // the queue holds an error's placeholder
	}
	fs := mem.SliceAt[F](h.Data, h.Cap)
	q, i := d.queue, d.qi
	for ; n < len(fs) && i < len(q) && q[i].kind() == KindNumber; n++ {
		v, ok := fastFloat(q[i].text(), bits)
		if !ok {
			break
		}
		fs[n] = F(v)
		i++
	}
	if i > d.qi {
		d.qi = i
		h.Len = n
	}
	if i == len(q) && d.pi >= len(d.prog) && d.ci < len(d.cells)/2 {
		// The queue is read, and the next tokens would be the values of
		// a long inline array, which inlineChunk queues a chunk at a
		// time: this slice's elements. Each is read from its cell in one
		// pass rather than typed there and read again here, as long as
		// the cells are numbers that fastFloat takes (it takes no other
		// cell). inlineChunk queues the rest, from the first cell that
		// is not, and always the last cell, after which it queues the
		// ArrayEnd.
		before := n
		text, cells := d.cellsOf, d.cells
		ci := d.ci
		for end := min(len(cells)/2-1, ci+len(fs)-n); ci < end; ci++ {
			v, ok := fastFloat(text[cells[2*ci]:cells[2*ci+1]], bits)
			if !ok {
				break
			}
			fs[n] = F(v)
			n++
		}
		if n > before {
			d.ci = ci
			h.Len = n
		}
	}
	return n
}

// noElems is where the data of an empty slice points: a slice of no
// elements and no capacity needs an address, not memory. It is aligned
// for any element type.
var noElems [0]uint64

// isStructPlan reports whether pl decodes a struct field by field, so that
// rows and nested field groups may be decoded into it by a row plan.
func isStructPlan(pl *decPlan) bool { return pl.isStruct }

// growSlice gives the slice at p room for more than n elements: twice the
// capacity, but no more than the declared length when that is larger than
// n.
func growSlice(pl *decPlan, p mem.Ptr, n, declared int) {
	c := max(2*n, 8)
	if declared > n && declared < c {
		c = declared
	}
	old := mem.NewAt(pl.typ, p).Elem()
	ns := reflect.MakeSlice(pl.typ, n, c)
	reflect.Copy(ns, old)
	old.Set(ns)
}

// Preallocation. A slice for an array of declared length is given its
// capacity before its elements are read, but a declared length is not
// trusted for memory: memory must follow the elements that are there.
// preallocLen bounds the capacity given ahead, and the Decoder keeps
// account (d.ahead) of the bytes so given that no element has filled yet.
// The capacity of open arrays and, in non-strict mode, the capacity a
// short array left unused stay on that account, so all of them together
// stay within one budget, however many arrays declare a length they do
// not have. Past the bound, a slice grows as its elements arrive.

// preallocLen returns the capacity, in elements of size bytes, to give a
// slice for an array declared to hold declared elements. When the whole
// input is in memory, that is at most the number of elements the rest of
// the input can hold (every element takes at least two bytes: a character
// and a line feed, or a delimiter), and the budget is four bytes of
// elements per byte left, plus 64 KiB, as a short row can stand for a
// large struct. From a reader, it is at most 1024 elements, and the budget
// 1 MiB.
func (d *Decoder) preallocLen(declared int, size uintptr) int {
	rows, budget := 1024, 1<<20
	if d.lr.r == nil {
		left := d.lr.end - d.lr.pos
		rows, budget = left/2+1, 4*min(left, math.MaxInt/8)+64<<10
	}
	n := min(declared, rows)
	if size > 0 {
		n = min(n, max(budget-d.ahead, 0)/int(size))
	}
	return max(n, 0)
}

// charge records that a slice was given n elements of size bytes ahead,
// and returns n.
func (d *Decoder) charge(n int, size uintptr) int {
	d.ahead += n * int(size)
	return n
}

// filled takes off the account the elements of a slice that was given
// ahead elements (charged) once its array has ended with n elements: the
// capacity they fill is memory the input accounts for.
func (d *Decoder) filled(ahead, n int, size uintptr) {
	d.ahead -= min(ahead, n) * int(size)
}

// decArray decodes into a Go array: extra elements are dropped, missing
// ones are zero.
func decArray(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindArrayStart:
	case KindNull:
		return nil
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	ep := pl.elem
	n := pl.typ.Len()
	i := 0
	for ; ; i++ {
		et, err := s.next()
		if err != nil {
			return err
		}
		if et.kind() == KindArrayEnd {
			break
		}
		if i >= n {
			if err := s.skip(et); err != nil {
				return err
			}
			continue
		}
		if err := ep.fn(s, ep, et, p.Offset(uintptr(i)*ep.size)); err != nil {
			return err
		}
	}
	if i < n {
		a := mem.NewAt(pl.typ, p).Elem()
		for ; i < n; i++ {
			a.Index(i).Set(pl.zeroed)
		}
	}
	return nil
}

// decMap decodes an object into a map, adding to the entries it has.
// Keys are strings, integers (which must fit) or TextUnmarshalers. Each
// value is decoded in place, in the map's own storage (mem.MapAssign),
// into a zeroed value: a key the map had is replaced, as by m[k] = v.
func decMap(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindObjectStart:
	case KindNull:
		mem.Store(p, mem.Ptr{})
		return nil
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	kt := pl.typ.Key()
	ep := pl.elem
	size := ep.size + kt.Size()
	ahead, entries := 0, 0
	var m reflect.Value // the map, where its length is read (below)
	mp := mem.Load[mem.Ptr](p)
	made := mp.IsNil()
	if made {
		// A keyed object declares its count: the map is made for it, as
		// far as the input left could fill it, and charged as a slice
		// given elements ahead is (see preallocLen).
		if ahead = s.d.charge(s.d.preallocLen(t.n, size), size); ahead > 0 {
			m = reflect.MakeMapWithSize(pl.typ, ahead)
		} else {
			m = reflect.MakeMap(pl.typ)
		}
		mp = mem.PtrOf(m)
		mem.Store(p, mp)
	}
	strKey := pl.key == nil && kt.Kind() == reflect.String
	var kv reflect.Value // the key, when not a string
	if !strKey && pl.key == nil {
		kv = reflect.New(kt).Elem()
	}
	d := s.d
	// Every entry of a map made here is new when its keys are strings and
	// strict mode holds: the decoder reports a duplicate key before its
	// value, and a string key is its text. Otherwise the map's length is
	// read after each entry to tell, through m: the map made above, or the
	// caller's, reached through NewAt only then (it looks up the pointer
	// type of a map type in a sync.Map when the program has no use of that
	// pointer type).
	allNew := made && strKey && d.opts.strict
	count := 0 // the map's length before the next entry (only this loop writes to it)
	if !allNew {
		if !made {
			m = mem.NewAt(pl.typ, p).Elem()
		}
		count = m.Len()
	}
	for {
		var k, vt Token
		queued := false // k and vt were both queued, and are taken
		if q := d.queue; strKey && d.qi+1 < len(q) && q[d.qi].kind() == KindKey {
			// Token's fast path, inlined, as in decStruct.
			k, vt = q[d.qi], q[d.qi+1]
			d.qi += 2
			queued = true
		} else {
			var err error
			if k, err = s.next(); err != nil {
				return err
			}
			if k.kind() == KindObjectEnd {
				d.filled(ahead, entries, size)
				return nil
			}
		}
		entries++
		kb := k.text()
		bad := false
		var name string // a string key
		var kp mem.Ptr  // the key's address
		switch {
		case strKey:
			name = s.text.key(kb)
			kp = mem.Of(&name)
		case pl.key != nil:
			kv = reflect.New(kt).Elem() // UnmarshalText may keep its receiver
			err := kv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText(kb)
			if err != nil {
				line, col := s.pos(k)
				s.mismatchAt("key "+strconv.Quote(string(kb)), kt, err, line, col)
				bad = true
			}
			kp = mem.PtrOf(kv.Addr())
		default:
			if !setIntKey(kv, kb) {
				line, col := s.pos(k)
				s.mismatchAt("key "+strconv.Quote(string(kb)), kt, nil, line, col)
				bad = true
			}
			kp = mem.PtrOf(kv.Addr())
		}
		if !queued {
			var err error
			if vt, err = s.next(); err != nil {
				return err
			}
		}
		if bad {
			if err := s.skip(vt); err != nil {
				return err
			}
			continue
		}
		e := mem.MapAssign(pl.mapType, mp, kp)
		if !allNew {
			if l := m.Len(); l == count {
				mem.NewAt(ep.typ, e).Elem().SetZero() // the key was there: its old value goes
			} else {
				count = l
			}
		}
		had := s.err != nil
		if err := ep.fn(s, ep, vt, e); err != nil {
			return err
		}
		if s.err != nil && !had {
			if !strKey {
				name = kv.String()
			}
			s.inField(had, name)
		}
	}
}

// setIntKey parses an integer map key that must fit kv's type.
func setIntKey(kv reflect.Value, b []byte) bool {
	s := mem.String(b)
	switch kv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, kv.Type().Bits())
		if err != nil {
			return false
		}
		kv.SetInt(n)
	default:
		n, err := strconv.ParseUint(s, 10, kv.Type().Bits())
		if err != nil {
			return false
		}
		kv.SetUint(n)
	}
	return true
}

// decObject decodes an object into an Object, keeping the key order at
// every level (nested objects become Objects too).
func decObject(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindObjectStart:
	case KindNull:
		mem.Store(p, Object(nil))
		return nil
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	v, err := s.generic(t, 0, true, s.d.opts.useNumber)
	if err != nil {
		return err
	}
	mem.Store[Object](p, v.(Object))
	return nil
}

// lookup returns the index of the field whose name is the key k
// (case-sensitively), or -1. hint is the index where the key is expected.
// (decStruct makes the comparison with the hinted field itself, by the
// name's words, before it calls lookup: a helper for it would be too
// large to inline.)
func (sf *structFields) lookup(k []byte, hint int) int {
	if hint < len(sf.fields) && sf.fields[hint].name == string(k) {
		return hint
	}
	return sf.find(k)
}

// find is lookup without a hint.
func (sf *structFields) find(k []byte) int {
	if sf.byName != nil {
		if i, ok := sf.byName[string(k)]; ok {
			return i
		}
		return -1
	}
	for i := range sf.fields {
		if sf.fields[i].name == string(k) {
			return i
		}
	}
	return -1
}

// decStruct decodes an object into a struct, field by field; keys match
// field names exactly (case-sensitively). Fields the object lacks keep
// their values.
func decStruct(s *decState, pl *decPlan, t Token, p mem.Ptr) error {
	switch t.kind() {
	case KindObjectStart:
	case KindNull:
		return nil
	default:
		return s.mismatch(t, pl.typ, nil)
	}
	d := s.d
	hint := 0
	for {
		// Token's fast path, inlined, for a key followed in the queue by
		// its value or more (the queue then holds no error), and for a
		// value whose key was queued before it.
		var k, vt Token
		var err error
		if q := d.queue; d.qi+1 < len(q) {
			k = q[d.qi]
			d.qi++
		} else if k, err = s.next(); err != nil {
			return err
		}
		if k.kind() == KindObjectEnd {
			return nil
		}
		// pl.lookup(kb, hint), with the hinted name compared by its words
		// where it is short, without a call.
		kb, i := k.text(), -1
		if hint < len(pl.fields) {
			f := &pl.fields[hint]
			if n := len(kb); n == len(f.name) {
				if uint(n-1) < 16 {
					if lo, hi := mem.TextWords(mem.BytesData(kb), n); lo == f.lo && hi == f.hi {
						i = hint
					}
				} else if f.name == string(kb) {
					i = hint
				}
			}
		}
		if i < 0 {
			i = pl.find(kb)
		}
		if i < 0 {
			if d.opts.disallowUnknown {
				s.unknownField(k, pl.typ)
			}
			if vt, err = s.next(); err != nil {
				return err
			}
			if err := s.skip(vt); err != nil {
				return err
			}
			continue
		}
		f := &pl.fields[i]
		hint = i + 1
		if q := d.queue; d.qi < len(q) && d.qerr == nil {
			vt = q[d.qi]
			d.qi++
		} else if vt, err = s.next(); err != nil {
			return err
		}
		if f.direct {
			fp := p.Offset(f.off)
			// The fast kinds, written out as in decodeRow, to save a
			// call per field.
			switch f.fast {
			case fastString:
				if vt.kind() == KindString {
					mem.Store[string](fp, s.str(vt.text()))
					continue
				}
			case fastInt64:
				if vt.kind() == KindNumber {
					if v, ok := parseInt(vt.text()); ok {
						mem.Store[int64](fp, v)
						continue
					}
				}
			case fastFloat64:
				if vt.kind() == KindNumber {
					if v, ok := fastFloat(vt.text(), 64); ok {
						mem.Store[float64](fp, v)
						continue
					}
				}
			case fastFloat32:
				if vt.kind() == KindNumber {
					if v, ok := fastFloat(vt.text(), 32); ok {
						mem.Store[float32](fp, float32(v))
						continue
					}
				}
			case fastBool:
				if vt.kind() == KindBool {
					mem.Store[bool](fp, vt.n != 0)
					continue
				}
			}
		}
		had := s.err != nil
		if err := f.plan.fn(s, f.plan, vt, fieldPtr(pl.typ, p, &f.structField, true)); err != nil {
			return err
		}
		s.inField(had, f.name)
	}
}

func (s *decState) unknownField(k Token, typ reflect.Type) {
	if s.err == nil {
		line, col := s.pos(k)
		s.err = &UnknownFieldError{Key: string(k.text()), Type: typ.String(), Line: line, Column: col}
	}
}

// ---- tabular rows ----

// rowPlan maps the fields of one tabular header to the fields of a struct:
// the tokens of every row follow the header, so the keys of a row are
// known before it is read and need no lookup.
type rowPlan struct {
	pl     *decPlan
	steps  []rowStep
	fields []Field // the header's fields (a copy: the decoder's memory is compared, never kept past a header)
	clean  bool    // every field of the header is a field of the struct
	// flat: every field of the header is a leaf (no nested group), so a
	// row's tokens after its ObjectStart are a key and a cell per field,
	// then its ObjectEnd (rowText counts its cells alone). Set for the
	// plans of headers, not of groups.
	flat bool
	ntok int // the tokens of a row after its ObjectStart (rowTokenCount)
	// fieldsID is the decoder's id of the fields segment (headerParser's
	// fieldsID) fields was last found equal to, or 0.
	fieldsID int
}

// rowStep is one field of the header: the struct field it fills (nil for a
// key the struct lacks), and the index of its first leaf cell.
type rowStep struct {
	f     *decField
	leaf  int
	leaf1 bool // a leaf field (one cell), not a nested group
	// fast is f's fast kind for a leaf field, else fastNone; off is f's
	// offset when fast is not fastNone. decodeRow reads them here, not
	// through f.
	fast uint8
	off  uintptr
	// at is the index of the field's value among the tokens of a row
	// after its ObjectStart, which are the same for every row of the
	// header: each field's key, then its cell or its group's object.
	at int
	// group is the plan of a nested field group whose fields are all
	// fields of the struct field f (groupPlan): the group's object then
	// needs no key lookups either. It is nil for a leaf, and for a group
	// left to decStruct.
	group *rowPlan
}

// rowPlan compiles the header of the tabular ArrayStart t for rows decoded
// into structs of plan pl. Unknown fields, with DisallowUnknownFields, are
// reported once, at the header.
//
// A plan made before for the same struct and a header of the same fields
// is reused (the items of a list often hold tables of one header), unless
// it met an unknown field, which each header reports. The fields are the
// same when the decoder's id of the header's fields segment is the one
// the plan's were found equal to; otherwise they are compared.
func (s *decState) rowPlan(pl *decPlan, t Token) *rowPlan {
	fs := t.Fields()
	s.delim = byte(t.Delim())
	id := s.d.headerParser.fieldsID(fs)
	for _, rp := range s.rowPlans {
		if rp != nil && rp.pl == pl && rp.clean && (id != 0 && rp.fieldsID == id || sameFields(rp.fields, fs)) {
			rp.fieldsID = id
			return rp
		}
	}
	ntok := rowTokenCount(fs)
	rp := &rowPlan{pl: pl, steps: make([]rowStep, len(fs)), clean: true, flat: ntok == 2*len(fs)+1, ntok: ntok, fieldsID: id}
	leaf, at := 0, 1
	for i := range fs {
		var f *decField
		if j := pl.lookup(fs[i].Name, i); j >= 0 {
			f = &pl.fields[j]
		} else {
			rp.clean = false
			if s.d.opts.disallowUnknown && s.err == nil {
				line, col := s.pos(t)
				s.err = &UnknownFieldError{Key: string(fs[i].Name), Type: pl.typ.String(), Line: line, Column: col}
			}
		}
		rp.steps[i] = newRowStep(f, &fs[i], leaf, at)
		leaf += countLeaves(fs[i : i+1])
		at += 1 + cellTokens(&fs[i])
	}
	if rp.clean {
		// The names are copied: the header's memory is the decoder's.
		rp.fields = cloneFields(fs)
		s.rowPlans[s.rowNext] = rp
		s.rowNext = (s.rowNext + 1) % rowPlansKept
	}
	return rp
}

// groupPlan returns the plan of the objects of a nested field group fs
// decoded into values of plan pl, or nil unless pl is a struct's and every
// field of the group (at every depth) is a field of it: a group with an
// unknown field is left to decStruct, which reports it where it is. The
// group's steps locate a mismatch as decStruct does, by the value's text
// and not by its cell (leaf -1).
func groupPlan(pl *decPlan, fs []Field) *rowPlan {
	if !isStructPlan(pl) {
		return nil
	}
	gp := &rowPlan{pl: pl, steps: make([]rowStep, len(fs)), clean: true, ntok: rowTokenCount(fs)}
	at := 1
	for i := range fs {
		j := pl.lookup(fs[i].Name, i)
		if j < 0 {
			return nil
		}
		gp.steps[i] = newRowStep(&pl.fields[j], &fs[i], -1, at)
		at += 1 + cellTokens(&fs[i])
	}
	return gp
}

// newRowStep returns the step of the header field fl, decoded into the
// struct field f (nil for a field the struct lacks), whose first leaf cell
// is leaf and whose value is at among a row's tokens.
func newRowStep(f *decField, fl *Field, leaf, at int) rowStep {
	st := rowStep{f: f, leaf: leaf, leaf1: fl.Fields == nil, at: at}
	switch {
	case f == nil:
	case !st.leaf1:
		st.group = groupPlan(f.plan, fl.Fields)
	case f.direct:
		st.fast, st.off = f.fast, f.off
	}
	return st
}

// cellTokens returns the tokens of the value of field f in a row: a
// cell, or a nested group's object from its ObjectStart to its ObjectEnd.
func cellTokens(f *Field) int {
	if f.Fields == nil {
		return 1
	}
	return 1 + rowTokenCount(f.Fields)
}

// sameFields reports whether two field lists have the same names and
// nested groups.
func sameFields(a, b []Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(a[i].Name) != string(b[i].Name) || (a[i].Fields == nil) != (b[i].Fields == nil) || !sameFields(a[i].Fields, b[i].Fields) {
			return false
		}
	}
	return true
}

// decodeRow decodes one row object into the struct at p.
//
// Most rows of a table are queued whole, many at a time: the tokens of
// such a row are read from the queue at the places its header gives them
// (rowStep.at), and d.qi is moved past the row once, or past a key before
// its value is decoded through a plan (a mismatch finds its position by
// d.qi, and the plan of a group's object reads the object's tokens from
// there). Other rows are read token by token. The cells of the fast kinds
// are stored without a call.
func (s *decState) decodeRow(rp *rowPlan, t Token, p mem.Ptr) error {
	if t.kind() != KindObjectStart {
		return rp.pl.fn(s, rp.pl, t, p)
	}
	d := s.d
	base, q := d.qi, d.queue
	queued := queuedWhole(q, base, rp.ntok) && !queuedRowsOff
	for i := range rp.steps {
		st := &rp.steps[i]
		var vt Token
		if queued {
			vt = q[base+st.at]
		} else {
			var err error
			if vt, err = s.rowCell(); err != nil {
				return err
			}
		}
		fp := p.Offset(st.off)
		switch st.fast {
		case fastString:
			if vt.kind() == KindString {
				mem.Store[string](fp, s.str(vt.text()))
				continue
			}
		case fastInt64:
			if vt.kind() == KindNumber {
				if v, ok := parseInt(vt.text()); ok {
					mem.Store[int64](fp, v)
					continue
				}
			}
		case fastFloat64:
			if vt.kind() == KindNumber {
				if v, ok := fastFloat(vt.text(), 64); ok {
					mem.Store[float64](fp, v)
					continue
				}
			}
		case fastFloat32:
			if vt.kind() == KindNumber {
				if v, ok := fastFloat(vt.text(), 32); ok {
					mem.Store[float32](fp, float32(v))
					continue
				}
			}
		case fastBool:
			if vt.kind() == KindBool {
				mem.Store[bool](fp, vt.n != 0)
				continue
			}
		}
		if queued {
			d.qi = base + st.at + 1
		}
		if st.group != nil && vt.kind() == KindObjectStart {
			// A nested field group's object, decoded by the group's plan.
			had := s.err != nil
			if err := s.decodeRow(st.group, vt, fieldPtr(rp.pl.typ, p, &st.f.structField, true)); err != nil {
				return err
			}
			s.inField(had, st.f.name)
			continue
		}
		if err := s.rowField(rp.pl, st, vt, p); err != nil {
			return err
		}
	}
	if queued {
		d.qi = base + rp.ntok
		return nil
	}
	t, err := d.Token()
	if err != nil {
		return unexpectedEOF(err)
	}
	if t.kind() != KindObjectEnd {
		return errUnexpected(t.kind(), " at the end of a tabular row")
	}
	return nil
}

// queuedRowsOff makes decodeRow read every row token by token: only tests
// set it, to compare the two ways.
var queuedRowsOff bool

// rowCell reads the key and the value of the next field of a row that is
// not queued whole (one wider than the queue takes at once), and returns
// the value.
func (s *decState) rowCell() (Token, error) {
	k, err := s.d.Token()
	if err != nil {
		return Token{}, unexpectedEOF(err)
	}
	if k.kind() != KindKey {
		return Token{}, errUnexpected(k.kind(), " in a tabular row")
	}
	vt, err := s.d.Token()
	if err != nil {
		return Token{}, unexpectedEOF(err)
	}
	return vt, nil
}

// rowField decodes vt, the value of step st of a row of a struct of plan
// pl, into the struct at p, through the field's plan (decodeRow takes the
// fast kinds and the objects of nested field groups that have a plan); a
// value of a field the struct lacks is skipped.
func (s *decState) rowField(pl *decPlan, st *rowStep, vt Token, p mem.Ptr) error {
	f := st.f
	if f == nil {
		return s.skip(vt)
	}
	fp := fieldPtr(pl.typ, p, &f.structField, true)
	had := s.err != nil
	if st.leaf1 {
		s.cell = st.leaf
	}
	err := f.plan.fn(s, f.plan, vt, fp)
	s.cell = -1
	if err != nil {
		return err
	}
	s.inField(had, f.name)
	return nil
}
