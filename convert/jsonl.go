package convert

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// JSON Lines (NDJSON): one JSON value per line, lines ended by LF (a CR
// before it is whitespace). FromJSONLines takes records that are objects
// and reads them as the elements of one JSON array, so that FromJSON's two
// passes plan and write them: a root table when the records are uniform, a
// list otherwise, byte for byte what FromJSON writes for the array.
//
// The array is a view of the input, of the input's length plus two: '['
// before the first byte, ']' after the last, and every LF that ends a
// record line and is followed by another record line replaced by recSep.
// The lexer, told that its input is JSON Lines, accepts recSep only
// between two elements of the root array and ',' only elsewhere, and
// wants every element of the root array to be an object. So the view is
// valid exactly when every line that is not blank holds one JSON object:
// a record cut across two lines puts recSep inside a value, two records
// on one line put a ',' or nothing between elements of the root array.
// recSep (ASCII RS) is a control character, invalid anywhere else in
// JSON, even inside a string; an RS of the input is made NUL in the view,
// invalid too, so that it cannot pass for a separator.
//
// Because the view has the input's offsets (plus one), it can be read at
// any offset (io.ReaderAt), as FromJSON's first pass does for big tables.
const recSep = 0x1e

// FromJSONLines reads JSON Lines from r and writes them to w as one TOON
// document: exactly what FromJSON writes for the JSON array of the same
// records. Uniform records become a root table, others a root list.
//
// Every line that is not blank must hold exactly one JSON object. A blank
// line (empty, or only spaces, tabs and CRs) is skipped, as most JSON Lines
// readers skip it; a CR before the LF is allowed; a UTF-8 byte order mark
// at the start of the input is ignored. An input without records gives the
// empty array.
//
// r is read twice, like FromJSON's input, and also read at offsets (on a
// helper goroutine): if r is an io.ReaderAt and an io.Seeker (an *os.File
// on a regular file, a *bytes.Reader), it is read in place from its
// current offset; otherwise it is first copied to a temporary file. The
// options are FromJSON's: with WithStrict(false), a repeated member name
// in a record keeps its first position and takes its last value, as in
// FromJSON (every line is then checked first, repeated names allowed, and
// the records rewritten to a temporary file; see dupnames.go).
//
// A line that is not a JSON object, or not valid JSON, is reported as a
// *JSONError with the line number, the column and the line's text, before
// anything is written to w.
func FromJSONLines(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	ra, start, size, done, err := readerAtInput(r, c.tempDir)
	if err != nil {
		return err
	}
	defer done()
	v, err := newLinesView(ra, start, size)
	if err != nil {
		return err
	}
	return FromJSON(w, v, append(opts[:len(opts):len(opts)], withLines(v))...)
}

func withLines(v *linesView) Option { return func(c *config) { c.lines = v } }

// readerAtInput returns r as an io.ReaderAt with the offset and length of
// what is left to read in it: r itself if it can seek and read at offsets,
// else a temporary copy of it. done releases the copy.
func readerAtInput(r io.Reader, dir string) (ra io.ReaderAt, start, size int64, done func(), err error) {
	ra, okAt := r.(io.ReaderAt)
	if s, ok := r.(io.Seeker); ok && okAt {
		if start, err = s.Seek(0, io.SeekCurrent); err == nil {
			end, err := s.Seek(0, io.SeekEnd)
			if err == nil {
				_, err = s.Seek(start, io.SeekStart)
			}
			if err == nil {
				return ra, start, end - start, func() {}, nil
			}
		}
	}
	f, err := tempFile(dir, "toon-input-*")
	if err != nil {
		return nil, 0, 0, nil, err
	}
	size, err = io.Copy(f, r)
	if err != nil {
		f.Close()
		return nil, 0, 0, nil, err
	}
	return f, 0, size, func() { f.Close() }, nil
}

// linesView is the JSON array that FromJSON reads for JSON Lines (see the
// comment on recSep). Offset k of the view is offset k-1 of the input.
type linesView struct {
	ra    io.ReaderAt
	start int64 // the input's offset in ra
	size  int64 // the input's length
	first int64 // offset of the first byte of the first record; size if none
	bom   bool  // the input starts with a UTF-8 byte order mark, read as spaces
	pos   int64 // the offset of Read in the view
}

const utf8BOM = "\xef\xbb\xbf"

func newLinesView(ra io.ReaderAt, start, size int64) (*linesView, error) {
	v := &linesView{ra: ra, start: start, size: size}
	var head [3]byte
	if n, _ := ra.ReadAt(head[:], start); n == 3 && string(head[:]) == utf8BOM {
		v.bom = true
	}
	off := int64(0)
	if v.bom {
		off = 3
	}
	c, at, err := v.nextByte(off, true)
	if err != nil {
		return nil, err
	}
	v.first = v.size
	if c != 0 {
		v.first = at
	}
	return v, nil
}

