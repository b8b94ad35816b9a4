package convert

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"io"
	"math/bits"
	"strconv"
)

// csvReader splits CSV (RFC 4180) into records exactly as encoding/csv's
// Reader does with its defaults and a single-byte Comma: no comments, no
// lazy quotes, no trimming, every record as wide as the first. Its errors
// are encoding/csv's *csv.ParseError, with the same lines and columns.
// FuzzCSVReader holds the two to the same records and errors.
//
// It is a reader of its own for speed. encoding/csv copies every record
// into a new string; here a record's fields are views of the read buffer,
// valid until the next call, and a line without a quote (most lines) is
// split by scan, eight bytes at a time, or, when only its width is wanted,
// measured with bytes.IndexByte and bytes.Count. Only records with quoted
// fields copy their fields (unescaped) into a scratch buffer, in a
// line-by-line copy of encoding/csv's parser. A record is parsed once it
// is whole in the buffer, which grows (to at most max bytes) for longer
// ones.
type csvReader struct {
	r     io.Reader
	buf   []byte // buf[i:] is unread
	i     int
	eof   bool // r is exhausted, or failed
	comma byte
	max   int // the longest record accepted, in bytes
	line  int // the number of lines read (encoding/csv's numLine)
	width int // fields per record, set by the first; 0 before it

	// The last record: field j is rec[bounds[2j]:bounds[2j+1]]. (Offsets
	// rather than slices: storing them costs no write barrier.)
	rec      []byte
	bounds   []int
	scratch  []byte // unescaped fields of a record with quotes
	recLine  int    // the line the last record starts on
	n        int    // the number of fields of the last record
	last     int    // scan: where the field after the last comma starts
	quote    int    // next, counting: the index in buf of the next '"', or len(buf)
	inQuotes bool   // the last record has quoted fields: rec is scratch
}

// csvBufSize is the size of ToCSV's output buffer.
const csvBufSize = 256 << 10

// newCSVReader returns a reader of r with a buffer of bufSize bytes, which
// grows for records longer than it up to max bytes.
func newCSVReader(r io.Reader, comma byte, limit, bufSize int) *csvReader {
	return &csvReader{r: r, buf: make([]byte, 0, max(min(bufSize, limit+1), 16)), comma: comma, max: limit, quote: -1}
}

// validCSVComma reports whether c can separate CSV fields (encoding/csv's
// rule, for one byte).
func validCSVComma(c byte) bool {
	return c != 0 && c != '"' && c != '\r' && c != '\n' && c < 0x80
}

// errCSVRecordSize is returned for a record longer than the limit.
type errCSVRecordSize struct{ line, max int }

func (e *errCSVRecordSize) Error() string {
	return "csv: record on line " + strconv.Itoa(e.line) + " is longer than " + strconv.Itoa(e.max) + " bytes (see WithMaxRecordSize)"
}

// fill reads more input, keeping buf[keep:], which moves to the front; the
// buffer doubles when the kept bytes fill it. It reports whether anything
// was read.
func (r *csvReader) fill(keep int) (bool, error) {
	if r.eof {
		return false, nil
	}
	r.quote = -1 // the buffer changes: look for the next quote again
	if keep > 0 {
		n := copy(r.buf[:cap(r.buf)], r.buf[keep:])
		r.buf = r.buf[:n]
		r.i -= keep
	}
	if len(r.buf) == cap(r.buf) {
		if len(r.buf) >= r.max {
			return false, &errCSVRecordSize{line: r.line + 1, max: r.max}
		}
		nb := make([]byte, len(r.buf), min(2*cap(r.buf), r.max+1))
		copy(nb, r.buf)
		r.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := r.r.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+n]
		if err != nil {
			r.eof = true
			if err != io.EOF {
				return false, err
			}
			return n > 0, nil
		}
		if n > 0 {
			return true, nil
		}
	}
	r.eof = true
	return false, io.ErrNoProgress
}

