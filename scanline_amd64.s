//go:build !purego

#include "textflag.h"

// Kernels behind scanLine on amd64. scan_generic.go is their specification:
// for every input they must give exactly what scanLineGeneric gives (the
// tests in scan_test.go check this). scanLineBlockModel in scan_test.go is
// the same block algorithm written in Go.
//
// Each 64-byte block becomes bitmasks (bit i = byte i of the block): Q '"',
// B '\', D delim, C ':', K '['. Escaped bytes are found from the parity of
// backslash runs (simdjson's find_escaped), carrying an odd run into the
// next block. A quote not escaped always toggles the quoted region, so the
// regions are the inclusive prefix-xor of those quotes (a carry-less
// multiply by all ones), xor the region carried in from the last block. A
// backslash only escapes inside a region, so an escaped quote that stands
// outside every region is real and opens one: a short loop fixes those up
// (they do not occur in TOON that an encoder wrote). Then D, C and K are
// masked by the complement of the regions; the set bits of D are stored as
// int32 positions, and the first set bits of C and K are kept.
//
// Register use, shared by both kernels and by the macros below:
//   SI line base       DX line length       BX offset of the current block
//   DI out base        R15 out length       AX separators written so far
//   R8 *scanState      R9 inq (0 or ^0)     R10 esc (0 or 1)
//   CX tail shift (AVX2 only)               R11-R14 scratch
//   X6 CLMUL operand   X14 all-ones qword   X15 spill of D

// scanState field offsets (see scan_amd64.go).
#define ST_POS 0
#define ST_INQ 8
#define ST_ESC 16
#define ST_COLON 24
#define ST_BRACKET 32
#define ST_QUOTE 40

// LOAD_STATE reads a kernel's arguments (every kernel takes src, delim, st
// and out, in that order) and the carried state, whose first three fields
// are at the same offsets in scanState and idxState (ST_POS, ST_INQ, and
// third, ST_ESC or IX_HIGH, into R10; TestKernelStateLayout checks them).
#define LOAD_STATE(third) \
	MOVQ src_base+0(FP), SI;   \
	MOVQ src_len+8(FP), DX;    \
	MOVQ st+32(FP), R8;        \
	MOVQ out_base+40(FP), DI;  \
	MOVQ out_len+48(FP), R15;  \
	XORQ AX, AX;               \
	MOVQ ST_POS(R8), BX;       \
	MOVQ ST_INQ(R8), R9;       \
	MOVQ third(R8), R10;       \
	MOVQ $-1, R11;             \
	VMOVQ R11, X14

// STORE_STATE writes the carried state back (R10 to third) and returns AX.
#define STORE_STATE(third) \
	MOVQ BX, ST_POS(R8); \
	MOVQ R9, ST_INQ(R8); \
	MOVQ R10, third(R8); \
	MOVQ AX, ret+64(FP); \
	VZEROUPPER;          \
	RET

// SCAN_ROOM leaves the kernel (to let the Go side grow out) when the raw
// delimiter mask in R13 has more bits than out has room left. It runs before
// the block changes any state, so the block is simply scanned again.
#define SCAN_ROOM \
	POPCNTQ R13, R11; \
	MOVQ    R15, R12; \
	SUBQ    AX, R12;  \
	CMPQ    R11, R12; \
	JGT     done

// PREFIX_XOR sets F to the regions of a block whose unescaped quotes are
// Q: their inclusive prefix-xor (a carry-less multiply by all ones, X14)
// xor the region carried in (R9). It clobbers X6.
#define PREFIX_XOR(Q, F) \
	VMOVQ Q, X6;                          \
	VPCLMULQDQ $0, X14, X6, X6;           \
	VMOVQ X6, F;                          \
	XORQ  R9, F

