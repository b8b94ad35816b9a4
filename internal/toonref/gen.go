package toonref

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Gen writes random TOON documents shaped like real data: objects and
// nested objects, tables (with nested field groups and keyed tables),
// inline arrays, lists of primitives, arrays and objects, quoted and
// unquoted strings, numbers in every form §4 mentions, keys with odd
// characters, comma, tab and pipe delimiters, comment and blank lines.
// Most documents it writes are valid; Mutate then makes small edits.
// The same seed gives the same documents.
type Gen struct {
	r      *rand.Rand
	b      strings.Builder
	indent int
	budget int // lines left to write in this document
}

// NewGen returns a generator seeded with seed.
func NewGen(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Document returns a new document and the indent size it is written with.
func (g *Gen) Document() (text string, indent int) {
	g.b.Reset()
	g.indent = 2
	if g.r.IntN(10) == 0 {
		g.indent = 4
	}
	g.budget = 6 + g.r.IntN(30)
	switch p := g.r.IntN(100); {
	case p < 70:
		g.object(0, 1+g.r.IntN(5))
	case p < 80:
		g.header(0, "", 0)
	case p < 84:
		g.keyed(0, "", 0)
	case p < 92:
		g.line(0, g.value())
	case p < 94:
		g.line(0, "[]")
	case p < 95:
		// An empty document, or one of comments only.
		if g.r.IntN(2) == 0 {
			g.line(0, "# "+g.word())
		}
	default:
		// Lines that are not a valid document on their own.
		for i := 0; i < 2+g.r.IntN(2); i++ {
			g.line(0, g.value())
		}
	}
	s := strings.TrimSuffix(g.b.String(), "\n")
	if g.r.IntN(8) == 0 {
		s += "\n" // a trailing newline, which decoders accept
	}
	return s, g.indent
}

// line writes one line at depth (a depth below 0 is written at 0).
func (g *Gen) line(depth int, content string) {
	g.budget--
	if g.r.IntN(40) == 0 {
		// A comment line, at any indentation (§5.1).
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(5)) + "# " + g.word() + "\n")
	}
	if g.r.IntN(60) == 0 {
		g.b.WriteString("\n") // blank lines: ignored, or errors inside arrays
	}
	g.b.WriteString(strings.Repeat(" ", max(depth, 0)*g.indent))
	g.b.WriteString(content)
	g.b.WriteString("\n")
}

// object writes n fields at depth.
func (g *Gen) object(depth, n int) {
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		k := g.key()
		if seen[k] && g.r.IntN(8) != 0 {
			continue // repeated keys are rare: an error in strict mode
		}
		seen[k] = true
		g.field(depth, k, "")
	}
}

// field writes the field k at depth, prefix being what goes before the key
// on its line ("- " for the first field of a list item, which then stands
// at depth+1 for its content).
func (g *Gen) field(depth int, k, prefix string) {
	at := depth
	if prefix != "" {
		depth++ // §10: the hyphen line's field stands one level deeper
	}
	p := g.r.IntN(100)
	if g.budget <= 0 {
		p = 0
	}
	switch {
	case p < 45:
		g.line(at, prefix+k+": "+g.value())
	case p < 55:
		g.line(at, prefix+k+":")
		if g.r.IntN(5) != 0 {
			g.object(depth+1, 1+g.r.IntN(4))
		}
	case p < 58:
		g.line(at, prefix+k+": []")
	case p < 88:
		g.header(depth, k, at-depth)
	default:
		g.keyed(depth, k, at-depth)
	}
}

// delimiter returns a random active delimiter and its symbol in a bracket
// segment.
func (g *Gen) delimiter() (delim byte, sym string) {
	switch g.r.IntN(6) {
	case 0:
		return '\t', "\t"
	case 1:
		return '|', "|"
	}
	return ',', ""
}

// header writes an array field k at depth (k "" for a root array), as an
// inline, tabular or list array. shift is -1 when the
// header stands on a list item's hyphen line, which is then at depth-1.
func (g *Gen) header(depth int, k string, shift int) {
	prefix := ""
	if shift < 0 {
		prefix = "- "
	}
	at := max(depth+shift, 0)
	d, sym := g.delimiter()
	switch p := g.r.IntN(100); {
	case p < 35 || g.budget <= 0:
		n := g.r.IntN(5)
		vals := make([]string, n)
		for i := range vals {
			vals[i] = g.cell(d)
		}
		content := prefix + k + "[" + strconv.Itoa(n) + sym + "]:"
		if n > 0 {
			content += " " + strings.Join(vals, string(d))
		}
		g.line(at, content)
	case p < 70:
		fields, leaves := g.fields(d, 0)
		n := 1 + g.r.IntN(4)
		g.line(at, prefix+k+"["+strconv.Itoa(n)+sym+"]{"+fields+"}:")
		for i := 0; i < n; i++ {
			g.line(depth+1, g.row(d, leaves))
		}
	default:
		n := 1 + g.r.IntN(4)
		g.line(at, prefix+k+"["+strconv.Itoa(n)+sym+"]:")
		for i := 0; i < n; i++ {
			g.item(depth + 1)
		}
	}
}

