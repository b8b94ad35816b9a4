//go:build !purego

#include "textflag.h"
#include "go_asm.h"

// typeRows: bulkLine's common case as a loop over whole rows, in scalar
// amd64 code, but for one AVX2 test of a number's digits. bulkLine
// (fastrows.go) is its specification: for every row it takes, the tokens it
// writes, once typeRun has finished the cells it leaves to it, must be
// those bulkLine would queue. It takes a row only when every cell is one of
//   - a quoted string with no CR or LF, whose closing quote is followed at
//     once by the separator: a view of its text, the empty string for "",
//     or, when it holds a backslash, kind 1 and the whole quoted cell, for
//     typeRun to unquote;
//   - an unquoted cell, empty or not starting or ending with a space, with
//     no '"', '\', ':' or CR: typed as bulkLine does, a cell that starts
//     as a number can by the word tests of shortNumber or else by the
//     automaton of numStep (number.go), the others by the keyword
//     compares, or given kind 0 and its text for typeRun to pass to
//     plainToken;
// the row has exactly as many cells as slots, starts with exactly indent
// spaces and a byte rowFirst allows, has 8 bytes in the window from its
// start, and is no longer than maxLine. At any other line it returns
// typeBail with the state at that line's start, so bulkLine decides it.
// After a row with a byte >= 0x80 it returns typeHigh, so that the row is
// checked as UTF-8, unless its LF is at or before validTo.
//
// It writes each cell's token into its slot of the row's queue row (the
// queue is memory the collector does not scan: see queue.go),
// sets plain when it leaves a cell to typeRun, and counts the rows it
// takes in rows. A row that bails may have written some of its cells. It
// never writes a pointer field of the state.
//
// The offsets of typeState's and Token's fields, the kinds, typeClass's
// classes and what it returns come from go_asm.h (typeState_k, Token_p,
// const_KindString, const_typeDigit, const_typeBail, ...). The kinds 0 and
// 1 it gives the cells it leaves to typeRun are typeRun's convention (see
// typeState).

// ENTRY takes the next index entry into p and its byte into DX, or bails
// when the window's entries run out.
#define ENTRY(p) \
	CMPQ R10, typeState_idxLen(R13);  \
	JGE  bail;                 \
	MOVL (DI)(R10*4), p;       \
	INCQ R10;                  \
	MOVBLZX (SI)(p*1), DX

// PUT stores the token of kind with the text of n bytes at off into the
// current cell's slot (R12 points at its offset in the queue row).
#define PUT(kind, off, n) \
	MOVL (R12), R9;            \
	MOVQ kind, Token_h(R11)(R9*1); \
	LEAQ (SI)(off*1), R14;         \
	MOVQ R14, Token_p(R11)(R9*1);  \
	MOVQ n, Token_n(R11)(R9*1)

// PUTWORD stores a token without text: kind, a nil pointer and n.
#define PUTWORD(kind, n) \
	MOVL (R12), R9;            \
	MOVQ kind, Token_h(R11)(R9*1); \
	MOVQ $0, Token_p(R11)(R9*1);   \
	MOVQ n, Token_n(R11)(R9*1)

// Register use:
//   SI src        DI idx          R13 *typeState
//   BX the row's start            R10 the next index entry
//   CX the cell's start           AX the entry that ends it
//   R11 the queue row             R12 the cell's slot (in slots)
//   DX, R8, R9, R14, R15 scratch

// func typeRows(st *typeState) int
// Requires AVX2, BMI1 and BMI2.
TEXT ·typeRows(SB), NOSPLIT, $0-16
	MOVQ st+0(FP), R13
	MOVQ typeState_src(R13), SI
	MOVQ typeState_idx(R13), DI
	MOVQ typeState_k(R13), R10
	MOVQ typeState_ls(R13), BX
	MOVQ typeState_row(R13), R11

row:
	MOVQ typeState_rows(R13), AX
	CMPQ AX, typeState_maxRows(R13)
	JGE  full
	// indent spaces, then a byte that may start a row, with a whole word
	// from the row's start in the window.
	LEAQ 8(BX), R8
	CMPQ R8, typeState_srcLen(R13)
	JGT  bail
	MOVQ typeState_indent(R13), CX
	ADDQ BX, CX
	MOVQ (SI)(BX*1), R8
	MOVQ $0x2020202020202020, R9
	XORQ R9, R8
	ANDQ typeState_indMask(R13), R8
	JNZ  bail
	MOVBLZX (SI)(CX*1), R8
	MOVQ typeState_first(R13), R9
	CMPB (R9)(R8*1), $0
	JEQ  bail
	MOVQ typeState_slots(R13), R12
	MOVQ $0, typeState_high(R13)
	JMP  cell

	// The loop's head on a cache line of its own: without it, where the
	// function lands in the binary moved BenchmarkDecodeTable by 5%.
	PCALIGN $64

