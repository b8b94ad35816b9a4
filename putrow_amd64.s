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
// appendCell, with differences: it also writes Uint cells and strings of
// 33 to 63 bytes, and it leaves the floats that putFloat8 does not take.
// It returns the number of bytes it wrote, up to the last delimiter, and
// of cells.
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
// u*0xabcc77118461cefd, shifted by 26 (exact for every uint64).
//
// The Value layout, the kinds' numbers and the charClass bit come from
// go_asm.h (Value_p, const_vInt, const_clsFirst); the shifts by 4 (the
// size of a Value) and the 8 tags of valueTags are checked by
// TestKernelLayout (kernels_amd64_test.go), the digit constants by
// TestRowDigitConstants, the UTF-8 test by TestRowUTF8, the rest by
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
GLOBL rowFloats<>(SB), RODATA|NOPTR, $64

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
	JCS      done              // below 1e-6, or NaN
	VUCOMISD F_1E7, X4
	JCC      done              // 1e7 or more
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
	JNE        done
	JPS        done
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
