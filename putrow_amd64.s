//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// func putRowAVX512(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)
//
// Requires: AVX512F, AVX512BW, AVX512VBMI, AVX512IFMA, FMA3, BMI1, BMI2,
// LZCNT.
//
// func putRowAVX2(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)
//
// Requires: AVX2, FMA3, BMI1, BMI2, LZCNT.
//
// putCellsGo (tablewriter.go) is their specification: they write the same
// text for the same cells, each followed by the delimiter (the low byte of
// dw), and stop before the first cell putCellsGo would leave to
// appendCell, with these differences: both also write Uint cells, and
// putRowAVX512 strings of 33 to 63 bytes. They return the number of
// bytes they wrote, up to the last delimiter, and of cells.
//
// The two differ only in how they load, class and store strings (a vector
// of 64 bytes, or of 32), in how they make masks of a string's bytes, and
// in DIGITS. The rest is shared: the loop over the cells and every cell
// but a string are putrow_cells_amd64.h, which each includes after its
// prologue; the shape tests, the number grammar and the UTF-8 test of a
// string are putrow_text_amd64.h, which each includes after its test of
// the bytes of class byteQuote.
//
// Strings. putRowAVX512 loads a string of 1 to 63 bytes with a mask of
// its length (the bytes past it read as zero and cannot fault), and looks
// the class of each ASCII byte up in rowClassTables[rowClassIndex(dw)]
// with VPERMI2B. putRowAVX2 loads the 32 bytes from a string of 1 to 32
// bytes (or, where those would reach into the next page, the 32 that end
// with it, moved down through its frame), zeroes those past its length
// (rowTextMask), and finds the two classes of wordClass by comparisons, as
// special does on words. Bytes of 0x80 and above must be valid UTF-8,
// which utf8 checks with masks of the bytes in general registers (as
// utf8.ValidString would decide). The shape tests of §7.2 that putCellsGo
// makes on the first and last bytes follow, and for text that starts with
// a digit or '+' the number grammar (numericLike), on a mask of the
// digits. The loaded vector is then stored whole: the zeros past the text
// land where the delimiter and the next cells go, in the room of maxCell
// bytes a cell has.
//
// Numbers. Integers and floats are made into digits eight at a time, in
// the lanes of a vector (DIGITS), which takes fewer steps one after
// another than digits8; u/10^8 is the high word of u*0xabcc77118461cefd,
// shifted by 26 (exact for every uint64). A float is tried as putFloat8
// tries it (a short decimal below 10^7, at a scale of 10^4 or 10^8), then
// as putFloatRest writes it: a whole number below 2^53 as an integer, any
// other normal float by shortestDigits's steps (ROUNDODD, with
// pow10Table) and putDigits's layouts; 0 is "0", and NaN, the infinities
// and subnormals are left to appendCell.
//
// The Value layout, the kinds' numbers and the charClass bit come from
// go_asm.h (Value_p, const_vInt, const_clsFirst); the shifts by 4 (the
// size of a Value) and the 8 tags of valueTags are checked by
// TestKernelLayout (kernels_amd64_test.go), the digit constants by
// TestRowDigitConstants, the UTF-8 bounds by TestRowBytes, the floats by
// TestRowKernelFloats and FuzzRowKernelFloat, the rest by comparing
// their rows with refCell's (TestPutRowKernel, and every row writer test,
// in each kernel mode).
//
// Registers kept for the whole call: DI the output, SI the cell, CX the
// end of the cells, R13 charClass, R14 valueTags, R15 dw. The float code
// works in X4-X7 (with VEX instructions, which leave no upper halves to
// merge); DIGITS's constants and the string tests use other vector
// registers (see each kernel).

// ROWARGS sets the registers both kernels keep for the whole call from
// their arguments and the tables (see above).
#define ROWARGS \
	LEAQ ·valueTags(SB), R14;  \
	LEAQ ·charClass(SB), R13;  \
	MOVQ p+0(FP), DI;          \
	MOVQ cells_base+8(FP), SI; \
	MOVQ cells_len+16(FP), CX; \
	MOVQ dw+32(FP), R15;       \
	SHLQ $4, CX;               \
	ADDQ SI, CX                // the end of the cells

