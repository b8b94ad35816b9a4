//go:build !purego

#include "textflag.h"

// UNESCAPE_ARGS loads the arguments of unescape's kernels, src and dst,
// into SI, DX, DI and R8, and sets in (BX) and out (AX) to 0.
#define UNESCAPE_ARGS             \
	MOVQ src_base+0(FP), SI;  \
	MOVQ src_len+8(FP), DX;   \
	MOVQ dst_base+24(FP), DI; \
	MOVQ dst_len+32(FP), R8;  \
	XORL BX, BX;              \
	XORL AX, AX

// The mask arithmetic of unescape's kernels, on a block of n bytes (64 or
// 32) whose masks are in general registers, bit i for byte i: R13 the
// quotes, R14 the backslashes, R12 n, R11 not 0 when the kernel stops
// after the block (each may set it). The block starts at a byte that no
// backslash escapes.

// UNESCAPE_ESCAPES sets R10 to the escaped bytes, those after a run of
// backslashes of odd length (the run's last backslash escapes), found as
// indexrows_generic.go's quoteRegions finds them: follows & (even ^
// (oddStarts + B) << 1), with follows = B<<1, oddStarts the runs that
// start at odd bits and even a register that holds 0x5555... Then it sets
// R14 to E, the backslashes that escape, and R13 to the quotes that no
// backslash escapes. It clobbers CX. R10 may have bit n set (a backslash
// that escapes the next block's first byte), which UNESCAPE_LIMIT clears.
#define UNESCAPE_ESCAPES(even)  \
	LEAQ  (R14)(R14*1), CX; \
	ANDNQ R14, even, R10;   \
	ANDNQ R10, CX, R10;     \
	ADDQ  R14, R10;         \
	SHLQ  $1, R10;          \
	XORQ  even, R10;        \
	ANDQ  CX, R10;          \
	ANDNQ R14, R10, R14;    \
	ANDNQ R13, R10, R13

// UNESCAPE_LIMIT sets R12 to lim, the bytes of the block to decode: up to
// the first quote that ends the string (and the kernel stops after the
// block), else the n bytes less a last backslash that escapes the byte
// after them (the next block starts at it). It leaves in R9 the bits below
// lim, and clears those above in R10. noquote and limited are labels of
// its own. (It branches, rather than choose lim with CMOV, so that the
// next block's load does not wait for this block's masks.)
#define UNESCAPE_LIMIT(noquote, limited) \
	TZCNTQ R13, R9;                  \
	CMPQ   R9, R12;                  \
	JAE    noquote;                  \
	MOVQ   R9, R12;                  \
	MOVL   $1, R11;                  \
	JMP    limited;                  \
noquote:                                 \
	LEAQ   -1(R12), R9;              \
	BTQ    R9, R14;                  \
	JCC    limited;                  \
	MOVQ   R9, R12;                  \
limited:                                 \
	MOVQ   $-1, R9;                  \
	BZHIQ  R12, R9, R9;              \
	ANDQ   R9, R10

// UNESCAPE_CHECK takes in CX the bytes that equal what the byte after a
// backslash must be at their place for an escape \\ \" \n \r \t. Before
// the first escaped byte that does not, lim is cut to its backslash, and
// the kernel stops there after the block. It leaves in R9 the bits below
// lim, and clears those above in R10. valid is a label of its own.
#define UNESCAPE_CHECK(valid) \
	ANDNQ  R10, CX, CX;   \
	JZ     valid;         \
	TZCNTQ CX, R12;       \
	DECQ   R12;           \
	MOVL   $1, R11;       \
	MOVQ   $-1, R9;       \
	BZHIQ  R12, R9, R9;   \
	ANDQ   R9, R10;       \
valid:

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
	UNESCAPE_ARGS
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

	UNESCAPE_ESCAPES(R15)
	UNESCAPE_LIMIT(ue_noquote, ue_limited)
	// The escaped bytes must be those of \\ \" \n \r \t, checked by a
	// lookup on their low six bits.
	VPERMB   Z11, Z0, Z1
	VPCMPEQB Z1, Z0, K4
	KMOVQ    K4, CX
	UNESCAPE_CHECK(ue_valid)

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

