package convert

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toonstream/toon"
)

// Tables are read row by row by lexer.matchRow in both passes; these tests
// hold that fast path to the token-by-token one: the same output for valid
// tables, the same rejections for invalid ones, wherever the rows fall in
// the read buffer.

var rowKeys = []string{"id", "name", "a", "", "email address of the user", "k\"q", "é", "a\\u0062", "x y", "really quite a long field name"}

var rowValues = []string{
	`0`, `7`, `-3`, `12345678901234567890123`, `13.8`, `-0.50`, `1e5`, `2.5E-3`, `-0`, `10.0e+2`,
	`true`, `false`, `null`, `""`, `"x"`, `"User 12"`, `"user12@example.com with a longer text"`,
	`"tab\tquote\"slash\\u\u00e9"`, `"\ud83d\ude00"`, `"é and ü"`, `"a,b|c"`, `"-"`, `"05"`, `" pad "`,
}

// randomTable writes a document holding a table of rows that mostly repeat
// the first row's names and order, with occasional breaks.
func randomTable(rng *rand.Rand) []byte {
	nk := 1 + rng.Intn(5)
	perm := rng.Perm(len(rowKeys))[:nk]
	keys := make([]string, nk)
	for i, p := range perm {
		keys[i] = rowKeys[p]
	}
	pretty := rng.Intn(4) == 0
	tkey := []string{"rows", "", "a b", "k\"q", "1", "a,b", "é"}[rng.Intn(7)] // the table's own key
	sp := func(b []byte) []byte {
		if pretty {
			return append(b, []string{" ", "\n  ", "\t", "\r\n"}[rng.Intn(4)]...)
		}
		return b
	}
	var b []byte
	wrap := rng.Intn(6)
	switch wrap {
	case 1:
		b = append(b, `{"`+tkey+`":`...)
	case 2:
		b = append(b, `{"x":1,"data":{"`+tkey+`":`...)
	case 3:
		b = append(b, `[[`...)
	case 4: // the first field of a list item: the table starts on the hyphen line
		b = append(b, `[{"`+tkey+`":`...)
	case 5:
		b = append(b, `[1,{"x":1,"`+tkey+`":`...)
	}
	b = append(b, '[')
	n := rng.Intn(40)
	for r := 0; r < n; r++ {
		if r > 0 {
			b = append(b, ',')
		}
		b = sp(b)
		ks := keys
		switch rng.Intn(30) {
		case 0: // another order
			ks = append([]string(nil), keys...)
			rng.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
		case 1: // a name missing
			ks = keys[:len(keys)-1]
		case 2: // an extra name
			ks = append(append([]string(nil), keys...), "extra")
		case 3: // a repeated name
			ks = append(append([]string(nil), keys...), keys[0])
		}
		b = append(b, '{')
		for i, k := range ks {
			if i > 0 {
				b = append(b, ',')
			}
			b = sp(b)
			b = append(b, '"')
			b = append(b, k...)
			b = append(b, '"')
			b = sp(b)
			b = append(b, ':')
			b = sp(b)
			switch rng.Intn(60) {
			case 0:
				b = append(b, `{"p":1}`...)
			case 1:
				b = append(b, `[1,2]`...)
			default:
				b = append(b, rowValues[rng.Intn(len(rowValues))]...)
			}
			b = sp(b)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	switch wrap {
	case 1:
		b = append(b, '}')
	case 2:
		b = append(b, "}}"...)
	case 3:
		b = append(b, `,[{"id":1}]]`...)
	case 4:
		b = append(b, `,"y":2},{"z":3}]`...)
	case 5:
		b = append(b, "}]"...)
	}
	return b
}

// checkAgainstReference converts in and compares with toon.Marshal of the
// ordered tree, or, if jsontext rejects in, checks that FromJSON rejects it
// at the same offset without writing anything.
func checkAgainstReference(t *testing.T, in []byte, opts ...Option) {
	t.Helper()
	var out bytes.Buffer
	err := FromJSON(&out, bytes.NewReader(in), opts...)
	_, rerr := ordered(in)
	if rerr != nil {
		var se *jsontext.SyntacticError
		var je *JSONError
		switch {
		case err == nil:
			t.Fatalf("%s\naccepted; jsontext: %v", in, rerr)
		case out.Len() > 0:
			t.Fatalf("%s\nwrote %q before failing", in, out.Bytes())
		case errors.As(rerr, &se) && (!errors.As(err, &je) || je.Offset != se.ByteOffset):
			t.Fatalf("%s\nerror %v; jsontext: %v", in, err, rerr)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s\nFromJSON: %v", in, err)
	}
	c := makeConfig(opts)
	if want := marshalOrdered(t, in, toon.WithDelimiter(c.delim), toon.WithIndent(c.indent)); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("%s\ngot:\n%s\nwant:\n%s", in, out.Bytes(), want)
	}
}

func TestFromJSONRows(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	mut := []byte("{}[],:\" \\0123456789-.eEtfn\x00\x1f\xff")
	for i := 0; i < 1500; i++ {
		doc := randomTable(rng)
		opts := []Option{withBufSize([]int{16, 64, 1000, lexBufSize}[rng.Intn(4)]), withPipeline(i%2 == 0),
			WithDelimiter([]toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}[rng.Intn(3)]), WithIndent(1 + rng.Intn(4))}
		if rng.Intn(3) == 0 {
			opts = append(opts, withMemBudget(8))
		}
		checkAgainstReference(t, doc, opts...)
		if len(doc) > 0 {
			checkAgainstReference(t, mutateByte(rng, doc, mut), opts...)
		}
	}
}

// TestMatchRowEdges checks rows that end exactly at the end of the read
// buffer, numbers and literals cut by it, and names longer than a word.
func TestMatchRowEdges(t *testing.T) {
	long := strings.Repeat("k", 40)
	for _, row := range []string{
		`{"a":1,"b":"xy"}`, `{"a":12345,"b":true}`, `{"a":-1.5e3,"b":null}`, `{"a":"` + strings.Repeat("é", 20) + `","b":false}`,
		`{"` + long + `":1,"b":2}`, `{"a":"q\"","b":"\u0041"}`, `{"b":0,"` + long + `":false}`, `{"` + long + `":null}`,
	} {
		doc := "[" + strings.TrimSuffix(strings.Repeat(row+",", 50), ",") + "]"
		for size := 16; size < 200; size++ {
			checkAgainstReference(t, []byte(doc), withBufSize(size), withPipeline(size%2 == 0))
		}
		bad := strings.Replace(doc, "1", "01", 1)
		checkAgainstReference(t, []byte(bad), withBufSize(64))
	}
	for _, doc := range []string{
		`[{"a":1},{"a":2},{"a":3]`, `[{"a":1},{"a":2}`, `[{"a":1},{"a":2},{"a":tru}]`, `[{"a":1},{"a":2},{"a":1x}]`,
		`[{"a":1},{"a":2},{"a":"` + "\x01" + `"}]`, `[{"a":1},{"a":2},{"a":2,"a":3}]`, `[{"a":1},{"a":-}]`,
		`[{"a":1},{"a":2.}]`, `[{"a":1},{"a":"\ud800"}]`, `[{"a":1},{"a":1}` + strconv.Itoa(5) + `]`,
	} {
		for _, size := range []int{16, 64, lexBufSize} {
			checkAgainstReference(t, []byte(doc), withBufSize(size))
		}
	}
}

// checkMatchRow reads row, an element after first in an array, with
// lexer.matchRow under first's template, and token by token with next: if
// matchRow takes the row, next must accept it with the same names and
// values; if not, matchRow must not have moved the lexer.
func checkMatchRow(t *testing.T, first, row string) {
	t.Helper()
	doc := "[" + first + "," + row + strings.Repeat(","+first, 4) + "]"
	// start returns a lexer after first, and first's names. Its buffer
	// is just large enough for the whole document (newLexer's own is 256
	// KB, for each of the test's 20,000 documents).
	start := func() (*lexer, []string) {
		l := newLexer(strings.NewReader(doc), make([]byte, 0, len(doc)+64))
		var names []string
		var scr []byte
		for depth := 0; ; {
			k, err := l.next()
			if err != nil || k == tkEOF {
				return nil, nil
			}
			switch k {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case tkKey:
				if depth == 2 {
					s, _ := l.unescaped(&scr)
					names = append(names, string(s))
				}
			}
			if depth == 1 && k == '}' {
				return l, names
			}
		}
	}
	l, names := start()
	if l == nil || len(names) == 0 {
		return
	}
	var tmpl rowTemplate
	for _, n := range names {
		if !tmpl.add([]byte(n)) {
			return
		}
	}
	tmpl.finish()
	cells := make([]mcell, len(names))
	i, state := l.i, l.state
	if !l.matchRow(&tmpl, cells) {
		if l.i != i || l.state != state {
			t.Fatalf("%s: matchRow failed but moved the lexer", doc)
		}
		return
	}
	at := l.i
	got := make([]string, len(cells))
	var scr []byte
	for j, c := range cells {
		switch c.kind {
		case tkString:
			s := l.buf[c.lo:c.hi]
			if c.esc {
				var err error
				if s, err = unquoteInto(&scr, l.buf[c.lo-1:c.hi+1]); err != nil {
					t.Fatalf("%s: cell %d: %v", doc, j, err)
				}
			}
			got[j] = `"` + string(s)
		case tkNumber:
			got[j] = "0" + string(l.buf[c.lo:c.hi])
		default:
			got[j] = string(c.kind)
		}
	}
	// The same row token by token.
	l2, _ := start()
	want := []string{}
	var scr2 []byte
	for depth := 0; ; {
		k, err := l2.next()
		if err != nil {
			t.Fatalf("%s: matchRow took a row that next rejects: %v", doc, err)
		}
		switch k {
		case '{', '[':
			depth++
			if depth > 1 {
				t.Fatalf("%s: matchRow took a row with a nested value", doc)
			}
			continue
		case '}':
			depth--
		case tkKey:
			s, _ := l2.unescaped(&scr2)
			if len(want) >= len(names) || string(s) != names[len(want)] {
				t.Fatalf("%s: matchRow took name %q", doc, s)
			}
			continue
		case tkString:
			s, _ := l2.unescaped(&scr2)
			want = append(want, `"`+string(s))
		case tkNumber:
			want = append(want, "0"+string(l2.text()))
		default:
			want = append(want, string(k))
		}
		if depth == 0 {
			break
		}
	}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") || l2.i != at || l2.state != l.state {
		t.Fatalf("%s: matchRow read %q up to %d, next %q up to %d", doc, got, at, want, l2.i)
	}
}

