package toon

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
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
	ws, wnext, wbad, werr := unquoteRef(b)
	// b as it is, and b in a longer array whose bytes after it are quotes
	// and backslashes, which unquote may read but must not take.
	padded := make([]byte, len(b), len(b)+24)
	copy(padded, b)
	for i := len(b); i < cap(padded); i++ {
		padded[:cap(padded)][i] = `"\`[i%2]
	}
	for _, b := range [][]byte{b, padded} {
		var scratch []byte
		if rng.Intn(2) == 0 {
			scratch = make([]byte, rng.Intn(5), 5+rng.Intn(2*len(b)))
		}
		before := len(scratch)
		s, next, bad, err := unquote(b, &scratch)
		if !bytes.Equal(s, ws) || (s == nil) != (ws == nil) || next != wnext || bad != wbad || !errors.Is(err, werr) || (err == nil) != (werr == nil) {
			t.Fatalf("unquote(%q, cap %d) = %q, %d, %d, %v; want %q, %d, %d, %v", b, cap(b), s, next, bad, err, ws, wnext, wbad, werr)
		}
		if len(scratch) < before {
			t.Fatalf("unquote(%q) shortened scratch", b)
		}
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
	f.Add([]byte(`"` + strings.Repeat(`ab\"cd\\ef\ngh\tij`, 8) + `"`))
	modes := kernelModes()
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			return
		}
		ws, wnext, wbad, werr := unquoteRef(b)
		for _, mode := range modes {
			restore := useKernels(mode)
			var scratch []byte
			s, next, bad, err := unquote(b, &scratch)
			restore()
			if !bytes.Equal(s, ws) || next != wnext || bad != wbad || !errors.Is(err, werr) || (err == nil) != (werr == nil) {
				t.Fatalf("%s: unquote(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", mode, b, s, next, bad, err, ws, wnext, wbad, werr)
			}
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

// unescapeStops runs unescape's loop on src, a string's body from a byte
// that no backslash escapes, as far as a block kernel may go: to the
// closing quote, a backslash that escapes nothing or whose escape is not
// one of \\ \" \n \r \t, or src's end. It returns the decoded text, and
// for each offset of src at which the kernel may stop (none inside an
// escape) the length of the text decoded before it, or -1.
func unescapeStops(src []byte) (text []byte, at []int) {
	at = make([]int, len(src)+1)
	for k := range at {
		at[k] = -1
	}
	i := 0
	for i < len(src) {
		at[i] = len(text)
		c := src[i]
		if c == '"' {
			return text, at
		}
		if c != '\\' {
			text = append(text, c)
			i++
			continue
		}
		if i+1 >= len(src) || unescaped[src[i+1]] == 0 {
			return text, at
		}
		text = append(text, unescaped[src[i+1]])
		i += 2
	}
	at[i] = len(text)
	return text, at
}

// checkUnescapeKernel calls k on src with a dst of room bytes (within a
// larger buffer) and fails unless it decoded a prefix of what unescape's
// loop decodes, stopped where the loop may stop, went as far as the loop
// unless dst's room or src's length stopped it, and wrote nothing past
// out+k.block. It returns the kernel's result.
func checkUnescapeKernel(t *testing.T, k unescapeImpl, src []byte, room int) (in, out int) {
	t.Helper()
	const fill = 0xa5
	buf := make([]byte, room+96)
	for j := range buf {
		buf[j] = fill
	}
	dst := buf[:room:room]
	in, out = k.fn(src, dst)
	text, at := unescapeStops(src)
	last := len(src)
	for at[last] < 0 {
		last--
	}
	switch {
	case in < 0 || in > len(src) || at[in] < 0:
		t.Fatalf("%s(%q, room %d): stopped at %d, inside an escape or past the loop's stop", k.name, src, room, in)
	case out != at[in] || !bytes.Equal(dst[:out], text[:out]):
		t.Fatalf("%s(%q, room %d) = %d, %d: decoded %q, want %q", k.name, src, room, in, out, dst[:out], text[:at[in]])
	case in < last && room-out >= k.block && !(k.shortSrc && len(src) < k.block && in == 0):
		t.Fatalf("%s(%q, room %d) = %d, %d: stopped before %d with room", k.name, src, room, in, out, last)
	}
	for j := out + k.block; j < len(buf); j++ {
		if buf[j] != fill {
			t.Fatalf("%s(%q, room %d) = %d, %d: wrote byte %d", k.name, src, room, in, out, j)
		}
	}
	return in, out
}

// TestUnescapeKernels calls each block kernel of unescape that runs here
// on systematic cases, checked against unescape's loop: an escape, a run
// of 1 to 5 backslashes, a \u or bad escape, or a quote, at every offset
// in and across the first three blocks, among text with bytes >= 0x80,
// with src cut at every length after it and dst's room around the kernel's
// block; then on random text dense in backslashes and quotes. Where more
// than one kernel runs, they must stop at the same quote or escape.
func TestUnescapeKernels(t *testing.T) {
	kernels := unescapeKernels()
	if len(kernels) == 0 {
		t.Skip("no unescape kernel here")
	}
	text := []byte("abcdefghijklmnopqrstuvwxyz 0123456789\xc3\xa9\xe7\xa6\x8f\xf0\x9f\x98\x80ntr,:ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	pieces := []string{`\n`, `\"`, `\\`, `\t`, `\r`, `\`, `\\\`, `\\\\`, `\\\\\`, `\\n`, `\\\"`, `\\"`,
		`\u00e9`, `\q`, `\/`, "\\\x00", "\\\xee", `"`, `\\\\\\"`}
	for _, k := range kernels {
		for _, piece := range pieces {
			for p := 0; p < 3*64+2; p++ {
				src := make([]byte, 0, p+len(piece)+80)
				for j := 0; j < p; j++ {
					src = append(src, text[(j*7)%len(text)])
				}
				src = append(src, piece...)
				src = append(src, `ab\tcd`...)
				for j := 0; len(src) < cap(src); j++ {
					src = append(src, text[(j*5)%len(text)])
				}
				for n := p; n <= len(src); n++ {
					room := n + 64
					if n%3 == 0 {
						room = max(0, n-len(piece)+(n/7)%(2*k.block))
					}
					checkUnescapeKernel(t, k, src[:n:n], room)
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(19))
	alphabet := []byte("\\\\\\\"nrtuqa\xe9 x")
	for i := 0; i < 300000; i++ {
		src := make([]byte, rng.Intn(200))
		dense := 1 + rng.Intn(40)
		for j := range src {
			if rng.Intn(dense) == 0 {
				src[j] = alphabet[rng.Intn(len(alphabet))]
			} else {
				src[j] = text[rng.Intn(len(text))]
			}
		}
		room := len(src) + 64
		if rng.Intn(4) == 0 {
			room = rng.Intn(len(src) + 100)
		}
		var stops [2]int
		for j, k := range kernels {
			stops[j], _ = checkUnescapeKernel(t, k, src, room)
		}
		if len(kernels) == 2 && stops[0] != stops[1] && room >= len(src)+64 && len(src) >= 32 {
			t.Fatalf("%q: %s stopped at %d, %s at %d", src, kernels[0].name, stops[0], kernels[1].name, stops[1])
		}
	}
}

// FuzzUnescapeKernels checks each block kernel of unescape that runs here
// against unescape's loop, on any src and room in dst.
func FuzzUnescapeKernels(f *testing.F) {
	f.Add([]byte(`abc\"def\\\\ghi\njkl`+strings.Repeat(`x\t`, 40)+`"`), uint8(200))
	f.Add([]byte(strings.Repeat(`\\\`, 30)+`q`), uint8(70))
	kernels := unescapeKernels()
	f.Fuzz(func(t *testing.T, src []byte, room uint8) {
		for _, k := range kernels {
			checkUnescapeKernel(t, k, src, int(room))
		}
	})
}
