//go:build !purego

#include "textflag.h"

// func putPlainAVX512(d, s []byte) bool
//
// Requires AVX512F, AVX512BW and BMI2. putPlainGeneric (jsonwriter.go) is
// its specification. A string of at most maxFast (48) bytes is loaded with
// a mask of its length, so that no byte past it is read (masked-out bytes
// neither load nor fault, and read as zero); a byte below 0x20, '"', '\'
// or a byte of 0x80 and above makes the result false. Otherwise the string
// is stored at d[1:] with the same mask, between two quotes: d[0:n+2] is
// written and nothing else. It uses only Z16-Z19 of the vector
// registers, which leaves the upper halves of Y0-Y15 clean, so it needs no
// VZEROUPPER.
TEXT ·putPlainAVX512(SB), NOSPLIT, $0-49
	MOVQ s_len+32(FP), CX
	CMPQ CX, $48               // maxFast
	JA   no
	LEAQ 2(CX), R8
	CMPQ d_len+8(FP), R8
	JB   no                    // no room for the quotes
	MOVQ s_base+24(FP), SI
	MOVQ d_base+0(FP), DI
	MOVQ $-1, R9
	BZHIQ CX, R9, R9
	KMOVQ R9, K1               // the string's bytes
	VMOVDQU8.Z (SI), K1, Z16
	MOVL       $0x20, R10
	VPBROADCASTB R10, Z17
	MOVL       $0x22, R10
	VPBROADCASTB R10, Z18
	MOVL       $0x5c, R10
	VPBROADCASTB R10, Z19
	VPCMPUB  $1, Z17, Z16, K1, K2 // the string's bytes below 0x20
	VPCMPEQB Z18, Z16, K3         // '"' (the zeros past the string are not)
	VPCMPEQB Z19, Z16, K4         // '\'
	VPMOVB2M Z16, K5              // 0x80 and above
	KORQ     K2, K3, K2
	KORQ     K4, K5, K4
	KORTESTQ K2, K4
	JNZ      no
	MOVB      $0x22, (DI)
	VMOVDQU8  Z16, K1, 1(DI)
	MOVB      $0x22, 1(DI)(CX*1)
	MOVB      $1, ret+48(FP)
	RET

no:
	MOVB $0, ret+48(FP)
	RET
