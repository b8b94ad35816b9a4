package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/go-json-experiment/json/jsontext"
)

// lexTokens drains a lexer over in, read through a buffer of bufSize
// bytes, and returns its tokens in the notation of refTokens.
func lexTokens(in []byte, bufSize int, r io.Reader) ([]string, error) {
	if r == nil {
		r = bytes.NewReader(in)
	}
	l := newLexer(r, make([]byte, 0, bufSize))
	var toks []string
	var scr []byte
	for {
		k, err := l.next()
		if err != nil {
			return toks, err
		}
		switch k {
		case tkEOF:
			return toks, nil
		case tkKey, tkString:
			s, err := l.unescaped(&scr)
			if err != nil {
				return toks, err
			}
			toks = append(toks, string(k)+string(s))
		case tkNumber:
			toks = append(toks, "0"+string(l.text()))
		case tkTrue, tkFalse, tkNull:
			toks = append(toks, string(l.text()))
		default:
			toks = append(toks, string(k))
		}
	}
}

// refTokens reads in with jsontext (repeated names allowed: the lexer
// leaves them to the planner) as one document: a root value and nothing
// after it.
func refTokens(in []byte) ([]string, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(in), jsontext.AllowDuplicateNames(true))
	var toks []string
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return toks, io.ErrUnexpectedEOF
		}
		if err != nil {
			return toks, err
		}
		switch k := tok.Kind(); k {
		case '"':
			// A string is a name when it leaves its object with an odd
			// count of names and values.
			if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 1 {
				toks = append(toks, ":"+tok.String())
			} else {
				toks = append(toks, `"`+tok.String())
			}
		case '0':
			toks = append(toks, "0"+tok.String())
		case 't', 'f', 'n':
			toks = append(toks, tok.String())
		default:
			toks = append(toks, string(k))
		}
		if dec.StackDepth() == 0 {
			break
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return toks, fmt.Errorf("after the root value: %v", err)
	}
	return toks, nil
}

// checkLexer compares the lexer with jsontext on in: both accept it with
// the same tokens, or both reject it.
func checkLexer(t *testing.T, in []byte) {
	t.Helper()
	want, werr := refTokens(in)
	for _, size := range []int{16, 4096} {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader
			if oneByte {
				r = iotest.OneByteReader(bytes.NewReader(in))
			}
			got, gerr := lexTokens(in, size, r)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("%q (buffer %d, one byte %v): lexer error %v, jsontext error %v", in, size, oneByte, gerr, werr)
			}
			if gerr != nil {
				var se *syntaxError
				if !errors.As(gerr, &se) {
					t.Fatalf("%q: lexer error %T %v is not a *syntaxError", in, gerr, gerr)
				}
				continue
			}
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("%q (buffer %d): tokens\n got  %q\n want %q", in, size, got, want)
			}
		}
	}
}

// lexerCases are documents at the edges of JSON's grammar, valid or not.
var lexerCases = []string{
	``, ` `, `1`, `-`, `-0`, `-01`, `01`, `0.`, `0.5`, `.5`, `1e`, `1e+`, `1e+5`, `1E-05`, `1.5e3x`,
	`-1.0e-0`, `1..2`, `1ee2`, `+1`, `1 2`, `1,`, `[1 2]`, `[1,]`, `[,1]`, `[]`, `[ ]`, `[[]]`, `{}`,
	`{ }`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{"a":1,}`, `{,"a":1}`, `{"a":1 "b":2}`, `{1:2}`,
	`{"a":1}}`, `[1]]`, `[}`, `{]`, `"abc`, `"a\"b"`, `"\u0041\u00e9\ud83d\ude00"`, `"\ud83d"`,
	`"\ude00"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"\ud83d\"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"\/\b\f\n\r\t"`,
	"\"\t\"", "\"\x00\"", "\"\x7f\"", "\"\xff\"", "\"\xc3\xa9\"", "\"\xc3\"", "\"\xed\xa0\x80\"",
	"\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "\"\xef\xbf\xbd\"", `tru`, `true`, `truex`, `nul`, `null`,
	`nulll`, `false`, `fals`, `[true,false,null]`, "\ufeff1", " \t\r\n1\n", "1\x00", `[1,{"a":[2,{"b":null}]}]`,
	`{"a":{"a":{"a":{}}}}`, `{"a":1,"a":2}`, `"` + strings.Repeat("x", 100) + `"`,
	`"` + strings.Repeat("é", 50) + `\n"`, `[` + strings.Repeat(`"ab\"c",`, 30) + `1]`,
	`[123456789012345678901234567890.123456789e-123456]`, "{\n  \"k\" :\t[ 1 , 2 ]\r\n}",
}

// deepCases are at jsontext's nesting limit and one beyond it.
var deepCases = []string{
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

func TestLexerMatchesJSONText(t *testing.T) {
	for _, c := range append(lexerCases, deepCases...) {
		checkLexer(t, []byte(c))
	}
	for _, c := range corpus {
		checkLexer(t, []byte(c))
	}
	// Random documents and their mutations: a byte changed, dropped or
	// repeated.
	rng := rand.New(rand.NewSource(2))
	alphabet := []byte("{}[],:\"\\ \t\n0123456789-+.eEtrufalsn\x00\x1f\x7f\xc3\xa9\xff")
	for i := 0; i < 3000; i++ {
		doc := randomDoc(rng)
		checkLexer(t, doc)
		if len(doc) == 0 {
			continue
		}
		checkLexer(t, mutateByte(rng, doc, alphabet))
	}
}

// mutateByte returns a copy of b (not empty) with one byte, chosen by rng,
// replaced by one of alphabet, dropped or repeated.
func mutateByte(rng *rand.Rand, b, alphabet []byte) []byte {
	m := append([]byte(nil), b...)
	j := rng.Intn(len(m))
	switch rng.Intn(3) {
	case 0:
		m[j] = alphabet[rng.Intn(len(alphabet))]
	case 1:
		m = append(m[:j], m[j+1:]...)
	default:
		m = append(m[:j+1], m[j:]...)
	}
	return m
}

// FuzzLexer holds the lexer to jsontext's language and tokens.
func FuzzLexer(f *testing.F) {
	for _, c := range lexerCases {
		f.Add([]byte(c))
	}
	for _, c := range corpus {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkLexer(t, in)
	})
}