// keyed writes a keyed table (§9.5) as the field k at depth ("" for the
// root).
func (g *Gen) keyed(depth int, k string, shift int) {
	prefix := ""
	if shift < 0 {
		prefix = "- "
	}
	at := max(depth+shift, 0)
	d, sym := g.delimiter()
	fields, leaves := g.fields(d, 0)
	n := g.r.IntN(4)
	g.line(at, prefix+k+"["+strconv.Itoa(n)+":"+sym+"]{"+fields+"}:")
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		ek := g.key()
		for seen[ek] {
			ek += "x"
		}
		seen[ek] = true
		g.line(depth+1, ek+": "+g.row(d, leaves))
	}
}

// fields returns a fields segment's content and its number of leaves.
func (g *Gen) fields(d byte, level int) (string, int) {
	n := 1 + g.r.IntN(4)
	names := make([]string, 0, n)
	seen := map[string]bool{}
	leaves := 0
	for len(names) < n {
		f := g.fieldName()
		if seen[f] {
			continue
		}
		seen[f] = true
		if level < 2 && g.r.IntN(10) == 0 {
			sub, l := g.fields(d, level+1)
			names = append(names, f+"{"+sub+"}")
			leaves += l
			continue
		}
		names = append(names, f)
		leaves++
	}
	return strings.Join(names, string(d)), leaves
}

// row returns a row of n cells.
func (g *Gen) row(d byte, n int) string {
	cells := make([]string, n)
	for i := range cells {
		cells[i] = g.cell(d)
	}
	return strings.Join(cells, string(d))
}

// item writes a list item at depth.
func (g *Gen) item(depth int) {
	p := g.r.IntN(100)
	if g.budget <= 0 {
		p = 0
	}
	switch {
	case p < 35:
		g.line(depth, "- "+g.value())
	case p < 45:
		d, sym := g.delimiter()
		n := g.r.IntN(4)
		vals := make([]string, n)
		for i := range vals {
			vals[i] = g.cell(d)
		}
		content := "- [" + strconv.Itoa(n) + sym + "]:"
		if n > 0 {
			content += " " + strings.Join(vals, string(d))
		}
		g.line(depth, content)
	case p < 48:
		g.line(depth, "- []")
	case p < 51:
		g.line(depth, "-")
	case p < 56:
		n := 1 + g.r.IntN(3)
		g.line(depth, "- ["+strconv.Itoa(n)+"]:")
		for i := 0; i < n; i++ {
			g.item(depth + 1)
		}
	default:
		// An object: its first field on the hyphen line, the others at
		// depth+1.
		k := g.key()
		g.field(depth, k, "- ")
		seen := map[string]bool{k: true}
		for i := g.r.IntN(3); i > 0; i-- {
			k := g.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			g.field(depth+1, k, "")
		}
	}
}

var identKeys = []string{
	"id", "name", "email", "created_at", "updatedAt", "user.name", "tags", "items", "price",
	"qty", "_meta", "status", "A1", "x", "y", "data.meta.items", "v2", "count", "owner",
	"description", "type", "kind", "url", "enabled", "score", "note",
}

var quotedKeys = []string{
	`"my-key"`, `"a:b"`, `"x y"`, `"#k"`, `""`, `"q\"uote"`, `"[1]"`, `"{b}"`, `"a,b"`,
	`"a|b"`, `"123"`, `"true"`, `"- x"`, `"tab\tkey"`, `"caf\u00e9"`, `"back\\slash"`,
}

// oddKeys are unquoted keys that §7.3 would have an encoder quote; a
// decoder must read them as literal keys before a colon (§7.4).
var oddKeys = []string{
	"foo-bar", "2key", "café", "a b", "x-y.z", "@type", "$ref", "key!", "1", "-k", "a'b",
	`x"y"`, `q"`, "#k", "a/b", "日本",
}

// key returns a key as it is written before a colon or a bracket.
func (g *Gen) key() string {
	switch p := g.r.IntN(100); {
	case p < 80:
		return identKeys[g.r.IntN(len(identKeys))]
	case p < 92:
		return quotedKeys[g.r.IntN(len(quotedKeys))]
	default:
		return oddKeys[g.r.IntN(len(oddKeys))]
	}
}

// fieldName returns a field name as it is written in a fields segment.
func (g *Gen) fieldName() string {
	switch p := g.r.IntN(100); {
	case p < 85:
		return identKeys[g.r.IntN(len(identKeys))]
	case p < 97:
		return quotedKeys[g.r.IntN(len(quotedKeys))]
	default:
		return oddKeys[g.r.IntN(len(oddKeys))]
	}
}

