// Package sqltoon writes the result of a database/sql query as a TOON
// table, with an exact row count, in memory that does not grow with the
// result.
//
//	rows, err := db.QueryContext(ctx, "SELECT id, name, created FROM users")
//	if err != nil {
//		return err
//	}
//	defer rows.Close()
//	enc := toon.NewEncoder(w, toon.WithTableBudget(8<<20))
//	if err := sqltoon.WriteSQLRows(enc, "users", rows); err != nil {
//		return err
//	}
//	return enc.Close()
//
// It is a package of its own so that programs that do not query databases
// do not build database/sql.
package sqltoon

import (
	"database/sql"
	"encoding"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/toonstream/toon"
)

// Option configures WriteSQLRows.
type Option func(*config)

type config struct {
	text  bool // []byte values as text rather than base64
	count int  // the number of rows, if known; < 0 if not
}

// WithBytesAsText writes []byte values (BLOB, BYTEA, and the text columns
// of drivers that return text as bytes) as text instead of base64.
// Invalid UTF-8 in them is replaced by U+FFFD, as the encoder does for any
// string.
func WithBytesAsText(on bool) Option { return func(c *config) { c.text = on } }

// WithCount tells WriteSQLRows that the query returns n rows (from a
// COUNT(*) in the same transaction, say). The header is then written at
// once and every row goes straight to the output, with no spooling; a
// query that returns another number of rows is an error, after the rows
// it returned have been written.
func WithCount(n int) Option {
	return func(c *config) {
		if n >= 0 {
			c.count = n
		}
	}
}

// WriteSQLRows writes the rows of a query to enc as a table under key (a
// key of "" at the start of a document writes a root table; see
// toon.Encoder.BeginTable), its fields named by the query's columns. It
// reads rows to the end and does not close them.
//
// The row count must be written before the rows. Unless WithCount gives
// it, the table is written with a count not yet known: its rows wait in
// the encoder's memory up to its table budget (toon.WithTableBudget,
// default 64 MiB), then in a temporary file, and the header gets the real
// count when the rows end. Give the encoder a smaller budget to bound
// memory further.
//
// Values become cells as database/sql's drivers return them:
//
//   - NULL is null;
//   - integers, floats and booleans are numbers and booleans (NaN and the
//     infinities become null, as the encoder writes them); in a column
//     whose database type is BOOL or BOOLEAN, the integers 0 and 1 (as
//     SQLite and MySQL return booleans) are false and true;
//   - strings are strings; in a column whose database type is DECIMAL or
//     NUMERIC, a string (or []byte) in the number grammar is written as
//     that exact number;
//   - time.Time is text in RFC 3339 with nanoseconds, as time.Time's
//     MarshalText writes it;
//   - []byte is base64 (standard, padded) text, or the text itself with
//     WithBytesAsText;
//   - any other type is its MarshalText, or else its String method; a
//     value with neither is an error naming the column and the row.
//
// A failed scan and an error of the query (rows.Err) are returned with the
// number of the row (1-based) at which they happened. Nothing of the table
// has been written then, unless WithCount was given: the table is left
// open, and enc.Close or enc.Reset discards it.
func WriteSQLRows(enc *toon.Encoder, key string, rows *sql.Rows, opts ...Option) error {
	c := config{count: -1}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	names, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("sqltoon: %w", err)
	}
	if len(names) == 0 {
		return errors.New("sqltoon: the query returns no columns")
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return fmt.Errorf("sqltoon: %w", err)
	}
	kinds := make([]colKind, len(names))
	for j, t := range types {
		switch strings.ToUpper(t.DatabaseTypeName()) {
		case "DECIMAL", "NUMERIC":
			kinds[j] = colDecimal
		case "BOOL", "BOOLEAN":
			kinds[j] = colBool
		}
	}
	if err := enc.BeginTable(key, c.count, names...); err != nil {
		return fmt.Errorf("sqltoon: the columns of the query: %w", err)
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for j := range vals {
		ptrs[j] = &vals[j]
	}
	cells := make([]toon.Value, len(names))
	var scratch []byte // base64 and number text of the current row
	n := 0
	for rows.Next() {
		n++
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("sqltoon: row %d: %w", n, err)
		}
		scratch = scratch[:0]
		for j, v := range vals {
			var err error
			if cells[j], scratch, err = cell(v, kinds[j], c.text, scratch); err != nil {
				return fmt.Errorf("sqltoon: row %d, column %q: %w", n, names[j], err)
			}
		}
		if err := enc.WriteRow(cells...); err != nil {
			return fmt.Errorf("sqltoon: row %d: %w", n, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqltoon: row %d: %w", n+1, err)
	}
	if err := enc.EndTable(); err != nil {
		return fmt.Errorf("sqltoon: %w", err)
	}
	return nil
}

// colKind is what a column's database type says of its values.
type colKind uint8

const (
	colAny     colKind = iota
	colDecimal         // DECIMAL or NUMERIC: text in the number grammar is a number
	colBool            // BOOL or BOOLEAN: the integers 0 and 1 are false and true
)

// cell returns the cell of a scanned value. Text it makes (base64) is
// appended to scratch, which it returns; the cell refers to it, so scratch
// must not be reused before the row is written. (A cell may refer to an
// earlier array of scratch if appending moved it; that array stays as it
// was.)
func cell(v any, kind colKind, text bool, scratch []byte) (toon.Value, []byte, error) {
	decimal := kind == colDecimal
	switch x := v.(type) {
	case nil:
		return toon.Null(), scratch, nil
	case int64:
		if kind == colBool && (x == 0 || x == 1) {
			return toon.Bool(x == 1), scratch, nil
		}
		return toon.Int(x), scratch, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return toon.Null(), scratch, nil
		}
		return toon.Float(x), scratch, nil
	case bool:
		return toon.Bool(x), scratch, nil
	case string:
		if decimal && toon.Number(x).Valid() {
			return toon.NumberValue(toon.Number(x)), scratch, nil
		}
		return toon.String(x), scratch, nil
	case []byte:
		if decimal && toon.Number(x).Valid() {
			return toon.NumberValue(toon.Number(x)), scratch, nil
		}
		if text {
			return toon.Bytes(x), scratch, nil
		}
		lo := len(scratch)
		scratch = base64.StdEncoding.AppendEncode(scratch, x)
		return toon.Bytes(scratch[lo:]), scratch, nil
	case time.Time:
		lo := len(scratch)
		scratch = x.AppendFormat(scratch, time.RFC3339Nano)
		return toon.Bytes(scratch[lo:]), scratch, nil
	case int:
		return toon.Int(int64(x)), scratch, nil
	case int32:
		return toon.Int(int64(x)), scratch, nil
	case uint64:
		return toon.Uint(x), scratch, nil
	case float32:
		return cell(float64(x), kind, text, scratch)
	case *big.Int:
		return toon.NumberValue(toon.Number(x.String())), scratch, nil
	case encoding.TextMarshaler:
		b, err := x.MarshalText()
		if err != nil {
			return toon.Value{}, scratch, err
		}
		return toon.Bytes(b), scratch, nil
	case fmt.Stringer:
		return toon.String(x.String()), scratch, nil
	}
	return toon.Value{}, scratch, fmt.Errorf("values of type %T have no TOON form", v)
}