// QUOTE_REGIONS is the quote arithmetic of the file comment, shared by
// every kernel: from Q (a block's quotes), B (its backslashes), esc (1 when
// its first byte is escaped by an odd backslash run carried in, else 0)
// and R9 (the region carried in, 0 or ^0), it leaves the block's quoted
// regions in F and the escape carry into the next block in esc. It
// clobbers Q, B, T and X6, and needs X14 all ones; fix and fixed are its
// labels, named apart in each kernel.
#define QUOTE_REGIONS(Q, B, esc, F, T, fix, fixed) \
	ANDNQ B, esc, B;                      \ // B &^= esc
	LEAQ  (esc)(B*2), F;                  \ // follows = B<<1 | esc
	MOVQ  $-0x5555555555555556, T;        \ // odd bits
	ANDQ  B, T;                           \
	ANDNQ T, F, T;                        \ // oddStarts = B & odd &^ follows
	XORL  esc, esc;                       \
	ADDQ  B, T;                           \ // oddStarts + B
	ADCQ  $0, esc;                        \ // esc = carry out
	SHLQ  $1, T;                          \
	MOVQ  $0x5555555555555555, B;         \
	XORQ  T, B;                           \
	ANDQ  F, B;                           \ // B = escaped bytes
	ANDNQ Q, B, F;                        \ // F = unescaped quotes
	ANDQ  Q, B;                           \ // B = escaped quotes
	PREFIX_XOR(F, F);                     \ // F = inside a region
	ANDNQ B, F, Q;                        \ // escaped quotes outside regions
	JZ    fixed;                          \
fix:                                      \
	BLSIQ   Q, T;                         \
	NEGQ    T;                            \
	XORQ    T, F;                         \ // a region opens there
	BLSMSKQ Q, T;                         \
	ANDNQ   B, T, B;                      \ // drop escaped quotes up to it
	ANDNQ   B, F, Q;                      \
	JNZ     fix;                          \
fixed:

// SCAN_QUOTES takes Q in R11, B in R12 and the raw D in R13. It leaves the
// unquoted bytes' mask in R13, D in R11, and updates inq, esc and the quote
// flag. A block with no '"' or '\' and no escape carried in is settled
// without the arithmetic: all of it is unquoted, or, inside a region, none
// of it is and the block is done (jump to next_block). One with quotes but
// no '\' (nor escape carried in) has the prefix-xor of its quotes as its
// regions.
#define SCAN_QUOTES \
	MOVQ  R11, R14;                       \
	ORQ   R12, R14;                       \
	ORQ   R10, R14;                       \
	JNZ   quotes_slow;                    \
	TESTQ R9, R9;                         \
	JNZ   next_block;                     \
	MOVQ  R13, R11;                       \
	MOVQ  $-1, R13;                       \
	JMP   quotes_done;                    \
quotes_slow:                              \
	ORQ   R11, ST_QUOTE(R8);              \
	VMOVQ R13, X15;                       \
	MOVQ  R12, R14;                       \
	ORQ   R10, R14;                       \
	JNZ   quotes_esc;                     \
	PREFIX_XOR(R11, R13);                 \ // no '\': every quote toggles
	JMP   quotes_fixed;                   \
quotes_esc:                               \
	QUOTE_REGIONS(R11, R12, R10, R13, R14, quotes_fix, quotes_fixed) \
	MOVQ  R13, R9;                        \
	SARQ  $63, R9;                        \ // inq for the next block
	NOTQ  R13;                            \
	VMOVQ X15, R11;                       \
quotes_done:

// SCAN_EMIT stores BX+i for every set bit i of D&R13 at out[AX], AX++.
#define SCAN_EMIT \
	ANDQ   R13, R11;         \
	JZ     emit_done;        \
emit_loop:                   \
	TZCNTQ R11, R14;         \
	ADDQ   BX, R14;          \
	MOVL   R14, (DI)(AX*4);  \
	INCQ   AX;               \
	BLSRQ  R11, R11;         \
	JNZ    emit_loop;        \
emit_done:

// SCAN_FIRST records BX+tzcnt(R12&R13) in the state field at off if the
// field is still -1 and the mask is not empty.
#define SCAN_FIRST(off, skip) \
	ANDQ   R13, R12;       \
	JZ     skip;           \
	TZCNTQ R12, R12;       \
	ADDQ   BX, R12;        \
	MOVQ   R12, off(R8)

// SCAN_STORE_STATE is STORE_STATE for the scanLine kernels, with st.pos
// no further than the end of the line.
#define SCAN_STORE_STATE \
	CMPQ    BX, DX;     \
	CMOVQGT DX, BX;     \
	STORE_STATE(ST_ESC)

// AVX2_BCAST fills every byte of ymm with the byte in R11 (xmm is ymm's
// low half).
#define AVX2_BCAST(xmm, ymm) \
	VMOVQ        R11, xmm; \
	VPBROADCASTB xmm, ymm

