// Package tokencount counts the tokens of text in the o200k_base and
// cl100k_base encodings, giving the counts that the Count method of
// github.com/tiktoken-go/tokenizer gives for the whole text, but in time
// linear in the text and, through Counter, while the text streams by.
//
// Counting has two steps, as in the tokenizer: a pre-tokenizer cuts the
// text into pieces as the encoding's regular expression does (split.go),
// and byte-pair merging turns each piece into tokens (bpe.go). The count
// of a text is the sum of the counts of its pieces, so a stream is counted
// piece by piece and only the piece still being written is kept.
//
// Memory: a Counter keeps the text from the start of the piece it cannot
// decide yet, which is a few bytes in ordinary text. A piece is a run of
// letters (with one rune before it), up to three digits, a run of
// punctuation, or white space, so a text with an unbroken run of, say, a
// million letters has a piece of a megabyte; such a piece is held whole
// (in a buffer of up to twice its length while it arrives) and merged in
// 20 bytes a byte more, as exactness needs: the tokens at the end of a
// run of letters can depend on its first bytes. Text as JSON and TOON
// hold it has pieces of a few bytes.
//
// Text that is not valid UTF-8 is counted as tiktoken-go counts it, each
// byte that starts no valid sequence standing for U+FFFD.
package tokencount

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is an encoding's vocabulary and pre-tokenizer. It is safe for
// concurrent use.
type Encoding struct {
	name  string
	vocab *vocab
	split func(b []byte, eof bool) int
}

// Loading an encoding's vocabulary takes some 0.1 s, and memory for
// tiktoken-go's own tables (about 30 MB for o200k_base while it loads),
// so each is loaded once, on first use.
var (
	o200k, cl100k         *Encoding
	o200kErr, cl100kErr   error
	o200kOnce, cl100kOnce sync.Once
)

// Get returns the encoding of the given name: "o200k_base" or
// "cl100k_base".
func Get(name string) (*Encoding, error) {
	switch name {
	case "o200k_base":
		o200kOnce.Do(func() { o200k, o200kErr = load(tokenizer.O200kBase, splitO200k) })
		return o200k, o200kErr
	case "cl100k_base":
		cl100kOnce.Do(func() { cl100k, cl100kErr = load(tokenizer.Cl100kBase, splitCl100k) })
		return cl100k, cl100kErr
	}
	return nil, fmt.Errorf("tokencount: unknown encoding %q", name)
}

func load(enc tokenizer.Encoding, split func([]byte, bool) int) (*Encoding, error) {
	initClasses()
	v, err := loadVocab(enc)
	if err != nil {
		return nil, err
	}
	return &Encoding{name: string(enc), vocab: v, split: split}, nil
}

// Name returns the encoding's name.
func (e *Encoding) Name() string { return e.name }

// Count returns the number of tokens of text.
func (e *Encoding) Count(text []byte) int {
	var c Counter
	c.enc = e
	c.scan(text, true)
	return int(c.tokens)
}

// Counter counts the tokens of the text written to it, as Count would
// count the whole text. It is not safe for concurrent use.
type Counter struct {
	enc    *Encoding
	tokens int64
	buf    []byte // text written and not yet counted: the start of an undecided piece
	retry  int    // the length buf must reach before splitting is tried again
	m      merger
	cache  pieceCache
}

// NewCounter returns a Counter of e's tokens.
func (e *Encoding) NewCounter() *Counter { return &Counter{enc: e} }

// shrinkBytes is the capacity above which buf is given back once the long
// piece that needed it has been counted.
const shrinkBytes = 1 << 20

// Write counts the pieces of p that the text so far decides and keeps the
// rest for the next Write or Close. It never fails.
func (c *Counter) Write(p []byte) (int, error) {
	n := len(p)
	if len(c.buf) > 0 && len(c.buf)+len(p) < c.retry {
		c.buf = append(c.buf, p...)
		return n, nil
	}
	// Decide the piece kept back with the start of p, taking at each round
	// as many bytes as buf holds (or 256), so that a long piece costs time
	// linear in its length; then count the rest of p in place.
	for len(c.buf) > 0 {
		if len(p) == 0 {
			c.retry = 2 * len(c.buf)
			return n, nil
		}
		old := len(c.buf)
		k := min(len(p), max(old, 256))
		c.buf = append(c.buf, p[:k]...)
		m := c.scan(c.buf, false)
		if m >= old { // what is left of buf is in p
			p = p[m-old:]
			c.buf = c.buf[:0]
			break
		}
		p = p[k:]
		c.buf = c.buf[:copy(c.buf, c.buf[m:])]
	}
	m := c.scan(p, false)
	if cap(c.buf) > shrinkBytes && len(p)-m < shrinkBytes/4 {
		c.buf = nil // give back the room of a long piece
	}
	c.buf = append(c.buf, p[m:]...)
	// A piece still undecided is split again once the text after its start
	// has doubled.
	c.retry = 2 * len(c.buf)
	return n, nil
}

// Tokens returns the number of tokens counted so far, which leaves out the
// text of the last piece until the text after it, or Close, decides it.
func (c *Counter) Tokens() int64 { return c.tokens }

// Total returns the number of tokens of all the text written so far, as
// Close would, but leaves the Counter as it is, so that more text can be
// written: the text kept back is counted as the end of the text here, and
// again, as the text after it decides, by the next Write or Close.
func (c *Counter) Total() int64 {
	n := c.tokens
	c.scan(c.buf, true)
	n, c.tokens = c.tokens, n
	return n
}

// Close counts the text kept back, as the end of the text, and returns the
// number of tokens of all the text written. The Counter can then count a
// new text.
func (c *Counter) Close() int64 {
	c.scan(c.buf, true)
	n := c.tokens
	c.tokens, c.buf, c.retry = 0, c.buf[:0], 0
	if cap(c.buf) > shrinkBytes {
		c.buf = nil
	}
	return n
}

// scan counts the pieces of b up to the first one that b does not decide
// (all of them if eof), and returns how many bytes it counted.
func (c *Counter) scan(b []byte, eof bool) int {
	split, v := c.enc.split, c.enc.vocab
	i := 0
	for i < len(b) {
		n := split(b[i:], eof)
		if n < 0 {
			break
		}
		c.tokens += int64(c.cache.count(v, validPiece(b[i:i+n]), &c.m))
		i += n
	}
	return i
}

// validPiece returns piece with each byte that starts no valid UTF-8
// sequence replaced by U+FFFD, as tiktoken-go's regular expression, which
// matches runes, returns its pieces.
func validPiece(piece []byte) []byte {
	for _, c := range piece {
		if c >= utf8.RuneSelf {
			if utf8.Valid(piece) {
				return piece
			}
			return []byte(string([]rune(string(piece))))
		}
	}
	return piece
}
