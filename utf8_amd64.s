//go:build !purego

#include "textflag.h"

// The rules below are those of utf8Valid (utf8.go), whose automaton is
// the specification of both kernels: the Unicode standard's table 3-7.
//
// Each byte is checked with the byte before it by three table lookups
// (VPSHUFB) on the high nibble of the byte before, its low nibble, and the
// high nibble of the byte itself: each table gives the errors that nibble
// allows, one bit per kind of error (a lead byte without its continuation
// bytes, a continuation byte after ASCII, overlong forms of 2, 3 and 4
// bytes, surrogates, values above U+10FFFF, two continuation bytes in a
// row), and a pair breaks a rule when the three agree on a bit. Two
// continuation bytes in a row are an error unless a lead byte of 3 or 4
// bytes stands two or three bytes back, which the saturating subtractions
// find.
//
// Registers of both: Y0 the block, Y15 the block before, Y14 the errors,
// Y13 the block's open sequences, Y7-Y12 the constants (U8CONSTS).

// U8CONSTS loads the constants of CHECK and OPEN into Y7-Y12. AX is
// clobbered.
#define U8CONSTS \
	VBROADCASTI128 u8Byte1High<>(SB), Y8; \
	VBROADCASTI128 u8Byte1Low<>(SB), Y9;  \
	VBROADCASTI128 u8Byte2High<>(SB), Y10; \
	MOVL           $0x0f, AX;             \
	VMOVQ          AX, X11;               \
	VPBROADCASTB   X11, Y11;              \
	VMOVDQU        u8Open<>(SB), Y12;     \
	MOVL           $0x80, AX;             \
	VMOVQ          AX, X7;                \
	VPBROADCASTB   X7, Y7

// CHECK ORs into Y14 the errors of the block Y0, with the block before it
// in Y15. Y1-Y6 are clobbered.
#define CHECK \
	VPERM2I128 $0x21, Y0, Y15, Y4; \
	VPALIGNR   $15, Y4, Y0, Y1;    \
	VPALIGNR   $14, Y4, Y0, Y2;    \
	VPALIGNR   $13, Y4, Y0, Y3;    \
	VPSRLW     $4, Y1, Y5;         \
	VPAND      Y11, Y5, Y5;        \
	VPSHUFB    Y5, Y8, Y5;         \
	VPAND      Y11, Y1, Y6;        \
	VPSHUFB    Y6, Y9, Y6;         \
	VPAND      Y6, Y5, Y5;         \
	VPSRLW     $4, Y0, Y6;         \
	VPAND      Y11, Y6, Y6;        \
	VPSHUFB    Y6, Y10, Y6;        \
	VPAND      Y6, Y5, Y5;         \
	VPSUBUSB   u8Sub3<>(SB), Y2, Y2; \
	VPSUBUSB   u8Sub4<>(SB), Y3, Y3; \
	VPOR       Y3, Y2, Y2;         \
	VPAND      Y7, Y2, Y2;         \
	VPXOR      Y2, Y5, Y5;         \
	VPOR       Y5, Y14, Y14

// OPEN sets Y13 to the sequences the block Y0 leaves open at its end (not
// zero where its last three bytes reach F0, E0 and C0), for the block
// after it to close.
#define OPEN VPSUBUSB Y12, Y0, Y13

// func utf8AVX2(b []byte) bool
//
// Requires AVX2. Checks b, whose length is a multiple of 32, 32 bytes at a
// time, for utf8Valid. It reports false when some byte breaks a rule with
// the bytes before it; a sequence that b cuts short at its end is not an
// error here: utf8Valid checks b's last sequence again with the bytes
// after it. In CHECK, Y1 holds the bytes before each (prev1), Y2 those two
// before and Y3 three before; the lookups are those by the high nibble of
// the byte before, by its low nibble, and by the high nibble of the byte
// itself, and the subtractions leave 0x80 where a lead byte of 3 or 4
// bytes stands two or three back. A block of ASCII is only checked for a
// sequence left open by the block before.
//
// Registers: SI b, DX len(b), BX offset.
TEXT ·utf8AVX2(SB), NOSPLIT, $0-25
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	XORL BX, BX
	VPXOR Y15, Y15, Y15
	VPXOR Y14, Y14, Y14
	VPXOR Y13, Y13, Y13
	U8CONSTS

