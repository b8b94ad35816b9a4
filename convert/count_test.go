package convert

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon"
)

// TestToJSONCountError checks that every ToJSON path (the compact and the
// indented stream, the table loop, the spool of non-strict mode) reports a
// wrong count as the decoder does, and as the jsontext reference
// (toJSONText) does: at the line where the array ended short or ran long,
// naming the header's line.
func TestToJSONCountError(t *testing.T) {
	var big strings.Builder // rows for the table loop, which takes tables of 4 rows or more
	big.WriteString("t[401]{a,b}:\n")
	for i := 0; i < 400; i++ {
		big.WriteString("  " + strconv.Itoa(i) + ",x\n")
	}
	big.WriteString("z: 1\n")
	for _, c := range []struct {
		doc  string
		line int
	}{
		{"rows[3]{a,b}:\n  1,2\n  3,4\nnext: 1", 3},
		{"rows[1]{a,b}:\n  1,2\n  3,4\nnext: 1", 3},
		{"a:\n  x[3]:\n    - 1\n    - 2\n\n  y: 2", 4},
		{"m[2:]{v}:\n  a: 1\nz: 1", 2},
		{big.String(), 401},
	} {
		var v any
		derr := toon.Unmarshal([]byte(c.doc), &v)
		var se *toon.SyntaxError
		if !errors.As(derr, &se) || se.Line != c.line || !errors.Is(derr, toon.ErrCount) {
			t.Fatalf("%.40q: decoder error %v, want a count error on line %d", c.doc, derr, c.line)
		}
		for _, ind := range []int{0, 2} {
			var out bytes.Buffer
			err := ToJSON(&out, strings.NewReader(c.doc), WithJSONIndent(ind))
			if err == nil || err.Error() != derr.Error() {
				t.Errorf("%.40q, indent %d: ToJSON %v, want %v", c.doc, ind, err, derr)
			}
		}
		// The jsontext reference, and non-strict mode (which has no count
		// errors), agree with ToJSON.
		sameAsJSONText(t, []byte(c.doc))
	}
}
