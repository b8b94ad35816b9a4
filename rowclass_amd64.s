//go:build !purego

#include "textflag.h"

// func strClassesAVX512(cells *Value, n int, tbl *[128]uint8, cls *[32]uint8)
//
// Requires: AVX512F, AVX512BW, AVX512VBMI, BMI2.
//
// strClassesGeneric (rowclass.go) is its specification. For each of the n
// cells that is a string of 1 to 32 bytes (its p is not in valueTags and
// its u is 1 to 32), the string is loaded with a
// mask of its length (the bytes past it read as zero, and cannot fault),
// and each byte's class is looked up in the 128-byte table with VPERMI2B
// (masked, so that the bytes past the end have class 0); a byte of 0x80 or
// above, or of class byteHard, makes the string strHard, else a byte of a
// nonzero class makes it strQuote. The Value layout it reads is checked
// by TestKernelStateLayout (scan_amd64_test.go).
TEXT ·strClassesAVX512(SB), NOSPLIT, $0-32
	MOVQ      cells+0(FP), SI
	MOVQ      n+8(FP), CX
	MOVQ      tbl+16(FP), DX
	MOVQ      cls+24(FP), DI
	TESTQ     CX, CX
	JLE       done
	VMOVDQU64 (DX), Z1         // classes of 0x00-0x3f
	VMOVDQU64 64(DX), Z2       // classes of 0x40-0x7f
	MOVQ      $-1, R9
	MOVL      $2, R13          // strHard
	XORL      BX, BX           // the cell's index
	LEAQ      ·valueTags(SB), R14

loop:
	MOVQ  (SI), R11            // p: the data, or a tag
	MOVQ  R11, R10
	SUBQ  R14, R10
	CMPQ  R10, $8
	JB    next                 // a tag: not a string with text
	MOVQ  8(SI), R8            // length
	LEAQ  -1(R8), R10
	CMPQ  R10, $32
	JAE   next                 // null, a NumberValue, or longer than 32 bytes
	BZHIQ R8, R9, R10
	KMOVQ R10, K1              // the string's bytes
	VMOVDQU8.Z (R11), K1, Z0
	VPMOVB2M   Z0, K2          // bytes of 0x80 and above
	VPERMI2B.Z Z2, Z1, K1, Z0  // each byte's class, by its low 7 bits
	VPMOVB2M   Z0, K3          // bytes of class byteHard
	VPTESTMB   Z0, Z0, K4      // bytes of any class
	KORQ       K2, K3, K3
	KMOVQ      K3, R10
	KMOVQ      K4, R12
	XORL       AX, AX
	TESTQ      R12, R12
	SETNE      AL              // strQuote, or strPlain
	TESTQ      R10, R10
	CMOVLNE    R13, AX         // strHard
	MOVB       AL, (DI)(BX*1)

next:
	ADDQ $16, SI
	INCQ BX
	CMPQ BX, CX
	JLT  loop
	VZEROUPPER

done:
	RET