var matchRowSeeds = [][2]string{
	{`{"a":1,"b":"x"}`, `{"a":2,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":01,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1.,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":-,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1e,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"` + "\x01" + `"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"` + "\xff" + `"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"\x"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"\ud800"}`},
	{`{"a":1,"b":"x"}`, `{"a":true,"b":false}`},
	{`{"a":1,"b":"x"}`, `{"a":tru,"b":false}`},
	{`{"a":1,"b":"x"}`, `{"a":nul,"b":null}`},
	{`{"a":1,"b":"x"}`, `{"a":fals,"b":null}`},
	{`{"a":1,"b":"x"}`, `{"a":1 ,"b" : "y" }`},
	{`{"a":1,"b":"x"}`, `{"b":1,"a":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"y","c":2}`},
	{`{"a":1,"b":"x"}`, `{"a":{},"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"y"`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"é\u00e9\"x\\"}`},
	{`{"a":1,"b":"x"}`, `{"a":12345678901234567890123,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":-0.5E+7,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":0x1,"b":"y"}`},
	{`{"a":1,"b":"x"}`, `{"a":1,"b":"y"}}`},
	{`{"` + strings.Repeat("n", 30) + `":1}`, `{"` + strings.Repeat("n", 30) + `":2}`},
	{`{"` + strings.Repeat("n", 30) + `":1}`, `{"` + strings.Repeat("n", 29) + `m":2}`},
	{`{"a\"b":1}`, `{"a\"b":2}`},
	{`{"a\\b":1}`, `{"a\\b":2}`},
}

func TestMatchRow(t *testing.T) {
	for _, c := range matchRowSeeds {
		checkMatchRow(t, c[0], c[1])
	}
	// The pieces of a row, one byte changed, dropped or repeated.
	rng := rand.New(rand.NewSource(4))
	mut := []byte("{}[],:\" \\0123456789-+.eEtrufalsn\x00\x1f\x7f\xc3\xff")
	for i := 0; i < 20000; i++ {
		c := matchRowSeeds[rng.Intn(len(matchRowSeeds))]
		checkMatchRow(t, c[0], string(mutateByte(rng, []byte(c[1]), mut)))
	}
}

// FuzzMatchRow holds lexer.matchRow to lexer.next.
func FuzzMatchRow(f *testing.F) {
	for _, c := range matchRowSeeds {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, first, row string) {
		checkMatchRow(t, first, row)
	})
}

// TestFromJSONPipeline converts tables large enough for many batches,
// with rows that the template does not take in between (each one makes
// the reading side wait for the writing goroutine), with and without the
// pipeline, and with an output that fails.
func TestFromJSONPipeline(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":[`)
	for i := 0; i < 20000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		switch {
		case i%997 == 5:
			b.WriteString(`{"s":"x\ty","n":` + strconv.Itoa(i) + `, "t":true}`)
		case i%1999 == 7:
			b.WriteString(`{"n":` + strconv.Itoa(i) + `,"s":"reordered","t":null}`)
		default:
			b.WriteString(`{"s":"row ` + strconv.Itoa(i) + `","n":` + strconv.Itoa(i) + `.5,"t":false}`)
		}
	}
	b.WriteString(`],"b":[{"k":1},{"k":2}],"c":"end"}`)
	in := []byte(b.String())
	want := marshalOrdered(t, in)
	for _, on := range []bool{false, true} {
		got := fromJSON(t, in, withPipeline(on), withBufSize(4096))
		if !bytes.Equal(got, want) {
			t.Fatalf("pipeline %v: output differs from Marshal", on)
		}
		err := FromJSON(&failAfter{n: 100000}, bytes.NewReader(in), withPipeline(on))
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("pipeline %v: failing writer: %v", on, err)
		}
	}
}