u8_loop:
	CMPQ BX, DX
	JGE  u8_done
	VMOVDQU (SI)(BX*1), Y0
	ADDQ    $32, BX
	VPMOVMSKB Y0, AX
	TESTL   AX, AX
	JNZ     u8_check
	// ASCII: only a sequence left open before it is an error.
	VPOR    Y13, Y14, Y14
	VPXOR   Y13, Y13, Y13
	VMOVDQA Y0, Y15
	JMP     u8_loop

u8_check:
	CHECK
	OPEN
	VMOVDQA Y0, Y15
	JMP     u8_loop

u8_done:
	VPTEST Y14, Y14
	SETEQ  ret+24(FP)
	VZEROUPPER
	RET

// func utf8ShortAVX2(p *byte, n int) bool
//
// Requires AVX2. Reports whether the n bytes at p, 0 < n < 64, are
// well-formed UTF-8 (whole: a sequence cut short at the end is an error),
// for utf8Valid. It reads 32 bytes from p, and 64 when n > 32, so those
// must be readable (utf8Valid makes sure they lie in p's page); the bytes
// past the text are taken as zeros, whose pairs with the text's last
// bytes make a sequence left open an error (and a text of 32 bytes is
// followed by a block of zeros, or OPEN finds what it leaves open).
//
// Registers: SI p, DX n, Y13 n in every byte (until OPEN), Y4 the mask
// of the text's bytes.
TEXT ·utf8ShortAVX2(SB), NOSPLIT, $0-17
	MOVQ  p+0(FP), SI
	MOVQ  n+8(FP), DX
	VPXOR Y15, Y15, Y15
	VPXOR Y14, Y14, Y14
	U8CONSTS
	VMOVQ        DX, X13
	VPBROADCASTB X13, Y13
	VPCMPGTB     ·byteOffsets(SB), Y13, Y4 // n > i: byte i is the text's
	VPAND        (SI), Y4, Y0
	CHECK
	CMPQ         DX, $32
	JLE          u8s_done
	VMOVDQA      Y0, Y15
	VPCMPGTB     ·byteOffsets+32(SB), Y13, Y4
	VPAND        32(SI), Y4, Y0
	CHECK

u8s_done:
	OPEN
	VPOR   Y13, Y14, Y14
	VPTEST Y14, Y14
	SETEQ  ret+16(FP)
	VZEROUPPER
	RET

// The tables of the three lookups: for each nibble, the errors it allows
// (bit 0: a lead byte not followed by a continuation byte; 1: a
// continuation byte after ASCII; 2: an overlong form of 3 bytes; 3: above
// U+10FFFF; 4: a surrogate; 5: an overlong form of 2 bytes; 6: above
// U+10FFFF after F4 or an overlong form of 4 bytes; 7: two continuation
// bytes in a row).
DATA u8Byte1High<>+0(SB)/8, $0x0202020202020202
DATA u8Byte1High<>+8(SB)/8, $0x4915012180808080
GLOBL u8Byte1High<>(SB), RODATA|NOPTR, $16
DATA u8Byte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA u8Byte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL u8Byte1Low<>(SB), RODATA|NOPTR, $16
DATA u8Byte2High<>+0(SB)/8, $0x0101010101010101
DATA u8Byte2High<>+8(SB)/8, $0x01010101babaaee6
GLOBL u8Byte2High<>(SB), RODATA|NOPTR, $16

// u8Sub3 and u8Sub4 take a byte to 0x80 or above from E0 and from F0 on.
DATA u8Sub3<>+0(SB)/8, $0x6060606060606060
DATA u8Sub3<>+8(SB)/8, $0x6060606060606060
DATA u8Sub3<>+16(SB)/8, $0x6060606060606060
DATA u8Sub3<>+24(SB)/8, $0x6060606060606060
GLOBL u8Sub3<>(SB), RODATA|NOPTR, $32
DATA u8Sub4<>+0(SB)/8, $0x7070707070707070
DATA u8Sub4<>+8(SB)/8, $0x7070707070707070
DATA u8Sub4<>+16(SB)/8, $0x7070707070707070
DATA u8Sub4<>+24(SB)/8, $0x7070707070707070
GLOBL u8Sub4<>(SB), RODATA|NOPTR, $32

// u8Open: a block's last three bytes leave a sequence open when they reach
// F0, E0 and C0 (the others never do).
DATA u8Open<>+0(SB)/8, $0xffffffffffffffff
DATA u8Open<>+8(SB)/8, $0xffffffffffffffff
DATA u8Open<>+16(SB)/8, $0xffffffffffffffff
DATA u8Open<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL u8Open<>(SB), RODATA|NOPTR, $32
