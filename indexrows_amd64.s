//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "blocks_amd64.h"

// The kernels behind indexRows on amd64 (see indexBlocks in indexrows.go).
// indexBlocksGeneric (indexrows_generic.go) is their specification:
// through indexRows every input must give exactly what it gives (the tests
// in indexrows_test.go check this against a byte-at-a-time reference); it
// alone may stop short of a block. The state carried from block to block
// is an idxState (indexrows.go), whose offsets come from go_asm.h.

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

// AVX2_MASK2 sets dst to the 64-bit mask of the bytes of Y0:Y1 equal to the
// byte broadcast in cmp, or-ed with the mask of those equal to cmp2.
#define AVX2_MASK2(cmp, cmp2, dst) \
	VPCMPEQB  Y0, cmp, Y2;  \
	VPCMPEQB  Y0, cmp2, Y4; \
	VPOR      Y4, Y2, Y2;   \
	VPCMPEQB  Y1, cmp, Y3;  \
	VPCMPEQB  Y1, cmp2, Y5; \
	VPOR      Y5, Y3, Y3;   \
	AVX2_MOVMSK64(Y2, Y3, dst, R14)

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
	ORQ   idxState_esc(R8), R14;          \
	JNZ   ix_quotes;                      \
	MOVQ  R9, R14;                        \
	TESTQ R11, R11;                       \
	JZ    ix_regions;                     \
	PREFIX_XOR(R11, R14);                 \ // no '\': every quote toggles
	JMP   ix_fixed;                       \
ix_quotes:                                \
	VMOVQ R12, X15;                       \ // free R12 and R13
	VMOVQ R13, X7;                        \
	MOVQ  idxState_esc(R8), R12;          \ // R12 = esc
	QUOTE_REGIONS(R11, CX, R12, R13, R14, ix_fix, ix_settled) \
	MOVQ  R12, idxState_esc(R8);          \
	MOVQ  R13, R14;                       \ // R14 = inside a region
	VMOVQ X15, R12;                       \
	VMOVQ X7, R13;                        \
ix_fixed:                                 \
	MOVQ  R14, R9;                        \
	SARQ  $63, R9;                        \ // inq for the next block
ix_regions:

// IX_STORE stores the offset of R13's lowest set bit, BX+TZCNT (BX+64
// once R13 is spent), at off(R12), and clears that bit.
#define IX_STORE(off) \
	TZCNTQ R13, R14;      \
	ADDL   BX, R14;       \
	MOVL   R14, off(R12); \
	BLSRQ  R13, R13

// func indexAVX2(src []byte, delim byte, st *idxState, out []uint32) int
//
// Requires AVX2, BMI1, BMI2 and PCLMULQDQ. The index kernel (see indexRows
// in indexrows.go; indexBlocksGeneric is its specification).
// len(src) must be a multiple of 64: every block is read whole and nothing
// past src is read. Indexes from st.pos until the end of src or until out has fewer
// than 64 free places; writes out[0:ret], and garbage in up to indexSlack
// places after it (indexBlocks).
//
// Registers: SI src base, DX src length, BX offset of the current block,
// DI out base, R15 out length, AX offsets stored, R8 st, R9 inq (0 or ^0),
// R10 high (0 or 1), R11-R14 and CX scratch, X14 the all-ones CLMUL
// operand, X7 and X15 spills. The escape carry stays in st.esc.
TEXT ·indexAVX2(SB), NOSPLIT, $0-72
	LOAD_STATE(idxState_pos, idxState_inq, idxState_high)
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
	AVX2_EQ64(Y8, R11, R14)

	// R12 = delimiters and colons; R13 = LF and CR.
	AVX2_MASK2(Y10, Y11, R12)
	AVX2_MASK2(Y12, Y13, R13)

	// CX = H, the bytes >= 0x80; R13 |= the first byte of each run of them.
	AVX2_MOVMSK64(Y0, Y1, CX, R14)
	LEAQ      (R10)(CX*2), R14  // H<<1 | high
	ANDNQ     CX, R14, R14      // H &^ (H<<1 | high)
	ORQ       R14, R13
	SHRQ      $63, CX
	MOVQ      CX, R10

	// CX = B, the backslashes; R13 |= B | Q.
	AVX2_EQ64(Y9, CX, R14)
	ORQ       CX, R13
	ORQ       R11, R13

	IX_QUOTES
	ANDNQ R12, R14, R12         // delimiters and colons outside regions
	ORQ   R12, R13
	JZ    ix_next

	// The offsets are stored eight at a time, as putOffsets stores them
	// (indexrows_generic.go): the loop ends after the eighth store in
	// most blocks. A spent mask's stores (TZCNT gives 64) land in the
	// room IX_ROOM checked, at most indexSlack places past the result.
	POPCNTQ R13, CX
	LEAQ    (DI)(AX*4), R12
	ADDQ    CX, AX

ix_emit:
	IX_STORE(0)
	IX_STORE(4)
	IX_STORE(8)
	IX_STORE(12)
	IX_STORE(16)
	IX_STORE(20)
	IX_STORE(24)
	TZCNTQ R13, R14
	ADDL   BX, R14
	MOVL   R14, 28(R12)
	ADDQ   $32, R12
	BLSRQ  R13, R13
	JNZ    ix_emit

ix_next:
	ADDQ $64, BX
	JMP  ix_loop

ix_done:
	STORE_STATE(idxState_pos, idxState_inq, idxState_high)

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
	LOAD_STATE(idxState_pos, idxState_inq, idxState_high)
	AVX512_SCAN_CONSTS
	MOVL         $0x0a, R11
	VPBROADCASTB R11, Z12      // LF
	MOVL         $0x0d, R11
	VPBROADCASTB R11, Z13      // CR
	VMOVDQU64    ·byteOffsets(SB), Z16

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
	STORE_STATE(idxState_pos, idxState_inq, idxState_high)
