package toon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// withoutLineRuns runs f with runLines off: every line then goes through
// the general path (step).
func withoutLineRuns(f func()) {
	runLinesOff = true
	defer func() { runLinesOff = false }()
	f()
}

// runKeys are keys of field lines: plain ones that runLines takes, and
// quoted ones and header-like ones that it leaves to step.
var runKeys = []string{"a", "b", "name", "id", "x_1", "k.y", "timeout_seconds", "a", `"q k"`, `"a"`, "é", "b"}

// runValues are values of field lines: ones that runLines takes and ones
// that it must leave to step (bad quotes and escapes, ill-formed UTF-8).
var runValues = []string{
	"1", "-2.5", "0", "007", "1e5", "12ab", "12345678", "123456789", "9.5x", "42 ", "true", "false", "null", "x", "Ada Lovelace", `""`, `"a,b"`, `"q\"q"`,
	`"tab\there"`, "[]", "a: b", "é", "€x", " pad ", `"open`, `"bad\q"`, `"x"y`, "\xff", `"\u00e9"`, "- x", "#x",
	// Near the keywords and the short numbers that a field line's value
	// is typed as without a call (runFields).
	"tru", "nul", "f", "falsey", "nulls", "True", "-", "-0", "00", "0.5", "1.", ".5", "1.2.3", "+1", "1E5", "12345678.9", "-1234567",
	"true\x00", "null\x00", "nul\x00", "fals\x00", "tré", "n\xff",
	// Digit-led strings that shortText types, and numbers beside them.
	"15s", "512Mi", "25%", "0x1F", "2m", "5_0", "1e", "1E+", "1e-7", "7.5e3", "3:00", "1-2",
}

// runDoc builds a nested document: objects in objects, lists of objects
// whose first field is on the hyphen line, primitive items, inline arrays
// and tables, with perturbations where line runs must stop: comments,
// blank lines, CRLF, tabs and odd widths in the indentation, deeper lines,
// duplicate keys, wrong counts, bad values.
func runDoc(rng *rand.Rand, size int) []byte {
	var b bytes.Buffer
	eol := "\n"
	if rng.Intn(8) == 0 {
		eol = "\r\n"
	}
	pad := func(depth int) string { return strings.Repeat("  ", depth) }
	perturb := func(depth int) {
		switch rng.Intn(150) {
		case 0:
			b.WriteString(pad(depth) + "# a comment" + eol)
		case 1:
			b.WriteString(eol)
		case 2:
			b.WriteString(" ")
		case 3:
			b.WriteString("\t")
		case 4:
			b.WriteString("  ")
		case 5:
			b.WriteString(pad(depth) + "   " + eol) // a line of spaces
		}
	}
	key := func() string {
		if rng.Intn(15) == 0 {
			return runKeys[rng.Intn(len(runKeys))]
		}
		return "k" + strconv.Itoa(rng.Intn(1000))
	}
	value := func() string {
		if rng.Intn(25) == 0 {
			return runValues[rng.Intn(len(runValues))]
		}
		return runValues[rng.Intn(12)]
	}
	lines := 0
	var object func(depth int, first string)
	list := func(depth int, k string) {
		n := 1 + rng.Intn(4)
		decl := n
		if rng.Intn(10) == 0 {
			decl += rng.Intn(3) - 1
		}
		b.WriteString(k + "[" + strconv.Itoa(decl) + "]:" + eol)
		for i := 0; i < n; i++ {
			perturb(depth + 1)
			switch rng.Intn(7) {
			case 0:
				b.WriteString(pad(depth+1) + "- " + value() + eol)
			case 1:
				b.WriteString(pad(depth+1) + "-" + eol)
			case 2: // an inline array as the item
				b.WriteString(pad(depth+1) + "- " + inlineArray(rng, value) + eol)
			default:
				object(depth+2, pad(depth+1)+"- ")
			}
		}
	}
	object = func(depth int, first string) {
		n := 1 + rng.Intn(6)
		for i := 0; i < n && lines < size; i++ {
			lines++
			lead := pad(depth)
			if i == 0 && first != "" {
				lead = first
			} else {
				perturb(depth)
			}
			b.WriteString(lead)
			k := key()
			switch r := rng.Intn(20); {
			case r < 3 && depth < 8:
				b.WriteString(k + ":" + eol)
				object(depth+1, "")
			case r == 3 && depth < 8:
				list(depth, k)
			case r == 4:
				b.WriteString(k + inlineArray(rng, value) + eol)
			case r == 5:
				b.WriteString(k)
				tableText(rng, &b, pad(depth+1), eol, value)
			default:
				b.WriteString(k + ": " + value() + eol)
			}
		}
	}
	object(0, "")
	if rng.Intn(3) == 0 {
		b.WriteString("tail: 1")
	}
	return b.Bytes()
}

// tableHeads are headers of tables and keyed objects (the text after the
// key), with the delimiter and the number of cells of their rows.
var tableHeads = []struct {
	head, delim string
	cells       int
}{
	{"{a,b}:", ",", 2}, {":]{a,b}:", ",", 2}, {"{a,b{c,d}}:", ",", 3}, {":]{a,b{c,d}}:", ",", 3},
	{"|]{a|b}:", "|", 2}, {":|]{a|b}:", "|", 2}, {"\t]{a\tb}:", "\t", 2}, {"{\"x y\",b}:", ",", 2},
	{":]{a}:", ",", 1}, {"{a,b}: x", ",", 2}, {":]:", ",", 2}, {"{a,a}:", ",", 2},
}

// tableText writes a table or keyed object after its key: a header of
// tableHeads with its count, mostly the declared number of rows, and rows
// whose cells are values, sometimes with a cell too many or too few, a
// bare entry, a duplicate entry key, or a key-value line among rows, and
// sometimes a comment, a blank line, a tab or a space too many before a
// row.
func tableText(rng *rand.Rand, b *bytes.Buffer, pad, eol string, value func() string) {
	h := tableHeads[rng.Intn(len(tableHeads))]
	n := 1 + rng.Intn(4)
	decl := n
	if rng.Intn(10) == 0 {
		decl += rng.Intn(3) - 1
	}
	head := "[" + strconv.Itoa(decl) + h.head // the rest of the bracket segment in h.head
	if h.head[0] == '{' {
		head = "[" + strconv.Itoa(decl) + "]" + h.head
	}
	b.WriteString(head + eol)
	keyed := strings.HasPrefix(h.head, ":")
	for i := 0; i < n; i++ {
		cells := h.cells
		if rng.Intn(25) == 0 {
			cells += rng.Intn(3) - 1
		}
		var row []string
		for c := 0; c < cells; c++ {
			row = append(row, value())
		}
		line := strings.Join(row, h.delim)
		if keyed {
			switch rng.Intn(25) {
			case 0:
				line = "e0:" // a bare entry
			case 1:
				line = "e0: " + line // a duplicate key, when not the first
			case 2:
				line = "\"q e\": " + line
			case 3:
				line = "no colon " + line
			default:
				line = "e" + strconv.Itoa(i) + ": " + line
			}
		} else if rng.Intn(25) == 0 {
			line = "k: v"
		}
		perturbRow(rng, b, pad, eol, 60)
		b.WriteString(pad + line + eol)
	}
}