// isBlank reports whether c is whitespace that a blank line may hold.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// nextByte returns the first byte at or after input offset off that is not
// blank (nor a LF, if lf is set), and its offset; c is 0 at the end of the
// input.
func (v *linesView) nextByte(off int64, lf bool) (c byte, at int64, err error) {
	var buf [256]byte
	for off < v.size {
		n := int(min(int64(len(buf)), v.size-off))
		k, err := v.ra.ReadAt(buf[:n], v.start+off)
		if k < n {
			return 0, 0, shortRead(err)
		}
		for i, c := range buf[:n] {
			if !isBlank(c) && (c != '\n' || !lf) {
				return c, off + int64(i), nil
			}
		}
		off += int64(n)
	}
	return 0, v.size, nil
}

// shortRead is the error of a read that returned fewer bytes than the
// input was known to have.
func shortRead(err error) error {
	if err == nil || err == io.EOF {
		return io.ErrUnexpectedEOF // the input shrank while being read
	}
	return err
}

// ReadAt reads the view at offset off.
func (v *linesView) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errNegativeOffset
	}
	n := 0
	if off == 0 && len(p) > 0 {
		p[0] = '['
		n = 1
	}
	o := off + int64(n) - 1 // the input offset of p[n]
	if o < v.size && n < len(p) {
		want := int(min(int64(len(p)-n), v.size-o))
		k, err := v.ra.ReadAt(p[n:n+want], v.start+o)
		if k < want {
			return 0, shortRead(err)
		}
		if err := v.transform(p[n:n+want], o); err != nil {
			return 0, err
		}
		n += want
		o += int64(want)
	}
	if o == v.size && n < len(p) {
		p[n] = ']'
		n++
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// transform turns b, the input from offset o, into the view's bytes.
func (v *linesView) transform(b []byte, o int64) error {
	if v.bom && o < 3 {
		for i := 0; int64(i)+o < 3 && i < len(b); i++ {
			b[i] = ' '
		}
	}
	// An RS of the input, invalid JSON wherever it is, must not pass for a
	// separator: it becomes NUL, invalid as well.
	for j := 0; ; j++ {
		k := bytes.IndexByte(b[j:], recSep)
		if k < 0 {
			break
		}
		j += k
		b[j] = 0
	}
	for j := 0; ; {
		k := bytes.IndexByte(b[j:], '\n')
		if k < 0 {
			return nil
		}
		j += k
		if o+int64(j) > v.first {
			// The LF ends a record line (or a blank line after one): it
			// separates two records if the next line is not blank.
			i := j + 1
			for i < len(b) && isBlank(b[i]) {
				i++
			}
			var c byte
			if i < len(b) {
				c = b[i]
			} else {
				var err error
				if c, _, err = v.nextByte(o+int64(i), false); err != nil {
					return err
				}
			}
			if c != 0 && c != '\n' {
				b[j] = recSep
			}
		}
		j++
	}
}

// Read reads the view from the current offset.
func (v *linesView) Read(p []byte) (int, error) {
	n, err := v.ReadAt(p, v.pos)
	v.pos += int64(n)
	return n, err
}

// Seek sets the offset of the next Read.
func (v *linesView) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += v.pos
	case io.SeekEnd:
		off += v.size + 2
	}
	if off < 0 {
		return 0, errNegativeOffset
	}
	v.pos = off
	return off, nil
}

// explain turns an error of FromJSON's first pass over the view into a
// *JSONError located in the JSON Lines input; other errors (I/O, limits)
// are returned as they are.
//
// The pass stops at the first byte that does not fit (the lexer's and the
// view's errors are offsets). Every record line before that byte is
// valid, so the record at fault is the last line that is not blank and
// starts at or before it: that line is read again with jsontext, on its
// own, which says best what is wrong with it.
func (v *linesView) explain(err error) error {
	var se *syntaxError
	if !errors.As(err, &se) || v.size == 0 {
		return err
	}
	off := min(max(se.off-1, 0), v.size-1) // the view's '[' and ']' are outside the input
	line, ls, err := v.recordLine(off)
	if err != nil {
		return err
	}
	col, cause, err := v.checkLine(ls, false)
	if err != nil {
		return err
	}
	if cause == nil { // jsontext accepts the line: keep the lexer's reason
		col, cause = off-ls, errors.New(se.msg)
	}
	return v.lineError(line, ls, col, cause)
}

