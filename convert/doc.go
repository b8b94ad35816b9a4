// Package convert converts between JSON and TOON as streams, in memory that
// does not grow with the size of the document.
//
// ToJSON copies the tokens of a toon.Decoder to a JSON writer of its own,
// which writes what jsontext.Encoder (github.com/go-json-experiment/json)
// writes for the same tokens without checking them again: key order and
// the exact text of every number are kept. In non-strict mode, where a repeated key
// can replace a member of any open object, ToJSON writes the JSON to a
// spool (memory up to a budget, then a temporary file), resolves repeated
// keys there as objects close, and copies the result out at the end.
//
// FromJSON must know each array's length and form, and each tabular
// header's field list, before it writes the header, so it reads its input
// twice, with a strict JSON lexer of its own that accepts exactly what
// jsontext accepts. The first pass records, per array and per object in
// document order, what the encoder needs (a compact side stream that
// spills to a temporary file when it grows past a few megabytes); the
// second pass re-reads the JSON and drives toon.Encoder.WriteToken, or
// WriteRow for the rows of a table. Rows that repeat the names of their
// table's first row are read whole, in both passes, by a fast path that
// checks them as strictly. A seekable input (an *os.File on a regular file)
// is read twice in place; anything else is first copied to a temporary
// file. FromJSONFile and ToJSONFile take a file: on Linux they map a
// regular one and read the mapping in place, FromJSONFile in both passes
// (see mapped.go). The output is byte for byte what toon.Marshal writes for a
// toon.Object built from the same JSON with its key order.
//
// The same machinery takes the inputs of ETL jobs. FromJSONLines reads
// JSON Lines (NDJSON) as the elements of one array and writes what
// FromJSON writes for that array; ToJSONLines writes the elements of a
// TOON array one per line. FromCSV writes a CSV file (RFC 4180, as
// encoding/csv reads it) as a root table with typed cells, in two passes
// so that [N] is known; ToCSV writes a flat TOON table as CSV. The
// subpackage sqltoon writes the rows of a database/sql query as a table.
package convert
