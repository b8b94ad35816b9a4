package toon

// This file streams the rows of a table as Go values: RowDecoder and Rows
// on the decoding side, WriteRows on the encoding side.

import (
	"io"
	"iter"
	"reflect"

	"github.com/toonstream/toon/internal/mem"
)

// A RowDecoder reads the elements of one array from a Decoder as values of
// type T, one at a time, so that a table of any length is processed in
// constant memory. Rows of a tabular array decoded into a struct cost no
// key lookups and no reflection; decoding into a reused value allocates
// nothing but the strings it stores (and, with the InternStrings option,
// nothing for strings seen before).
//
// Positioning: the first call to Next reads the next token of the Decoder,
// which must start an array (of any form: tabular, list or inline). To read
// a table that is the value of a field, read tokens from the Decoder up to
// and including the field's Key first. After the array's end, Next returns
// io.EOF and the Decoder is positioned after the array, so reading can go
// on with the rest of the document.
type RowDecoder[T any] struct {
	s     decState
	pl    *decPlan
	rp    *rowPlan
	state uint8 // rowsStart, rowsIn or rowsDone
	err   error // sticky: syntax, reader and positioning errors
}

const (
	rowsStart uint8 = iota
	rowsIn
	rowsDone
)

// NewRowDecoder returns a RowDecoder for the array that starts with the
// next token of d.
func NewRowDecoder[T any](d *Decoder) *RowDecoder[T] {
	return &RowDecoder[T]{s: decState{d: d, cell: -1}, pl: decPlanOf(reflect.TypeFor[T]())}
}

// Next decodes the next element of the array into *v, which it zeroes
// first, with the rules of Decoder.Decode. It returns io.EOF after the last
// element. When it returns another error without an element (a count
// error at the array's end, a syntax error), *v is left zero.
//
// An element that does not fit T is reported as an *UnmarshalTypeError (or
// an *UnknownFieldError with DisallowUnknownFields) with its line and
// column; *v holds what could be decoded, the element is consumed, and the
// next call goes on with the next element. Syntax errors, reader errors
// and a next token that does not start an array are sticky: every later
// call returns them.
func (r *RowDecoder[T]) Next(v *T) error {
	var zero T
	*v = zero
	if r.err != nil {
		return r.err
	}
	d := r.s.d
	switch r.state {
	case rowsStart:
		t, err := d.Token()
		if err != nil {
			r.err = unexpectedEOF(err)
			return r.err
		}
		if t.kind() != KindArrayStart {
			line, col := r.s.pos(t)
			r.err = &UnmarshalTypeError{Value: describeToken(t), Type: "[]" + r.pl.typ.String(), Line: line, Column: col,
				Err: errNotArray}
			return r.err
		}
		if t.Form() == FormTabular && isStructPlan(r.pl) {
			r.rp = r.s.rowPlan(r.pl, t)
		}
		r.state = rowsIn
	case rowsDone:
		return r.pending(io.EOF)
	}
	t, err := d.Token()
	if err != nil {
		r.err = unexpectedEOF(err)
		return r.err
	}
	if t.kind() == KindArrayEnd {
		r.state = rowsDone
		if err := d.pendingErr(); err != nil {
			r.err = err // a count error of this array, say
			return err
		}
		return r.pending(io.EOF)
	}
	p := mem.Of(v)
	if r.rp != nil {
		err = r.s.decodeRow(r.rp, t, p)
	} else {
		err = r.pl.fn(&r.s, r.pl, t, p)
	}
	if err != nil {
		r.err = err
		return err
	}
	return r.pending(nil)
}

// pending returns the mismatch recorded while decoding the element (or the
// header), if any, and clears it; else err.
func (r *RowDecoder[T]) pending(err error) error {
	if r.s.err != nil {
		err, r.s.err = r.s.err, nil
	}
	return err
}

// pendingErr returns the error, other than io.EOF, that the decoder met
// while reading beyond the last token it returned: the count error of an
// array whose end it just returned is found with the line that follows the
// array, or at the end of the input.
func (d *Decoder) pendingErr() error {
	if d.err != nil && d.err != io.EOF {
		return d.err
	}
	return nil
}

// Rows returns an iterator over the elements of the array that starts with
// the next token of d, decoded as values of type T: see RowDecoder for the
// positioning and the cost per row. Each element is yielded with a nil
// error, or with the error that its decoding met; after a mismatch
// (*UnmarshalTypeError) iteration goes on with the next element, after any
// other error it stops. The iteration stops without an error at the end of
// the array, leaving d positioned after it.
func Rows[T any](d *Decoder) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		r := NewRowDecoder[T](d)
		var v T
		for {
			err := r.Next(&v)
			if err == io.EOF {
				return
			}
			if !yield(v, err) || r.err != nil {
				return
			}
		}
	}
}

