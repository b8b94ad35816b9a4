//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// func putRowAVX512(p unsafe.Pointer, cells []Value, dw uint64) (m, k int)
//
// Requires: AVX512F, AVX512BW, AVX512VBMI, AVX512IFMA, FMA3, BMI1, BMI2,
// LZCNT.
//
// putCellsGo (tablewriter.go) is its specification: it writes the same
// text for the same cells, each followed by the delimiter (the low byte of
// dw), and stops before the first cell putCellsGo would leave to
// appendCell, with one difference: it also writes Uint cells and strings
// of 33 to 63 bytes. It returns the number of bytes it wrote, up to the
// last delimiter, and of cells.
//
// A string of 1 to 63 bytes is loaded with a mask of its length (the
// bytes past it read as zero and cannot fault), and the class of each
// ASCII byte is looked up in rowClassTables[rowClassIndex(dw)] with
// VPERMI2B. Bytes of 0x80 and above must be valid UTF-8, which utf8 checks
// with masks of the bytes in general registers (as utf8.ValidString would
// decide). The shape tests of §7.2 that putCellsGo makes on the first and
// last bytes follow, and for text that starts with a digit or '+' the
// number grammar (numericLike), on a mask of the digits. Its 64 bytes
// are then stored whole: the zeros past the text land where the delimiter
// and the next cells go, in the room of maxCell bytes a cell has.
// Integers and floats are made into digits eight at a time, in the lanes
// of a vector (DIGITS, with 52-bit multiplies), which takes a third of the
// steps one after another that digits8 takes; u/10^8 is the high word of
// u*0xabcc77118461cefd, shifted by 26 (exact for every uint64). A float
// is tried as putFloat8 tries it (a short decimal below 10^7, at a scale
// of 10^4 or 10^8), then as putFloatRest writes it: a whole number below
// 2^53 as an integer, any other normal float by shortestDigits's steps
// (ROUNDODD, with pow10Table) and putDigits's layouts; 0 is "0", and
// NaN, the infinities and subnormals are left to appendCell.
//
// The Value layout, the kinds' numbers and the charClass bit come from
// go_asm.h (Value_p, const_vInt, const_clsFirst); the shifts by 4 (the
// size of a Value) and the 8 tags of valueTags are checked by
// TestKernelLayout (kernels_amd64_test.go), the digit constants by
// TestRowDigitConstants, the UTF-8 test by TestRowUTF8, the floats by
// TestRowKernelFloats and FuzzRowKernelFloat, the rest by
// comparing its rows with refCell's (TestPutRowKernel, and every row
// writer test). Z1 and Z2 hold the class table for the whole call and
// Z20-Z22 the digit constants, so the float code works in X4-X7 (and with
// VEX instructions, which leave no upper halves to merge).

// DIGITS sets r, below 10^8, to its eight decimal digits, one a byte,
// the first in the low byte, without the '0' offset (digits8), in vector
// lanes: lane j of Z20 holds about 2^52/10^(8-j) (rowDigitMul), so that
// the low 52 bits of r times it, plus lane j of Z21 (rowDigitBias), are
// the fraction of r/10^(8-j) in 52-bit fixed point, and the high bits of
// ten times that fraction are digit j. Z24-Z27 are clobbered.
#define DIGITS(r) DIGITSX(r, r)

// DIGITSX is DIGITS of the low word of x (a register or a vector
// register), into r.
#define DIGITSX(x, r) \
	VPBROADCASTQ x, Z24;        \
	VMOVDQA64    Z21, Z25;      \
	VPMADD52LUQ  Z20, Z24, Z25; \
	VPXORQ       Z26, Z26, Z26; \
	VPMADD52HUQ  Z22, Z25, Z26; \
	VPMOVQB      Z26, X27;      \
	VMOVQ        X27, r

// LEAD writes the digits of r, below 10^8, without its leading zeros at
// (R10), and sets AX to R8 (the sign's byte) plus their count. R9 is
// clobbered; R11 is left holding eight '0' bytes.
#define LEAD(r) \
	DIGITS(r);                         \
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