// LEAD writes the digits of r, below 10^8, without its leading zeros at
// (R10), and sets AX to R8 (the sign's byte) plus their count. R9 is
// clobbered; R11 is left holding eight '0' bytes. It is defined before
// either DIGITS, and takes the one defined where it is used.
#define LEAD(r) \
	DIGITS(r, R9, R11);                \
	MOVQ   r, R9;                      \
	BTSQ   $56, R9;                    \
	TZCNTQ R9, R9;                     \
	ANDQ   $-8, R9;                    \
	MOVQ   $0x3030303030303030, R11;   \
	ADDQ   R11, r;                     \
	SHRXQ  R9, r, r;                   \
	MOVQ   r, (R10);                   \
	SHRQ   $3, R9;                     \
	MOVL   $8, AX;                     \
	SUBQ   R9, AX;                     \
	ADDQ   R8, AX

// The float constants, read from memory by the instructions that use them.
DATA rowFloats<>+0(SB)/8, $0x3eb0c6f7a0b5ed8d  // 1e-6
DATA rowFloats<>+8(SB)/8, $0x416312d000000000  // 1e7
DATA rowFloats<>+16(SB)/8, $0x40c3880000000000 // 1e4
DATA rowFloats<>+24(SB)/8, $0x4197d78400000000 // 1e8
DATA rowFloats<>+32(SB)/8, $0x3fe0000000000000 // 0.5
DATA rowFloats<>+40(SB)/8, $0x7fffffffffffffff // all but the sign
DATA rowFloats<>+48(SB)/8, $0x4330000000000000 // 2^52
DATA rowFloats<>+56(SB)/8, $0                  // (VPSUBQ reads 16 bytes)
DATA rowFloats<>+64(SB)/8, $0x444b1ae4d6e2ef50 // 1e21
GLOBL rowFloats<>(SB), RODATA|NOPTR, $72

// The bounds of rowBytes (putrow_amd64.go), 64 bytes each.
#define B_C0 ·rowBytes+0(SB)
#define B_C2 ·rowBytes+64(SB)
#define B_E0 ·rowBytes+128(SB)
#define B_F0 ·rowBytes+192(SB)
#define B_F5 ·rowBytes+256(SB)
#define B_90 ·rowBytes+320(SB)
#define B_A0 ·rowBytes+384(SB)
#define B_ED ·rowBytes+448(SB)
#define B_F4 ·rowBytes+512(SB)
#define B_0 ·rowBytes+576(SB)
#define B_COLON ·rowBytes+640(SB)
#define B_02 ·rowBytes+704(SB)
#define B_20 ·rowBytes+768(SB)
#define B_7B ·rowBytes+832(SB)
#define B_09 ·rowBytes+896(SB)

#define F_1EM6 rowFloats<>+0(SB)
#define F_1E7 rowFloats<>+8(SB)
#define F_1E4 rowFloats<>+16(SB)
#define F_1E8 rowFloats<>+24(SB)
#define F_HALF rowFloats<>+32(SB)
#define F_ABS rowFloats<>+40(SB)
#define F_2P52 rowFloats<>+48(SB)
#define F_1E21 rowFloats<>+64(SB)

// ROUNDODD sets r, a significand in quarters shifted by h (shortestDigits),
// to roundOdd(g, r), g being the pair of words at (BX): the high word of
// g[0]*r, plus the carry of z = (g[0]*r mod 2^64)/2 + hi(g[1]*r), ORed
// with 1 if z's low 63 bits are not all zero. DX, R8 and R10 are
// clobbered.
#define ROUNDODD(r) \
	MOVQ  r, DX;          \
	MULXQ 8(BX), R10, R8; \
	MULXQ (BX), R10, r;   \
	SHRQ  $1, R10;        \
	ADDQ  R8, R10;        \
	SHLQ  $1, R10;        \
	ADCQ  $0, r;          \
	NEGQ  R10;            \
	SBBQ  R10, R10;       \
	ANDL  $1, R10;        \
	ORQ   R10, r

// The AVX-512 kernel. Z1 and Z2 hold the class table and Z20-Z22 the
// digit constants for the whole call.

// DIGITS sets r, below 10^8, to its eight decimal digits, one a byte,
// the first in the low byte, without the '0' offset (digits8), in vector
// lanes: lane j of Z20 holds about 2^52/10^(8-j) (rowDigitMul), so that
// the low 52 bits of r times it, plus lane j of Z21 (rowDigitBias), are
// the fraction of r/10^(8-j) in 52-bit fixed point, and the high bits of
// ten times that fraction are digit j. Z24-Z27 are clobbered; t1 and t2
// are not used.
#define DIGITS(r, t1, t2) DIGITSV(r, r, t1, t2)

