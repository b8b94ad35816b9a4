package convert

import (
	"encoding/binary"
	"io"

	"github.com/toonstream/toon"
)

// ToJSON reads one TOON document from r and writes it to w as JSON, followed
// by a newline. Object keys keep their order and numbers keep their exact
// text. The options that apply are WithIndent (the TOON input's
// indentation), WithStrict, WithJSONIndent, WithMaxDepth and WithTempDir.
//
// In strict mode (the default) it streams: memory does not grow with the
// document. With WithStrict(false) a key may repeat in an object, and a
// later line can replace any member of an open object (§14.3), so nothing
// is written to w before the document ends: the JSON goes first to a spool,
// kept in memory up to 32 MiB and past that in a temporary file (in
// WithTempDir's directory, unlinked at once), and repeated keys are
// resolved there as their objects close (see spoolToJSON). Memory then
// stays bounded too: besides the spool's 32 MiB it holds, for each open
// object, its keys and a few offsets per member, and a few pieces per
// repeated key of each object larger than 256 KiB that repeats one; disk
// use is the size of the JSON. WithMaxDepth above 10,000 counts as 10,000:
// JSON nested deeper is what encoding/json and jsontext reject, so ToJSON
// reports it as an input error (toon.ErrDepth) rather than write it.
//
// Errors in the TOON input are returned as *toon.SyntaxError; errors from r
// and w are returned as they are, and so are those of the temporary file.
// When an error occurs, part of the JSON may already have been written to
// w. It stops where the error was found, with the arrays and objects open
// at that point left open and no final newline, so it never parses as a
// complete document (the decoder ends an array whose count is wrong with
// the error, not with its end). In non-strict mode, an error in the input
// leaves w untouched.
//
// When more than one CPU may run Go code, the output of a large document is
// written to w by a second goroutine while the conversion goes on (see
// outPipe); w is never called concurrently, and not after ToJSON returns.
func ToJSON(w io.Writer, r io.Reader, opts ...Option) error {
	c := makeConfig(opts)
	return toJSON(w, toon.NewDecoder(r, c.decoderOptions()...), c)
}

// decoderOptions returns the options of ToJSON's TOON decoder, whose depth
// limit is at most jsontextMaxDepth (see ToJSON).
func (c *config) decoderOptions() []toon.Option {
	return []toon.Option{toon.WithIndent(c.indent), toon.WithStrict(c.strict), toon.WithMaxDepth(min(c.maxDepth, jsontextMaxDepth))}
}

// toJSON is ToJSON reading from dec, made with c.decoderOptions.
func toJSON(w io.Writer, dec *toon.Decoder, c config) error {
	jw := newJSONWriter(w, c.jsonIndent)
	jw.piped, jw.chunk, jw.flushed = c.pipeline(), c.pipeChunk, c.flushed
	jw.par = c.par
	// The output goroutine has stopped when toJSON returns, also when a
	// fault in a mapped input panics (mapped.go); stopPipe is then a no-op.
	defer jw.stopPipe()
	var err error
	switch {
	case c.strict && c.jsonIndent == 0:
		err = streamCompact(jw, dec)
	case c.strict:
		err = streamJSON(jw, dec)
	default:
		err = spoolToJSON(jw, dec, c)
	}
	jw.flushEnd() // what was converted before an error still reaches w
	jw.stopPipe()
	if jw.err != nil {
		err = jw.err
	}
	jw.release()
	return err
}

// jsontextMaxDepth is the deepest nesting ToJSON writes: the most that
// jsontext and encoding/json read.
const jsontextMaxDepth = 10000

