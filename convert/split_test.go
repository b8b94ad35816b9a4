package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/tokencount"
)

// ---- Generated tables ----

// cellKinds are the kinds of column the generated tables have.
var cellKinds = []string{"int", "float", "lit", "word", "quoted", "multibyte", "long", "mixed"}

// genCell returns a cell value of the given kind.
func genCell(rng *rand.Rand, kind string) any {
	switch kind {
	case "int":
		return toon.Number(strconv.FormatInt(rng.Int64N(2_000_000)-1_000_000, 10))
	case "float":
		return toon.Number(strconv.FormatFloat(float64(rng.IntN(1_000_000))/1000-500, 'f', -1, 64))
	case "lit":
		return []any{true, false, nil}[rng.IntN(3)]
	case "word":
		return genWords(rng, 1+rng.IntN(3))
	case "quoted":
		// Strings that must be quoted in a cell, whatever the delimiter.
		return []string{"", " lead", "trail ", "a,b", "a|b", "a\tb", "x: y", `say "hi"`, `back\slash`,
			"-dash", "#hash", "true", "null", "42", "-1.5", "05", "[x]", "{y}", "line\nbreak", "cr\rret",
			"\x01ctl"}[rng.IntN(21)]
	case "multibyte":
		return []string{"café", "naïve façade", "日本語のテキスト", "中文，逗号", "emoji 🎉🚀", "Ελληνικά",
			"עברית", "e\u0301 combining", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "Ünïcödé|pipe"}[rng.IntN(10)]
	case "long":
		return genWords(rng, 40+rng.IntN(400))
	}
	return genCell(rng, cellKinds[rng.IntN(len(cellKinds)-2)]) // mixed: no long cells
}

var words = []string{"alpha", "beta", "gamma", "delta", "lorem", "ipsum", "dolor", "sit", "amet",
	"über", "straße", "東京", "naïve", "x1", "2024-01-02", "user@example.com", "a/b", "http://x.y/z?q=1"}

func genWords(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.String()
}

// genRows returns n rows of width columns whose kinds are drawn from
// kinds; nested adds a nested field group column (§9.3).
func genRows(rng *rand.Rand, n, width int, kinds []string, nested bool) []any {
	colKind := make([]string, width)
	for i := range colKind {
		colKind[i] = kinds[rng.IntN(len(kinds))]
	}
	rows := make([]any, n)
	for r := range rows {
		row := toon.Object{}
		for c := 0; c < width; c++ {
			row = append(row, toon.Member{Key: "f" + strconv.Itoa(c), Value: genCell(rng, colKind[c])})
			if nested && c == width/2 {
				row = append(row, toon.Member{Key: "who", Value: toon.Object{
					{Key: "name", Value: genCell(rng, "word")}, {Key: "city", Value: genCell(rng, "multibyte")}}})
			}
		}
		rows[r] = row
	}
	return rows
}

// placements put a table into a document: at the root, under a path of
// objects with fields before and after it, and under a key with a dot.
var placements = []struct {
	name, path string
	doc        func(rows []any) any
}{
	{"root", "", func(rows []any) any { return rows }},
	{"nested", "data.users", func(rows []any) any {
		return toon.Object{
			{Key: "meta", Value: toon.Object{{Key: "source", Value: "gen"}, {Key: "note", Value: "a, b: c"}}},
			{Key: "data", Value: toon.Object{{Key: "page", Value: toon.Number("1")}, {Key: "users", Value: rows}, {Key: "more", Value: true}}},
			{Key: "after", Value: "tail"},
		}
	}},
	{"dotted", "data.users", func(rows []any) any {
		return toon.Object{{Key: "data", Value: "not this one"}, {Key: "data.users", Value: rows}}
	}},
}

// ---- Checking chunks ----

// orderedTOON decodes a TOON document into Objects, []any, strings,
// toon.Numbers (in canonical form), booleans and nil, keeping key order.
func orderedTOON(text []byte, opts ...toon.Option) (any, error) {
	dec := toon.NewDecoder(bytes.NewReader(text), opts...)
	v, err := orderedTOONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("after the root value: %v", err)
	}
	return v, nil
}

func orderedTOONValue(dec *toon.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case toon.KindObjectStart:
		obj := toon.Object{}
		for {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			if k.Kind() == toon.KindObjectEnd {
				return obj, nil
			}
			key := k.String()
			v, err := orderedTOONValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, toon.Member{Key: key, Value: v})
		}
	case toon.KindArrayStart:
		arr := []any{}
		for {
			v, err := orderedTOONValue(dec)
			if err == errArrayEnd {
				return arr, nil
			}
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
	case toon.KindArrayEnd:
		return nil, errArrayEnd
	case toon.KindString:
		return tok.String(), nil
	case toon.KindNumber:
		// In canonical form (§2), as the chunks write numbers.
		b, err := toon.Marshal(toon.Number(tok.String()))
		return toon.Number(b), err
	case toon.KindBool:
		return tok.Bool(), nil
	case toon.KindNull:
		return nil, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok.Kind())
}

var errArrayEnd = errors.New("array end")

