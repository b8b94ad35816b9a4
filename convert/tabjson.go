package convert

import (
	"encoding/binary"
	"io"
	"slices"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/mem"
)

// Rows of a tabular array (§9.3) are objects whose keys are the header's
// field names, in header order, in every row. streamCompact hands the rows
// of a table with flat fields to tableRows, which writes each key as a
// ready-made `,"name":` prefix and a row's separators without the state
// changes of the general loop, and makes sure of room for a whole row
// once per row instead of once per token.
//
// It trusts nothing about the rows: a key is written from its prefix only
// when its text is the field name it expects (a length and a word or two
// compared), and a token that is not the one a row of the header would
// have next (a key out of place, a nested value, an error) is written by
// the general path, after which streamCompact carries on with the rest.
// So the output is what the general loop would write, token for token.
//
// Decoding and writing the rows stay on one goroutine. Splitting them was
// measured (toon rows.toon > /dev/null, bench/cli.sh's 5,000,000 rows): a
// goroutine that takes the tokens from the decoder, checks the rows and
// copies their values into batches (a token's bytes last only until the
// next Token call) cost about 0.8 s of CPU, the decoder's share included,
// as much as the whole serial conversion (0.81 s); writing the batches'
// JSON on the other goroutine took 0.28 s more (perf, 1.15 s in all).
// Taking the tokens, not writing them, is the dear part, so the split
// gained no wall time even with two idle CPUs, for a third more CPU time.

// tableKeys holds the prefixes of one table's fields. It is kept in the
// jsonWriter, so that a document of many tables makes them without
// allocating.
type tableKeys struct {
	fields []tableField
	text   []byte // the fields' names and prefixes, each padded to whole words
	room   int    // the most a row takes when the table loop writes all of it
}

type tableField struct {
	name []byte // the field name
	word uint64 // the name as loadShort reads it, for names of at most 8 bytes
	// pre is `"name":`, with a comma before it for every field but the
	// first. Its capacity reaches to the next whole word, so that it can
	// be copied a word at a time.
	pre []byte
	// The first two words of pre, and whether the prefix has at most 16
	// bytes and is stored as them.
	w0, w1 uint64
	short  bool

	// seen is the text of the last key token found to be this field's
	// name. The rows of a table take their keys from the header, so the
	// key of the next row is most often the same text: a comparison of
	// addresses then stands for one of bytes. (Key texts do not change
	// while the table is open; tableKeys is made anew for each table.)
	seen mem.Ptr

	preOff, preLen int // where pre is in tableKeys.text
}

// Limits of the table loop: tables with more fields, or rows that can
// take more room, go through the general loop. minTableRows is the fewest
// declared rows for which the prefixes are worth making.
const (
	maxTableFields = 256
	maxTableRoom   = jsonBufSize / 4
	minTableRows   = 4
)

// setTable makes tk's prefixes for fields, and reports whether the table
// loop can take the rows: every field is a leaf, and a row fits in
// maxTableRoom.
func (tk *tableKeys) setTable(fields []toon.Field) bool {
	if len(fields) == 0 || len(fields) > maxTableFields {
		return false
	}
	// The row's comma and braces, then for every field its prefix and the
	// most a value takes (a word store's scratch included, which also
	// covers the scratch of the prefix's last word).
	room := 3
	tk.text = tk.text[:0]
	tk.fields = tk.fields[:0]
	for j, f := range fields {
		if f.Fields != nil || len(f.Name) > maxTableRoom {
			return false
		}
		// Offsets into text for now: it may move while it grows.
		off := len(tk.text)
		if j > 0 {
			tk.text = append(tk.text, ',')
		}
		tk.text = slices.Grow(tk.text, maxEscape*len(f.Name)+quoteSlack+1) // appendQuoted's room
		tk.text = append(appendQuoted(tk.text, f.Name), ':')
		pl := len(tk.text) - off
		room += pl + maxFast + 2 + wordSlack
		tk.text = padWords(tk.text)
		tk.text = append(tk.text, f.Name...)
		tk.text = padWords(tk.text)
		tf := tableField{preOff: off, preLen: pl}
		if len(f.Name) <= 8 {
			tf.word = loadShort(f.Name)
		}
		tk.fields = append(tk.fields, tf)
	}
	if room > maxTableRoom {
		return false
	}
	tk.room = room
	for j, f := range fields {
		tf := &tk.fields[j]
		off, pl := tf.preOff, tf.preLen
		tf.pre = tk.text[off : off+pl : off+wordsFor(pl)]
		off += wordsFor(pl)
		tf.name = tk.text[off : off+len(f.Name)]
		var pw [16]byte
		copy(pw[:], tf.pre)
		tf.w0, tf.w1 = binary.LittleEndian.Uint64(pw[:]), binary.LittleEndian.Uint64(pw[8:])
		tf.short = pl <= 16
	}
	return true
}

