//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "blocks_amd64.h"

// The kernel that makes runFields's masks on amd64 (linemasks.go). It has
// no Go twin: without it runFields reads lines by words; lineMasksRef in
// linemasks_amd64_test.go defines the masks a byte at a time.

// Key characters are classed by their two nibbles, with a table look-up
// (VPSHUFB) for each, whose results share a bit only for a key character.
// The classes are the high nibbles of key characters, each with the low
// nibbles it takes: 1 for 0x2 (0xe, '.'), 2 for 0x3 (0x0 to 0x9), 4 for
// 0x4 and 0x6 (0x1 to 0xf), 8 for 0x5 (0x0 to 0xa, and 0xf, '_'), 16 for
// 0x7 (0x0 to 0xa). The high nibble of a byte >= 0x80 has no class. Each
// table is loaded into both 128-bit lanes (VBROADCASTI128).
DATA lineKeyHigh<>+0(SB)/8, $0x1004080402010000
DATA lineKeyHigh<>+8(SB)/8, $0
GLOBL lineKeyHigh<>(SB), RODATA|NOPTR, $16

DATA lineKeyLow<>+0(SB)/8, $0x1e1e1e1e1e1e1e1a
DATA lineKeyLow<>+8(SB)/8, $0x0c050404041c1e1e
GLOBL lineKeyLow<>(SB), RODATA|NOPTR, $16

// The bytes broadcast: LF, space, and the mask of a nibble.
DATA lineBytes<>+0(SB)/1, $0x0a
DATA lineBytes<>+1(SB)/1, $0x20
DATA lineBytes<>+2(SB)/1, $0x0f
GLOBL lineBytes<>(SB), RODATA|NOPTR, $4

// LM_KEY sets dst to 0xff in each byte of src that is no key character.
#define LM_KEY(src, dst) \
	VPSRLW   $4, src, Y2;  \
	VPAND    Y6, Y2, Y2;   \
	VPSHUFB  Y2, Y4, Y2;   \
	VPAND    Y6, src, Y3;  \
	VPSHUFB  Y3, Y5, Y3;   \
	VPAND    Y2, Y3, Y2;   \
	VPCMPEQB Y7, Y2, dst

// func lineMasksAVX2(b *[64]byte, m *lineMasks)
//
// Requires AVX2.
TEXT ·lineMasksAVX2(SB), NOSPLIT, $0-16
	MOVQ b+0(FP), SI
	MOVQ m+8(FP), DI
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	VPBROADCASTB lineBytes<>+0(SB), Y8 // LF
	AVX2_EQ64(Y8, AX, DX)
	MOVQ         AX, lineMasks_lf(DI)
	VPBROADCASTB lineBytes<>+1(SB), Y8 // space
	AVX2_EQ64(Y8, AX, DX)
	MOVQ         AX, lineMasks_sp(DI)

	VBROADCASTI128 lineKeyHigh<>(SB), Y4
	VBROADCASTI128 lineKeyLow<>(SB), Y5
	VPBROADCASTB   lineBytes<>+2(SB), Y6
	VPXOR          Y7, Y7, Y7
	LM_KEY(Y0, Y8)
	LM_KEY(Y1, Y9)
	AVX2_MOVMSK64(Y8, Y9, AX, DX)
	NOTQ         AX
	MOVQ         AX, lineMasks_key(DI)

	AVX2_MOVMSK64(Y0, Y1, AX, DX)
	MOVQ AX, lineMasks_hi(DI)
	VZEROUPPER
	RET
