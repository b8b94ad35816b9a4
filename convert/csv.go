package convert

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/toonstream/toon"
)

// FromCSV reads CSV (RFC 4180, as encoding/csv reads it) from r and writes
// it to w as a TOON root table: the first record names the fields, every
// other record is a row, and the header's [N] is the number of rows.
//
// A cell becomes what a TOON decoder makes of its text written unquoted
// (§4): true, false and null become those literals, text in the number
// grammar (42, -1.5, 1e-7; not 05, +1, .5 or 1.) becomes that number,
// written in canonical form (1.50 is 1.5, 1e3 is 1000), and anything else,
// the empty cell included, a string. WithCSVStrings(true) keeps every cell
// a string. Cells are typed by their exact text: " 42" is a string.
//
// Records are read as encoding/csv reads them with a Comma of
// WithCSVDelimiter (default ','): quoted fields may hold the delimiter,
// quotes (doubled) and line breaks; CRLF ends a line as LF does; empty lines
// are skipped; every record must have as many fields as the header, and
// the header's names must differ. A UTF-8 byte order mark at the start of
// the input is ignored. An input without records gives the empty array,
// "[]". The TOON side takes WithDelimiter and WithIndent.
//
// The row count must be written before the rows, so r is read twice: if r
// is an io.Seeker whose Seek works (a regular file) it is read in place,
// otherwise it is first copied to a temporary file (WithTempDir). The first
// pass checks every record, so a malformed one is reported before
// anything is written to w: as a *csv.ParseError with its line and column
// (a record of the wrong width is csv.ErrFieldCount, with both widths in
// the message). A record longer than WithMaxRecordSize is an error too.
func FromCSV(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	if !validCSVComma(c.csvComma) {
		return errCSVDelimiter(c.csvComma)
	}
	src, err := seekable(r, c.tempDir)
	if err != nil {
		return err
	}
	defer src.close()

	// The first pass: the header, and the records counted and checked.
	cr := newCSVReader(src.reader(), c.csvComma, c.maxRecord, c.bufSize)
	names, bom, err := csvHeader(cr)
	if err != nil {
		return csvError(err, cr, bom)
	}
	rows := 0
	for {
		ok, err := cr.next(true)
		if err != nil {
			return csvError(err, cr, bom)
		}
		if !ok {
			break
		}
		rows++
	}

	if err := src.rewind(); err != nil {
		return err
	}
	enc := toon.NewEncoder(w, toon.WithIndent(c.indent), toon.WithDelimiter(c.delim))
	if names == nil {
		if err := enc.Encode([]any{}); err != nil {
			return err
		}
		return enc.Close()
	}
	cr = newCSVReader(src.reader(), c.csvComma, c.maxRecord, c.bufSize)
	if _, _, err := csvHeader(cr); err != nil {
		return errChanged(err)
	}
	if err := enc.BeginTable("", rows, names...); err != nil {
		return err
	}
	// As in FromJSON's second pass, a large table's rows are written by
	// a rowWriter on a goroutine of its own while the next are read.
	var rw *rowWriter
	if rows >= pipeMinRows && c.pipeline() {
		rw = newRowWriter(enc)
		defer rw.stop()
		rw.w = len(names)
		rw.vals = make([]toon.Value, len(names))
		str := c.csvStrings
		rw.cells = func(b *batch, r int, vals []toon.Value) {
			ends := b.ends[r*len(vals) : (r+1)*len(vals)]
			lo := 0
			if r > 0 {
				lo = int(b.ends[r*len(vals)-1]) + 1
			}
			for j, e := range ends {
				vals[j] = csvCell(b.data[lo:e], str)
				lo = int(e) + 1
			}
		}
	}
	vals := make([]toon.Value, len(names))
	for {
		ok, err := cr.next(false)
		if err != nil {
			if rw != nil {
				rw.sync()
			}
			return errChanged(err)
		}
		if !ok {
			break
		}
		if rw != nil {
			rw.addCSV(cr)
			continue
		}
		rec, bounds := cr.rec, cr.bounds[:2*len(vals)]
		for j := range vals {
			vals[j] = csvCell(rec[bounds[2*j]:bounds[2*j+1]], c.csvStrings)
		}
		if err := enc.WriteRow(vals...); err != nil {
			return errChangedIf(err)
		}
	}
	if rw != nil {
		if err := rw.sync(); err != nil {
			return errChangedIf(err)
		}
	}
	if err := enc.EndTable(); err != nil {
		return errChangedIf(err)
	}
	return enc.Close()
}

// errChangedIf explains a row count or width that differs from the first
// pass's; other errors (the writer's) are returned as they are.
func errChangedIf(err error) error {
	if errors.Is(err, toon.ErrCount) || errors.Is(err, toon.ErrWidth) {
		return errChanged(err)
	}
	return err
}

