package toon

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// The decoder's fast paths held to its general path on the documents of
// the benchmark matrix: international text, digit-leading strings, sparse
// pipe tables, escaped free text, numbers of every form, nested records,
// long embeddings, lists of arrays, configuration trees. testdata/matrix holds a small copy of each dataset,
// which the bench module's TestMatrixTestdata keeps equal to what its
// generators make.

// matrixDocs returns the matrix's documents by dataset name, failing when
// the directory does not hold all fifteen.
func matrixDocs(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "matrix", "*.toon"))
	if err != nil || len(files) != 15 {
		t.Fatalf("testdata/matrix holds %d documents, want 15 (%v)", len(files), err)
	}
	docs := make(map[string][]byte)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[strings.TrimSuffix(filepath.Base(f), ".toon")] = data
	}
	return docs
}

// pathsResult is what a decoder gives for a document: every token with
// the positions after it (renderRuns's form), its error, and Decode's
// value and error.
type pathsResult struct {
	tokens  string
	err     error
	value   any
	decErr  error
	decoder string // the decoder that gave it, for the messages
}

// pathsResultOf decodes data twice with decoders that dec makes: every
// token with a limit for data's length, then the value with Decode.
func pathsResultOf(t *testing.T, name string, data []byte, dec func() *Decoder) pathsResult {
	t.Helper()
	r := pathsResult{decoder: name}
	r.tokens, r.err = renderRuns(t, dec(), fuzzTokenLimit(len(data)))
	r.decErr = dec().Decode(&r.value)
	return r
}

// generalResult decodes data on the general path alone: no line runs, no
// table fast path (and so no typeRows), with Go's twins of the kernels.
func generalResult(t *testing.T, data []byte, opts []Option) pathsResult {
	t.Helper()
	restore := useKernels("generic")
	defer restore()
	var r pathsResult
	withoutLineRuns(func() {
		r = pathsResultOf(t, "general path", data, func() *Decoder { return withoutFastPath(newBytesDecoder(data, opts)) })
	})
	return r
}

// fastResults decodes data with the fast paths, with the kernels that
// run now: all of them, through a byte slice, a reader and a reader of a
// few bytes at a time; and each alone (line runs without the table fast
// path, the fast path without line runs, the fast path without typeRows).
func fastResults(t *testing.T, data []byte, opts []Option) []pathsResult {
	t.Helper()
	result := func(name string, dec func() *Decoder) pathsResult { return pathsResultOf(t, name, data, dec) }
	rs := []pathsResult{
		result("bytes", func() *Decoder { return newBytesDecoder(data, opts) }),
		result("reader", func() *Decoder { return NewDecoder(bytes.NewReader(data), opts...) }),
		result("chunked reader", func() *Decoder {
			return NewDecoder(&chunkReader{data: data, pattern: []byte{3, 1, 6, 2, 5}}, opts...)
		}),
		result("line runs alone", func() *Decoder { return withoutFastPath(newBytesDecoder(data, opts)) }),
	}
	withoutLineRuns(func() {
		rs = append(rs, result("table fast path alone", func() *Decoder { return newBytesDecoder(data, opts) }))
	})
	withoutTypeRows(func() {
		rs = append(rs, result("fast paths without typeRows", func() *Decoder { return newBytesDecoder(data, opts) }))
	})
	return rs
}

// checkMatrixPaths requires every fast decoder of data (fastResults), with
// each set of kernels that runs here, to give what the general path gives.
func checkMatrixPaths(t *testing.T, what string, data []byte, opts ...Option) {
	t.Helper()
	want := generalResult(t, data, opts)
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		got := fastResults(t, data, opts)
		restore()
		for _, g := range got {
			if g.tokens != want.tokens {
				t.Fatalf("%s, kernels %s, %s: the tokens differ from the general path's:\n%s", what, mode, g.decoder,
					firstDiff(g.tokens, want.tokens))
			}
			if errText(g.err) != errText(want.err) {
				t.Fatalf("%s, kernels %s, %s: error %v, the general path's %v", what, mode, g.decoder, g.err, want.err)
			}
			if errText(g.decErr) != errText(want.decErr) || !reflect.DeepEqual(g.value, want.value) {
				t.Fatalf("%s, kernels %s, %s: Decode gives another value or error (%v; the general path's %v)",
					what, mode, g.decoder, g.decErr, want.decErr)
			}
		}
	}
}

// firstDiff shows the first line where two renderings differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "token " + strconv.Itoa(i) + ":\n got " + gl + "\nwant " + wl
		}
	}
	return "(no line differs)"
}

// perturbLine returns a copy of doc with one change where a decoder can go
// wrong, at a random line: the line dropped or repeated (wrong counts,
// duplicate keys, missing and extra rows), one of its bytes replaced by a
// byte with a meaning (a quote, a delimiter, a colon, a backslash, a tab,
// a space, a hyphen, a hash, an ill-formed UTF-8 byte), its indentation one
// space deeper or shallower, a blank or comment line before it, or the
// document cut inside it. It also says what it changed.
func perturbLine(rng *rand.Rand, doc []byte) ([]byte, string) {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	i := rng.Intn(len(lines))
	line := lines[i]
	var out [][]byte
	out = append(out, lines[:i]...)
	change := rng.Intn(7)
	what := "line " + strconv.Itoa(i+1) + " " + [...]string{"dropped", "repeated", "with a byte replaced",
		"one space deeper", "one space shallower", "after a blank or comment line", "cut"}[change]
	switch change {
	case 0: // dropped
	case 1: // repeated
		out = append(out, line, line)
	case 2: // a byte replaced
		l := bytes.Clone(line)
		if len(l) > 0 {
			l[rng.Intn(len(l))] = "\"\\,|:-# \t\xff"[rng.Intn(10)]
		}
		out = append(out, l)
	case 3: // one space deeper
		out = append(out, append([]byte(" "), line...))
	case 4: // one space shallower, where it has one
		out = append(out, bytes.TrimPrefix(line, []byte(" ")))
	case 5: // a blank or comment line before it
		lead := line[:len(line)-len(bytes.TrimLeft(line, " "))]
		if rng.Intn(2) == 0 {
			out = append(out, []byte("\n"), line)
		} else {
			out = append(out, append(append(bytes.Clone(lead), "# note"...), '\n'), line)
		}
	case 6: // cut inside it: the document ends there
		return bytes.Join(append(out, line[:rng.Intn(len(line)+1)]), nil), what
	}
	out = append(out, lines[i+1:]...)
	return bytes.Join(out, nil), what
}

// TestFastPathsOnMatrix holds the decoder's fast paths (line runs, the
// table fast path, typeRows, and the kernels under each) to its general
// path on each document of the matrix and on copies with one line
// perturbed (perturbLine), which bring errors at every kind of line, in
// strict mode and, every other copy, in non-strict mode: the same tokens,
// the same positions after each (Line, InputOffset, the position an error
// would give the token), the same error, and the same value from Decode.
func TestFastPathsOnMatrix(t *testing.T) {
	perturbed := longtest.Size(t, 2, 40)
	for name, data := range matrixDocs(t) {
		t.Run(name, func(t *testing.T) {
			checkMatrixPaths(t, name, data, WithStrict(true))
			rng := rand.New(rand.NewSource(int64(len(data))))
			for i := 0; i < perturbed; i++ {
				doc, what := perturbLine(rng, data)
				checkMatrixPaths(t, name+", "+what, doc, WithStrict(true))
				if i%2 == 1 {
					checkMatrixPaths(t, name+", "+what+" (non-strict)", doc, WithStrict(false))
				}
			}
		})
	}
}
