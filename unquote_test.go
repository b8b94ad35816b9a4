package toon

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"
	"unicode/utf8"
)

// unquoteRef is unquote written a byte at a time: the specification its
// word-at-a-time copying must match. A string without a closing quote is
// ErrUnterminated, and so is one whose bad escape no quote follows.
func unquoteRef(b []byte) (s []byte, next int, bad int, err error) {
	if bytes.IndexByte(b[1:], '"') < 0 {
		return nil, len(b), 0, ErrUnterminated
	}
	var out []byte
	for i := 1; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			if out == nil {
				out = []byte{}
			}
			return out, i + 1, 0, nil
		case '\\':
			if i+1 >= len(b) {
				return nil, len(b), 0, ErrUnterminated
			}
			switch b[i+1] {
			case '\\', '"':
				out = append(out, b[i+1])
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if i+6 > len(b) {
					return refBadEscape(b, i)
				}
				r := rune(0)
				for k := i + 2; k < i+6; k++ {
					h := hexVal(b[k])
					if h < 0 {
						return refBadEscape(b, i)
					}
					r = r<<4 | rune(h)
				}
				if r >= 0xD800 && r <= 0xDFFF {
					return refBadEscape(b, i)
				}
				out = utf8.AppendRune(out, r)
				i += 4
			default:
				return refBadEscape(b, i)
			}
			i++
		default:
			out = append(out, c)
		}
	}
	return nil, len(b), 0, ErrUnterminated
}

func refBadEscape(b []byte, i int) ([]byte, int, int, error) {
	if bytes.IndexByte(b[i+1:], '"') < 0 {
		return nil, len(b), 0, ErrUnterminated
	}
	return nil, 0, i, ErrEscape
}

// checkUnquote fails unless unquote gives for b what unquoteRef gives,
// with or without (and with a random) scratch buffer, which it must not
// shorten.
func checkUnquote(t *testing.T, rng *rand.Rand, b []byte) {
	t.Helper()
	var scratch []byte
	if rng.Intn(2) == 0 {
		scratch = make([]byte, rng.Intn(5), 5+rng.Intn(2*len(b)))
	}
	before := len(scratch)
	s, next, bad, err := unquote(b, &scratch)
	ws, wnext, wbad, werr := unquoteRef(b)
	if !bytes.Equal(s, ws) || (s == nil) != (ws == nil) || next != wnext || bad != wbad || !errors.Is(err, werr) || (err == nil) != (werr == nil) {
		t.Fatalf("unquote(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", b, s, next, bad, err, ws, wnext, wbad, werr)
	}
	if len(scratch) < before {
		t.Fatalf("unquote(%q) shortened scratch", b)
	}
	checkUnquoteIndexed(t, b, ws, wnext, werr)
}

// checkUnquoteIndexed checks unquoteIndexed on b, given unquoteRef's
// result for it: the same string whenever it takes b, and it takes every
// cell that is one string with only one-letter escapes. Its index lists
// every quote, backslash and byte >= 0x80 (the kernels list only the first
// of a run of the last, which it does not need), offset by a base.
func checkUnquoteIndexed(t *testing.T, b, ws []byte, wnext int, werr error) {
	t.Helper()
	const base = 1000
	var idx []uint32
	for i, c := range b {
		if c == '"' || c == '\\' || c >= 0x80 {
			idx = append(idx, uint32(base+i))
		}
	}
	scratch := make([]byte, 3, 3+len(b))
	s, ok := unquoteIndexed(b, idx, base, &scratch)
	whole := werr == nil && wnext == len(b)
	switch {
	case ok && (!whole || !bytes.Equal(s, ws)):
		t.Fatalf("unquoteIndexed(%q) = %q; want %q (whole cell: %v)", b, s, ws, whole)
	case !ok && whole && !bytes.Contains(b, []byte(`\u`)):
		t.Fatalf("unquoteIndexed(%q) left a cell of one-letter escapes to unquote", b)
	case !ok && len(scratch) != 3:
		t.Fatalf("unquoteIndexed(%q) wrote to scratch and failed", b)
	}
}

