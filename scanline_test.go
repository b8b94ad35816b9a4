package toon

import (
	"math/bits"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/longtest"
)

// scanLineOracle is the trivially correct byte loop the other
// implementations are checked against: it walks the line once, keeping the
// quoted-region state, exactly as the contract of scanLine describes.
func scanLineOracle(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	r := lineScan{colon: -1, bracket: -1}
	inq := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '"' {
			r.quote = true
		}
		if inq {
			switch c {
			case '\\':
				i++
			case '"':
				inq = false
			}
			continue
		}
		switch c {
		case '"':
			inq = true
		case ':':
			if r.colon < 0 {
				r.colon = i
			}
		case '[':
			if r.bracket < 0 {
				r.bracket = i
			}
		}
		if delim != 0 && c == delim {
			seps = append(seps, int32(i))
		}
	}
	r.open = inq
	return seps, r
}

// scanLineBlockModel is the algorithm of the assembly kernels written in
// Go, one 64-byte block at a time with bitmasks: escaped bytes from the
// parity of backslash runs (carried between blocks), quoted regions by
// prefix-xor of the unescaped quotes (carried between blocks), then a
// correction for escaped quotes that stand outside any region and so are
// real: the arithmetic of quoteRegions, which the row index also uses. It
// is tested like the kernels so that an algorithm error and an assembly
// error can be told apart.
func scanLineBlockModel(line []byte, delim byte, seps []int32) ([]int32, lineScan) {
	r := lineScan{colon: -1, bracket: -1}
	if delim == '"' {
		return scanLineGeneric(line, delim, seps)
	}
	var st idxState // the regions and escapes carried from block to block
	for base := 0; base < len(line); base += 64 {
		var q, b, d, c, k uint64
		for i := 0; i < 64 && base+i < len(line); i++ {
			bit := uint64(1) << i
			switch ch := line[base+i]; {
			case ch == '"':
				q |= bit
			case ch == '\\':
				b |= bit
			case ch == ':':
				c |= bit
			case ch == '[':
				k |= bit
			}
			if delim != 0 && line[base+i] == delim {
				d |= bit
			}
		}
		inside := quoteRegions(q, b, &st)
		if q != 0 {
			r.quote = true
		}
		unq := ^inside
		for m := d & unq; m != 0; m &= m - 1 {
			seps = append(seps, int32(base+bits.TrailingZeros64(m)))
		}
		if m := c & unq; m != 0 && r.colon < 0 {
			r.colon = base + bits.TrailingZeros64(m)
		}
		if m := k & unq; m != 0 && r.bracket < 0 {
			r.bracket = base + bits.TrailingZeros64(m)
		}
	}
	r.open = st.inq != 0
	return seps, r
}

// testedScanImpls is every implementation the differential tests compare
// with the oracle: scanLine itself, the kernels it can dispatch to (called
// at every length), the word walk scanLine uses for short lines (also at
// every length), and the Go model of the kernels.
func testedScanImpls() []scanImpl {
	all := append([]scanImpl{{"scanLine", scanLine}}, scanKernels()...)
	all = append(all, scanImpl{"short", scanLineShort})
	return append(all, scanImpl{"blockmodel", scanLineBlockModel})
}

var testDelims = []byte{',', '\t', '|', 0}

// sentinel fills the spare capacity of the seps slices handed to the
// implementations, so that a write past the result's length shows.
const sentinel = int32(-0x5a5a5a5b)

