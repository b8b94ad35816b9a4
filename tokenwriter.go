package toon

// The token writer: WriteToken lays a document out token by token, in the
// forms its start tokens declare, checking that the tokens fit them.

import (
	"errors"
	"strconv"

	"github.com/toonstream/toon/internal/mem"
)

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
// entry value must consist of, compiled from the header's field list by
// walkFields (header.go). stepKey wants a Key token naming the field,
// stepCell a primitive, stepGroup the ObjectStart of a nested field group,
// stepGroupEnd the ObjectEnd of a group or of the row.
type progOp struct {
	op     fieldStep
	lo, hi int32 // stepKey: the field name, Encoder.arena[lo:hi]
}

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
		return encodeErr(ErrDepth, "tokens nested deeper than "+strconv.Itoa(e.opts.maxDepth)+" levels")
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
	e.b, bad = appendKeyR(e.b, mem.String(k))
	w := k
	if bad || f.replaced {
		f.replaced = true
		w = []byte(writtenKey(string(k)))
	}
	// keySet.add, with its common case, addNew, without a call (addWords
	// takes a set that has become a table).
	ks, kw := &e.tkeys.s[len(e.stack)-1], keyWordsOf(w)
	if ks.addNew(len(w), kw) || ks.addWords(w, kw) {
		return nil
	}
	e.b = e.b[:start]
	if len(w) == len(k) && string(w) == string(k) {
		return encodeErr(ErrDuplicateKey, "duplicate key "+strconv.Quote(string(k))+" in an object")
	}
	return encodeErr(ErrDuplicateKey, "key "+strconv.Quote(string(k))+" is written as "+strconv.Quote(string(w))+
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
				e.emptyItem(f.depth - 1)
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
		e.itemLead(f.depth - 1)
		f.hyphen = false
		return
	}
	e.line(f.depth)
}

