package convert

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/toonstream/toon"
)

// randomTOONTable returns a tabular array of random rows under key "t" (or at
// the root), with field names and cells chosen to reach every branch of
// tableRows: names short and long, with escapes and ill-formed UTF-8,
// prefixes longer than two words, cells of every kind, strings with
// escapes or longer than maxFast, numbers longer than a word or than
// maxFast, and, with bad set, a row that is wrong somewhere.
func randomTOONTable(rng *rand.Rand, rows int, bad bool) []byte {
	names := []string{"id", "a", "name", "exactly8", "ninechars", `"a much longer field name"`, `"q\"uo"`, `"tab\there"`, `"\u00e9t\u00e9"`, `"x\\y"`, `"é"`}
	nf := 1 + rng.Intn(6)
	var fields []string
	seen := map[string]bool{}
	for len(fields) < nf {
		f := names[rng.Intn(len(names))]
		if !seen[f] {
			seen[f] = true
			fields = append(fields, f)
		}
	}
	delim := []string{",", "\t", "|"}[rng.Intn(3)]
	dh := ""
	if delim != "," {
		dh = delim
	}
	var b bytes.Buffer
	ind := "  "
	root := rng.Intn(4) == 0
	if root {
		fmt.Fprintf(&b, "[%d%s]{%s}:\n", rows, dh, strings.Join(fields, delim))
	} else {
		fmt.Fprintf(&b, "before: 1\nt[%d%s]{%s}:\n", rows, dh, strings.Join(fields, delim))
	}
	badRow := -1
	if bad {
		badRow = rng.Intn(rows)
	}
	for r := 0; r < rows; r++ {
		b.WriteString(ind)
		n := nf
		if r == badRow {
			n += rng.Intn(3) - 1 // a row too short or too long, or right
			if n == nf {
				b.WriteString("\"open")
			}
		}
		for c := 0; c < n; c++ {
			if c > 0 {
				b.WriteString(delim)
			}
			switch rng.Intn(12) {
			case 0:
				b.WriteString([]string{"true", "false", "null"}[rng.Intn(3)])
			case 1:
				b.WriteString([]string{"0", "-12", "3.25", "1e9", "123456789012", "-0.000001", strings.Repeat("9", 60)}[rng.Intn(7)])
			case 2:
				b.WriteString(`"esc\"aped\n"`)
			case 3:
				b.WriteString(strings.Repeat("long ", 12))
			case 4:
				b.WriteString(`""`)
			case 5:
				b.WriteString("\xff\xfe")
			default:
				s := randomString(rng, 3)
				s = bytes.Map(func(r rune) rune {
					switch r {
					case '\n', '\r', ',', '|', '\t', '"', '\\', ':', '#', '[', '-':
						return 'x'
					}
					return r
				}, s)
				s = bytes.TrimSpace(s)
				if len(s) == 0 {
					s = []byte("v")
				}
				b.Write(s)
			}
		}
		b.WriteString("\n")
	}
	if !root {
		b.WriteString("after: x\n")
	}
	return b.Bytes()
}

// TestToJSONTables compares the table loop (tableRows) with the jsontext
// path, for the output and for the error of a bad row, on random tables,
// small and larger than the output buffer.
func TestToJSONTables(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	converted := 0
	for i := 0; i < 600; i++ {
		rows := 1 + rng.Intn(8)
		if i%50 == 0 {
			rows = 3000 // several buffers
		}
		converted += sameAsJSONText(t, randomTOONTable(rng, rows, i%3 == 0))
	}
	if converted < 200 {
		t.Fatalf("only %d of the random tables converted", converted)
	}
}

// TestToJSONTablesMatchGeneral checks tableRows against the general loop
// of streamCompact itself on tables whose rows it takes whole.
func TestToJSONTablesMatchGeneral(t *testing.T) {
	for _, in := range [][]byte{
		fromJSON(t, benchRows(3000)),
		[]byte("t[4]{a,\"b:c\"}:\n  1,2\n  x,\"y\\tz\"\n  true,null\n  -0,1e5\nu: 1\n"),
		[]byte("[5]{a}:\n  1\n  2\n  3\n  4\n  5\n"),
		// Every row has a string longer than maxFast, which jw writes:
		// the buffer fills up at such a string in some row.
		[]byte("t[3000]{a,b}:\n" + strings.Repeat("  "+strings.Repeat("z", 60)+",1\n", 3000)),
		// Names that take the long way: longer than a word, a prefix
		// longer than two words, escapes.
		[]byte("t[4]{ninechars,\"tab\\there\",\"a much longer field name\",\"\\\"q\"}:\n  1,2,3,4\n  \"a\\nb\",x,-1.5e-7,\"\"\n" +
			"  " + strings.Repeat("y", 100) + "," + strings.Repeat("1", 70) + ",12345678901,null\n  é,true,false,0\n"),
	} {
		var got, want bytes.Buffer
		if err := ToJSON(&got, bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if err := jsontextToJSON(&want, bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("input %.100q: output differs\n got %.300q\nwant %.300q", in, got.Bytes(), want.Bytes())
		}
	}
}

// TestToJSONTableErrors checks that a table that goes wrong in the middle
// of a row gives the error, and the output before it, of the general
// path.
func TestToJSONTableErrors(t *testing.T) {
	head := "t[6]{id,ninechars,c}:\n  1,2,3\n  4,5,6\n  7,8,9\n"
	for _, tail := range []string{
		"  1,2\n", "  1,2,3,4\n", "  1,\"open,3\n", "  1,\"bad\\q\",3\n", "  1,2,3\n", "  1,2,3\n  x\n",
		"  1,2,3\n  1,2,3\n  1,2,3\n", "  1,2,3\n  1,2,3\nu: 1\n  v: 2\n", "  1,2,3\n\xff",
	} {
		in := []byte(head + tail)
		sameAsJSONText(t, in)
		var got, want bytes.Buffer
		gerr := ToJSON(&got, bytes.NewReader(in), withPipeline(false))
		werr := jsontextToJSON(&want, bytes.NewReader(in))
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%q: error %v, want %v", tail, gerr, werr)
		}
		// jsontext's output before an error is what it had flushed, the
		// general path's all it converted; compare with the general loop.
		general := generalToJSON(t, in)
		if !bytes.Equal(got.Bytes(), general) {
			t.Fatalf("%q: output before the error %q, general path %q", tail, got.Bytes(), general)
		}
	}
}

// generalToJSON converts in token by token with jsonWriter's methods,
// the general path, and returns the output up to the first error.
func generalToJSON(t *testing.T, in []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	jw := newJSONWriter(&out, 0)
	dec := toon.NewDecoder(bytes.NewReader(in))
	for {
		tk, err := dec.Token()
		if err != nil {
			break
		}
		if writeToken(jw, tk) != nil {
			t.Fatal("unexpected token")
		}
	}
	jw.flush()
	jw.release()
	return out.Bytes()
}
