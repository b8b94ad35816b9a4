//go:build !purego

package toon

import (
	"math"
	"math/bits"
	"math/rand"
	"strconv"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/mem"
)

// TestRowDigitConstants checks the kernel's digit constants the way DIGITS
// uses them, for every number below 10^8 (every 97th in the short form) and
// each of the eight lanes:
// the low 52 bits of u*rowDigitMul[j] + rowDigitBias[j], times ten, have
// digit j of digits8(u) above bit 52.
func TestRowDigitConstants(t *testing.T) {
	const m52 = 1<<52 - 1
	stride := uint64(longtest.Size(t, 97, 1))
	for u := uint64(0); u < 1e8; u += stride {
		w := digits8(u)
		for j := 0; j < 8; j++ {
			lo := (u*rowDigitMul[j] + rowDigitBias[j]) & m52
			if hi, _ := bits.Mul64(lo<<12, 10); hi != w>>(8*j)&0xff {
				t.Fatalf("digit %d of %d: %d, want %d", j, u, hi, w>>(8*j)&0xff)
			}
		}
	}
}

// TestPutRowKernel checks the row kernel as TestPutCellsGo checks
// putCellsGo, on the same kinds of rows (strings at the end of a buffer
// and of a page among them), for every delimiter.
func TestPutRowKernel(t *testing.T) {
	if !usePutRow {
		t.Skip("putRowAVX512 does not run here (the CPU lacks what it needs, or TOON_KERNELS says no)")
	}
	checkRandomRows(t, "putRowAVX512", 32, longtest.Size(t, 5000, 50000), func(p unsafe.Pointer, cells []Value, dw uint64) (int, int) {
		return putRow(mem.FromUnsafe(p), cells, dw)
	})
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
	if rowBytes[7][0] != 0xED || rowBytes[8][0] != 0xF4 || rowBytes[9][0] != '0' || rowBytes[10][0] != ':' {
		t.Fatalf("rowBytes[7:]: %#x %#x %#x %#x", rowBytes[7][0], rowBytes[8][0], rowBytes[9][0], rowBytes[10][0])
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

// kernelFloat returns the row kernel's text of the float cell f, and
// whether it took the cell.
func kernelFloat(f float64) (string, bool) {
	var buf [2 * maxCell]byte
	for i := range buf {
		buf[i] = 0xAA
	}
	m, k := putRow(mem.Of(&buf), []Value{Float(f)}, delimWord(quoteMask(Comma)))
	if k == 0 {
		return "", false
	}
	return string(buf[:m]), true
}

// checkKernelFloat requires the row kernel to write f as refFloat does
// (strconv's shortest text, laid out as §2 asks), followed by the
// delimiter, and to leave only the floats putFloatRest leaves too (NaN,
// the infinities and subnormals).
func checkKernelFloat(t *testing.T, f float64) {
	t.Helper()
	got, ok := kernelFloat(f)
	if !ok {
		if a := math.Abs(f); a >= 0x1p-1022 && a <= math.MaxFloat64 || f == 0 {
			t.Fatalf("putRowAVX512 left the float %v (%#x)", f, math.Float64bits(f))
		}
		return
	}
	if want := refFloat(f) + ","; got != want {
		t.Fatalf("putRowAVX512(%v (%#x)) = %q, want %q", f, math.Float64bits(f), got, want)
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
		t.Skip("putRowAVX512 does not run here (the CPU lacks what it needs, or TOON_KERNELS says no)")
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

// FuzzRowKernelFloat requires the row kernel's text of any float64 (its
// bits from the fuzzer) to be refFloat's, strconv's.
func FuzzRowKernelFloat(f *testing.F) {
	if !usePutRow {
		f.Skip("putRowAVX512 does not run here (the CPU lacks what it needs, or TOON_KERNELS says no)")
	}
	for _, x := range []float64{1.6438799976812822e15, 3.7e-9, 1e21, 1e23, 5e-324, 0.1 + 0.2, -1e-7, 123.45, 1 << 53, -0.5} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		checkKernelFloat(t, math.Float64frombits(u))
	})
}
