package toon

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/mem"
)

// This file holds the typing of one primitive token (§4): quoted strings
// with their escapes, numbers, keywords and plain strings.

// primStart classifies the first byte of a value token.
var primStart = [256]byte{
	'"': primQuote, 't': primLetter, 'f': primLetter, 'n': primLetter, '-': primDigit,
	'0': primDigit, '1': primDigit, '2': primDigit, '3': primDigit, '4': primDigit,
	'5': primDigit, '6': primDigit, '7': primDigit, '8': primDigit, '9': primDigit,
}

const (
	primPlain  = iota // a plain string
	primDigit         // maybe a number
	primLetter        // maybe true, false or null
	primQuote         // a quoted string
)

// primitive types one value token (already trimmed) per §4. col is its
// column in the current line, for errors.
func (d *Decoder) primitive(b []byte, col int) (Token, error) {
	if len(b) == 0 {
		return textToken(KindString, b), nil
	}
	if b[0] != '"' {
		return plainToken(b), nil
	}
	s, next, bad, err := d.unquote(b)
	if err != nil {
		return Token{}, d.syntaxErr(col+bad, err)
	}
	if next != len(b) {
		return Token{}, d.syntaxErr(col+next, ErrQuote)
	}
	return textToken(KindString, s), nil
}

// plainToken types a cell or value that is not quoted: b is trimmed, not
// empty, and b[0] != '"'.
func plainToken(b []byte) Token {
	k := KindString
	switch primStart[b[0]] {
	case primDigit:
		if isNumber(b) {
			k = KindNumber
		}
	case primLetter:
		switch string(b) {
		case "true":
			return Token{h: uint64(KindBool), n: 1}
		case "false":
			return Token{h: uint64(KindBool)}
		case "null":
			return Token{h: uint64(KindNull)}
		}
	}
	return Token{h: uint64(k), p: mem.BytesData(b), n: len(b)}
}

// unquote is the package's unquote into d.scratch, for a string whose
// token the queue is to hold: scratch has room for it first (scratchRoom),
// so that unquote does not grow it.
func (d *Decoder) unquote(b []byte) (s []byte, next int, bad int, err error) {
	d.scratchRoom(len(b))
	return unquote(b, &d.scratch)
}

// scratchRoom makes room in scratch for n more bytes: as much as the text
// of a quoted string of n bytes takes unescaped. Scratch grows only here
// (and where the queue is empty), so that the array it outgrows is kept
// while queued tokens may view it: the collector does not scan the queue's
// memory (queueMemory).
func (d *Decoder) scratchRoom(n int) {
	if cap(d.scratch)-len(d.scratch) < n {
		d.growScratch(n)
	}
}

// growScratch is scratchRoom's slow path.
func (d *Decoder) growScratch(n int) {
	if len(d.scratch) > 0 {
		d.scratchPins = append(d.scratchPins, d.scratch)
	}
	d.scratch = slices.Grow(d.scratch, n)
}

// resetScratch empties scratch and lets the arrays it outgrew go, when no
// queued token views them.
func (d *Decoder) resetScratch() {
	d.scratch = d.scratch[:0]
	if len(d.scratchPins) > 0 {
		clear(d.scratchPins)
		d.scratchPins = d.scratchPins[:0]
	}
}

