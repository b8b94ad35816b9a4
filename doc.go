// Package toon reads and writes TOON (Token-Oriented Object Notation), the
// JSON data model in a line-oriented, indentation-based text that spends
// fewer LLM tokens than JSON: objects as indented `key: value` lines, and
// uniform arrays as tables whose header declares the length and the fields
// once (`users[2]{id,name}:` followed by one row per line).
//
// The package implements version 4.0 of the TOON specification, decoding
// and encoding, strict mode included.
//
// # Streaming
//
// A Decoder reads its input through its own buffer, a line at a time or,
// inside tables, many rows at a time, and returns the document as a
// sequence of Tokens, without building a tree and
// without allocating per token. Tokens are small values whose bytes are
// views into the decoder's buffer, valid until the next call to Token; call
// Token.Clone to keep one. NewBytesDecoder reads a document that is
// already in memory (a memory-mapped file, say) in place instead, without
// a buffer of its own. Inside a table, Decoder.Row gives a whole row's
// tokens at once when they are ready. Decode and Unmarshal build Go values
// from the same token stream: a whole document, or, after Token, the next
// value only, so that a large document can be read a record at a time,
// with More telling whether an array or object goes on and Skip passing a
// value by in constant memory.
//
// # Errors
//
// Malformed input is reported as a *SyntaxError carrying the line, the
// column, the byte offset and the source line, with a cause that errors.Is
// matches against the Err* sentinels. Errors from the underlying reader or
// writer are returned unchanged.
//
// # Numbers
//
// Number tokens keep their text exactly as written, so integers beyond 2^53
// and long decimals lose nothing; Decode stores float64 values unless the
// UseNumber option asks for Number text. A number that does not fit a
// float64 is kept as Number text rather than rounded to infinity.
//
// # Strict mode
//
// By default every error listed in §14 of the specification is raised:
// count and width mismatches, malformed headers, indentation and depth
// errors, blank lines inside arrays, trailing content after a root array,
// duplicate keys, ill-formed UTF-8, misplaced lines. WithStrict(false)
// applies the lenient rules instead (see WithStrict); there, a tab in
// indentation counts as one indentation level, and duplicate keys reach the
// token stream in document order (Decode keeps the last).
//
// # Assembly kernels
//
// On amd64 the hot loops (scanning lines, indexing and typing table rows,
// writing table rows) run in assembly kernels where the CPU has the
// features they need (AVX2, AVX-512), chosen once at start-up. Each has a
// Go twin that gives the same results and runs everywhere else, and
// always under the purego build tag. The environment variable
// TOON_KERNELS, read once at start-up, narrows the choice:
// TOON_KERNELS=generic (or off) runs no assembly at all, TOON_KERNELS=avx2
// none that needs AVX-512; unset, or all, runs every kernel the CPU can.
// Any other value also means no assembly. The output never depends on it.
package toon