// rowToken takes the next token of a tabular row or keyed entry value.
func (e *Encoder) rowToken(f *wframe, t Token) error {
	op := e.prog[f.pc]
	switch op.op {
	case stepKey:
		if t.Kind() != KindKey || string(t.Bytes()) != string(e.arena[op.lo:op.hi]) {
			if t.Kind() == KindKey {
				return misuse(ErrPlacement, "row key "+strconv.Quote(string(t.Bytes()))+" where the header has field "+strconv.Quote(string(e.arena[op.lo:op.hi])))
			}
			return tokenErr("in a row, where the key "+strconv.Quote(string(e.arena[op.lo:op.hi]))+" belongs", t)
		}
	case stepCell:
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
	case stepGroup:
		if t.Kind() != KindObjectStart || t.Form() != FormNone {
			return tokenErr("in a row, where the object of a nested field group belongs", t)
		}
	case stepGroupEnd:
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
	return 0, encodeErr(ErrInvalidToken, "invalid delimiter "+strconv.QuoteRune(rune(t.Delim())))
}

// compile compiles a header's field list into the row program and checks
// it: every group non-empty, no name repeated within a group. A list the
// same as the one compiled last (the same names, in the same groups), as
// the table of each record of a list often has, keeps its program, which
// was checked then, and its header's fields segment (tableHeader).
func (e *Encoder) compile(fs []Field) error {
	if e.compiled(fs) {
		return nil
	}
	e.prog = e.prog[:0]
	e.arena = e.arena[:0]
	e.seg = e.seg[:0]
	// An error leaves part of a program, which no list is compared with:
	// the error is sticky.
	if err := e.checkGroup(fs, 0); err != nil {
		return err
	}
	err := walkFields(fs, 0, func(s fieldStep, f *Field, depth int) error {
		switch s {
		case stepKey:
			lo := len(e.arena)
			e.arena = append(e.arena, f.Name...)
			e.prog = append(e.prog, progOp{op: stepKey, lo: int32(lo), hi: int32(len(e.arena))})
			return nil
		case stepGroup:
			if err := e.checkGroup(f.Fields, depth+1); err != nil {
				return err
			}
		}
		e.prog = append(e.prog, progOp{op: s})
		return nil
	})
	if err != nil {
		return err
	}
	e.prog = append(e.prog, progOp{op: stepGroupEnd})
	return nil
}

// compiled reports whether e.prog is the program of fs: walking fs takes
// the steps of e.prog, with the same names, up to its last (the end of
// the outermost group).
func (e *Encoder) compiled(fs []Field) bool {
	if len(e.prog) == 0 {
		return false
	}
	i := 0
	err := walkFields(fs, 0, func(s fieldStep, f *Field, _ int) error {
		if i >= len(e.prog)-1 || e.prog[i].op != s ||
			s == stepKey && string(e.arena[e.prog[i].lo:e.prog[i].hi]) != string(f.Name) {
			return errNotCompiled
		}
		i++
		return nil
	})
	return err == nil && i == len(e.prog)-1
}

// errNotCompiled stops compiled's walk at the first step that differs.
var errNotCompiled = errors.New("not the compiled field list")

// tableHeader appends the header of a table (keyed false) or keyed object
// of n rows or entries whose field list, fs, e.prog was compiled from, as
// appendTableHeader does; its fields segment is made once for each list
// compile compiles and each delimiter d, and kept in e.seg.
func (e *Encoder) tableHeader(n int, keyed bool, fs []Field, d Delimiter) {
	if len(e.seg) == 0 || e.segD != d {
		e.seg = appendFieldSeg(e.seg[:0], tokenFields(fs), d)
		e.segD = d
	}
	e.b = append(append(appendBracket(e.b, n, keyed, d), e.seg...), ':')
}

// checkGroup checks one group of a header's field list, at nesting level
// level: not empty, not too deep, no name repeated.
func (e *Encoder) checkGroup(fs []Field, level int) error {
	if len(fs) == 0 {
		return encodeErr(ErrInvalidToken, "empty field list in a tabular header")
	}
	if level > e.opts.maxDepth {
		return encodeErr(ErrDepth, "field groups nested too deep")
	}
	// The names as strings that view the token's bytes: no copies.
	name := func(i int) string { return mem.String(fs[i].Name) }
	if a, b, ok := repeatedName(len(fs), name); ok {
		if a != b {
			return errKeysAlike(a, b, writtenKey(b))
		}
		return encodeErr(ErrDuplicateKey, "repeated field "+strconv.Quote(b)+" in a tabular header")
	}
	return nil
}

// tokenValue writes the value token t at place p: at the root, after a key
// written at depth d, or as a list item at depth d whose array's quoting
// mask is mask.
func (e *Encoder) tokenValue(t Token, p place, d int, mask uint8) error {
	k := t.Kind()
	if isPrimKind(k) {
		e.primLead(p, d)
		if p == atRoot {
			e.done = true
		}
		var err error
		e.b, err = appendPrimToken(e.b, t, mask)
		return err
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
				return misuse(ErrPlacement, "a keyed object cannot be a list item (§10)")
			}
			if t.Len() < 0 {
				return encodeErr(ErrInvalidToken, "keyed object with negative entry count")
			}
			delim, err := e.tokenDelim(t)
			if err != nil {
				return err
			}
			if err := e.compile(t.Fields()); err != nil {
				return err
			}
			child := e.arrayLead(p, d)
			e.tableHeader(t.Len(), true, t.Fields(), delim)
			return e.push(wframe{kind: wKeyed, delim: delim, mask: quoteMask(delim), depth: child, n: t.Len(), pc: -1})
		}
		return encodeErr(ErrInvalidToken, "ObjectStart token of form "+t.Form().String())
	case KindArrayStart:
		n := t.Len()
		if n < 0 {
			return encodeErr(ErrInvalidToken, "ArrayStart token with negative length")
		}
		delim, err := e.tokenDelim(t)
		if err != nil {
			return err
		}
		form := t.Form()
		if t.Fields() != nil && form != FormTabular {
			return encodeErr(ErrInvalidToken, "ArrayStart token of form "+form.String()+" with a field list")
		}
		switch form {
		case FormEmpty, FormInline, FormList:
		case FormTabular:
			if p == atItem {
				return misuse(ErrPlacement, "a tabular array cannot be a list item (§9.4)")
			}
			if err := e.compile(t.Fields()); err != nil {
				return err
			}
		default:
			return encodeErr(ErrInvalidToken, "ArrayStart token of form "+form.String())
		}
		if form == FormEmpty && n != 0 {
			return encodeErr(ErrInvalidToken, "ArrayStart token of form empty with length "+strconv.Itoa(n))
		}
		child := e.arrayLead(p, d)
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
			e.tableHeader(n, false, t.Fields(), delim)
			f.kind = wTabular
		}
		return e.push(f)
	}
	return tokenErr("where a value belongs", t)
}
