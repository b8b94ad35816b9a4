package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// kit is the typed side of a dataset: what needs its Go types as type
// parameters (toon's Rows and WriteRows, the peers' streaming decoders),
// behind an interface that the benchmarks call without knowing the types.
//
// The streaming readers read the root object's record array one record
// at a time into a reused value, zeroed before each record, as toon's Rows
// does, and read the document to its end. They return the number of
// records and, when asked to collect them, the records as a []T.
type kit interface {
	newDoc() any         // a pointer to a new zero document
	count(doc any) int   // the records of a document
	records(doc any) any // the document's record array as a []T, nil if it has none
	hasArray() bool      // whether the records are an array (Rows applies)
	hasCSV() bool        // whether records can be parsed from CSV records

	rowsTOON(data []byte, key string, collect bool) (int, any, error)
	rowsJSON(data []byte, key string, collect bool) (int, any, error)
	rowsJSONv2(data []byte, key string, collect bool) (int, any, error)
	rowsCSV(data []byte, comma rune, collect bool) (int, any, error)
	writeRows(w io.Writer, doc any, key string, opts []toon.Option) error
}

// recordKit is the kit of documents of type D whose records are of type T.
type recordKit[D, T any] struct {
	list    func(*D) []T // the record array; nil when the records are not an array
	size    func(*D) int // the number of records, when list is nil
	fromCSV func(v *T, c *csvCells)
}

func (k recordKit[D, T]) newDoc() any    { return new(D) }
func (k recordKit[D, T]) hasArray() bool { return k.list != nil }
func (k recordKit[D, T]) hasCSV() bool   { return k.fromCSV != nil }

func (k recordKit[D, T]) count(doc any) int {
	if k.list == nil {
		return k.size(doc.(*D))
	}
	return len(k.list(doc.(*D)))
}

func (k recordKit[D, T]) records(doc any) any {
	if k.list == nil {
		return nil
	}
	return k.list(doc.(*D))
}

var errNoArray = errors.New("bench: the records are not an array")

// rowsTOON reads the records with toon.Rows.
func (k recordKit[D, T]) rowsTOON(data []byte, key string, collect bool) (int, any, error) {
	if k.list == nil {
		return 0, nil, errNoArray
	}
	d := toon.NewDecoder(bytes.NewReader(data))
	if err := expectTOON(d, toon.KindObjectStart, ""); err != nil {
		return 0, nil, err
	}
	if err := expectTOON(d, toon.KindKey, key); err != nil {
		return 0, nil, err
	}
	var got []T
	n := 0
	for v, err := range toon.Rows[T](d) {
		if err != nil {
			return n, nil, err
		}
		if collect {
			got = append(got, v)
		}
		n++
	}
	if err := expectTOON(d, toon.KindObjectEnd, ""); err != nil {
		return n, nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return n, nil, fmt.Errorf("after the records: %v, want EOF", err)
	}
	return n, got, nil
}

// expectTOON reads a token of kind k (with text s, for a key).
func expectTOON(d *toon.Decoder, k toon.Kind, s string) error {
	t, err := d.Token()
	if err != nil {
		return err
	}
	if t.Kind() != k || (k == toon.KindKey && string(t.Bytes()) != s) {
		return fmt.Errorf("token %v %q, want %v %q", t.Kind(), t.Bytes(), k, s)
	}
	return nil
}

// rowsJSON reads the records with encoding/json's Decoder: Token up to
// the array, then Decode per element.
func (k recordKit[D, T]) rowsJSON(data []byte, key string, collect bool) (int, any, error) {
	if k.list == nil {
		return 0, nil, errNoArray
	}
	d := json.NewDecoder(bytes.NewReader(data))
	for _, want := range []any{json.Delim('{'), key, json.Delim('[')} {
		if t, err := d.Token(); err != nil || t != want {
			return 0, nil, fmt.Errorf("token %v (%v), want %v", t, err, want)
		}
	}
	var got []T
	var v, zero T
	n := 0
	for d.More() {
		v = zero
		if err := d.Decode(&v); err != nil {
			return n, nil, err
		}
		if collect {
			got = append(got, v)
		}
		n++
	}
	for _, want := range []any{json.Delim(']'), json.Delim('}')} {
		if t, err := d.Token(); err != nil || t != want {
			return n, nil, fmt.Errorf("token %v (%v), want %v", t, err, want)
		}
	}
	if _, err := d.Token(); err != io.EOF {
		return n, nil, fmt.Errorf("after the records: %v, want EOF", err)
	}
	return n, got, nil
}

