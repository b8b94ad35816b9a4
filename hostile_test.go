package toon

import (
	"bytes"
	"errors"
	"io"
	"math/big"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toonstream/toon/internal/longtest"
)

// Hostile input: each case must end in a clear error or a correct result,
// in linear time and bounded memory, and never crash. Large inputs are
// synthesized by readers a line at a time, so the tests themselves stay
// small in memory.

// genReader synthesizes input: line(i, buf) appends line i (with its line
// terminator) to buf, for i from 0 until it returns buf unchanged or lines
// lines have been made. It counts the bytes handed out.
type genReader struct {
	line    func(i int, buf []byte) []byte
	lines   int
	i       int
	pending []byte
	buf     []byte
	read    int64
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.i >= g.lines {
			return 0, io.EOF
		}
		g.buf = g.line(g.i, g.buf[:0])
		g.i++
		if len(g.buf) == 0 {
			g.lines = g.i
		}
		g.pending = g.buf
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	g.read += int64(n)
	return n, nil
}

// within runs f and fails the test if it takes longer than limit, which is
// set far above the time a linear algorithm needs on a slow, loaded
// machine and far below what a quadratic one would need.
func within(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		t.Logf("took %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(limit):
		t.Fatalf("still running after %v: not linear time", limit)
	}
}

// drain reads every token, returning the count and the first error other
// than io.EOF.
func drain(d *Decoder) (int, error) {
	n := 0
	for {
		_, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// wantSyntax fails unless err is a *SyntaxError matching cause at line.
func wantSyntax(t *testing.T, err error, cause error, line int) *SyntaxError {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("got %T %v, want a *SyntaxError", err, err)
	}
	if !errors.Is(err, cause) {
		t.Fatalf("got %v, want %v", err, cause)
	}
	if line > 0 && se.Line != line {
		t.Fatalf("error on line %d, want %d: %v", se.Line, line, err)
	}
	return se
}

// TestHostileDeepNesting feeds a document whose objects nest 1,000,000
// levels deep. Each level adds indentation, so the document is quadratic
// in size (about 10^12 bytes); the reader synthesizes it line by line, and
// the decoder must stop at its maximum depth having read only the lines up
// to there.
func TestHostileDeepNesting(t *testing.T) {
	const levels = 1_000_000
	for _, tc := range []struct {
		name     string
		opts     []Option
		maxDepth int
		indent   int
	}{
		{"default max depth", []Option{WithIndent(1)}, 10000, 1},
		{"max depth 500, indent 2", []Option{WithMaxDepth(500)}, 500, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &genReader{lines: levels, line: func(i int, b []byte) []byte {
				for j := 0; j < i*tc.indent; j++ {
					b = append(b, ' ')
				}
				return append(b, "k:\n"...)
			}}
			var err error
			var n int
			within(t, 20*time.Second, func() { n, err = drain(NewDecoder(g, tc.opts...)) })
			se := wantSyntax(t, err, ErrDepth, 0)
			if se.Line < tc.maxDepth-1 || se.Line > tc.maxDepth+1 {
				t.Fatalf("error on line %d, want about %d: %v", se.Line, tc.maxDepth, err)
			}
			if n > 2*tc.maxDepth+2 {
				t.Fatalf("%d tokens before the error", n)
			}
			// The lines up to the error, plus at most one buffer of read-ahead.
			sum := int64(0)
			for i := 0; i <= se.Line; i++ {
				sum += int64(i*tc.indent + 3)
			}
			if g.read > sum+defaultBufSize+int64(se.Line*tc.indent) {
				t.Fatalf("read %d bytes; the lines to the error hold %d", g.read, sum)
			}
			// Decode recurses once per level; it must fail the same way.
			g.i, g.read, g.pending = 0, 0, nil
			var v any
			within(t, 20*time.Second, func() { err = NewDecoder(g, tc.opts...).Decode(&v) })
			wantSyntax(t, err, ErrDepth, se.Line)
		})
	}
	// Nested field groups need no indentation: 1,000,000 of them fit on
	// one 2 MB header line.
	t.Run("field groups", func(t *testing.T) {
		doc := "t[1]{" + strings.Repeat("a{", levels) + "b" + strings.Repeat("}", levels+1) + ":\n  1"
		var err error
		within(t, 10*time.Second, func() { _, err = drain(NewDecoder(strings.NewReader(doc))) })
		wantSyntax(t, err, ErrHeader, 1)
	})
	// A list of lists: "- [1]:" items one level deeper each.
	t.Run("lists", func(t *testing.T) {
		g := &genReader{lines: levels, line: func(i int, b []byte) []byte {
			if i == 0 {
				return append(b, "[1]:\n"...)
			}
			for j := 0; j < i; j++ {
				b = append(b, ' ')
			}
			return append(b, "- [1]:\n"...)
		}}
		var err error
		within(t, 20*time.Second, func() { _, err = drain(NewDecoder(g, WithIndent(1), WithMaxDepth(3000))) })
		wantSyntax(t, err, ErrDepth, 0)
	})
}

// TestHostileLongLine feeds a single line of 1 GiB. The decoder's buffer
// must stop growing at the maximum line length, the error must come once
// that much has been read, and memory must stay near the limit.
func TestHostileLongLine(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name    string
		maxLine int
		opts    []Option
	}{
		{"1 MiB limit", 1 << 20, []Option{WithMaxLineLength(1 << 20)}},
		{"default 64 MiB limit", 64 << 20, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			g := &genReader{lines: 1 + gib/len(chunk), line: func(i int, b []byte) []byte {
				if i == 0 {
					return append(b, "a: "...)
				}
				return append(b, chunk...)
			}}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			d := NewDecoder(g, tc.opts...)
			var err error
			within(t, 20*time.Second, func() { _, err = drain(d) })
			runtime.ReadMemStats(&after)
			wantSyntax(t, err, ErrLineTooLong, 1)
			if len(d.lr.buf) > tc.maxLine+1 {
				t.Fatalf("buffer grew to %d bytes, limit %d", len(d.lr.buf), tc.maxLine)
			}
			if g.read > int64(tc.maxLine)+int64(len(chunk))+defaultBufSize {
				t.Fatalf("read %d bytes of the line before giving up (limit %d)", g.read, tc.maxLine)
			}
			// The buffer doubles up to the limit. (Doubling lands on the
			// limit itself and then grows by one byte to limit+1, so three
			// times the limit is allocated in all.)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(3*tc.maxLine+8<<20) {
				t.Fatalf("allocated %d bytes for a limit of %d", alloc, tc.maxLine)
			}
		})
	}
}

