package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// The tests of FromJSONFile and ToJSONFile compare them with FromJSON and
// ToJSON reading the same bytes from a bytes.Reader: the output must be
// byte for byte the same, and so must the error, with its line and column.
// On Linux the files are mapped, read-only, so that a write to the input
// faults and ends the test binary; with setMapGuard, a read past the end
// of an input that ends on a page boundary faults too, and becomes an
// error that the comparison catches.

// writeInput writes prefix bytes of junk and then data to a new file in
// dir, and returns it opened with its offset after the junk, where the
// input starts (as a standard input redirected from a file may be).
func writeInput(t *testing.T, dir string, data []byte, prefix int) *os.File {
	t.Helper()
	f, err := os.CreateTemp(dir, "in-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Write(append(bytes.Repeat([]byte{'#'}, prefix), data...)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(int64(prefix), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

// prefixes are the file offsets the inputs are tried at: the start, inside
// the first page, and inside the second.
var prefixes = []int{0, 3, os.Getpagesize() + 5}

type convertFunc func(w io.Writer, r io.Reader, opts ...Option) error
type convertFileFunc func(w io.Writer, f *os.File, opts ...Option) error

// checkFileSame checks that file, on data at each of the prefixes, gives
// what conv gives on a bytes.Reader of data, and leaves the file's offset
// where it was.
func checkFileSame(t *testing.T, dir, name string, conv convertFunc, file convertFileFunc, data []byte, opts ...Option) {
	t.Helper()
	var want bytes.Buffer
	wantErr := conv(&want, bytes.NewReader(data), opts...)
	for _, prefix := range prefixes {
		f := writeInput(t, dir, data, prefix)
		var got bytes.Buffer
		err := file(&got, f, opts...)
		if !sameError(err, wantErr) {
			t.Fatalf("%s (offset %d): error %v, reading gives %v", name, prefix, err, wantErr)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s (offset %d): output differs from reading's\n got: %.300q\nwant: %.300q", name, prefix, got.Bytes(), want.Bytes())
		}
		if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != int64(prefix) {
			t.Fatalf("%s: the file's offset moved to %d (%v), from %d", name, off, err, prefix)
		}
		f.Close()
	}
}

// sameError reports whether a and b are both nil, or errors of the same
// type with the same text (which holds the line and column).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) && a.Error() == b.Error()
}

func TestToJSONFileFixtures(t *testing.T) {
	dir := t.TempDir()
	setMapGuard(t)
	n := 0
	eachDecodeInput(t, func(in []byte, opts ...Option) {
		n++
		name := fmt.Sprintf("fixture %d", n)
		checkFileSame(t, dir, name, ToJSON, ToJSONFile, in, opts...)
		checkFileSame(t, dir, name+" non-strict, indented", ToJSON, ToJSONFile, in, append(opts, WithStrict(false), WithJSONIndent(2))...)
	})
}

func TestToJSONFileRandom(t *testing.T) {
	dir := t.TempDir()
	setMapGuard(t)
	rng := rand.New(rand.NewSource(18))
	for i := 0; i < 300; i++ {
		var doc []byte
		if i%2 == 0 {
			doc = randomTOON(rng)
		} else {
			doc = randomTOONTable(rng, 1+rng.Intn(40), i%6 == 1)
		}
		name := fmt.Sprintf("random %d", i)
		checkFileSame(t, dir, name, ToJSON, ToJSONFile, doc)
		if i%3 == 0 {
			checkFileSame(t, dir, name+" non-strict", ToJSON, ToJSONFile, doc, WithStrict(false))
		}
	}
}

func TestFromJSONFileFixtures(t *testing.T) {
	dir := t.TempDir()
	setMapGuard(t)
	for _, f := range spectestEncode(t) {
		checkFileSame(t, dir, f.File+"/"+f.Name, FromJSON, FromJSONFile, f.Input, encodeOptions(&f)...)
	}
}

// spectestEncode returns the encode fixtures.
func spectestEncode(t *testing.T) []fixture {
	var out []fixture
	for _, fs := range readFixtures(t, "encode") {
		out = append(out, fs...)
	}
	return out
}

func TestFromJSONFileRandom(t *testing.T) {
	dir := t.TempDir()
	setMapGuard(t)
	rng := rand.New(rand.NewSource(18))
	for i := 0; i < 300; i++ {
		doc := randomDoc(rng)
		if i%5 == 4 { // malformed: cut short, or a byte changed
			if k := rng.Intn(len(doc) + 1); i%2 == 0 {
				doc = doc[:k]
			} else if k < len(doc) {
				doc[k] = "{}[],:\"x"[rng.Intn(8)]
			}
		}
		// Small buffers make the in-place lexer's window slide and widen
		// as a reading lexer's buffer refills and grows; a small line
		// limit makes long strings and numbers errors.
		opts := []Option{withPipeline(i%2 == 0)}
		if i%3 == 0 {
			opts = append(opts, withBufSize(16+i%50))
		}
		if i%7 == 0 {
			opts = append(opts, withMaxLine(4+i%20))
		}
		checkFileSame(t, dir, fmt.Sprintf("random %d: %.80q", i, doc), FromJSON, FromJSONFile, doc, opts...)
	}
}

// TestFileErrorsLocated checks that errors in a mapped input keep their
// line and column.
func TestFileErrorsLocated(t *testing.T) {
	dir := t.TempDir()
	var jerr *JSONError
	err := FromJSONFile(io.Discard, writeInput(t, dir, []byte("{\"a\": [1,\n 2,, 3]}"), 7))
	if !errors.As(err, &jerr) || jerr.Line != 2 || jerr.Column != 4 {
		t.Errorf("FromJSONFile: %v, want a JSONError at line 2, column 4", err)
	}
	err = ToJSONFile(io.Discard, writeInput(t, dir, []byte("a: 1\nb[2]: 1,2,3\n"), 7))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ToJSONFile: %v, want an error at line 2", err)
	}
}