// streamJSON copies the tokens of a strict decoder to jw as they come,
// with the writer's work for most tokens done in the loop itself: the
// write position and the state stay in local variables, one check per
// token makes sure there is room for the longest token it writes itself,
// and short strings, numbers and literals are checked and stored a word at
// a time. Anything else (strings that need escapes or are long, long
// numbers, a root primitive, indentation deeper than maxIndentFast) goes
// through jw's methods, with the state handed over and taken back.
//
// It writes compact and indented JSON alike; ToJSON uses it for indented
// output and streamCompact, its specialisation, for compact output.
func streamJSON(jw *jsonWriter, dec *toon.Decoder) error {
	// The buffer as an array, so that its size is a constant to the
	// compiler. n is the write position, st what the next token needs
	// before it (as jsonWriter.next) and ind the spaces per level.
	buf := (*[jsonBufSize]byte)(jw.buf[:jsonBufSize])
	n, st, depth, ind := len(jw.buf), int(jw.next), jw.depth, jw.indent
	for {
		t, err := dec.Token()
		if err != nil {
			jw.buf, jw.depth, jw.next = buf[:n], depth, byte(st)
			if err == io.EOF {
				return nil
			}
			return err
		}
		if n > jsonBufSize-tokenRoom {
			jw.buf = buf[:n]
			if jw.flush(); jw.err != nil {
				return nil
			}
			buf, n = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]), 0 // a pipe swaps buffers
		}
		if ind == 0 || depth*ind <= maxIndentFast {
			b := buf[n : n+tokenRoom]
			// c is where the token starts in b, after what goes before
			// it: in compact output a comma, stored before every token
			// and covered by the token when none is needed; when
			// indenting, the comma, line break and indentation of a
			// member, or nothing after a key.
			c := st & needComma
			b[0] = ','
			if ind != 0 && st != needValue && depth > 0 {
				b[c] = '\n'
				k := depth * ind
				for i := 0; i < k; i += 8 {
					binary.LittleEndian.PutUint64(b[c+1+i:], spaces8)
				}
				c += 1 + k
			}
			switch t.Kind() {
			case toon.KindKey, toon.KindString:
				// A string of at most maxFast bytes that needs no escape
				// is checked and copied a word at a time, the last word
				// overlapping the one before it; a string shorter than a
				// word is read as one with loadShort. Any other string
				// leaves the switch for the general path. (This is
				// putPlain, written out here: a call per token would spill
				// the loop's state.)
				s := t.Bytes()
				ln := len(s)
				if ln > maxFast {
					break
				}
				d := b[c : c+maxFast+2+wordSlack]
				d[0] = '"'
				if ln < 8 {
					x := loadShort(s)
					if specialMask(x)&(uint64(1)<<(8*ln)-1) != 0 { // only s's bytes count
						break
					}
					binary.LittleEndian.PutUint64(d[1:], x)
				} else {
					i := 0
					for ; i < ln-8; i += 8 {
						x := binary.LittleEndian.Uint64(s[i:])
						if specialMask(x) != 0 {
							break
						}
						binary.LittleEndian.PutUint64(d[1+i:], x)
					}
					x := binary.LittleEndian.Uint64(s[ln-8:])
					if i < ln-8 || specialMask(x) != 0 {
						break
					}
					binary.LittleEndian.PutUint64(d[ln-7:], x) // s[ln-8:] goes to d[1+ln-8:]
				}
				d[ln+1] = '"'
				if t.Kind() == toon.KindKey {
					d[ln+2] = ':'
					d[ln+3] = ' ' // scratch in compact output
					n += c + ln + 3
					if ind != 0 {
						n++
					}
					st = needValue
					continue
				}
				if depth > 0 {
					n += c + ln + 2
					st = needComma
					continue
				}
			case toon.KindNumber:
				// The decoder only types text as a number when it follows
				// the grammar of §4, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?,
				// which is JSON's number grammar: the text is written as
				// it is.
				if v := t.Bytes(); depth > 0 {
					if len(v) < 8 {
						binary.LittleEndian.PutUint64(b[c:], loadShort(v))
						n += c + len(v)
						st = needComma
						continue
					}
					if k := putRaw(b[c:], v); k >= 0 {
						n += c + k
						st = needComma
						continue
					}
				}
			case toon.KindBool:
				if depth > 0 {
					if t.Bool() {
						binary.LittleEndian.PutUint64(b[c:], trueWord)
						n += c + 4
					} else {
						binary.LittleEndian.PutUint64(b[c:], falseWord)
						n += c + 5
					}
					st = needComma
					continue
				}
			case toon.KindNull:
				if depth > 0 {
					binary.LittleEndian.PutUint64(b[c:], nullWord)
					n += c + 4
					st = needComma
					continue
				}
			case toon.KindObjectStart, toon.KindArrayStart:
				b[c] = byte(t.Kind()) // '{' or '['
				n += c + 1
				depth++
				st = needNothing
				continue
			case toon.KindObjectEnd, toon.KindArrayEnd:
				// No comma before a closing bracket; when indenting, a
				// container with members closes on a line of its own.
				depth--
				c = 0
				if ind != 0 && st == needComma {
					b[0] = '\n'
					k := depth * ind
					for i := 0; i < k; i += 8 {
						binary.LittleEndian.PutUint64(b[1+i:], spaces8)
					}
					c = 1 + k
				}
				b[c] = byte(t.Kind()) // '}' or ']'
				n += c + 1
				st = needComma
				if depth > 0 {
					continue
				}
				// The root value is complete: jw writes its newline and
				// flushes it.
				jw.buf, jw.depth = buf[:n], 0
				jw.valueDone()
				buf = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]) // jw may have swapped it (outPipe)
				n, st = len(jw.buf), int(jw.next)
				continue
			default:
				jw.buf, jw.depth, jw.next = buf[:n], depth, byte(st)
				return errUnexpectedToken(t.Kind())
			}
		}
		// The general path: jw writes the token and what goes before it.
		jw.buf, jw.depth, jw.next = buf[:n], depth, byte(st)
		if err := writeToken(jw, t); err != nil {
			return err
		}
		if jw.err != nil {
			return nil
		}
		buf = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]) // jw may have swapped it (outPipe)
		n, st, depth = len(jw.buf), int(jw.next), jw.depth
	}
}

