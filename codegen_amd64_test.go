//go:build !amd64.v3

package toon

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// TestNoBitScanAfterVariableShift checks the package's Go code, as the
// compiler makes it for GOAMD64 v1 and v2, for a BSF or BSR (the code of
// bits.TrailingZeros64 and bits.Len64 there) whose flags come from a
// shift by CL, with no instruction that sets every flag in between (NOT
// sets none, BTS only CF, INC and DEC all but CF). AMD's Zen 3 runs a scan
// of a value just shifted by CL several times slower than a scan after an
// instruction that sets every flag; bits.TrailingZeros64(^(m>>sh) | 1<<63)
// compiles to such a sequence (the OR is a BTS). The slow case needs the
// shift's result to be the scan's operand too; the test holds the code to
// the simpler, stricter rule, that no scan's flags come from such a shift.
//
// It compiles the package with the build tags of the test binary itself
// (so the plain and the purego runs of go test each check their own code)
// and reads the code with go tool objdump (a test binary that go test
// runs has no symbols to read; the archive's listing holds the Go code,
// not the assembly kernels): from every bit scan it follows the
// function's listing back, through conditional jumps (the path that falls
// through), to the first instruction that sets every flag, or to a shift
// by CL; an unconditional jump, a call or a return ends the search.
func TestNoBitScanAfterVariableShift(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compile the package with")
	}
	if os.Getenv("GOCACHE") == "off" {
		t.Skip("GOCACHE=off: go build needs the cache")
	}
	t.Parallel() // it waits on the go command
	tags := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "-tags" {
				tags = s.Value
			}
		}
	}
	archive := filepath.Join(t.TempDir(), "toon.a")
	if out, err := exec.Command("go", "build", "-tags", tags, "-o", archive, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags %q: %v: %s", tags, err, out)
	}
	cmd := exec.Command("go", "tool", "objdump", archive)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v: %s", err, stderr.String())
	}
	checkBitScans(t, string(out))
}

var (
	// setsFlags matches the instructions (as go tool objdump prints them)
	// that set every flag: the integer arithmetic and logic, compares and
	// tests, POPCNT, the float compares and shifts by a constant (never 0
	// in the compiler's code). Any other instruction sets no flag or only
	// some (or leaves some undefined, as MUL and TZCNT do), and the search
	// goes on past it.
	setsFlags = regexp.MustCompile(`^((ADD|SUB|AND|OR|XOR|ADC|SBB|CMP|TEST|NEG)[QLWB]|POPCNT[QLW]|U?COMIS[SD])( |$)|^(SHL|SHR|SAL|SAR)[QLWB] \$`)
	// varShift matches a shift or rotation by CL.
	varShift = regexp.MustCompile(`^(SHL|SHR|SAL|SAR|ROL|ROR|RCL|RCR)[QLWB] CL,`)
)

// checkBitScans reports every bit scan of the listing that takes its flags
// from a shift by CL (see TestNoBitScanAfterVariableShift).
func checkBitScans(t *testing.T, listing string) {
	var (
		fn    string
		seen  []string // the current function's instructions
		scans int
	)
	for _, line := range strings.Split(listing, "\n") {
		if name, ok := strings.CutPrefix(line, "TEXT "); ok {
			fn, _, _ = strings.Cut(name, "(SB)")
			seen = seen[:0]
			continue
		}
		// A listing line: source position, address, encoding and the
		// instruction, separated by tabs.
		var f []string
		for _, s := range strings.Split(line, "\t") {
			if s = strings.TrimSpace(s); s != "" {
				f = append(f, s)
			}
		}
		if len(f) < 4 {
			continue
		}
		ins := f[3]
		if strings.HasPrefix(ins, "BSF") || strings.HasPrefix(ins, "BSR") {
			scans++
		back:
			for i := len(seen) - 1; i >= 0; i-- {
				prev := seen[i]
				op, _, _ := strings.Cut(prev, " ")
				switch {
				case op == "JMP" || op == "RET" || strings.HasPrefix(op, "CALL"):
					break back
				case varShift.MatchString(prev):
					t.Errorf("%s: %s (%s) takes its flags from %s", fn, ins, f[0], prev)
					break back
				case setsFlags.MatchString(prev):
					break back
				}
			}
		}
		seen = append(seen, ins)
	}
	if scans < 10 {
		t.Fatalf("only %d bit scans found in the package's code: the listing was not read", scans)
	}
}