// tableAt returns the value at a path in a decoded document: a key equal
// to the rest of the path, or a key before a dot leading to an object.
func tableAt(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	obj, ok := v.(toon.Object)
	if !ok {
		return nil, false
	}
	for _, m := range obj {
		if m.Key == path {
			return m.Value, true
		}
		if strings.HasPrefix(path, m.Key+".") {
			if x, ok := tableAt(m.Value, path[len(m.Key)+1:]); ok {
				return x, true
			}
		}
	}
	return nil, false
}

// rowsOf returns the rows of a table value: an array's elements, or a keyed
// object's entries as Members.
func rowsOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case toon.Object:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = m
		}
		return out
	}
	return nil
}

// withRows returns doc with the table at path replaced by rows (in the
// table's kind: an array, or a keyed object).
func withRows(doc any, path string, rows []any) any {
	if path == "" {
		return rebuild(doc, rows)
	}
	obj := doc.(toon.Object)
	out := make(toon.Object, len(obj))
	copy(out, obj)
	for i, m := range out {
		if m.Key == path {
			out[i].Value = rebuild(m.Value, rows)
			return out
		}
		if strings.HasPrefix(path, m.Key+".") {
			if _, ok := tableAt(m.Value, path[len(m.Key)+1:]); ok {
				out[i].Value = withRows(m.Value, path[len(m.Key)+1:], rows)
				return out
			}
		}
	}
	panic("no table at " + path)
}

func rebuild(table any, rows []any) any {
	if _, ok := table.(toon.Object); ok {
		obj := toon.Object{}
		for _, r := range rows {
			obj = append(obj, r.(toon.Member))
		}
		return obj
	}
	return rows
}

// splitResult is what checkSplit saw.
type splitResult struct {
	chunks   []Chunk // Text copied
	oversize int
}

// checkSplit splits in with opts and checks every chunk against the
// limits, counting tokens with tiktoken-go; that each chunk decodes in
// strict mode to the path (and with opts.Context the fields before the
// table) and the table, that it is written as the encoder writes its
// tokens, and that the chunks' rows are the table's rows. It also checks
// that no chunk could have taken the next chunk's first row. With
// marshal set (for tabular tables of a document written by Marshal) each
// chunk must be what Marshal writes for its value. It returns the chunks.
func checkSplit(t *testing.T, in []byte, opts SplitOptions, delim toon.Delimiter, marshal bool) splitResult {
	t.Helper()
	var res splitResult
	err := Split(bytes.NewReader(in), opts, func(c Chunk) error {
		c.Text = bytes.Clone(c.Text)
		res.chunks = append(res.chunks, c)
		return nil
	})
	if err != nil {
		t.Fatalf("Split: %v", err)
	}
	orig, err := orderedTOON(in, toon.WithIndent(max(opts.Indent, 2)))
	if err != nil {
		t.Fatal(err)
	}
	table, ok := tableAt(orig, opts.Table)
	if !ok {
		t.Fatalf("no table %q in the input", opts.Table)
	}
	// Chunks are counted alone with tokencount, which gives tiktoken-go's
	// counts (see its tests) in linear time, and a few of them with
	// tiktoken-go itself.
	var codec tokenizer.Codec
	var count func([]byte) int
	if opts.MaxTokens > 0 {
		name := opts.Tokenizer
		if name == "" {
			name = "o200k_base"
		}
		if codec, err = tokenizer.Get(tokenizer.Encoding(name)); err != nil {
			t.Fatal(err)
		}
		enc, err := tokencount.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		count = enc.Count
	}
	// The value of a chunk with rows: the input with the table's rows
	// replaced, less the fields that a chunk does not carry.
	expect := func(rows []any) any { return chunkValue(withRows(orig, opts.Table, rows), opts) }
	var all []any
	decoded := make([]any, len(res.chunks))
	for i, c := range res.chunks {
		where := fmt.Sprintf("chunk %d (rows %d-%d)", i, c.FirstRow, c.FirstRow+c.Rows-1)
		if c.Index != i || c.FirstRow != len(all) || c.Rows < 1 {
			t.Fatalf("%s: index %d, first row %d, %d rows; want index %d, first row %d", where, c.Index, c.FirstRow, c.Rows, i, len(all))
		}
		if count != nil {
			n := count(c.Text)
			if i < 2 || i == len(res.chunks)-1 {
				ref, err := codec.Count(string(c.Text))
				if err != nil {
					t.Fatal(err)
				}
				if ref != n {
					t.Fatalf("%s: tokencount counts %d, tiktoken-go %d", where, n, ref)
				}
			}
			if n != c.Tokens {
				t.Fatalf("%s: Tokens %d, counted %d", where, c.Tokens, n)
			}
			if n > opts.MaxTokens && !c.Oversize {
				t.Fatalf("%s: %d tokens, limit %d:\n%s", where, n, opts.MaxTokens, c.Text)
			}
		}
		if opts.MaxBytes > 0 && len(c.Text) > opts.MaxBytes && !c.Oversize {
			t.Fatalf("%s: %d bytes, limit %d", where, len(c.Text), opts.MaxBytes)
		}
		if opts.MaxRows > 0 && c.Rows > opts.MaxRows {
			t.Fatalf("%s: %d rows, limit %d", where, c.Rows, opts.MaxRows)
		}
		if c.Oversize {
			res.oversize++
			if c.Rows != 1 {
				t.Fatalf("%s: oversize with %d rows", where, c.Rows)
			}
		}
		v, err := orderedTOON(c.Text, toon.WithIndent(max(opts.Indent, 2)))
		if err != nil {
			t.Fatalf("%s does not decode (strict): %v\n%s", where, err, c.Text)
		}
		decoded[i] = v
		tv, _ := tableAt(v, opts.Table)
		rows := rowsOf(tv)
		if len(rows) != c.Rows {
			t.Fatalf("%s: decodes to %d rows", where, len(rows))
		}
		if want := expect(rows); !reflect.DeepEqual(v, want) {
			t.Fatalf("%s: decodes to\n%#v\nwant\n%#v", where, v, want)
		}
		// The chunk is written as the encoder writes its tokens, and, for a
		// tabular table, as Marshal writes its value.
		toks, err := tokensOf(c.Text, opts.Indent)
		if err != nil {
			t.Fatal(err)
		}
		if re := writeTokens(t, toks, opts.Indent, delim); !bytes.Equal(re, c.Text) {
			t.Fatalf("%s: its tokens are written\n%s\nchunk is\n%s", where, re, c.Text)
		}
		if marshal {
			if re, err := toon.Marshal(v, toon.WithDelimiter(delim), toon.WithIndent(max(opts.Indent, 2))); err != nil || !bytes.Equal(re, c.Text) {
				t.Fatalf("%s: Marshal of its value gives\n%s\n(%v), chunk is\n%s", where, re, err, c.Text)
			}
		}
		all = append(all, rows...)
	}
	if want := rowsOf(table); !reflect.DeepEqual(all, want) && !(len(all) == 0 && len(want) == 0) {
		t.Fatalf("the chunks' %d rows differ from the table's %d", len(all), len(want))
	}
	// No chunk could have taken one more row.
	for i := 0; i+1 < len(res.chunks); i++ {
		c := res.chunks[i]
		if c.Oversize || res.chunks[i+1].Oversize {
			continue
		}
		text := spliceRow(t, c.Text, res.chunks[i+1].Text, opts.Table, opts.Indent, delim)
		over := opts.MaxRows > 0 && c.Rows+1 > opts.MaxRows || opts.MaxBytes > 0 && len(text) > opts.MaxBytes
		if !over && count != nil {
			over = count(text) > opts.MaxTokens
		}
		if !over {
			t.Fatalf("chunk %d (%d rows, %d tokens) could have taken the next row:\n%s", i, c.Rows, c.Tokens, text)
		}
	}
	return res
}