// streamCompact is streamJSON specialised for compact output, the common
// case: with no indentation to place, a comma is all that can go before a
// token, and the loop keeps fewer values live than the general one.
// Tokens it does not write itself go through jw's methods, as in
// streamJSON.
func streamCompact(jw *jsonWriter, dec *toon.Decoder) error {
	// The buffer as an array, so that its size is a constant to the
	// compiler; n is the write position and c is 1 when the next key or
	// value needs a comma before it, 0 otherwise. A comma is stored at
	// the write position before every token and the token starts at c, so
	// without a comma the token covers it.
	buf := (*[jsonBufSize]byte)(jw.buf[:jsonBufSize])
	n := len(jw.buf)
	c := 0
	if jw.next == needComma {
		c = 1
	}
	depth := jw.depth
	for {
		t, err := dec.Token()
		if err != nil {
			jw.buf, jw.depth, jw.next = buf[:n], depth, nextState(c)
			if err == io.EOF {
				return nil
			}
			return err
		}
		if n > jsonBufSize-fastRoom {
			jw.buf = buf[:n]
			if jw.flush(); jw.err != nil {
				return nil
			}
			buf, n = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]), 0 // a pipe swaps buffers
		}
		b := buf[n : n+fastRoom]
		b[0] = ','
		switch t.Kind() {
		case toon.KindKey, toon.KindString:
			// A string of at most maxFast bytes that needs no escape is
			// checked and copied a word at a time, the last word
			// overlapping the one before it; a string shorter than a
			// word is read as one with loadShort. Any other string
			// leaves the switch for the general path. (This is putPlain,
			// written out here rather than called: a call per token
			// spills the loop's state.)
			s := t.Bytes()
			ln := len(s)
			if ln > maxFast {
				break
			}
			d := b[c : c+maxFast+2+wordSlack]
			d[0] = '"'
			if ln < 8 {
				x := loadShort(s)
				if specialMask(x)&(uint64(1)<<(8*ln)-1) != 0 { // only s's bytes count
					break
				}
				binary.LittleEndian.PutUint64(d[1:], x)
			} else {
				i := 0
				for ; i < ln-8; i += 8 {
					x := binary.LittleEndian.Uint64(s[i:])
					if specialMask(x) != 0 {
						break
					}
					binary.LittleEndian.PutUint64(d[1+i:], x)
				}
				x := binary.LittleEndian.Uint64(s[ln-8:])
				if i < ln-8 || specialMask(x) != 0 {
					break
				}
				binary.LittleEndian.PutUint64(d[ln-7:], x) // s[ln-8:] goes to d[1+ln-8:]
			}
			d[ln+1] = '"'
			if t.Kind() == toon.KindKey {
				d[ln+2] = ':'
				n += c + ln + 3
				c = 0
				continue
			}
			if depth > 0 {
				n += c + ln + 2
				c = 1
				continue
			}
		case toon.KindNumber:
			// The decoder only types text as a number when it follows
			// the grammar of §4, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?,
			// which is JSON's number grammar: the text is written as it is.
			if v := t.Bytes(); depth > 0 {
				if len(v) < 8 {
					binary.LittleEndian.PutUint64(b[c:], loadShort(v))
					n += c + len(v)
					c = 1
					continue
				}
				if k := putRaw(b[c:], v); k >= 0 {
					n += c + k
					c = 1
					continue
				}
			}
		case toon.KindBool:
			if depth > 0 {
				if t.Bool() {
					binary.LittleEndian.PutUint64(b[c:], trueWord)
					n += c + 4
				} else {
					binary.LittleEndian.PutUint64(b[c:], falseWord)
					n += c + 5
				}
				c = 1
				continue
			}
		case toon.KindNull:
			if depth > 0 {
				binary.LittleEndian.PutUint64(b[c:], nullWord)
				n += c + 4
				c = 1
				continue
			}
		case toon.KindObjectStart:
			b[c] = '{'
			n += c + 1
			depth++
			c = 0
			continue
		case toon.KindArrayStart:
			b[c] = '['
			n += c + 1
			depth++
			c = 0
			if t.Form() != toon.FormTabular || t.Len() < minTableRows || !jw.tab.setTable(t.Fields()) {
				continue
			}
			// A table with flat fields: its ranges are converted in
			// parallel when it is large and the input is in memory
			// (parallel.go), else tableRows writes its rows.
			jw.buf, jw.depth, jw.next = buf[:n], depth, needNothing
			done, err := false, error(nil)
			if jw.par != nil && t.Len() >= jw.par.minRows {
				done, err = jw.par.table(jw, dec)
			}
			if !done {
				err = tableRows(jw, dec, &jw.tab)
			}
			if err != nil || jw.err != nil {
				return err
			}
			buf = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize])
			n, depth, c = len(jw.buf), jw.depth, 0
			if jw.next == needComma {
				c = 1
			}
			continue
		case toon.KindObjectEnd, toon.KindArrayEnd:
			b[0] = byte(t.Kind()) // '}' or ']', with no comma before it
			n++
			c = 1
			if depth--; depth > 0 {
				continue
			}
			// The root value is complete: jw writes its newline and
			// flushes it.
			jw.buf, jw.depth = buf[:n], 0
			jw.valueDone()
			buf = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]) // jw may have swapped it (outPipe)
			n, c = len(jw.buf), 0
			continue
		default:
			jw.buf, jw.depth, jw.next = buf[:n], depth, nextState(c)
			return errUnexpectedToken(t.Kind())
		}
		// The general path: jw writes the token, comma included.
		jw.buf, jw.depth, jw.next = buf[:n], depth, nextState(c)
		if t.Kind() == toon.KindKey {
			jw.key(t.Bytes())
		} else {
			writeValue(jw, t)
		}
		if jw.err != nil {
			return nil
		}
		buf = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]) // jw may have swapped it (outPipe)
		n, depth, c = len(jw.buf), jw.depth, 0
		if jw.next == needComma {
			c = 1
		}
	}
}