// TestFileEmpty checks empty files, and an input that is empty because
// the file's offset is at its end.
func TestFileEmpty(t *testing.T) {
	dir := t.TempDir()
	for _, prefix := range []int{0, 10} {
		checkFileSame(t, dir, "empty", ToJSON, ToJSONFile, nil)
		checkFileSame(t, dir, "empty", FromJSON, FromJSONFile, nil)
		var got bytes.Buffer
		err := ToJSONFile(&got, writeInput(t, dir, nil, prefix))
		var want bytes.Buffer
		wantErr := ToJSON(&want, strings.NewReader(""))
		if !sameError(err, wantErr) || got.String() != want.String() {
			t.Errorf("offset %d at the end: %q, %v; want %q, %v", prefix, got.String(), err, want.String(), wantErr)
		}
	}
}

// TestFilePageBoundary converts inputs that end exactly at the end of a
// page. The mapping has a page more, past the file's end, where a read
// faults (TestMapGuardFaults): a read past the input's end is an error
// that the comparison with reading catches.
func TestFilePageBoundary(t *testing.T) {
	dir := t.TempDir()
	page := os.Getpagesize()
	setMapGuard(t)
	for _, size := range []int{page, 2 * page, 3 * page} {
		// TOON: a string, then a table, whose last line fills the page.
		var b bytes.Buffer
		b.WriteString("s: ")
		b.WriteString(strings.Repeat("x", size-b.Len()))
		checkFileSame(t, dir, fmt.Sprint("string ", size), ToJSON, ToJSONFile, b.Bytes())
		b.Reset()
		rows := size / 40
		fmt.Fprintf(&b, "t[%d]{id,name,ok}:\n", rows)
		for r := 0; r < rows-1; r++ {
			fmt.Fprintf(&b, "  %d,name %d,true\n", r, r)
		}
		last := fmt.Sprintf("  %d,", rows)
		b.WriteString(last)
		b.WriteString(strings.Repeat("n", size-b.Len()-len(",true")))
		b.WriteString(",true")
		if b.Len() != size {
			t.Fatalf("table of %d bytes, want %d", b.Len(), size)
		}
		checkFileSame(t, dir, fmt.Sprint("table ", size), ToJSON, ToJSONFile, b.Bytes())
		// JSON: a table, padded with spaces after its end.
		var j bytes.Buffer
		j.WriteString(`{"t":[`)
		for r := 0; j.Len() < size-100; r++ {
			if r > 0 {
				j.WriteByte(',')
			}
			fmt.Fprintf(&j, `{"id":%d,"name":"n%d"}`, r, r)
		}
		j.WriteString("]}")
		j.WriteString(strings.Repeat(" ", size-j.Len()))
		checkFileSame(t, dir, fmt.Sprint("JSON ", size), FromJSON, FromJSONFile, j.Bytes())
	}
}

