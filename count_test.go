package toon

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// countDocs are documents whose arrays end short or run long, with the
// line the error must name, the header's line, and the text of that line.
func countDocs() []struct {
	name, doc  string
	line, head int
	src        string
} {
	var big strings.Builder // a table long enough for the fast path and for buffer refills
	big.WriteString("meta: 1\nt[5001]{a,b,c}:\n")
	for i := 0; i < 5000; i++ {
		big.WriteString("  " + strconv.Itoa(i) + ",word " + strconv.Itoa(i) + ",true\n")
	}
	big.WriteString("after: 2\n")
	var long strings.Builder
	long.WriteString("t[3000]{a,b}:\n")
	for i := 0; i < 3001; i++ {
		long.WriteString("  " + strconv.Itoa(i) + ",x\n")
	}
	return []struct {
		name, doc  string
		line, head int
		src        string
	}{
		{"rows short, then a key", "rows[3]{a,b}:\n  1,2\n  3,4\nnext: 1", 3, 1, "  3,4"},
		{"rows short at the end", "rows[3]{a,b}:\n  1,2\n  3,4\n", 3, 1, "  3,4"},
		{"rows short, CRLF", "rows[3]{a,b}:\r\n  1,2\r\n  3,4\r\nnext: 1\r\n", 3, 1, "  3,4"},
		{"no rows", "rows[3]{a,b}:\nnext: 1", 1, 1, "rows[3]{a,b}:"},
		{"rows long", "rows[1]{a,b}:\n  1,2\n  3,4\nnext: 1", 3, 1, "  3,4"},
		{"nested, blank line and comment after", "a:\n  rows[3]{a,b}:\n    1,2\n\n# note\n  z: 1", 3, 2, "    1,2"},
		{"nested long", "a:\n  rows[2]{a,b}:\n    1,2\n    3,4\n    5,6\n  z: 1", 5, 2, "    5,6"},
		{"list short", "x[3]:\n  - 1\n  - 2\ny: 2", 3, 1, "  - 2"},
		{"list short, nested item", "x[2]:\n  - a: 1\n    b:\n      c: 2\n\ny: 1", 4, 1, "      c: 2"},
		{"list long", "x[1]:\n  - 1\n  - 2", 3, 1, "  - 2"},
		{"entries short", "m[2:]{v}:\n  a: 1", 2, 1, "  a: 1"},
		{"entries long", "m[1:]{v}:\n  a: 1\n  b: 2", 3, 1, "  b: 2"},
		{"big table short", big.String(), 5002, 2, "  4999,word 4999,true"},
		{"big table long", long.String(), 3002, 1, "  3000,x"},
	}
}

// TestCountErrorLine checks that a wrong count is reported at the line
// where the array ended short or ran long, naming the header's line, and
// that every way of reading the input (a byte slice, a reader, a reader of
// one byte at a time, with and without the table fast path) reports the
// same error and the same source line.
func TestCountErrorLine(t *testing.T) {
	for _, tc := range countDocs() {
		data := []byte(tc.doc)
		noBulk := withoutFastPath(newBytesDecoder(data, nil))
		decs := map[string]*Decoder{
			"bytes":    newBytesDecoder(data, nil),
			"reader":   NewDecoder(bytes.NewReader(data)),
			"one byte": NewDecoder(iotest.OneByteReader(bytes.NewReader(data))),
			"no bulk":  noBulk,
		}
		var want string
		for name, d := range decs {
			_, err := drain(d)
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrCount) {
				t.Fatalf("%s, %s: %v, want a count error", tc.name, name, err)
			}
			if se.Line != tc.line || se.Source != tc.src {
				t.Errorf("%s, %s: line %d %q, want %d %q (%v)", tc.name, name, se.Line, se.Source, tc.line, tc.src, err)
			}
			if !strings.HasSuffix(err.Error(), "(header at line "+strconv.Itoa(tc.head)+")") {
				t.Errorf("%s, %s: %q does not name the header's line %d", tc.name, name, err, tc.head)
			}
			if off := strings.Index(tc.doc, tc.src+"\n"); off >= 0 && se.Offset != int64(off) && tc.line != tc.head {
				t.Errorf("%s, %s: offset %d, want %d", tc.name, name, se.Offset, off)
			}
			if want == "" {
				want = err.Error()
			} else if err.Error() != want {
				t.Errorf("%s, %s: %q, others %q", tc.name, name, err, want)
			}
		}
	}
}

// TestCountWords checks the singular and plural of counts in messages.
func TestCountWords(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"t[1]{a}:\n  1\n  2", "declared 1 row, found more (header at line 1)"},
		{"t[2]{a}:\n  1", "declared 2 rows, found 1 (header at line 1)"},
		{"t[1]: a,b", "declared 1 value, found 2"},
		{"l[1]:\n  - a\n  - b", "declared 1 item, found more"},
		{"m[1:]{v}:\n  a: 1\n  b: 2", "declared 1 entry, found more"},
		{"t[1]{a}:\n  1,2", "header has 1 field, row has 2 cells"},
		{"t[1]{a,b}:\n  1", "header has 2 fields, row has 1 cell"},
	} {
		var v any
		err := Unmarshal([]byte(c.doc), &v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
}