// failAfter accepts n bytes, then fails.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// planOf runs the first pass over in, reading it as FromJSON reads a file,
// with the helper of ahead.go allowed or not, and returns the plan, the
// number of rows the helper counted, and the error.
func planOf(in []byte, helper bool) (plan string, joined int, err error) {
	c := makeConfig([]Option{withAheadMin(512), withPipeline(helper), withBufSize(4096)})
	p := &planner{c: &c, slots: newSpill("", 1<<30), tables: newSpill("", 1<<30)}
	r := bytes.NewReader(in)
	p.ra, p.size = r, int64(len(in))
	p.seek = func(off int64) error { _, err := r.Seek(off, io.SeekStart); return err }
	err = p.run(r)
	return string(p.slots.buf) + "|" + string(p.tables.buf), p.joined, err
}

// aheadDoc is a big table whose rows have the given extra text in the
// string of row bad (or none if bad < 0), followed by more document.
func aheadDoc(rows, bad int, badText, tail string) []byte {
	var b strings.Builder
	b.WriteString(`{"t":[`)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		s := "name " + strconv.Itoa(i)
		if i == bad {
			s = badText
		}
		b.WriteString(`{"id":` + strconv.Itoa(i) + `,"s":"` + s + `","ok":true}`)
	}
	b.WriteString(`]` + tail + `}`)
	return []byte(b.String())
}