// TestFileNotRegular converts from a pipe, which is read as a stream.
func TestFileNotRegular(t *testing.T) {
	in := []byte("t[3]{a,b}:\n  1,x\n  2,y\n  3,z\n")
	var want bytes.Buffer
	if err := ToJSON(&want, bytes.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var wantT bytes.Buffer
	if err := FromJSON(&wantT, bytes.NewReader(want.Bytes())); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file convertFileFunc
		in   []byte
		want []byte
	}{{"ToJSONFile", ToJSONFile, in, want.Bytes()}, {"FromJSONFile", FromJSONFile, want.Bytes(), wantT.Bytes()}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(tc.in)
			w.Close()
		}()
		var got bytes.Buffer
		err = tc.file(&got, r)
		r.Close()
		if err != nil || !bytes.Equal(got.Bytes(), tc.want) {
			t.Errorf("%s from a pipe: %q, %v; want %q", tc.name, got.Bytes(), err, tc.want)
		}
	}
}

// bigTable returns a TOON table of at least size bytes, and its JSON.
func bigTable(t *testing.T, size int) (toonDoc, jsonDoc []byte) {
	t.Helper()
	var b bytes.Buffer
	rows := size/48 + 1
	fmt.Fprintf(&b, "users[%d]{id,name,email,score}:\n", rows)
	for r := 0; r < rows; r++ {
		fmt.Fprintf(&b, "  %d,User %d,user%d@example.com,%d.5\n", r, r, r, r%100)
	}
	var j bytes.Buffer
	if err := ToJSON(&j, bytes.NewReader(b.Bytes())); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), j.Bytes()
}

// TestFileProgress checks WithProgress: FromJSONFile reports two passes,
// ToJSONFile one, with offsets that grow within a pass and reach the end.
func TestFileProgress(t *testing.T) {
	toonDoc, jsonDoc := bigTable(t, 3<<20)
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		run    func(f *os.File, p Option) error
		size   int
		passes int
	}{
		{"FromJSONFile", func(f *os.File, p Option) error { return FromJSONFile(io.Discard, f, p, withPipeline(false)) }, len(jsonDoc), 2},
		{"ToJSONFile", func(f *os.File, p Option) error { return ToJSONFile(io.Discard, f, p) }, len(toonDoc), 1},
	} {
		doc := toonDoc
		if tc.name == "FromJSONFile" {
			doc = jsonDoc
		}
		pass, last, calls := 1, int64(0), 0
		err := tc.run(writeInput(t, dir, doc, 100), WithProgress(func(p int, off int64) {
			calls++
			if p == pass+1 {
				// The pass read to the end; the last offset it reported
				// is that of the last buffer or window it took.
				if last < int64(tc.size-lexBufSize) {
					t.Errorf("%s: pass %d ended at %d of %d", tc.name, pass, last, tc.size)
				}
				pass, last = p, 0
			}
			if p != pass || off < last || off > int64(tc.size) {
				t.Fatalf("%s: progress (%d, %d) after (%d, %d)", tc.name, p, off, pass, last)
			}
			last = off
		}))
		if err != nil {
			t.Fatal(err)
		}
		if pass != tc.passes || last != int64(tc.size) || calls < 10 {
			t.Errorf("%s: %d calls, the last in pass %d at %d of %d; want pass %d at the end", tc.name, calls, pass, last, tc.size, tc.passes)
		}
	}
}

// smapsRss returns the resident kilobytes of the mappings of the file at
// path, from /proc/self/smaps, or -1 where that cannot be read.
func smapsRss(path string) int {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return -1
	}
	rss, in := 0, false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = len(f) >= 6 && f[5] == path
			continue
		}
		if in && len(f) == 3 && f[0] == "Rss:" {
			var kb int
			fmt.Sscan(f[1], &kb)
			rss += kb
		}
	}
	return rss
}