// AVX2_SCAN_CONSTS sets Y8 to '"', Y9 to '\', Y10 to delim and Y11 to ':'
// in every byte: the constants both AVX2 kernels compare with.
#define AVX2_SCAN_CONSTS \
	MOVL    $0x22, R11;         \
	AVX2_BCAST(X8, Y8);         \
	MOVL    $0x5c, R11;         \
	AVX2_BCAST(X9, Y9);         \
	MOVBQZX delim+24(FP), R11;  \
	AVX2_BCAST(X10, Y10);       \
	MOVL    $0x3a, R11;         \
	AVX2_BCAST(X11, Y11)

// AVX512_SCAN_CONSTS sets Z8 to '"', Z9 to '\', Z11 to ':' and Z10 to delim
// in every byte, the constants both AVX-512 kernels compare with, and
// leaves delim in R11.
#define AVX512_SCAN_CONSTS \
	MOVL         $0x22, R11;        \
	VPBROADCASTB R11, Z8;           \
	MOVL         $0x5c, R11;        \
	VPBROADCASTB R11, Z9;           \
	MOVL         $0x3a, R11;        \
	VPBROADCASTB R11, Z11;          \
	MOVBQZX      delim+24(FP), R11; \
	VPBROADCASTB R11, Z10

// AVX2_MASK sets dst to the 64-bit mask of the bytes of Y0:Y1 equal to the
// byte broadcast in cmp, shifted right by CX.
#define AVX2_MASK(cmp, dst) \
	VPCMPEQB  Y0, cmp, Y2; \
	VPCMPEQB  Y1, cmp, Y3; \
	VPMOVMSKB Y2, dst;     \
	VPMOVMSKB Y3, R14;     \
	SHLQ      $32, R14;    \
	ORQ       R14, dst;    \
	SHRXQ     CX, dst, dst

// IX_ROOM jumps to done unless a whole block is left in src and out has
// room for 64 more offsets.
#define IX_ROOM(done) \
	LEAQ 64(BX), R11; \
	CMPQ R11, DX;     \
	JGT  done;        \
	MOVQ R15, R11;    \
	SUBQ AX, R11;     \
	CMPQ R11, $64;    \
	JLT  done

// func scanAVX2(src []byte, delim byte, st *scanState, out []int32) int
//
// Requires AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ. Requires len(line) >= 64:
// the last partial block is read as the 64 bytes ending at the end of the
// line, whose masks are shifted right past the bytes already scanned, so
// nothing outside line is read. The Go side copies shorter lines into a
// padded block. Scans from st.pos to the end of line, or until a block's
// delimiters might not fit in out; writes only out[0:ret].
TEXT ·scanAVX2(SB), NOSPLIT, $0-72
	LOAD_STATE(ST_ESC)
	AVX2_SCAN_CONSTS
	MOVL         $0x5b, R11
	AVX2_BCAST(X12, Y12)       // '['
	VPXOR        Y13, Y13, Y13
	VPCMPEQB     Y13, Y10, Y13 // all ones if delim == 0
	VPCMPEQB     Y4, Y4, Y4
	VPXOR        Y4, Y13, Y13  // Y13: all ones if delim != 0

loop:
	MOVQ DX, R11
	SUBQ BX, R11
	JLE  done
	XORL CX, CX
	LEAQ (SI)(BX*1), R12
	CMPQ R11, $64
	JGE  load
	MOVL $64, CX               // last partial block: the 64 bytes ending at
	SUBQ R11, CX               // the end, shifted right by 64-remaining
	LEAQ -64(SI)(DX*1), R12

load:
	VMOVDQU   (R12), Y0
	VMOVDQU   32(R12), Y1
	VPCMPEQB  Y0, Y10, Y2
	VPCMPEQB  Y1, Y10, Y3
	VPAND     Y13, Y2, Y2
	VPAND     Y13, Y3, Y3
	VPMOVMSKB Y2, R13
	VPMOVMSKB Y3, R11
	SHLQ      $32, R11
	ORQ       R11, R13
	SHRXQ     CX, R13, R13     // R13 = D
	SCAN_ROOM
	AVX2_MASK(Y8, R11)         // R11 = Q
	AVX2_MASK(Y9, R12)         // R12 = B
	SCAN_QUOTES
	SCAN_EMIT

	// ':' and '[' together first: usually neither is there.
	VPCMPEQB  Y0, Y11, Y2
	VPCMPEQB  Y0, Y12, Y4
	VPOR      Y4, Y2, Y2
	VPCMPEQB  Y1, Y11, Y3
	VPCMPEQB  Y1, Y12, Y5
	VPOR      Y5, Y3, Y3
	VPMOVMSKB Y2, R12
	VPMOVMSKB Y3, R14
	SHLQ      $32, R14
	ORQ       R14, R12
	SHRXQ     CX, R12, R12
	TESTQ     R13, R12
	JNZ       first

