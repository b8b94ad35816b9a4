// Macros shared by the kernels that work on 64-byte blocks: those of
// scanLine (scanline_amd64.s) and those of indexRows (indexrows_amd64.s);
// lineMasksAVX2 (linemasks_amd64.s) uses AVX2_EQ64 and AVX2_MOVMSK64 alone.
//
// Each block becomes bitmasks (bit i = byte i of the block). Escaped bytes
// are found from the parity of backslash runs (simdjson's find_escaped),
// carrying an odd run into the next block. A quote not escaped always
// toggles the quoted region, so the regions are the inclusive prefix-xor
// of those quotes (a carry-less multiply by all ones), xor the region
// carried in from the last block. A backslash only escapes inside a
// region, so an escaped quote that stands outside every region is real and
// opens one: a short loop fixes those up (they do not occur in TOON that an
// encoder wrote). quoteRegions (indexrows_generic.go) is this arithmetic
// in Go.
//
// Register use of the macros, and of every kernel that includes them:
//   SI src base        DX src length        BX offset of the current block
//   DI out base        R15 out length       AX offsets written so far
//   R8 the state       R9 inq (0 or ^0)     R10 the state's third field
//   X6 CLMUL operand   X14 all-ones qword   R11-R14 scratch

// LOAD_STATE reads a kernel's arguments (every kernel takes src, delim, st
// and out, in that order) and the carried state: the fields at offsets pos
// and inq, and the one at third into R10.
#define LOAD_STATE(pos, inq, third) \
	MOVQ src_base+0(FP), SI;   \
	MOVQ src_len+8(FP), DX;    \
	MOVQ st+32(FP), R8;        \
	MOVQ out_base+40(FP), DI;  \
	MOVQ out_len+48(FP), R15;  \
	XORQ AX, AX;               \
	MOVQ pos(R8), BX;          \
	MOVQ inq(R8), R9;          \
	MOVQ third(R8), R10;       \
	MOVQ $-1, R11;             \
	VMOVQ R11, X14

// STORE_STATE writes the carried state back (BX to pos, R9 to inq, R10 to
// third) and returns AX.
#define STORE_STATE(pos, inq, third) \
	MOVQ BX, pos(R8);    \
	MOVQ R9, inq(R8);    \
	MOVQ R10, third(R8); \
	MOVQ AX, ret+64(FP); \
	VZEROUPPER;          \
	RET

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

// AVX2_MOVMSK64 sets dst to the 64-bit mask of the high bits of the bytes
// of lo:hi, two 32-byte halves (bit i for byte i), with tmp as scratch.
#define AVX2_MOVMSK64(lo, hi, dst, tmp) \
	VPMOVMSKB lo, dst;  \
	VPMOVMSKB hi, tmp;  \
	SHLQ      $32, tmp; \
	ORQ       tmp, dst

// AVX2_EQ64 sets dst to the 64-bit mask of the bytes of Y0:Y1 equal to
// those of cmp, with tmp, Y2 and Y3 as scratch.
#define AVX2_EQ64(cmp, dst, tmp) \
	VPCMPEQB Y0, cmp, Y2; \
	VPCMPEQB Y1, cmp, Y3; \
	AVX2_MOVMSK64(Y2, Y3, dst, tmp)

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