// TestFileReleasesPages checks that a mapped input does not stay resident
// as it is read: at no point do more than a few release blocks of the
// file's mapping count in the process's memory. It needs Linux's
// /proc/self/smaps, and is skipped where the input is not mapped.
func TestFileReleasesPages(t *testing.T) {
	if _, err := os.Stat("/proc/self/smaps"); err != nil {
		t.Skip("no /proc/self/smaps")
	}
	toonDoc, jsonDoc := bigTable(t, 24<<20)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		doc  []byte
		run  func(f *os.File, p Option) error
	}{
		{"FromJSONFile", jsonDoc, func(f *os.File, p Option) error {
			return FromJSONFile(io.Discard, f, p, withPipeline(true), withAheadMin(1<<20))
		}},
		{"ToJSONFile", toonDoc, func(f *os.File, p Option) error { return ToJSONFile(io.Discard, f, p) }},
	} {
		f := writeInput(t, dir, tc.doc, 0)
		path, _ := filepath.Abs(f.Name())
		peak, calls := 0, 0
		err := tc.run(f, WithProgress(func(int, int64) {
			if calls++; calls%16 == 0 {
				peak = max(peak, smapsRss(path))
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if calls < 32 {
			t.Fatalf("%s: %d progress calls", tc.name, calls)
		}
		if peak <= 0 {
			t.Skipf("%s: the input was not mapped", tc.name)
		}
		// What the readers have ahead of them stays resident: the kernel
		// maps pages ahead of a reader, the TOON decoder indexes the rows
		// of a table ahead of the line it is at (2 MiB here), and the
		// ranges in flight of FromJSON's parallel pass (up to encAhead+1
		// of encRangeBytes, and the range its lexer has reached) are
		// released once taken back, a whole block at a time: the block the
		// oldest of them starts in stays too. The input stays well above
		// the limit without the release.
		if limit := (releaseBlock + (encAhead+2)*encRangeBytes) >> 10; peak > limit {
			t.Errorf("%s: %d KiB of the %d KiB input resident at once, want at most %d", tc.name, peak, len(tc.doc)>>10, limit)
		}
	}
}

// TestFileShrunk makes the input file shorter while it is converted: the
// conversion fails with errShrunk (from the mapping's fault, or with reads
// the short input's own error), and the program goes on.
func TestFileShrunk(t *testing.T) {
	toonDoc, jsonDoc := bigTable(t, 4<<20)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		doc  []byte
		run  func(f *os.File, p Option) error
	}{
		{"FromJSONFile", jsonDoc, func(f *os.File, p Option) error { return FromJSONFile(io.Discard, f, p, withPipeline(false)) }},
		{"FromJSONFile with helper", jsonDoc, func(f *os.File, p Option) error {
			return FromJSONFile(io.Discard, f, p, withPipeline(true), withAheadMin(1<<20))
		}},
		{"ToJSONFile", toonDoc, func(f *os.File, p Option) error { return ToJSONFile(io.Discard, f, p) }},
		{"ToJSONFile piped", toonDoc, func(f *os.File, p Option) error { return ToJSONFile(io.Discard, f, p, withPipeline(true)) }},
	} {
		f := writeInput(t, dir, tc.doc, 0)
		cut := false
		err := tc.run(f, WithProgress(func(int, int64) {
			if !cut {
				cut = true
				if err := f.Truncate(0); err != nil {
					t.Fatal(err)
				}
			}
		}))
		if mapped(t, dir) {
			if !errors.Is(err, errShrunk) {
				t.Errorf("%s: %v, want %v", tc.name, err, errShrunk)
			}
		} else if err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// mapped reports whether files are mapped here.
func mapped(t *testing.T, dir string) bool {
	f := writeInput(t, dir, []byte("x"), 0)
	in, err := openFileInput(f)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	return in.data != nil
}

// TestGuardPassesOtherPanics checks that guard turns only faults in the
// mapping into errors.
func TestGuardPassesOtherPanics(t *testing.T) {
	in := &fileInput{mem: guardMem}
	in.data = in.mem[8:]
	for _, tc := range []struct {
		p    any
		pass bool
	}{
		{fault(0x10), true},
		{errors.New("not a fault"), true},
		{"a string", true},
		{fault(addrOf(in.mem[10:])), false},
	} {
		err, passed := func() (err error, passed bool) {
			defer func() { passed = recover() != nil }()
			func() {
				defer in.guard(&err)
				panic(tc.p)
			}()
			return err, false
		}()
		if passed != tc.pass || (!passed && !errors.Is(err, errShrunk)) {
			t.Errorf("panic %v: passed on %v, error %v", tc.p, passed, err)
		}
	}
}

// guardMem stands for a mapping. (It is not on a stack, which may move
// while the test takes its address.)
var guardMem = make([]byte, 64)

// fault is a panic value like the runtime's for a fault at an address.
type fault uintptr

func (f fault) Error() string { return "fault" }
func (f fault) Addr() uintptr { return uintptr(f) }
func (f fault) RuntimeError() {}

func addrOf(b []byte) uintptr { return mem.BytesData(b).Uintptr() }

// TestFileLongTokens checks strings and numbers longer than the line
// limit, ended or not, which a reading lexer stops at when they fill its
// largest buffer and the in-place one when they fill its widest window.
func TestFileLongTokens(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 300)
	digits := strings.Repeat("7", 300)
	for _, doc := range []string{
		`{"a":"` + long + `"}`,
		`{"a":"` + long,
		`{"a":` + digits + `}`,
		`{"a":` + digits,
		`["x","` + long + `"`,
	} {
		for _, buf := range []int{16, 100, 1000} {
			checkFileSame(t, dir, fmt.Sprintf("%.20q, buffer %d", doc, buf), FromJSON, FromJSONFile, []byte(doc), withBufSize(buf), withMaxLine(40))
		}
	}
}
