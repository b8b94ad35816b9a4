// The body of the row kernels (putrow_amd64.s), included by each after its
// prologue: the loop over the cells, and every cell but a string. The
// includer defines DIGITS, DIGITSV and the label str, and keeps the
// registers the body keeps (see putrow_amd64.s).

loop:
	CMPQ SI, CX
	JAE  done
	MOVQ Value_p(SI), AX       // the text, or a tag
	MOVQ Value_u(SI), BX       // the length, or the payload
	MOVQ AX, R8
	SUBQ R14, R8
	CMPQ R8, $8
	JAE  str                   // not a tag
	CMPQ R8, $const_vInt
	JEQ  int
	CMPQ R8, $const_vFloat
	JEQ  float
	CMPQ R8, $const_vBool
	JEQ  bool
	CMPQ R8, $const_vString
	JEQ  empty
	CMPQ R8, $const_vUint
	JNE  done
	XORL R8, R8                // not negative
	JMP  digits

next: // AX is the cell's length
	MOVB R15, (DI)(AX*1)
	LEAQ 1(DI)(AX*1), DI
	ADDQ $Value__size, SI
	JMP  loop

empty:
	MOVW $0x2222, (DI)         // ""
	MOVL $2, AX
	JMP  next

bool:
	MOVQ    BX, R9
	NEGQ    R9
	ORQ     BX, R9
	SHRQ    $63, R9            // 1 for true, else 0
	MOVQ    R9, R10
	NEGQ    R10
	MOVQ    $0x6516191312, R11 // "false" ^ "true"
	ANDQ    R10, R11
	MOVQ    $0x65736c6166, R10 // "false"
	XORQ    R11, R10
	MOVQ    R10, (DI)
	MOVL    $5, AX
	SUBQ    R9, AX
	JMP     next

int:
	MOVQ    BX, R8
	SHRQ    $63, R8            // 1 if negative
	MOVQ    BX, R9
	NEGQ    R9
	TESTQ   BX, BX
	CMOVQMI R9, BX             // the magnitude

digits: // BX is the magnitude, R8 1 for a sign
	MOVB $0x2d, (DI)           // '-', overwritten if not negative
	LEAQ (DI)(R8*1), R10       // where the digits go
	CMPQ BX, $100000000
	JAE  int16
	LEAD(BX)
	JMP    next

int16: // 10^8 <= BX: two groups of eight digits, or three from 10^16 on
	MOVQ   BX, AX
	MOVQ   $0xabcc77118461cefd, R9
	MULQ   R9
	SHRQ   $26, DX             // the first digits
	IMUL3Q $100000000, DX, R11
	SUBQ   R11, BX             // the last eight
	CMPQ   DX, $100000000
	JAE    int20
	LEAD(DX)                   // AX: the length so far
	DIGITS(BX, R9, DX)
	ADDQ   R11, BX
	MOVQ   BX, (DI)(AX*1)
	ADDQ   $8, AX
	JMP    next

int20: // DX = BX/10^8 >= 10^8 (BX its last eight): at most four digits, then eight, then eight
	MOVQ   DX, R12
	MOVQ   DX, AX
	MULQ   R9
	SHRQ   $26, DX             // the first digits, below 10^4
	IMUL3Q $100000000, DX, R11
	SUBQ   R11, R12            // the middle eight
	LEAD(DX)                   // AX: the length so far
	DIGITS(R12, R9, DX)
	ADDQ   R11, R12
	MOVQ   R12, (DI)(AX*1)
	DIGITS(BX, R9, DX)
	ADDQ   R11, BX
	MOVQ   BX, 8(DI)(AX*1)
	ADDQ   $16, AX
	JMP    next

