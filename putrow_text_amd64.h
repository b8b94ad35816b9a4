// The string tests the row kernels share (putrow_amd64.s), included by each
// after its test of the bytes of class byteQuote (at ascii), and before its
// stores (plain, quote): the §7.2 shape tests on the first and last bytes,
// the number grammar for text that starts with a digit or '+', and the
// UTF-8 test for text with bytes of 0x80 and above. The text is in the low
// bytes of Z0/Y0, zeros past it, its address in AX and its length in BX.
// The includer defines NONDIGITS(r), the mask of the bytes that are not
// digits (bit i for byte i, every bit past the text set), HIGHBYTES(r),
// the mask of the bytes of 0x80 and above, and ATLEAST(c, r), BELOW(c, r)
// and EQUAL(c, r), the masks of the bytes at least, below and equal to the
// byte repeated at c (the B_ names); and the labels plain and quote (its
// stores), done and ascii. It defines utf8, which the includer's class
// test jumps to, and the labels of the number grammar. It reads R13
// (charClass) and clobbers R8-R12 and DX.

	CMPB       -1(AX)(BX*1), $0x20
	JEQ        quote           // a space at the end
	MOVBLZX    (AX), R9
	TESTB      $const_clsFirst, (R13)(R9*1)
	JEQ        plain
	// The first byte is one of clsFirst's, told apart as shapeOf does: a
	// letter (t, f or n) may start a literal, a digit or '+' a number, and
	// the others ('-', '#' and ' ', below '0') ask for quotes.
	CMPB       R9, $0x61       // 'a'
	JB         nonletter
	VMOVQ      X0, R10         // the first 8 bytes, zero past the text
	CMPQ       R10, $0x65757274 // "true"
	JEQ        quote
	CMPQ       R10, $0x6c6c756e // "null"
	JEQ        quote
	MOVQ       $0x65736c6166, R11 // "false"
	CMPQ       R10, R11
	JEQ        quote
	JMP        plain

nonletter:
	CMPB       R9, $0x2b       // '+'
	JEQ        number
	CMPB       R9, $0x30       // '0'
	JB         quote

number:
	// A digit or '+': quoted if numericLike, that is if the text is
	// [+]D+(.D+)?([eE][+-]?D+)? with D a digit. R10 has a bit for each
	// byte that is not a digit, the zeros past the text included, so
	// that the first one at or after bit k is TZCNT of R10>>k (k <= BX,
	// and bit BX is set).
	NONDIGITS(R10)
	XORL    R11, R11
	CMPB    R9, $0x2b          // '+'
	SETEQ   R11B               // k: where the digits start
	SHRXQ   R11, R10, R12
	TZCNTQ  R12, R12
	ADDQ    R11, R12           // j: the first byte after them
	CMPQ    R12, R11
	JEQ     plain              // no digit
	CMPQ    R12, BX
	JEQ     quote              // digits to the end
	MOVBLZX (AX)(R12*1), R8
	CMPB    R8, $0x2e          // '.'
	JNE     nexp
	LEAQ    1(R12), R11        // the fraction's digits
	SHRXQ   R11, R10, R12
	TZCNTQ  R12, R12
	ADDQ    R11, R12
	CMPQ    R12, R11
	JEQ     plain              // no digit after the point
	CMPQ    R12, BX
	JEQ     quote
	MOVBLZX (AX)(R12*1), R8

nexp: // R8 is the byte at j, which is not the last
	ORB     $0x20, R8
	CMPB    R8, $0x65          // 'e' or 'E'
	JNE     plain
	LEAQ    1(R12), R11
	CMPQ    R11, BX
	JAE     plain              // nothing after it
	MOVBLZX (AX)(R11*1), R8
	CMPB    R8, $0x2b          // '+'
	JEQ     esign
	CMPB    R8, $0x2d          // '-'
	JNE     edigits

esign:
	INCQ R11

edigits: // the exponent's digits from R11 on
	SHRXQ  R11, R10, R12
	TZCNTQ R12, R12
	ADDQ   R11, R12
	CMPQ   R12, R11
	JEQ    plain
	CMPQ   R12, BX
	JEQ    quote
	JMP    plain

utf8: // the text has bytes of 0x80 and above (HIGHBYTES): it must be valid UTF-8
	// With masks of the bytes in GPRs (bit i for byte i), each byte
	// after a lead byte of a sequence of n bytes (n-1 of them) must be a
	// continuation byte, and no other; the zeros past the text are ASCII,
	// so a sequence cut short at its end fails too. Then the second
	// byte's narrower ranges after E0, ED, F0 and F4 (no overlong forms,
	// no surrogates, nothing past U+10FFFF).
	HIGHBYTES(R8)              // 0x80 and above
	ATLEAST(B_C0, R9)          // 0xC0 and above
	ATLEAST(B_C2, R10)         // 0xC2 and above
	ATLEAST(B_E0, R11)         // 0xE0 and above
	ATLEAST(B_F0, R12)         // 0xF0 and above
	ATLEAST(B_F5, DX)          // 0xF5 and above: never in UTF-8
	ANDNQ   R8, R9, R8         // continuation bytes: 0x80-0xBF
	ANDNQ   R9, R10, R9        // 0xC0 and 0xC1: never in UTF-8
	ORQ     DX, R9
	JNE     done
	ANDNQ   R12, DX, DX        // leads of 4 bytes: 0xF0-0xF4
	ANDNQ   R11, R12, R12      // leads of 3: 0xE0-0xEF
	ANDNQ   R10, R11, R10      // leads of 2: 0xC2-0xDF
	ORQ     R12, R10
	ORQ     DX, R10            // every lead
	ORQ     DX, R12            // leads of 3 or 4
	SHLQ    $1, R10
	SHLQ    $2, R12
	SHLQ    $3, DX
	ORQ     R12, R10
	ORQ     DX, R10            // the bytes that must continue a sequence
	CMPQ    R10, R8
	JNE     done
	BELOW(B_A0, R10)
	BELOW(B_90, R11)
	EQUAL(B_E0, R8)
	SHLQ    $1, R8
	TESTQ   R10, R8
	JNE     done               // E0 80-9F: overlong
	EQUAL(B_ED, R8)
	SHLQ    $1, R8
	ANDNQ   R8, R10, R8
	JNE     done               // ED A0-BF: a surrogate
	EQUAL(B_F0, R8)
	SHLQ    $1, R8
	TESTQ   R11, R8
	JNE     done               // F0 80-8F: overlong
	EQUAL(B_F4, R8)
	SHLQ    $1, R8
	ANDNQ   R8, R11, R8
	JNE     done               // F4 90-BF: past U+10FFFF
	JMP     ascii