// TestUnquoteDifferential compares unquote with unquoteRef on random
// quoted tokens with escapes at every distance from each other and from
// the ends (so that each falls at every place in a word), followed by
// more text or not, with a scratch buffer with and without room.
func TestUnquoteDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	pieces := []string{"a", "bc", "defghij", "klmnopqrstuvwx", "é", "福", `\"`, `\\`, `\n`, `\t`, `\r`,
		`\u00e9`, `\u798F`, `\ud800`, `\q`, `\u12`, `\`, `"`, ",", " "}
	for i := 0; i < 200000; i++ {
		b := []byte{'"'}
		for n := rng.Intn(10); n > 0; n-- {
			if rng.Intn(10) == 0 {
				b = append(b, pieces[11+rng.Intn(len(pieces)-11)]...)
			} else {
				b = append(b, pieces[rng.Intn(11)]...)
			}
		}
		if rng.Intn(4) != 0 {
			b = append(b, '"')
		}
		if rng.Intn(3) == 0 {
			b = append(b, ",x,\"y\""...)
		}
		checkUnquote(t, rng, b)
	}
}

// TestUnquoteScratchStays checks that unquote does not move a scratch
// buffer with room for the whole token, as the fast path requires.
func TestUnquoteScratchStays(t *testing.T) {
	b := []byte(`"one \"two\" three\n\tfour \\ five \u00e9 six seven eight"`)
	scratch := make([]byte, 3, 3+len(b))
	p := &scratch[:1][0]
	s, _, _, err := unquote(b, &scratch)
	if err != nil || &scratch[:1][0] != p {
		t.Fatalf("scratch moved or error %v", err)
	}
	if want := "one \"two\" three\n\tfour \\ five é six seven eight"; string(s) != want {
		t.Fatalf("got %q, want %q", s, want)
	}
}

func FuzzUnquote(f *testing.F) {
	f.Add([]byte(`"a\"b\\c\n\u00e9 long text here"`))
	f.Add([]byte(`"\`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return
		}
		var scratch []byte
		s, next, bad, err := unquote(b, &scratch)
		ws, wnext, wbad, werr := unquoteRef(b)
		if !bytes.Equal(s, ws) || next != wnext || bad != wbad || !errors.Is(err, werr) || (err == nil) != (werr == nil) {
			t.Fatalf("unquote(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", b, s, next, bad, err, ws, wnext, wbad, werr)
		}
		checkUnquoteIndexed(t, b, ws, wnext, werr)
	})
}

// TestUnquoteLongDifferential compares unquote with unquoteRef on long
// quoted tokens, for every set of kernels that runs here: runs of text of
// every length between escapes (so that escapes, runs of backslashes and
// the closing quote fall at every place in a 64-byte block and across
// blocks), \u escapes and bad escapes among them, with a scratch buffer
// with and without room.
func TestUnquoteLongDifferential(t *testing.T) {
	esc := []string{`\"`, `\\`, `\n`, `\t`, `\r`, `\\\\`, `\\\"`, `\u00e9`}
	bad := []string{`\u12`, `\q`, `\ud800`, `\/`, `\`, "\\\x00", "\\\xee"}
	text := "abcdefghijklmnopqrstuvwxyz0123456789 ,:é福😀ABCDEFGHIJKLMNOPQRSTUVWXYZ.-"
	for _, mode := range kernelModes() {
		t.Run(mode, func(t *testing.T) {
			defer useKernels(mode)()
			rng := rand.New(rand.NewSource(18))
			for i := 0; i < 30000; i++ {
				b := []byte{'"'}
				for n := 1 + rng.Intn(20); n > 0; n-- {
					run := rng.Intn(70)
					if rng.Intn(3) == 0 {
						run = rng.Intn(4)
					}
					for k := 0; k < run; k++ {
						b = append(b, text[rng.Intn(len(text))])
					}
					if rng.Intn(200) == 0 {
						b = append(b, bad[rng.Intn(len(bad))]...)
					} else {
						b = append(b, esc[rng.Intn(len(esc))]...)
					}
				}
				if rng.Intn(8) != 0 {
					b = append(b, '"')
				}
				if rng.Intn(2) == 0 {
					b = append(b, ",x,\"y\\n\""...)
				}
				checkUnquote(t, rng, b)
			}
		})
	}
}