// rowsJSONv2 reads the records with a jsontext.Decoder: ReadToken up to
// the array, then json v2's UnmarshalDecode per element.
func (k recordKit[D, T]) rowsJSONv2(data []byte, key string, collect bool) (int, any, error) {
	if k.list == nil {
		return 0, nil, errNoArray
	}
	d := jsontext.NewDecoder(bytes.NewReader(data))
	for _, want := range []string{"{", key, "["} {
		if t, err := d.ReadToken(); err != nil || t.String() != want {
			return 0, nil, fmt.Errorf("token %v (%v), want %v", t, err, want)
		}
	}
	var got []T
	var v, zero T
	n := 0
	for d.PeekKind() != ']' {
		v = zero
		if err := jsonv2.UnmarshalDecode(d, &v); err != nil {
			return n, nil, err
		}
		if collect {
			got = append(got, v)
		}
		n++
	}
	for _, want := range []string{"]", "}"} {
		if t, err := d.ReadToken(); err != nil || t.String() != want {
			return n, nil, fmt.Errorf("token %v (%v), want %v", t, err, want)
		}
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return n, nil, fmt.Errorf("after the records: %v, want EOF", err)
	}
	return n, got, nil
}

// rowsCSV reads the records from CSV with encoding/csv's Reader
// (ReuseRecord) and parses each record's fields into a reused value with
// strconv and time.Parse, as a program reading typed rows from CSV does.
func (k recordKit[D, T]) rowsCSV(data []byte, comma rune, collect bool) (int, any, error) {
	if k.fromCSV == nil {
		return 0, nil, errors.New("bench: no CSV form")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = true
	r.Comma = comma
	if _, err := r.Read(); err != nil { // the header
		return 0, nil, err
	}
	var got []T
	var v, zero T
	n := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return n, got, nil
		}
		if err != nil {
			return n, nil, err
		}
		v = zero
		c := csvCells{rec: rec}
		k.fromCSV(&v, &c)
		if c.err == nil && c.i != len(rec) {
			c.err = fmt.Errorf("%d of %d fields parsed", c.i, len(rec))
		}
		if c.err != nil {
			return n, nil, fmt.Errorf("CSV record %d: %w", n+1, c.err)
		}
		if collect {
			got = append(got, v)
		}
		n++
	}
}

// writeRows writes the record array as the root object's only field with
// toon.WriteRows.
func (k recordKit[D, T]) writeRows(w io.Writer, doc any, key string, opts []toon.Option) error {
	if k.list == nil {
		return errNoArray
	}
	e := toon.NewEncoder(w, opts...)
	recs := k.list(doc.(*D))
	if err := toon.WriteRows(e, key, len(recs), slices.Values(recs)); err != nil {
		return err
	}
	return e.Close()
}

// csvCells hands out the fields of a CSV record in order, parsed; the
// first error is kept.
type csvCells struct {
	rec []string
	i   int
	err error
}

func (c *csvCells) str() string {
	if c.i >= len(c.rec) {
		c.fail(errors.New("record too short"))
		return ""
	}
	s := c.rec[c.i]
	c.i++
	return s
}

func (c *csvCells) fail(err error) {
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("field %d: %w", c.i, err)
	}
}

func (c *csvCells) int() int {
	v, err := strconv.Atoi(c.str())
	c.fail(err)
	return v
}

func (c *csvCells) int64() int64 {
	v, err := strconv.ParseInt(c.str(), 10, 64)
	c.fail(err)
	return v
}

func (c *csvCells) float() float64 {
	v, err := strconv.ParseFloat(c.str(), 64)
	c.fail(err)
	return v
}

// optFloat is a nullable number: the empty field is null.
func (c *csvCells) optFloat() *float64 {
	s := c.str()
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	c.fail(err)
	return &v
}

func (c *csvCells) bool() bool {
	v, err := strconv.ParseBool(c.str())
	c.fail(err)
	return v
}

func (c *csvCells) time() time.Time {
	v, err := time.Parse(time.RFC3339, c.str())
	c.fail(err)
	return v
}
