//go:build !purego

#include "textflag.h"

// func unescapeAVX512(src, dst []byte) (in, out int)
//
// Requires AVX512F, AVX512BW, AVX512_VBMI, AVX512_VBMI2, BMI1, BMI2 and
// POPCNT. The body of a quoted string a block of 64 bytes at a time, for
// unescape (primitive.go), whose scalar loop is its specification: src
// starts inside the string at a byte that no backslash escapes; the kernel
// decodes src into dst and returns how far it went in each, stopping
//   - at the string's closing quote (src[in] == '"'),
//   - at a backslash whose escape is not one of \\ \" \n \r \t (\u, or a
//     bad one: src[in] is that backslash, for the scalar code to decode or
//     reject),
//   - at the end of src (in == len(src), or in == len(src)-1 when src ends
//     with a backslash that escapes nothing),
//   - or when dst has room for fewer than 64 more bytes.
// It never stops inside an escape. Each block is read with a masked load,
// so nothing past src is read; each is written to dst as a whole 64-byte
// store, so dst's bytes from out to out+63 may change.
//
// A block's escaped bytes are those after a run of backslashes of odd
// length (the run's last backslash escapes), found from the masks of
// backslashes with an addition, as indexrows_generic.go's quoteRegions
// does; a run cut by the block's end is left to the next block (the
// kernel stops before a backslash that escapes the next block's first
// byte). The escaped bytes are checked and translated by two VPERMB
// lookups on their low six bits, in which \\ \" \n \r \t do not collide;
// the backslashes that escape are dropped by VPCOMPRESSB.
//
// Registers: SI src, DX len(src), DI dst, R8 len(dst), BX in, AX out,
// R15 the even bits, Z8 '"', Z9 '\', Z10 and Z11 the lookup tables.
TEXT ·unescapeAVX512(SB), NOSPLIT, $0-64
	MOVQ src_base+0(FP), SI
	MOVQ src_len+8(FP), DX
	MOVQ dst_base+24(FP), DI
	MOVQ dst_len+32(FP), R8
	XORL BX, BX
	XORL AX, AX
	MOVL $0x22, R9
	VPBROADCASTB R9, Z8
	MOVL $0x5c, R9
	VPBROADCASTB R9, Z9
	VMOVDQU64 unescTo<>(SB), Z10
	VMOVDQU64 unescFrom<>(SB), Z11
	MOVQ $0x5555555555555555, R15

ue_loop:
	MOVQ DX, R12
	SUBQ BX, R12         // bytes left in src
	JLE  ue_done
	LEAQ 64(AX), R9
	CMPQ R9, R8
	JGT  ue_done         // no room for a block in dst
	XORL R11, R11        // R11: stop after this block
	MOVQ $64, R9
	CMPQ R12, R9
	JLT  ue_tail
	MOVQ R9, R12         // n = 64
	JMP  ue_load

ue_tail:
	MOVL $1, R11         // the last bytes of src

ue_load:
	MOVQ  $-1, R9
	BZHIQ R12, R9, R9    // the low n bits
	KMOVQ R9, K1
	VMOVDQU8.Z (SI)(BX*1), K1, Z0
	VPCMPEQB Z0, Z8, K2
	KMOVQ    K2, R13     // Q: quotes
	VPCMPEQB Z0, Z9, K3
	KMOVQ    K3, R14     // B: backslashes

	// R10 = the escaped bytes: follows & (even ^ (oddStarts + B) << 1),
	// with follows = B<<1 and oddStarts the runs that start at odd bits.
	LEAQ  (R14)(R14*1), CX // follows
	ANDNQ R14, R15, R10    // B &^ even
	ANDNQ R10, CX, R10     // the odd starts
	ADDQ  R14, R10
	SHLQ  $1, R10
	XORQ  R15, R10
	ANDQ  CX, R10          // escaped
	ANDNQ R14, R10, R14    // R14 = E: the backslashes that escape
	ANDNQ R13, R10, R13    // the quotes that are not escaped

	// R12 = lim, the bytes of the block to decode: up to the first quote
	// that ends the string, else the n bytes less a last backslash that
	// escapes the byte after them.
	TZCNTQ R13, R9       // 64 when there is none
	CMPQ   R9, R12
	JAE    ue_noquote
	MOVQ   R9, R12
	MOVL   $1, R11
	JMP    ue_limited

ue_noquote:
	LEAQ -1(R12), R9
	BTQ  R9, R14
	JCC  ue_limited
	MOVQ R9, R12

ue_limited:
	MOVQ  $-1, R9
	BZHIQ R12, R9, R9
	ANDQ  R9, R10        // the escaped bytes below lim
	// The escaped bytes must be those of \\ \" \n \r \t; before the first
	// that is not, the block is decoded and the kernel stops at its
	// backslash.
	VPERMB   Z11, Z0, Z1
	VPCMPEQB Z1, Z0, K4
	KMOVQ    K4, CX
	ANDNQ    R10, CX, CX
	JZ       ue_valid
	TZCNTQ   CX, R12
	DECQ     R12
	MOVL     $1, R11
	MOVQ     $-1, R9
	BZHIQ    R12, R9, R9
	ANDQ     R9, R10

ue_valid:
	// Translate the escaped bytes, drop the backslashes that escape, store.
	ANDNQ       R9, R14, R9  // the bytes kept: below lim, not in E
	KMOVQ       R10, K5
	VMOVDQA64   Z0, Z2
	VPERMB      Z10, Z0, K5, Z2
	KMOVQ       R9, K6
	VPCOMPRESSB Z2, K6, Z3
	VMOVDQU64   Z3, (DI)(AX*1)
	POPCNTQ     R9, R9
	ADDQ        R9, AX
	ADDQ        R12, BX
	TESTQ       R11, R11
	JZ          ue_loop

ue_done:
	VZEROUPPER
	MOVQ BX, in+48(FP)
	MOVQ AX, out+56(FP)
	RET

// unescTo maps the low six bits of the byte after a backslash to the byte
// the escape stands for; unescFrom to the byte it must be (and, where no
// escape has those bits, to a byte that has other low bits).
DATA unescTo<>+0(SB)/8, $0x0000000000000000
DATA unescTo<>+8(SB)/8, $0x0000000000000000
DATA unescTo<>+16(SB)/8, $0x0000000000000000
DATA unescTo<>+24(SB)/8, $0x0000005c00000000
DATA unescTo<>+32(SB)/8, $0x0000000000220000
DATA unescTo<>+40(SB)/8, $0x000a000000000000
DATA unescTo<>+48(SB)/8, $0x00000009000d0000
DATA unescTo<>+56(SB)/8, $0x0000000000000000
GLOBL unescTo<>(SB), RODATA|NOPTR, $64
DATA unescFrom<>+0(SB)/8, $0x0607040502030001
DATA unescFrom<>+8(SB)/8, $0x0e0f0c0d0a0b0809
DATA unescFrom<>+16(SB)/8, $0x1617141512131011
DATA unescFrom<>+24(SB)/8, $0x1e1f1c5c1a1b1819
DATA unescFrom<>+32(SB)/8, $0x2627242522222021
DATA unescFrom<>+40(SB)/8, $0x2e6e2c2d2a2b2829
DATA unescFrom<>+48(SB)/8, $0x3637347432723031
DATA unescFrom<>+56(SB)/8, $0x3e3f3c3d3a3b3839
GLOBL unescFrom<>(SB), RODATA|NOPTR, $64