TEXT ·putRowAVX512(SB), NOSPLIT, $0-56
	LEAQ ·valueTags(SB), R14
	LEAQ ·charClass(SB), R13
	VMOVDQU64 ·rowDigitMul(SB), Z20
	VMOVDQU64 ·rowDigitBias(SB), Z21
	MOVL $10, AX
	VPBROADCASTQ AX, Z22
	MOVQ p+0(FP), DI
	MOVQ cells_base+8(FP), SI
	MOVQ cells_len+16(FP), CX
	MOVQ dw+32(FP), R15
	MOVL R15, AX               // the class table of dw's delimiter:
	ANDL $0x30, AX             // rowClassTables[rowClassIndex(dw)],
	SHLL $3, AX                // 128 bytes from the table of index 0
	LEAQ ·rowClassTables(SB), BX
	ADDQ BX, AX
	SHLQ $4, CX
	ADDQ SI, CX                // the end of the cells
	VMOVDQU64 (AX), Z1         // classes of 0x00-0x3f
	VMOVDQU64 64(AX), Z2       // classes of 0x40-0x7f

	PCALIGN $32

loop:
	CMPQ SI, CX
	JAE  done
	MOVQ Value_p(SI), AX       // the text, or a tag
	MOVQ Value_u(SI), BX       // the length, or the payload
	MOVQ AX, R8
	SUBQ R14, R8
	CMPQ R8, $8
	JAE  str                   // not a tag
	CMPQ R8, $const_vInt
	JEQ  int
	CMPQ R8, $const_vFloat
	JEQ  float
	CMPQ R8, $const_vBool
	JEQ  bool
	CMPQ R8, $const_vString
	JEQ  empty
	CMPQ R8, $const_vUint
	JNE  done
	XORL R8, R8                // not negative
	JMP  digits

next: // AX is the cell's length
	MOVB R15, (DI)(AX*1)
	LEAQ 1(DI)(AX*1), DI
	ADDQ $Value__size, SI
	JMP  loop

empty:
	MOVW $0x2222, (DI)         // ""
	MOVL $2, AX
	JMP  next

bool:
	MOVQ    BX, R9
	NEGQ    R9
	ORQ     BX, R9
	SHRQ    $63, R9            // 1 for true, else 0
	MOVQ    R9, R10
	NEGQ    R10
	MOVQ    $0x6516191312, R11 // "false" ^ "true"
	ANDQ    R10, R11
	MOVQ    $0x65736c6166, R10 // "false"
	XORQ    R11, R10
	MOVQ    R10, (DI)
	MOVL    $5, AX
	SUBQ    R9, AX
	JMP     next

int:
	MOVQ    BX, R8
	SHRQ    $63, R8            // 1 if negative
	MOVQ    BX, R9
	NEGQ    R9
	TESTQ   BX, BX
	CMOVQMI R9, BX             // the magnitude

digits: // BX is the magnitude, R8 1 for a sign
	MOVB $0x2d, (DI)           // '-', overwritten if not negative
	LEAQ (DI)(R8*1), R10       // where the digits go
	CMPQ BX, $100000000
	JAE  int16
	LEAD(BX)
	JMP    next

int16: // 10^8 <= BX: two groups of eight digits, or three from 10^16 on
	MOVQ   BX, AX
	MOVQ   $0xabcc77118461cefd, R9
	MULQ   R9
	SHRQ   $26, DX             // the first digits
	IMUL3Q $100000000, DX, R11
	SUBQ   R11, BX             // the last eight
	CMPQ   DX, $100000000
	JAE    int20
	LEAD(DX)                   // AX: the length so far
	DIGITS(BX)
	ADDQ   R11, BX
	MOVQ   BX, (DI)(AX*1)
	ADDQ   $8, AX
	JMP    next

int20: // DX = BX/10^8 >= 10^8 (BX its last eight): at most four digits, then eight, then eight
	MOVQ   DX, R12
	MOVQ   DX, AX
	MULQ   R9
	SHRQ   $26, DX             // the first digits, below 10^4
	IMUL3Q $100000000, DX, R11
	SUBQ   R11, R12            // the middle eight
	LEAD(DX)                   // AX: the length so far
	DIGITS(R12)
	ADDQ   R11, R12
	MOVQ   R12, (DI)(AX*1)
	DIGITS(BX)
	ADDQ   R11, BX
	MOVQ   BX, 8(DI)(AX*1)
	ADDQ   $16, AX
	JMP    next