// func unescapeAVX2(src, dst []byte) (in, out int)
//
// Requires AVX2, BMI1, BMI2 and POPCNT. unescapeAVX512's work with 32-byte
// blocks, for the CPUs without AVX-512 VBMI2 (or under TOON_KERNELS=avx2),
// with the same contract but for two rules: it stops when dst has room for
// fewer than 32 more bytes (its stores write dst's bytes from out to
// out+31 at most), and when src is shorter than 32 bytes it decodes
// nothing (in == out == 0). Its scalar specification is also unescape's
// loop (primitive.go).
//
// A block with no quote and no backslash, the common case, is copied as
// it is. Another one's escapes are found with unescapeAVX512's arithmetic
// on the 32-bit masks, and it stops at the same places. The escaped bytes
// are checked and translated by two VPSHUFB lookups on bits 1 to 4 of the
// byte, in which \\ \" \n \r \t do not collide, and put in place with
// VPBLENDVB under the mask of the escaped bytes, spread to the vector. The
// backslashes that escape are dropped 8 bytes at a time: VPSHUFB moves
// each 8-byte group's kept bytes to its front, by the pattern that
// unescapeKeep (unescape_amd64.go) holds for the group's 8-bit mask of
// kept bytes, and the four groups are stored one after the other, each at
// the count of bytes the ones before it kept (each store writes 8 bytes;
// the next overwrites what is past the kept ones).
//
// AVX2 has no masked load, so the last bytes of src, fewer than 32, are
// read as the block that ends where src ends, with the bits of the bytes
// already decoded cleared from its masks (a run of backslashes then starts
// no earlier than the first byte to decode, as in any block).
//
// Registers: SI src, DX len(src), DI dst, R8 len(dst), BX in (the block's
// start), AX out, R15 the block's bytes not yet decoded, Y8 '"', Y9 '\',
// Y10 0x0f, Y11 and Y12 the lookup tables, Y13 and Y14 spread a bitmask to
// bytes, Y15 the offsets of the odd 8-byte groups in their lanes.
TEXT ·unescapeAVX2(SB), NOSPLIT, $0-64
	UNESCAPE_ARGS
	CMPQ DX, $32
	JLT  u2_return       // src shorter than a block
	MOVL $0x22, R9
	VMOVQ R9, X8
	VPBROADCASTB X8, Y8
	MOVL $0x5c, R9
	VMOVQ R9, X9
	VPBROADCASTB X9, Y9
	MOVL $0x0f, R9
	VMOVQ R9, X10
	VPBROADCASTB X10, Y10
	VBROADCASTI128 unesc2From<>(SB), Y11
	VBROADCASTI128 unesc2To<>(SB), Y12
	VMOVDQU unesc2Spread<>(SB), Y13
	MOVQ    $0x8040201008040201, R9 // each byte's bit
	VMOVQ   R9, X14
	VPBROADCASTQ X14, Y14
	VBROADCASTI128 unesc2Groups<>(SB), Y15

u2_loop:
	MOVQ DX, R12
	SUBQ BX, R12         // bytes left in src
	CMPQ R12, $32
	JLT  u2_tail
	LEAQ 32(AX), R9
	CMPQ R9, R8
	JGT  u2_done         // no room for a block in dst
	VMOVDQU  (SI)(BX*1), Y0
	VPCMPEQB Y0, Y8, Y1
	VPCMPEQB Y0, Y9, Y2
	VPOR     Y1, Y2, Y3
	VPTEST   Y3, Y3
	JNZ      u2_block
	VMOVDQU  Y0, (DI)(AX*1) // no quote, no backslash: a copy
	ADDQ     $32, BX
	ADDQ     $32, AX
	JMP      u2_loop

u2_tail:
	// The last n < 32 bytes: the block that ends at src's end, whose
	// first d = 32-n bytes are decoded already.
	TESTQ R12, R12
	JLE   u2_done
	LEAQ  32(AX), R9
	CMPQ  R9, R8
	JGT   u2_done
	MOVL  $32, CX
	SUBQ  R12, CX        // d
	SUBQ  CX, BX         // the block's start, len(src)-32
	MOVQ  $-1, R15
	SHLXQ CX, R15, R15   // the bytes from d on
	MOVL  $1, R11        // stop after this block
	VMOVDQU  (SI)(BX*1), Y0
	VPCMPEQB Y0, Y8, Y1
	VPCMPEQB Y0, Y9, Y2
	JMP      u2_masks

u2_block:
	MOVQ $0xffffffff, R15
	XORL R11, R11        // R11: stop after this block