// WriteRows writes the values of rows as a tabular array (§9.3) through
// e's BeginTable, WriteRow and EndTable: the field key of the object being
// written, or the whole document when key is "" at its start (see
// BeginTable). n is the number of rows if known, else -1, in which case
// the rows are held in a bounded buffer and then a temporary file until
// the count is known (WithTableBudget). Memory stays constant whatever the
// number of rows.
//
// T must be a struct, or a pointer to one, whose fields are primitive
// (strings, numbers, booleans, and the types that encode as primitives:
// pointers to them, time.Time, []byte, Number, *big.Int, TextMarshalers)
// or structs (not pointers to them) whose fields are so in turn. Its
// fields are the columns, in field order, named as Marshal names them; a
// struct field is a nested field group (§9.3) whose leaves are cells in
// the row, depth first. omitempty does not apply to cells. A nil pointer
// in rows is an error.
//
// For a non-empty table of a struct without omitempty or omitzero fields,
// the text is what Marshal writes for the equivalent slice; an empty one
// is written `key[0]{fields}:`, where Marshal writes `key: []`.
func WriteRows[T any](e *Encoder, key string, n int, rows iter.Seq[T]) error {
	t := reflect.TypeFor[T]()
	pl := encPlanOf(t)
	ptr := false
	if pl.kind == ekPtr {
		pl, ptr = pl.elem, true
	}
	if pl.kind != ekStruct || len(pl.fields) == 0 {
		return errWriteRows(t.String() + ", which is not a struct with fields")
	}
	leaves := pl.leaves // a static object's leaves are those of its plan
	if pl.shape != shapeObj {
		var err error
		if leaves, err = rowLeaves(pl, 0, nil); err != nil {
			return errWriteRows(t.String() + ": " + err.Error())
		}
	}
	if err := e.tableFree("WriteRows"); err != nil {
		return err
	}
	if err := e.beginTable(key, n, len(leaves), nil, pl); err != nil {
		return err
	}
	cells := make([]Value, len(leaves))
	setLeafKinds(cells, leaves)
	var err error
	var cur T // one variable for every row: taking its address costs nothing per row
	for row := range rows {
		cur = row
		p := mem.Of(&cur)
		if ptr {
			p = mem.Load[mem.Ptr](p)
			if p.IsNil() {
				err = errWriteRows("a nil " + t.String())
				break
			}
		}
		if err = e.rowValues(cells, leaves, p.Unsafe()); err != nil {
			break
		}
		if err = e.WriteRow(cells...); err != nil {
			break
		}
	}
	if err != nil {
		e.dropTable()
		return e.fail(err)
	}
	return e.EndTable()
}

// rowLeaves appends to out the leaves of the row struct of plan pl at
// offset off: its primitive fields, and depth first those of its struct
// fields, which are nested field groups. Unlike a static object's leaves,
// they ignore omitempty and omitzero, which do not apply to cells.
func rowLeaves(pl *encPlan, off uintptr, out []encLeaf) ([]encLeaf, error) {
	if a, b, ok := repeatedName(len(pl.fields), func(i int) string { return pl.fields[i].name }); ok {
		if a != b {
			return nil, errKeysAlike(a, b, writtenKey(b))
		}
		return nil, errRepeatedField(b)
	}
	for i := range pl.fields {
		f := &pl.fields[i]
		var err error
		switch {
		case !f.direct:
			return nil, errRowField(f.name, "is reached through an embedded pointer")
		case f.plan.shape == shapePrim:
			out = append(out, newLeaf(off+f.off, f.plan))
		case isRowGroup(f.plan):
			if out, err = rowLeaves(f.plan, off+f.off, out); err != nil {
				return nil, err
			}
		default:
			return nil, errRowField(f.name, "is neither a primitive nor a struct of them")
		}
	}
	return out, nil
}

// isRowGroup reports whether a field of plan pl is a nested field group
// of a row: a struct with fields, encoded as an object.
func isRowGroup(pl *encPlan) bool {
	return pl.kind == ekStruct && len(pl.fields) > 0 && !pl.building
}

// cellValue returns the primitive at p, of a plan whose shape is
// shapePrim, as a Value.
func cellValue(pl *encPlan, p mem.Ptr) (Value, error) {
	switch pl.kind {
	case ekString:
		return String(mem.Load[string](p)), nil
	case ekInt:
		return Int(loadInt(p.Unsafe(), pl.size)), nil
	case ekFloat64:
		return Float(mem.Load[float64](p)), nil
	case ekBool:
		return Bool(mem.Load[bool](p)), nil
	case ekUint:
		return Uint(loadUint(p.Unsafe(), pl.size)), nil
	case ekFloat32:
		return Float32(mem.Load[float32](p)), nil
	case ekNumber:
		return NumberValue(Number(mem.Load[string](p))), nil
	case ekValue:
		return mem.Load[Value](p), nil
	case ekPtr:
		q := mem.Load[mem.Ptr](p)
		if q.IsNil() {
			return Null(), nil
		}
		return cellValue(pl.elem, q)
	}
	s, isNull, num, err := primText(pl, p.Unsafe())
	switch {
	case err != nil:
		return Value{}, err
	case isNull:
		return Null(), nil
	case num:
		return NumberValue(Number(s)), nil
	}
	return String(s), nil
}