float:
	MOVQ     BX, R8
	SHRQ     $63, R8           // 1 if negative
	VMOVSD   Value_u(SI), X4
	VANDPD   F_ABS, X4, X4       // a, the magnitude
	VUCOMISD F_1EM6, X4
	JCS      shortest          // below 1e-6, or NaN
	VUCOMISD F_1E7, X4
	JCC      shortest          // 1e7 or more
	MOVB     $0x2d, (DI)       // '-', overwritten if not negative
	LEAQ     (DI)(R8*1), R10   // where the digits go
	VUCOMISD F_1E4, X4
	JCC      float8            // 1e4 or more

	// At most four digits either side of the point: m = a*1e4 rounded,
	// if m/1e4 is a; one DIGITS makes the integer part's digits in the
	// low four bytes and the fraction's in the high four. a*1e4 + 2^52,
	// rounded once, holds m in its low bits (ties go to even rather than
	// up, but a tie is never m/1e4 == a), and stays in a vector register
	// for DIGITS.
	VMOVSD      F_2P52, X5
	VFMADD231SD F_1E4, X4, X5    // a*1e4 + 2^52
	VPSUBQ      F_2P52, X5, X6    // m
	VSUBSD      F_2P52, X5, X7    // float64(m)
	VDIVSD      F_1E4, X7, X7
	VUCOMISD    X4, X7
	JNE         float8
	JPS         float8
	DIGITSX(X6, R11)
	MOVQ   R11, R9
	BTSQ   $24, R9
	TZCNTQ R9, R9
	ANDQ   $-8, R9             // the integer part's leading zero digits
	MOVL   R11, R12
	ADDQ   $0x30303030, R12
	SHRXQ  R9, R12, R12
	MOVQ   R12, (R10)
	SHRQ   $3, R9
	MOVL   $4, AX
	SUBQ   R9, AX              // the integer part's length
	SHRQ   $32, R11            // the fraction's digits
	JZ     fdone
	MOVB   $0x2e, (R10)(AX*1)  // '.'
	LZCNTQ R11, R9
	ADDL   $0x30303030, R11
	MOVL   R11, 1(R10)(AX*1)
	SHRQ   $3, R9
	ADDQ   $9, AX
	SUBQ   R9, AX
fdone:
	ADDQ R8, AX
	JMP  next

float8: // m = a*1e8 rounded, if m/1e8 is a: eight digits either side
	VMULSD     F_1E8, X4, X5
	VADDSD     F_HALF, X5, X5
	VCVTTSD2SIQ X5, R11
	VCVTSI2SDQ R11, X5, X5
	VDIVSD     F_1E8, X5, X5
	VUCOMISD   X4, X5
	JNE        shortest
	JPS        shortest
	MOVQ   R11, AX
	MOVQ   $0xabcc77118461cefd, R9
	MULQ   R9
	SHRQ   $26, DX             // the integer part
	IMUL3Q $100000000, DX, R9
	SUBQ   R9, R11             // the fraction
	DIGITS(DX)
	MOVQ   DX, R9
	BTSQ   $56, R9
	TZCNTQ R9, R9
	ANDQ   $-8, R9
	MOVQ   $0x3030303030303030, R12
	ADDQ   R12, DX
	SHRXQ  R9, DX, DX
	MOVQ   DX, (R10)
	SHRQ   $3, R9
	MOVL   $8, AX
	SUBQ   R9, AX              // the integer part's length
	TESTQ  R11, R11
	JZ     fdone
	DIGITS(R11)
	MOVB   $0x2e, (R10)(AX*1)  // '.'
	LZCNTQ R11, R9
	MOVQ   $0x3030303030303030, R12
	ADDQ   R12, R11
	MOVQ   R11, 1(R10)(AX*1)
	SHRQ   $3, R9
	ADDQ   $9, AX
	SUBQ   R9, AX
	JMP    fdone

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
	CMPB       -1(AX)(BX*1), $0x20
	JEQ        quote           // a space at the end
	MOVBLZX    (AX), R9
	TESTB      $const_clsFirst, (R13)(R9*1)
	JEQ        plain
	VMOVQ      X0, R10         // the first 8 bytes, zero past the text
	CMPQ       R10, $0x65757274 // "true"
	JEQ        quote
	CMPQ       R10, $0x6c6c756e // "null"
	JEQ        quote
	MOVQ       $0x65736c6166, R11 // "false"
	CMPQ       R10, R11
	JEQ        quote
	CMPB       R9, $0x2d       // '-'
	JEQ        quote
	CMPB       R9, $0x23       // '#'
	JEQ        quote
	CMPB       R9, $0x20       // ' '
	JEQ        quote
	CMPB       R9, $0x74       // 't'
	JEQ        plain
	CMPB       R9, $0x66       // 'f'
	JEQ        plain
	CMPB       R9, $0x6e       // 'n'
	JNE        number          // a digit or '+'

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

