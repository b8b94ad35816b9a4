package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// tokenText renders a token stream compactly: { } [ ] for structure (arrays
// with their form and length, e.g. [tabular:2), k:name for keys, s:text for
// strings, n:text for numbers, and true, false, null.
func tokenText(t *testing.T, d *Decoder) (string, error) {
	t.Helper()
	var sb strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return strings.TrimSpace(sb.String()), nil
		}
		if err != nil {
			return strings.TrimSpace(sb.String()), err
		}
		switch tok.Kind() {
		case KindObjectStart:
			if tok.Form() == FormKeyed {
				sb.WriteString("{keyed:" + strconv.Itoa(tok.Len()) + fieldText(tok.Fields()))
			} else {
				sb.WriteString("{")
			}
		case KindArrayStart:
			sb.WriteString("[" + tok.Form().String() + ":" + strconv.Itoa(tok.Len()))
			if tok.Delim() != 0 && tok.Delim() != Comma {
				sb.WriteString("/" + strconv.Quote(string(rune(tok.Delim()))))
			}
			sb.WriteString(fieldText(tok.Fields()))
		case KindObjectEnd:
			sb.WriteString("}")
		case KindArrayEnd:
			sb.WriteString("]")
		case KindKey:
			sb.WriteString("k:" + tok.String())
		case KindString:
			sb.WriteString("s:" + tok.String())
		case KindNumber:
			sb.WriteString("n:" + tok.String())
		default:
			sb.WriteString(tok.String())
		}
		sb.WriteByte(' ')
	}
}

