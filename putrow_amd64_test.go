//go:build !purego

package toon

import (
	"math"
	"math/bits"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// TestRowDigitConstants checks the kernels' digit constants the way their
// DIGITS use them, for every number below 10^8 (every 97th in the short
// form) and each of the eight lanes. For putRowAVX512: the low 52 bits of
// u*rowDigitMul[j] + rowDigitBias[j], times ten, have digit j of
// digits8(u) above bit 52. For putRowAVX2: the product of u and
// rowDigitLanes's multiplier, masked, times five and shifted, is digit j.
func TestRowDigitConstants(t *testing.T) {
	const m52 = 1<<52 - 1
	c := &rowDigitLanes
	for j := range 8 {
		if c.mul[j] >= 1<<32 {
			t.Fatalf("lane %d: multiplier %#x is not below 2^32 (VPMULUDQ reads 32 bits)", j, c.mul[j])
		}
	}
	stride := uint64(longtest.Size(t, 97, 1))
	// The short form's stride skips most numbers; those at the ends of
	// each digit's runs are where a fraction errs across a boundary.
	var edges []uint64
	for p := uint64(10); p <= 1e8; p *= 10 {
		edges = append(edges, p-1, p, p+1, p/2-1, p/2)
	}
	check := func(u uint64) {
		w := digits8(u)
		for j := 0; j < 8; j++ {
			want := w >> (8 * j) & 0xff
			lo := (u*rowDigitMul[j] + rowDigitBias[j]) & m52
			if hi, _ := bits.Mul64(lo<<12, 10); hi != want {
				t.Fatalf("AVX-512 digit %d of %d: %d, want %d", j, u, hi, want)
			}
			if d := (u * c.mul[j] & c.mask[j] * 5) >> c.shift[j]; d != want {
				t.Fatalf("AVX2 digit %d of %d: %d, want %d", j, u, d, want)
			}
		}
	}
	for _, u := range edges {
		check(min(u, 1e8-1))
	}
	for u := uint64(0); u < 1e8; u += stride {
		check(u)
		check(1e8 - 1 - u)
	}
}

// TestPutRowKernel checks the row kernel as TestPutCellsGo checks
// putCellsGo, on the same kinds of rows (strings at the end of a buffer
// and of a page among them), for every delimiter.
func TestPutRowKernel(t *testing.T) {
	if !usePutRow {
		t.Skip("no row kernel runs here (the CPU lacks what they need, or TOON_KERNELS says no)")
	}
	for _, k := range rowKernels() {
		checkRandomRows(t, k.name, 32, longtest.Size(t, 5000, 50000), k.put)
	}
}

// TestRowKernelsEveryByte puts each ASCII byte, under each delimiter, at
// the start, in the middle and at the end of strings of 1, 5 and 32 bytes
// and of the longest the kernel takes, and requires each row kernel to
// take the cell exactly when putCellsGo does, and to write the same text
// (past putCellsGo's 32 bytes: unless the byte is of class byteHard, and
// refCell's text). It holds the kernels' class tests (rowClassTables, or
// putRowAVX2's comparisons) to special's.
func TestRowKernelsEveryByte(t *testing.T) {
	for _, k := range rowKernels() {
		for _, d := range []Delimiter{Comma, Tab, Pipe} {
			dw := delimWord(quoteMask(d))
			for b := range 128 {
				for _, n := range []int{1, 5, 32, k.max} {
					for _, at := range []int{0, n / 2, n - 1} {
						s := []byte(strings.Repeat("a", n))
						s[at] = byte(b)
						var want, got [2 * maxCell]byte
						wm, wk := putCellsGo(mem.Of(&want), 0, []Value{Bytes(s)}, dw)
						if n > 32 {
							// Longer than putCellsGo takes: the kernel
							// takes it unless a byte is of class
							// byteHard, and writes refCell's text.
							wk = 1
							if wordClass(byte(b), d) == wordHard {
								wk = 0
							}
							wm = copy(want[:], refCell(Bytes(s), d)+string(byte(d))) * wk
						}
						gm, gk := k.put(unsafe.Pointer(&got), []Value{Bytes(s)}, dw)
						if gk != wk || string(got[:gm]) != string(want[:wm]) {
							t.Fatalf("%s, delimiter %q, %q: took %d cells, %q; want %d, %q", k.name, d, s, gk, got[:gm], wk, want[:wm])
						}
					}
				}
			}
		}
	}
}

// TestRowKernelDispatch checks that putCells runs the kernel each kernel
// mode chooses: a string of 40 plain bytes, which only putRowAVX512
// takes, is taken exactly when usePutRowAVX512 is set. (The kernels write
// the same text, so no other test tells them apart; a wrong dispatch
// would run AVX-512 instructions on a CPU without them.)
func TestRowKernelDispatch(t *testing.T) {
	s := strings.Repeat("abcd", 10)
	for _, mode := range kernelModes() {
		restore := useKernels(mode)
		if usePutRow {
			var buf [2 * maxCell]byte
			_, k := putCells(mem.Of(&buf), 0, []Value{String(s)}, delimWord(quoteMask(Comma)))
			if (k == 1) != usePutRowAVX512 {
				restore()
				t.Fatalf("mode %s: putCells took %d cells of a 40-byte string; usePutRowAVX512 is %v", mode, k, usePutRowAVX512)
			}
		}
		restore()
	}
}

// TestRowCellsWithoutKernel runs the row writer's reference tests with
// putCellsGo, the way of machines without the kernel, where the other
// tests take the kernel.
func TestRowCellsWithoutKernel(t *testing.T) {
	if !usePutRow {
		t.Skip("the other tests already run this way")
	}
	defer useKernels("generic")()
	TestRowCellsMatchReference(t)
	TestWriteRowMatchesReference(t)
}

// TestRowBytes checks the bounds of rowBytes that the row kernel's UTF-8
// test compares bytes with, against the utf8 package: each byte of 0x80
// and above is a continuation byte, a lead byte of a sequence of 2, 3 or
// 4 bytes, or never in UTF-8, as the bounds 0xC0, 0xC2, 0xE0, 0xF0 and
// 0xF5 class it; and the second-byte bounds after E0, ED, F0 and F4
// (0x90, 0xA0) give the second bytes that utf8 accepts after them.
func TestRowBytes(t *testing.T) {
	for i, row := range rowBytes {
		for _, c := range row {
			if c != row[0] {
				t.Fatalf("rowBytes[%d] is not one byte repeated: %x", i, row)
			}
		}
	}
	c0, c2, e0, f0, f5 := rowBytes[0][0], rowBytes[1][0], rowBytes[2][0], rowBytes[3][0], rowBytes[4][0]
	b90, ba0 := rowBytes[5][0], rowBytes[6][0]
	for i, c := range [...]byte{7: 0xED, 0xF4, '0', ':', 0x02, 0x20, 0x7B, 9} {
		if i >= 7 && rowBytes[i][0] != c {
			t.Fatalf("rowBytes[%d] holds %#x, want %#x", i, rowBytes[i][0], c)
		}
	}
	for b := 0x80; b < 0x100; b++ {
		// The length of the valid sequences that start with b, if any,
		// and the second bytes they may have.
		n, seconds := 0, [2]int{0x100, -1}
		for s := 0x80; s < 0xc0; s++ {
			if r, size := utf8.DecodeRune([]byte{byte(b), byte(s), 0x80, 0x80}); r != utf8.RuneError {
				n = size
				seconds = [2]int{min(seconds[0], s), max(seconds[1], s)}
			}
		}
		c := byte(b)
		var want int
		switch {
		case c < c0:
			want = -1 // a continuation byte
		case c < c2 || c >= f5:
			want = 0
		case c < e0:
			want = 2
		case c < f0:
			want = 3
		default:
			want = 4
		}
		if want == -1 {
			if _, size := utf8.DecodeRune([]byte{c}); size != 1 || utf8.RuneStart(c) {
				t.Errorf("byte %#x: the bounds make it a continuation byte", c)
			}
			continue
		}
		if n != want {
			t.Errorf("byte %#x: the bounds make it lead %d bytes, utf8 %d", c, want, n)
		}
		lo, hi := 0x80, 0xbf
		switch c {
		case 0xE0:
			lo = int(ba0)
		case 0xED:
			hi = int(ba0) - 1
		case 0xF0:
			lo = int(b90)
		case 0xF4:
			hi = int(b90) - 1
		}
		if n > 0 && (seconds[0] != lo || seconds[1] != hi) {
			t.Errorf("byte %#x: second bytes %#x-%#x, utf8 %#x-%#x", c, lo, hi, seconds[0], seconds[1])
		}
	}
}

// kernelFloat returns the row kernel k's text of the float cell f, and
// whether it took the cell.
func kernelFloat(rk rowKernel, f float64) (string, bool) {
	var buf [2 * maxCell]byte
	for i := range buf {
		buf[i] = 0xAA
	}
	m, k := rk.put(unsafe.Pointer(&buf), []Value{Float(f)}, delimWord(quoteMask(Comma)))
	if k == 0 {
		return "", false
	}
	return string(buf[:m]), true
}

// checkKernelFloat requires each row kernel to write f as refFloat does
// (strconv's shortest text, laid out as §2 asks), followed by the
// delimiter, and to leave only the floats putFloatRest leaves too (NaN,
// the infinities and subnormals).
func checkKernelFloat(t *testing.T, f float64) {
	t.Helper()
	for _, k := range rowKernels() {
		got, ok := kernelFloat(k, f)
		if !ok {
			if a := math.Abs(f); a >= 0x1p-1022 && a <= math.MaxFloat64 || f == 0 {
				t.Fatalf("%s left the float %v (%#x)", k.name, f, math.Float64bits(f))
			}
			continue
		}
		if want := refFloat(f) + ","; got != want {
			t.Fatalf("%s(%v (%#x)) = %q, want %q", k.name, f, math.Float64bits(f), got, want)
		}
	}
}

// TestRowKernelFloats checks the row kernel's floats against strconv
// (refFloat), as TestShortestDigits checks putFloatRest: random bit
// patterns of every exponent, decimals of 1 to 17 digits at every scale
// and their neighbours, whole numbers around 2^53, the powers of ten and
// of two and their neighbours, subnormals, and the edges of the plain
// range (1e-6, 1e-7, 1e21).
func TestRowKernelFloats(t *testing.T) {
	if !usePutRow {
		t.Skip("no row kernel runs here (the CPU lacks what they need, or TOON_KERNELS says no)")
	}
	r := rand.New(rand.NewSource(23))
	count := longtest.Size(t, 200000, 2000000)
	for i := 0; i < count; i++ {
		checkKernelFloat(t, math.Float64frombits(r.Uint64()))
		digits := 1 + r.Intn(17)
		m := r.Int63n(int64(pow10u[digits]))
		g, _ := strconv.ParseFloat(strconv.FormatInt(m, 10)+"e"+strconv.Itoa(r.Intn(650)-340), 64)
		for _, f := range []float64{g, -g, math.Nextafter(g, 0), math.Nextafter(g, math.Inf(1))} {
			checkKernelFloat(t, f)
		}
		checkKernelFloat(t, float64(r.Int63()>>r.Intn(20)))
		checkKernelFloat(t, -float64(r.Int63()>>r.Intn(63)))
	}
	var edges []float64
	for e := -325; e <= 309; e++ {
		edges = append(edges, math.Pow10(e))
	}
	for e := -1075; e <= 1024; e++ {
		edges = append(edges, math.Ldexp(1, e), math.Ldexp(3, e))
	}
	edges = append(edges, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		1e-6, 1e-7, 9.999999999999999e-7, 1e21, 999999999999999900000, 1e21-65536, 1e22, 1e23,
		5e-324, 1e-323, 0x1p-1022, math.MaxFloat64, 1<<53, 1<<53+2, 1<<53-1, 1<<53+1,
		0.1+0.2, 1.6438799976812822e15, 3.7e-9, 123456789012345680, 2.2250738585072014e-308)
	for _, f := range edges {
		for _, g := range []float64{f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1))} {
			checkKernelFloat(t, g)
			checkKernelFloat(t, -g)
		}
	}
}

// FuzzRowKernelFloat requires each row kernel's text of any float64 (its
// bits from the fuzzer) to be refFloat's, strconv's.
func FuzzRowKernelFloat(f *testing.F) {
	if !usePutRow {
		f.Skip("no row kernel runs here (the CPU lacks what they need, or TOON_KERNELS says no)")
	}
	for _, x := range []float64{1.6438799976812822e15, 3.7e-9, 1e21, 1e23, 5e-324, 0.1 + 0.2, -1e-7, 123.45, 1 << 53, -0.5} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		checkKernelFloat(t, math.Float64frombits(u))
	})
}