number:
	// A digit or '+': quoted if numericLike, that is if the text is
	// [+]D+(.D+)?([eE][+-]?D+)? with D a digit. R10 has a bit for each
	// byte that is not a digit, the zeros past the text included, so
	// that the first one at or after bit k is TZCNT of R10>>k (k <= 33).
	VPCMPUB $5, B_0, Z0, K6         // >= '0'
	VPCMPUB $1, B_COLON, Z0, K6, K6 // and < ':'
	KMOVQ   K6, R10
	NOTQ    R10
	XORL    R11, R11
	CMPB    R9, $0x2b          // '+'
	SETEQ   R11B               // k: where the digits start
	SHRXQ   R11, R10, R12
	TZCNTQ  R12, R12
	ADDQ    R11, R12           // j: the first byte after them
	CMPQ    R12, R11
	JEQ     plain              // no digit
	CMPQ    R12, BX
	JEQ     quote              // digits to the end
	MOVBLZX (AX)(R12*1), R8
	CMPB    R8, $0x2e          // '.'
	JNE     nexp
	LEAQ    1(R12), R11        // the fraction's digits
	SHRXQ   R11, R10, R12
	TZCNTQ  R12, R12
	ADDQ    R11, R12
	CMPQ    R12, R11
	JEQ     plain              // no digit after the point
	CMPQ    R12, BX
	JEQ     quote
	MOVBLZX (AX)(R12*1), R8

nexp: // R8 is the byte at j, which is not the last
	ORB     $0x20, R8
	CMPB    R8, $0x65          // 'e' or 'E'
	JNE     plain
	LEAQ    1(R12), R11
	CMPQ    R11, BX
	JAE     plain              // nothing after it
	MOVBLZX (AX)(R11*1), R8
	CMPB    R8, $0x2b          // '+'
	JEQ     esign
	CMPB    R8, $0x2d          // '-'
	JNE     edigits

esign:
	INCQ R11

edigits: // the exponent's digits from R11 on
	SHRXQ  R11, R10, R12
	TZCNTQ R12, R12
	ADDQ   R11, R12
	CMPQ   R12, R11
	JEQ    plain
	CMPQ   R12, BX
	JEQ    quote
	JMP    plain