// inlineHeads are bracket segments of inline arrays with their
// delimiters: ones runs take and ones they leave to step (a leading zero,
// a keyed header, fields, text between the bracket and the colon).
var inlineHeads = []struct{ seg, delim string }{
	{"[2]:", ","}, {"[2|]:", "|"}, {"[2\t]:", "\t"}, {"[3]:", ","}, {"[1]:", ","}, {"[0]:", ","},
	{"[02]:", ","}, {"[2:]:", ","}, {"[2]{a}:", ","}, {"[2] :", ","}, {"[2|]:", ","}, {"[]:", ","},
}

// inlineArray returns the rest of a field line after its key: an inline
// array of two values, mostly of a header that runs take, sometimes with
// spaces around the values, a quoted delimiter in a value, or nothing
// after the colon.
func inlineArray(rng *rand.Rand, value func() string) string {
	h := inlineHeads[0]
	if rng.Intn(3) == 0 {
		h = inlineHeads[rng.Intn(len(inlineHeads))]
	}
	v1, v2 := value(), value()
	switch rng.Intn(12) {
	case 0:
		return h.seg
	case 1:
		return h.seg + "  " + v1 + " " + h.delim + " " + v2 + " "
	case 2:
		return h.seg + " \"x" + h.delim + "y\"" + h.delim + v2
	case 3:
		return h.seg + " " + h.delim + v2
	}
	return h.seg + " " + v1 + h.delim + v2
}

// checkRuns decodes data with line runs on and off, through a byte slice,
// a reader and a reader of a few bytes at a time, and requires the same
// tokens, the same positions after each (Line, InputOffset, the position
// Unmarshal gives a token) and the same error; and the same value and
// error from Unmarshal into any.
func checkRuns(t *testing.T, data []byte, opts ...Option) {
	t.Helper()
	limit := fuzzTokenLimit(len(data))
	var want string
	var wantErr error
	var wantV any
	var wantUErr error
	withoutLineRuns(func() {
		want, wantErr = renderRuns(t, newBytesDecoder(data, opts), limit)
		wantUErr = Unmarshal(data, &wantV, opts...)
	})
	for name, d := range map[string]*Decoder{
		"bytes":   newBytesDecoder(data, opts),
		"reader":  NewDecoder(bytes.NewReader(data), opts...),
		"chunked": NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2}}, opts...),
	} {
		got, err := renderRuns(t, d, limit)
		if got != want {
			t.Fatalf("%s: %q:\n got %s\nwant %s", name, data, got, want)
		}
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s: %q: error %v, want %v", name, data, err, wantErr)
		}
	}
	var v any
	err := Unmarshal(data, &v, opts...)
	if (err == nil) != (wantUErr == nil) || err != nil && err.Error() != wantUErr.Error() || !reflect.DeepEqual(v, wantV) {
		t.Fatalf("Unmarshal %q: %v, %v; want %v, %v", data, v, err, wantV, wantUErr)
	}
}

// renderRuns renders every token with all it carries (renderTokens's
// form) and the positions after it (renderWithLines's).
func renderRuns(t *testing.T, d *Decoder, limit int) (string, error) {
	t.Helper()
	return renderEach(t, d, limit, func(sb *strings.Builder, tok Token, line, col int) {
		fmt.Fprintf(sb, "%c%q/%d/%v/%c/%d@%d:%d:%d:%d\n", tok.Kind(), tok.Bytes(), tok.Len(), tok.Form(), tok.Delim(), len(tok.Fields()), d.Line(), line, col, d.InputOffset())
	})
}

// runOpts are the option sets the run tests decode with.
var runOpts = [][]Option{
	{WithStrict(true)},
	{WithStrict(false)},
	{WithStrict(true), WithMaxLineLength(64)},
	{WithStrict(true), WithMaxDepth(4)},
	{WithStrict(false), WithMaxDepth(3)},
}