// tokensOf returns the tokens of a document, cloned.
func tokensOf(text []byte, indent int) ([]toon.Token, error) {
	dec := toon.NewDecoder(bytes.NewReader(text), toon.WithIndent(max(indent, 2)))
	var toks []toon.Token
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return toks, nil
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok.Clone())
	}
}

// writeTokens writes tokens with an Encoder whose document delimiter is
// delim.
func writeTokens(t *testing.T, toks []toon.Token, indent int, delim toon.Delimiter) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := toon.NewEncoder(&b, toon.WithIndent(max(indent, 2)), toon.WithDelimiter(delim))
	for _, tok := range toks {
		if err := enc.WriteToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// tableSpan returns the indexes of the start and end tokens of the table
// at path in a document's tokens: the first value whose keys, from the
// root, joined by dots, are path.
func tableSpan(toks []toon.Token, path string) (start, end int) {
	start = -1
	var keys []string // the key of each open container ("" for the root and array elements)
	key := ""
	for i, tk := range toks {
		switch tk.Kind() {
		case toon.KindKey:
			key = tk.String()
			continue
		case toon.KindObjectStart, toon.KindArrayStart:
			full := strings.Join(append(append([]string{}, keys...), key), ".")
			if path == "" && i == 0 || path != "" && strings.TrimPrefix(full, ".") == path {
				start = i
			}
			keys = append(keys, key)
		case toon.KindObjectEnd, toon.KindArrayEnd:
			keys = keys[:len(keys)-1]
		}
		key = ""
		if start >= 0 {
			break
		}
	}
	depth := 0
	for end = start; ; end++ {
		switch toks[end].Kind() {
		case toon.KindObjectStart, toon.KindArrayStart:
			depth++
		case toon.KindObjectEnd, toon.KindArrayEnd:
			depth--
		}
		if depth == 0 {
			return start, end
		}
	}
}

// spliceRow returns the document of chunk a with the first row of chunk b
// added to its table, written by an Encoder from tokens: what a chunk of
// those rows would be.
func spliceRow(t *testing.T, a, b []byte, path string, indent int, delim toon.Delimiter) []byte {
	t.Helper()
	ta, err := tokensOf(a, indent)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tokensOf(b, indent)
	if err != nil {
		t.Fatal(err)
	}
	sa, ea := tableSpan(ta, path)
	sb, _ := tableSpan(tb, path)
	st := ta[sa]
	var start toon.Token
	if st.Kind() == toon.KindObjectStart {
		start = toon.KeyedStartToken(st.Len()+1, st.Delim(), st.Fields())
	} else {
		start = toon.ArrayStartToken(st.Len()+1, st.Form(), st.Delim(), st.Fields())
	}
	// The first row of b: a value, or an entry key and its object.
	i, depth := sb+1, 0
	for {
		switch tb[i].Kind() {
		case toon.KindObjectStart, toon.KindArrayStart:
			depth++
		case toon.KindObjectEnd, toon.KindArrayEnd:
			depth--
		case toon.KindKey:
			if depth == 0 {
				i++
				continue
			}
		}
		i++
		if depth == 0 {
			break
		}
	}
	toks := append(append(append(append(append([]toon.Token{}, ta[:sa]...), start), ta[sa+1:ea]...), tb[sb+1:i]...), ta[ea:]...)
	return writeTokens(t, toks, indent, delim)
}

// chunkValue returns the value a chunk of doc must have: the path to the
// table, with opts.Context the fields before it as well, and the table.
func chunkValue(doc any, opts SplitOptions) any {
	if opts.Table == "" {
		return doc
	}
	return trimTo(doc, opts.Table, opts.Context)
}

func trimTo(v any, path string, context bool) any {
	obj := v.(toon.Object)
	out := toon.Object{}
	for _, m := range obj {
		if m.Key == path {
			return append(out, m)
		}
		if strings.HasPrefix(path, m.Key+".") {
			if _, ok := tableAt(m.Value, path[len(m.Key)+1:]); ok {
				return append(out, toon.Member{Key: m.Key, Value: trimTo(m.Value, path[len(m.Key)+1:], context)})
			}
		}
		if context {
			out = append(out, m)
		}
	}
	panic("no table at " + path)
}

// ---- Tests ----

// TestSplitTables splits generated tables of many widths, cell kinds and
// delimiters, at the root and under paths, with limits of tokens, bytes
// and rows alone and together.
func TestSplitTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	limits := []SplitOptions{
		{MaxTokens: 40},
		{MaxTokens: 150},
		{MaxTokens: 1000},
		{MaxTokens: 5000},
		{MaxTokens: 300, Tokenizer: "cl100k_base"},
		{MaxBytes: 300},
		{MaxBytes: 4000},
		{MaxRows: 1},
		{MaxRows: 7},
		{MaxTokens: 600, MaxBytes: 1500, MaxRows: 20},
		{MaxTokens: 2000, MaxRows: 9},
	}
	delims := []toon.Delimiter{toon.Comma, toon.Tab, toon.Pipe}
	cases := 0
	// Each seed has its own table, delimiter and placement (every pair of
	// delimiter and placement comes twice), with every set of limits.
	for seed, n := 0, longtest.Size(t, 9, 18); seed < n; seed++ {
		width := 1 + rng.IntN(9)
		kinds := cellKinds
		switch seed % 4 {
		case 0:
			kinds = []string{"int", "float", "lit"}
		case 1:
			kinds = []string{"quoted", "multibyte", "word"}
		case 2:
			kinds = []string{"long", "int"}
		}
		nested := seed%5 == 2
		rows := genRows(rng, 20+rng.IntN(100), width, kinds, nested)
		d, p := delims[seed%3], placements[seed/3%3]
		in, err := toon.Marshal(p.doc(rows), toon.WithDelimiter(d))
		if err != nil {
			t.Fatal(err)
		}
		for _, lim := range limits {
			opts := lim
			opts.Table = p.path
			opts.AllowOversize = true // long cells may not fit 40 tokens
			opts.Context = seed%2 == 1
			name := fmt.Sprintf("seed%d/%q/%s/%+v", seed, d, p.name, lim)
			t.Run(name, func(t *testing.T) {
				res := checkSplit(t, in, opts, d, true)
				if opts.MaxTokens >= 1000 && res.oversize > 0 && !slices.Contains(kinds, "long") {
					t.Fatalf("%d oversize chunks", res.oversize)
				}
			})
			cases++
		}
	}
	t.Logf("%d cases", cases)
}