utf8: // K2 has the bytes of 0x80 and above: the text must be valid UTF-8
	// With masks of the bytes in GPRs (bit i for byte i), each byte
	// after a lead byte of a sequence of n bytes (n-1 of them) must be a
	// continuation byte, and no other; the zeros past the text are ASCII,
	// so a sequence cut short at its end fails too. Then the second
	// byte's narrower ranges after E0, ED, F0 and F4 (no overlong forms,
	// no surrogates, nothing past U+10FFFF).
	KMOVQ   K2, R8             // 0x80 and above
	VPCMPUB $5, B_C0, Z0, K6
	KMOVQ   K6, R9             // 0xC0 and above
	VPCMPUB $5, B_C2, Z0, K6
	KMOVQ   K6, R10            // 0xC2 and above
	VPCMPUB $5, B_E0, Z0, K6
	KMOVQ   K6, R11            // 0xE0 and above
	VPCMPUB $5, B_F0, Z0, K6
	KMOVQ   K6, R12            // 0xF0 and above
	VPCMPUB $5, B_F5, Z0, K6
	KMOVQ   K6, DX             // 0xF5 and above: never in UTF-8
	ANDNQ   R8, R9, R8         // continuation bytes: 0x80-0xBF
	ANDNQ   R9, R10, R9        // 0xC0 and 0xC1: never in UTF-8
	ORQ     DX, R9
	JNE     done
	ANDNQ   R12, DX, DX        // leads of 4 bytes: 0xF0-0xF4
	ANDNQ   R11, R12, R12      // leads of 3: 0xE0-0xEF
	ANDNQ   R10, R11, R10      // leads of 2: 0xC2-0xDF
	ORQ     R12, R10
	ORQ     DX, R10            // every lead
	ORQ     DX, R12            // leads of 3 or 4
	SHLQ    $1, R10
	SHLQ    $2, R12
	SHLQ    $3, DX
	ORQ     R12, R10
	ORQ     DX, R10            // the bytes that must continue a sequence
	CMPQ    R10, R8
	JNE     done
	VPCMPUB $1, B_A0, Z0, K6
	KMOVQ   K6, R10            // below 0xA0
	VPCMPUB $1, B_90, Z0, K6
	KMOVQ   K6, R11            // below 0x90
	VPCMPUB $0, B_E0, Z0, K6
	KMOVQ   K6, R8
	SHLQ    $1, R8
	TESTQ   R10, R8
	JNE     done               // E0 80-9F: overlong
	VPCMPUB $0, B_ED, Z0, K6
	KMOVQ   K6, R8
	SHLQ    $1, R8
	ANDNQ   R8, R10, R8
	JNE     done               // ED A0-BF: a surrogate
	VPCMPUB $0, B_F0, Z0, K6
	KMOVQ   K6, R8
	SHLQ    $1, R8
	TESTQ   R11, R8
	JNE     done               // F0 80-8F: overlong
	VPCMPUB $0, B_F4, Z0, K6
	KMOVQ   K6, R8
	SHLQ    $1, R8
	ANDNQ   R8, R11, R8
	JNE     done               // F4 90-BF: past U+10FFFF
	JMP     ascii

done:
	VZEROUPPER
	SUBQ p+0(FP), DI
	MOVQ DI, m+40(FP)
	SUBQ cells_base+8(FP), SI
	SHRQ $4, SI
	MOVQ SI, k+48(FP)
	RET

shortest: // BX: the float's bits, R8: 1 if negative, X4: its magnitude
	// putFloatRest's work: 0, whole numbers below 2^53 as integers, and
	// every other normal float as shortestDigits finds its digits (the
	// same steps, on c·2^q), laid out as putDigits lays them out.
	MOVQ  BX, AX
	SHRQ  $52, AX
	ANDL  $0x7ff, AX           // the biased exponent
	LEAQ  -1(AX), DX
	CMPQ  DX, $0x7fe
	JAE   fzero                // 0 or subnormal, or NaN or an infinity
	MOVQ  $0xfffffffffffff, DX
	ANDQ  BX, DX
	BTSQ  $52, DX              // c
	SUBQ  $1075, AX            // q
	CMPQ  AX, $-52
	JLT   schub
	TESTQ AX, AX
	JGE   schub
	MOVQ  AX, R9
	NEGQ  R9
	BZHIQ R9, DX, R10          // the bits of c below the point
	JNE   schub
	SHRXQ R9, DX, BX           // a whole number below 2^53
	JMP   digits

fzero:
	SHLQ $1, BX
	JNE  done                  // subnormal, NaN or an infinity: appendCell's
	MOVB $0x30, (DI)           // 0 and -0: "0"
	MOVL $1, AX
	JMP  next

schub: // DX: c, AX: q
	VMOVQ  R8, X5              // the sign, until the digits are laid out
	MOVQ   DX, R12
	ANDL   $1, R12             // open: an odd c does not own its interval's ends
	MOVQ   DX, R9
	SHLQ   $2, R9              // cb
	IMUL3Q $78913, AX, R10
	SARQ   $18, R10            // k = floorLog10Pow2(q)
	LEAQ   -2(R9), R11         // cbl
	MOVQ   $0x10000000000000, BX
	CMPQ   DX, BX
	JNE    sreg
	CMPQ   AX, $-1074
	JEQ    sreg
	LEAQ   -1(R9), R11         // a power of two: the doubles below are twice as dense
	MOVQ   $661971961083, R10
	IMULQ  AX, R10
	MOVQ   $-274743187321, BX
	ADDQ   BX, R10
	SARQ   $41, R10            // k = floorLog10ThreeQuartersPow2(q)

