package convert

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"
)

// stdRecords reads in with encoding/csv, as csvReader must: the records up
// to the first error, and that error.
func stdRecords(in []byte, comma byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(in))
	r.Comma = rune(comma)
	var recs [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

// ourRecords reads in with csvReader, through a reader of the given kind
// and a buffer of bufSize bytes. With count set, only the records' widths
// are compared: their fields are left empty.
func ourRecords(in []byte, comma byte, bufSize int, count bool, kind int) ([][]string, error) {
	var src io.Reader = bytes.NewReader(in)
	switch kind {
	case 1:
		src = iotest.OneByteReader(src)
	case 2:
		src = iotest.HalfReader(src)
	}
	cr := newCSVReader(src, comma, 1<<20, bufSize)
	var recs [][]string
	for {
		ok, err := cr.next(count)
		if err != nil {
			return recs, err
		}
		if !ok {
			return recs, nil
		}
		rec := make([]string, cr.n)
		if !count {
			for j := range rec {
				rec[j] = string(cr.field(j))
			}
		}
		recs = append(recs, rec)
	}
}

// checkCSVReader compares csvReader with encoding/csv on in.
func checkCSVReader(t *testing.T, in []byte, comma byte) {
	t.Helper()
	want, werr := stdRecords(in, comma)
	for _, bufSize := range []int{16, 37, 4096} {
		for kind := 0; kind < 3; kind++ {
			if kind == 1 && len(in) > 10000 {
				continue // one byte at a time: long inputs take too long
			}
			for _, count := range []bool{false, true} {
				got, gerr := ourRecords(in, comma, bufSize, count, kind)
				if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
					t.Fatalf("%q (comma %q, buffer %d, reader %d, count %v):\nerror %v\nwant  %v", in, comma, bufSize, kind, count, gerr, werr)
				}
				if count {
					for i := range want {
						if i < len(got) && len(got[i]) != len(want[i]) {
							t.Fatalf("%q: record %d has %d fields counted, want %d", in, i, len(got[i]), len(want[i]))
						}
					}
					if len(got) != len(want) {
						t.Fatalf("%q: %d records counted, want %d", in, len(got), len(want))
					}
					continue
				}
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
					t.Fatalf("%q (comma %q, buffer %d, reader %d):\ngot  %q\nwant %q", in, comma, bufSize, kind, got, want)
				}
			}
		}
	}
}

var csvCases = []string{
	"", "\n", "\r\n", "\r", "a", "a\n", "a\r", "a\r\n", "a,b\nc,d\n", "a,b\nc,d", "a,b\r\nc,d\r\n",
	"a,b\n\nc,d\n\n\n", "\n\na,b\n", "a,,b\n,,\n,,\n", ",\n", "a\rb,c\n", "a\r\r\n", " a , b \n",
	`"a","b"` + "\n", `"a,b",c` + "\n", `"a""b",c` + "\n", `"",""` + "\n", `""` + "\n", `"` + "\n", `"`,
	`"a` + "\n" + `b",c` + "\n", `"a` + "\r\n" + `b",c` + "\r\n", `"a` + "\n\n" + `b"` + "\n",
	`"a` + "\r\r\n" + `"`, `"abc` + "\n", `"abc`, `"abc` + "\r", `"abc"x,d` + "\n", `a"b,c` + "\n",
	`a,"b` + "\n" + `c"d,e` + "\n", `"a"` + "\r", `"a"` + "\r\n", `"a"` + "\n" + `"b"`,
	"a,b\nc\n", "a\nb,c\n", "a,b,c\nd,e\n\"f\",g,h\n", "x,y\n1,\"2\n3\"\n4,5,6\n",
	`a,"b""` + "\n" + `""c"` + "\n", `"a""` + "\n", `""""` + "\n", `"""",""""` + "\n",
	"é,ü\n\"ß\",\"x\"\n", "a;b\n\"c;d\";e\n", "a\tb\n\"c\td\"\te\n", " \"a\",b\n", `"a" ,b` + "\n",
	"a,b\n\"c\nd\",\"e\"\"f\"\ng,h", "\xef\xbb\xbfa,b\n",
}

// TestCSVReader checks csvReader against encoding/csv on edge cases, with
// the delimiters ',', ';' and TAB, small buffers and slow readers.
func TestCSVReader(t *testing.T) {
	for _, in := range csvCases {
		for _, comma := range []byte{',', ';', '\t'} {
			checkCSVReader(t, []byte(in), comma)
		}
	}
	// A long record across many refills, and a long unquoted line.
	long := "h1,h2\n\"" + strings.Repeat("x\"\"y\n", 3000) + "\",z\n" + strings.Repeat("w", 50000) + ",v\n"
	checkCSVReader(t, []byte(long), ',')
}

// TestCSVReaderRandom compares the two readers on random CSV made of the
// pieces that matter: delimiters, quotes, CR, LF and text.
func TestCSVReaderRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(4180))
	pieces := []string{",", ",", "a", "bc", "\"", "\"\"", "\n", "\r\n", "\r", " ", "é", ";", "\t", "x,y"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := rng.Intn(30); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		checkCSVReader(t, []byte(b.String()), ",;\t"[rng.Intn(3)])
	}
}

// TestCSVReaderLimit checks that a record longer than the limit, such as
// an unclosed quote, is an error and does not grow the buffer further.
func TestCSVReaderLimit(t *testing.T) {
	in := "a,b\n\"" + strings.Repeat("x", 100000)
	cr := newCSVReader(strings.NewReader(in), ',', 4096, 512)
	var err error
	for err == nil {
		var ok bool
		if ok, err = cr.next(false); !ok && err == nil {
			t.Fatal("accepted")
		}
	}
	if !strings.Contains(err.Error(), "record on line 2 is longer than 4096 bytes") || cap(cr.buf) > 4097 {
		t.Fatalf("error %v, buffer %d bytes", err, cap(cr.buf))
	}
}

func FuzzCSVReader(f *testing.F) {
	for _, c := range csvCases {
		f.Add([]byte(c), byte(','))
	}
	f.Fuzz(func(t *testing.T, in []byte, comma byte) {
		if !validCSVComma(comma) {
			comma = ','
		}
		checkCSVReader(t, in, comma)
	})
}