// TestSplitForms splits the other forms a table may have: an expanded
// list, an inline primitive array and a keyed table, and a table whose
// rows are list items with a table of their own.
func TestSplitForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var list, inline []any
	for i := 0; i < 120; i++ {
		switch i % 5 {
		case 0:
			list = append(list, genCell(rng, "word"))
		case 1:
			list = append(list, toon.Object{{Key: "id", Value: toon.Number(strconv.Itoa(i))}, {Key: "tags", Value: []any{"a", "b,c"}}})
		case 2:
			list = append(list, []any{toon.Number("1"), genCell(rng, "quoted")})
		case 3:
			list = append(list, toon.Object{{Key: "rows", Value: genRows(rng, 3, 2, []string{"int", "word"}, false)}, {Key: "n", Value: toon.Number("3")}})
		default:
			list = append(list, toon.Object{{Key: "deep", Value: toon.Object{{Key: "x", Value: genCell(rng, "multibyte")}}}})
		}
		inline = append(inline, genCell(rng, []string{"int", "word", "quoted", "multibyte", "lit"}[i%5]))
	}
	keyed := toon.Object{}
	for i := 0; i < 90; i++ {
		keyed = append(keyed, toon.Member{Key: "k" + strconv.Itoa(i) + []string{"", " sp", "-x", "ü"}[i%4],
			Value: toon.Object{{Key: "a", Value: genCell(rng, "int")}, {Key: "b", Value: genCell(rng, "quoted")}}})
	}
	docs := []struct {
		name string
		doc  any
		path string
	}{
		{"list", list, ""},
		{"inline", inline, ""},
		{"keyed", keyed, ""},
		{"nested-list", toon.Object{{Key: "a", Value: toon.Object{{Key: "items", Value: list}}}}, "a.items"},
		{"nested-inline", toon.Object{{Key: "a", Value: toon.Object{{Key: "vals", Value: inline}}}}, "a.vals"},
		{"nested-keyed", toon.Object{{Key: "pre", Value: toon.Number("1")}, {Key: "byKey", Value: keyed}}, "byKey"},
	}
	for _, d := range docs {
		for _, delim := range []toon.Delimiter{toon.Comma, toon.Pipe, toon.Tab} {
			in, err := toon.Marshal(d.doc, toon.WithDelimiter(delim))
			if err != nil {
				t.Fatal(err)
			}
			for _, lim := range []SplitOptions{{MaxTokens: 30}, {MaxTokens: 200}, {MaxBytes: 250}, {MaxRows: 4}, {MaxTokens: 120, MaxBytes: 400, MaxRows: 11}} {
				opts := lim
				opts.Table, opts.Context = d.path, true
				t.Run(fmt.Sprintf("%s/%q/%+v", d.name, delim, lim), func(t *testing.T) {
					opts.AllowOversize = true
					checkSplit(t, in, opts, delim, false)
				})
			}
		}
	}
}