// runCases are documents where a run must stop, or must close scopes as
// the general path does.
var runCases = []string{
	"a:\n  l[3]:\n    - x: 1\n    - y: 2\n  b: 1\n",                                 // a list one item short, closed by a field
	"a:\n  l[3]:\n    - x: 1\n    - y: 2\nb: 1\n",                                   // ... by a field two levels up
	"l[2]:\n  - x: 1\n  - y: 2\n  - z: 3\n",                                         // one item too many
	"a:\n  t[2]{p,q}:\n    1,2\n  b: 1\n",                                           // a table one row short
	"a:\n  t[1]{p,q}:\n    1,2\n  b: 1\n  c:\n    d: 2\n",                           // a table closed with its count
	"a: 1\nb: 2\na: 3\n",                                                            // a duplicate key
	"a:\n  b: 1\n  b: 2\n",                                                          // ... in a nested object
	"a:\n  b:\n    c:\n      d:\n        e: 1\n",                                    // deeper than a small depth limit
	"l[1]:\n  - a:\n      b:\n        c: 1\n",                                       // item objects, deep
	"a: 1\n b: 2\n",                                                                 // an odd indentation
	"a: 1\n\tb: 2\n",                                                                // a tab
	"a: 1\r\nb: \"x\"\r\nc: \"y\r\n",                                                // CRLF, an unterminated quote
	"a: 1\nb: \"\\q\"\n",                                                            // a bad escape
	"a: 1\nb: \xff\n",                                                               // ill-formed UTF-8
	"a: 1\nb: é\n  c: 1\n",                                                          // a deeper line
	"a:\n  b: 1\n\n  c: 2\nl[2]:\n  - x: 1\n\n  - y: 2\n",                           // blank lines
	"a:\n  # note\n  b: 1\n",                                                        // a comment
	"a: 1\nb: 2",                                                                    // no LF at the end
	"l[2]:\n  - x: 1\n    y: 2\n  - x: 1\n    x: 2\n",                               // a duplicate key in an item
	"a: 1\nb: " + strings.Repeat("v", 70) + "\nc: 1\n",                              // a line over the smallest limit
	"a: 1\n\"b c\": 2\n\"a\": 3\n",                                                  // quoted keys, one a duplicate
	"a: 1\n\"\": 2\n\"q\\\"q\": 3\n\"x\\ty\":\n  z: 1\n",                            // the empty key, escapes
	"a: 1\n\"k\"x: 2\n\"k\"[2]: a,b\n\"a:b\": 3\n",                                  // a quoted key with text after it, a header
	"a: 1\n\"k\\q\": 2\n\"open: 3\n",                                                // a bad escape and an open quote in a key
	"a: 1\n\"a-quoted-key-of-24-bytes\":\n  \"ключ\": 1\n  \"x-y\": \"v\"\n",        // long and non-ASCII quoted keys
	"a: 1\n\"b-0123456789\\\\c\": 2\n\"z\": 3",                                      // an escape after 8 bytes, a last line
	"l[3]:\n  - \"k\": 1\n  - \"a:b\"\n  - \"k\":\n      x: 1\n",                    // quoted keys on hyphen lines, a quoted item
	"a: 1\nt[2]: x,\"y,z\"\nu[3|]: 1|2|\nv[2\t]: a b\tc\nw: 2\n",                    // inline arrays: a quoted delimiter, an empty value, other delimiters
	"a: 1\nt[3]: x,y\nb: 2\n",                                                       // an inline array one value short
	"a: 1\nt[1]: x,y\nb: 2\n",                                                       // ... one value too many
	"a: 1\nt[2]: x,\"y\nb: 2\n",                                                     // an unterminated quote in a value
	"a: 1\nt[2]: \"x\"y,z\nb: 2\n",                                                  // text after a quoted value
	"a: 1\nt[2]: x,\"\\q\"\nb: 2\n",                                                 // a bad escape in a value
	"a: 1\nt[2]: x,\"\\ty\"\nt[1]: z\n",                                             // an escape, then a duplicate key
	"l[2]:\n  - t[2]: a,b\n    u: 1\n  - t[1]: c\n",                                 // inline arrays on hyphen lines
	"a:\n  b:\n    t[2]: 1,2\n    c: 3\n",                                           // an inline array at a small depth limit
	"a: 1\nt[02]: x,y\nu[2:]: x,y\nv[2]x: 1\nw[2] : a,b\n",                          // headers runs leave to step
	"a: 1\nt[1000000000000000000]: x\nu[999999999999999999]: y\n",                   // too many digits, the most
	"a: 1\nt[0]:\nu[2]:\n  - 1\n  - 2\nv[0]: \n",                                    // empty arrays and a list
	"t[1]{a,b}:\n  1,2\nx: 1\nu[1|]{a,b}:\n  1|2\nv[1]{a,b}:\n  3,4\n",              // a fields segment seen before, under another delimiter
	"r[2:]{a,b}:\n  x: 1,2\n  \"y z\": 3,\"4\"\nr2[2:]{a,b}:\n  x: 1,2\n  x: 3,4\n", // keyed objects, a duplicate entry key
	"r[1:]{a,b}:\n  x: 1,2\ns[1:]{a,b}:\n  x: 1,2\n  y: 3,4\nt: 1\n",                // an entry too many
	"r[2:]{a,b}:\n  x: 1,2\ns[2:]{a,b}:\n  x: 1,2\nt: 1\n",                          // ... one too few, closed by a field
	"r[1:]{a,b{c,d}}:\n  x: 1,2,3\ns[1:]{a,b{c,d}}:\n  x: 1,2\n",                    // nested fields, a cell short
	"l[2]:\n  - t[1]{a,b}:\n      1,2\n    u: 1\n  - t[1]{a,b}:\n      3,4\n",       // tables on hyphen lines
	"t[1]{a,b}: x\nt2[1]{a,b}:\n  1,2\nt3[1]{a,b}: x\n",                             // text after a fields segment
	"a: 1\nb: []\nc:  x\nd: x  \ne: 2\n",                                            // an empty array, spaces around a value
	"a: 1\nb: " + strings.Repeat("v", 27) + "\nc: " + strings.Repeat("v", 28) + "\nd: " + strings.Repeat("v", 29) + "\ne: 1\n", // lines of 31 to 33 bytes around a block
	"a: 1\r\nb: " + strings.Repeat("v", 27) + "\r\nc:\r\n  d: \"x\"\r\n",                                                       // CR LF at a block's end, a quoted value
	"a: 1\nb: x\xff" + strings.Repeat("v", 40) + "\nc: 1\n",                                                                    // ill-formed UTF-8 in the first block of a long line
	deepFields(10),                                                                                                // indentations of 16 spaces and more
	manyKeys("", 70, "k3"),                                                                                        // a duplicate in an object of many short keys
	manyKeys("  ", 40, "a_key_longer_than_15"),                                                                    // ... a long key, in a nested object
	"r[3:]{a,b}:\n  x: 1,2\n  # note\n  y: 3,4\n\n  z: 5,6\n",                                                     // a comment and a blank line among entries
	"r[3:]{a,b}:\n  x: 1,2\n\ty: 3,4\n   z: 5,6\n",                                                                // a tab, an odd indentation among entries
	"r[2:]{a,b}:\r\n  x: 1,2\r\n    y: 3,4\r\n",                                                                   // CRLF, a deeper entry
	"r[2:]{a,b}:\n  x: 1,\xff\n  y: 3,4\n",                                                                        // ill-formed UTF-8 in an entry
	"r[2:]{a,b}:\n  x: 1,2\n  y: " + strings.Repeat("v", 70) + ",1\n",                                             // an entry over the smallest limit
	"p[1:]{x,y}:\n  q: 0,0\na:\n  b:\n    r[1:]{x,y}:\n      k: 1,2\n    t[1]: z\n",                               // a keyed object (its fields seen before) and an inline array at a small depth limit
	"r[2:]{a,b}:\n  x: 1,2\n  \"x\": 3,4\nu[1:]{a,b}:\n  \"q\\\"\": 1,\"2\"\n",                                    // a duplicate quoted entry key, escapes
	"r[2:]{a,b}:\n  x:\n  y: 3,4\ns[2:]{a,b}:\n  x: 1,2,3\n  y: 3\n",                                              // a bare entry, cells too many and too few
	"a: 1\nt[1]: x\nt[1]{a,b}:\n  1,2\nu[0]{a,b}:\nv: 2\n",                                                        // a header's key a duplicate, an empty table
	"p[1:]{x,y}:\n  q: 0,0\nl[1]:\n  - a: 1\n    r[1:]{x,y}:\n      k: 1,2\n    t[2]: p,q\n    b: 2\n",            // ... in an item
	"a: 1\nt[2]{a,b}:\n  1,2\n  k: v\nb: 2\n",                                                                     // a field among rows
	"t[1]{a,b}:\n  1,2\nx: 1\ny: 2\nu[2]{a,b}:\n  3,4\n  5,6\nz: 1\n",                                             // a table whose fields a run has seen: its rows end the run
	"l[4]:\n  - [2]: 1,2\n  - [3|]: a|\"b|c\"|\n  - [1]: \"\\t\"\n  - [0]:\nm: 1\n",                               // inline arrays as list items: another delimiter, quotes, an escape, none
	"l[2]:\n  -   [2]:  1 , 2 \n  - [1]: x  \n  - [1]: y\n",                                                       // spaces around them, an item too many
	"l[2]:\n  - [3]: 1,2\n  - [1]: 1,2\nm[1]:\n  - [1]: \"x\ny\n",                                                 // values short, too many, an open quote
	"l[3]:\n  - a: 1\n    b: 2\n  - [1]: z\n  - [2]:\n    - [1]: 1\n    - [1]: 2\n",                               // after an item object; a list of arrays in a list
	"l[2]:\n  - [1]{a}:\n    1\n  - [1:]{a}:\n    k: 1\n",                                                         // keyless tables are no list items
	"a:\n  b:\n    l[1]:\n      - [1]: 1\n",                                                                       // at a small depth limit
	"l[1]:\n  - [300]: " + strings.Repeat("1.5,", 299) + "x\nm[1]:\n  - [2]: " + strings.Repeat("7,", 300) + "\n", // longer than a lazy chunk, declared and not
	// Items whose text before the values repeats (runItems reads it once):
	// spaces after the colon and after the values, another header, CR LF,
	// a quoted value, a deeper line, a text longer than 24 bytes before them.
	"l[6]:\n  - [2]:  1,2  \n  - [2]:  1,2  \n  - [2]:  1,3\n  - [3]: 1,2,3\n  - [3]: 4,5,6\n  - [3]: 4,5\n",
	"l[4]:\r\n  - [2]: 1,2\r\n  - [2]: \"a\",2\r\n  - [2]: 1,2\r\n    - [2]: 1,2\r\n",
	"a:\n  b:\n    c:\n      d:\n        l[3]:\n          - [2|]: 1|2\n          - [2|]: 3|4\n          - [2|]: 5|6\nz: 1\n",
	"l[3]:\n  - [1]: x\n  - [1]: x\n  - [1]:\n  - [1]: y\n",
	"a: 1\nl[2]:   \n  - 1\n  - 2\nb: 1\n",                                    // a list's header with spaces after its colon
	"a: 1\nl[0]:\nb: 1\n",                                                     // [0]: an empty array (strict), an empty list (not)
	"a: 1\nl[0]:\n  - 1\nb: 1\n",                                              // ... with an item
	"a: 1\nl[2|]:\n  - [2|]: 1|2\n  - [2|]: 3|4\nb: 1\n",                      // a list whose header has a delimiter
	"a:\n  l[2]:\n    - [2]: 1,2\n    - [2]: 3,4\n    - [2]: 5,6\n  b: 1\n",   // a list of arrays, one item too many
	"a:\n  l[3]:\n    - [2]: 1,2\n    - [2]: 3,4\nb: 1\n",                     // ... one too few, closed two levels up
	"a:\n  l[2]:\n    - l[2]:\n        - [1]: 1\n        - [1]: 2\n    - 3\n", // a list in a list item's first field
	"a:\n  l[2]:\n  b: 1\n",                                                   // a list without its items
}