float:
	MOVQ     BX, R8
	SHRQ     $63, R8           // 1 if negative
	VMOVSD   Value_u(SI), X4
	VANDPD   F_ABS, X4, X4       // a, the magnitude
	VUCOMISD F_1EM6, X4
	JCS      shortest          // below 1e-6, or NaN
	VUCOMISD F_1E7, X4
	JCC      shortest          // 1e7 or more
	MOVB     $0x2d, (DI)       // '-', overwritten if not negative
	LEAQ     (DI)(R8*1), R10   // where the digits go
	VUCOMISD F_1E4, X4
	JCC      float8            // 1e4 or more

	// At most four digits either side of the point: m = a*1e4 rounded,
	// if m/1e4 is a; one DIGITS makes the integer part's digits in the
	// low four bytes and the fraction's in the high four. a*1e4 + 2^52,
	// rounded once, holds m in its low bits (ties go to even rather than
	// up, but a tie is never m/1e4 == a), and stays in a vector register
	// for DIGITS.
	VMOVSD      F_2P52, X5
	VFMADD231SD F_1E4, X4, X5    // a*1e4 + 2^52
	VPSUBQ      F_2P52, X5, X6    // m
	VSUBSD      F_2P52, X5, X7    // float64(m)
	VDIVSD      F_1E4, X7, X7
	VUCOMISD    X4, X7
	JNE         float8
	JPS         float8
	DIGITSV(X6, R11, R9, R12)
	MOVQ   R11, R9
	BTSQ   $24, R9
	TZCNTQ R9, R9
	ANDQ   $-8, R9             // the integer part's leading zero digits
	MOVL   R11, R12
	ADDQ   $0x30303030, R12
	SHRXQ  R9, R12, R12
	MOVQ   R12, (R10)
	SHRQ   $3, R9
	MOVL   $4, AX
	SUBQ   R9, AX              // the integer part's length
	SHRQ   $32, R11            // the fraction's digits
	JZ     fdone
	MOVB   $0x2e, (R10)(AX*1)  // '.'
	LZCNTQ R11, R9
	ADDL   $0x30303030, R11
	MOVL   R11, 1(R10)(AX*1)
	SHRQ   $3, R9
	ADDQ   $9, AX
	SUBQ   R9, AX
fdone:
	ADDQ R8, AX
	JMP  next

float8: // m = a*1e8 rounded, if m/1e8 is a: eight digits either side
	VMULSD     F_1E8, X4, X5
	VADDSD     F_HALF, X5, X5
	VCVTTSD2SIQ X5, R11
	VCVTSI2SDQ R11, X5, X5
	VDIVSD     F_1E8, X5, X5
	VUCOMISD   X4, X5
	JNE        shortest
	JPS        shortest
	MOVQ   R11, AX
	MOVQ   $0xabcc77118461cefd, R9
	MULQ   R9
	SHRQ   $26, DX             // the integer part
	IMUL3Q $100000000, DX, R9
	SUBQ   R9, R11             // the fraction
	DIGITS(DX, R9, R12)
	MOVQ   DX, R9
	BTSQ   $56, R9
	TZCNTQ R9, R9
	ANDQ   $-8, R9
	MOVQ   $0x3030303030303030, R12
	ADDQ   R12, DX
	SHRXQ  R9, DX, DX
	MOVQ   DX, (R10)
	SHRQ   $3, R9
	MOVL   $8, AX
	SUBQ   R9, AX              // the integer part's length
	TESTQ  R11, R11
	JZ     fdone
	DIGITS(R11, R9, R12)
	MOVB   $0x2e, (R10)(AX*1)  // '.'
	LZCNTQ R11, R9
	MOVQ   $0x3030303030303030, R12
	ADDQ   R12, R11
	MOVQ   R11, 1(R10)(AX*1)
	SHRQ   $3, R9
	ADDQ   $9, AX
	SUBQ   R9, AX
	JMP    fdone

done:
	VZEROUPPER
	SUBQ p+0(FP), DI
	MOVQ DI, m+40(FP)
	SUBQ cells_base+8(FP), SI
	SHRQ $4, SI
	MOVQ SI, k+48(FP)
	RET

shortest: // BX: the float's bits, R8: 1 if negative, X4: its magnitude
	// putFloatRest's work: 0, whole numbers below 2^53 as integers, and
	// every other normal float as shortestDigits finds its digits (the
	// same steps, on c·2^q), laid out as putDigits lays them out.
	MOVQ  BX, AX
	SHRQ  $52, AX
	ANDL  $0x7ff, AX           // the biased exponent
	LEAQ  -1(AX), DX
	CMPQ  DX, $0x7fe
	JAE   fzero                // 0 or subnormal, or NaN or an infinity
	MOVQ  $0xfffffffffffff, DX
	ANDQ  BX, DX
	BTSQ  $52, DX              // c
	SUBQ  $1075, AX            // q
	CMPQ  AX, $-52
	JLT   schub
	TESTQ AX, AX
	JGE   schub
	MOVQ  AX, R9
	NEGQ  R9
	BZHIQ R9, DX, R10          // the bits of c below the point
	JNE   schub
	SHRXQ R9, DX, BX           // a whole number below 2^53
	JMP   digits

fzero:
	SHLQ $1, BX
	JNE  done                  // subnormal, NaN or an infinity: appendCell's
	MOVB $0x30, (DI)           // 0 and -0: "0"
	MOVL $1, AX
	JMP  next