// TestSplitLayout splits inputs that are not written as the encoder
// writes: comments, CRLF line ends, spaces around cells, quotes that are
// not needed, escapes, non-canonical numbers, an indentation of 4. The
// chunks are canonical and hold the same values.
func TestSplitLayout(t *testing.T) {
	in := "# a comment\r\n" +
		"meta:\r\n" +
		"    v: 1.50\r\n" +
		"users[4|]{id|name|note}:\r\n" +
		"    1 | \"Alice\" | plain\r\n" +
		"  # between rows\r\n" +
		"    2|Bob|\"\\u00e9t\\u00e9\"\r\n" +
		"    1e3|\"Carol|Jr\"|\"x, y\"\r\n" +
		"    -0|Dan|\"\"\r\n" +
		"after: 1"
	var texts []string
	err := Split(strings.NewReader(in), SplitOptions{MaxRows: 3, Table: "users", Context: true, Indent: 4}, func(c Chunk) error {
		texts = append(texts, string(c.Text))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"meta:\n    v: 1.5\nusers[3|]{id|name|note}:\n    1|Alice|plain\n    2|Bob|été\n    1000|\"Carol|Jr\"|x, y",
		"meta:\n    v: 1.5\nusers[1|]{id|name|note}:\n    0|Dan|\"\"",
	}
	if !reflect.DeepEqual(texts, want) {
		t.Fatalf("got %q\nwant %q", texts, want)
	}
}

// TestSplitOversize checks a row that does not fit a chunk alone: an
// error naming its row and line, or a chunk of its own with AllowOversize.
func TestSplitOversize(t *testing.T) {
	var b strings.Builder
	b.WriteString("data:\n  rows[6]{id,text}:")
	for i := 1; i <= 6; i++ {
		text := "short"
		if i == 4 {
			text = strings.Repeat("very long text ", 80)
		}
		fmt.Fprintf(&b, "\n    %d,%s", i, text)
	}
	in := b.String()
	for _, lim := range []SplitOptions{{MaxTokens: 100}, {MaxBytes: 300}} {
		opts := lim
		opts.Table = "data.rows"
		var got []int
		err := Split(strings.NewReader(in), opts, func(c Chunk) error {
			got = append(got, c.Rows)
			return nil
		})
		var oe *OversizeError
		if !errors.As(err, &oe) {
			t.Fatalf("%+v: error %v, want an OversizeError", lim, err)
		}
		if oe.Row != 3 || oe.Line != 6 {
			t.Fatalf("%+v: row %d line %d, want row 3 (the fourth) line 6", lim, oe.Row, oe.Line)
		}
		if lim.MaxTokens > 0 && (oe.Tokens <= 100 || !strings.Contains(err.Error(), "tokens, over the limit of 100")) ||
			lim.MaxBytes > 0 && (oe.Bytes <= 300 || !strings.Contains(err.Error(), "bytes, over the limit of 300")) {
			t.Fatalf("%+v: %+v: %v", lim, oe, err)
		}
		if !strings.Contains(err.Error(), "row 4 (line 6)") {
			t.Fatalf("message %q", err)
		}
		if !reflect.DeepEqual(got, []int{3}) {
			t.Fatalf("%+v: chunks before the error: %v", lim, got)
		}
		opts.AllowOversize = true
		res := checkSplit(t, []byte(in), opts, toon.Comma, true)
		if res.oversize != 1 || len(res.chunks) != 3 || !res.chunks[1].Oversize || res.chunks[1].FirstRow != 3 {
			t.Fatalf("%+v with AllowOversize: %d chunks, %d oversize", lim, len(res.chunks), res.oversize)
		}
	}
	// A head that alone is over the limit leaves no room for any row.
	err := Split(strings.NewReader(in), SplitOptions{MaxTokens: 8, Table: "data.rows"}, func(Chunk) error { return nil })
	var oe *OversizeError
	if !errors.As(err, &oe) || oe.Row != 0 || oe.Line != 3 {
		t.Fatalf("tiny limit: %v", err)
	}
}

// TestSplitBadInput checks that malformed input is a *toon.SyntaxError at
// its line, whether it is found before or after chunks were emitted, and
// that the chunks emitted before it are complete.
func TestSplitBadInput(t *testing.T) {
	rowsFrom := func(a, z int) string {
		var b strings.Builder
		for i := a; i <= z; i++ {
			fmt.Fprintf(&b, "\n  %d,user %d", i, i)
		}
		return b.String()
	}
	rows := func(n int) string { return rowsFrom(1, n) }
	cases := []struct {
		name, in string
		cause    error
		line     int
	}{
		{"count too high", "[30]{id,name}:" + rows(25), toon.ErrCount, 26}, // the last row: where the table ended short
		{"count too low", "[20]{id,name}:" + rows(25), toon.ErrCount, 22},
		{"width", "[25]{id,name}:" + rows(12) + "\n  13,x,y" + rowsFrom(14, 25), toon.ErrWidth, 14},
		{"blank line", "[25]{id,name}:" + rows(10) + "\n" + rows(15), toon.ErrBlankLine, 12},
		{"bad escape", "[2]{id,name}:\n  1,\"a\\qb\"\n  2,b", toon.ErrEscape, 2},
		{"bad header", "[2]{id,name:\n  1,a\n  2,b", toon.ErrHeader, 1},
		{"trailing", "[2]{id,name}:\n  1,a\n  2,b\nx: 1", toon.ErrTrailing, 4},
		{"after the table", "t[2]{id}:\n  1\n  2\nu: \"a\\qb\"", toon.ErrEscape, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var emitted []string
			table := ""
			if strings.HasPrefix(c.in, "t[") {
				table = "t"
			}
			err := Split(strings.NewReader(c.in), SplitOptions{MaxRows: 5, Table: table}, func(ch Chunk) error {
				emitted = append(emitted, string(ch.Text))
				return nil
			})
			var se *toon.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a SyntaxError", err)
			}
			if c.cause != nil && !errors.Is(err, c.cause) || se.Line != c.line {
				t.Fatalf("error %v (line %d), want %v at line %d", err, se.Line, c.cause, c.line)
			}
			for _, e := range emitted {
				if _, err := orderedTOON([]byte(e)); err != nil {
					t.Fatalf("emitted chunk does not decode: %v\n%s", err, e)
				}
			}
		})
	}
}