sreg:
	VMOVQ  R10, X6             // k, until the digits are laid out
	MOVQ   R10, BX
	NEGQ   BX
	MOVQ   $913124641741, DX
	IMULQ  DX, BX
	SARQ   $38, BX
	LEAQ   2(AX)(BX*1), BX     // h = q + floorLog2Pow10(-k) + 2
	SHLXQ  BX, R9, R9          // cb<<h
	SHLXQ  BX, R11, R11        // cbl<<h
	MOVL   $2, AX
	SHLXQ  BX, AX, AX
	ADDQ   R9, AX              // cbr<<h
	SUBQ   $const_pow10Min, R10
	SHLQ   $4, R10
	LEAQ   ·pow10Table(SB), BX
	ADDQ   R10, BX             // &pow10Table[k-pow10Min]
	ROUNDODD(R9)               // vb
	ROUNDODD(R11)              // vbl
	ROUNDODD(AX)               // vbr
	ADDQ   R12, R11            // vbl+open
	MOVQ   R9, R10
	SHRQ   $2, R10             // s
	MOVQ   $0xcccccccccccccccd, DX
	MULXQ  R10, R8, BX
	SHRQ   $3, BX
	LEAQ   (BX)(BX*4), BX
	ADDQ   BX, BX              // lo, the multiple of 10^(k+1) at or below s

	// Without a branch (which one is inside is a coin toss for the
	// predictor): of s and t = s+1, the one inside, or the nearer if both
	// are (of two as near, the even); then lo or hi = lo+10 instead, if
	// exactly one of them is inside.
	MOVQ   R10, DX
	SHLQ   $2, DX              // s<<2
	LEAQ   2(DX), R8
	SUBQ   R8, R9              // vb - (s+t)<<1
	MOVL   R10, R8
	ANDL   $1, R8
	ADDQ   R9, R8              // > 0: t is nearer, or as near and even
	XORL   R9, R9
	TESTQ  R8, R8
	SETGT  R9B
	LEAQ   4(DX)(R12*1), R8    // t<<2 + open
	CMPQ   AX, R8
	SBBQ   R8, R8              // -1 if t is outside
	NOTQ   R8
	ANDQ   R8, R9              // 1 if t is inside and nearer
	CMPQ   DX, R11
	SBBQ   R8, R8              // -1 if s is outside
	NEGQ   R8
	ORQ    R8, R9
	ADDQ   R9, R10             // s or t
	MOVQ   BX, R8
	SHLQ   $2, R8              // lo<<2
	LEAQ   40(R8)(R12*1), DX   // hi<<2 + open
	CMPQ   R8, R11
	SBBQ   R9, R9              // -1 if lo is outside
	CMPQ   AX, DX
	SBBQ   DX, DX              // -1 if hi is outside
	XORQ   R9, DX              // not 0 if exactly one is inside
	ANDL   $10, R9
	ADDQ   BX, R9              // lo if it is inside, else hi
	TESTQ  DX, DX
	CMOVQNE R9, R10

