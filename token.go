package toon

import (
	"math/bits"
	"strconv"

	"github.com/toonstream/toon/internal/mem"
)

// Kind identifies what a Token is. Its values are mnemonic bytes, so a Kind
// prints usefully with %c.
type Kind byte

// The kinds of Token, following the JSON data model.
const (
	KindInvalid     Kind = 0
	KindObjectStart Kind = '{'
	KindObjectEnd   Kind = '}'
	KindArrayStart  Kind = '['
	KindArrayEnd    Kind = ']'
	KindKey         Kind = 'k'
	KindString      Kind = '"'
	KindNumber      Kind = '0'
	KindBool        Kind = 't'
	KindNull        Kind = 'n'
)

// String returns the name of the kind.
func (k Kind) String() string {
	switch k {
	case KindObjectStart:
		return "ObjectStart"
	case KindObjectEnd:
		return "ObjectEnd"
	case KindArrayStart:
		return "ArrayStart"
	case KindArrayEnd:
		return "ArrayEnd"
	case KindKey:
		return "Key"
	case KindString:
		return "String"
	case KindNumber:
		return "Number"
	case KindBool:
		return "Bool"
	case KindNull:
		return "Null"
	}
	return "Invalid"
}

// Form tells how an array, or an object in keyed tabular form, is laid out
// in the text. It is carried by ArrayStart and ObjectStart tokens so that a
// writer can reproduce the layout a reader saw.
type Form byte

// The layouts of arrays and objects.
const (
	// FormNone is an ordinary indented object (or no layout at all, for
	// tokens that are not ObjectStart or ArrayStart).
	FormNone Form = iota
	// FormEmpty is the empty array written `key: []` (or `[]`), with no
	// declared length.
	FormEmpty
	// FormInline is a primitive array on its header line: `key[3]: a,b,c`.
	FormInline
	// FormList is an expanded array of `- ` items.
	FormList
	// FormTabular is an array of objects written as a header with a field
	// list and one row per element.
	FormTabular
	// FormKeyed is an object written as a keyed table: `key[N:]{f}:` and
	// one `entry: cells` row per entry. It is carried by ObjectStart.
	FormKeyed
)

// String returns the name of the form.
func (f Form) String() string {
	switch f {
	case FormNone:
		return "none"
	case FormEmpty:
		return "empty"
	case FormInline:
		return "inline"
	case FormList:
		return "list"
	case FormTabular:
		return "tabular"
	case FormKeyed:
		return "keyed"
	}
	return "Form(" + strconv.Itoa(int(f)) + ")"
}

// Delimiter is the character that separates the values of inline arrays
// and the cells of rows: a comma (the default), a tab or a pipe.
type Delimiter byte

// The three delimiters TOON allows.
const (
	Comma Delimiter = ','
	Tab   Delimiter = '\t'
	Pipe  Delimiter = '|'
)

// Field is one entry of a tabular header's field list. A field with a nested
// group (§9.3, `customer{name,country}`) has Fields set; a leaf field has
// Fields nil. Name is unescaped.
//
// Fields obtained from a Token are views into the decoder's memory, valid
// until the next call to Token; Token.Clone copies them.
type Field struct {
	Name   []byte
	Fields []Field
}

// Token is one element of a TOON document in the JSON data model: the start
// or end of an object or array, an object key, or a primitive value.
//
// A Token is a small value (three machine words). The bytes it refers to
// (Bytes, Fields) are views into the decoder's buffers and are valid only
// until the next call to Decoder.Token; use Clone to keep a token longer.
type Token struct {
	h uint64  // kind | form<<8 | delimiter<<16 | number of fields<<32
	p mem.Ptr // *byte of the text, or *Field of the field list
	n int     // length of the text, declared length, or bool value
}

// tokenSize is the size of a Token in bytes (checked by TestTokenSize).
const tokenSize = 8 + 2*bits.UintSize/8

func (t Token) kind() Kind { return Kind(t.h) }
func (t Token) nf() int    { return int(t.h >> 32) }

// emptyString is the token of an empty string.
func emptyString() Token { return Token{h: uint64(KindString), p: mem.Of(&zeroByte)} }

// zeroByte gives empty texts a non-nil address, so Bytes of an empty
// string is an empty, non-nil slice.
var zeroByte byte

func textToken(k Kind, b []byte) Token {
	if len(b) == 0 {
		return Token{h: uint64(k), p: mem.Of(&zeroByte)}
	}
	return Token{h: uint64(k), p: mem.BytesData(b), n: len(b)}
}

func headerToken(k Kind, n int, form Form, delim Delimiter, fields []Field) Token {
	t := Token{h: uint64(k) | uint64(form)<<8 | uint64(delim)<<16, n: n}
	if len(fields) > 0 {
		t.p = mem.SliceData(fields)
		t.h |= uint64(len(fields)) << 32
	}
	return t
}

// ObjectStartToken returns the token that opens an ordinary (indented) object.
func ObjectStartToken() Token { return Token{h: uint64(KindObjectStart), n: -1} }

// KeyedStartToken returns the token that opens an object written in keyed
// tabular form with n entries, the given delimiter and field list.
func KeyedStartToken(n int, delim Delimiter, fields []Field) Token {
	return headerToken(KindObjectStart, n, FormKeyed, delim, fields)
}