schub: // DX: c, AX: q
	VMOVQ  R8, X5              // the sign, until the digits are laid out
	MOVQ   DX, R12
	ANDL   $1, R12             // open: an odd c does not own its interval's ends
	MOVQ   DX, R9
	SHLQ   $2, R9              // cb
	IMUL3Q $78913, AX, R10
	SARQ   $18, R10            // k = floorLog10Pow2(q)
	LEAQ   -2(R9), R11         // cbl
	MOVQ   $0x10000000000000, BX
	CMPQ   DX, BX
	JNE    sreg
	CMPQ   AX, $-1074
	JEQ    sreg
	LEAQ   -1(R9), R11         // a power of two: the doubles below are twice as dense
	MOVQ   $661971961083, R10
	IMULQ  AX, R10
	MOVQ   $-274743187321, BX
	ADDQ   BX, R10
	SARQ   $41, R10            // k = floorLog10ThreeQuartersPow2(q)

sreg:
	VMOVQ  R10, X6             // k, until the digits are laid out
	MOVQ   R10, BX
	NEGQ   BX
	MOVQ   $913124641741, DX
	IMULQ  DX, BX
	SARQ   $38, BX
	LEAQ   2(AX)(BX*1), BX     // h = q + floorLog2Pow10(-k) + 2
	SHLXQ  BX, R9, R9          // cb<<h
	SHLXQ  BX, R11, R11        // cbl<<h
	MOVL   $2, AX
	SHLXQ  BX, AX, AX
	ADDQ   R9, AX              // cbr<<h
	SUBQ   $const_pow10Min, R10
	SHLQ   $4, R10
	LEAQ   ·pow10Table(SB), BX
	ADDQ   R10, BX             // &pow10Table[k-pow10Min]
	ROUNDODD(R9)               // vb
	ROUNDODD(R11)              // vbl
	ROUNDODD(AX)               // vbr
	ADDQ   R12, R11            // vbl+open
	MOVQ   R9, R10
	SHRQ   $2, R10             // s
	MOVQ   $0xcccccccccccccccd, DX
	MULXQ  R10, R8, BX
	SHRQ   $3, BX
	LEAQ   (BX)(BX*4), BX
	ADDQ   BX, BX              // lo, the multiple of 10^(k+1) at or below s

	// Without a branch (which one is inside is a coin toss for the
	// predictor): of s and t = s+1, the one inside, or the nearer if both
	// are (of two as near, the even); then lo or hi = lo+10 instead, if
	// exactly one of them is inside.
	MOVQ   R10, DX
	SHLQ   $2, DX              // s<<2
	LEAQ   2(DX), R8
	SUBQ   R8, R9              // vb - (s+t)<<1
	MOVL   R10, R8
	ANDL   $1, R8
	ADDQ   R9, R8              // > 0: t is nearer, or as near and even
	XORL   R9, R9
	TESTQ  R8, R8
	SETGT  R9B
	LEAQ   4(DX)(R12*1), R8    // t<<2 + open
	CMPQ   AX, R8
	SBBQ   R8, R8              // -1 if t is outside
	NOTQ   R8
	ANDQ   R8, R9              // 1 if t is inside and nearer
	CMPQ   DX, R11
	SBBQ   R8, R8              // -1 if s is outside
	NEGQ   R8
	ORQ    R8, R9
	ADDQ   R9, R10             // s or t
	MOVQ   BX, R8
	SHLQ   $2, R8              // lo<<2
	LEAQ   40(R8)(R12*1), DX   // hi<<2 + open
	CMPQ   R8, R11
	SBBQ   R9, R9              // -1 if lo is outside
	CMPQ   AX, DX
	SBBQ   DX, DX              // -1 if hi is outside
	XORQ   R9, DX              // not 0 if exactly one is inside
	ANDL   $10, R9
	ADDQ   BX, R9              // lo if it is inside, else hi
	TESTQ  DX, DX
	CMOVQNE R9, R10