// csvHeader reads the header record and returns its names, nil for an
// input without records, and whether the input starts with a byte order
// mark (which it skips).
func csvHeader(cr *csvReader) ([]string, bool, error) {
	bom := false
	for len(cr.buf) < len(utf8BOM) && !cr.eof {
		if _, err := cr.fill(0); err != nil {
			return nil, false, err
		}
	}
	if string(cr.buf[:min(len(cr.buf), len(utf8BOM))]) == utf8BOM {
		cr.i, bom = len(utf8BOM), true
	}
	ok, err := cr.next(false)
	if err != nil || !ok {
		return nil, bom, err
	}
	names := make([]string, cr.n)
	seen := make(map[string]int, len(names))
	for j := range names {
		names[j] = string(cr.field(j))
		if k, dup := seen[names[j]]; dup {
			return nil, bom, errors.New("csv: line " + strconv.Itoa(cr.recLine) + ": the header names field " + strconv.Quote(names[j]) + " twice (columns " + strconv.Itoa(k+1) + " and " + strconv.Itoa(j+1) + ")")
		}
		seen[names[j]] = j
	}
	return names, bom, nil
}

// csvError completes an error of the first pass: a record of the wrong
// width gets both widths in its message, and columns on the first line
// count the byte order mark.
func csvError(err error, cr *csvReader, bom bool) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if bom && pe.Line == 1 {
		pe.Column += len(utf8BOM)
	}
	if pe.Err == csv.ErrFieldCount {
		return &csvWidthError{pe: pe, got: cr.n, want: cr.width}
	}
	return pe
}

// addCSV copies the record cr has read into the current batch, each field
// followed by a separator byte, with the ends of its fields, and hands the
// batch over when it is full. rw.cells types its cells.
func (rw *rowWriter) addCSV(cr *csvReader) {
	b := rw.batch()
	shift := len(b.data)
	if cr.inQuotes {
		// The fields lie back to back in the scratch buffer: copied one by
		// one, with a separator after each.
		for j := 0; j < cr.n; j++ {
			b.data = append(b.data, cr.field(j)...)
			b.ends = append(b.ends, int32(len(b.data)))
			b.data = append(b.data, ',')
		}
	} else {
		// The line has its delimiter after every field but the last.
		b.data = append(b.data, cr.rec...)
		b.data = append(b.data, ',')
		for j := 1; j < 2*cr.n; j += 2 {
			b.ends = append(b.ends, int32(shift+cr.bounds[j]))
		}
	}
	rw.handOver(cr.n)
}

// csvCell returns the value of a cell: the literal or number its text is
// in TOON (§4), else a string, or always a string if str is set.
func csvCell(b []byte, str bool) toon.Value {
	if str || len(b) == 0 {
		return toon.Bytes(b)
	}
	switch c := b[0]; {
	case c == 't':
		if string(b) == "true" {
			return toon.Bool(true)
		}
	case c == 'f':
		if string(b) == "false" {
			return toon.Bool(false)
		}
	case c == 'n':
		if string(b) == "null" {
			return toon.Null()
		}
	case c == '-' || c-'0' < 10:
		if isJSONNumber(b) {
			return numberValue(b)
		}
	}
	return toon.Bytes(b)
}

// isJSONNumber reports whether b is in the number grammar of §4, which,
// forbidden leading zeros included, is JSON's. Plain integers and
// decimals, most numbers, take the loop here; the rest validNumber.
func isJSONNumber(b []byte) bool {
	s := b
	if s[0] == '-' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i]-'0' < 10 {
		i++
	}
	if i == 0 || s[0] == '0' && i > 1 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j]-'0' < 10 {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i == len(s) {
		return true
	}
	if s[i]|0x20 != 'e' {
		return false
	}
	_, ok := validNumber(b)
	return ok
}

// ToCSV reads a TOON document from r whose root is a table (or an object
// whose only member is a table) and writes it to w as CSV: the header's
// field names, then a record per row. The table must be flat: a field
// that holds a nested object is an error naming it. Cells are written as
// encoding/csv's Writer writes them, with WithCSVDelimiter's delimiter
// (default ','): strings as they are, quoted when they hold the delimiter,
// a quote, a line break or start with a space; numbers in their canonical
// TOON text; true and false; null as an empty field. (A record of one empty
// field is written "", which a reader does not take for an empty line.)
//
// An empty array writes nothing. The document is decoded in strict mode;
// the options that apply are WithIndent and WithMaxDepth. As with ToJSON,
// the records converted before an error in the input have been written.
func ToCSV(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	if !validCSVComma(c.csvComma) {
		return errCSVDelimiter(c.csvComma)
	}
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithMaxDepth(c.maxDepth))
	cw := &csvWriter{w: w, comma: c.csvComma, buf: make([]byte, 0, csvBufSize)}
	err := writeCSV(cw, dec)
	if err == nil {
		err = cw.flush()
	} else {
		cw.flush()
	}
	return err
}