// deepFields returns an object nested n levels deep, with a field at each
// level on the way in and on the way out.
func deepFields(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%sk%d: %d\n%so%d:\n", strings.Repeat("  ", i), i, i, strings.Repeat("  ", i), i)
	}
	for i := n; i >= 0; i-- {
		fmt.Fprintf(&b, "%sz%d: \"%d\"\n", strings.Repeat("  ", i), i, i)
	}
	return b.String()
}

// TestManyKeysDuplicate checks that a duplicate key after more keys than
// a small key set holds is reported at its line and column, with line
// runs and without.
func TestManyKeysDuplicate(t *testing.T) {
	for _, c := range []struct {
		doc string
		col int
	}{{manyKeys("", 70, "k3"), 1}, {manyKeys("  ", 40, "a_key_longer_than_15"), 3}} {
		lines := strings.Count(c.doc, "\n")
		for _, off := range []bool{false, true} {
			runLinesOff = off
			var v any
			err := Unmarshal([]byte(c.doc), &v)
			runLinesOff = false
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrDuplicateKey) || se.Line != lines || se.Column != c.col {
				t.Fatalf("runs off %v: error %v, want a duplicate key at line %d, column %d", off, err, lines, c.col)
			}
		}
	}
}

// manyKeys returns a document whose root holds, at indent, n keys (short
// ones, a long one after every tenth), and then dup once more: keys past
// what a small key set holds, most new to its filter.
func manyKeys(indent string, n int, dup string) string {
	var b strings.Builder
	if indent != "" {
		b.WriteString("o:\n")
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%sk%d: %d\n", indent, i, i)
		if i%10 == 9 {
			fmt.Fprintf(&b, "%sa_key_longer_than_15%d: x\n", indent, i/10)
		}
	}
	b.WriteString(indent + "a_key_longer_than_15: 1\n")
	b.WriteString(indent + dup + ": 2\n")
	return b.String()
}

func TestLineRunsCases(t *testing.T) {
	// runFields reads a line only with 64 bytes of input from its start
	// (32 by words): each case runs again followed by lines at the root,
	// which puts its own lines in runFields's reach.
	var tail string
	for i := range 4 {
		tail += "tail_key_of_the_case_" + strconv.Itoa(i) + ": 1\n"
	}
	for _, c := range runCases {
		for _, o := range runOpts {
			checkRuns(t, []byte(c), o...)
			if strings.HasSuffix(c, "\n") {
				checkRuns(t, []byte(c+tail), o...)
			}
		}
	}
}

func TestLineRunsMatchGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	docs := longtest.Size(t, 600, 6000)
	for i := 0; i < docs; i++ {
		size := 5 + rng.Intn(40)
		if i%50 == 0 {
			size = 3000 // more than one run and one buffer
		}
		data := runDoc(rng, size)
		for _, o := range runOpts {
			checkRuns(t, data, o...)
		}
		if i%4 == 0 {
			// Other indent sizes: a power of two and one that is not
			// (runLines finds the depth of each in its own way).
			checkRuns(t, reindent(data, 4), WithIndent(4))
			checkRuns(t, reindent(data, 3), WithIndent(3), WithStrict(false))
		}
	}
}

// reindent returns doc with the indentation of each line, read in units of
// two spaces, written in units of n spaces (an odd space stays one).
func reindent(doc []byte, n int) []byte {
	var b bytes.Buffer
	for _, line := range bytes.SplitAfter(doc, []byte("\n")) {
		sp := 0
		for sp < len(line) && line[sp] == ' ' {
			sp++
		}
		b.WriteString(strings.Repeat(" ", sp/2*n+sp%2))
		b.Write(line[sp:])
	}
	return b.Bytes()
}

// TestLineWords holds the word tests of a line's block (firstFlag of
// lfFlags, firstNonSpace) and plainKeyEndAt to byte loops, for every
// placement of an LF, a first byte that is no space and a key's end in and
// past the block.
func TestLineWords(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	fill := []byte("  ab:\n\r\t#-_.Z9\x80\xff\x00\x0a \x2a\x8a")
	for n := 0; n < 20000; n++ {
		p := make([]byte, lineBlock+24)
		for i := range p {
			p[i] = fill[rng.Intn(len(fill))]
		}
		switch n % 4 {
		case 0: // runs of spaces and key bytes, an LF late or never
			s := rng.Intn(lineBlock + 1)
			for i := 0; i < s; i++ {
				p[i] = ' '
			}
			for i := s; i < len(p); i++ {
				p[i] = "abcXYZ019_."[rng.Intn(11)]
			}
			if k := rng.Intn(len(p) + 8); k < len(p) {
				p[k] = '\n'
			}
		case 1: // no LF at all
			for i := range p {
				if p[i] == '\n' {
					p[i] = ' '
				}
			}
		}
		checkLineBlock(t, p)
		checkLineEnd(t, p, rng.Intn(len(p)))
		// A line ends at its LF (or the CR before it): the key ends there
		// too, whatever follows in the buffer.
		at := rng.Intn(len(p))
		end := at + bytes.IndexByte(p[at:], '\n')
		if end < at {
			continue
		}
		text := p[at:end]
		if len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1]
		}
		if len(text) == 0 {
			continue
		}
		if got, want := plainKeyEndAt(p, at), keyEndLoop(text); got != want {
			t.Fatalf("plainKeyEndAt(%q, %d) = %d, want %d", p, at, got, want)
		}
	}
}

