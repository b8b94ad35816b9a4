package convert

import (
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/tokencount"
)

// SplitOptions sets the limits and the table of Split. At least one of
// MaxTokens, MaxBytes and MaxRows must be set; a chunk keeps to all those
// that are.
type SplitOptions struct {
	// MaxTokens is the most tokens a chunk may have, counted on the whole
	// chunk text by the tokenizer named by Tokenizer. 0: no token limit.
	MaxTokens int
	// Tokenizer is the encoding MaxTokens counts in: "o200k_base" (the
	// default) or "cl100k_base". Vocabularies are built in.
	Tokenizer string
	// MaxBytes is the most bytes a chunk may have. 0: no byte limit.
	MaxBytes int
	// MaxRows is the most rows a chunk may have. 0: no row limit.
	MaxRows int
	// Table is the path of the table to split: the keys from the root to
	// it, joined by dots ("data.users"). A key that itself holds a dot
	// matches too ("data.users" finds the key "data.users" as well as the
	// key "users" in the object "data"); the first key in document order
	// that leads to a match is taken. "" splits the root, which must then
	// be an array or a keyed table.
	Table string
	// Context makes each chunk carry the fields that come before the table
	// in the document: at each level of the path, the keys and values that
	// precede the key leading to the table (such as a "meta:" object before
	// a "users" table). Fields that follow the table are never carried: they
	// come after its rows, which are split as they stream by. Without
	// Context a chunk holds the path to the table and the table only.
	Context bool
	// AllowOversize puts a row that does not fit a chunk by itself into a
	// chunk of its own, which is then over the limit (Chunk.Oversize).
	// Without it such a row is an *OversizeError.
	AllowOversize bool
	// Indent is the number of spaces per indentation level of the input,
	// which the chunks use too (default 2).
	Indent int
}

// Chunk is one chunk that Split hands to its callback.
type Chunk struct {
	// Text is the chunk: a complete TOON document. It is valid only during
	// the call; copy it to keep it.
	Text     []byte
	Index    int  // the chunk's number, from 0
	FirstRow int  // the index in the table of the chunk's first row, from 0
	Rows     int  // the number of rows
	Line     int  // the input line of the first row
	Tokens   int  // the chunk's token count, when MaxTokens is set (else 0)
	Oversize bool // the chunk's one row does not fit the limits (AllowOversize)
}

// maxContext is the most bytes of text the fields before the table may
// hold under SplitOptions.Context: they are kept in memory and repeated in
// every chunk.
const maxContext = 4 << 20

