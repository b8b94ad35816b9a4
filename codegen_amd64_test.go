//go:build !amd64.v3

package toon

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoBitScanAfterVariableShift checks the compiled package for a
// sequence that the AMD Zen 3 of our benchmark host runs five to ten
// times slower than its instructions suggest: a BSF or BSR (the code of
// bits.TrailingZeros64 and bits.Len64 for GOAMD64 v1 and v2) whose operand
// comes from a shift by CL, with no instruction that sets every flag in
// between (NOT sets none, BTS only CF). In a loop of dependent links, a
// link of SHRQ CL and BSFQ took 7.7-13.7 ns there; 1.4-1.7 ns with a CMPQ
// or ORQ between the two, 1.0 ns with TZCNT (v3's code), and 1.6 ns when
// the shift's result was not the scan's operand. runFields once computed a
// line's indentation as bits.TrailingZeros64(^(m >> sh) | 1<<63), which
// compiles to that sequence (the OR is a BTS), once a line.
//
// The test compiles the package, as it is and with the purego tag, and
// reads the code with go tool objdump (a test binary run by go test has
// no symbols to read): it follows each function's listing back from
// every bit scan over instructions that leave some flags as they were,
// through conditional jumps (the fall-through path), to the first that
// sets them all; an unconditional jump, a call or a return ends the
// search.
func TestNoBitScanAfterVariableShift(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package twice")
	}
	t.Parallel() // it waits on the go command
	for _, tags := range []string{"", "purego"} {
		t.Run("tags="+tags, func(t *testing.T) {
			archive := filepath.Join(t.TempDir(), "toon.a")
			if out, err := exec.Command("go", "build", "-tags", tags, "-o", archive, ".").CombinedOutput(); err != nil {
				t.Fatalf("go build: %v: %s", err, out)
			}
			cmd := exec.Command("go", "tool", "objdump", archive)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go tool objdump: %v: %s", err, stderr.String())
			}
			checkBitScans(t, string(out))
		})
	}
}

// checkBitScans reports every bit scan of the listing that takes its flags
// from a shift by CL (see TestNoBitScanAfterVariableShift).
func checkBitScans(t *testing.T, listing string) {
	var (
		// keepFlags: instructions that set no flag, or only some.
		keepFlags = regexp.MustCompile(`^(MOV|LEA|NOT|NOP|CMOV|SET|PUSH|POP|XCHG|BSWAP|PREFETCH|V|K|BTS|BTR|BTC|BT[QLW]?$|INC|DEC|BSF|BSR|J[A-Z]+$)`)
		varShift  = regexp.MustCompile(`^(SHR|SAR|SHL|ROR|ROL|RCR|RCL)[QLWB]? CL,`)
		fn        string
		seen      []string // the current function's instructions
		scans     int
	)
	for _, line := range strings.Split(listing, "\n") {
		if strings.HasPrefix(line, "TEXT ") {
			fn, seen = line, seen[:0]
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
				op := strings.Fields(prev)[0]
				switch {
				case op == "JMP" || op == "RET" || strings.HasPrefix(op, "CALL"):
					break back
				case varShift.MatchString(prev):
					t.Errorf("%s: %s (%s) takes its flags from %s", strings.Fields(fn)[1], ins, f[0], prev)
					break back
				case !keepFlags.MatchString(op):
					break back // it sets every flag
				}
			}
		}
		seen = append(seen, ins)
	}
	if scans < 10 {
		t.Fatalf("only %d bit scans found in the package's code: the listing was not read", scans)
	}
}