// keyEndLoop is plainKeyEnd a byte at a time, from §7.3's pattern
// [A-Za-z_][A-Za-z0-9_.]*: the length of the unquoted key at the start
// of text, 0 for none.
func keyEndLoop(text []byte) int {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
	if len(text) == 0 || !letter(text[0]) {
		return 0
	}
	i := 1
	for i < len(text) && (letter(text[i]) || text[i] >= '0' && text[i] <= '9' || text[i] == '.') {
		i++
	}
	return i
}

// TestLineRunsKeyLengths holds runs to the general path on field lines
// whose keys are of every length up to 20 bytes, plain or with a byte
// that is no key character (an ASCII one, a tab, a byte of a multibyte
// character, a quote, a bracket) at any place, followed by a colon, a
// space or the line's end, with the last line at the buffer's end with
// or without its LF, LF or CR LF, under indentations of 0 to 11 spaces.
func TestLineRunsKeyLengths(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	const keyBytes = "abcxyzABCXYZ0189_."
	bad := []string{"-", " ", "\t", "\xc3\xa9", `"`, "[", "#", "\x80", ":", "/"}
	for n := 0; n < longtest.Size(t, 400, 4000); n++ {
		eol := "\n"
		if n%5 == 0 {
			eol = "\r\n"
		}
		var b strings.Builder
		b.WriteString("o:" + eol)
		pad := strings.Repeat(" ", 2+2*rng.Intn(5))
		lines := 1 + rng.Intn(6)
		for i := 0; i < lines; i++ {
			k := make([]byte, 1+rng.Intn(20))
			for j := range k {
				k[j] = keyBytes[rng.Intn(len(keyBytes))]
			}
			key := string(k)
			if rng.Intn(3) == 0 {
				at := rng.Intn(len(k) + 1)
				key = key[:at] + bad[rng.Intn(len(bad))] + key[at:]
			}
			if rng.Intn(6) == 0 {
				pad += " " // an odd width, or a deeper line
			}
			sep := []string{": 1", ":", ": x y", " : 2", ":7", ""}[rng.Intn(6)]
			b.WriteString(pad + key + sep + strconv.Itoa(i))
			if i < lines-1 || rng.Intn(2) == 0 {
				b.WriteString(eol)
			}
		}
		data := []byte(b.String())
		for _, o := range runOpts {
			checkRuns(t, data, o...)
		}
	}
}

// TestLineRunsTake checks that runs take the lines they are for: on a
// document of field lines and list items, most lines are queued behind
// another line's tokens, not by a refill of their own.
func TestLineRunsTake(t *testing.T) {
	var b strings.Builder
	b.WriteString("items[200]:\n")
	for i := 0; i < 200; i++ {
		b.WriteString("  - id: " + strconv.Itoa(i) + "\n    owner:\n      name: Ada\n      mail: \"a@b\"\n    on: true\n    description: x\n    lineItems[2]: 1,2\n")
	}
	d := NewDecoder(strings.NewReader(b.String()))
	refills, tokens := 0, 0
	for {
		if d.qi >= len(d.queue) {
			refills++
		}
		if _, err := d.Token(); err != nil {
			break
		}
		tokens++
	}
	if refills > tokens/50 {
		t.Fatalf("%d refills for %d tokens: line runs took too few lines", refills, tokens)
	}
}

func FuzzLineRuns(f *testing.F) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20; i++ {
		f.Add(runDoc(rng, 5+rng.Intn(30)), i%2 == 0)
	}
	for _, c := range runCases {
		f.Add([]byte(c), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		checkRuns(t, data, WithStrict(strict))
		checkRuns(t, data, WithStrict(strict), WithMaxLineLength(64), WithMaxDepth(4))
	})
}

// TestRunValue holds runValue to plainToken on values of up to 10 bytes
// made of digits and the bytes that can go on a number or end it, at
// every offset in a buffer, with what follows them and the buffer's end
// in the way.
func TestRunValue(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	const alphabet = "0123456789000.eE+-xm \n"
	buf := make([]byte, 48)
	for n := 0; n < 200000; n++ {
		for i := range buf {
			buf[i] = alphabet[rng.Intn(len(alphabet))]
		}
		off := rng.Intn(len(buf) - 1)
		end := off + 1 + rng.Intn(min(10, len(buf)-off))
		b := buf[:rng.Intn(len(buf)-end+1)+end] // the buffer ends at or after v
		v := b[off:end]
		if v[0] == '"' || v[0] == ' ' || v[len(v)-1] == ' ' {
			continue
		}
		got, want := runValue(b, v), plainToken(v)
		if got != want {
			t.Fatalf("runValue(%q) = %v %q, plainToken: %v %q", v, got.Kind(), got.Bytes(), want.Kind(), want.Bytes())
		}
	}
}

// checkLineBlock holds the word tests of a line's block (the first LF, the
// indentation) to their byte-wise definitions on the first lineBlock bytes
// of p.
func checkLineBlock(t *testing.T, p []byte) {
	t.Helper()
	var w [4]uint64
	for j := range w {
		w[j] = binary.LittleEndian.Uint64(p[8*j:])
	}
	wantLF := bytes.IndexByte(p[:lineBlock], '\n')
	if wantLF < 0 {
		wantLF = lineBlock
	}
	if got := firstFlag(lfFlags(w[0]), lfFlags(w[1]), lfFlags(w[2]), lfFlags(w[3])); got != wantLF {
		t.Fatalf("first LF of %q = %d, want %d", p[:lineBlock], got, wantLF)
	}
	wantSp := 0
	for wantSp < lineBlock/2 && p[wantSp] == ' ' {
		wantSp++
	}
	if got := firstNonSpace(w[0], w[1]); got != wantSp {
		t.Fatalf("indentation of %q = %d, want %d", p[:lineBlock/2], got, wantSp)
	}
}

// checkLineEnd holds lineEnd on p from i to a byte loop: the first LF
// from i on, and whether the bytes before it are all below 0x80, which
// lineEnd must tell when it finds the LF in its words (those that start
// at most 64 bytes past i and 8 before p's end) and may otherwise leave
// false.
func checkLineEnd(t *testing.T, p []byte, i int) {
	t.Helper()
	want := bytes.IndexByte(p[i:], '\n')
	if want >= 0 {
		want += i
	}
	e, ascii := lineEnd(p, i, 0, true)
	if e != want {
		t.Fatalf("lineEnd(%q, %d) = %d, want %d", p, i, e, want)
	}
	if e < 0 {
		return
	}
	wantASCII := true
	for _, c := range p[i:e] {
		wantASCII = wantASCII && c < 0x80
	}
	stop := min(i+64, len(p)-8) // where lineEnd's last word may start
	inWords := i <= stop && e < i+(stop-i)/8*8+8
	if ascii && !wantASCII || inWords && ascii != wantASCII {
		t.Fatalf("lineEnd(%q, %d): ascii %v, want %v", p, i, ascii, wantASCII)
	}
	if _, ascii := lineEnd(p, i, swarHi, true); ascii {
		t.Fatalf("lineEnd(%q, %d) with a high bit before i: ascii", p, i)
	}
}