// TestHostileDeclaredLength declares [99999999999] elements and gives
// three. Strict mode must report the count (at the array's last line)
// without trusting the length for memory; non-strict mode must return the
// three.
func TestHostileDeclaredLength(t *testing.T) {
	docs := []struct {
		name, doc string
		line      int
	}{
		{"tabular", "t[99999999999]{a}:\n  1\n  2\n  3", 4},
		{"root tabular", "[99999999999]{a}:\n  1\n  2\n  3", 4},
		{"list", "l[99999999999]:\n  - 1\n  - 2\n  - 3", 4},
		{"inline", "i[99999999999]: 1,2,3", 1},
		{"keyed", "m[99999999999:]{v}:\n  a: 1\n  b: 2\n  c: 3", 4},
	}
	for _, tc := range docs {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			allocs := testing.AllocsPerRun(3, func() {
				err := Unmarshal([]byte(tc.doc), &v)
				wantSyntax(t, err, ErrCount, tc.line)
			})
			if allocs > 100 {
				t.Fatalf("%v allocations: the declared length was trusted", allocs)
			}
			if err := Unmarshal([]byte(tc.doc), &v, WithStrict(false)); err != nil {
				t.Fatalf("non-strict: %v", err)
			}
			var n int
			switch x := v.(type) {
			case []any:
				n = len(x)
			case map[string]any:
				n = len(x)
				if len(x) == 1 {
					for _, e := range x {
						switch y := e.(type) {
						case []any:
							n = len(y)
						case map[string]any:
							n = len(y)
						}
					}
				}
			}
			if n != 3 {
				t.Fatalf("non-strict: got %#v, want three elements", v)
			}
		})
	}
	// A length too long for any integer is a malformed header, not an
	// overflow.
	var v any
	err := Unmarshal([]byte("t[99999999999999999999999999]{a}:\n  1"), &v)
	wantSyntax(t, err, ErrHeader, 1)
}

// TestHostileEscapes decodes strings of a million characters that are
// mostly escapes, in every position a quoted string can stand.
func TestHostileEscapes(t *testing.T) {
	const n = 1_000_000
	for _, tc := range []struct {
		name    string
		unit    string // repeated inside the quotes
		decoded string // what one unit decodes to
	}{
		{"backslashes and quotes", `\\\"`, `\"`},
		{"unicode escapes", `\u00e9\"`, "é\""},
		{"plain text then one escape", strings.Repeat("x", 999) + `\n`, strings.Repeat("x", 999) + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reps := n / len(tc.unit)
			body := strings.Repeat(tc.unit, reps)
			want := strings.Repeat(tc.decoded, reps)
			for _, doc := range []struct {
				form, text string
				get        func(any) any
			}{
				{"value", `k: "` + body + `"`, func(v any) any { return v.(map[string]any)["k"] }},
				{"key", `"` + body + `": 1`, func(v any) any {
					for k := range v.(map[string]any) {
						return k
					}
					return nil
				}},
				{"cell", "t[1]{a,b}:\n  1,\"" + body + `"`, func(v any) any {
					return v.(map[string]any)["t"].([]any)[0].(map[string]any)["b"]
				}},
				{"inline", `i[2]: "` + body + `",2`, func(v any) any { return v.(map[string]any)["i"].([]any)[0] }},
				{"root", `"` + body + `"`, func(v any) any { return v }},
			} {
				var v any
				var err error
				within(t, 10*time.Second, func() { err = NewDecoder(strings.NewReader(doc.text)).Decode(&v) })
				if err != nil {
					t.Fatalf("%s: %v", doc.form, err)
				}
				if got, ok := doc.get(v).(string); !ok || got != want {
					t.Fatalf("%s: decoded string differs (%d bytes, want %d)", doc.form, len(got), len(want))
				}
			}
			// Without its closing quote the string is unterminated.
			var v any
			var err error
			within(t, 10*time.Second, func() { err = Unmarshal([]byte(`k: "`+body), &v) })
			wantSyntax(t, err, ErrUnterminated, 1)
		})
	}
}