// Split cuts a table of the TOON document read from r into chunks, each a
// complete TOON document under the limits of opts, and calls emit with
// each chunk in order. A chunk holds the path to the table (and with
// opts.Context the fields before it), then the table's header with its own
// count, then whole rows: rows are never split, and the chunks' rows, in
// order, are the table's rows. An error from emit stops Split and is
// returned.
//
// The table may be a tabular array, a keyed table (§9.5), an expanded
// list (each item is a row) or an inline primitive array (each value is a
// row); chunks keep its form and delimiter, which is also their document
// delimiter (it decides the quoting of field values, §11.1). They are
// written as the encoder writes (canonical numbers, quoting and
// indentation), whatever the layout of the input. A chunk of one entry of
// a keyed table keeps the keyed header ([1:]), which decoders accept
// (§9.5) though an encoder would nest an object of one entry; a chunk of
// a list keeps the list form, though its items alone might have another
// (all primitives, or uniform objects). An empty table gives no chunk.
//
// Token counts are exact. Rows join a chunk while its count stays within
// MaxTokens: the text after the chunk's head is counted as the rows join
// it, and the head (the path and the header) ends where the tokenizer's
// pieces always break (a line feed before an indented line, or a colon
// before a space), so the two counts add up. Before a chunk is emitted its
// text is counted again whole, as the tokenizer counts it alone, and rows
// are taken back should that count be over the limit.
//
// Split streams: it holds the chunk being filled and the decoder's buffer,
// never the document. It reads the document to its end, in strict mode, so
// that an error anywhere in it (a row count that does not match its header,
// a malformed line, content after the table) is reported, as a
// *toon.SyntaxError. Chunks before the point of an error have been
// emitted by then: a caller that must not keep the chunks of a bad input
// keeps them aside until Split returns nil, as the toon split command does.
func Split(r io.Reader, opts SplitOptions, emit func(Chunk) error) error {
	s, err := newSplitter(opts, emit)
	if err != nil {
		return err
	}
	dec := toon.NewDecoder(r, toon.WithIndent(s.indent))
	found, err := s.findTable(dec)
	if err != nil || !found {
		return err
	}
	if err := s.rows(dec); err != nil {
		return err
	}
	// The rest of the document is read for its errors only.
	for {
		if _, err := dec.Token(); err != nil {
			if err == io.EOF {
				break
			}
			return err
		}
	}
	// Emit what is left; rows that a check takes back go to another chunk.
	for len(s.pend) > 0 {
		if err := s.place(); err != nil {
			return err
		}
		if s.k > 0 {
			if err := s.flush(s.k); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitter is the state of Split.
type splitter struct {
	opts   SplitOptions
	indent int
	emit   func(Chunk) error

	// ctr counts heads and whole chunks; rowCtr counts the rows of the
	// open chunk as they join it (see place).
	ctr, rowCtr *tokencount.Counter

	// The table and what surrounds it.
	start    toon.Token   // the table's start token, cloned
	lineForm bool         // rows are lines (all forms but the inline array)
	ctx      []toon.Token // tokens of the chunk before the table's start
	path     []toon.Token // the path alone: the tokens before the start in renc
	ctxBytes int          // text bytes held by ctx

	// henc writes a chunk's head (ctx and the header) into head; renc
	// writes rows into buf, each as it is read, after a header of a count
	// large enough for any table, which is cut off.
	henc, renc *toon.Encoder
	head, buf  []byte
	out        []byte // the chunk being emitted

	// pend are the rows in buf, in order; the first k of them are in the
	// open chunk, the others wait for a decision. total is the token count
	// of the open chunk's text after its head, sumBytes its length less the
	// head's.
	pend     []pending
	k        int
	total    int
	sumBytes int

	// The head's counts for a count of 1, less the count's own digits:
	// the head of a chunk of n rows has headTok + tokens(n) tokens (with
	// the line feed after it, for line forms) and headLen + len(n) bytes.
	headTok, headLen int
	digitsN, digitsT int    // the last count whose digits were counted, and their tokens
	digits           []byte // its text

	row    int // table index of pend[0]
	chunks int // chunks emitted
}

// pending is a row rendered into splitter.buf.
type pending struct {
	off  int // start of its text in buf (a line feed, for line forms)
	line int // input line where it starts
	a    int // the tokens it added to its chunk's count
}

func newSplitter(opts SplitOptions, emit func(Chunk) error) (*splitter, error) {
	if opts.MaxTokens < 0 || opts.MaxBytes < 0 || opts.MaxRows < 0 {
		return nil, errors.New("convert: negative split limit")
	}
	if opts.MaxTokens == 0 && opts.MaxBytes == 0 && opts.MaxRows == 0 {
		return nil, errors.New("convert: Split needs MaxTokens, MaxBytes or MaxRows")
	}
	s := &splitter{opts: opts, indent: opts.Indent, emit: emit}
	if s.indent < 1 {
		s.indent = 2
	}
	if opts.MaxTokens > 0 {
		name := opts.Tokenizer
		if name == "" {
			name = "o200k_base"
		}
		enc, err := tokencount.Get(name)
		if err != nil {
			return nil, err
		}
		s.ctr, s.rowCtr = enc.NewCounter(), enc.NewCounter()
	}
	return s, nil
}

// appendWriter appends what it is given to a byte slice.
type appendWriter struct{ b *[]byte }

func (w appendWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// ---- Finding the table ----

// pathFrame is an open container on the way to the table.
type pathFrame struct {
	onPath bool   // an object on the path, whose keys may lead to the table
	rem    string // the rest of the path inside it
	key    string // the key that led to it
}

// findTable reads the document up to the start token of the table and
// records what each chunk carries before it. It returns false without an
// error when the table is empty: the document has then been read to its end.
func (s *splitter) findTable(dec *toon.Decoder) (bool, error) {
	const (
		nextOff = iota
		nextDescend
		nextTarget
	)
	next, rem := nextTarget, ""
	if s.opts.Table != "" {
		next, rem = nextDescend, s.opts.Table
	}
	var stack []pathFrame
	var keyText string // the last key of an on-path object
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false, errors.New("convert: no table at " + strconv.Quote(s.opts.Table))
		}
		if err != nil {
			return false, err
		}
		kind := tok.Kind()
		if kind == toon.KindKey {
			next = nextOff
			if f := &stack[len(stack)-1]; f.onPath {
				keyText = tok.String()
				switch {
				case keyText == f.rem:
					next = nextTarget
				case strings.HasPrefix(f.rem, keyText+"."):
					next, rem = nextDescend, f.rem[len(keyText)+1:]
				}
			}
			if err := s.record(tok); err != nil {
				return false, err
			}
			continue
		}
		if kind == toon.KindObjectEnd || kind == toon.KindArrayEnd {
			stack = stack[:len(stack)-1]
			if err := s.record(tok); err != nil {
				return false, err
			}
			continue
		}
		// A value.
		status := next
		next = nextOff
		if status == nextTarget {
			if kind == toon.KindArrayStart || kind == toon.KindObjectStart && tok.Form() == toon.FormKeyed {
				return s.startTable(dec, tok, stack, keyText)
			}
			if s.opts.Table == "" {
				return false, rootNotTable(dec, tok)
			}
			return false, errors.New("convert: " + strconv.Quote(s.opts.Table) + " (line " + strconv.Itoa(dec.Line()) +
				") holds " + describe(tok) + ", not a table")
		}
		if kind == toon.KindObjectStart || kind == toon.KindArrayStart {
			f := pathFrame{}
			if status == nextDescend && kind == toon.KindObjectStart && tok.Form() == toon.FormNone {
				f = pathFrame{onPath: true, rem: rem, key: keyText}
			}
			stack = append(stack, f)
		}
		if err := s.record(tok); err != nil {
			return false, err
		}
	}
}

// record keeps a token before the table for the chunks' context.
func (s *splitter) record(tok toon.Token) error {
	if !s.opts.Context {
		return nil
	}
	s.ctxBytes += len(tok.Bytes()) + 4
	if s.ctxBytes > maxContext {
		return errors.New("convert: the fields before the table hold more than " + strconv.Itoa(maxContext>>20) +
			" MiB, too much to repeat in each chunk (Context)")
	}
	s.ctx = append(s.ctx, tok.Clone())
	return nil
}

// describe names what a value token starts.
func describe(tok toon.Token) string { return kindArticle(tok.Kind()) }

// rootNotTable is the error for a root that is not a table when no path is
// given. For a root object it names the first table in the object, found
// by reading on, as the path to give.
func rootNotTable(dec *toon.Decoder, tok toon.Token) error {
	if tok.Kind() != toon.KindObjectStart {
		return errors.New("convert: the document is " + describe(tok) + ", not a table")
	}
	msg := "convert: the document is an object, not a table: name the table to split (SplitOptions.Table)"
	var keys []string // the key of each open container, "" for arrays and list items
	var key string
	for {
		t, err := dec.Token()
		if err != nil {
			return errors.New(msg)
		}
		switch t.Kind() {
		case toon.KindKey:
			key = t.String()
			continue
		case toon.KindObjectEnd, toon.KindArrayEnd:
			if len(keys) == 0 {
				return errors.New(msg)
			}
			keys = keys[:len(keys)-1]
		case toon.KindObjectStart, toon.KindArrayStart:
			if key != "" && !slices.Contains(keys, "") && (t.Form() == toon.FormTabular || t.Form() == toon.FormKeyed) {
				path := strings.Join(append(keys, key), ".")
				return errors.New(msg + ": the first table is " + strconv.Quote(path) + ", at line " + strconv.Itoa(dec.Line()))
			}
			if t.Kind() == toon.KindObjectStart && t.Form() == toon.FormNone {
				keys = append(keys, key) // "" for a list item: no path leads through it
			} else {
				keys = append(keys, "")
			}
		}
		key = ""
	}
}

// startTable sets the splitter up for the table whose start token is tok,
// inside the open containers of stack (all objects on the path), under
// the key keyText (none at the root).
func (s *splitter) startTable(dec *toon.Decoder, tok toon.Token, stack []pathFrame, keyText string) (bool, error) {
	s.start = tok.Clone()
	s.lineForm = tok.Form() != toon.FormInline
	for i := range stack {
		k := keyText
		if i+1 < len(stack) {
			k = stack[i+1].key
		}
		s.path = append(s.path, toon.ObjectStartToken(), toon.KeyToken([]byte(k)))
	}
	if !s.opts.Context {
		s.ctx = s.path
	}
	if tok.Len() == 0 || tok.Form() == toon.FormEmpty {
		for { // nothing to split; read the document for its errors
			if _, err := dec.Token(); err != nil {
				if err == io.EOF {
					return false, nil
				}
				return false, err
			}
		}
	}
	// The table's delimiter is the chunks' document delimiter too, which
	// decides the quoting of the values of fields (§11.1).
	s.henc = toon.NewEncoder(nil, toon.WithIndent(s.indent), toon.WithDelimiter(s.delim()))
	s.renc = toon.NewEncoder(nil, toon.WithIndent(s.indent), toon.WithDelimiter(s.delim()))
	head, err := s.renderHead(1)
	if err != nil {
		return false, err
	}
	s.headLen = len(head) - 1
	if s.ctr != nil {
		s.ctr.Write(head)
		if s.lineForm {
			s.ctr.Write(lf)
		}
		s.headTok = int(s.ctr.Close()) - s.digitTokens(1)
	}
	return true, s.resetRows()
}

var lf = []byte{'\n'}

// startToken returns the table's start token with a count of n.
func (s *splitter) startToken(n int) toon.Token {
	if s.start.Kind() == toon.KindObjectStart {
		return toon.KeyedStartToken(n, s.start.Delim(), s.start.Fields())
	}
	return toon.ArrayStartToken(n, s.start.Form(), s.start.Delim(), s.start.Fields())
}

// renderHead writes the text of a chunk before its first row, for a chunk
// of n rows, into s.head.
func (s *splitter) renderHead(n int) ([]byte, error) {
	s.head = s.head[:0]
	s.henc.Reset(appendWriter{&s.head})
	for _, t := range s.ctx {
		if err := s.henc.WriteToken(t); err != nil {
			return nil, err
		}
	}
	if err := s.henc.WriteToken(s.startToken(n)); err != nil {
		return nil, err
	}
	if err := s.henc.Flush(); err != nil {
		return nil, err
	}
	s.henc.Reset(nil)
	return s.head, nil
}

// resetRows starts renc on a new document whose rows are written after
// what buf holds. It is called for each chunk, so that renc keeps no state
// from one chunk to the next (the entry keys of a keyed table).
func (s *splitter) resetRows() error {
	mark := len(s.buf)
	s.renc.Reset(appendWriter{&s.buf})
	for _, t := range s.path {
		if err := s.renc.WriteToken(t); err != nil {
			return err
		}
	}
	if err := s.renc.WriteToken(s.startToken(math.MaxInt32)); err != nil {
		return err
	}
	err := s.renc.Flush()
	s.buf = s.buf[:mark]
	return err
}

// digitTokens returns the tokens of n's decimal digits. The digits of a
// header's count are pieces of their own for the tokenizer (a bracket or
// a key before them, a bracket or delimiter after them), so a head's count
// changes by the change of this alone.
func (s *splitter) digitTokens(n int) int {
	if n != s.digitsN || s.digitsT == 0 {
		s.digits = strconv.AppendInt(s.digits[:0], int64(n), 10)
		s.ctr.Write(s.digits)
		s.digitsN, s.digitsT = n, int(s.ctr.Close())
	}
	return s.digitsT
}

// ---- Rows ----

// rows reads the table's rows, renders each into buf and places it. It
// returns at the table's end.
func (s *splitter) rows(dec *toon.Decoder) error {
	tabular := s.start.Form() == toon.FormTabular
	keyed := s.start.Kind() == toon.KindObjectStart
	depth, off, line := 0, 0, 0
	entry := false // a keyed table's entry key has been read, its value not
	for {
		if tabular && depth == 0 {
			if row := dec.Row(); row != nil {
				off = len(s.buf)
				for _, t := range row {
					if err := s.renc.WriteToken(t); err != nil {
						return err
					}
				}
				if err := s.addRow(off, dec.Line()); err != nil {
					return err
				}
				continue
			}
		}
		tok, err := dec.Token()
		if err != nil {
			return err // io.EOF cannot come inside the table
		}
		kind := tok.Kind()
		if depth == 0 && !entry {
			if kind == toon.KindArrayEnd || kind == toon.KindObjectEnd {
				return nil
			}
			off, line = len(s.buf), dec.Line()
		}
		if err := s.renc.WriteToken(tok); err != nil {
			return err
		}
		switch kind {
		case toon.KindObjectStart, toon.KindArrayStart:
			depth++
		case toon.KindObjectEnd, toon.KindArrayEnd:
			depth--
		case toon.KindKey:
			if keyed && depth == 0 {
				entry = true
				continue
			}
		}
		if depth == 0 {
			entry = false
			if err := s.addRow(off, line); err != nil {
				return err
			}
		}
	}
}

// addRow takes the row that renc has just written after buf[off:] and
// places it.
func (s *splitter) addRow(off, line int) error {
	if err := s.renc.Flush(); err != nil {
		return err
	}
	if !s.lineForm {
		s.buf[off] = byte(s.delim()) // the first value of a chunk has a space instead
	}
	s.pend = append(s.pend, pending{off: off, line: line})
	return s.place()
}

// delim returns the table's delimiter.
func (s *splitter) delim() toon.Delimiter {
	if d := s.start.Delim(); d != 0 {
		return d
	}
	return toon.Comma
}

// text returns the text of pending row i.
func (s *splitter) text(i int) []byte {
	return s.buf[s.pend[i].off:s.end(i+1)]
}

// end returns the end in buf of the first n pending rows.
func (s *splitter) end(n int) int {
	if n < len(s.pend) {
		return s.pend[n].off
	}
	return len(s.buf)
}

// headTokens and headBytes return the size of the head of a chunk of n
// rows (with the line feed after it, for line forms).
func (s *splitter) headTokens(n int) int { return s.headTok + s.digitTokens(n) }
func (s *splitter) headBytes(n int) int  { return s.headLen + decimalLen(n) }

func decimalLen(n int) int {
	l := 1
	for n >= 10 {
		n /= 10
		l++
	}
	return l
}

// place decides, for each pending row in turn, whether it joins the open
// chunk, and emits the chunk when it is full.
//
// The open chunk's text after its head is written to rowCtr as rows join,
// so rowCtr.Total is the token count of that text as it would end after
// the row just written: it is exact across rows. The head (with the line
// feed that ends it, for line forms; an inline array's values start with a
// space) ends where the tokenizer's pieces always break, so the chunk's
// count is that of its head plus that of the rest. flush counts the chunk
// text whole before it is emitted all the same.
func (s *splitter) place() error {
	o := &s.opts
	for s.k < len(s.pend) {
		text := s.text(s.k)
		n := s.k + 1
		fit := (o.MaxRows == 0 || n <= o.MaxRows) &&
			(o.MaxBytes == 0 || s.headBytes(n)+s.sumBytes+len(text) <= o.MaxBytes)
		total := 0
		if fit && s.rowCtr != nil {
			switch {
			case s.k > 0:
				s.rowCtr.Write(text)
			case s.lineForm:
				s.rowCtr.Write(text[1:])
			default:
				s.rowCtr.Write(space)
				s.rowCtr.Write(text[1:])
			}
			total = int(s.rowCtr.Total())
			fit = s.headTokens(n)+total <= o.MaxTokens
		}
		if !fit && s.k > 0 {
			if err := s.flush(s.k); err != nil {
				return err
			}
			continue
		}
		oversize := !fit
		if oversize && !o.AllowOversize {
			return s.oversize(text, total)
		}
		s.pend[s.k].a = total - s.total
		s.k, s.total = n, total
		s.sumBytes += len(text)
		if oversize || o.MaxRows > 0 && n == o.MaxRows {
			if err := s.flush(s.k); err != nil {
				return err
			}
		}
	}
	return nil
}

var space = []byte{' '}

// oversize returns the error for the first pending row, of text, which
// does not fit a chunk alone; total is the count of its text in the chunk.
func (s *splitter) oversize(text []byte, total int) error {
	e := &OversizeError{Row: s.row, Line: s.pend[0].line, Bytes: s.headBytes(1) + len(text),
		MaxTokens: s.opts.MaxTokens, MaxBytes: s.opts.MaxBytes}
	if s.rowCtr != nil {
		if total == 0 { // not counted: the row is over the byte limit
			if s.lineForm {
				s.ctr.Write(text[1:])
			} else {
				s.ctr.Write(space)
				s.ctr.Write(text[1:])
			}
			total = int(s.ctr.Close())
		}
		e.Tokens = s.headTokens(1) + total
	}
	return e
}

// flush emits the first n pending rows as a chunk, after counting the
// chunk text whole. Should that count be over the limit, it takes rows
// back, which then wait for the next chunk.
func (s *splitter) flush(n int) error {
	o := &s.opts
	oversize := false
	var tokens int
	for {
		head, err := s.renderHead(n)
		if err != nil {
			return err
		}
		s.out = append(s.out[:0], head...)
		rows := s.buf[s.pend[0].off:s.end(n)]
		if s.lineForm {
			s.out = append(s.out, rows...)
		} else {
			s.out = append(append(s.out, ' '), rows[1:]...)
		}
		if s.ctr != nil {
			s.ctr.Write(s.out)
			tokens = int(s.ctr.Close())
		}
		overT := o.MaxTokens > 0 && tokens > o.MaxTokens
		overB := o.MaxBytes > 0 && len(s.out) > o.MaxBytes
		if !overT && !overB {
			break
		}
		if n == 1 {
			if !o.AllowOversize {
				return s.oversize(s.text(0), 0)
			}
			oversize = true
			break
		}
		// Take back rows from the end until their counts cover the excess
		// (one at least).
		excess, back := tokens-o.MaxTokens, 0
		for n > 1 {
			n--
			if back += s.pend[n].a; back >= excess {
				break
			}
		}
	}
	if err := s.emit(Chunk{Text: s.out, Index: s.chunks, FirstRow: s.row, Rows: n,
		Line: s.pend[0].line, Tokens: tokens, Oversize: oversize}); err != nil {
		return err
	}
	s.chunks++
	s.row += n
	// Drop the emitted rows from buf and pend.
	cut := s.end(n)
	s.buf = s.buf[:copy(s.buf, s.buf[cut:])]
	s.pend = s.pend[:copy(s.pend, s.pend[n:])]
	for i := range s.pend {
		s.pend[i].off -= cut
	}
	s.k, s.total, s.sumBytes = 0, 0, 0
	if s.rowCtr != nil {
		s.rowCtr.Close()
	}
	return s.resetRows()
}