next:
	// The cell is stored: on to the next one, or to the row's end.
	ADDQ $4, R12
	CMPB (SI)(AX*1), $0x0a
	JEQ  eol
	CMPQ R12, typeState_slotsEnd(R13)
	JAE  bail        // more cells than fields
	LEAQ 1(AX), CX

cell:
	ENTRY(AX)
	CMPB DL, typeState_delim(R13)
	JNE  other

sep:
	// The cell is src[CX:AX]: empty, or not ending with a space, and its
	// first byte's class (typeClass) leaves spaces and quotes to bulkLine.
	MOVQ AX, R8
	SUBQ CX, R8
	JZ   empty
	CMPB -1(SI)(AX*1), $0x20
	JEQ  bail
	MOVBLZX (SI)(CX*1), R9
	MOVQ typeState_class(R13), R14
	MOVBLZX (R14)(R9*1), R14
	TESTQ R14, R14
	JNZ  typed
	PUT($const_KindString, CX, R8)
	JMP  next

other:
	CMPB DL, $0x0a
	JEQ  sep
	CMPB DL, $0x22
	JEQ  quote
	CMPB DL, $0x80
	JB   bail        // '\', ':', CR
	MOVQ $1, typeState_high(R13)
	JMP  cell

typed:
	CMPQ R14, $const_typeDigit
	JEQ  digit
	CMPQ R14, $const_typeLetter
	JEQ  letter
	JMP  bail

digit:
	// shortNumber on the cell's word, for cells of up to 8 bytes with a
	// whole word in the window; anything else goes through numStep.
	CMPQ R8, $8
	JA   numdfa
	LEAQ 8(CX), R15
	CMPQ R15, typeState_srcLen(R13)
	JA   numdfa
	MOVQ (SI)(CX*1), R14         // w
	MOVQ typeState_lenMask(R13), R9
	MOVQ (R9)(R8*8), R9          // valid: 0x80 in each of the cell's bytes
	MOVQ R14, DX
	ANDQ typeState_c7f(R13), DX
	MOVQ DX, R15
	ADDQ typeState_c46(R13), R15        // high bit: at least ':'
	ADDQ typeState_c50(R13), DX         // high bit: at least '0'
	ANDNQ DX, R15, DX
	ANDNQ DX, R14, DX            // high bit: a digit
	ANDNQ R9, DX, DX             // nd: the cell's bytes that are not digits
	JZ   lead
	BLSRQ DX, R15
	JNZ  numdfa                   // more than one
	TZCNTQ DX, R15
	SHRQ $3, R15
	ADDQ CX, R15
	CMPB (SI)(R15*1), $0x2e
	JNE  numdfa                   // not a '.'
	MOVQ typeState_midMask(R13), R15
	TESTQ DX, (R15)(R8*8)
	JZ   numdfa                   // the '.' is first or last

lead:
	// A leading '0' only alone or before the '.'.
	CMPB R14B, $0x30
	JNE  num
	CMPQ R8, $1
	JEQ  num
	SHRQ $8, R14
	CMPB R14B, $0x2e
	JNE  numdfa

num:
	PUT($const_KindNumber, CX, R8)
	JMP  next

numdfa:
	// A cell of up to 31 bytes with 32 bytes in the window from its start:
	// the grammar of numStep checked on the mask of the cell's bytes that
	// are not digits (R15, with a bit at the cell's end), whose bits the
	// parts of a number end at: the integer part at the first (after a
	// '-'), the fraction at the next (after a '.'), the exponent at the
	// cell's end (after an 'e' or 'E' and a sign).
	CMPQ R8, $31
	JA   numbytes
	LEAQ 32(CX), R15
	CMPQ R15, typeState_srcLen(R13)
	JA   numbytes
	VMOVDQU   (SI)(CX*1), Y0
	VPSUBB    numZeros<>(SB), Y0, Y0
	VPMINUB   numNines<>(SB), Y0, Y1
	VPCMPEQB  Y1, Y0, Y0       // the digits
	VPMOVMSKB Y0, R15
	NOTQ      R15
	BZHIQ     R8, R15, R15     // the cell's bytes that are not digits
	BTSQ      R8, R15          // and its end
	XORL      R9, R9           // the integer part's start
	CMPB      (SI)(CX*1), $0x2d
	JNE       nint
	BTRQ      $0, R15
	MOVL      $1, R9

