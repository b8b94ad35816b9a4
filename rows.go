package toon

// This file streams the elements of an array as Go values: RowDecoder and
// Rows. Their encoding counterpart, WriteRows, is in writerows.go.

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
// nothing but the strings it stores, which share one allocation per
// element (and, with the InternStrings option, nothing for strings seen
// before). A string kept from an element keeps that element's strings in
// memory, and no other's.
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
	return &RowDecoder[T]{s: decState{d: d, cell: -1, text: textStore{perRow: true}}, pl: decPlanOf(reflect.TypeFor[T]())}
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
	size := -1
	if r.s.text.sizeRows() {
		size = rowSize(r.rp, t, d.queue[d.qi:])
	}
	r.s.text.newRow(size)
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

// rowSize returns the bytes the strings of the element that starts with
// t take, when the rest of its tokens are in q, the decoder's queue, or
// -1: by rowText for a row decoded by row plan rp (nil for an element
// that is no table row), else by queuedText.
func rowSize(rp *rowPlan, t Token, q []Token) int {
	if rp != nil {
		if n := rowText(q, rp.ntok, rp.flat); n >= 0 {
			return n
		}
	}
	return queuedText(t, q)
}

// rowText is queuedText for a row of a table whose rows have ntok tokens
// after their ObjectStart (rowTokenCount), the last its ObjectEnd: when they
// are all in q, it adds up the lengths of the strings among them, with
// no need to follow the depth of nested field groups; in a row of a flat
// table (rowPlan.flat) the values are every other token, after their keys.
// It returns -1 when the row is not queued whole.
func rowText(q []Token, ntok int, flat bool) int {
	if !queuedWhole(q, 0, ntok) {
		return -1
	}
	n := 0
	if flat {
		vals := q[1 : ntok-1]
		for i := 0; i < len(vals); i += 2 {
			if t := &vals[i]; t.kind() == KindString {
				n += t.n
			}
		}
		return n
	}
	for _, t := range q[:ntok-1] {
		if t.kind() == KindString {
			n += t.n
		}
	}
	return n
}

// queuedWhole reports whether q, the decoder's queue, holds from q[at] on
// the whole of a table row, whose header gives it ntok tokens after its
// ObjectStart (which is q[at-1]), the last its ObjectEnd.
func queuedWhole(q []Token, at, ntok int) bool {
	return at+ntok <= len(q) && q[at+ntok-1].kind() == KindObjectEnd
}

// queuedText returns the bytes the strings of the element that starts
// with t take, when the rest of its tokens are in q, the decoder's queue
// (as a table's rows are, queued many at a time), or -1. A RowDecoder
// sizes the element's block of strings by it.
func queuedText(t Token, q []Token) int {
	switch t.kind() {
	case KindString:
		return t.n
	case KindObjectStart, KindArrayStart:
	default:
		return 0
	}
	n, depth := 0, 1
	for i := range q {
		switch q[i].kind() {
		case KindString:
			n += q[i].n
		case KindObjectStart, KindArrayStart:
			depth++
		case KindObjectEnd, KindArrayEnd:
			if depth--; depth == 0 {
				return n
			}
		}
	}
	return -1
}