func fieldText(fs []Field) string {
	if fs == nil {
		return ""
	}
	var parts []string
	for _, f := range fs {
		parts = append(parts, string(f.Name)+fieldText(f.Fields))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestTokenStream(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty document", "", "{ }"},
		{"only comments", "# a\n  # b\n", "{ }"},
		{"key-value lines", "a: 1\nb: x y\nc: true\nd: null\ne: \"q\"", "{ k:a n:1 k:b s:x y k:c true k:d null k:e s:q }"},
		{"key opening an object", "a:\n  b: 1\nc: 2", "{ k:a { k:b n:1 } k:c n:2 }"},
		{"empty nested object", "a:\nb: 1", "{ k:a { } k:b n:1 }"},
		{"inline array", "tags[3]: a,\"b,c\",3", "{ k:tags [inline:3 s:a s:b,c n:3 ] }"},
		{"inline array pipe", "tags[2|]: a,b|c", "{ k:tags [inline:2/\"|\" s:a,b s:c ] }"},
		{"empty array field", "a: []", "{ k:a [empty:0 ] }"},
		{"legacy empty array", "a[0]:", "{ k:a [inline:0 ] }"},
		{"root empty array", "[]", "[empty:0 ]"},
		{"root empty array with spaces", "[]  ", "[empty:0 ]"},
		{"tabular", "u[2]{id,name}:\n  1,Ada\n  2,Bob", "{ k:u [tabular:2{id,name} { k:id n:1 k:name s:Ada } { k:id n:2 k:name s:Bob } ] }"},
		{"nested field group", "o[1]{id,c{n,k}}:\n  1,A,B", "{ k:o [tabular:1{id,c{n,k}} { k:id n:1 k:c { k:n s:A k:k s:B } } ] }"},
		{"keyed", "m[2:]{v}:\n  a: 1\n  \"b c\": 2", "{ k:m {keyed:2{v} k:a { k:v n:1 } k:b c { k:v n:2 } } }"},
		{"keyed keys holding the delimiter", "m[2:]{a,b}:\n  \"x,y\": 1,2\n  p,q:  3 ,\"4,5\"", "{ k:m {keyed:2{a,b} k:x,y { k:a n:1 k:b n:2 } k:p,q { k:a n:3 k:b s:4,5 } } }"},
		{"root keyed", "[1:]{v,w}:\n  a: 1,2", "{keyed:1{v,w} k:a { k:v n:1 k:w n:2 } }"},
		{"root tabular", "[1]{x}:\n  5", "[tabular:1{x} { k:x n:5 } ]"},
		{"list of primitives", "l[3]:\n  - 1\n  - a\n  - \"-\"", "{ k:l [list:3 n:1 s:a s:- ] }"},
		{"list item objects", "l[2]:\n  - a: 1\n    b: 2\n  -", "{ k:l [list:2 { k:a n:1 k:b n:2 } { } ] }"},
		{"list item nested object first", "l[1]:\n  - a:\n      x: 1\n    b: 2", "{ k:l [list:1 { k:a { k:x n:1 } k:b n:2 } ] }"},
		{"list item tabular first", "l[1]:\n  - t[1]{x}:\n      9\n    b: 2", "{ k:l [list:1 { k:t [tabular:1{x} { k:x n:9 } ] k:b n:2 } ] }"},
		{"arrays of arrays", "p[3]:\n  - [2]: 1,2\n  - []\n  - [0]:", "{ k:p [list:3 [inline:2 n:1 n:2 ] [empty:0 ] [inline:0 ] ] }"},
		{"list inside list", "[1]:\n  - [2]:\n    - a\n    - b", "[list:1 [list:2 s:a s:b ] ]"},
		{"root primitive", "hello world  ", "s:hello world"},
		{"root number", "-1.5e3", "n:-1.5e3"},
		{"CRLF", "a: 1\r\nb:\r\n  c: x\r\n", "{ k:a n:1 k:b { k:c s:x } }"},
		{"comment between rows", "t[2]{x}:\n  1\n# note\n  2", "{ k:t [tabular:2{x} { k:x n:1 } { k:x n:2 } ] }"},
		{"row ends at key-value line", "t[1]{a,b}:\n  1,2\nx: 3,4", "{ k:t [tabular:1{a,b} { k:a n:1 k:b n:2 } ] k:x s:3,4 }"},
		{"quoted colon in row", "t[1]{a,b}:\n  \"x:y\",2", "{ k:t [tabular:1{a,b} { k:a s:x:y k:b n:2 } ] }"},
		{"escapes", `a: "x\n\t\"\\\u00e9\u0001"`, "{ k:a s:x\n\t\"\\é\x01 }"},
		{"number forms", "n[6]: 05,-0,1.50,1e+2,+1,.5", "{ k:n [inline:6 s:05 n:-0 n:1.50 n:1e+2 s:+1 s:.5 ] }"},
		{"hash inside values", "a: #x\nb: c # d", "{ k:a s:#x k:b s:c # d }"},
		{"dotted and odd keys", "a.b: 1\nfoo-bar: 2\n\"\": 3", "{ k:a.b n:1 k:foo-bar n:2 k: n:3 }"},
		{"literal key before a bracket", "foo-bar[2]: a,b\n- x[1]: y", "{ k:foo-bar[2] s:a,b k:- x[1] s:y }"},
		{"whitespace before a bracket", "foo [2]: a,b", "{ k:foo [2] s:a,b }"},
		{"quoted odd field names", "t[1]{\"#k\",\"a b\"}:\n  1,2", "{ k:t [tabular:1{#k,a b} { k:#k n:1 k:a b n:2 } ] }"},
		{"spaces trimmed in cells", "t[2]: a , b ", "{ k:t [inline:2 s:a s:b ] }"},
		{"tab delimiter", "t[2\t]{a\tb}:\n  1\tx,y", "{ k:t [tabular:2/\"\\t\"{a,b} { k:a n:1 k:b s:x,y } ] }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := []Option{}
			if tc.name == "tab delimiter" {
				opts = append(opts, WithStrict(false)) // one row for a declared two
			}
			got, err := tokenText(t, NewDecoder(strings.NewReader(tc.in), opts...))
			if err != nil {
				t.Fatalf("%q: %v (after %q)", tc.in, err, got)
			}
			if got != tc.want {
				t.Fatalf("%q:\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestQuoteInsideUnquotedToken checks §4 and §7.4: only a token that
// starts with '"' is a quoted string, so a '"' further in is data. It still
// opens a region that hides delimiters and colons from the line's split
// (Appendix B.3), so x"y,z is one cell. Every reading path is covered:
// key-value values and keys, inline arrays, rows (general and fast path),
// keyed entry rows, list items and the root.
func TestQuoteInsideUnquotedToken(t *testing.T) {
	tests := []struct{ in, want string }{
		{`size: 12" pizza`, `{ k:size s:12" pizza }`},
		{`path: path/to/"file.ts`, `{ k:path s:path/to/"file.ts }`},
		{`say: he said "hi" twice`, `{ k:say s:he said "hi" twice }`},
		{`b[2]: -484,1000"000`, `{ k:b [inline:2 n:-484 s:1000"000 ] }`},
		{`b[1]: 1"0,5`, `{ k:b [inline:1 s:1"0,5 ] }`},
		{"rows[1]{a,b}:\n  ok,x\"y", `{ k:rows [tabular:1{a,b} { k:a s:ok k:b s:x"y } ] }`},
		{"rows[1]{a,b}:\n  ok,x\"y,z", `{ k:rows [tabular:1{a,b} { k:a s:ok k:b s:x"y,z } ] }`},
		{"rows[1]{a,b}:\n  x\"y: 1\",2", `{ k:rows [tabular:1{a,b} { k:a s:x"y: 1" k:b n:2 } ] }`},
		{"m[1:]{a,b}:\n  k: 1\"2,3", ""},
		{"m[1:]{a,b}:\n  k\"q\": 1,2", `{ k:m {keyed:1{a,b} k:k"q" { k:a n:1 k:b n:2 } } }`},
		{"l[2]:\n  - 5\" disk\n  - -\"7", `{ k:l [list:2 s:5" disk s:-"7 ] }`},
		{`1"23`, `s:1"23`},
		{`-"7`, `s:-"7`},
		{`a"b: c`, `s:a"b: c`}, // the colon is in the quote's region: not a key-value line
		{`k"q": v`, `{ k:k"q" s:v }`},
	}
	for _, tc := range tests {
		for _, strict := range []bool{true, false} {
			got, err := tokenText(t, NewDecoder(strings.NewReader(tc.in), WithStrict(strict)))
			if strings.HasPrefix(tc.in, "m[1:]{a,b}:\n  k: 1") {
				// One cell for two fields: a width error.
				if !errors.Is(err, ErrWidth) {
					t.Errorf("%q: %v, want a width error", tc.in, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("strict %v: %q: %v (after %q)", strict, tc.in, err, got)
				continue
			}
			if got != tc.want {
				t.Errorf("strict %v: %q:\n got %s\nwant %s", strict, tc.in, got, tc.want)
			}
		}
	}
	// A row with an inner quote in the middle of a long table: the fast
	// path leaves it to the general path, which reads it, and both give
	// the same tokens; the width is judged on the split through the quote.
	var b strings.Builder
	b.WriteString("t[401]{a,b}:\n")
	for i := 0; i < 400; i++ {
		if i == 200 {
			b.WriteString("  ok,x\"y,z\n")
		}
		b.WriteString("  1,a\n")
	}
	checkBulk(t, []byte(b.String()), true)
	checkBulk(t, []byte(b.String()), false)
	got, err := tokenText(t, NewDecoder(strings.NewReader(b.String())))
	if err != nil || !strings.Contains(got, `{ k:a s:ok k:b s:x"y,z }`) {
		t.Errorf("long table: %v, tokens %.200s", err, got)
	}
	wide := strings.Replace(b.String(), `ok,x"y,z`, `ok,x"y,z,w`, 1) // still two cells
	if _, err := tokenText(t, NewDecoder(strings.NewReader(wide))); err != nil {
		t.Errorf("long table with x\"y,z,w: %v", err)
	}
	narrow := strings.Replace(b.String(), `ok,x"y,z`, `x"ok,y`, 1) // one cell
	if _, err := tokenText(t, NewDecoder(strings.NewReader(narrow))); !errors.Is(err, ErrWidth) {
		t.Errorf("long table with x\"ok,y: %v, want a width error", err)
	}
	// A token that starts with '"' is still a quoted string, and must end
	// where its quote closes.
	for _, in := range []string{`k: "abc`, "t[1]{a}:\n  \"x", "l[1]:\n  - \"x", `"k: v`, `"abc`, "m[1:]{a}:\n  \"k: 1", `k[1]: "a,b`} {
		for _, strict := range []bool{true, false} {
			_, err := tokenText(t, NewDecoder(strings.NewReader(in), WithStrict(strict)))
			if !errors.Is(err, ErrUnterminated) && !(strict && errors.Is(err, ErrCount)) {
				t.Errorf("strict %v: %q: %v, want an unterminated string", strict, in, err)
			}
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want error
		line int
		col  int // 0: not checked
	}{
		{"inline count", "t[3]: a,b", ErrCount, 1, 0},
		{"list count too few", "l[2]:\n  - a", ErrCount, 2, 0},
		{"list count too many", "l[1]:\n  - a\n  - b", ErrCount, 3, 0},
		{"row count", "t[1]{a}:\n  1\n  2", ErrCount, 3, 0},
		{"entry count", "m[2:]{v}:\n  a: 1", ErrCount, 2, 0},
		{"row width", "t[1]{a,b}:\n  1", ErrWidth, 2, 0},
		{"entry width", "m[1:]{a,b}:\n  k: 1", ErrWidth, 2, 0},
		{"bad length", "t[03]: a", ErrHeader, 1, 3},
		{"absent length", "t[]: a", ErrHeader, 1, 0},
		{"keyed without fields", "m[1:]:\n  a: 1", ErrHeader, 1, 0},
		{"content after fields header", "t[1]{a}: 1", ErrHeader, 1, 0},
		{"empty field group", "t[1]{}:\n  1", ErrHeader, 1, 0},
		{"delimiter mismatch", "t[1|]{a,b}:\n  1|2", ErrDelimiter, 1, 0},
		{"field name outside §7.3", "t[1]{c,#k}:\n  1,2", ErrHeader, 1, 8},
		{"field name with a space", "t[1]{a b}:\n  1", ErrHeader, 1, 6},
		{"nested field name outside §7.3", "t[1]{a{b-c}}:\n  1", ErrHeader, 1, 8},
		{"space before a nested group", "t[1]{a {b}}:\n  1", ErrHeader, 1, 0},
		{"quoted name and space before a group", "t[1]{\"a\" {b}}:\n  1", ErrHeader, 1, 0},
		{"odd indentation", "a:\n   b: 1", ErrIndent, 2, 1},
		{"tab indentation", "a:\n\tb: 1", ErrIndent, 2, 0},
		{"line of a tab", "a: 1\n \t\nb: 2", ErrIndent, 2, 0},
		{"depth jump", "a:\n    b: 1", ErrIndent, 2, 0},
		{"orphan line", "a: 1\n  b: 2", ErrIndent, 2, 0},
		{"blank line in list", "l[2]:\n  - a\n\n  - b", ErrBlankLine, 3, 0},
		{"trailing after root array", "[1]: a\nb: 1", ErrTrailing, 2, 0},
		{"duplicate key", "a: 1\na: 2", ErrDuplicateKey, 2, 0},
		{"duplicate field", "t[1]{a,a}:\n  1,2", ErrDuplicateKey, 1, 0},
		{"duplicate entry", "m[2:]{v}:\n  a: 1\n  a: 2", ErrDuplicateKey, 3, 0},
		{"bad utf-8", "a: \xff", ErrUTF8, 1, 4},
		{"surrogate utf-8", "a: \xed\xa0\x80", ErrUTF8, 1, 4},
		{"missing colon", "a:\n  b", ErrMissingColon, 2, 3},
		{"bad escape", `a: "\x"`, ErrEscape, 1, 0},
		{"surrogate escape", `a: "\ud800"`, ErrEscape, 1, 0},
		{"short unicode escape", `a: "\u12"`, ErrEscape, 1, 0},
		{"unterminated", `a: "abc`, ErrUnterminated, 1, 0},
		{"text after quote", `a: "x"y`, ErrQuote, 1, 0},
		{"two root scalars", "a\nb", ErrStructure, 2, 0},
		{"keyless header in object", "a:\n  [2]: 1,2", ErrStructure, 2, 0},
		{"keyless tabular list item", "l[1]:\n  - [1]{a}:\n      1", ErrStructure, 2, 0},
		{"entry without colon", "m[1:]{v}:\n  5", ErrStructure, 2, 0},
		{"non-item line in list", "l[1]:\n  x: 1", ErrStructure, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			err := Unmarshal([]byte(tc.in), &v)
			if err == nil {
				t.Fatalf("%q: no error, got %#v", tc.in, v)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %T %v is not a *SyntaxError", tc.in, err, err)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("%q: error %v does not match %v", tc.in, err, tc.want)
			}
			if se.Line != tc.line {
				t.Errorf("%q: line %d, want %d (%v)", tc.in, se.Line, tc.line, err)
			}
			if tc.col != 0 && se.Column != tc.col {
				t.Errorf("%q: column %d, want %d (%v)", tc.in, se.Column, tc.col, err)
			}
			if se.Source == "" && tc.want != ErrBlankLine && tc.want != ErrLineTooLong {
				t.Errorf("%q: no source line in %#v", tc.in, se)
			}
			if !strings.Contains(err.Error(), "line "+strconv.Itoa(se.Line)) {
				t.Errorf("message %q lacks the line", err.Error())
			}
		})
	}
}

// TestCountErrorLeavesScopesOpen checks that a scope whose count is wrong
// is not closed: the tokens stop before its end token and before those of
// the scopes around it, so a consumer that writes as it reads cannot
// complete a document that lacks data.
func TestCountErrorLeavesScopesOpen(t *testing.T) {
	var rows, rowTokens strings.Builder
	for i := 0; i < 100; i++ { // enough rows for the decoder's fast path
		rows.WriteString("\n  " + strconv.Itoa(i) + ",x")
		rowTokens.WriteString(" { k:id n:" + strconv.Itoa(i) + " k:s s:x }")
	}
	tests := []struct{ name, in, want string }{
		{"rows at the end", "u[1000]{id,name}:\n  1,a\n  2,b\n", "{ k:u [tabular:1000{id,name} { k:id n:1 k:name s:a } { k:id n:2 k:name s:b }"},
		{"rows before a key", "u[3]{id}:\n  1\n  2\nk: 1", "{ k:u [tabular:3{id} { k:id n:1 } { k:id n:2 }"},
		{"nested rows", "a:\n  u[3]{id}:\n    1\nb: 2", "{ k:a { k:u [tabular:3{id} { k:id n:1 }"},
		{"many rows", "u[101]{id,s}:" + rows.String() + "\nk: 1", "{ k:u [tabular:101{id,s}" + rowTokens.String()},
		{"list", "l[3]:\n  - 1\n  - x: 1\nb: 1", "{ k:l [list:3 n:1 { k:x n:1 }"},
		{"keyed", "m[2:]{v}:\n  a: 1", "{ k:m {keyed:2{v} k:a { k:v n:1 }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tokenText(t, NewDecoder(strings.NewReader(tc.in)))
			if !errors.Is(err, ErrCount) {
				t.Fatalf("%q: error %v, want ErrCount (after %q)", tc.in, err, got)
			}
			if got != tc.want {
				t.Fatalf("%q:\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestNonStrict checks what non-strict mode relaxes (§14: counts, blank
// lines in arrays, duplicate keys, indentation, depth jumps, duplicate field
// names; §6: malformed headers read as key-value lines; section 2 of issue
// 14: literal keys before a bracket and field names as the reference
// implementation reads them) and what stays an error because relaxing it
// would drop or invent data silently.
func TestNonStrict(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a: 1\na: 2", "{ k:a n:1 k:a n:2 }"},
		{"l[3]:\n  - a\n\n  - b", "{ k:l [list:3 s:a s:b ] }"},
		{"a:\n   b: 1", "{ k:a { k:b n:1 } }"},
		{"a:\n\tb: 1", "{ k:a { k:b n:1 } }"},
		{"k[]: 1,2", "{ k:k[] s:1,2 }"},
		{"a: \xff", "{ k:a s:\xff }"},
		{"t[1]{a,a}:\n  1,2", "{ k:t [tabular:1{a,a} { k:a n:1 k:a n:2 } ] }"},
		{"a: 1\n \t\nb: 2", "{ k:a n:1 k:b n:2 }"}, // a line of whitespace is blank
		// The first line of a scope sets its depth.
		{"a:\n      b: 1\n      c: 2\nd: 3", "{ k:a { k:b n:1 k:c n:2 } k:d n:3 }"},
		{"l[1]:\n      - x", "{ k:l [list:1 s:x ] }"},
		// Counts are not checked: key[0]: takes the items under it.
		{"l[0]:\n  - x\n  - y", "{ k:l [list:0 s:x s:y ] }"},
		{"l[0]:\nb: 1", "{ k:l [list:0 ] k:b n:1 }"},
		{"t[1]{a}:\n  1\n  2", "{ k:t [tabular:1{a} { k:a n:1 } { k:a n:2 } ] }"},
		// Section 2: literal keys before a bracket and field names.
		{"foo-bar[2]: a,b", "{ k:foo-bar [inline:2 s:a s:b ] }"},
		{"l[1]:\n  - a b[1]{#k,x:y}:\n      1,2", "{ k:l [list:1 { k:a b [tabular:1{#k,x:y} { k:#k n:1 k:x:y n:2 } ] } ] }"},
		{"foo [2]: a", "{ k:foo [2] s:a }"}, // whitespace before the bracket: a key-value line (§5.2)
		{"a\t[2]: a", "{ k:a\t[2] s:a }"},
	}
	for _, tc := range tests {
		got, err := tokenText(t, NewDecoder(strings.NewReader(tc.in), WithStrict(false)))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	// Still errors in non-strict mode.
	for _, tc := range []struct {
		in   string
		want error
		line int
	}{
		{"[1]: a\nb: 1", ErrTrailing, 2},          // content after a root array
		{"[]\nb: 1", ErrTrailing, 2},              //   or an empty root array
		{"a: 1\n  b: 2", ErrIndent, 2},            // a line that belongs to no scope
		{"a:\n  b: 1\n    c: 2", ErrIndent, 3},    //   deeper than the scope it is in
		{"t[1]{a,b}:\n  1", ErrWidth, 2},          // a row of the wrong width
		{"t[1]{a,b}:\n  1,2,3", ErrWidth, 2},      //
		{"m[1:]{a,b}:\n  k: 1", ErrWidth, 2},      // an entry row of the wrong width
		{"m[1:]{a}:\n  5", ErrStructure, 2},       // an entry row without its key
		{"l[1]:\n  x: 1", ErrStructure, 2},        // a line in a list that is not an item
		{"t[1]{a}:\n  1\n  k: v", ErrIndent, 3},   // a key-value line at row depth
		{"hello\nworld", ErrStructure, 2},         // a root primitive and more lines
		{"hello\nk: v", ErrStructure, 2},          //
		{"  a: 1", ErrIndent, 1},                  // an indented first line
		{"k: \"abc", ErrUnterminated, 1},          // strings and escapes as in strict mode
		{`k: "\q"`, ErrEscape, 1},                 //
		{`k: "\ud800"`, ErrEscape, 1},             //
		{"o:\n  x[1]{a\"b}:", ErrMissingColon, 2}, // an open quote hides the colon
	} {
		_, err := tokenText(t, NewDecoder(strings.NewReader(tc.in), WithStrict(false)))
		var se *SyntaxError
		if !errors.Is(err, tc.want) || !errors.As(err, &se) || se.Line != tc.line {
			t.Errorf("%q: %v, want %v on line %d", tc.in, err, tc.want, tc.line)
		}
	}
	// Decode applies last-write-wins.
	var v map[string]any
	if err := Unmarshal([]byte("a: 1\nb: 2\na: 3"), &v, WithStrict(false)); err != nil {
		t.Fatal(err)
	}
	if v["a"] != 3.0 || v["b"] != 2.0 || len(v) != 2 {
		t.Fatalf("got %v", v)
	}
}

// readerDocs are documents that exercise buffer refills at every position.
var readerDocs = []string{
	"a: 1\nb:\n  c: [x]\n  d[2]: \"e,f\",g\nt[3]{id,name,meta{x,y}}:\n  1,Ada,1,2\n  2,\"B\\\"ob\",3,4\n  3,Cy,5,6\nl[2]:\n  - k: v\n    w: 1\n  - [1]: z\nm[2:]{v}:\n  p: 1\n  q: 2\n",
	"[2]{a}:\n  1\r\n  2\r\n",
	"# only a comment",
	"scalar",
	"l[1]:\n  - a\n\n  - b", // an error
}

func TestChunkedReaders(t *testing.T) {
	big := genBenchTable(300).toon
	docs := append([]string{string(big)}, readerDocs...)
	for i, doc := range docs {
		want, wantErr := tokenText(t, newBytesDecoder([]byte(doc), nil))
		readers := map[string]io.Reader{
			"reader":   strings.NewReader(doc),
			"onebyte":  iotest.OneByteReader(strings.NewReader(doc)),
			"half":     iotest.HalfReader(strings.NewReader(doc)),
			"dataerr":  iotest.DataErrReader(strings.NewReader(doc)),
			"smallbuf": strings.NewReader(doc),
		}
		for name, r := range readers {
			d := NewDecoder(r)
			if name == "smallbuf" {
				d = NewDecoder(r, WithMaxLineLength(200))
			}
			got, err := tokenText(t, d)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Errorf("doc %d via %s: tokens or error differ\n got %.200s (%v)\nwant %.200s (%v)", i, name, got, err, want, wantErr)
			}
		}
	}
}

func TestReaderErrorsPassThrough(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("a: 1\nb: 2\nc: "), iotest.ErrReader(boom))
	d := NewDecoder(r)
	var err error
	for err == nil {
		_, err = d.Token()
	}
	if err != boom {
		t.Fatalf("got %v, want the reader's error unchanged", err)
	}
	if _, err2 := d.Token(); err2 != boom {
		t.Fatalf("error is not sticky: %v", err2)
	}
}

func TestTruncatedInput(t *testing.T) {
	doc := "t[3]{a,b}:\n  1,2\n  3,4\n  5,6"
	for n := 0; n < len(doc); n++ {
		var v any
		err := Unmarshal([]byte(doc[:n]), &v)
		if err == nil && n > 0 {
			// A prefix may be a valid document (e.g. "t" or "t[3"), but it
			// must never be a short table.
			if m, ok := v.(map[string]any); ok {
				if a, ok := m["t"].([]any); ok && len(a) != 3 {
					t.Fatalf("prefix %q decoded to a short table %v", doc[:n], v)
				}
			}
		}
	}
}

func TestLimits(t *testing.T) {
	t.Run("line too long", func(t *testing.T) {
		doc := "a: " + strings.Repeat("x", 5000) + "\nb: 1"
		d := NewDecoder(strings.NewReader(doc), WithMaxLineLength(1000))
		_, err := tokenText(t, d)
		if !errors.Is(err, ErrLineTooLong) {
			t.Fatalf("got %v", err)
		}
		if len(d.lr.buf) > 1001 {
			t.Fatalf("buffer grew to %d bytes past the limit", len(d.lr.buf))
		}
	})
	t.Run("max depth", func(t *testing.T) {
		var sb strings.Builder
		for i := 0; i < 50; i++ {
			sb.WriteString(strings.Repeat("  ", i) + "k:\n")
		}
		_, err := tokenText(t, NewDecoder(strings.NewReader(sb.String()), WithMaxDepth(20)))
		if !errors.Is(err, ErrDepth) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("huge declared length", func(t *testing.T) {
		doc := "[99999999999]{a}:\n  1\n  2\n  3"
		allocs := testing.AllocsPerRun(3, func() {
			var v any
			if err := Unmarshal([]byte(doc), &v); !errors.Is(err, ErrCount) {
				t.Fatalf("got %v", err)
			}
		})
		if allocs > 100 {
			t.Fatalf("%v allocations: the declared length was trusted", allocs)
		}
	})
	t.Run("many sibling keys", func(t *testing.T) {
		var sb strings.Builder
		for i := 0; i < 200000; i++ {
			sb.WriteString("k" + strconv.Itoa(i) + ": 1\n")
		}
		sb.WriteString("k7: 2\n")
		_, err := tokenText(t, NewDecoder(strings.NewReader(sb.String())))
		if !errors.Is(err, ErrDuplicateKey) {
			t.Fatalf("got %v", err)
		}
	})
}

// TestZeroAllocTokens decodes a 10,000-row table with a reused decoder and
// requires no allocation at all once its buffers have grown.
func TestZeroAllocTokens(t *testing.T) {
	doc := genBenchTable(10000).toon
	d := NewDecoder(bytes.NewReader(doc))
	r := bytes.NewReader(doc)
	run := func() {
		r.Reset(doc)
		d.Reset(r)
		n, err := drain(d)
		if err != nil {
			t.Fatal(err)
		}
		if n != 10000*20+2 {
			t.Fatalf("%d tokens", n)
		}
	}
	run()
	if allocs := testing.AllocsPerRun(5, run); allocs != 0 {
		t.Fatalf("%v allocations per document of 200,002 tokens, want 0", allocs)
	}
}

// TestZeroAllocShapes checks the other benchmark shapes too: the wide
// table, and the table of quoted strings with escapes, whose rows the
// fast path mostly leaves to the general path.
func TestZeroAllocShapes(t *testing.T) {
	for _, shape := range []string{"wide50", "quoted", "nested"} {
		doc := genShapeDoc(shape)
		d := NewDecoder(bytes.NewReader(doc))
		r := bytes.NewReader(doc)
		run := func() {
			r.Reset(doc)
			d.Reset(r)
			if _, err := drain(d); err != nil {
				t.Fatal(err)
			}
		}
		run()
		if allocs := testing.AllocsPerRun(3, run); allocs != 0 {
			t.Errorf("%s: %v allocations per document, want 0", shape, allocs)
		}
	}
}

func TestTokenAccessors(t *testing.T) {
	d := NewDecoder(strings.NewReader("a: 9007199254740993\nb: -2.5\nc: x"))
	var toks []Token
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		toks = append(toks, tok.Clone())
	}
	if i, err := toks[2].Int(); err != nil || i != 9007199254740993 {
		t.Fatalf("Int: %v %v", i, err)
	}
	if f, err := toks[4].Float(); err != nil || f != -2.5 {
		t.Fatalf("Float: %v %v", f, err)
	}
	if _, err := toks[4].Int(); err == nil {
		t.Fatal("Int of -2.5 succeeded")
	}
	if _, err := toks[6].Int(); err == nil {
		t.Fatal("Int of a string succeeded")
	}
	if toks[6].String() != "x" || string(toks[5].Bytes()) != "c" {
		t.Fatalf("cloned tokens changed: %v %v", toks[6], toks[5])
	}
	if n, err := Number("1.5e3").Int64(); err != nil || n != 1500 {
		t.Fatalf("Number.Int64: %v %v", n, err)
	}
}

func TestDecodeUseNumber(t *testing.T) {
	var v any
	if err := Unmarshal([]byte("n: 12345678901234567890"), &v, UseNumber()); err != nil {
		t.Fatal(err)
	}
	if got := v.(map[string]any)["n"]; got != Number("12345678901234567890") {
		t.Fatalf("got %#v", got)
	}
}

// TestRowNumberTyping: the row path types cells exactly as isNumber does.
func TestRowNumberTyping(t *testing.T) {
	cells := []string{"0", "00", "05", "0.5", "00.5", "05.5", "1.", "1.0", "12.340", "-1", "-0.5", "1e5", "1.5e-3", "1.5x", "12a", "9", "123456789012345678901234567890", ".5", "0.", "1..2", "1.2.3", "10.01", "0e1", "-", "1e", "1.e3"}
	for _, c := range cells {
		doc := "t[1]{a}:\n  " + c
		d := NewDecoder(strings.NewReader(doc))
		var got Token
		for {
			tok, err := d.Token()
			if err != nil {
				t.Fatalf("%q: %v", c, err)
			}
			if tok.Kind() == KindNumber || tok.Kind() == KindString {
				got = tok
				break
			}
		}
		want := KindString
		if isNumber([]byte(c)) {
			want = KindNumber
		}
		if got.Kind() != want {
			t.Errorf("%q: %v, want %v", c, got.Kind(), want)
		}
	}
}

// TestPlainTokenKinds holds plainToken, with its shortcuts, to the §4
// grammar as isNumber states it, over every string of up to five bytes
// from the bytes that matter to numbers (and some that do not), and to the
// keywords.
func TestPlainTokenKinds(t *testing.T) {
	eachString("0159.eE+-x:", 5, func(b []byte) {
		if len(b) > 0 && b[0] != ' ' {
			got := plainToken(b).Kind()
			want := KindString
			if isNumber(b) {
				want = KindNumber
			}
			if got != want {
				t.Fatalf("plainToken(%q) is %v, want %v", b, got, want)
			}
		}
	})
	for _, c := range []struct {
		s    string
		kind Kind
	}{
		{"true", KindBool}, {"false", KindBool}, {"null", KindNull}, {"2010-01-01", KindString},
		{"12:30", KindString}, {"1e5", KindNumber}, {"1E+05", KindNumber}, {"10.5", KindNumber}, {"007", KindString},
	} {
		if got := plainToken([]byte(c.s)).Kind(); got != c.kind {
			t.Errorf("plainToken(%q) is %v, want %v", c.s, got, c.kind)
		}
	}
}

// TestHeaderFieldsReused holds the header parser's reuse of fields
// segments seen before (headerParser.group) to a parse from scratch: each
// item's header, read after the others in one document, gives the fields
// a fresh decoder gives it alone, for more distinct segments than are
// remembered, with repeats, quoted names, nested groups and delimiters;
// and a header that a remembered segment prefixes, or that has its bytes
// under another delimiter, gets the error a fresh decoder gives it.
func TestHeaderFieldsReused(t *testing.T) {
	// Each header with its rows, at the depth of an item's first field.
	segs := []string{
		"[0]{a,b}", "[1]{a,b,c}:\n      1,x,\"y\"", "[0|]{a|b}", "[1\t]{a\tb}:\n      1\t2", "[0]{\"x y\",b}",
		"[2]{a,p{q,r},s}:\n      1,2,3,4\n      5,6,7,8", "[1:]{a,b}:\n      k: 1,2", "[0]{b,a}", "[1]{a}:\n      z",
		"[0]{a.b,c_d}", "[1|]{a|p{q|r}}:\n      1|2|3",
	}
	var order []string
	for i := 0; i < 3; i++ {
		order = append(order, segs...)
		order = append(order, segs[i], segs[i], segs[len(segs)-1-i])
	}
	var doc strings.Builder
	want := "{ k:items [list:" + strconv.Itoa(len(order))
	doc.WriteString("items[" + strconv.Itoa(len(order)) + "]:\n")
	for _, h := range order {
		if !strings.Contains(h, "\n") {
			h += ":"
		}
		doc.WriteString("  - t" + h + "\n")
		alone, err := tokenText(t, NewDecoder(strings.NewReader("t"+strings.ReplaceAll(h, "\n      ", "\n  "))))
		if err != nil {
			t.Fatalf("%q alone: %v", h, err)
		}
		want += " " + alone
	}
	want += " ] }"
	got, err := tokenText(t, NewDecoder(strings.NewReader(doc.String())))
	if err != nil || got != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}

	for _, c := range []struct{ first, second string }{
		{"[0]{a,b}", "[0]{a,b}c"},
		{"[0]{a,b}", "[0]{a,b} c"},
		{"[0|]{a|b}", "[0]{a|b}"},
		{"[0]{a,b}", "[0|]{a,b}"},
		{"[0]{\"a\",b}", "[0]{\"a\",b"},
	} {
		doc := "items[2]:\n  - t" + c.first + ":\n  - t" + c.second + ":\n"
		fresh := "items[2]:\n  - x: 1\n  - t" + c.second + ":\n"
		_, err := tokenText(t, NewDecoder(strings.NewReader(doc)))
		_, wantErr := tokenText(t, NewDecoder(strings.NewReader(fresh)))
		if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
			t.Errorf("%q after %q: error %v, want %v", c.second, c.first, err, wantErr)
		}
	}
}

// TestHeaderProgAlternates decodes objects that each hold two tables of
// other fields, a tabular array and a keyed object, so that the row
// program of each header is the one kept from two headers before
// (headerProg), and checks every row's keys and cells against the
// document, through the general path, runs and the fast path alike.
func TestHeaderProgAlternates(t *testing.T) {
	var doc, want strings.Builder
	doc.WriteString("l[6]:\n")
	want.WriteString(`{"l":[`) // json.Marshal sorts the keys
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&doc, "  - id: %d\n    t[2]{a,b{c,d}}:\n      %d,x,y\n      %d,z,w\n    k[1:]{p,q,r}:\n      e: %d,u,v\n", i, i, i+1, i)
		if i > 0 {
			want.WriteString(",")
		}
		fmt.Fprintf(&want, `{"id":%d,"k":{"e":{"p":%d,"q":"u","r":"v"}},"t":[{"a":%d,"b":{"c":"x","d":"y"}},{"a":%d,"b":{"c":"z","d":"w"}}]}`, i, i, i, i+1)
	}
	want.WriteString("]}")
	for _, off := range []bool{false, true} {
		var got string
		run := func() {
			var v any
			if err := Unmarshal([]byte(doc.String()), &v); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if off {
			withoutLineRuns(run)
		} else {
			run()
		}
		if got != want.String() {
			t.Fatalf("runs off %v:\n got %s\nwant %s", off, got, want.String())
		}
	}
}