var numbers = []string{
	"0", "1", "42", "-7", "3.14", "-0.5", "1e6", "1E+03", "-1e-7", "1.5000", "-0", "0.0", "100",
	"05", "007", "-05", "1.", "+5", ".5", "12345678901234567890", "9007199254740993",
	"0.1", "2.5e-3", "1e400", "-1e999", "0e1", "1_000", "0x10", "Infinity", "NaN", "1e-400",
	"123456789012345678901234567890.5", "4.0", "-12.50", "1e21", "999999999999999999999",
}

var plainStrings = []string{
	"hello", "hello world", "Ada Lovelace", "café", "東京", "a-b", "x#y", "50%", "2024-01-15",
	"v1.2.3", `C:\path`, "it's", "a|b", "-dash", "#hash", "null-ish", "TRUE", "Null", "x:y",
	"[x]", "{y}", "a,b", "tab\there", "nbsp\u00a0x", "😀 emoji", "- item",
}

// innerQuotes are unquoted strings with a '"' after their first byte:
// data (§4), though the quote hides delimiters after it from a line's
// split (Appendix B.3).
var innerQuotes = []string{
	`12" pizza`, `path/to/"file.ts`, `say "hi" now`, `1"23`, `-"7`, `ab"`, `x"y,z`, `a"b"c`,
}

var quotedStrings = []string{
	`"hello, world"`, `""`, `"true"`, `"42"`, `"a:b"`, `"line\nbreak"`, `"tab\there"`,
	`"q\"uote"`, `"back\\slash"`, `"\u00e9"`, `" padded "`, `"- dash"`, `"[x]"`, `"{y}"`,
	`"a|b"`, `"a\tb"`, `"05"`, `"null"`, `"#x"`, `"\u0001"`, `"\uD7FF"`,
}

// badTokens are tokens that no decoder may accept as values.
var badTokens = []string{`"bad\x"`, `"\ud83d"`, `"`, `"open`, `"a"b`, `"\u12"`}

// value returns a primitive token for a "key: value" line or a list item:
// any of the forms, with delimiters and colons allowed in plain strings.
func (g *Gen) value() string {
	switch p := g.r.IntN(1000); {
	case p < 300:
		return numbers[g.r.IntN(len(numbers))]
	case p < 400:
		return []string{"true", "false", "null", "True", "NULL"}[g.r.IntN(5)]
	case p < 680:
		return plainStrings[g.r.IntN(len(plainStrings))]
	case p < 750:
		return innerQuotes[g.r.IntN(len(innerQuotes))]
	case p < 995:
		return quotedStrings[g.r.IntN(len(quotedStrings))]
	default:
		return badTokens[g.r.IntN(len(badTokens))]
	}
}

// cell returns a primitive token for a cell or an inline array value with
// the active delimiter d: like value, but a plain string with d or a colon
// in it is mostly left out, and empty cells occur.
func (g *Gen) cell(d byte) string {
	for tries := 0; ; tries++ {
		v := g.value()
		if g.r.IntN(25) == 0 {
			return ""
		}
		if tries < 8 && v[0] != '"' && (strings.IndexByte(v, d) >= 0 || strings.IndexByte(v, ':') >= 0) {
			continue
		}
		return v
	}
}

// word returns a word for a comment.
func (g *Gen) word() string {
	return []string{"note", "TODO", "generated", "a comment: with colon", "x,y"}[g.r.IntN(5)]
}

// editChars are the characters Mutate inserts or replaces with.
const editChars = "\",:[]{} \n-0123456789abcxyz|\t#"

// Mutate makes 0 to 3 small random edits to text: a character inserted,
// deleted or replaced (with one of the structural characters, a digit or
// a letter), or a line duplicated or deleted. It works on characters, not
// bytes, so the result is valid UTF-8 when text is.
func (g *Gen) Mutate(text string) string {
	edits := 0
	switch p := g.r.IntN(10); {
	case p < 3:
		edits = 0
	case p < 7:
		edits = 1
	default:
		edits = 2 + g.r.IntN(2)
	}
	rs := []rune(text)
	for ; edits > 0; edits-- {
		c := rune(editChars[g.r.IntN(len(editChars))])
		switch op := g.r.IntN(10); {
		case op < 3:
			i := g.r.IntN(len(rs) + 1)
			rs = append(rs[:i], append([]rune{c}, rs[i:]...)...)
		case op < 5 && len(rs) > 0:
			i := g.r.IntN(len(rs))
			rs = append(rs[:i], rs[i+1:]...)
		case op < 8 && len(rs) > 0:
			rs[g.r.IntN(len(rs))] = c
		default:
			lines := strings.Split(string(rs), "\n")
			i := g.r.IntN(len(lines))
			if g.r.IntN(2) == 0 {
				lines = append(lines[:i+1], lines[i:]...)
			} else if len(lines) > 1 {
				lines = append(lines[:i], lines[i+1:]...)
			}
			rs = []rune(strings.Join(lines, "\n"))
		}
	}
	return string(rs)
}