sdigits: // R10: n, 16 or 17 digits with trailing zeros; X6: k, n·10^k the value
	MOVQ   $0xabcc77118461cefd, DX
	MULXQ  R10, R9, R11
	MOVQ   $0xe69594bec44de15c, DX // ceil(2^117/10^16): n/10^16 from n too,
	MULXQ  R10, R9, R12            // not from n/10^8, for a shorter chain
	SHRQ   $26, R11            // n/10^8
	SHRQ   $53, R12            // top, the 17th digit from the right, or 0
	IMUL3Q $100000000, R11, R9
	SUBQ   R9, R10             // the last eight digits
	IMUL3Q $100000000, R12, R9
	SUBQ   R9, R11             // the eight before them
	DIGITS(R10)                // w2
	DIGITS(R11)                // w1
	LZCNTQ R10, AX             // n's trailing zeros: the high zero bytes of w2,
	LZCNTQ R11, BX             // and of w1 when w2 is 0
	XORL   DX, DX
	TESTQ  R10, R10
	CMOVQNE DX, BX
	ADDQ   BX, AX
	SHRQ   $3, AX
	MOVQ   $0x3030303030303030, R9
	ADDQ   R9, R10
	ADDQ   R9, R11
	MOVL   $16, BX             // nd, the digits of n
	TESTQ  R12, R12
	JEQ    sd16
	MOVL   $17, BX             // the 17 digits as d0, d1, d2: top and w1's
	MOVQ   R10, R9             // first seven, w1's last and w2's first seven,
	SHRQ   $56, R9             // w2's last
	SHLQ   $8, R10
	MOVQ   R11, DX
	SHRQ   $56, DX
	ORQ    DX, R10
	SHLQ   $8, R11
	ADDQ   $0x30, R12
	ORQ    R12, R11
	MOVQ   R9, R12

sd16: // the text in R11, R10, R12 (d0, d1, d2); BX: nd; AX: its trailing zeros
	NEGQ   AX
	ADDQ   BX, AX              // sig, the significant digits
	VMOVQ  X6, DX
	LEAQ   -1(BX)(DX*1), DX    // x, the exponent of the first digit
	VMOVQ  X5, R8
	MOVB   $0x2d, (DI)         // '-', overwritten if not negative
	LEAQ   (DI)(R8*1), R9      // p, where the digits go
	VUCOMISD F_1EM6, X4
	JCS    sexp
	VUCOMISD F_1E21, X4
	JCC    sexp
	TESTQ  DX, DX
	JLT    ssmall
	INCQ   DX                  // the digits before the point
	CMPQ   DX, AX
	JGE    swhole
	// The text at p+1, then its first DX bytes at p, and the point after
	// them: sig+1 bytes.
	MOVQ   R11, 1(R9)
	MOVQ   R10, 9(R9)
	MOVB   R12, 17(R9)
	VMOVQ  R11, X7
	VPINSRQ $1, R10, X7, X7
	MOVQ   $-1, BX
	BZHIQ  DX, BX, BX
	KMOVQ  BX, K6
	VMOVDQU8 X7, K6, (R9)
	MOVB   $0x2e, (R9)(DX*1)   // '.'
	INCQ   AX
	JMP    fdone

swhole: // DX = x+1 digits: n's, then zeros (at most 5)
	MOVQ   R11, (R9)
	MOVQ   R10, 8(R9)
	MOVB   R12, 16(R9)
	MOVQ   $0x3030303030303030, R11
	MOVQ   R11, (R9)(BX*1)
	MOVQ   DX, AX
	JMP    fdone

ssmall: // "0." and -x-1 zeros (at most 5), then the digits: 1-x+sig bytes
	MOVQ   $0x3030303030302e30, BX
	MOVQ   BX, (R9)
	NEGQ   DX
	LEAQ   1(AX)(DX*1), AX
	LEAQ   1(R9)(DX*1), R9
	MOVQ   R11, (R9)
	MOVQ   R10, 8(R9)
	MOVB   R12, 16(R9)
	JMP    fdone

sexp: // d.ddde±x: the first digit, the point and the rest if sig > 1
	CMPQ   AX, $1
	JEQ    sexp1
	MOVQ   R11, 1(R9)
	MOVQ   R10, 9(R9)
	MOVB   R12, 17(R9)
	MOVB   R11, (R9)
	MOVB   $0x2e, 1(R9)        // '.'
	INCQ   AX
	JMP    sexpe

sexp1:
	MOVQ   R11, (R9)

sexpe: // AX: the length so far; the exponent, signed, without padding
	MOVB   $0x65, (R9)(AX*1)   // 'e'
	MOVL   $0x2b, BX           // '+'
	TESTQ  DX, DX
	JGE    sepos
	NEGQ   DX
	MOVL   $0x2d, BX           // '-'

sepos:
	MOVB   BX, 1(R9)(AX*1)
	LEAQ   2(R9)(AX*1), R10
	LEAQ   2(R8)(AX*1), R8
	LEAD(DX)                   // AX: the whole length
	JMP    next