next_block:
	ADDQ $64, BX
	JMP  loop

first:
	CMPQ ST_COLON(R8), $0
	JGE  first_bracket
	AVX2_MASK(Y11, R12)
	SCAN_FIRST(ST_COLON, first_bracket)

first_bracket:
	CMPQ ST_BRACKET(R8), $0
	JGE  next_block
	AVX2_MASK(Y12, R12)
	SCAN_FIRST(ST_BRACKET, next_block)
	JMP  next_block

done:
	SCAN_STORE_STATE

// func scanAVX512(src []byte, delim byte, st *scanState, out []int32) int
//
// Requires AVX512F, AVX512BW, BMI1, BMI2, POPCNT and PCLMULQDQ. Any length:
// the last partial block is read with a zero-masked load, which neither
// reads nor faults on the bytes past the end of line. Otherwise as scanAVX2.
TEXT ·scanAVX512(SB), NOSPLIT, $0-72
	LOAD_STATE(ST_ESC)
	AVX512_SCAN_CONSTS
	NEGQ         R11
	SBBQ         R11, R11
	KMOVQ        R11, K7       // all ones if delim != 0
	MOVL         $0x5b, R11
	VPBROADCASTB R11, Z12      // '['

loop:
	MOVQ      DX, R11
	SUBQ      BX, R11
	JLE       done
	CMPQ      R11, $64
	JGE       whole
	MOVQ      $-1, R12
	BZHIQ     R11, R12, R12
	KMOVQ     R12, K1
	VMOVDQU8.Z (SI)(BX*1), K1, Z0
	JMP       loaded

whole:
	VMOVDQU64 (SI)(BX*1), Z0

loaded:
	VPCMPEQB Z0, Z10, K7, K2
	KMOVQ    K2, R13           // R13 = D
	SCAN_ROOM
	VPCMPEQB Z0, Z8, K2
	KMOVQ    K2, R11           // R11 = Q
	VPCMPEQB Z0, Z9, K2
	KMOVQ    K2, R12           // R12 = B
	SCAN_QUOTES
	SCAN_EMIT

	VPCMPEQB Z0, Z11, K2       // K2 = C
	VPCMPEQB Z0, Z12, K3       // K3 = K
	KORQ     K2, K3, K4
	KMOVQ    K4, R12
	TESTQ    R13, R12
	JNZ      first

next_block:
	ADDQ $64, BX
	JMP  loop

first:
	CMPQ  ST_COLON(R8), $0
	JGE   first_bracket
	KMOVQ K2, R12
	SCAN_FIRST(ST_COLON, first_bracket)

first_bracket:
	CMPQ  ST_BRACKET(R8), $0
	JGE   next_block
	KMOVQ K3, R12
	SCAN_FIRST(ST_BRACKET, next_block)
	JMP   next_block

done:
	SCAN_STORE_STATE

// idxState field offsets (see scan.go); pos and inq are at ST_POS and ST_INQ.
#define IX_HIGH 16
#define IX_ESC 24

// AVX2_MASK2 sets dst to the 64-bit mask of the bytes of Y0:Y1 equal to the
// byte broadcast in cmp, or-ed with the mask of those equal to cmp2.
#define AVX2_MASK2(cmp, cmp2, dst) \
	VPCMPEQB  Y0, cmp, Y2;  \
	VPCMPEQB  Y0, cmp2, Y4; \
	VPOR      Y4, Y2, Y2;   \
	VPCMPEQB  Y1, cmp, Y3;  \
	VPCMPEQB  Y1, cmp2, Y5; \
	VPOR      Y5, Y3, Y3;   \
	VPMOVMSKB Y2, dst;      \
	VPMOVMSKB Y3, R14;      \
	SHLQ      $32, R14;     \
	ORQ       R14, dst

// IX_QUOTES takes Q in R11, B in CX, the delimiters and colons in R12 and
// the other bytes of interest in R13, and leaves the quoted regions in R14
// (R12 and R13 as they were), updating inq (R9) and st.esc. A block with no
// '"' or '\' and no escape carried in lies wholly inside or outside a
// region, as carried in; one with quotes but no '\' (nor escape carried
// in) has the prefix-xor of its quotes as its regions; any other goes
// through QUOTE_REGIONS, with R12 and R13 spilled to X15 and X7. Both
// index kernels use it.
#define IX_QUOTES \
	MOVQ  CX, R14;                        \
	ORQ   IX_ESC(R8), R14;                \
	JNZ   ix_quotes;                      \
	MOVQ  R9, R14;                        \
	TESTQ R11, R11;                       \
	JZ    ix_regions;                     \
	PREFIX_XOR(R11, R14);                 \ // no '\': every quote toggles
	JMP   ix_fixed;                       \