// padWords pads b with zero bytes to a multiple of 8 bytes.
func padWords(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

// wordsFor is n rounded up to whole words.
func wordsFor(n int) int { return (n + 7) &^ 7 }

// match reports whether s is f's name.
func (f *tableField) match(s []byte) bool {
	if len(s) != len(f.name) {
		return false
	}
	if len(s) <= 8 {
		return loadShort(s) == f.word
	}
	return string(s) == string(f.name)
}

// tableRows writes the rows of a table whose ArrayStart streamCompact has
// written, with tk set for its fields, until the table's ArrayEnd (which
// it writes) or a token it leaves to the general path (which it writes
// with writeToken). It takes and leaves the state in jw. It returns a
// decoding error; an error of the writer is in jw.err.
//
// The loop keeps few values live, for the compiler has few registers: it
// ignores Token's error, since a token of no kind comes only with one,
// and fetches the (sticky) error again when it leaves; and it writes at
// absolute positions of the buffer, with room for a whole row made sure
// of before each row.
func tableRows(jw *jsonWriter, dec *toon.Decoder, tk *tableKeys) error {
	buf := (*[jsonBufSize]byte)(jw.buf[:jsonBufSize])
	n := len(jw.buf)
	depth := jw.depth // the array's; rows are at depth+1
	fields := tk.fields
	rc := 0 // 1 when the next row needs a comma: after the first row
	if jw.next == needComma {
		rc = 1 // (a parallel range's first row: see parallel.go)
	}
	for {
		if n > jsonBufSize-tk.room {
			jw.buf = buf[:n]
			if jw.flush(); jw.err != nil {
				return nil
			}
			buf, n = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]), 0
		}
		// A comma is stored before every row and covered by its brace
		// when none is needed. q is the write position.
		buf[n] = ','
		buf[n+rc] = '{'
		q := n + rc + 1
		if row := dec.Row(); len(row) == 2*len(fields)+2 {
			// A whole row at once, whose keys are the header's fields.
			vals := row[2:]
			for j := range fields {
				q = fields[j].putPrefix(buf, q)
				// putPrim, written out: it is too large to be inlined,
				// and a call per cell would spill the loop's state. (A
				// row's values are primitives: what is left goes to
				// writeSlow.)
				t := vals[2*j]
				switch t.Kind() {
				case toon.KindString:
					if s := t.Bytes(); putPlain(buf[q:], s) {
						q += len(s) + 2
						continue
					}
				case toon.KindNumber:
					v := t.Bytes()
					if len(v) < 8 {
						binary.LittleEndian.PutUint64(buf[q:], loadShort(v))
						q += len(v)
						continue
					}
					if k := putRaw(buf[q:], v); k >= 0 {
						q += k
						continue
					}
				case toon.KindBool:
					t := uint64(b2i(t.Bool()))
					binary.LittleEndian.PutUint64(buf[q:], falseWord^(falseWord^trueWord)&-t)
					q += 5 - int(t)
					continue
				case toon.KindNull:
					binary.LittleEndian.PutUint64(buf[q:], nullWord)
					q += 4
					continue
				}
				if buf, q = writeSlow(jw, t, depth, buf, q, tk.room); buf == nil {
					return nil
				}
			}
		} else {
			var err error
			if buf, q, err = tokenRow(jw, dec, tk, buf, n, q, rc, depth); buf == nil {
				return err
			}
		}
		buf[q] = '}'
		n = q + 1
		rc = 1
	}
}

// tokenRow is tableRows for a row that Row does not give: it reads the
// row token by token, and writes it into buf from q, n being where the
// row starts (and rc 1 when a comma precedes it), until the row's
// ObjectEnd, which it consumes and does not write. It returns the buffer
// and position to go on from, or a nil buffer when it left the table (at
// its end, or to the general path) or the writer failed, with the error
// tableRows returns.
func tokenRow(jw *jsonWriter, dec *toon.Decoder, tk *tableKeys, buf *[jsonBufSize]byte, n, q, rc, depth int) (*[jsonBufSize]byte, int, error) {
	t, _ := dec.Token()
	if t.Kind() != toon.KindObjectStart {
		jw.buf, jw.depth, jw.next = buf[:n], depth, nextState(rc)
		if t.Kind() == toon.KindArrayEnd {
			jw.close(']')
			return nil, 0, nil
		}
		return nil, 0, rest(jw, dec, t)
	}
	for j := range tk.fields {
		f := &tk.fields[j]
		t, _ = dec.Token()
		if s := t.Bytes(); mem.BytesData(s) != f.seen || len(s) != len(f.name) || t.Kind() != toon.KindKey {
			if t.Kind() != toon.KindKey || !f.match(s) {
				next := byte(needComma)
				if j == 0 {
					next = needNothing
				}
				jw.buf, jw.depth, jw.next = buf[:q], depth+1, next
				return nil, 0, rest(jw, dec, t)
			}
			f.seen = mem.BytesData(s)
		}
		q = f.putPrefix(buf, q)
		t, _ = dec.Token()
		if k := putPrim(buf, q, t); k >= 0 {
			q = k
			continue
		}
		if !isPrim(t.Kind()) {
			// Not a primitive (or an error): the general path writes it
			// and what follows.
			jw.buf, jw.depth, jw.next = buf[:q], depth+1, needValue
			return nil, 0, rest(jw, dec, t)
		}
		if buf, q = writeSlow(jw, t, depth, buf, q, tk.room); buf == nil {
			return nil, 0, nil
		}
	}
	if t, _ = dec.Token(); t.Kind() != toon.KindObjectEnd {
		jw.buf, jw.depth, jw.next = buf[:q], depth+1, needComma
		return nil, 0, rest(jw, dec, t)
	}
	return buf, q, nil
}