// TestAhead checks that the first pass's helper changes nothing but the
// speed: the same plan and the same errors as without it, whether its
// guess of a row boundary is right or falls inside a string, and whether
// the table goes on past the helper's stop.
func TestAhead(t *testing.T) {
	fake := `x\",{\"id\":1,\"s\":\"y` // escaped look-alike of a row start
	docs := map[string][]byte{
		"plain":           aheadDoc(3000, -1, "", ""),
		"guess in string": aheadDoc(3000, 1500, strings.Repeat(fake, 3000), ""),
		"odd row late":    aheadDoc(3000, 2500, `\u0041`, `,"u":[{"a":1},{"a":2}]`),
		"short table":     aheadDoc(20, -1, "", `,"pad":"`+strings.Repeat("p", 5000)+`"`),
		"next table":      aheadDoc(20, -1, "", `,"u":[`+strings.Repeat(`{"id":7,"s":"","ok":true},`, 3000)+`{"id":8,"s":"","ok":true}]`),
		"nested table":    bytes.Replace(aheadDoc(3000, -1, "", ""), []byte(`"s":"name 1400"`), []byte(`"s":[`+strings.Repeat(`{"id":7,"s":"","ok":true},`, 2000)+`{"id":8}]`), 1),
	}
	for _, i := range []int{1600, 2990} {
		d := aheadDoc(3000, -1, "", "")
		at := bytes.Index(d, []byte(`{"id":`+strconv.Itoa(i)+`,`))
		docs["bad row "+strconv.Itoa(i)] = append(append(append([]byte(nil), d[:at+6]...), "01"...), d[at+6+len(strconv.Itoa(i)):]...)
		docs["dup row "+strconv.Itoa(i)] = bytes.Replace(d, []byte(`{"id":`+strconv.Itoa(i)+`,"s"`), []byte(`{"id":1,"id":2,"s"`), 1)
	}
	for name, d := range docs {
		want, _, werr := planOf(d, false)
		got, joined, gerr := planOf(d, true)
		t.Logf("%s: the helper counted %d rows; error %v", name, joined, gerr)
		if name == "plain" && joined == 0 {
			t.Errorf("%s: the helper's rows were not taken", name)
		}
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s: error %v, without the helper %v", name, gerr, werr)
		}
		if werr == nil && got != want {
			t.Fatalf("%s: the plan differs with the helper (%d rows joined)", name, joined)
		}
		checkAgainstReference(t, d, withAheadMin(512), withBufSize(4096), withPipeline(true))
	}
}