// TestSplitPaths checks how the table is found and what goes around it.
func TestSplitPaths(t *testing.T) {
	doc := "v: 1\na:\n  meta:\n    k: x\n  b:\n    c[2]{x}:\n      1\n      2\n    d: 2\n  e: 3\n\"a.b\":\n  c[1]{y}:\n    9"
	run := func(opts SplitOptions) ([]string, error) {
		if opts.MaxRows == 0 {
			opts.MaxRows = 10
		}
		var out []string
		err := Split(strings.NewReader(doc), opts, func(c Chunk) error {
			out = append(out, string(c.Text))
			return nil
		})
		return out, err
	}
	cases := []struct {
		opts SplitOptions
		want []string
		err  string
	}{
		{SplitOptions{Table: "a.b.c"}, []string{"a:\n  b:\n    c[2]{x}:\n      1\n      2"}, ""},
		{SplitOptions{Table: "a.b.c", Context: true}, []string{"v: 1\na:\n  meta:\n    k: x\n  b:\n    c[2]{x}:\n      1\n      2"}, ""},
		{SplitOptions{Table: "a.b.c", Context: true, MaxRows: 1}, []string{
			"v: 1\na:\n  meta:\n    k: x\n  b:\n    c[1]{x}:\n      1",
			"v: 1\na:\n  meta:\n    k: x\n  b:\n    c[1]{x}:\n      2"}, ""},
		{SplitOptions{Table: "a.b"}, nil, `"a.b" (line 5) holds an object, not a table`},
		{SplitOptions{Table: "a.b.d"}, nil, `"a.b.d" (line 9) holds a number, not a table`},
		{SplitOptions{Table: "a.x"}, nil, `no table at "a.x"`},
		{SplitOptions{}, nil, `the document is an object, not a table: name the table to split (SplitOptions.Table): the first table is "a.b.c", at line 6`},
	}
	for _, c := range cases {
		got, err := run(c.opts)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("%+v: error %v, want %q", c.opts, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Fatalf("%+v: got %q %v\nwant %q", c.opts, got, err, c.want)
		}
	}
	// The key "a.b" with a dot: "a.b.c" is first found through a and b;
	// a document with only the dotted key finds it there.
	got, err := splitTexts("\"a.b\":\n  c[1]{y}:\n    9", SplitOptions{Table: "a.b.c", MaxRows: 5})
	if err != nil || !reflect.DeepEqual(got, []string{"a.b:\n  c[1]{y}:\n    9"}) {
		t.Fatalf("dotted key: %q %v", got, err)
	}
	// Empty tables give no chunk; other roots are errors.
	for _, in := range []string{"[0]:", "[]", "x: []", "x[0]{a}:", "[0:]{a}:"} {
		table := ""
		if strings.HasPrefix(in, "x") {
			table = "x"
		}
		got, err := splitTexts(in, SplitOptions{Table: table, MaxRows: 5})
		if err != nil || len(got) != 0 {
			t.Fatalf("%q: %q %v", in, got, err)
		}
	}
	for in, msg := range map[string]string{
		"42": "the document is a number, not a table",
		"":   "the document is an object, not a table",
		"items[1]:\n  - t[1]{a}:\n      1\nu:\n  v[1]{b}:\n    2": `not a table: name the table to split (SplitOptions.Table): the first table is "u.v", at line 5`,
	} {
		if _, err := splitTexts(in, SplitOptions{MaxRows: 5}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Fatalf("%q: %v, want %q", in, err, msg)
		}
	}
}