// putPrefix writes f's prefix at buf[q:] and returns the position after
// it.
func (f *tableField) putPrefix(buf *[jsonBufSize]byte, q int) int {
	if f.short {
		binary.LittleEndian.PutUint64(buf[q:], f.w0)
		binary.LittleEndian.PutUint64(buf[q+8:], f.w1)
		return q + len(f.pre)
	}
	return f.putPre(buf, q)
}

// putPrim writes the primitive t at buf[q:], which has a row's room, and
// returns the position after it; or -1 for a token it leaves to
// writeSlow (a long string or number, one with escapes) or that is not a
// primitive.
func putPrim(buf *[jsonBufSize]byte, q int, t toon.Token) int {
	switch t.Kind() {
	case toon.KindString:
		// A short string that needs no escape (putPlain).
		s := t.Bytes()
		if putPlain(buf[q:], s) {
			return q + len(s) + 2
		}
	case toon.KindNumber:
		v := t.Bytes()
		if len(v) < 8 {
			binary.LittleEndian.PutUint64(buf[q:], loadShort(v))
			return q + len(v)
		}
		if k := putRaw(buf[q:], v); k >= 0 {
			return q + k
		}
	case toon.KindBool:
		if t.Bool() {
			binary.LittleEndian.PutUint64(buf[q:], trueWord)
			return q + 4
		}
		binary.LittleEndian.PutUint64(buf[q:], falseWord)
		return q + 5
	case toon.KindNull:
		binary.LittleEndian.PutUint64(buf[q:], nullWord)
		return q + 4
	}
	return -1
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isPrim reports whether k is the kind of a primitive.
func isPrim(k toon.Kind) bool {
	return k == toon.KindString || k == toon.KindNumber || k == toon.KindBool || k == toon.KindNull
}

// writeSlow writes the primitive t of a row at depth+1 with jw's methods,
// the buffer's state being buf[:q], and returns the buffer and position
// to go on from, with room for a row made again; or a nil buffer after an
// error of the writer, which is in jw.err.
func writeSlow(jw *jsonWriter, t toon.Token, depth int, buf *[jsonBufSize]byte, q, room int) (*[jsonBufSize]byte, int) {
	jw.buf, jw.depth, jw.next = buf[:q], depth+1, needValue
	writeValue(jw, t)
	if jw.err != nil {
		return nil, 0
	}
	buf, q = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]), len(jw.buf)
	if q > jsonBufSize-room {
		if jw.flush(); jw.err != nil {
			return nil, 0
		}
		buf, q = (*[jsonBufSize]byte)(jw.buf[:jsonBufSize]), 0
	}
	return buf, q
}

// putPre writes f's prefix at buf[q:], a word at a time, and returns the
// position after it.
func (f *tableField) putPre(buf *[jsonBufSize]byte, q int) int {
	for i := 0; i < len(f.pre); i += 8 {
		binary.LittleEndian.PutUint64(buf[q+i:], binary.LittleEndian.Uint64(f.pre[i:i+8]))
	}
	return q + len(f.pre)
}

// rest writes t, a token tableRows does not take, with the general path.
// A token of no kind comes with an error, which the decoder returns again
// (its errors are sticky): rest returns it.
func rest(jw *jsonWriter, dec *toon.Decoder, t toon.Token) error {
	if t.Kind() == toon.KindInvalid {
		_, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		return err
	}
	return writeToken(jw, t)
}

// writeToken writes any token with jw's methods.
func writeToken(jw *jsonWriter, t toon.Token) error {
	switch t.Kind() {
	case toon.KindKey:
		jw.key(t.Bytes())
	case toon.KindObjectStart, toon.KindArrayStart:
		jw.open(byte(t.Kind()))
	case toon.KindObjectEnd, toon.KindArrayEnd:
		jw.close(byte(t.Kind()))
	case toon.KindString, toon.KindNumber, toon.KindBool, toon.KindNull:
		writeValue(jw, t)
	default:
		return errUnexpectedToken(t.Kind())
	}
	return nil
}
