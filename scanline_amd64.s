//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "blocks_amd64.h"

// The kernels behind scanLine on amd64. scanLineGeneric
// (scanline_generic.go) is their specification: for every input they must
// give exactly what it gives (the tests in scanline_test.go check this).
// scanLineBlockModel in scanline_test.go is the same block algorithm
// written in Go.
//
// Each 64-byte block becomes bitmasks: Q '"', B '\', D delim, C ':', K '['.
// The quoted regions come from Q and B as blocks_amd64.h describes. Then
// D, C and K are masked by the complement of the regions; the set bits of
// D are stored as int32 positions, and the first set bits of C and K are
// kept. The state carried from block to block, and from call to call, is
// a scanState (scanline_amd64.go), whose offsets come from go_asm.h.
//
// Register use, shared by both kernels and by the macros below (besides
// those of blocks_amd64.h, with R8 the *scanState and R10 esc, 0 or 1):
//   CX tail shift (AVX2 only)               X15 spill of D

// SCAN_ROOM leaves the kernel (to let the Go side grow out) when the raw
// delimiter mask in R13 has more bits than out has room left. It runs before
// the block changes any state, so the block is simply scanned again.
#define SCAN_ROOM \
	POPCNTQ R13, R11; \
	MOVQ    R15, R12; \
	SUBQ    AX, R12;  \
	CMPQ    R11, R12; \
	JGT     done

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
	ORQ   R11, scanState_quote(R8);       \
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
	STORE_STATE(scanState_pos, scanState_inq, scanState_esc)

// AVX2_MASK sets dst to the 64-bit mask of the bytes of Y0:Y1 equal to the
// byte broadcast in cmp, shifted right by CX.
#define AVX2_MASK(cmp, dst) \
	AVX2_EQ64(cmp, dst, R14); \
	SHRXQ CX, dst, dst

// func scanAVX2(src []byte, delim byte, st *scanState, out []int32) int
//
// Requires AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ. Requires len(line) >= 64:
// the last partial block is read as the 64 bytes ending at the end of the
// line, whose masks are shifted right past the bytes already scanned, so
// nothing outside line is read. The Go side copies shorter lines into a
// padded block. Scans from st.pos to the end of line, or until a block's
// delimiters might not fit in out; writes only out[0:ret].
TEXT ·scanAVX2(SB), NOSPLIT, $0-72
	LOAD_STATE(scanState_pos, scanState_inq, scanState_esc)
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
	AVX2_MOVMSK64(Y2, Y3, R13, R11)
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
	AVX2_MOVMSK64(Y2, Y3, R12, R14)
	SHRXQ     CX, R12, R12
	TESTQ     R13, R12
	JNZ       first

next_block:
	ADDQ $64, BX
	JMP  loop

first:
	CMPQ scanState_colon(R8), $0
	JGE  first_bracket
	AVX2_MASK(Y11, R12)
	SCAN_FIRST(scanState_colon, first_bracket)

first_bracket:
	CMPQ scanState_bracket(R8), $0
	JGE  next_block
	AVX2_MASK(Y12, R12)
	SCAN_FIRST(scanState_bracket, next_block)
	JMP  next_block

done:
	SCAN_STORE_STATE

// func scanAVX512(src []byte, delim byte, st *scanState, out []int32) int
//
// Requires AVX512F, AVX512BW, BMI1, BMI2, POPCNT and PCLMULQDQ. Any length:
// the last partial block is read with a zero-masked load, which neither
// reads nor faults on the bytes past the end of line. Otherwise as scanAVX2.
TEXT ·scanAVX512(SB), NOSPLIT, $0-72
	LOAD_STATE(scanState_pos, scanState_inq, scanState_esc)
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
	CMPQ  scanState_colon(R8), $0
	JGE   first_bracket
	KMOVQ K2, R12
	SCAN_FIRST(scanState_colon, first_bracket)

first_bracket:
	CMPQ  scanState_bracket(R8), $0
	JGE   next_block
	KMOVQ K3, R12
	SCAN_FIRST(scanState_bracket, next_block)
	JMP   next_block

done:
	SCAN_STORE_STATE