// next reads the next record into rec and bounds, and its width into n
// (if count is set, lines without quotes give only their width). It
// returns false at the end of the input.
func (r *csvReader) next(count bool) (bool, error) {
	for {
		b := r.buf[r.i:]
		if count {
			// Before the buffer's next quote, a line's width is its
			// delimiters plus one, counted by bytes.Count.
			if r.quote < r.i {
				if q := bytes.IndexByte(b, '"'); q >= 0 {
					r.quote = r.i + q
				} else {
					r.quote = len(r.buf)
				}
			}
			if k := bytes.IndexByte(b[:r.quote-r.i], '\n'); k >= 0 {
				end := k
				if k > 0 && b[k-1] == '\r' {
					end--
				}
				r.line++
				r.i += k + 1
				if end == 0 { // an empty line: skipped
					continue
				}
				r.recLine = r.line
				r.n = bytes.Count(b[:end], []byte{r.comma}) + 1
				return true, r.checkWidth()
			}
		}
		k, quote := r.scan(b, count)
		if quote {
			return r.quoted(count)
		}
		size := k + 1 // the line's bytes, its LF included
		if k < 0 {
			if !r.eof {
				if _, err := r.fill(r.i); err != nil {
					return false, err
				}
				continue
			}
			if len(b) == 0 {
				return false, nil
			}
			k, size = len(b), len(b)
		}
		// A CR before the LF (or, at the end of the input, a last CR) is
		// not part of the last field.
		end := k
		if end > r.last && b[end-1] == '\r' {
			end--
		}
		if r.n == 0 && end == 0 { // an empty line: skipped
			r.line++
			r.i += size
			continue
		}
		r.line++
		r.recLine = r.line
		r.i += size
		r.n++
		if !count {
			r.rec, r.inQuotes = b[:end], false
			r.bounds = append(r.bounds, r.last, end)
		}
		return true, r.checkWidth()
	}
}

// SWAR constants: every byte 0x01, 0x7f, 0x80; LF and '"' in every byte.
const (
	swarOnes  = 0x0101010101010101
	swarLow7  = 0x7f7f7f7f7f7f7f7f
	swarHigh  = 0x8080808080808080
	swarLF    = '\n' * swarOnes
	swarQuote = '"' * swarOnes
)

// eqMask returns the high bit of every byte of x that equals the byte
// that c repeats, and no other bit: ((y&0x7f)+0x7f)|y has the high bit of
// each byte of y set unless the byte is zero, with no carry between
// bytes.
func eqMask(x, c uint64) uint64 {
	y := x ^ c
	return ^((y&swarLow7 + swarLow7) | y) & swarHigh
}

// scan reads the line at the start of b, eight bytes at a time, up to its
// LF or its first quote, whichever comes first, and returns that byte's
// index, or -1 if b has neither, and whether it is a quote. It leaves in
// bounds the fields that end before it (or, if count is set, only their
// number in n), and in last where the field after them starts.
func (r *csvReader) scan(b []byte, count bool) (int, bool) {
	comma := uint64(r.comma) * swarOnes
	bounds := r.bounds[:0]
	n, last := 0, 0
	// commas adds the fields that end at the commas of mask m, in the
	// word at p.
	commas := func(m uint64, p int) {
		if count {
			n += bits.OnesCount64(m)
			last = p + (63-bits.LeadingZeros64(m))>>3 + 1
			return
		}
		for ; m != 0; m &= m - 1 {
			c := p + bits.TrailingZeros64(m)>>3
			bounds = append(bounds, last, c)
			last = c + 1
		}
	}
	stop := -1
	p := 0
	for ; p+8 <= len(b); p += 8 {
		x := binary.LittleEndian.Uint64(b[p:])
		mc := eqMask(x, comma)
		if ms := eqMask(x, swarLF) | eqMask(x, swarQuote); ms != 0 {
			z := bits.TrailingZeros64(ms)
			if mc &= 1<<z - 1; mc != 0 {
				commas(mc, p)
			}
			stop = p + z>>3
			break
		}
		if mc != 0 {
			commas(mc, p)
		}
	}
	if stop < 0 {
		for ; p < len(b); p++ {
			if c := b[p]; c == '\n' || c == '"' {
				stop = p
				break
			} else if c == r.comma {
				n++
				if !count {
					bounds = append(bounds, last, p)
				}
				last = p + 1
			}
		}
	}
	if !count {
		n = len(bounds) / 2
	}
	r.bounds, r.n, r.last = bounds, n, last
	return stop, stop >= 0 && b[stop] == '"'
}

// field returns field j of the last record.
func (r *csvReader) field(j int) []byte { return r.rec[r.bounds[2*j]:r.bounds[2*j+1]] }

// checkWidth checks the last record's width against the first's.
func (r *csvReader) checkWidth() error {
	switch {
	case r.width == 0:
		r.width = r.n
	case r.n != r.width:
		return &csv.ParseError{StartLine: r.recLine, Line: r.recLine, Column: 1, Err: csv.ErrFieldCount}
	}
	return nil
}

