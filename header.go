package toon

import "bytes"

// This file holds the parser of array and keyed headers (§6): the key, the
// bracket segment and the fields segment of a header line.

// headerParser holds the last header parsed and the memory of its field
// list, which stays valid until the next header is parsed.
type headerParser struct {
	strict    bool // the decoder's strict mode
	hdr       header
	farena    []Field  // the field list, each group's fields contiguous
	fstack    []Field  // group parsing stack
	groupKeys []keySet // field names of the groups being parsed, by level (strict)
	names     []byte   // the field names
	// The fields segments of the last headers parsed without error
	// (segs holds their bytes), each with its delimiter and its parse, in
	// farena and names. Within a list of like objects, each item repeats
	// the same headers: a segment of the same bytes and delimiter parses to
	// the same fields, so it takes them from here rather than parsing
	// again. When seenMax segments are held, the next new one starts over.
	seen []seenGroup
	segs []byte
	ids  int // the ids given to segments parsed (seenGroup.id); never reset
}

// seenGroup is a fields segment parsed before: segs[start:end] with
// delimiter delim, and its fields and their number of leaves.
type seenGroup struct {
	start, end int
	delim      byte
	fields     []Field
	leaves     int
	id         int // told apart from every other segment this parser parsed
}

// seenMax is the most fields segments a headerParser remembers.
const seenMax = 8

// group parses the fields segment that starts at text[i] == '{' (see
// parseGroup), or takes its fields from a segment of the same bytes parsed
// before: parseGroup reads no byte past the segment it parses, so the
// same bytes give the same fields.
func (p *headerParser) group(text []byte, i int, delim byte, scratch *[]byte) (*seenGroup, int, headerError) {
	if g := p.seenAt(text, i, delim); g != nil {
		return g, i + g.end - g.start, headerError{}
	}
	if len(p.seen) == seenMax {
		p.seen, p.segs = p.seen[:0], p.segs[:0]
	}
	if len(p.seen) == 0 {
		p.farena, p.names = p.farena[:0], p.names[:0]
	}
	nf, nn := len(p.farena), len(p.names)
	fs, next, herr := p.parseGroup(text, i, delim, 0, scratch)
	if herr.err != nil {
		// Drop what the failed parse stored, so that the arenas stay
		// bounded however many bad headers a non-strict decoder passes.
		p.farena, p.names = p.farena[:nf], p.names[:nn]
		return nil, next, herr
	}
	start := len(p.segs)
	p.segs = append(p.segs, text[i:next]...)
	p.ids++
	p.seen = append(p.seen, seenGroup{start: start, end: len(p.segs), delim: delim, fields: fs, leaves: countLeaves(fs), id: p.ids})
	return &p.seen[len(p.seen)-1], next, headerError{}
}

// seenAt returns the fields segment parsed before that text[i:] starts
// with, with delimiter delim, or nil. It changes nothing.
func (p *headerParser) seenAt(text []byte, i int, delim byte) *seenGroup {
	for k := range p.seen {
		if g := &p.seen[k]; g.delim == delim && bytes.HasPrefix(text[i:], p.segs[g.start:g.end]) {
			return g
		}
	}
	return nil
}

// fieldsID returns the id of the fields segment whose fields fs is (the
// same memory: a header token's Fields), or 0 when fs is none that p
// holds. The memory of a segment's fields does not change while p holds
// the segment, and ids are never given twice, so two lists of the same
// id have the same fields.
func (p *headerParser) fieldsID(fs []Field) int {
	if len(fs) == 0 {
		return 0
	}
	for k := range p.seen {
		if g := &p.seen[k]; len(g.fields) == len(fs) && &g.fields[0] == &fs[0] {
			return g.id
		}
	}
	return 0
}

// isUnquotedKey reports whether b matches the unquoted-key rule of §6/§7.3:
// [A-Za-z_][A-Za-z0-9_.]*.
func isUnquotedKey(b []byte) bool {
	n := plainKeyEnd(b)
	return n > 0 && n == len(b)
}

var keyStart, keyChar [256]byte

func init() {
	for c := 0; c < 256; c++ {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' {
			keyStart[c] = 1
			keyChar[c] = 1
		}
		if c >= '0' && c <= '9' || c == '.' {
			keyChar[c] = 1
		}
	}
}

// header is a parsed array or keyed header line (§6).
type header struct {
	key    []byte // unescaped key; empty for a keyless header
	hasKey bool
	n      int
	keyed  bool
	delim  byte
	fields []Field // nil without a fields segment
	nleaf  int
	// fieldsID is the fields segment's seenGroup.id: headers with equal
	// ids have the same fields, in the same memory.
	fieldsID int
	rest     []byte // content after the colon, spaces trimmed
	restCol  int    // index of rest in the line's text
}

// headerError is a malformed header: the cause and where in the text.
type headerError struct {
	err error
	at  int
}