// lineError is the *JSONError of cause at column offset col of the record
// line number line, which starts at input offset ls.
func (v *linesView) lineError(line int, ls, col int64, cause error) error {
	je := &JSONError{Offset: col, Err: cause}
	locate(je, bufio.NewReaderSize(io.NewSectionReader(v.ra, v.start+ls, v.size-ls), 4096), col)
	je.Line, je.Offset = line, ls+col
	return je
}

// checkAll checks that every line that is not blank holds one JSON
// object, repeated member names allowed, and returns the *JSONError of
// the first that does not. It is for FromJSON's non-strict reading of a
// repeated name (dupnames.go), which reads the view with its recSep bytes
// made ',': valid JSON then, but the array of the records only if each
// record is one object on one line.
func (v *linesView) checkAll() error {
	br := bufio.NewReaderSize(io.NewSectionReader(v.ra, v.start, v.size), 64<<10)
	line, ls, pos := 1, int64(0), int64(0)
	blank := true
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		pos++
		switch {
		case c == '\n':
			line, ls, blank = line+1, pos, true
			continue
		case !blank || isBlank(c) || (pos <= 3 && v.bom):
			continue
		}
		blank = false
		col, cause, err := v.checkLine(ls, true)
		if err != nil {
			return err
		}
		if cause != nil {
			return v.lineError(line, ls, col, cause)
		}
	}
	return nil
}

// sepReader reads a JSON Lines view with ',' in place of recSep.
type sepReader struct{ r io.Reader }

func (s sepReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	for b := p[:n]; ; {
		i := bytes.IndexByte(b, recSep)
		if i < 0 {
			break
		}
		b[i] = ','
		b = b[i+1:]
	}
	return n, err
}

// recordLine returns the number and the start offset of the last line that
// is not blank and starts at or before input offset off.
func (v *linesView) recordLine(off int64) (line int, start int64, err error) {
	br := bufio.NewReaderSize(io.NewSectionReader(v.ra, v.start, v.size), 64<<10)
	n, ls := 0, int64(0) // the number and start of the line being read
	blank := true
	pos := int64(0)
	for pos <= off {
		b, err := br.ReadSlice('\n')
		if len(b) == 0 && err != nil {
			break
		}
		if blank {
			i := 0
			if pos == 0 && v.bom {
				i = min(3, len(b))
			}
			for ; i < len(b) && (isBlank(b[i]) || b[i] == '\n'); i++ {
			}
			if i < len(b) {
				blank = false
				line, start = n+1, ls
			}
		}
		pos += int64(len(b))
		if err == bufio.ErrBufferFull {
			continue // the same line goes on
		}
		n, ls, blank = n+1, pos, true
		if err != nil {
			break
		}
	}
	if line == 0 {
		return 0, 0, errors.New("convert: internal error: no record line before the error")
	}
	return line, start, nil
}

// checkLine reads the line at input offset ls with jsontext and returns
// where it is wrong (an offset in the line) and why, or a nil cause if it
// holds one JSON object; dups allows repeated member names in it.
func (v *linesView) checkLine(ls int64, dups bool) (int64, error, error) {
	skip := int64(0)
	if ls == 0 && v.bom {
		skip = 3
	}
	lr := &lineReader{r: bufio.NewReaderSize(io.NewSectionReader(v.ra, v.start+ls+skip, v.size-ls-skip), 64<<10)}
	dec := jsontext.NewDecoder(lr, jsontext.AllowDuplicateNames(dups))
	at := func(err error) (int64, error, error) {
		var se *jsontext.SyntacticError
		switch {
		case errors.As(err, &se):
			return skip + se.ByteOffset, err, nil
		case err == io.ErrUnexpectedEOF || err == io.EOF:
			return skip + lr.n, io.ErrUnexpectedEOF, nil
		}
		return 0, nil, err
	}
	switch kind := dec.PeekKind(); kind {
	case '{':
	case '[', '"', '0', 't', 'f', 'n':
		_, first, err := v.nextByte(ls+skip, false)
		return first - ls, errors.New(errLineNotObject.Error() + ", not " + kindName(kind)), err
	default:
		_, err := dec.ReadToken()
		return at(err)
	}
	if err := dec.SkipValue(); err != nil {
		return at(err)
	}
	end := skip + dec.InputOffset()
	switch _, err := dec.ReadToken(); {
	case err == io.EOF:
		return 0, nil, nil
	case err != nil:
		return at(err)
	}
	_, second, err := v.nextByte(ls+end, false)
	return second - ls, errLineTwoValues, err
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	}
	return "null"
}