// quoted reads a record with quotes, whose first line starts at buf[i]:
// it makes sure the record is whole in the buffer, then parses it.
func (r *csvReader) quoted(count bool) (bool, error) {
	for {
		size, lines, err := r.quotedAt(r.buf[r.i:], r.eof)
		if err == errMore {
			if _, err := r.fill(r.i); err != nil {
				return false, err
			}
			continue
		}
		r.i += size
		r.line += lines
		if err != nil {
			return false, err
		}
		r.rec, r.inQuotes = r.scratch, true
		r.n = len(r.bounds) / 2
		return true, r.checkWidth()
	}
}

// quotedAt parses the record at the start of b, which is not an empty
// line, as encoding/csv's readRecord does, into scratch and bounds. It
// returns the bytes and lines the record takes, or errMore if b may end
// before the record does (eof false). Lines are numbered from r.line.
func (r *csvReader) quotedAt(b []byte, eof bool) (size, lines int, err error) {
	p := 0 // the read position in b
	numLine := r.line
	// readLine returns the next line's contents without its line ending,
	// whether it had a LF, and whether the input ended before it.
	readLine := func() (content []byte, nl, end bool, more bool) {
		if p == len(b) {
			if !eof {
				return nil, false, false, true
			}
			numLine++
			return nil, false, true, false
		}
		k := bytes.IndexByte(b[p:], '\n')
		if k < 0 {
			if !eof {
				return nil, false, false, true
			}
			content = b[p:]
			p = len(b)
			if content[len(content)-1] == '\r' {
				content = content[:len(content)-1]
			}
			numLine++
			return content, false, false, false
		}
		content = b[p : p+k]
		p += k + 1
		if k > 0 && content[k-1] == '\r' {
			content = content[:k-1]
		}
		numLine++
		return content, true, false, false
	}
	line, nl, _, more := readLine()
	if more {
		return 0, 0, errMore
	}
	recLine := numLine
	r.recLine = recLine
	r.scratch = r.scratch[:0]
	r.bounds = r.bounds[:0]
	col := 1           // the column of line[0], in bytes
	posLine := recLine // the line of line[0]: not counted when the input ends
	fail := func(line, col int, e error) (int, int, error) {
		return p, numLine - r.line, &csv.ParseError{StartLine: recLine, Line: line, Column: col, Err: e}
	}
parseField:
	for {
		if len(line) == 0 || line[0] != '"' {
			// An unquoted field.
			i := bytes.IndexByte(line, r.comma)
			field := line
			if i >= 0 {
				field = field[:i]
			}
			if j := bytes.IndexByte(field, '"'); j >= 0 {
				return fail(numLine, col+j, csv.ErrBareQuote)
			}
			r.bounds = append(r.bounds, len(r.scratch))
			r.scratch = append(r.scratch, field...)
			r.bounds = append(r.bounds, len(r.scratch))
			if i < 0 {
				break parseField
			}
			line = line[i+1:]
			col += i + 1
			continue
		}
		// A quoted field.
		r.bounds = append(r.bounds, len(r.scratch))
		line = line[1:]
		col++
		for {
			if i := bytes.IndexByte(line, '"'); i >= 0 {
				r.scratch = append(r.scratch, line[:i]...)
				line = line[i+1:]
				col += i + 1
				switch {
				case len(line) > 0 && line[0] == '"': // "" stands for "
					r.scratch = append(r.scratch, '"')
					line = line[1:]
					col++
				case len(line) > 0 && line[0] == r.comma: // the end of the field
					line = line[1:]
					col++
					r.bounds = append(r.bounds, len(r.scratch))
					continue parseField
				case len(line) == 0: // the end of the record
					r.bounds = append(r.bounds, len(r.scratch))
					break parseField
				default:
					return fail(numLine, col-1, csv.ErrQuote)
				}
			} else if len(line) > 0 || nl {
				// The field goes on on the next line.
				r.scratch = append(r.scratch, line...)
				col += len(line)
				if nl {
					r.scratch = append(r.scratch, '\n')
					col++
				}
				line, nl, _, more = readLine()
				if more {
					return 0, 0, errMore
				}
				if len(line) > 0 || nl {
					posLine++
					col = 1
				}
			} else {
				// The input ends inside the quotes.
				return fail(posLine, col, csv.ErrQuote)
			}
		}
	}
	return p, numLine - r.line, nil
}