// DIGITSV is DIGITS of the low word of x (a register or a vector
// register), into r.
#define DIGITSV(x, r, t1, t2) \
	VPBROADCASTQ x, Z24;        \
	VMOVDQA64    Z21, Z25;      \
	VPMADD52LUQ  Z20, Z24, Z25; \
	VPXORQ       Z26, Z26, Z26; \
	VPMADD52HUQ  Z22, Z25, Z26; \
	VPMOVQB      Z26, X27;      \
	VMOVQ        X27, r

// The masks of putrow_text_amd64.h, from comparisons of the 64 bytes of
// Z0 into K6 (the bytes past the text are zeros), and HIGHBYTES from K2.
#define ATLEAST(c, r) \
	VPCMPUB $5, c, Z0, K6; \
	KMOVQ   K6, r

#define BELOW(c, r) \
	VPCMPUB $1, c, Z0, K6; \
	KMOVQ   K6, r

#define EQUAL(c, r) \
	VPCMPUB $0, c, Z0, K6; \
	KMOVQ   K6, r

#define NONDIGITS(r) \
	VPCMPUB $5, B_0, Z0, K6;         \
	VPCMPUB $1, B_COLON, Z0, K6, K6; \
	KMOVQ   K6, r;                   \
	NOTQ    r

// K2 holds the bytes of 0x80 and above (str).
#define HIGHBYTES(r) KMOVQ K2, r

TEXT ·putRowAVX512(SB), NOSPLIT, $0-56
	ROWARGS
	VMOVDQU64 ·rowDigitMul(SB), Z20
	VMOVDQU64 ·rowDigitBias(SB), Z21
	MOVL $10, AX
	VPBROADCASTQ AX, Z22
	MOVL R15, AX               // the class table of dw's delimiter:
	ANDL $0x30, AX             // rowClassTables[rowClassIndex(dw)],
	SHLL $3, AX                // 128 bytes from the table of index 0
	LEAQ ·rowClassTables(SB), BX
	ADDQ BX, AX
	VMOVDQU64 (AX), Z1         // classes of 0x00-0x3f
	VMOVDQU64 64(AX), Z2       // classes of 0x40-0x7f

	PCALIGN $32

#include "putrow_cells_amd64.h"

str: // AX is the text, BX its length, or null or a NumberValue
	LEAQ       -1(BX), R8
	CMPQ       R8, $63
	JAE        done            // null, a NumberValue, or longer than 63 bytes
	MOVQ       $-1, R9
	BZHIQ      BX, R9, R9
	KMOVQ      R9, K1          // the text's bytes
	VMOVDQU8.Z (AX), K1, Z0
	VPMOVB2M   Z0, K2          // bytes of 0x80 and above
	VMOVDQA64  Z0, Z3
	VPERMI2B.Z Z2, Z1, K1, Z3  // each byte's class, by its low 7 bits
	VPMOVB2M   Z3, K3
	KANDNQ     K3, K2, K3      // ASCII bytes of class byteHard
	KORTESTQ   K3, K3
	JNE        done            // for appendCell
	KANDNQ     K1, K2, K5      // the text's ASCII bytes
	KORTESTQ   K2, K2
	JNE        utf8            // not ASCII: valid UTF-8 is written as it is

ascii:
	VPTESTMB   Z3, Z3, K5, K4  // ASCII bytes of class byteQuote
	KORTESTQ   K4, K4
	JNE        quote

#include "putrow_text_amd64.h"

plain: // a string of up to 32 bytes is stored as 32, which splits fewer cache lines
	CMPQ      BX, $32
	JA        plain64
	VMOVDQU   Y0, (DI)
	MOVQ      BX, AX
	JMP       next

plain64:
	VMOVDQU64 Z0, (DI)
	MOVQ      BX, AX
	JMP       next

quote:
	MOVB      $0x22, (DI)
	CMPQ      BX, $32
	JA        quote64
	VMOVDQU   Y0, 1(DI)
	MOVB      $0x22, 1(DI)(BX*1)
	LEAQ      2(BX), AX
	JMP       next

quote64:
	VMOVDQU64 Z0, 1(DI)
	MOVB      $0x22, 1(DI)(BX*1)
	LEAQ      2(BX), AX
	JMP       next