// parseHeader parses a header on the current line into h (see parse), with
// the line's unescaped strings in d.scratch.
func (d *Decoder) parseHeader(text []byte, bracket int, h *header) (isHeader bool, herr headerError) {
	// parse unquotes the key and then the field names into scratch, each
	// a piece of text, and none of them may move what the key's token
	// views: scratch takes room for the whole text first.
	d.scratchRoom(len(text))
	return d.headerParser.parse(text, bracket, h, &d.scratch)
}

// parse parses text as a header whose bracket segment starts at
// text[bracket]. It reports isHeader false when the text before the bracket
// is not a key, in which case the line is an ordinary key-value line (§5.2).
// Field names are copied into p's field storage, which stays valid until the
// next header is parsed; escaped keys and names are unescaped into scratch.
//
// In strict mode a key is what §6's grammar admits: a quoted key or an
// unquoted one of the §7.3 pattern, so foo-bar[2]: a,b is the key-value line
// of the literal key "foo-bar[2]" (§7.4). Non-strict mode reads keys as the
// reference implementation does (see literalHeaderKey): foo-bar[2]: a,b is
// the array "foo-bar".
func (p *headerParser) parse(text []byte, bracket int, h *header, scratch *[]byte) (isHeader bool, herr headerError) {
	*h = header{}
	prefix := text[:bracket]
	switch {
	case len(prefix) == 0:
	case prefix[0] == '"':
		k, next, _, err := unquote(prefix, scratch)
		if err != nil || next != len(prefix) {
			return false, headerError{}
		}
		h.key, h.hasKey = k, true
	case isUnquotedKey(prefix), !p.strict && literalHeaderKey(prefix):
		h.key, h.hasKey = prefix, true
	default:
		return false, headerError{}
	}
	bad := func(at int) (bool, headerError) { return true, headerError{ErrHeader, at} }
	var i int
	var ok bool
	if h.n, h.keyed, h.delim, i, ok = bracketSegment(text, bracket+1); !ok {
		return bad(i)
	}
	if i < len(text) && text[i] == '{' {
		g, next, herr := p.group(text, i, h.delim, scratch)
		if herr.err != nil {
			return true, herr
		}
		h.fields, h.nleaf, h.fieldsID = g.fields, g.leaves, g.id
		i = next
	}
	if i >= len(text) || text[i] != ':' {
		return bad(i)
	}
	i++
	j := i
	for j < len(text) && text[j] == ' ' {
		j++
	}
	h.rest = trimSpaces(text[j:])
	h.restCol = j
	if h.keyed && h.fields == nil {
		return bad(i - 1)
	}
	if h.fields != nil && len(h.rest) > 0 {
		return bad(j)
	}
	return true, headerError{}
}

// bracketSegment parses a header's bracket segment from text[i], the byte
// after its '[': the length, at most 18 digits with no leading zero, then
// a ':' for a keyed header, an optional delimiter ('|' or a tab; ',' when
// there is none) and the ']'. It returns them and the offset after the
// ']', or ok false and the offset of the byte that breaks the rule (with
// the parts read before it when the length was well formed).
func bracketSegment(text []byte, i int) (n int, keyed bool, delim byte, next int, ok bool) {
	start := i
	for i < len(text) && text[i]-'0' < 10 {
		n = n*10 + int(text[i]-'0')
		i++
	}
	if i == start || (text[start] == '0' && i-start > 1) || i-start > 18 {
		return 0, false, 0, start, false
	}
	if i < len(text) && text[i] == ':' {
		keyed = true
		i++
	}
	delim = ','
	if i < len(text) && (text[i] == '\t' || text[i] == '|') {
		delim = text[i]
		i++
	}
	if i >= len(text) || text[i] != ']' {
		return n, keyed, delim, i, false
	}
	return n, keyed, delim, i + 1, true
}

// literalHeaderKey reports whether prefix, the text before a header's
// bracket that is neither empty nor quoted, is a key in non-strict mode:
// any text that does not end in a space or a tab. (The reference
// implementation reads every such prefix as the key; it rejects the line
// when the prefix ends in whitespace, where §5.2 makes foo [2]: bar the
// key-value line of the key "foo [2]", as this decoder does.)
func literalHeaderKey(prefix []byte) bool {
	c := prefix[len(prefix)-1]
	return c != ' ' && c != '\t'
}