// lineReader reads from r up to the end of the line, without the LF; n
// counts the bytes read.
type lineReader struct {
	r    *bufio.Reader
	n    int64
	done bool
}

func (l *lineReader) Read(p []byte) (int, error) {
	if l.done {
		return 0, io.EOF
	}
	b, err := l.r.Peek(min(len(p), l.r.Size()))
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b, l.done = b[:i], true
	} else if len(b) == 0 && err != nil {
		l.done = true
		if err == io.EOF {
			return 0, io.EOF
		}
		return 0, err
	}
	n := copy(p, b)
	l.r.Discard(n)
	l.n += int64(n)
	return n, nil
}

// ToJSONLines reads a TOON document from r whose root is an array (or an
// object whose only member is an array) and writes each element of the
// array to w as compact JSON on a line of its own: JSON Lines, each line
// what ToJSON writes for the element. Records of a table are objects with
// the header's keys in the header's order.
//
// The document is decoded in strict mode, whatever WithStrict says; the
// options that apply are WithIndent and WithMaxDepth. Errors in the TOON
// input are *toon.SyntaxError; a root that is not an array is an error
// naming what it is. As with ToJSON, the lines converted before an error
// have been written to w.
func ToJSONLines(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	dec := toon.NewDecoder(r, toon.WithIndent(c.indent), toon.WithMaxDepth(c.maxDepth))
	jw := newJSONWriter(w, 0)
	jw.lines = true
	jw.piped, jw.chunk = c.pipeline(), c.pipeChunk
	err := writeLines(jw, dec)
	jw.flushEnd()
	jw.stopPipe()
	if jw.err != nil {
		err = jw.err
	}
	jw.release()
	return err
}

// rootArray reads the start of dec's document up to the ArrayStart of the
// array whose elements are records: the root array, or the only member of
// a root object. It reports whether that member is in an object, whose end
// the caller must then read with endRoot.
func rootArray(dec *toon.Decoder) (toon.Token, bool, error) {
	t, err := dec.Token()
	if err != nil {
		return t, false, err
	}
	switch t.Kind() {
	case toon.KindArrayStart:
		return t, false, nil
	case toon.KindObjectStart:
		k, err := dec.Token()
		if err != nil {
			return k, false, err
		}
		if k.Kind() != toon.KindKey {
			return k, false, errors.New("convert: the TOON document is an empty object, not an array")
		}
		key := string(k.Bytes())
		line := dec.Line()
		t, err := dec.Token()
		if err != nil {
			return t, false, err
		}
		if t.Kind() != toon.KindArrayStart {
			return t, false, errors.New("convert: line " + strconv.Itoa(line) + ": the TOON document is an object whose member " + strconv.Quote(key) + " is not an array")
		}
		return t, true, nil
	}
	return t, false, errors.New("convert: the TOON document is " + kindArticle(t.Kind()) + ", not an array")
}

// endRoot reads the end of the document after the array of records.
func endRoot(dec *toon.Decoder, inObject bool) error {
	if inObject {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if t.Kind() != toon.KindObjectEnd {
			return errors.New("convert: line " + strconv.Itoa(dec.Line()) + ": the TOON document's root object has more than one member (" + strconv.Quote(string(t.Bytes())) + " follows the array)")
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("convert: unexpected token after the document")
		}
		return err
	}
	return nil
}

// kindArticle names a kind of value with its article, for error messages:
// "a string", "an object".
func kindArticle(k toon.Kind) string {
	switch k {
	case toon.KindString:
		return "a string"
	case toon.KindNumber:
		return "a number"
	case toon.KindBool:
		return "a boolean"
	case toon.KindNull:
		return "null"
	case toon.KindObjectStart:
		return "an object"
	case toon.KindArrayStart:
		return "an array"
	}
	return k.String()
}

// writeLines writes the elements of dec's root array to jw as root values.
func writeLines(jw *jsonWriter, dec *toon.Decoder) error {
	_, inObject, err := rootArray(dec)
	if err != nil {
		return err
	}
	depth := 0 // inside the current element
	for {
		if depth == 0 {
			// A table row at once, when the decoder has it.
			if row := dec.Row(); row != nil {
				for _, t := range row {
					writeToken(jw, t)
				}
				if jw.err != nil {
					return nil
				}
				continue
			}
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t.Kind() {
		case toon.KindObjectStart, toon.KindArrayStart:
			depth++
		case toon.KindObjectEnd, toon.KindArrayEnd:
			if depth == 0 { // the end of the records
				return endRoot(dec, inObject)
			}
			depth--
		}
		if err := writeToken(jw, t); err != nil {
			return err
		}
		if jw.err != nil {
			return nil
		}
	}
}