// FuzzLineWords holds the block's word tests, plainKeyEndAt and runValue
// to their byte-wise definitions on any bytes.
func FuzzLineWords(f *testing.F) {
	f.Add([]byte("    key: value\nnext: 1\n"), 4)
	f.Add([]byte("  n: 00.5e3\r\n  m: 12.\n"), 5)
	f.Add([]byte("        long_key_name_here: \"x\"\n"), 8)
	f.Fuzz(func(t *testing.T, data []byte, at int) {
		p := append(append([]byte(nil), data...), make([]byte, lineBlock)...)
		checkLineBlock(t, p)
		if len(data) > 0 {
			checkLineEnd(t, data, min(max(at, 0), len(data)-1))
		}
		if at < 0 || at >= len(data) {
			return
		}
		// The line at at, and the value after its first ": ".
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			return
		}
		text := data[at : at+end]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		if len(text) > 0 {
			if got, want := plainKeyEndAt(data, at), keyEndLoop(text); got != want {
				t.Fatalf("plainKeyEndAt(%q, %d) = %d, want %d", data, at, got, want)
			}
		}
		if c := bytes.Index(text, []byte(": ")); c >= 0 {
			if v := trimSpaces(text[c+2:]); len(v) > 0 && v[0] != '"' {
				if got, want := runValue(data, v), plainToken(v); got != want {
					t.Fatalf("runValue(%q) = %v %q, plainToken: %v %q", v, got.Kind(), got.Bytes(), want.Kind(), want.Bytes())
				}
			}
		}
	})
}

