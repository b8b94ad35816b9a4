package toon

// This file writes a sequence of Go structs as a table: WriteRows, through
// the Encoder's BeginTable, WriteRow and EndTable, with the cells of each
// row read from the struct through its encoding plan's leaves.

import (
	"iter"
	"reflect"

	"github.com/toonstream/toon/internal/mem"
)

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
		if err = e.rowValues(cells, leaves, p); err != nil {
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
		return Int(loadInt(p, pl.size)), nil
	case ekFloat64:
		return Float(mem.Load[float64](p)), nil
	case ekBool:
		return Bool(mem.Load[bool](p)), nil
	case ekUint:
		return Uint(loadUint(p, pl.size)), nil
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
	s, isNull, num, err := primText(pl, p)
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