// checkScan runs every implementation on line and fails t when one differs
// from the oracle, writes past its result's length, or disturbs the prefix
// of seps it was given.
func checkScan(t testing.TB, impls []scanImpl, line []byte, delim byte) {
	t.Helper()
	want, wr := scanLineOracle(line, delim, []int32{7})
	for _, im := range impls {
		for _, spare := range []int{0, 3, 80} {
			seps := make([]int32, 1, 1+spare)
			seps[0] = 7
			full := seps[:cap(seps)]
			for i := 1; i < len(full); i++ {
				full[i] = sentinel
			}
			got, gr := im.fn(line, delim, seps)
			if gr != wr || !slices.Equal(got, want) {
				t.Fatalf("%s: delim %q, line %q (len %d):\n got %v %+v\nwant %v %+v",
					im.name, delim, line, len(line), got, gr, want, wr)
			}
			if len(got) <= cap(seps) { // grown in place: check the spare capacity
				for i, v := range full[len(got):] {
					if v != sentinel {
						t.Fatalf("%s: delim %q, line %q: wrote %d at seps[%d], past the result's length %d",
							im.name, delim, line, v, len(got)+i, len(got))
					}
				}
			}
		}
	}
}

// scanAlphabet is the set of bytes the generated lines are drawn from: every
// byte the scanners treat specially, CR, spaces, letters, digits and the
// bytes of multi-byte UTF-8 sequences.
var scanAlphabet = []string{
	",", "\t", "|", "\"", "\\", ":", "[", "\r", " ", "a", "Z", "0", "-", "{", "]",
	"é", "€", "😀", "\x00", "\xff",
}

// randomLine returns n bytes drawn from alphabet pieces, weighted so that
// quotes and backslashes are common enough to create nested runs.
func randomLine(rng *rand.Rand, n int, quoteRate int) []byte {
	b := make([]byte, 0, n+4)
	for len(b) < n {
		switch x := rng.Intn(100); {
		case x < quoteRate:
			b = append(b, '"')
		case x < 2*quoteRate:
			b = append(b, strings.Repeat("\\", 1+rng.Intn(4))...)
		default:
			b = append(b, scanAlphabet[rng.Intn(len(scanAlphabet))]...)
		}
	}
	return b[:n]
}