// unquote decodes the quoted token that starts at b[0] == '"'. It returns
// the string's bytes (a view into b when there are no escapes, otherwise
// appended to *scratch) and the index just past the closing quote. bad is
// the index in b of the problem when err is not nil. Its time is linear in
// the token's length however many escapes it holds. *scratch does not move
// when it has room for len(b) more bytes (the decoder relies on it: see
// scratchRoom and fastQueue).
func unquote(b []byte, scratch *[]byte) (s []byte, next int, bad int, err error) {
	// The first quote or backslash after the opening quote is looked for
	// in the next 16 bytes first, as two words, where b's array holds them
	// (b is mostly a view of a line in the buffer, whose array goes on):
	// most strings are short, and the closing quote of one with no escape
	// is found there without a call. The bytes before from are known to
	// be neither. The first flag of eqFlags is exact, so the first of
	// either byte is the first flag of both; a first flag at or past b's
	// end (a byte of the array after b) means b holds no closing quote.
	from := 1
	if cap(b) > 16 {
		const quoteW, slashW = '"' * swarLo, '\\' * swarLo
		p := mem.BytesData(b)
		w := p.Load64(1)
		m := eqFlags(w, quoteW) | eqFlags(w, slashW)
		if m == 0 {
			from = 9
			w = p.Load64(9)
			m = eqFlags(w, quoteW) | eqFlags(w, slashW)
		}
		if m == 0 {
			from = min(17, len(b))
		} else {
			switch j := from + bits.TrailingZeros64(m)>>3; {
			case j >= len(b):
				return nil, len(b), 0, ErrUnterminated
			case p.Byte(j) == '"':
				return b[1:j], j + 1, 0, nil // no escapes: a view
			default:
				return unescape(b, j, scratch) // a backslash before the closing quote
			}
		}
	}
	q := indexByte(b[from:], '"')
	if q < 0 {
		return nil, len(b), 0, ErrUnterminated
	}
	q += from
	e := indexByte(b[from:q], '\\')
	if e < 0 {
		return b[1:q], q + 1, 0, nil // no escapes: a view
	}
	return unescape(b, from+e, scratch)
}

// unquoteIndexed decodes the quoted cell b whose quotes, backslashes and
// bytes >= 0x80 are at the offsets in idx (relative to b, in order, the
// opening quote first), as the index kernels list them, into *scratch,
// which must have room for len(b) more bytes. The text between escapes is
// copied in runs, with no second look at its bytes. It reports false, and
// writes nothing, when b is not one string with only the one-letter
// escapes: unquote then decides (its \u escapes and errors included).
func unquoteIndexed(b []byte, idx []uint32, base int, scratch *[]byte) ([]byte, bool) {
	end := len(b) - 1 // the closing quote's offset
	if end < 1 || b[0] != '"' || b[end] != '"' || len(idx) == 0 || int(idx[0]) != base {
		return nil, false
	}
	out := (*scratch)[:cap(*scratch)]
	start := len(*scratch)
	o, last, closed := start, 1, false
	for _, x := range idx[1:] {
		p := int(x) - base
		if p < last {
			continue // the byte a backslash escapes
		}
		if p > end {
			break // a CR or the like after the cell, the caller's to judge
		}
		switch b[p] {
		case '\\':
			if p+1 >= end {
				return nil, false
			}
			c := unescaped[b[p+1]]
			if c == 0 {
				return nil, false
			}
			o += copyRun(out[o:], b, last, p)
			out[o] = c
			o++
			last = p + 2
		case '"':
			if p != end {
				return nil, false
			}
			closed = true
		}
	}
	if !closed {
		return nil, false
	}
	o += copy(out[o:], b[last:end])
	*scratch = out[:o]
	return out[start:o], true
}

// copyRun copies b[i:j] to the start of dst, which has room for len(b)-i
// bytes, and returns j-i. The runs between escapes are short, so those of
// up to 16 bytes are copied with one or two word loads and stores (the
// two overlapping when the run is shorter than 16 bytes), which may write
// bytes of b after the run into dst's room past it; a longer run, or one
// too near the end of b, goes through copy.
func copyRun(dst, b []byte, i, j int) int {
	n := j - i
	switch {
	case n <= 8 && i+8 <= len(b):
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(b[i:]))
	case n > 8 && n <= 16:
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(b[i:]))
		binary.LittleEndian.PutUint64(dst[n-8:], binary.LittleEndian.Uint64(b[j-8:]))
	default:
		copy(dst, b[i:j])
	}
	return n
}