ix_quotes:                                \
	VMOVQ R12, X15;                       \ // free R12 and R13
	VMOVQ R13, X7;                        \
	MOVQ  IX_ESC(R8), R12;                \ // R12 = esc
	QUOTE_REGIONS(R11, CX, R12, R13, R14, ix_fix, ix_settled) \
	MOVQ  R12, IX_ESC(R8);                \
	MOVQ  R13, R14;                       \ // R14 = inside a region
	VMOVQ X15, R12;                       \
	VMOVQ X7, R13;                        \
ix_fixed:                                 \
	MOVQ  R14, R9;                        \
	SARQ  $63, R9;                        \ // inq for the next block
ix_regions:

// func indexAVX2(src []byte, delim byte, st *idxState, out []uint32) int
//
// Requires AVX2, BMI1, BMI2 and PCLMULQDQ. The index kernel (see indexRows
// in scan.go; indexBlocksGeneric is its specification). len(src) must be
// a multiple of 64: every block is read whole and nothing past src is
// read. Indexes from st.pos until the end of src or until out has fewer
// than 64 free places; writes only out[0:ret].
//
// Registers: SI src base, DX src length, BX offset of the current block,
// DI out base, R15 out length, AX offsets stored, R8 st, R9 inq (0 or ^0),
// R10 high (0 or 1), R11-R14 and CX scratch, X14 the all-ones CLMUL
// operand, X7 and X15 spills. The escape carry stays in st.esc.
TEXT ·indexAVX2(SB), NOSPLIT, $0-72
	LOAD_STATE(IX_HIGH)
	AVX2_SCAN_CONSTS
	MOVL         $0x0a, R11
	AVX2_BCAST(X12, Y12)       // LF
	MOVL         $0x0d, R11
	AVX2_BCAST(X13, Y13)       // CR

ix_loop:
	IX_ROOM(ix_done)

	PREFETCHT0 4096(SI)(BX*1)  // as in indexAVX512
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU 32(SI)(BX*1), Y1

	// R11 = Q: the quotes.
	VPCMPEQB  Y0, Y8, Y2
	VPCMPEQB  Y1, Y8, Y3
	VPMOVMSKB Y2, R11
	VPMOVMSKB Y3, R14
	SHLQ      $32, R14
	ORQ       R14, R11

	// R12 = delimiters and colons; R13 = LF and CR.
	AVX2_MASK2(Y10, Y11, R12)
	AVX2_MASK2(Y12, Y13, R13)

	// CX = H, the bytes >= 0x80; R13 |= the first byte of each run of them.
	VPMOVMSKB Y0, CX
	VPMOVMSKB Y1, R14
	SHLQ      $32, R14
	ORQ       R14, CX
	LEAQ      (R10)(CX*2), R14  // H<<1 | high
	ANDNQ     CX, R14, R14      // H &^ (H<<1 | high)
	ORQ       R14, R13
	SHRQ      $63, CX
	MOVQ      CX, R10

	// CX = B, the backslashes; R13 |= B | Q.
	VPCMPEQB  Y0, Y9, Y2
	VPCMPEQB  Y1, Y9, Y3
	VPMOVMSKB Y2, CX
	VPMOVMSKB Y3, R14
	SHLQ      $32, R14
	ORQ       R14, CX
	ORQ       CX, R13
	ORQ       R11, R13

	IX_QUOTES
	ANDNQ R12, R14, R12         // delimiters and colons outside regions
	ORQ   R12, R13
	JZ    ix_next

ix_emit:
	TZCNTQ R13, R14
	ADDQ   BX, R14
	MOVL   R14, (DI)(AX*4)
	INCQ   AX
	BLSRQ  R13, R13
	JNZ    ix_emit

ix_next:
	ADDQ $64, BX
	JMP  ix_loop

ix_done:
	STORE_STATE(IX_HIGH)