// windowDoc is a nested document whose field lines start, and end, at
// every place relative to the 64 bytes runFields reads by masks: keys of
// 1 to 70 bytes and more, indentations of up to 70 spaces, and values of
// up to 150 bytes (most of up to 40) with bytes >= 0x80, spaces, quotes
// and colons in them; now and then a line has a byte that ends its key
// early, a tab, an odd indentation, a CR or ill-formed UTF-8.
func windowDoc(rng *rand.Rand, lines int) []byte {
	const keyBytes = "abcdefghijklmnopqrstuvwxyzABCZ0189_."
	values := []string{"x", "é", "日本", " ", ",", ":", "0", "-1.5", "true", "a b"}
	var b bytes.Buffer
	depth := 0
	for n := 0; n < lines; n++ {
		if depth > 0 && rng.Intn(4) == 0 {
			depth = rng.Intn(depth + 1)
		}
		b.WriteString(strings.Repeat("  ", depth))
		if rng.Intn(40) == 0 {
			b.WriteString([]string{" ", "\t", "-", "\""}[rng.Intn(4)])
		}
		k := make([]byte, 1+rng.Intn(70))
		for j := range k {
			k[j] = keyBytes[rng.Intn(len(keyBytes))]
		}
		k[0] = 'k'
		if rng.Intn(30) == 0 {
			k[rng.Intn(len(k))] = " é-[\""[rng.Intn(5)]
		}
		b.Write(k)
		b.WriteString(strconv.Itoa(n)) // no key repeats
		b.WriteByte(':')
		if depth < 35 && rng.Intn(3) == 0 {
			depth++ // the line opens an object
		} else {
			var v strings.Builder
			want := rng.Intn(40)
			if rng.Intn(4) == 0 {
				want = rng.Intn(150)
			}
			for v.Len() < want {
				v.WriteString(values[rng.Intn(len(values))])
			}
			val := strings.TrimSpace(v.String())
			if rng.Intn(4) == 0 {
				val = strconv.Quote(val)
			}
			if rng.Intn(60) == 0 {
				at := rng.Intn(len(val) + 1)
				val = val[:at] + "\xe6\x97" + val[at:] // ill-formed UTF-8
			}
			b.WriteString(" " + val)
		}
		if rng.Intn(20) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestLineRunsWindow holds runs to the general path on windowDoc's
// documents, with runFields reading lines by masks and by words, and
// with the buffer's end and a line-length limit in the way. (Two changes
// to the masks' reading give the same tokens and errors, and pass: an
// ascii of false for a line when any byte of its 64 is >= 0x80, which
// only costs a check of its UTF-8, and an indentation of 0 in place of
// 64 spaces or more, which leaves the line to step.)
func TestLineRunsWindow(t *testing.T) {
	docs := longtest.Size(t, 60, 600)
	for _, mode := range kernelModes() {
		func() {
			defer useKernels(mode)()
			for i := 0; i < docs; i++ {
				rng := rand.New(rand.NewSource(int64(i)))
				data := windowDoc(rng, 20+rng.Intn(200))
				for _, o := range [][]Option{{WithStrict(true)}, {WithStrict(false)}, {WithStrict(true), WithMaxLineLength(80)}} {
					checkRuns(t, data, o...)
				}
			}
		}()
	}
}

// cellLines are values of inline arrays and rows for runCells: plain,
// numeric, keyword and empty cells, spaces around cells, quoted cells with
// and without escapes (and delimiters inside), a quote inside a cell,
// text after a closing quote, and unterminated or ill-escaped strings.
var cellLines = []string{
	"a,b,c", "1,-2.5,007,1e5,12ab,123456789,1234567890123456789,9.5x", "true,false,null,tru,nulls,True",
	",,", "a,", ",a", " a , b ", "  ,  ", `"x","y,z",w`, `"a\"b",c`, `"a\nb\u00e9",1`, ` "q" , "r" `,
	`ab"c,d"e,f`, `"a"b,c`, `"a" x,c`, `"open,x`, `"bad\q",x`, `"a",`, `"a"`, `""`, `"",""`, "2025-05-09,1.12.3,+1,-,-0",
	"é,日本,😀", "512Mi,15s,25%,0x1F", "a|b|c", "a\tb\tc", `x,"y|z"|w`,
	// Cells that start with a digit or '-' (digitCells): numbers and
	// text across the words, up to and past 24 bytes, and with a quote
	// or a space in them.
	"-0.012345678901234567,0.12345678901234567,1.5e-7,-12,0,1E+21,-0.0,12345678,123456789,1234567890123456",
	"12345678901234567890123,123456789012345678901234,1234567890123456789012345,-1234567890123456789012",
	"250m,256Mi,2025-05-09,1.12.3,2025-05-09T10:00:00Z,12 ,1 2,12\"3,1\"2\",x,-,--1,0x,1e,1.,.5",
	"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", "1|2.5|-3|4e2", "1\t2.5\t-3\t2025-01-01",
	// A lazy chunk of cells, and one and two more.
	strings.Repeat("1,", lazyChunk-1) + "1", strings.Repeat("1,", lazyChunk) + "1", strings.Repeat("1,", lazyChunk+1) + "1",
	strings.Repeat(`"q",`, lazyChunk) + `"q"`, strings.Repeat(`"q",`, lazyChunk+1) + `"q"`,
}

// checkRunCells holds runCells to cutCells, splitCells's rule by scanLine
// and plainToken, on v with delimiter delim, placed in a buffer with room
// bytes after it filled with fill (the words runCells reads past v).
func checkRunCells(t *testing.T, v []byte, delim byte, room int, fill byte) {
	t.Helper()
	checkRunCellsAfter(t, v, delim, room, []byte{fill})
}

// checkRunCellsAfter is checkRunCells with the bytes after v those of
// fill, repeated.
func checkRunCellsAfter(t *testing.T, v []byte, delim byte, room int, fill []byte) {
	t.Helper()
	buf := make([]byte, len(v)+room)
	copy(buf, v)
	for i := len(v); i < len(buf); i++ {
		buf[i] = fill[(i-len(v))%len(fill)]
	}
	in := buf[:len(v)]
	d, ref := NewDecoder(bytes.NewReader(nil)), NewDecoder(bytes.NewReader(nil))
	ok, wantOK := d.runCells(in, delim), ref.cutCells(in, delim)
	if ok != wantOK {
		t.Fatalf("runCells(%q, %q) with %d bytes after it = %v, cutCells %v", v, delim, room, ok, wantOK)
	}
	if !ok {
		return
	}
	if len(d.vals) != len(ref.vals) {
		t.Fatalf("runCells(%q, %q): %d values, cutCells %d", v, delim, len(d.vals), len(ref.vals))
	}
	for i, got := range d.vals {
		want := ref.vals[i]
		if got.Kind() != want.Kind() || got.String() != want.String() {
			t.Fatalf("runCells(%q, %q) value %d = %v %q, cutCells %v %q", v, delim, i, got.Kind(), got, want.Kind(), want)
		}
	}
}

func TestRunCellsMatchCutCells(t *testing.T) {
	for _, line := range cellLines {
		for _, delim := range []byte{',', '|', '\t'} {
			for room := 0; room <= 40; room++ {
				for _, fill := range []byte{'"', ',', '\\', '1', ' '} {
					checkRunCells(t, []byte(line), delim, room, fill)
				}
			}
		}
	}
	// Lines of random cells, of every length across the words.
	rng := rand.New(rand.NewSource(5))
	cells := []string{"", "a", " b ", "12", "-3.5", "true", `"q"`, `"a,b"`, `"e\"s"`, "x y", "1e9", "0012", "2025-05-09", "é", `a"b`,
		"-0.012345678901234567", "0.1234567890123456", "12345678901234567890123", "123456789012345678901234", "1.5e+10",
		"12 ", `12"3`, "12345678", "123456789", "2025-05-09T10:00:00Z", "-", "7é"}
	for i := 0; i < 3000; i++ {
		var b []byte
		for n := 1 + rng.Intn(12); n > 0; n-- {
			b = append(b, cells[rng.Intn(len(cells))]...)
			if n > 1 {
				b = append(b, ',')
			}
		}
		checkRunCells(t, b, ',', 8+rng.Intn(40), "\",\\1 "[rng.Intn(5)])
		// Digits after the line, which a number read past its end
		// would take.
		checkRunCellsAfter(t, b, ',', 8+rng.Intn(40), []byte("12.5,"[rng.Intn(3):]))
	}
}

// TestRunCellsWords checks that runCells reads by words the lines it can
// (cutCells, which it leaves them to otherwise, splits with scanLine into
// d.seps), and leaves to cutCells a line with a quote inside a cell or
// too few bytes after it.
func TestRunCellsWords(t *testing.T) {
	for _, c := range []struct {
		line  string
		room  int
		words bool
	}{
		{`a,12,"q,r", -1.5 ,true,`, 8, true},
		{`a,12,"q,r", -1.5 ,true,`, 7, false},
		{`a,b"c",d`, 8, false},
	} {
		n := len(c.line)
		buf := append([]byte(c.line), make([]byte, c.room)...)[: n+c.room : n+c.room]
		d := NewDecoder(bytes.NewReader(nil))
		if !d.runCells(buf[:n], ',') {
			t.Fatalf("runCells(%q) failed", c.line)
		}
		if words := len(d.seps) == 0; words != c.words {
			t.Errorf("runCells(%q) with %d bytes after it: by words %v, want %v", c.line, c.room, words, c.words)
		}
	}
}

// TestDigitCells checks that digitCells takes the cells it is for, each
// with the token plainCell gives it, and stops at the first it is not
// for: a cell of 24 bytes or more, or with a quote in it, or a space
// after it, or not starting with a digit or '-'.
func TestDigitCells(t *testing.T) {
	for _, c := range []struct {
		line  string
		taken int // cells taken; -1 for all of them
	}{
		{"-0.012345678901234567,0.12345678901234567,1.5e-7,-12,0,1E+21", -1},
		{"250m,256Mi,2025-05-09,1.12.3,0x1F,1.,--1,-", -1},
		{"12345678901234567890123,1,12345678", -1},
		{"1,2,123456789012345678901234,3", 2},
		{"1,2,12 ,3", 2},
		{`1,2,1"2,3`, 2},
		{"1,2,a,3", 2},
		{"1,2, 3", 2},
		{"1,2,", 2}, // the empty last cell is runCells's
		{"x,1", 0},
	} {
		cells := strings.Split(c.line, ",")
		want := c.taken
		if want < 0 {
			want = len(cells)
		}
		buf := make([]byte, len(c.line)+24)
		copy(buf, c.line)
		n := len(c.line)
		vals, s := digitCells(mem.Of(&buf[0]), 0, n, len(buf), ','*swarLo, nil)
		if len(vals) != want {
			t.Fatalf("digitCells(%q) took %d cells, want %d", c.line, len(vals), want)
		}
		wantS := len(strings.Join(cells[:want], ",")) + 1
		if want == 0 {
			wantS = 0
		}
		if s != wantS {
			t.Fatalf("digitCells(%q) = %d, want the next cell at %d", c.line, s, wantS)
		}
		for i, got := range vals {
			ref := plainCell(mem.Of(&buf[0]).Add(strings.Index(c.line+",", cells[i]+",")), len(cells[i]), len(cells[i])+24)
			if got.Kind() != ref.Kind() || got.String() != cells[i] {
				t.Fatalf("digitCells(%q) cell %d = %v %q, want %v %q", c.line, i, got.Kind(), got, ref.Kind(), cells[i])
			}
		}
	}
}

// FuzzRunCells holds runCells to cutCells on any line, delimiter and
// bytes after the line.
func FuzzRunCells(f *testing.F) {
	for _, line := range cellLines {
		f.Add([]byte(line), byte(0), byte(8), byte('"'))
	}
	f.Fuzz(func(t *testing.T, v []byte, sel byte, room byte, fill byte) {
		checkRunCells(t, v, ",|\t"[sel%3], int(room%65), fill)
	})
}

// numberText returns the text of a cell for the number tests: mostly a
// number of the plainest form (numberCells's), of 1 to 25 bytes, and
// sometimes one of another form, or text.
func numberText(rng *rand.Rand) string {
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.Intn(10))
		}
		return string(b)
	}
	if rng.Intn(6) == 0 {
		return []string{"", "-", ".5", "5.", "-.5", "05", "-05", "00.5", "1e5", "1.5E-3", "1.2.3", "1-2", "1 ", " 1",
			"12a", "x", "\"1\"", "1\r", "-0", "0", "0.0", "-0.000", "١٢"}[rng.Intn(23)]
	}
	s := strconv.Itoa(1+rng.Intn(9)) + digits(rng.Intn(4)+rng.Intn(2)*rng.Intn(16))
	if rng.Intn(8) == 0 {
		s = "0"
	}
	if rng.Intn(3) > 0 {
		s += "." + digits(1+rng.Intn(4)+rng.Intn(2)*rng.Intn(10))
	}
	if rng.Intn(2) == 0 {
		s = "-" + s
	}
	return s
}