// ObjectEndToken returns the token that closes an object.
func ObjectEndToken() Token { return Token{h: uint64(KindObjectEnd)} }

// ArrayStartToken returns the token that opens an array of n elements laid
// out in the given form. fields is the header's field list for FormTabular
// and nil otherwise. For FormEmpty, n is 0.
func ArrayStartToken(n int, form Form, delim Delimiter, fields []Field) Token {
	return headerToken(KindArrayStart, n, form, delim, fields)
}

// ArrayEndToken returns the token that closes an array.
func ArrayEndToken() Token { return Token{h: uint64(KindArrayEnd)} }

// KeyToken returns an object key token. The token refers to b.
func KeyToken(b []byte) Token { return textToken(KindKey, b) }

// StringToken returns a string value token. The token refers to b.
func StringToken(b []byte) Token { return textToken(KindString, b) }

// NumberToken returns a number token whose text is b, which must follow the
// number grammar of the specification (§4). The token refers to b.
func NumberToken(b []byte) Token { return textToken(KindNumber, b) }

// BoolToken returns a boolean token.
func BoolToken(v bool) Token {
	if v {
		return Token{h: uint64(KindBool), n: 1}
	}
	return Token{h: uint64(KindBool)}
}

// NullToken returns the null token.
func NullToken() Token { return Token{h: uint64(KindNull)} }

// Kind reports what the token is.
func (t Token) Kind() Kind { return Kind(t.h) }

// Form reports the layout of an ArrayStart or ObjectStart token.
func (t Token) Form() Form { return Form(t.h >> 8) }

// Delim reports the active delimiter declared by an array or keyed header.
// It is 0 for tokens that did not come from a header.
func (t Token) Delim() Delimiter { return Delimiter(t.h >> 16) }

// Len reports the declared length of an ArrayStart token, or the declared
// entry count of a keyed ObjectStart token; it is -1 for an ordinary
// object and 0 for other tokens.
func (t Token) Len() int {
	switch t.kind() {
	case KindArrayStart, KindObjectStart:
		return t.n
	}
	return 0
}

// Fields returns the header's field list of a tabular ArrayStart or keyed
// ObjectStart token. The result is a view valid until the next call to
// Decoder.Token, and must not be modified: the decoder shares one field
// list among headers that spell it alike. Clone the token to keep or
// change the list.
func (t Token) Fields() []Field {
	if t.nf() == 0 || (t.kind() != KindArrayStart && t.kind() != KindObjectStart) {
		return nil
	}
	return mem.SliceAt[Field](t.p, t.nf())
}

// text returns the token's text without checking its kind.
func (t Token) text() []byte {
	if t.p.IsNil() {
		return nil
	}
	return mem.BytesAt(t.p, t.n)
}

// Bytes returns the text of a Key, String or Number token: the unescaped
// string or the number exactly as written. It is a view valid until the
// next call to Decoder.Token. Other kinds return nil.
func (t Token) Bytes() []byte {
	switch t.kind() {
	case KindKey, KindString, KindNumber:
		return t.text()
	}
	return nil
}

// String returns the text of a Key, String or Number token as a new string,
// "true"/"false" for a Bool and "null" for a Null. For other kinds it
// returns the kind's name in angle brackets.
func (t Token) String() string {
	switch t.kind() {
	case KindKey, KindString, KindNumber:
		return string(t.text())
	case KindBool:
		if t.n != 0 {
			return "true"
		}
		return "false"
	case KindNull:
		return "null"
	}
	return "<" + t.kind().String() + ">"
}

// Bool returns the value of a Bool token (false for every other kind).
func (t Token) Bool() bool { return t.kind() == KindBool && t.n != 0 }

// Int parses a Number token as an int64. It fails for other kinds, for
// numbers with a fraction, and for numbers out of range.
func (t Token) Int() (int64, error) {
	if t.kind() != KindNumber {
		return 0, errNotNumber(t.kind())
	}
	return Number(t.text()).Int64()
}

// Uint parses a Number token as a uint64.
func (t Token) Uint() (uint64, error) {
	if t.kind() != KindNumber {
		return 0, errNotNumber(t.kind())
	}
	return Number(t.text()).Uint64()
}

// Float parses a Number token as a float64 (the nearest value). A number
// float64 cannot hold (see Decoder.Decode) is an error wrapping
// strconv.ErrRange, with ±Inf or 0.
func (t Token) Float() (float64, error) {
	if t.kind() != KindNumber {
		return 0, errNotNumber(t.kind())
	}
	return parseFloat(t.text(), 64)
}

// Clone returns a copy of t that owns its bytes and fields, and so stays
// valid after the next call to Decoder.Token.
func (t Token) Clone() Token {
	switch t.kind() {
	case KindKey, KindString, KindNumber:
		return textToken(t.kind(), append([]byte(nil), t.text()...))
	case KindArrayStart, KindObjectStart:
		if t.nf() > 0 {
			fs := cloneFields(t.Fields())
			t.p = mem.SliceData(fs)
		}
	}
	return t
}

func cloneFields(fs []Field) []Field {
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i].Name = append([]byte(nil), f.Name...)
		if f.Fields != nil {
			out[i].Fields = cloneFields(f.Fields)
		}
	}
	return out
}