nint:
	TZCNTQ R15, DX             // the integer part's end
	MOVQ   DX, R14
	SUBQ   R9, R14
	JZ     str                 // no digit
	CMPQ   R14, $1
	JEQ    nintok
	ADDQ   CX, R9
	CMPB   (SI)(R9*1), $0x30
	JEQ    str                 // a leading zero before another digit

nintok:
	CMPQ    DX, R8
	JEQ     num
	BLSRQ   R15, R15
	LEAQ    (CX)(DX*1), R9
	MOVBLZX (SI)(R9*1), R9
	CMPB    R9B, $0x2e
	JNE     nexp
	TZCNTQ  R15, R14           // the fraction's end
	LEAQ    1(DX), R9
	CMPQ    R14, R9
	JEQ     str                // no digit after the '.'
	MOVQ    R14, DX
	CMPQ    DX, R8
	JEQ     num
	BLSRQ   R15, R15
	LEAQ    (CX)(DX*1), R9
	MOVBLZX (SI)(R9*1), R9

nexp:
	// R9 is the byte at DX, which must be an 'e' or 'E'; then the next
	// byte not a digit (R14) must be the cell's end, with a digit before
	// it, or a sign right after the 'e' followed by digits to the end.
	ORB     $0x20, R9B
	CMPB    R9B, $0x65
	JNE     str
	TZCNTQ  R15, R14
	LEAQ    1(DX), R9
	CMPQ    R14, R9
	JNE     nend
	CMPQ    R14, R8
	JEQ     str                // nothing after the 'e'
	ADDQ    CX, R9
	MOVBLZX (SI)(R9*1), R9
	CMPB    R9B, $0x2b
	JEQ     nsign
	CMPB    R9B, $0x2d
	JNE     str

nsign:
	BLSRQ  R15, R15
	TZCNTQ R15, R14
	LEAQ   2(DX), R9
	CMPQ   R14, R9
	JEQ    str                 // no digit after the sign

nend:
	CMPQ R14, R8
	JEQ  num
	JMP  str

numbytes:
	// Any other cell through the automaton of numStep (number.go), a
	// byte at a time: the state in CX (SHRQ takes its count in CL), the
	// byte's row of the table shifted right by it.
	LEAQ (SI)(CX*1), R14
	LEAQ (SI)(AX*1), R15
	MOVQ typeState_numStep(R13), R9
	MOVL $const_numStart, CX

nloop:
	MOVBLZX (R14), DX
	MOVQ (R9)(DX*8), DX
	SHRQ CX, DX
	MOVQ DX, CX
	INCQ R14
	CMPQ R14, R15
	JB   nloop
	MOVQ $const_numAccept, DX
	SHRQ CX, DX      // bit 0: the state accepts
	MOVQ AX, CX
	SUBQ R8, CX      // the cell's start again
	TESTQ $1, DX
	JNZ  num
	PUT($const_KindString, CX, R8)
	JMP  next

letter:
	// Keywords have at most 5 bytes; longer cells are strings.
	CMPQ R8, $5
	JA   str
	LEAQ 8(CX), R14
	CMPQ R14, typeState_srcLen(R13)
	JA   plain
	MOVQ (SI)(CX*1), R14
	MOVQ typeState_wordMask(R13), R9
	ANDQ (R9)(R8*8), R14
	// true or false without a branch between them (a column of booleans
	// mixes both, which a branch would mispredict). "true" and "null"
	// must have 4 bytes: masked to 5, they are also cells of 5 bytes whose
	// last is 0 (R9: the cell has 4 bytes). "false" masked to fewer than 5
	// bytes loses its 'e'.
	XORL R15, R15
	XORL DX, DX
	XORL R9, R9
	CMPQ R8, $4
	SETEQ R9B
	CMPQ R14, $0x65757274        // "true"
	SETEQ R15B
	ANDL R9, R15
	CMPQ R14, typeState_cFalse(R13)
	SETEQ DL
	ORL  R15, DX
	JNZ  bool
	CMPQ R14, $0x6c6c756e        // "null"
	JNE  str
	TESTL R9, R9
	JNZ  null

str:
	PUT($const_KindString, CX, R8)
	JMP  next

bool:
	PUTWORD($const_KindBool, R15) // n 1 for true
	JMP  next

null:
	PUTWORD($const_KindNull, $0)
	JMP  next