// splitTexts runs Split on a string and returns the chunks' texts.
func splitTexts(in string, opts SplitOptions) ([]string, error) {
	var out []string
	err := Split(strings.NewReader(in), opts, func(c Chunk) error {
		out = append(out, string(c.Text))
		return nil
	})
	return out, err
}

// TestSplitOptionsErrors checks the options Split refuses and that an
// error from the callback stops it.
func TestSplitOptionsErrors(t *testing.T) {
	in := "[3]: 1,2,3"
	for _, o := range []SplitOptions{{}, {MaxRows: -1}, {MaxTokens: 10, Tokenizer: "gpt2"}} {
		if _, err := splitTexts(in, o); err == nil {
			t.Fatalf("%+v: no error", o)
		}
	}
	stop := errors.New("stop")
	calls := 0
	err := Split(strings.NewReader(in), SplitOptions{MaxRows: 1}, func(Chunk) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("callback error: %v after %d calls", err, calls)
	}
}

// TestSplitContextLimit checks that context too large to repeat in every
// chunk is refused rather than held.
func TestSplitContextLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("big[200000]: ")
	for i := 0; i < 200000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("abcdefghijklmnopqrstuvwxyz")
	}
	b.WriteString("\nt[1]{a}:\n  1")
	_, err := splitTexts(b.String(), SplitOptions{MaxRows: 5, Table: "t", Context: true})
	if err == nil || !strings.Contains(err.Error(), "too much to repeat") {
		t.Fatalf("error %v", err)
	}
	if got, err := splitTexts(b.String(), SplitOptions{MaxRows: 5, Table: "t"}); err != nil || len(got) != 1 {
		t.Fatalf("without context: %q %v", got, err)
	}
}

// FuzzSplit splits arbitrary documents: Split must not panic, and when it
// succeeds each chunk must keep to the limits (or be one oversize row),
// decode strictly, and the chunks' rows must be the table's.
func FuzzSplit(f *testing.F) {
	f.Add("[3]{a,b}:\n  1,x\n  2,\"y,z\"\n  3,w", "", uint16(12), uint16(0), uint8(0))
	f.Add("m: 1\nd:\n  t[2|]{a|b}:\n    1|2\n    3|4\nz: 2", "d.t", uint16(0), uint16(30), uint8(1))
	f.Add("[4]:\n  - a\n  - x: 1\n  - [2]: 1,2\n  - \"\"", "", uint16(9), uint16(0), uint8(3))
	f.Add("[2:]{a}:\n  k: 1\n  \"k 2\": 2", "", uint16(0), uint16(0), uint8(1))
	f.Add("x[5\t]: a\tb\tc\td\te", "x", uint16(7), uint16(20), uint8(0))
	f.Fuzz(func(t *testing.T, doc, table string, maxTokens, maxBytes uint16, maxRows uint8) {
		opts := SplitOptions{MaxTokens: int(maxTokens), MaxBytes: int(maxBytes), MaxRows: int(maxRows),
			Table: table, AllowOversize: true, Context: maxRows%2 == 1}
		if opts.MaxTokens == 0 && opts.MaxBytes == 0 && opts.MaxRows == 0 {
			opts.MaxRows = 2
		}
		var chunks []Chunk
		err := Split(strings.NewReader(doc), opts, func(c Chunk) error {
			c.Text = bytes.Clone(c.Text)
			chunks = append(chunks, c)
			return nil
		})
		if err != nil {
			return
		}
		orig, err := orderedTOON([]byte(doc))
		if err != nil {
			t.Fatalf("Split accepted a document the decoder rejects: %v", err)
		}
		tv, ok := tableAt(orig, table)
		if !ok {
			t.Fatalf("Split found a table at %q; the test does not", table)
		}
		var all []any
		for i, c := range chunks {
			if !c.Oversize && (opts.MaxTokens > 0 && c.Tokens > opts.MaxTokens || opts.MaxBytes > 0 && len(c.Text) > opts.MaxBytes) ||
				opts.MaxRows > 0 && c.Rows > opts.MaxRows || c.Oversize && c.Rows != 1 {
				t.Fatalf("chunk %d over the limits %+v: %d tokens, %d bytes, %d rows", i, opts, c.Tokens, len(c.Text), c.Rows)
			}
			v, err := orderedTOON(c.Text)
			if err != nil {
				t.Fatalf("chunk %d does not decode: %v\n%s", i, err, c.Text)
			}
			cv, _ := tableAt(v, table)
			all = append(all, rowsOf(cv)...)
		}
		if want := rowsOf(tv); !reflect.DeepEqual(all, want) && !(len(all) == 0 && len(want) == 0) {
			t.Fatalf("rows differ:\n%#v\nwant\n%#v", all, want)
		}
	})
}