// TestNumberValue checks that numberValue's values are written as
// toon.NumberValue writes the number's text, on random integers and
// decimals in and around the ranges it converts.
func TestNumberValue(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	row := func(v toon.Value) string {
		var out bytes.Buffer
		enc := toon.NewEncoder(&out)
		if err := enc.BeginTable("", 1, "n"); err != nil {
			t.Fatal(err)
		}
		if err := enc.WriteRow(v); err != nil {
			t.Fatal(err)
		}
		if err := enc.EndTable(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	digits := func(n int, lead bool) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.Intn(10))
			if i == 0 && lead && n > 1 && b[i] == '0' {
				b[i] = '1'
			}
			if rng.Intn(5) == 0 {
				b[i] = "09"[rng.Intn(2)] // runs of nines and zeros round badly
			}
		}
		if lead && n > 1 && b[0] == '0' {
			b[0] = '9'
		}
		return string(b)
	}
	cases := []string{"0", "-0", "0.0", "-0.0", "0.000001", "0.0000001", "9999999.999999", "10000000.5",
		"123456789012345678", "-123456789012345678", "1234567890123456789", "0.1", "0.30", "1.000000", "-5.5"}
	for i := 0; i < 20000; i++ {
		s := digits(1+rng.Intn(20), true)
		if rng.Intn(3) > 0 {
			s += "." + digits(1+rng.Intn(9), false)
		}
		if rng.Intn(2) == 0 {
			s = "-" + s
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		if _, ok := validNumber([]byte(s)); !ok {
			continue
		}
		if got, want := row(numberValue([]byte(s))), row(toon.NumberValue(toon.Number(s))); got != want {
			t.Fatalf("%s: written %q, as text %q", s, got, want)
		}
	}
}