// edgeTokens are placed at and around the 64-byte block edges.
var edgeTokens = []string{
	`"`, `\"`, `\\"`, `\\\"`, `"\`, `"\\`, `"\\\`, `\`, `\\`, `\\\`,
	`:`, `[`, `,`, "\t", `|`, "\r", "é", "€", "😀", `"a,b"`, `"a\"b,`, `","`,
}

// edgeLines returns lines of length n that carry one token near each block
// edge, over fillers that are unquoted, quoted (an opening '"' first) and
// backslash-heavy, so each token is seen inside and outside regions.
func edgeLines(n int) [][]byte {
	fillers := []string{"ab,c|d\te:f[", "\"xy,z|w\tv:u[", "\\\\a,\\\"b,", "\"" + strings.Repeat("\\\\", 40)}
	var out [][]byte
	for _, f := range fillers {
		base := []byte(strings.Repeat(f, n/len(f)+1)[:n])
		out = append(out, base)
		for _, tok := range edgeTokens {
			for edge := 64; edge < n+64 && edge <= 320; edge += 64 {
				for d := -3; d <= 2; d++ {
					p := edge + d
					if p < 0 || p >= n {
						continue
					}
					line := slices.Clone(base)
					copy(line[p:], tok)
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// placed copies line into a fresh buffer at offset align, so the
// implementations see every alignment of the input relative to memory.
func placed(line []byte, align int) []byte {
	buf := make([]byte, align+len(line)+64)
	return append(buf[align:align], line...)
}

func TestScanLineDifferential(t *testing.T) {
	impls := testedScanImpls()
	names := make([]string, len(impls))
	for i, im := range impls {
		names[i] = im.name
	}
	t.Logf("implementations: %v", names)
	rng := rand.New(rand.NewSource(4))
	// The short form takes every 9th alignment (0, 9, ..., 63) and the edge
	// lines of every 7th length, which still put each token at each
	// offset around each block edge.
	step, edgeStep := longtest.Size(t, 9, 1), longtest.Size(t, 7, 1)
	for n := 0; n <= 300; n++ {
		// Random lines at every alignment.
		for align := 0; align < 64; align += step {
			line := placed(randomLine(rng, n, 8), align)
			for _, d := range testDelims {
				checkScan(t, impls, line, d)
			}
		}
		// Structured lines with tokens on block edges, at rotating alignments.
		for i, line := range edgeLines(n) {
			if n%edgeStep != 0 {
				break
			}
			for _, d := range testDelims {
				checkScan(t, impls, placed(line, (i*7+n)%64), d)
			}
		}
		// Quote-free and sparse-quote lines.
		for _, rate := range []int{0, 1} {
			line := placed(randomLine(rng, n, rate), n%64)
			for _, d := range testDelims {
				checkScan(t, impls, line, d)
			}
		}
	}
}

// TestScanLineLong covers lines far longer than a block, including runs that
// straddle many blocks and lines whose separators outnumber any initial
// capacity.
func TestScanLineLong(t *testing.T) {
	impls := testedScanImpls()
	rng := rand.New(rand.NewSource(7))
	cases := [][]byte{
		[]byte(strings.Repeat(",", 5000)),
		[]byte(strings.Repeat("a,", 3000) + "\"" + strings.Repeat("x,", 3000)),
		[]byte("\"" + strings.Repeat("\\", 1001) + "\",a,b:" + strings.Repeat("[,", 700)),
		[]byte("\"" + strings.Repeat("\\", 1000) + "\",a,b:" + strings.Repeat("[,", 700)),
		[]byte(strings.Repeat("\\", 999) + "\",:" + strings.Repeat(`\",`, 500)),
	}
	for i := 0; i < 20; i++ {
		cases = append(cases, randomLine(rng, 1000+rng.Intn(9000), 1+i%10))
	}
	for _, line := range cases {
		for _, d := range append(testDelims, '\\', ':', '"', '[') {
			checkScan(t, impls, line, d)
		}
	}
}

// TestScanLineOddDelims checks delimiters the line reader never uses but the
// contract allows ('"', '\', ':', '[', and arbitrary bytes), on the edge
// lines of a few lengths.
func TestScanLineOddDelims(t *testing.T) {
	impls := testedScanImpls()
	for _, n := range []int{1, 7, 8, 9, 63, 64, 65, 130, 200} {
		for _, line := range edgeLines(n) {
			for _, d := range []byte{'"', '\\', ':', '[', '\r', 'a', 0xff} {
				checkScan(t, impls, line, d)
			}
		}
	}
}

// TestScanLineExamples pins the contract on hand-checked lines, so that the
// oracle itself is checked, not only compared.
func TestScanLineExamples(t *testing.T) {
	type want struct {
		seps           []int32
		colon, bracket int
		quote, open    bool
	}
	cases := []struct {
		line  string
		delim byte
		want  want
	}{
		{"", ',', want{nil, -1, -1, false, false}},
		{"a,b,c", ',', want{[]int32{1, 3}, -1, -1, false, false}},
		{"a,b,c", 0, want{nil, -1, -1, false, false}},
		{"key[2]: x,y", ',', want{[]int32{9}, 6, 3, false, false}},
		{`"a,b":c,d`, ',', want{[]int32{7}, 5, -1, true, false}},
		{`"a\",b",c`, ',', want{[]int32{7}, -1, -1, true, false}},
		{`"a\\",b`, ',', want{[]int32{5}, -1, -1, true, false}},
		{`"a\\\",b`, ',', want{nil, -1, -1, true, true}},
		{`a\",b"`, ',', want{nil, -1, -1, true, false}},
		{`a\",b`, ',', want{nil, -1, -1, true, true}},
		{`x"\`, ',', want{nil, -1, -1, true, true}},
		{"a\tb|c,d", '\t', want{[]int32{1}, -1, -1, false, false}},
		{"a\tb|c,d", '|', want{[]int32{3}, -1, -1, false, false}},
		{`"[":[`, '|', want{nil, 3, 4, true, false}},
	}
	for _, im := range testedScanImpls() {
		for _, c := range cases {
			seps, r := im.fn([]byte(c.line), c.delim, nil)
			got := want{seps, r.colon, r.bracket, r.quote, r.open}
			if !slices.Equal(got.seps, c.want.seps) || got.colon != c.want.colon ||
				got.bracket != c.want.bracket || got.quote != c.want.quote || got.open != c.want.open {
				t.Errorf("%s(%q, %q) = %+v, want %+v", im.name, c.line, c.delim, got, c.want)
			}
		}
	}
}

// TestKernelsMode checks the values of TOON_KERNELS, and that useKernels
// switches the kernels and restores them.
func TestKernelsMode(t *testing.T) {
	for _, c := range []struct {
		s    string
		want kernelsMode
	}{
		{"", kernelsAll}, {"all", kernelsAll}, {"native", kernelsAll},
		{"avx2", kernelsAVX2}, {"generic", kernelsGeneric}, {"off", kernelsGeneric},
		{"AVX2", kernelsGeneric}, {"avx-512", kernelsGeneric},
	} {
		if got := parseKernelsMode(c.s); got != c.want {
			t.Errorf("TOON_KERNELS=%q: mode %d, want %d", c.s, got, c.want)
		}
	}
	before := [...]bool{useScanAVX2, useScanAVX512, useIndexAVX2, useIndexAVX512, useTypeRows, usePutRow, usePutRowAVX512, useUnescapeAVX512, useUnescapeAVX2, useUTF8AVX2}
	restore := useKernels("avx2")
	if useScanAVX512 || useIndexAVX512 || usePutRowAVX512 || useUnescapeAVX512 {
		t.Error(`useKernels("avx2") left an AVX-512 kernel on`)
	}
	if useScanAVX2 != before[0] || useIndexAVX2 != before[2] || useTypeRows != before[4] || usePutRow != before[5] || useUnescapeAVX2 != before[8] || useUTF8AVX2 != before[9] {
		t.Error(`useKernels("avx2") changed a kernel that does not need AVX-512`)
	}
	restore()
	restore = useKernels("generic")
	if useScanAVX2 || useScanAVX512 || useIndexAVX2 || useIndexAVX512 || useTypeRows || usePutRow || usePutRowAVX512 || useUnescapeAVX512 || useUnescapeAVX2 || useUTF8AVX2 {
		t.Error(`useKernels("generic") left a kernel on`)
	}
	seps, r := scanLine([]byte(strings.Repeat(`a,"b,c",d:e`, 8)), ',', nil)
	restore()
	if len(seps) != 16 || r.colon != 9 || !r.quote {
		t.Fatalf("generic: scanLine = %v %+v", seps, r)
	}
	after := [...]bool{useScanAVX2, useScanAVX512, useIndexAVX2, useIndexAVX512, useTypeRows, usePutRow, usePutRowAVX512, useUnescapeAVX512, useUnescapeAVX2, useUTF8AVX2}
	if after != before {
		t.Errorf("useKernels left the kernels %v, were %v", after, before)
	}
	t.Logf("kernel modes here: %v", kernelModes())
}

// TestScanLineAllocs checks that scanning allocates nothing once seps has
// room.
func TestScanLineAllocs(t *testing.T) {
	line := []byte(strings.Repeat(`12,"Alice, B",x:y,`, 20))
	seps := make([]int32, 0, 256)
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		allocs := testing.AllocsPerRun(100, func() {
			seps, _ = scanLine(line, ',', seps[:0])
		})
		restore()
		if allocs != 0 {
			t.Errorf("%s: %v allocations per line", mode, allocs)
		}
	}
}

func FuzzScanLine(f *testing.F) {
	for _, s := range []string{"", "a,b", `"a\"b",c:d[`, strings.Repeat(`\\"`, 30), strings.Repeat("x,", 40)} {
		for _, d := range testDelims {
			f.Add([]byte(s), d)
		}
	}
	impls := testedScanImpls()
	f.Fuzz(func(t *testing.T, line []byte, delim byte) {
		checkScan(t, impls, line, delim)
	})
}