// plainestNumber matches the numbers numberCells reads.
var plainestNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)

// TestNumberCells holds numberCells to its definition on random lines of
// cells, after 0 to 7 bytes and followed by an LF and 0 to 40 random
// bytes, so that the line ends at any distance from the end of the bytes
// readable: it reads the line when each cell is a
// number of the plainest form, shorter than 24 bytes, with 24 bytes
// readable from its start, and there are as many cells as asked for; and
// then gives each cell's token. Otherwise it reports -1.
func TestNumberCells(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	taken := 0
	for i := range longtest.Size(t, 200000, 2000000) {
		delim := ",|\t"[rng.Intn(3)]
		cells := make([]string, 1+rng.Intn(5))
		for c := range cells {
			cells[c] = numberText(rng)
		}
		n := len(cells)
		if rng.Intn(10) == 0 {
			n += rng.Intn(3) - 1
		}
		line := strings.Join(cells, string(delim))
		if rng.Intn(20) == 0 {
			line += string(",|\t"[rng.Intn(3)]) // a delimiter, or another, at the end
		}
		// The line, its LF and up to 40 bytes more, of digits or of
		// anything.
		buf := []byte(line + "\n")
		for range rng.Intn(41) {
			c := byte(rng.Intn(256))
			if i%2 == 0 {
				c = byte('0' + rng.Intn(10))
			}
			buf = append(buf, c)
		}
		cells = strings.Split(line, string(delim))
		want := len(line)
		for c, s := 0, 0; c < len(cells); c++ {
			if !plainestNumber.MatchString(cells[c]) || len(cells[c]) >= 24 || s+24 > len(buf) {
				want = -1
			}
			if plainestNumber.MatchString(cells[c]) && !isNumber([]byte(cells[c])) {
				t.Fatalf("%q: the pattern takes what is no number", cells[c])
			}
			s += len(cells[c]) + 1
		}
		if n != len(cells) {
			want = -1
		}
		off := rng.Intn(8)
		buf = append(bytes.Repeat([]byte{'7'}, off), buf...)
		q := make([]Token, n+1)
		got := numberCells(mem.BytesData(buf).Add(off), len(buf)-off, n, delim, q)
		if got != want {
			t.Fatalf("numberCells(%q, %d cells, %q) = %d, want %d", buf, n, delim, got, want)
		}
		if got < 0 {
			continue
		}
		taken++
		for c, s := range cells {
			if q[c+1].Kind() != KindNumber || q[c+1].String() != s {
				t.Fatalf("numberCells(%q) cell %d = %v %q, want a number %q", buf, c, q[c+1].Kind(), q[c+1], s)
			}
		}
	}
	if taken < 1000 {
		t.Fatalf("numberCells read %d lines: the test makes too few it reads", taken)
	}
}

// TestNumberItemsMatchGeneralPath decodes lists of inline arrays of
// numbers (numberItems's lines: coordinates, matrices) with line runs on
// and off, and requires the same tokens, positions and errors: with items
// of other lengths, delimiters and indentation among them, values of
// other forms, CRLF, comments, blank lines, an odd indentation and wrong
// counts.
func TestNumberItemsMatchGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	for range longtest.Size(t, 400, 4000) {
		var b strings.Builder
		eol := "\n"
		if rng.Intn(10) == 0 {
			eol = "\r\n"
		}
		for l := range 1 + rng.Intn(3) {
			items := 1 + rng.Intn(40)
			decl := items
			if rng.Intn(10) == 0 {
				decl += rng.Intn(3) - 1
			}
			fmt.Fprintf(&b, "l%d[%d]:%s", l, decl, eol)
			width := 1 + rng.Intn(3)
			delim := ",|\t"[rng.Intn(3)]
			for range items {
				w, dl, pad := width, delim, "  "
				switch rng.Intn(40) {
				case 0:
					w++
				case 1:
					dl = ",|\t"[rng.Intn(3)]
				case 2:
					pad = "   "
				case 3:
					b.WriteString("  # a comment" + eol)
				case 4:
					b.WriteString(eol)
				}
				head := "[" + strconv.Itoa(w) + "]: "
				if dl != ',' {
					head = "[" + strconv.Itoa(w) + string(dl) + "]: "
				}
				cells := make([]string, width)
				for c := range cells {
					cells[c] = numberText(rng)
					if rng.Intn(3) > 0 {
						for !plainestNumber.MatchString(cells[c]) {
							cells[c] = numberText(rng)
						}
					}
				}
				b.WriteString(pad + "- " + head + strings.Join(cells, string(dl)) + eol)
			}
		}
		data := []byte(b.String())
		if rng.Intn(4) == 0 {
			data = bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r"))
		}
		for _, o := range runOpts {
			checkRuns(t, data, o...)
		}
	}
}

// TestPlainCellKinds holds plainCell to plainToken on cells that start
// with a digit or '-' (numbers of every form, numbers' prefixes followed by
// other bytes, dates, versions), of 1 to 30 bytes, with 0 to 40 bytes of
// digits, delimiters, dots, letters and LFs readable after them.
func TestPlainCellKinds(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	tails := []string{"", "-05-09", "e5", "E-3", "e", ".", ".5", "x", "%", " s", "Z", "e+12", ".1.2", "-"}
	for range longtest.Size(t, 100000, 1000000) {
		cell := numberText(rng)
		if rng.Intn(3) == 0 {
			cell += tails[rng.Intn(len(tails))]
		}
		if cell == "" || cell[0] == ' ' || cell[len(cell)-1] == ' ' || cell[0] == '"' || len(cell) > 30 {
			continue
		}
		room := len(cell) + rng.Intn(41)
		buf := []byte(cell)
		for len(buf) < room {
			buf = append(buf, "1,.e|x\n"[rng.Intn(7)])
		}
		got := plainCell(mem.BytesData(buf), len(cell), room)
		want := plainToken([]byte(cell))
		if got.Kind() != want.Kind() || got.String() != want.String() {
			t.Fatalf("plainCell(%q, room %d: %q) = %v %q, want %v %q", cell, room, buf, got.Kind(), got, want.Kind(), want)
		}
	}
}