// ---- Large tables ----

// tableReader generates the TOON text of a root table of n rows (the
// shape of benchRows, with a note of some words) without holding it.
type tableReader struct {
	n, i int
	buf  []byte
	head bool
}

func newTableReader(n int) *tableReader { return &tableReader{n: n} }

func (r *tableReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if !r.head {
			r.head = true
			r.buf = append(r.buf, "users["...)
			r.buf = strconv.AppendInt(r.buf, int64(r.n), 10)
			r.buf = append(r.buf, "]{id,name,email,age,active,score,city,note}:"...)
			continue
		}
		if r.i == r.n {
			return 0, io.EOF
		}
		r.i++
		r.buf = appendBenchRow(r.buf, r.i)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[n:])]
	return n, nil
}

var benchCities = []string{"Berlin", "Paris", "London", "Madrid", "Rome", "Vienna", "Prague", "Warsaw", "Lisbon", "Dublin"}

func appendBenchRow(b []byte, i int) []byte {
	b = append(b, "\n  "...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, ",User "...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, ",user"...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, "@example.com,"...)
	b = strconv.AppendInt(b, int64(18+i*7%60), 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, i%3 != 0)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(i*13%100), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(i*7%9+1), 10)
	b = append(b, ',')
	b = append(b, benchCities[i%10]...)
	b = append(b, ",\"ordered "...)
	b = strconv.AppendInt(b, int64(i%17), 10)
	b = append(b, " items, shipped\""...)
	return b
}

// TestSplitMemoryFlat splits a table of 24 MB generated as it is read and
// checks that the heap stays small: the splitter holds a chunk, not the
// table. It also checks that allocations per row are nil: they depend on
// the number of chunks only.
func TestSplitMemoryFlat(t *testing.T) {
	if _, err := splitTexts("[1]: 1", SplitOptions{MaxTokens: 100}); err != nil { // load the vocabulary first
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	rows := longtest.Size(t, 60_000, 200_000)
	var peak uint64
	chunks, seen := 0, 0
	err := Split(newTableReader(rows), SplitOptions{MaxTokens: 8000, Table: "users"}, func(c Chunk) error {
		chunks++
		seen += c.Rows
		if chunks%100 == 0 { // the live heap, after a collection
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if err != nil || seen != rows {
		t.Fatalf("%v, %d rows", err, seen)
	}
	if peak > base+4<<20 {
		t.Fatalf("heap grew by %d MB over %d chunks", (peak-base)>>20, chunks)
	}
	allocs := func(n, maxRows int) float64 {
		return testing.AllocsPerRun(2, func() {
			if err := Split(newTableReader(n), SplitOptions{MaxRows: maxRows, MaxTokens: 1 << 30, Table: "users"}, func(Chunk) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})
	}
	// One chunk either way: 2,000 rows or 40,000.
	a, b := allocs(2000, 1<<20), allocs(40000, 1<<20)
	if b > a+60 {
		t.Fatalf("allocations grow with rows: %v for 2000 rows, %v for 40000", a, b)
	}
	t.Logf("peak heap %d KB over %d chunks; %v allocations for 2000 rows, %v for 40000", (peak-base)>>10, chunks, a, b)
}

// ---- Benchmarks ----

// BenchmarkSplit splits a table of 100,000 rows (11 MB) by tokens, by
// bytes and by rows.
func BenchmarkSplit(b *testing.B) {
	in, err := io.ReadAll(newTableReader(100_000))
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts SplitOptions
	}{
		{"tokens", SplitOptions{MaxTokens: 4000}},
		{"bytes", SplitOptions{MaxBytes: 16 << 10}},
		{"rows", SplitOptions{MaxRows: 200}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opts := bc.opts
			opts.Table = "users"
			if _, err := splitTexts("[1]: 1", SplitOptions{MaxTokens: 100}); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := Split(bytes.NewReader(in), opts, func(Chunk) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