plain:
	PUT($0, CX, R8)
	MOVQ $1, typeState_plain(R13)
	JMP  next

quote:
	// A quote must open the cell. The entries up to the closing quote may
	// be bytes >= 0x80 and backslashes; a backslash escapes the next
	// byte, which is skipped when it is an entry itself ('"' or '\'),
	// and which must not be a line end. A cell with a backslash is left
	// for the Go side to unquote (kind 1).
	CMPQ AX, CX
	JNE  bail
	XORL R15, R15    // 1 once a backslash is seen

qnext:
	ENTRY(R8)
	CMPB DL, $0x22
	JEQ  qclose
	CMPB DL, $0x5c
	JEQ  qesc
	CMPB DL, $0x80
	JB   bail        // LF, CR
	MOVQ $1, typeState_high(R13)
	JMP  qnext

qclose:
	// The closing quote at R8 must be followed at once by the separator.
	ENTRY(AX)
	LEAQ 1(R8), R14
	CMPQ AX, R14
	JNE  bail
	CMPB DL, typeState_delim(R13)
	JEQ  qok
	CMPB DL, $0x0a
	JNE  bail

qok:
	TESTL R15, R15
	JNZ  qescaped
	SUBQ CX, R8
	DECQ R8          // the text's length
	JZ   empty
	INCQ CX
	PUT($const_KindString, CX, R8)
	JMP  next

eol:
	CMPQ R12, typeState_slotsEnd(R13)
	JNE  bail        // fewer cells than fields
	MOVQ AX, R8
	SUBQ BX, R8
	CMPQ R8, typeState_maxLine(R13)
	JGT  bail        // longer than the limit
	// Take the row.
	MOVQ typeState_rows(R13), R8
	MOVQ typeState_at(R13), R9
	MOVL BX, (R9)(R8*4)
	INCQ R8
	MOVQ R8, typeState_rows(R13)
	LEAQ 1(AX), BX
	ADDQ typeState_stride(R13), R11
	MOVQ R10, typeState_k(R13)
	MOVQ BX, typeState_ls(R13)
	CMPQ typeState_high(R13), $0
	JEQ  row
	CMPQ AX, typeState_validTo(R13)
	JLE  row         // checked as UTF-8 already (see validRow)
	MOVQ $const_typeHigh, ret+8(FP)
	VZEROUPPER
	RET

full:
	MOVQ $const_typeFull, ret+8(FP)
	VZEROUPPER
	RET

bail:
	MOVQ $const_typeBail, ret+8(FP)
	VZEROUPPER
	RET

qesc:
	MOVL $1, R15
	LEAQ 1(R8), R14
	CMPQ R14, typeState_srcLen(R13)
	JAE  bail        // the window ends at the backslash
	MOVBLZX (SI)(R14*1), DX
	CMPB DL, $0x0a
	JEQ  bail
	CMPB DL, $0x0d
	JEQ  bail
	CMPQ R10, typeState_idxLen(R13)
	JGE  bail
	MOVL (DI)(R10*4), R9
	CMPQ R9, R14
	JNE  qnext
	INCQ R10         // the escaped byte is an entry: skip it
	JMP  qnext

qescaped:
	// The whole quoted cell, src[CX:AX], for unquote.
	MOVQ AX, R8
	SUBQ CX, R8
	PUT($1, CX, R8)
	MOVQ $1, typeState_plain(R13)
	JMP  next

empty:
	// "" or an empty cell: the empty string, whose text is zeroByte.
	MOVL (R12), R9
	MOVQ $const_KindString, Token_h(R11)(R9*1)
	MOVQ typeState_zero(R13), R14
	MOVQ R14, Token_p(R11)(R9*1)
	MOVQ $0, Token_n(R11)(R9*1)
	JMP  next

// numZeros and numNines: '0' and 9 in every byte, for the digit test of
// numdfa.
DATA numZeros<>+0(SB)/8, $0x3030303030303030
DATA numZeros<>+8(SB)/8, $0x3030303030303030
DATA numZeros<>+16(SB)/8, $0x3030303030303030
DATA numZeros<>+24(SB)/8, $0x3030303030303030
GLOBL numZeros<>(SB), RODATA|NOPTR, $32
DATA numNines<>+0(SB)/8, $0x0909090909090909
DATA numNines<>+8(SB)/8, $0x0909090909090909
DATA numNines<>+16(SB)/8, $0x0909090909090909
DATA numNines<>+24(SB)/8, $0x0909090909090909
GLOBL numNines<>(SB), RODATA|NOPTR, $32