// TestHostileUTF8 checks ill-formed UTF-8 in every part of a line: strict
// mode reports the first bad byte's line and column; non-strict mode keeps
// the bytes as they are.
func TestHostileUTF8(t *testing.T) {
	bad := []string{"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\x80"}
	for _, b := range bad {
		for _, tc := range []struct {
			doc  string
			line int
			col  int
			get  func(any) any // where the bytes are in non-strict mode
			want string
		}{
			{"a: x" + b + "y", 1, 5, func(v any) any { return v.(map[string]any)["a"] }, "x" + b + "y"},
			{"a: \"" + b + "\"", 1, 5, func(v any) any { return v.(map[string]any)["a"] }, b},
			{"a: 1\nk" + b + ": 2", 2, 2, func(v any) any { return v.(map[string]any)["k"+b] }, ""},
			{"t[1]{a,b}:\n  1,z" + b, 2, 6, func(v any) any { return v.(map[string]any)["t"].([]any)[0].(map[string]any)["b"] }, "z" + b},
			{"t[1]{a,b" + b + "}:\n  1,2", 1, 9, func(v any) any { return v.(map[string]any)["t"].([]any)[0].(map[string]any)["b"+b] }, ""},
			{"i[2]: " + b + ",x", 1, 7, func(v any) any { return v.(map[string]any)["i"].([]any)[0] }, b},
			{"a: 1\nb: " + b, 2, 4, func(v any) any { return v.(map[string]any)["b"] }, b},
		} {
			var v any
			err := Unmarshal([]byte(tc.doc), &v)
			se := wantSyntax(t, err, ErrUTF8, tc.line)
			if se.Column != tc.col {
				t.Errorf("%q: column %d, want %d", tc.doc, se.Column, tc.col)
			}
			err = Unmarshal([]byte(tc.doc), &v, WithStrict(false))
			if err != nil {
				t.Fatalf("%q non-strict: %v", tc.doc, err)
			}
			got := tc.get(v)
			if tc.want != "" && got != tc.want {
				t.Fatalf("%q non-strict: got %q, want %q", tc.doc, got, tc.want)
			}
			if tc.want == "" && got == nil {
				t.Fatalf("%q non-strict: the key with the bad bytes is missing from %#v", tc.doc, v)
			}
		}
	}
	// A multi-byte character cut by the end of the input.
	var v any
	wantSyntax(t, Unmarshal([]byte("a: caf\xc3"), &v), ErrUTF8, 1)
	// Valid UTF-8 of every length stays valid through a reader that splits
	// the characters.
	doc := "k: é€🚀\nt[1]{\"é\",\"🚀\"}:\n  €,\"🚀\""
	want, err := tokenText(t, NewDecoder(strings.NewReader(doc)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tokenText(t, NewDecoder(&chunkReader{data: []byte(doc), pattern: []byte{0}}))
	if err != nil || got != want {
		t.Fatalf("one byte at a time: %s (%v), want %s", got, err, want)
	}
}

// TestHostileTruncated cuts documents at every byte, through a whole and a
// chunked reader: decoding must end with a value or a *SyntaxError, and
// the cuts inside a row, a quoted string or an escape give their errors.
func TestHostileTruncated(t *testing.T) {
	docs := []string{
		"t[2]{a,b}:\n  1,\"x\\\"y\"\n  2,\"\\u00e9\"",
		"k: \"a\\\\b\\tc\\u20ac\"\nl[2]:\n  - \"q\\\"\"\n  - m[2:]{v}:\n      a: \"é\"\n      b: 2",
		"[2|]{a|b{c|d}}:\n  1|x|\"y\"\n  2|\"\\n\"|z",
	}
	for _, doc := range docs {
		for n := 0; n <= len(doc); n++ {
			prefix := []byte(doc[:n])
			for _, r := range []io.Reader{bytes.NewReader(prefix), &chunkReader{data: prefix, pattern: []byte{byte(n)}}} {
				d := NewDecoder(r)
				_, err := drain(d)
				if err != nil {
					checkSyntaxError(t, prefix, err)
				}
			}
		}
	}
	for _, tc := range []struct {
		doc   string
		cause error
		line  int
	}{
		{"t[2]{a,b}:\n  1,2\n  3", ErrWidth, 3},                  // mid-row
		{"t[2]{a,b}:\n  1,2\n  3,", nil, 0},                      // complete: the last cell is empty
		{"t[2]{a,b}:\n  1,2\n  3,\"x", ErrUnterminated, 3},       // mid-quote
		{"t[2]{a,b}:\n  1,2\n  3,\"x\\", ErrUnterminated, 3},     // mid-escape
		{"k: \"\\u00", ErrUnterminated, 1},                       // mid-\u escape
		{"k: \"\\", ErrUnterminated, 1},                          // a lone backslash
		{"t[2]{a,b", nil, 0},                                     // mid-header: a root string
		{"l[2]:\n  - a\n  - \"", ErrUnterminated, 3},             // mid-quote in a list
		{"m[2:]{v}:\n  a: 1\n  \"b", ErrUnterminated, 3},         // mid-quote in an entry key
		{"k[3]: 1,2,\"", ErrUnterminated, 1},                     // mid-quote in an inline array
		{"\"k", ErrUnterminated, 1},                              // root
		{"t[2]{a,b}:\n  1,2\n  \"é\xe2\x82", ErrUnterminated, 3}, // cut inside a character and a quote
	} {
		var v any
		err := Unmarshal([]byte(tc.doc), &v)
		if tc.cause == nil {
			if err != nil {
				t.Errorf("%q: %v", tc.doc, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: no error, got %#v", tc.doc, v)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line < 1 {
			t.Errorf("%q: %T %v is not a *SyntaxError with a line", tc.doc, err, err)
			continue
		}
		if !errors.Is(err, tc.cause) && !(tc.cause == ErrUnterminated && errors.Is(err, ErrUTF8)) {
			t.Errorf("%q: got %v, want %v", tc.doc, err, tc.cause)
		}
		if se.Line != tc.line {
			t.Errorf("%q: line %d, want %d (%v)", tc.doc, se.Line, tc.line, err)
		}
	}
}

// TestHostileSiblingKeys decodes an object of 1,000,000 keys, then the
// same with a repeated key at the end, a keyed table of 1,000,000 entries
// and a table header of 100,000 fields; all in linear time.
func TestHostileSiblingKeys(t *testing.T) {
	n := longtest.Size(t, 200_000, 1_000_000)
	keys := func(dup bool) *genReader {
		return &genReader{lines: n + 1, line: func(i int, b []byte) []byte {
			if i == n {
				if !dup {
					return b
				}
				return append(b, "k12345: 2\n"...)
			}
			b = append(b, 'k')
			b = strconv.AppendInt(b, int64(i), 10)
			return append(b, ": 1\n"...)
		}}
	}
	t.Run("distinct", func(t *testing.T) {
		var count int
		var err error
		within(t, 15*time.Second, func() { count, err = drain(NewDecoder(keys(false))) })
		if err != nil || count != 2*n+2 {
			t.Fatalf("%d tokens, %v", count, err)
		}
	})
	t.Run("repeated", func(t *testing.T) {
		var err error
		within(t, 15*time.Second, func() { _, err = drain(NewDecoder(keys(true))) })
		wantSyntax(t, err, ErrDuplicateKey, n+1)
	})
	t.Run("keyed entries", func(t *testing.T) {
		g := &genReader{lines: n + 2, line: func(i int, b []byte) []byte {
			switch i {
			case 0:
				return append(b, "m[1000001:]{v}:\n"...)
			case n + 1:
				return append(b, " e7: 1\n"...)
			}
			b = append(b, " e"...)
			b = strconv.AppendInt(b, int64(i), 10)
			return append(b, ": 1\n"...)
		}}
		var err error
		within(t, 15*time.Second, func() { _, err = drain(NewDecoder(g, WithIndent(1))) })
		wantSyntax(t, err, ErrDuplicateKey, n+2)
	})
}

// TestHostileWideHeader decodes, in non-strict mode, a table header of
// 100,000 fields and one row of 100,000 cells in linear time.
func TestHostileWideHeader(t *testing.T) {
	doc := wideTable(100_000)
	var count int
	var err error
	within(t, 10*time.Second, func() { count, err = drain(NewDecoder(strings.NewReader(doc), WithStrict(false))) })
	if err != nil || count != 2*100_000+7 {
		t.Fatalf("%d tokens, %v", count, err)
	}
}

// wideTable returns a table of one row with n fields f0, f1, ... and cells
// 0, 1, ....
func wideTable(n int) string {
	var hdr, row strings.Builder
	hdr.WriteString("t[1]{")
	row.WriteString("}:\n  ")
	for i := 0; i < n; i++ {
		if i > 0 {
			hdr.WriteByte(',')
			row.WriteByte(',')
		}
		hdr.WriteString("f" + strconv.Itoa(i))
		row.WriteString(strconv.Itoa(i))
	}
	return hdr.String() + row.String()
}

// TestHostileLineEndings checks that CRLF and mixed line endings give the
// tokens LF gives, including through a reader that splits CR from LF, and
// that a lone CR is not a line break.
func TestHostileLineEndings(t *testing.T) {
	docs := append([]string{string(genBenchTable(50).toon)}, readerDocs...)
	docs = append(docs,
		"a:\n  b: 1\n\n  c: \"x\"\nl[2]:\n  - 1\n  - k: v\n    w[2]: a,b\n",
		"# c\n[2]{a}:\n  1\n  # c\n  2",
	)
	for i, doc := range docs {
		doc = strings.ReplaceAll(doc, "\r\n", "\n")
		want, wantErr := tokenText(t, NewDecoder(strings.NewReader(doc)))
		crlf := strings.ReplaceAll(doc, "\n", "\r\n")
		var sb strings.Builder
		for j, c := range []byte(doc) {
			if c == '\n' && j%2 == 0 {
				sb.WriteByte('\r')
			}
			sb.WriteByte(c)
		}
		for name, in := range map[string]string{"CRLF": crlf, "mixed": sb.String(), "CRLF at the end": doc + "\r\n"} {
			for _, r := range []io.Reader{strings.NewReader(in), &chunkReader{data: []byte(in), pattern: []byte{0, 1, 2}}} {
				got, err := tokenText(t, NewDecoder(r))
				if got != want || (err == nil) != (wantErr == nil) {
					t.Fatalf("doc %d %s: got %.200s (%v)\nwant %.200s (%v)", i, name, got, err, want, wantErr)
				}
				if err != nil {
					var a, b *SyntaxError
					if !errors.As(err, &a) || !errors.As(wantErr, &b) || a.Line != b.Line || a.Err.Error() != b.Err.Error() {
						t.Fatalf("doc %d %s: error %v, want %v", i, name, err, wantErr)
					}
				}
			}
		}
	}
	// A lone CR is part of the line, a CR in a quoted string is an escape.
	var v map[string]any
	if err := Unmarshal([]byte("a: 1\rb: 2\r\nc: \"x\\r\"\r\n"), &v); err != nil {
		t.Fatal(err)
	}
	if v["a"] != "1\rb: 2" || v["c"] != "x\r" || len(v) != 2 {
		t.Fatalf("got %#v", v)
	}
	// CRLF blank lines inside an array are blank lines.
	var x any
	wantSyntax(t, Unmarshal([]byte("l[2]:\r\n  - a\r\n\r\n  - b\r\n"), &x), ErrBlankLine, 3)
}

// hostileWriter accepts limit bytes, then fails: with err, or, if err is
// nil, by writing short.
type hostileWriter struct {
	limit  int
	err    error
	buf    bytes.Buffer
	writes int // calls after the failure
	failed bool
}

func (w *hostileWriter) Write(p []byte) (int, error) {
	if w.failed {
		w.writes++
	}
	room := w.limit - w.buf.Len()
	if len(p) <= room {
		w.buf.Write(p)
		return len(p), nil
	}
	w.failed = true
	if room < 0 {
		room = 0
	}
	w.buf.Write(p[:room])
	return room, w.err
}

// TestHostileWriter fails the writer at many points of a document written
// by each path of the encoder (Encode, WriteRow with known and unknown
// row counts, WriteToken): the writer's error (or io.ErrShortWrite) must
// come back, stay sticky, stop all further writes, and what was written
// must be a prefix of the document.
func TestHostileWriter(t *testing.T) {
	boom := errors.New("disk full")
	rows := make([][]Value, 30000)
	for i := range rows {
		rows[i] = []Value{Int(int64(i)), String("name " + strconv.Itoa(i)), Float(float64(i) / 4), Bool(i%3 == 0)}
	}
	generic := make([]any, len(rows))
	for i, r := range rows {
		generic[i] = Object{{"id", i}, {"name", r[1].str()}, {"x", float64(i) / 4}, {"ok", i%3 == 0}}
	}
	want, err := Marshal(Object{{"t", generic}})
	if err != nil {
		t.Fatal(err)
	}
	var toks []Token
	d := NewDecoder(bytes.NewReader(want))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok.Clone())
	}
	paths := map[string]func(e *Encoder) error{
		"Encode": func(e *Encoder) error { return e.Encode(Object{{"t", generic}}) },
		"WriteRow": func(e *Encoder) error {
			if err := e.BeginTable("t", len(rows), "id", "name", "x", "ok"); err != nil {
				return err
			}
			for _, r := range rows {
				if err := e.WriteRow(r...); err != nil {
					return err
				}
			}
			if err := e.EndTable(); err != nil {
				return err
			}
			return e.Close()
		},
		"WriteRow unknown count": func(e *Encoder) error {
			if err := e.BeginTable("t", -1, "id", "name", "x", "ok"); err != nil {
				return err
			}
			for _, r := range rows {
				if err := e.WriteRow(r...); err != nil {
					return err
				}
			}
			if err := e.EndTable(); err != nil {
				return err
			}
			return e.Close()
		},
		"WriteToken": func(e *Encoder) error {
			for _, tok := range toks {
				if err := e.WriteToken(tok); err != nil {
					return err
				}
			}
			return e.Close()
		},
	}
	for name, write := range paths {
		var ok hostileWriter
		ok.limit = len(want) + 1
		if err := write(NewEncoder(&ok, WithTempDir(t.TempDir()))); err != nil || !bytes.Equal(ok.buf.Bytes(), want) {
			t.Fatalf("%s: writes a different document (%v)", name, err)
		}
		for _, limit := range []int{0, 1, 4095, 65536, len(want) / 2, len(want) - 1} {
			for _, werr := range []error{boom, nil} {
				w := &hostileWriter{limit: limit, err: werr}
				e := NewEncoder(w, WithTempDir(t.TempDir()))
				err := write(e)
				wantErr := werr
				if werr == nil {
					wantErr = io.ErrShortWrite
				}
				if !errors.Is(err, wantErr) {
					t.Fatalf("%s, writer failing after %d bytes: got %v, want %v", name, limit, err, wantErr)
				}
				for _, again := range []error{e.Flush(), e.WriteToken(NullToken()), e.WriteRow(Int(1)), e.EndTable(), e.Close()} {
					if !errors.Is(again, wantErr) {
						t.Fatalf("%s, writer failing after %d bytes: a later call returned %v", name, limit, again)
					}
				}
				if w.writes != 0 {
					t.Fatalf("%s: %d writes after the failure", name, w.writes)
				}
				if !bytes.HasPrefix(want, w.buf.Bytes()) {
					t.Fatalf("%s, writer failing after %d bytes: the output is not a prefix of the document", name, limit)
				}
			}
		}
	}
}

// A quoted string of a million characters whose escapes are separated by
// plain text (and no quote): decoding must stay linear in its length.
func TestHostileEscapesBetweenText(t *testing.T) {
	body := strings.Repeat(`ab\\`, 250_000)
	var v any
	var err error
	within(t, 2*time.Second, func() { err = Unmarshal([]byte(`k: "`+body+`"`), &v) })
	if err != nil || v.(map[string]any)["k"] != strings.Repeat(`ab\`, 250_000) {
		t.Fatalf("%v", err)
	}
}

// A strict table header of 100,000 fields whose last field repeats an
// earlier one: the duplicate check must stay linear in the field count.
func TestHostileWideHeaderStrict(t *testing.T) {
	doc := wideTable(100_000)
	var count int
	var err error
	within(t, 5*time.Second, func() { count, err = drain(NewDecoder(strings.NewReader(doc))) })
	if err != nil || count != 2*100_000+7 {
		t.Fatalf("%d tokens, %v", count, err)
	}
	dup := strings.Replace(doc, "}:", ",f7}:", 1) + ",1"
	within(t, 5*time.Second, func() { _, err = drain(NewDecoder(strings.NewReader(dup))) })
	wantSyntax(t, err, ErrDuplicateKey, 1)
}

// A line longer than the default 64 MiB limit: the buffer grows to the
// limit and no further, allocating at most about twice the limit in all.
func TestHostileLongLineAllocs(t *testing.T) {
	const limit = 64 << 20
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	g := &genReader{lines: 1 + 1024, line: func(i int, b []byte) []byte {
		if i == 0 {
			return append(b, "a: "...)
		}
		return append(b, chunk...)
	}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := drain(NewDecoder(g))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*limit+8<<20 {
		t.Fatalf("allocated %d bytes for a limit of %d", alloc, limit)
	}
}

// Strings that start with a digit, '+', 't', 'f' or 'n' and end with a
// space must be quoted, or the trailing space would be lost.
func TestHostileTrailingSpace(t *testing.T) {
	for _, s := range []string{"0a ", "00 ", "1 ", "+x ", "t ", "fa ", "no "} {
		out, err := Marshal(map[string]any{"k": s})
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := Unmarshal(out, &v); err != nil || v["k"] != s {
			t.Errorf("Marshal(%q) wrote %q, which decodes to %q (%v)", s, out, v["k"], err)
		}
	}
}

// Decode keeps a number whose exponent overflows as Number, and Marshal
// must write it back (in exponent form) rather than reject it.
func TestHostileHugeExponent(t *testing.T) {
	var v any
	if err := Unmarshal([]byte("k: 1e99999999999999999999"), &v); err != nil {
		t.Fatal(err)
	}
	out, err := Marshal(v)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", v, err)
	}
	if want := "k: 1e+99999999999999999999"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	for in, want := range map[string]string{
		"-12.50e-99999999999999999999": "-1.25e-99999999999999999998",
		"0.00e99999999999999999999":    "0",
		"123e9999999999999999":         "1.23e+10000000000000001",
	} {
		got, ok := appendNumber(nil, []byte(in))
		if !ok || string(got) != want {
			t.Errorf("appendNumber(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestValidUTF8 compares validUTF8's ASCII checks (of four words and of a
// word at a time) with utf8.Valid on inputs of every length up to 80 with
// an ill-formed, surrogate or well-formed multi-byte sequence at every
// position.
func TestValidUTF8(t *testing.T) {
	seqs := []string{"\xff", "\xed\xa0\x80", "é", "€", "😀", "\xc3", "\xe2\x82", "\x80"}
	for n := 0; n <= 80; n++ {
		base := strings.Repeat("a", n)
		if got, want := validUTF8([]byte(base)), utf8.ValidString(base); got != want {
			t.Fatalf("%q: validUTF8 %v, utf8.Valid %v", base, got, want)
		}
		for p := 0; p <= n; p++ {
			for _, s := range seqs {
				b := []byte(base[:p] + s + base[p:])
				if got, want := validUTF8(b), utf8.Valid(b); got != want {
					t.Fatalf("%q: validUTF8 %v, utf8.Valid %v", b, got, want)
				}
			}
		}
	}
}

// TestLeadingSpaces checks the word-at-a-time indentation count against a
// byte loop, for every indentation and line length up to a few words.
func TestLeadingSpaces(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for sp := 0; sp <= n; sp++ {
			for _, rest := range []string{"a", "\t", "#", "\x00", "\xa0", "!"} {
				b := []byte(strings.Repeat(" ", sp) + strings.Repeat(rest, n-sp))
				want := 0
				for want < len(b) && b[want] == ' ' {
					want++
				}
				if got := leadingSpaces(b); got != want {
					t.Fatalf("%q: leadingSpaces %d, want %d", b, got, want)
				}
			}
		}
	}
}

// A field list is checked for repeated names in linear time: repeatedName
// calls name a bounded number of times per field, not once per pair.
func TestHostileRepeatedNameLinear(t *testing.T) {
	const n = 20_000
	names := make([]string, n)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	for _, tc := range []struct {
		name string
		last string // the last name, replacing f<n-1>
		want bool
	}{
		{"distinct", names[n-1], false},
		{"repeat at the end", "f0", true},
		{"alike after replacement", "f\xff", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := append([]string(nil), names...)
			list[n-1] = tc.last
			if tc.name == "alike after replacement" {
				list[n-2] = "f\xfe" // both written as "f\uFFFD"
			}
			calls := 0
			_, _, ok := repeatedName(n, func(i int) string { calls++; return list[i] })
			if ok != tc.want {
				t.Fatalf("repeatedName reported %v, want %v", ok, tc.want)
			}
			if calls > 4*n {
				t.Fatalf("%d calls of name for %d fields: not linear", calls, n)
			}
		})
	}
}

// BeginTable, a header written with WriteToken, and Marshal check a
// header of 200,000 fields in linear time (pairwise comparison takes
// minutes), and still find a repeated field at its end.
func TestHostileWideHeaderEncode(t *testing.T) {
	const n = 200_000
	fields := make([]string, n)
	tf := make([]Field, n)
	for i := range fields {
		fields[i] = "f" + strconv.Itoa(i)
		tf[i] = Field{Name: []byte(fields[i])}
	}
	begin := func(fs []string) error {
		return NewEncoder(io.Discard).BeginTable("t", 1, fs...)
	}
	header := func(fs []Field) error {
		e := NewEncoder(io.Discard)
		if err := e.WriteToken(ObjectStartToken()); err != nil {
			return err
		}
		if err := e.WriteToken(KeyToken([]byte("t"))); err != nil {
			return err
		}
		return e.WriteToken(ArrayStartToken(1, FormTabular, Comma, fs))
	}
	var err1, err2, err3, err4 error
	within(t, 10*time.Second, func() {
		err1 = begin(fields)
		err2 = header(tf)
		dupFields := append(fields[:n-1:n-1], "f7")
		err3 = begin(dupFields)
		dupTF := append(tf[:n-1:n-1], Field{Name: []byte("f7")})
		err4 = header(dupTF)
	})
	if err1 != nil || err2 != nil {
		t.Fatalf("distinct fields: BeginTable %v, WriteToken %v", err1, err2)
	}
	for _, err := range []error{err3, err4} {
		if err == nil || !strings.Contains(err.Error(), `"f7"`) {
			t.Fatalf("repeated field: got %v, want an error naming f7", err)
		}
	}

	// Two rows of 100,000 fields, the second an Object with its members
	// in reverse order: each field is found by an index, not a scan.
	const m = 100_000
	a, b := make(Object, m), make(Object, m)
	for i := 0; i < m; i++ {
		a[i] = Member{Key: fields[i], Value: i}
		b[m-1-i] = Member{Key: fields[i], Value: -i}
	}
	var out []byte
	var err error
	within(t, 10*time.Second, func() { out, err = Marshal(map[string]any{"t": []any{a, b}}) })
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		T []map[string]int `toon:"t"`
	}
	if err := Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("t[2]{f0,f1,")) || len(got.T) != 2 || got.T[1]["f99999"] != -99999 || got.T[0]["f5"] != 5 {
		t.Fatalf("wrong table: %.60q...", out)
	}
}

// hostileBig is a struct of 4 KiB whose rows are short in TOON.
type hostileBig struct {
	A   string
	Pad [4096]byte `toon:"-"`
}

type hostileBigs struct {
	X []hostileBig `toon:"x"`
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A declared length of a billion with one row of 1 MiB, decoded into a
// slice of 4 KiB structs: the slice must not be sized from the declared
// length nor from the bytes left alone (500,000 rows could fit, 2 GB of
// structs), but follow the rows that are there.
func TestHostileDeclaredSliceMemory(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	const limit = 16 << 20 // the input, a copy of its cell, and bounded slack
	for _, tc := range []struct{ name, doc string }{
		{"tabular", "x[1000000000]{A}:\n  " + long},
		{"list", "x[1000000000]:\n  - A: " + long},
	} {
		for _, strict := range []bool{true, false} {
			t.Run(tc.name+"/strict="+strconv.FormatBool(strict), func(t *testing.T) {
				check := func(how string, err error, v *hostileBigs, alloc uint64) {
					t.Helper()
					if strict {
						wantSyntax(t, err, ErrCount, 0)
					} else if err != nil || len(v.X) != 1 || len(v.X[0].A) != len(long) {
						t.Fatalf("%s: %d rows, %v", how, len(v.X), err)
					}
					if alloc > limit {
						t.Fatalf("%s allocated %d bytes for one row", how, alloc)
					}
				}
				var v hostileBigs
				var err error
				alloc := allocated(func() { err = Unmarshal([]byte(tc.doc), &v, WithStrict(strict)) })
				check("Unmarshal", err, &v, alloc)

				v.X = nil
				alloc = allocated(func() {
					err = NewDecoder(strings.NewReader(tc.doc), WithStrict(strict)).Decode(&v)
				})
				check("Decoder.Decode", err, &v, alloc)
			})
		}
	}

	// Many arrays, each declaring 9,999 elements and holding one, in
	// non-strict mode (which never checks a count): the capacity they
	// leave unused must stay within one budget for the whole document,
	// not a preallocation each (for 150,000 arrays, 2.8 GB into []any and
	// 12 GB into [][]int; for the short form's 30,000, a fifth of that).
	arrays := longtest.Size(t, 30000, 150000)
	siblings := "[" + strconv.Itoa(arrays) + "]:\n" + strings.Repeat("  - [9999]: 1\n", arrays)
	const siblingLimit = 48 << 20 // the document is 2 MB (0.4 MB in the short form)
	for _, tc := range []struct {
		name string
		dec  func() error
	}{
		{"Unmarshal any", func() error { var v any; return Unmarshal([]byte(siblings), &v, WithStrict(false)) }},
		{"Unmarshal [][]int", func() error { var v [][]int; return Unmarshal([]byte(siblings), &v, WithStrict(false)) }},
		{"Unmarshal []any", func() error { var v []any; return Unmarshal([]byte(siblings), &v, WithStrict(false)) }},
		{"Decoder any", func() error {
			var v any
			return NewDecoder(strings.NewReader(siblings), WithStrict(false)).Decode(&v)
		}},
		{"Decoder [][]int", func() error {
			var v [][]int
			return NewDecoder(strings.NewReader(siblings), WithStrict(false)).Decode(&v)
		}},
	} {
		var err error
		if alloc := allocated(func() { err = tc.dec() }); err != nil || alloc > siblingLimit {
			t.Errorf("%s: %v, %d bytes allocated for a document of %d", tc.name, err, alloc, len(siblings))
		}
	}

	// Rows holds one element at a time whatever the declared length.
	doc := "[1000000000]{A}:\n  " + long
	var n int
	alloc := allocated(func() {
		for r, err := range Rows[hostileBig](NewDecoder(strings.NewReader(doc), WithStrict(false))) {
			if err != nil || len(r.A) != len(long) {
				t.Fatalf("row %d: %v", n, err)
			}
			n++
		}
	})
	if n != 1 || alloc > limit {
		t.Fatalf("Rows: %d rows, %d bytes allocated", n, alloc)
	}
}

// The encoder writes no line that a decoder with the same maximum line
// length refuses: a line just under the limit is written and read back,
// one just over is an error wrapping ErrLineTooLong on both sides, from
// every writer.
func TestHostileLineLimitAgrees(t *testing.T) {
	const limit = 1000
	opt := WithMaxLineLength(limit)
	under, over := strings.Repeat("x", limit-3), strings.Repeat("x", limit-2) // "k: " + s
	cellOver := strings.Repeat("x", limit-1)                                  // rows are indented by 2
	cellUnder := cellOver[1:]

	out, err := Marshal(map[string]any{"k": under}, opt)
	if err != nil || len(out) != limit {
		t.Fatalf("Marshal under the limit: %d bytes, %v", len(out), err)
	}
	var v map[string]any
	if err := Unmarshal(out, &v, opt); err != nil || v["k"] != under {
		t.Fatalf("Unmarshal of a line at the limit: %v", err)
	}
	wantSyntax(t, Unmarshal([]byte("k: "+over), &v, opt), ErrLineTooLong, 1)

	wantLong := func(how string, err error, mention string) {
		t.Helper()
		if !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), mention) {
			t.Fatalf("%s over the limit: got %v, want ErrLineTooLong naming %s", how, err, mention)
		}
	}
	_, err = Marshal(map[string]any{"k": over}, opt)
	wantLong("Marshal", err, `k: xxx`)
	type kv struct {
		K string `toon:"k"`
	}
	_, err = Marshal(kv{over}, opt)
	wantLong("Marshal of a struct", err, `k: xxx`)
	_, err = Marshal([]kv{{"a"}, {cellOver}}, opt)
	wantLong("Marshal of a table", err, `  xxx`)
	if _, err := Marshal([]kv{{"a"}, {cellUnder}}, opt); err != nil {
		t.Fatalf("Marshal of a table row at the limit: %v", err)
	}

	var w bytes.Buffer
	err = NewEncoder(&w, opt).Encode(map[string]any{"a": 1, "k": over})
	wantLong("Encode", err, `k: xxx`)
	if w.Len() != 0 {
		t.Fatalf("Encode wrote %q before failing", w.Bytes())
	}

	e := NewEncoder(&w, opt)
	for _, tok := range []Token{ObjectStartToken(), KeyToken([]byte("k")), StringToken([]byte(over)), ObjectEndToken()} {
		if err = e.WriteToken(tok); err != nil {
			break
		}
	}
	if err == nil {
		err = e.Close()
	}
	wantLong("WriteToken", err, `k: xxx`)

	// Table rows: a row over the limit is refused, named, and not written;
	// the next row goes on.
	for _, n := range []int{2, -1} {
		w.Reset()
		e := NewEncoder(&w, opt)
		if err := e.BeginTable("t", n, "a"); err != nil {
			t.Fatal(err)
		}
		wantLong("WriteRow", e.WriteRow(String(cellOver)), "row 1 of table")
		for _, s := range []string{"a", cellUnder} {
			if err := e.WriteRow(String(s)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
		}
		if err := e.EndTable(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		var got struct {
			T []struct {
				A string `toon:"a"`
			} `toon:"t"`
		}
		if err := Unmarshal(w.Bytes(), &got, opt); err != nil || len(got.T) != 2 || got.T[1].A != cellUnder {
			t.Fatalf("n=%d: %v", n, err)
		}
	}

	// A line of many values, longer than the encoder's buffer, is checked
	// as a whole: Encode buffers it whole, WriteToken writes it out in
	// several buffers.
	const long = 200_000
	for _, tc := range []struct {
		vals int
		ok   bool
	}{{(long - 10) / 2, true}, {long / 2, false}} {
		a := make([]any, tc.vals)
		for i := range a {
			a[i] = 7
		}
		w.Reset()
		err := NewEncoder(&w, WithMaxLineLength(long)).Encode(map[string]any{"k": a})
		if tc.ok && err == nil {
			err = Unmarshal(w.Bytes(), &v, WithMaxLineLength(long))
		}
		if !tc.ok {
			wantLong("Encode of a long inline array", err, "k[")
		} else if err != nil {
			t.Fatalf("Encode of an inline array under the limit: %v", err)
		}

		w.Reset()
		e := NewEncoder(&w, WithMaxLineLength(long))
		toks := []Token{ObjectStartToken(), KeyToken([]byte("k")), ArrayStartToken(tc.vals, FormInline, Comma, nil)}
		for range tc.vals {
			toks = append(toks, NumberToken([]byte("7")))
		}
		toks = append(toks, ArrayEndToken(), ObjectEndToken())
		err = nil
		for _, tok := range toks {
			if err = e.WriteToken(tok); err != nil {
				break
			}
		}
		if err == nil {
			err = e.Close()
		}
		if tc.ok && err == nil {
			err = Unmarshal(w.Bytes(), &v, WithMaxLineLength(long))
		}
		if !tc.ok {
			wantLong("WriteToken of a long inline array", err, "k[")
			if w.Len() > long {
				t.Fatalf("WriteToken wrote %d bytes of a line over the limit of %d", w.Len(), long)
			}
		} else if err != nil {
			t.Fatalf("WriteToken of an inline array under the limit: %v", err)
		}
	}
}

// At the default limit, DefaultMaxLineLength, a line just under it is
// written and one just over is refused; the decoder reads a line of
// exactly that length (TestHostileLongLine refuses a longer one).
func TestHostileDefaultLineLimit(t *testing.T) {
	s := strings.Repeat("x", DefaultMaxLineLength-2)
	if err := NewEncoder(io.Discard).Encode(map[string]any{"k": s[1:]}); err != nil {
		t.Fatalf("a line of %d bytes: %v", DefaultMaxLineLength, err)
	}
	if err := NewEncoder(io.Discard).Encode(map[string]any{"k": s}); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a line of %d bytes: %v", DefaultMaxLineLength+1, err)
	}
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	g := &genReader{lines: 66, line: func(i int, b []byte) []byte {
		switch i {
		case 0:
			return append(b, "k: "...)
		case 64:
			return append(b, chunk[:len(chunk)-3]...)
		case 65:
			return append(b, "\nz: 1"...)
		}
		return append(b, chunk...)
	}}
	n, err := drain(NewDecoder(g))
	if err != nil || n != 6 {
		t.Fatalf("a line of %d bytes: %d tokens, %v", DefaultMaxLineLength, n, err)
	}
}

// hostileNode refers to itself in a cycle.
type hostileNode struct {
	Name string
	Next *hostileNode
}

// hostileHook's MarshalTOON returns the receiver itself.
type hostileHook struct{ N int }

func (h *hostileHook) MarshalTOON() (any, error) { return h, nil }

type hostileMap map[string]any

type hostileSlice []any

// hostileOuter holds a struct that points back to it.
type hostileOuter struct {
	In hostileInner `json:"in"`
}

type hostileInner struct {
	Name string        `json:"name"`
	Next *hostileOuter `json:"next"`
}

// byteCounter counts the bytes written to it.
type byteCounter struct{ n int }

func (c *byteCounter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// Values that contain themselves are an UnsupportedValueError, found once
// the nesting passes cycleDepth: quickly, in little memory, and with
// little output written.
func TestHostileCycles(t *testing.T) {
	shared := map[string]any{}
	shared["b"] = []any{shared, shared} // never returned: 2^depth paths
	obj := Object{{Key: "a", Value: nil}, {Key: "b", Value: 1}}
	obj[0].Value = obj
	arr := []any{1, nil}
	arr[1] = arr
	keyed := map[string]any{"x": 1}
	keyed["a"], keyed["b"] = keyed, keyed // objects of two members: keyed-table candidates
	node := &hostileNode{Name: "a"}
	node.Next = node
	ring := &hostileNode{Name: "r1", Next: &hostileNode{Name: "r2"}}
	ring.Next.Next = ring
	hm := hostileMap{"k": 1}
	hm["self"] = hm
	hs := hostileSlice{1, nil}
	hs[1] = hs
	hook := &hostileHook{N: 1}
	foreign := map[string]any{"n": node} // a typed value inside a generic one
	outer := &hostileOuter{}
	outer.In = hostileInner{Name: "in", Next: outer} // through a struct field written in place

	for _, tc := range []struct {
		name string
		v    any
	}{
		{"map through a shared slice", shared},
		{"Object", obj},
		{"[]any", arr},
		{"keyed candidates", keyed},
		{"*struct", node},
		{"ring of two", ring},
		{"typed map", hm},
		{"typed slice", hs},
		{"hook", hook},
		{"typed inside generic", foreign},
		{"through a struct field", outer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var w byteCounter
			alloc := allocated(func() {
				within(t, 10*time.Second, func() {
					_, err = Marshal(tc.v)
				})
			})
			var uv *UnsupportedValueError
			if !errors.As(err, &uv) || !strings.Contains(err.Error(), "cycle") {
				t.Fatalf("Marshal: got %v, want an UnsupportedValueError for a cycle", err)
			}
			if alloc > 64<<20 {
				t.Fatalf("Marshal allocated %d bytes before finding the cycle", alloc)
			}
			within(t, 10*time.Second, func() { err = NewEncoder(&w).Encode(tc.v) })
			if !errors.As(err, &uv) {
				t.Fatalf("Encode: got %v, want an UnsupportedValueError", err)
			}
			// Each of the cycleDepth levels writes a line indented by its
			// depth: a few MB at most (200 MB before the check).
			if w.n > 4<<20 {
				t.Fatalf("Encode wrote %d bytes before finding the cycle", w.n)
			}
		})
	}

	// Deep values that share containers without a cycle are written.
	deep := map[string]any{"leaf": 1}
	leaf := map[string]any{"x": 1}
	list := []any{1, 2}
	for i := 0; i < 1500; i++ {
		deep = map[string]any{"a": deep, "s": leaf, "t": leaf, "l": list, "m": list}
	}
	out, err := Marshal(deep)
	if err != nil {
		t.Fatalf("a deep value with shared containers: %v", err)
	}
	var back any
	if err := Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	chain := &hostileNode{Name: "end"}
	for i := 0; i < 1500; i++ {
		chain = &hostileNode{Name: "n", Next: chain}
	}
	if _, err := Marshal(chain); err != nil {
		t.Fatalf("a chain of 1500 nodes: %v", err)
	}
}

// A number whose exponent has millions of digits is written in time linear
// in its length (math/big took 2 s for 1e6 digits, 34 s for 4e6).
func TestHostileExponentDigits(t *testing.T) {
	const n = 8_000_000
	exp := strings.Repeat("9", n)
	for _, tc := range []struct{ in, want string }{
		{"1.5e" + exp, "1.5e+" + exp},
		{"-0.025e-" + exp, "-2.5e-1" + strings.Repeat("0", n-1) + "1"},
		{"120e" + exp, "1.2e+1" + strings.Repeat("0", n-1) + "1"},
	} {
		var got []byte
		var ok bool
		within(t, 5*time.Second, func() { got, ok = appendNumber(nil, []byte(tc.in)) })
		if !ok || string(got) != tc.want {
			t.Fatalf("appendNumber(%.20q...) = %.40q... (%d bytes), want %.40q... (%d bytes)", tc.in, got, len(got), tc.want, len(tc.want))
		}
	}
	var out []byte
	var err error
	within(t, 5*time.Second, func() { out, err = Marshal(map[string]any{"k": Number("1e" + exp)}) })
	if err != nil || string(out) != "k: 1e+"+exp {
		t.Fatalf("Marshal: %.20q..., %v", out, err)
	}
}

// appendDecimalSum against math/big, around carries out of the first digit
// and borrows that shorten the number.
func TestAppendDecimalSum(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	xs := []string{"1000000000000000", "9999999999999999", "10000000000000000000000", "99999999999999999999999"}
	for range 2000 {
		var x []byte
		x = append(x, byte('1'+rng.Intn(9)))
		for range 15 + rng.Intn(30) {
			x = append(x, byte('0'+rng.Intn(10)))
		}
		xs = append(xs, string(x))
	}
	for i, x := range xs {
		bx, _ := new(big.Int).SetString(x, 10)
		for _, d := range []int64{0, 1, -1, 9, -9, 10, -10, 999_999_999_999_999, -999_999_999_999_999, rng.Int63n(1e15) - 5e14, int64(i)} {
			want := new(big.Int).Add(bx, big.NewInt(d)).String()
			if got := appendDecimalSum([]byte("e+"), []byte(x), d); string(got) != "e+"+want {
				t.Fatalf("%s + %d: got %s, want %s", x, d, got[2:], want)
			}
		}
	}
}

// Numbers float64 cannot hold (out of range, §4): Decode into an interface
// keeps their exact text as Number, into a float field they are a
// mismatch, Token.Float and Number.Float64 report strconv.ErrRange, and
// Marshal writes them back exactly. Numbers it can hold are float64s.
func TestHostileNumberRange(t *testing.T) {
	for _, tc := range []struct{ text, canonical string }{
		{"1e309", "1e+309"},
		{"-1E+309", "-1e+309"},
		{"1e-400", "1e-400"},
		{"-2e-324", "-2e-324"},
		{"0.0000000001e-320", "1e-330"},
		{"1e99999999999999999999", "1e+99999999999999999999"},
	} {
		doc := "k: " + tc.text
		var v any
		if err := Unmarshal([]byte(doc), &v); err != nil || v.(map[string]any)["k"] != Number(tc.text) {
			t.Errorf("%s into any: %#v, %v; want Number(%q)", tc.text, v, err, tc.text)
		}
		if err := NewDecoder(strings.NewReader(doc)).Decode(&v); err != nil || v.(map[string]any)["k"] != Number(tc.text) {
			t.Errorf("%s into any through a reader: %#v, %v", tc.text, v, err)
		}
		var f64 struct {
			K float64 `toon:"k"`
		}
		var f32 struct {
			K float32 `toon:"k"`
		}
		var ute *UnmarshalTypeError
		if err := Unmarshal([]byte(doc), &f64); !errors.As(err, &ute) || !errors.Is(err, strconv.ErrRange) {
			t.Errorf("%s into float64: %v, want an UnmarshalTypeError wrapping ErrRange", tc.text, err)
		}
		if err := Unmarshal([]byte(doc), &f32); !errors.As(err, &ute) {
			t.Errorf("%s into float32: %v, want an UnmarshalTypeError", tc.text, err)
		}
		var num struct {
			K Number `toon:"k"`
		}
		if err := Unmarshal([]byte(doc), &num); err != nil || num.K != Number(tc.text) {
			t.Errorf("%s into Number: %q, %v", tc.text, num.K, err)
		}
		d := NewDecoder(strings.NewReader(doc))
		d.Token()
		d.Token()
		tok, _ := d.Token()
		if _, err := tok.Float(); !errors.Is(err, strconv.ErrRange) {
			t.Errorf("%s: Token.Float: %v, want ErrRange", tc.text, err)
		}
		if _, err := Number(tc.text).Float64(); !errors.Is(err, strconv.ErrRange) {
			t.Errorf("%s: Number.Float64: %v, want ErrRange", tc.text, err)
		}
		if out, err := Marshal(v); err != nil || string(out) != "k: "+tc.canonical {
			t.Errorf("%s: Marshal wrote %q, %v; want %q", tc.text, out, err, "k: "+tc.canonical)
		}
	}
	// In range: float64 values, the smallest subnormal included; zero
	// written with any exponent is zero.
	for text, want := range map[string]float64{"1e308": 1e308, "5e-324": 5e-324, "-1.7976931348623157e308": -1.7976931348623157e308, "0e-400": 0, "-0.000e99999": 0} {
		var v any
		if err := Unmarshal([]byte("k: "+text), &v); err != nil || v.(map[string]any)["k"] != want {
			t.Errorf("%s into any: %#v, %v; want %v", text, v, err, want)
		}
		var f64 struct {
			K float64 `toon:"k"`
		}
		if err := Unmarshal([]byte("k: "+text), &f64); err != nil || f64.K != want {
			t.Errorf("%s into float64: %v, %v", text, f64.K, err)
		}
	}
	// float32's range is narrower.
	for _, text := range []string{"1e39", "1e-50"} {
		var f32 struct {
			K float32 `toon:"k"`
		}
		var ute *UnmarshalTypeError
		if err := Unmarshal([]byte("k: "+text), &f32); !errors.As(err, &ute) {
			t.Errorf("%s into float32: %v, want an UnmarshalTypeError", text, err)
		}
	}
}