u2_masks:
	VPMOVMSKB Y1, R13
	ANDQ      R15, R13   // Q: quotes
	VPMOVMSKB Y2, R14
	ANDQ      R15, R14   // B: backslashes

	MOVL $0x55555555, R9
	UNESCAPE_ESCAPES(R9)
	MOVL $32, R12
	UNESCAPE_LIMIT(u2_noquote, u2_limited)
	// The escaped bytes must be those of \\ \" \n \r \t, checked by a
	// lookup on bits 1 to 4 of the byte (Y3, also the index of the
	// translation).
	VPSRLW    $1, Y0, Y3
	VPAND     Y10, Y3, Y3
	VPSHUFB   Y3, Y11, Y4
	VPCMPEQB  Y4, Y0, Y4
	VPMOVMSKB Y4, CX
	UNESCAPE_CHECK(u2_valid)

	// Translate the escaped bytes: Y5 = R10 spread to bytes (each byte
	// takes its mask byte, then keeps its own bit), the blend under it.
	ANDQ      R15, R9
	ANDNQ     R9, R14, R9  // the bytes kept: from d, below lim, not in E
	VPSHUFB   Y3, Y12, Y4
	VMOVQ     R10, X5
	VPBROADCASTD X5, Y5
	VPSHUFB   Y13, Y5, Y5
	VPAND     Y14, Y5, Y5
	VPCMPEQB  Y14, Y5, Y5
	VPBLENDVB Y5, Y4, Y0, Y0

	// Drop the bytes not kept: Y6 = the four groups' patterns.
	LEAQ      ·unescapeKeep(SB), R13
	MOVBQZX   R9, CX
	VMOVQ     (R13)(CX*8), X6
	MOVL      R9, CX
	SHRL      $8, CX
	MOVBQZX   CX, CX
	VPINSRQ   $1, (R13)(CX*8), X6, X6
	MOVL      R9, CX
	SHRL      $16, CX
	MOVBQZX   CX, CX
	VMOVQ     (R13)(CX*8), X7
	MOVL      R9, CX
	SHRL      $24, CX
	VPINSRQ   $1, (R13)(CX*8), X7, X7
	VINSERTI128 $1, X7, Y6, Y6
	VPADDB    Y15, Y6, Y6
	VPSHUFB   Y6, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VMOVQ     X0, (DI)(AX*1)
	MOVBQZX   R9, CX
	POPCNTL   CX, CX
	ADDQ      AX, CX
	VPEXTRQ   $1, X0, (DI)(CX*1)
	MOVWQZX   R9, CX
	POPCNTL   CX, CX
	ADDQ      AX, CX
	VMOVQ     X1, (DI)(CX*1)
	MOVL      $24, CX
	BZHIQ     CX, R9, CX
	POPCNTQ   CX, CX
	ADDQ      AX, CX
	VPEXTRQ   $1, X1, (DI)(CX*1)
	POPCNTQ   R9, R9
	ADDQ      R9, AX
	ADDQ      R12, BX
	TESTQ     R11, R11
	JZ        u2_loop

u2_done:
	VZEROUPPER

u2_return:
	MOVQ BX, in+48(FP)
	MOVQ AX, out+56(FP)
	RET

// unesc2To maps bits 1 to 4 of the byte after a backslash to the byte
// the escape stands for.
DATA unesc2To<>+0(SB)/8, $0x0a00000000002200
DATA unesc2To<>+8(SB)/8, $0x005c000000090d00
GLOBL unesc2To<>(SB), RODATA|NOPTR, $16

// unesc2From maps them to the byte it must be (and, where no escape has
// those bits, to a byte that has other bits 1 to 4).
DATA unesc2From<>+0(SB)/8, $0x6e0e0c0a08062202
DATA unesc2From<>+8(SB)/8, $0x005c1c1a18747212
GLOBL unesc2From<>(SB), RODATA|NOPTR, $16

// unesc2Spread gives each byte of a lane the byte of a broadcast 32-bit
// mask that holds its bit.
DATA unesc2Spread<>+0(SB)/8, $0x0000000000000000
DATA unesc2Spread<>+8(SB)/8, $0x0101010101010101
DATA unesc2Spread<>+16(SB)/8, $0x0202020202020202
DATA unesc2Spread<>+24(SB)/8, $0x0303030303030303
GLOBL unesc2Spread<>(SB), RODATA|NOPTR, $32

// unesc2Groups is 8 in the second 8-byte group of a lane.
DATA unesc2Groups<>+0(SB)/8, $0x0000000000000000
DATA unesc2Groups<>+8(SB)/8, $0x0808080808080808
GLOBL unesc2Groups<>(SB), RODATA|NOPTR, $16