// ixBytes holds the bytes 0 to 63 in order: the offsets within a block
// that indexAVX512 compresses.
DATA ixBytes<>+0(SB)/8, $0x0706050403020100
DATA ixBytes<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA ixBytes<>+16(SB)/8, $0x1716151413121110
DATA ixBytes<>+24(SB)/8, $0x1f1e1d1c1b1a1918
DATA ixBytes<>+32(SB)/8, $0x2726252423222120
DATA ixBytes<>+40(SB)/8, $0x2f2e2d2c2b2a2928
DATA ixBytes<>+48(SB)/8, $0x3736353433323130
DATA ixBytes<>+56(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL ixBytes<>(SB), RODATA|NOPTR, $64

// func indexAVX512(src []byte, delim byte, st *idxState, out []uint32) int
//
// Requires AVX512F, AVX512BW, AVX512_VBMI2, BMI1, BMI2, POPCNT and
// PCLMULQDQ. indexAVX2 for AVX-512 CPUs, with the same contract and
// registers: the masks come from compares into mask registers, and the
// offsets are stored without a loop over the bits: the block's offsets of
// interest are compressed (VPCOMPRESSB) into the low bytes of a vector,
// widened sixteen at a time to 32 bits, added to the block's offset and
// stored with a write mask that covers exactly the offsets there are, so
// nothing past out[ret-1] is written.
TEXT ·indexAVX512(SB), NOSPLIT, $0-72
	LOAD_STATE(IX_HIGH)
	AVX512_SCAN_CONSTS
	MOVL         $0x0a, R11
	VPBROADCASTB R11, Z12      // LF
	MOVL         $0x0d, R11
	VPBROADCASTB R11, Z13      // CR
	VMOVDQU64    ixBytes<>(SB), Z16

ix5_loop:
	IX_ROOM(ix5_done)

	// The input may come from memory rather than the cache (a window of
	// a large buffer): ask for it 4 KiB ahead, which the loop's long
	// chains keep the processor from doing by itself. (A prefetch never
	// faults, past the end of src included. BenchmarkIndexTable: 2.9 ->
	// 4.3 GB/s with AVX-512, 1.4 -> 3.5 GB/s with AVX2.)
	PREFETCHT0 4096(SI)(BX*1)
	VMOVDQU64 (SI)(BX*1), Z0
	VPCMPEQB  Z0, Z8, K1
	KMOVQ     K1, R11          // R11 = Q
	VPCMPEQB  Z0, Z10, K2
	VPCMPEQB  Z0, Z11, K3
	KORQ      K2, K3, K2
	KMOVQ     K2, R12          // R12 = delimiters and colons
	VPCMPEQB  Z0, Z12, K4
	VPCMPEQB  Z0, Z13, K5
	KORQ      K4, K5, K4
	KMOVQ     K4, R13          // R13 = LF and CR
	VPMOVB2M  Z0, K6
	KMOVQ     K6, CX           // CX = H, the bytes >= 0x80
	LEAQ      (R10)(CX*2), R14 // H<<1 | high
	ANDNQ     CX, R14, R14     // H &^ (H<<1 | high)
	ORQ       R14, R13         // R13 |= the first byte of each run of them
	SHRQ      $63, CX
	MOVQ      CX, R10
	VPCMPEQB  Z0, Z9, K7
	KMOVQ     K7, CX           // CX = B
	ORQ       CX, R13
	ORQ       R11, R13         // R13 |= B | Q

	IX_QUOTES
	ANDNQ R12, R14, R12        // delimiters and colons outside regions
	ORQ   R12, R13
	JZ    ix5_next

	// Store BX+i for every set bit i of R13, sixteen at a time.
	KMOVQ        R13, K1
	VPCOMPRESSB  Z16, K1, Z1
	POPCNTQ      R13, CX
	VPBROADCASTD BX, Z17
	MOVQ         $-1, R12

ix5_store:
	VPMOVZXBD X1, Z2
	VPADDD    Z17, Z2, Z2
	BZHIQ     CX, R12, R14     // the low min(CX, 16) bits, as a word
	KMOVW     R14, K2
	VMOVDQU32 Z2, K2, (DI)(AX*4)
	CMPQ      CX, $16
	JLE       ix5_last
	ADDQ      $16, AX
	SUBQ      $16, CX
	VALIGND   $4, Z1, Z1, Z1   // the next sixteen bytes down
	JMP       ix5_store

ix5_last:
	ADDQ CX, AX

ix5_next:
	ADDQ $64, BX
	JMP  ix5_loop

ix5_done:
	STORE_STATE(IX_HIGH)
