//go:build !purego

#include "textflag.h"

// plainConsts holds 64 copies each of 0x20, '"' and '\', the bytes
// putPlainAVX512 compares with.
DATA plainConsts<>+0(SB)/8, $0x2020202020202020
DATA plainConsts<>+8(SB)/8, $0x2020202020202020
DATA plainConsts<>+16(SB)/8, $0x2020202020202020
DATA plainConsts<>+24(SB)/8, $0x2020202020202020
DATA plainConsts<>+32(SB)/8, $0x2020202020202020
DATA plainConsts<>+40(SB)/8, $0x2020202020202020
DATA plainConsts<>+48(SB)/8, $0x2020202020202020
DATA plainConsts<>+56(SB)/8, $0x2020202020202020
DATA plainConsts<>+64(SB)/8, $0x2222222222222222
DATA plainConsts<>+72(SB)/8, $0x2222222222222222
DATA plainConsts<>+80(SB)/8, $0x2222222222222222
DATA plainConsts<>+88(SB)/8, $0x2222222222222222
DATA plainConsts<>+96(SB)/8, $0x2222222222222222
DATA plainConsts<>+104(SB)/8, $0x2222222222222222
DATA plainConsts<>+112(SB)/8, $0x2222222222222222
DATA plainConsts<>+120(SB)/8, $0x2222222222222222
DATA plainConsts<>+128(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+136(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+144(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+152(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+160(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+168(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+176(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA plainConsts<>+184(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL plainConsts<>(SB), RODATA|NOPTR, $192

// func putPlainAVX512(d, s []byte) bool
//
// Requires AVX512F, AVX512BW and BMI2. putPlainGeneric (jsonwriter.go) is
// its specification. A string of at most maxFast (48) bytes is loaded with
// a mask of its length, so that no byte past it is read (masked-out bytes
// neither load nor fault, and read as zero); a byte below 0x20, '"', '\'
// or a byte of 0x80 and above makes the result false. Otherwise the string
// is stored at d[1:] with the same mask, between two quotes: d[0:n+2] is
// written and nothing else. It uses only Z16 of the vector registers,
// which leaves the upper halves of Y0-Y15 clean, so it needs no
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
	VPCMPUB  $1, plainConsts<>+0(SB), Z16, K1, K2 // the string's bytes below 0x20
	VPCMPEQB plainConsts<>+64(SB), Z16, K3       // '"' (the zeros past the string are not)
	VPCMPEQB plainConsts<>+128(SB), Z16, K4      // '\'
	VPMOVB2M Z16, K5                             // 0x80 and above
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