#undef DIGITS
#undef DIGITSV
#undef ATLEAST
#undef BELOW
#undef EQUAL
#undef NONDIGITS
#undef HIGHBYTES

// The AVX2 kernel. Y8-Y12 and Y14 hold DIGITS's constants and Y15 the
// delimiter in every byte for the whole call; the string tests work in
// Y0-Y3, and DIGITS in Y1, Y2 and Y13.

// DIGITS sets r, below 10^8, to its eight decimal digits as DIGITS of the
// AVX-512 kernel does, in the 64-bit lanes of two vectors: Y13 makes
// digits 0-3 and Y1 digits 4-7, lane j of the two digit j, with the j-th
// constants of rowDigitLanes. Lane j multiplies r by ceil(2^k/10^(8-j)),
// k being 32 plus the bit length of 10^(8-j) less one, so that the
// product's low k bits are the fraction of r/10^(8-j) in k-bit fixed
// point, a little too large (see rowDigitLanes); the fraction times five,
// shifted right by k-1, is digit j. Y1's digits are moved up by 32 bits
// and joined to Y13's, so that each 64-bit lane holds digits i and i+4,
// and a VPSHUFB in each 128-bit half and an OR of the halves put the
// eight in order. Every step works on vectors, so the chain of
// dependent steps from r to its digits is short, which counts because
// the next cell's address waits on the digits' count. Y1, Y2 and Y13 are
// clobbered; t1 and t2 are not used.
#define DIGITS(r, t1, t2) \
	VMOVQ        r, X13; \
	DIGITSV(X13, r, t1, t2)

// DIGITSV is DIGITS of the low word of the vector register x, into r.
#define DIGITSV(x, r, t1, t2) \
	VPBROADCASTQ x, Y13;                    \
	VPMULUDQ     Y9, Y13, Y1;               \
	VPMULUDQ     Y8, Y13, Y13;              \
	VPAND        Y11, Y1, Y1;               \
	VPAND        Y10, Y13, Y13;             \
	VPSLLQ       $2, Y1, Y2;                \
	VPADDQ       Y2, Y1, Y1;                \
	VPSLLQ       $2, Y13, Y2;               \
	VPADDQ       Y2, Y13, Y13;              \
	VPSRLVQ      Y14, Y1, Y1;               \
	VPSRLVQ      Y12, Y13, Y13;             \
	VPSLLQ       $32, Y1, Y1;               \
	VPOR         Y1, Y13, Y13;              \
	VPSHUFB      rowDigitGather<>(SB), Y13, Y13; \
	VEXTRACTI128 $1, Y13, X1;               \
	VPOR         X1, X13, X13;              \
	VMOVQ        X13, r

// rowDigitGather is DIGITS's VPSHUFB control: in the low half, whose
// lanes hold digits 0 and 4, then 1 and 5, it puts digits 0 and 1 in
// bytes 0-1 and 4 and 5 in bytes 4-5; in the high half, whose lanes hold
// digits 2 and 6, then 3 and 7, digits 2 and 3 in bytes 2-3 and 6 and 7 in
// bytes 6-7. Its other bytes are zeros.
DATA rowDigitGather<>+0(SB)/8, $0x80800c0480800800
DATA rowDigitGather<>+8(SB)/8, $0x8080808080808080
DATA rowDigitGather<>+16(SB)/8, $0x0c04808008008080
DATA rowDigitGather<>+24(SB)/8, $0x8080808080808080
GLOBL rowDigitGather<>(SB), RODATA|NOPTR, $32

// rowTextMask's 32 bytes from 32-n are n bytes of 0xff, then zeros: the
// mask of a text of n bytes.
DATA rowTextMask<>+0(SB)/8, $-1
DATA rowTextMask<>+8(SB)/8, $-1
DATA rowTextMask<>+16(SB)/8, $-1
DATA rowTextMask<>+24(SB)/8, $-1
DATA rowTextMask<>+32(SB)/8, $0
DATA rowTextMask<>+40(SB)/8, $0
DATA rowTextMask<>+48(SB)/8, $0
DATA rowTextMask<>+56(SB)/8, $0
GLOBL rowTextMask<>(SB), RODATA|NOPTR, $64

// The masks of putrow_text_amd64.h, of the 32 bytes of Y0 (the bytes past
// the text are zeros), with Y1 and Y2 clobbered. Bytes at least c, as c
// is their maximum with c; below c, the others among the 32 (so that
// nothing above bit 31 is set); the digits, as x-'0' <= 9.
#define ATLEAST(c, r) \
	VPMAXUB   c, Y0, Y1;  \
	VPCMPEQB  Y1, Y0, Y1; \
	VPMOVMSKB Y1, r