// unescape is unquote from the first backslash, b[i], on: it decodes the
// string into *scratch. The text between escapes is copied a word at a
// time, the word's first '"' or '\\' found with SWAR masks, so that an
// escape costs no call; the decoded text is never longer than b, so it is
// written into scratch's room after one check of its capacity. Where the
// CPU has AVX-512, the kernel unescapeAVX512 takes over after the first
// escape, 64 bytes at a time (else, with AVX2, unescapeAVX2, 32 bytes at a
// time), for a string with 64 bytes left and room for them: its stores
// may write scratch's spare room up to 64 bytes past the decoded text.
// This loop is the kernels' specification.
func unescape(b []byte, i int, scratch *[]byte) (s []byte, next int, bad int, err error) {
	const (
		quoteW  = '"' * swarLo
		bslashW = '\\' * swarLo
	)
	start := len(*scratch)
	if cap(*scratch)-start < len(b) {
		*scratch = slices.Grow(*scratch, len(b))
	}
	out := (*scratch)[:cap(*scratch)]
	o := start + copy(out[start:], b[1:i])
	for {
		// b[i] is a backslash inside the string.
		if i+1 >= len(b) {
			*scratch = out[:o]
			return nil, len(b), 0, ErrUnterminated
		}
		if c := unescaped[b[i+1]]; c != 0 {
			out[o] = c
		} else {
			if b[i+1] != 'u' || i+6 > len(b) {
				return badEscape(b, i)
			}
			r := rune(0)
			for k := i + 2; k < i+6; k++ {
				h := hexVal(b[k])
				if h < 0 {
					return badEscape(b, i)
				}
				r = r<<4 | rune(h)
			}
			if r >= 0xD800 && r <= 0xDFFF {
				return badEscape(b, i)
			}
			// Three bytes at most, from six: o stays behind i.
			o += utf8.EncodeRune(out[o:], r) - 1
			i += 4
		}
		o++
		i += 2
		if useUnescapeAVX2 && len(b)-i >= 64 && len(out)-o >= 64 {
			// The kernel decodes the escapes it can a block at a time,
			// and stops at the closing quote or at an escape left to
			// this loop; the loop below then copies nothing, or the
			// last bytes. (useUnescapeAVX2 is set wherever
			// useUnescapeAVX512 is: setKernels.)
			var in, n int
			if useUnescapeAVX512 {
				in, n = unescapeAVX512(b[i:], out[o:])
			} else {
				in, n = unescapeAVX2(b[i:], out[o:])
			}
			i += in
			o += n
		}
		// Copy up to the next '"' or '\\'.
		for {
			if i+8 <= len(b) && o+8 <= len(out) {
				w := binary.LittleEndian.Uint64(b[i:])
				binary.LittleEndian.PutUint64(out[o:], w)
				m := swarEq(w, quoteW) | swarEq(w, bslashW)
				if m == 0 {
					i += 8
					o += 8
					continue
				}
				n := bits.TrailingZeros64(m) >> 3
				i += n
				o += n
				break
			}
			for i < len(b) && b[i] != '"' && b[i] != '\\' {
				out[o] = b[i]
				i++
				o++
			}
			if i == len(b) {
				*scratch = out[:o]
				return nil, len(b), 0, ErrUnterminated
			}
			break
		}
		if b[i] == '"' {
			*scratch = out[:o]
			return out[start:o], i + 1, 0, nil
		}
	}
}

// unescaped[c] is the byte the escape \c stands for, or 0 for \u and
// for the bytes that may not follow a backslash (§7.1).
var unescaped = [256]byte{'\\': '\\', '"': '"', 'n': '\n', 'r': '\r', 't': '\t'}

// badEscape is unquote's error for the bad escape at b[i]: ErrEscape, or
// ErrUnterminated when no quote follows it, as the string then lacks its
// end before anything else.
func badEscape(b []byte, i int) (s []byte, next int, bad int, err error) {
	if indexByte(b[i+1:], '"') < 0 {
		return nil, len(b), 0, ErrUnterminated
	}
	return nil, 0, i, ErrEscape
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