// parseGroup parses a fields segment starting at text[i] == '{'. Entries of
// one group are collected on p.fstack and then moved into p.farena, so that
// each group's fields are contiguous.
//
// An unquoted field name runs to the next delimiter or brace outside quoted
// regions (a '"' inside it opens one, as in a row: Appendix B.3), spaces
// trimmed. In strict mode it must match §7.3's unquoted-key pattern, as §6's
// grammar requires ({c,#k} is an error); in non-strict mode any such text is
// a name, as the reference implementation reads it. In both modes a
// delimiter other than the active one is a delimiter mismatch (§6), and
// whitespace between a name and its nested group is a header error.
func (p *headerParser) parseGroup(text []byte, i int, delim byte, level int, scratch *[]byte) ([]Field, int, headerError) {
	if level > 64 {
		return nil, i, headerError{ErrHeader, i}
	}
	mark := len(p.fstack)
	defer func() { p.fstack = p.fstack[:mark] }()
	i++ // '{'
	for {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i >= len(text) {
			return nil, i, headerError{ErrHeader, i}
		}
		var name []byte
		nameAt := i
		if text[i] == '"' {
			k, next, bad, err := unquote(text[i:], scratch)
			if err != nil {
				return nil, i + bad, headerError{err, i + bad}
			}
			name = k
			i += next
		} else {
			j, other := i, -1
			for j < len(text) {
				c := text[j]
				if c == delim || c == '{' || c == '}' {
					break
				}
				switch c {
				case '"':
					j = skipQuoted(text, j+1)
					if j >= len(text) {
						return nil, nameAt, headerError{ErrHeader, nameAt} // the group never closes
					}
				case ',', '|', '\t':
					if other < 0 {
						other = j
					}
				}
				j++
			}
			name = trimSpaces(text[i:j])
			if len(name) == 0 {
				return nil, i, headerError{ErrHeader, i}
			}
			if other >= 0 {
				return nil, other, headerError{ErrDelimiter, other}
			}
			if p.strict && !isUnquotedKey(name) {
				return nil, nameAt, headerError{ErrHeader, nameAt}
			}
			i = j
			if i < len(text) && text[i] == '{' && text[i-1] == ' ' {
				return nil, i - 1, headerError{ErrHeader, i - 1} // a {b}
			}
		}
		sp := i
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i < len(text) && text[i] == '{' && i != sp {
			return nil, sp, headerError{ErrHeader, sp} // "a" {b}
		}
		if p.strict {
			for len(p.groupKeys) <= level {
				p.groupKeys = append(p.groupKeys, keySet{})
			}
			if len(p.fstack) == mark {
				p.groupKeys[level].reset()
			}
			if !p.groupKeys[level].add(name) {
				return nil, nameAt, headerError{ErrDuplicateKey, nameAt}
			}
		}
		ns := len(p.names)
		p.names = append(p.names, name...)
		f := Field{Name: p.names[ns:len(p.names):len(p.names)]}
		if i < len(text) && text[i] == '{' {
			sub, next, herr := p.parseGroup(text, i, delim, level+1, scratch)
			if herr.err != nil {
				return nil, next, herr
			}
			f.Fields = sub
			i = next
			for i < len(text) && text[i] == ' ' {
				i++
			}
		}
		p.fstack = append(p.fstack, f)
		if i >= len(text) {
			return nil, i, headerError{ErrHeader, i}
		}
		switch text[i] {
		case delim:
			i++
			continue
		case '}':
			s := len(p.farena)
			p.farena = append(p.farena, p.fstack[mark:]...)
			return p.farena[s:len(p.farena):len(p.farena)], i + 1, headerError{}
		case ',', '|', '\t':
			return nil, i, headerError{ErrDelimiter, i}
		default:
			return nil, i, headerError{ErrHeader, i}
		}
	}
}

func countLeaves(fs []Field) int {
	n := 0
	for _, f := range fs {
		if f.Fields == nil {
			n++
		} else {
			n += countLeaves(f.Fields)
		}
	}
	return n
}

// rowTokenCount returns the number of tokens a row of field list fs has
// after its ObjectStart: a token for each step of walkFields (a key, a
// cell, the start or the end of a nested group), then the ObjectEnd.
func rowTokenCount(fs []Field) int {
	n := 1
	walkFields(fs, 0, func(fieldStep, *Field, int) error { n++; return nil })
	return n
}

// A fieldStep is one step of the walk of a field list (§9.3) that both row
// programs follow, the decoder's (rowprog.go), which makes a row's tokens,
// and the token writer's (tokenwriter.go), which checks them: a field's
// key, then its value, which is a cell for a leaf field and the group's
// own steps between stepGroup and stepGroupEnd for a nested field group.
type fieldStep uint8

const (
	stepKey      fieldStep = iota // the key of the field
	stepCell                      // the value of a leaf field: the next cell of the row
	stepGroup                     // the start of a nested field group, whose steps follow
	stepGroupEnd                  // the end of a nested field group (or, in a program, of the row)
)

// walkFields calls visit for every step of the field list fs, depth first,
// with the depth of the list the field is in (depth for fs itself), and
// stops at the first error visit returns.
func walkFields(fs []Field, depth int, visit func(s fieldStep, f *Field, depth int) error) error {
	for i := range fs {
		f := &fs[i]
		if err := visit(stepKey, f, depth); err != nil {
			return err
		}
		if f.Fields == nil {
			if err := visit(stepCell, f, depth); err != nil {
				return err
			}
			continue
		}
		if err := visit(stepGroup, f, depth); err != nil {
			return err
		}
		if err := walkFields(f.Fields, depth+1, visit); err != nil {
			return err
		}
		if err := visit(stepGroupEnd, f, depth); err != nil {
			return err
		}
	}
	return nil
}