#define BELOW(c, r) \
	ATLEAST(c, r); \
	NOTL r

#define EQUAL(c, r) \
	VPCMPEQB  c, Y0, Y1; \
	VPMOVMSKB Y1, r

#define NONDIGITS(r) \
	VPSUBB    B_0, Y0, Y1;  \
	VPMINUB   B_09, Y1, Y2; \
	VPCMPEQB  Y2, Y1, Y1;   \
	VPMOVMSKB Y1, r;        \
	NOTQ      r

// R9 holds the bytes of 0x80 and above (str).
#define HIGHBYTES(r) MOVQ R9, r

TEXT ·putRowAVX2(SB), NOSPLIT, $64-56
	ROWARGS
	VMOVDQU ·rowDigitLanes+0(SB), Y8   // the multipliers of digits 0-3
	VMOVDQU ·rowDigitLanes+32(SB), Y9  // and 4-7
	VMOVDQU ·rowDigitLanes+64(SB), Y10 // the masks of their fractions
	VMOVDQU ·rowDigitLanes+96(SB), Y11
	VMOVDQU ·rowDigitLanes+128(SB), Y12 // the shifts
	VMOVDQU ·rowDigitLanes+160(SB), Y14
	VMOVQ R15, X15
	VPBROADCASTB X15, Y15      // the delimiter in every byte

	PCALIGN $32

#include "putrow_cells_amd64.h"

str: // AX is the text, BX its length, or null or a NumberValue
	LEAQ      -1(BX), R8
	CMPQ      R8, $32
	JAE       done             // null, a NumberValue, or longer than 32 bytes
	MOVL      AX, R9
	ANDL      $4095, R9
	CMPL      R9, $4064
	JA        pageend          // its 32 bytes would reach into the next page
	VMOVDQU   (AX), Y0

loaded:
	LEAQ      rowTextMask<>+32(SB), R9
	SUBQ      BX, R9
	VPAND     (R9), Y0, Y0     // the text, zeros past it
	VPMOVMSKB Y0, R9           // bytes of 0x80 and above
	// Bytes that may need an escape (byteHard): x^0x02 <= 0x20 for a
	// control or '"', (x|0x20)-0x7b <= 2 for '[', '\\', ']', '{', '|' and
	// '}'. Neither holds for a byte of 0x80 and above; the first holds for
	// the zeros past the text, which the mask of its length leaves out.
	VPXOR     B_02, Y0, Y1
	VPMINUB   B_20, Y1, Y2
	VPCMPEQB  Y2, Y1, Y1
	VPOR      B_20, Y0, Y2
	VPSUBB    B_7B, Y2, Y2
	VPMINUB   B_02, Y2, Y3
	VPCMPEQB  Y3, Y2, Y2
	VPOR      Y2, Y1, Y1
	VPMOVMSKB Y1, R10
	MOVQ      $-1, R11
	BZHIQ     BX, R11, R11     // the text's bytes
	TESTQ     R11, R10
	JNE       done             // for appendCell
	TESTQ     R9, R9
	JNE       utf8             // not ASCII: valid UTF-8 is written as it is

ascii:
	VPCMPEQB   B_COLON, Y0, Y1
	VPCMPEQB   Y15, Y0, Y2
	VPOR       Y2, Y1, Y1
	VPMOVMSKB  Y1, R10         // bytes of class byteQuote: ':' and the delimiter
	TESTQ      R10, R10
	JNE        quote

#include "putrow_text_amd64.h"

plain:
	VMOVDQU    Y0, (DI)
	MOVQ       BX, AX
	JMP        next

quote:
	MOVB       $0x22, (DI)
	VMOVDQU    Y0, 1(DI)
	MOVB       $0x22, 1(DI)(BX*1)
	LEAQ       2(BX), AX
	JMP        next

pageend: // the text starts less than 32 bytes before the end of its page
	// The 32 bytes that end with the text are in that page: through the
	// frame, the text is moved to the start of Y0.
	VMOVDQU   -32(AX)(BX*1), Y0
	VMOVDQU   Y0, (SP)
	MOVQ      $32, R9
	SUBQ      BX, R9
	VMOVDQU   (SP)(R9*1), Y0
	JMP       loaded
