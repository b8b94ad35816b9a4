//go:build !purego

package toon

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestKernelLayout checks the numbers the assembly kernels spell out
// because go_asm.h has no name for them (every struct offset, kind and
// other constant they use comes from go_asm.h): putrow_amd64.s counts
// cells with shifts by 4, the size of a Value, and tells a tag from a text
// by its distance from valueTags, of 8 bytes, and finds the class table of
// a delimiter word dw at (dw&0x30)<<3 bytes into rowClassTables;
// typerows_amd64.s gives the
// cells it leaves to typeRun the kinds 0 and 1, which no token kind may
// have.
func TestKernelLayout(t *testing.T) {
	if n := mem.Sizeof[Value](); n != 1<<4 {
		t.Errorf("size of Value: %d, putrow_amd64.s shifts by 4", n)
	}
	if n := len(valueTags); n != 8 {
		t.Errorf("len(valueTags): %d, putrow_amd64.s uses 8", n)
	}
	for _, d := range []Delimiter{Comma, Tab, Pipe} {
		dw := delimWord(quoteMask(d))
		got := uintptr(dw&0x30) << 3
		want := mem.SliceData(rowClassTables[rowClassIndex(dw)][:]).Diff(mem.SliceData(rowClassTables[0][:]))
		if got != uintptr(want) {
			t.Errorf("delimiter %q: class table at %d, putrow_amd64.s takes %d", d, want, got)
		}
	}
	for _, k := range []Kind{KindString, KindNumber, KindBool, KindNull} {
		if k <= 1 {
			t.Errorf("kind %v is %d, which typeRows gives the cells it leaves to typeRun", k, k)
		}
	}
}

// TestKernelsEncodeVEX checks that every instruction of the assembly
// kernels that names a vector register is VEX- or EVEX-encoded (a
// mnemonic starting with V; the mask registers' K instructions name
// none). A legacy SSE instruction among AVX code, such as MOVQ R9, X5,
// costs a switch of the vector unit's state, or a merge of the upper
// halves of the registers, at each execution on the CPUs that charge for
// mixing the two encodings (Zen 3 among them): one in a kernel's loop can
// take most of the kernel's time.
func TestKernelsEncodeVEX(t *testing.T) {
	files, err := filepath.Glob("*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly files: %v", err)
	}
	vector := regexp.MustCompile(`\b[XYZ]([0-9]|[12][0-9]|3[01])\b`)
	checked := 0
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			if c := strings.Index(line, "//"); c >= 0 {
				line = line[:c]
			}
			// A macro's lines end with a backslash and may hold several
			// instructions separated by semicolons. An instruction whose
			// registers are a macro's parameters is not checked (the test
			// sees the parameters' names, not registers); a use of a
			// macro, NAME(...), is no instruction, nor is a label.
			for _, ins := range strings.Split(strings.TrimSuffix(strings.TrimSpace(line), "\\"), ";") {
				f := strings.Fields(ins)
				if len(f) < 2 || strings.ContainsAny(f[0], ":#(") || !vector.MatchString(strings.Join(f[1:], " ")) {
					continue
				}
				checked++
				if !strings.HasPrefix(f[0], "V") {
					t.Errorf("%s:%d: %s names a vector register without a VEX encoding", name, i+1, strings.TrimSpace(ins))
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d instructions with vector registers found: the parser misses them", checked)
	}
}