// nextState is jsonWriter.next for streamCompact's comma count c. After a
// key c is 0 and needNothing stands for needValue: in compact output both
// write nothing before the value.
func nextState(c int) byte {
	if c != 0 {
		return needComma
	}
	return needNothing
}

// maxIndentFast is the deepest indentation, in spaces, streamJSON writes
// itself, and tokenRoom the room it makes sure of before each token: a
// comma, a line break, that indentation and the scratch of its word
// stores, then the token (see fastRoom).
const (
	maxIndentFast = 120
	tokenRoom     = 2 + maxIndentFast + wordSlack + fastRoom
)

// spaces8 is eight spaces as a word.
const spaces8 = 0x2020202020202020

// writeValue writes a primitive token with jw.
func writeValue(jw *jsonWriter, t toon.Token) {
	switch t.Kind() {
	case toon.KindString:
		jw.str(t.Bytes())
	case toon.KindNumber:
		jw.raw(t.Bytes())
	case toon.KindBool:
		if t.Bool() {
			jw.raw(litTrue)
		} else {
			jw.raw(litFalse)
		}
	case toon.KindNull:
		jw.raw(litNull)
	}
}

// The literals as little-endian words, for streamJSON's word stores.
const (
	trueWord  = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
	falseWord = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
	nullWord  = 'n' | 'u'<<8 | 'l'<<16 | 'l'<<24
)

var (
	litTrue  = []byte("true")
	litFalse = []byte("false")
	litNull  = []byte("null")
)