func writeCSV(cw *csvWriter, dec *toon.Decoder) error {
	t, inObject, err := rootArray(dec)
	if err != nil {
		return err
	}
	switch {
	case t.Len() == 0 && t.Form() != toon.FormTabular: // [] or [0]:
	case t.Form() == toon.FormTabular:
		fields := t.Fields()
		for _, f := range fields {
			if f.Fields != nil {
				return errors.New("convert: line " + strconv.Itoa(dec.Line()) + ": field " + strconv.Quote(string(f.Name)) + " of the table holds objects (a nested field group); CSV holds flat tables only")
			}
		}
		cw.one = len(fields) == 1
		for j, f := range fields {
			cw.field(j, f.Name)
		}
		cw.end()
		if err := csvRows(cw, dec, len(fields)); err != nil {
			return err
		}
	default:
		return errors.New("convert: line " + strconv.Itoa(dec.Line()) + ": the array is not a table (its elements are not uniform objects of primitives); CSV holds tables only")
	}
	if t.Form() != toon.FormTabular {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if t.Kind() != toon.KindArrayEnd {
			return errors.New("convert: unexpected " + t.Kind().String() + " in an empty array")
		}
	}
	return endRoot(dec, inObject)
}

// csvRows writes the rows of a table of width fields, up to its end.
func csvRows(cw *csvWriter, dec *toon.Decoder, width int) error {
	for {
		row := dec.Row()
		if row == nil {
			t, err := dec.Token()
			if err != nil {
				return err
			}
			if t.Kind() == toon.KindArrayEnd {
				return nil
			}
			// A row token by token: ObjectStart, then key and value
			// pairs, then ObjectEnd.
			for j := 0; ; j++ {
				if _, err := dec.Token(); err != nil { // the key, or ObjectEnd
					return err
				}
				if j == width {
					break
				}
				v, err := dec.Token()
				if err != nil {
					return err
				}
				cw.cell(j, v)
			}
		} else {
			for j := 0; 2*j+2 < len(row); j++ {
				cw.cell(j, row[2*j+2])
			}
		}
		cw.end()
		if cw.err != nil {
			return cw.err
		}
	}
}

// csvWriter writes CSV records as encoding/csv's Writer does, into a
// buffer flushed when full.
type csvWriter struct {
	w     io.Writer
	buf   []byte
	comma byte
	one   bool // records have one field
	err   error
}

// cell writes the primitive t as field j of the record.
func (cw *csvWriter) cell(j int, t toon.Token) {
	switch t.Kind() {
	case toon.KindString, toon.KindNumber:
		cw.field(j, t.Bytes())
	case toon.KindBool:
		if t.Bool() {
			cw.field(j, litTrue)
		} else {
			cw.field(j, litFalse)
		}
	default:
		cw.field(j, nil)
	}
}

// field writes s as field j of the record.
func (cw *csvWriter) field(j int, s []byte) {
	if j > 0 {
		cw.buf = append(cw.buf, cw.comma)
	}
	if len(s) == 0 && cw.one {
		cw.buf = append(cw.buf, '"', '"')
		return
	}
	if !cw.needsQuotes(s) {
		cw.buf = append(cw.buf, s...)
		return
	}
	cw.buf = append(cw.buf, '"')
	for {
		i := 0
		for i < len(s) && s[i] != '"' {
			i++
		}
		cw.buf = append(cw.buf, s[:i]...)
		if i == len(s) {
			break
		}
		cw.buf = append(cw.buf, '"', '"')
		s = s[i+1:]
	}
	cw.buf = append(cw.buf, '"')
}

// needsQuotes is encoding/csv's fieldNeedsQuotes for a one-byte comma.
func (cw *csvWriter) needsQuotes(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	if string(s) == `\.` {
		return true
	}
	for _, c := range s {
		if c == '\n' || c == '\r' || c == '"' || c == cw.comma {
			return true
		}
	}
	r, _ := utf8.DecodeRune(s)
	return unicode.IsSpace(r)
}

// end ends the record, flushing the buffer when it is nearly full.
func (cw *csvWriter) end() {
	cw.buf = append(cw.buf, '\n')
	if len(cw.buf) >= csvBufSize-csvBufSize/8 {
		cw.flush()
	}
}

func (cw *csvWriter) flush() error {
	if cw.err == nil && len(cw.buf) > 0 {
		cw.err = writeAll(cw.w, cw.buf)
	}
	cw.buf = cw.buf[:0]
	return cw.err
}