sdigits: // R10: n, 16 or 17 digits with trailing zeros; X6: k, n·10^k the value
	MOVQ   $0xabcc77118461cefd, DX
	MULXQ  R10, R9, R11
	MOVQ   $0xe69594bec44de15c, DX // ceil(2^117/10^16): n/10^16 from n too,
	MULXQ  R10, R9, R12            // not from n/10^8, for a shorter chain
	SHRQ   $26, R11            // n/10^8
	SHRQ   $53, R12            // top, the 17th digit from the right, or 0
	IMUL3Q $100000000, R11, R9
	SUBQ   R9, R10             // the last eight digits
	IMUL3Q $100000000, R12, R9
	SUBQ   R9, R11             // the eight before them
	DIGITS(R10, R9, DX)        // w2
	DIGITS(R11, R9, DX)        // w1
	LZCNTQ R10, AX             // n's trailing zeros: the high zero bytes of w2,
	LZCNTQ R11, BX             // and of w1 when w2 is 0
	XORL   DX, DX
	TESTQ  R10, R10
	CMOVQNE DX, BX
	ADDQ   BX, AX
	SHRQ   $3, AX
	MOVQ   $0x3030303030303030, R9
	ADDQ   R9, R10
	ADDQ   R9, R11
	MOVL   $16, BX             // nd, the digits of n
	TESTQ  R12, R12
	JEQ    sd16
	MOVL   $17, BX             // the 17 digits as d0, d1, d2: top and w1's
	MOVQ   R10, R9             // first seven, w1's last and w2's first seven,
	SHRQ   $56, R9             // w2's last
	SHLQ   $8, R10
	MOVQ   R11, DX
	SHRQ   $56, DX
	ORQ    DX, R10
	SHLQ   $8, R11
	ADDQ   $0x30, R12
	ORQ    R12, R11
	MOVQ   R9, R12

sd16: // the text in R11, R10, R12 (d0, d1, d2); BX: nd; AX: its trailing zeros
	NEGQ   AX
	ADDQ   BX, AX              // sig, the significant digits
	VMOVQ  X6, DX
	LEAQ   -1(BX)(DX*1), DX    // x, the exponent of the first digit
	VMOVQ  X5, R8
	MOVB   $0x2d, (DI)         // '-', overwritten if not negative
	LEAQ   (DI)(R8*1), R9      // p, where the digits go
	VUCOMISD F_1EM6, X4
	JCS    sexp
	VUCOMISD F_1E21, X4
	JCC    sexp
	TESTQ  DX, DX
	JLT    ssmall
	INCQ   DX                  // the digits before the point
	CMPQ   DX, AX
	JGE    swhole
	// The text at p+1, then its first 16 bytes with a gap after the
	// first DX (rowPointShuffle) at p, and the point in the gap: sig+1
	// bytes.
	MOVQ    R11, 1(R9)
	MOVQ    R10, 9(R9)
	MOVB    R12, 17(R9)
	VMOVQ   R11, X7
	VPINSRQ $1, R10, X7, X7
	MOVQ    DX, BX
	SHLQ    $4, BX
	LEAQ    ·rowPointShuffle(SB), R10
	VPSHUFB (R10)(BX*1), X7, X7
	VMOVDQU X7, (R9)
	MOVB    $0x2e, (R9)(DX*1)  // '.'
	INCQ   AX
	JMP    fdone

swhole: // DX = x+1 digits: n's, then zeros (at most 5)
	MOVQ   R11, (R9)
	MOVQ   R10, 8(R9)
	MOVB   R12, 16(R9)
	MOVQ   $0x3030303030303030, R11
	MOVQ   R11, (R9)(BX*1)
	MOVQ   DX, AX
	JMP    fdone

ssmall: // "0." and -x-1 zeros (at most 5), then the digits: 1-x+sig bytes
	MOVQ   $0x3030303030302e30, BX
	MOVQ   BX, (R9)
	NEGQ   DX
	LEAQ   1(AX)(DX*1), AX
	LEAQ   1(R9)(DX*1), R9
	MOVQ   R11, (R9)
	MOVQ   R10, 8(R9)
	MOVB   R12, 16(R9)
	JMP    fdone

sexp: // d.ddde±x: the first digit, the point and the rest if sig > 1
	CMPQ   AX, $1
	JEQ    sexp1
	MOVQ   R11, 1(R9)
	MOVQ   R10, 9(R9)
	MOVB   R12, 17(R9)
	MOVB   R11, (R9)
	MOVB   $0x2e, 1(R9)        // '.'
	INCQ   AX
	JMP    sexpe

sexp1:
	MOVQ   R11, (R9)

sexpe: // AX: the length so far; the exponent, signed, without padding
	MOVB   $0x65, (R9)(AX*1)   // 'e'
	MOVL   $0x2b, BX           // '+'
	TESTQ  DX, DX
	JGE    sepos
	NEGQ   DX
	MOVL   $0x2d, BX           // '-'

sepos:
	MOVB   BX, 1(R9)(AX*1)
	LEAQ   2(R9)(AX*1), R10
	LEAQ   2(R8)(AX*1), R8
	LEAD(DX)                   // AX: the whole length
	JMP    next

