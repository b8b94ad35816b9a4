package spectest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotice checks the line printed when the fixtures are missing, and
// that nothing is printed when they are there.
func TestNotice(t *testing.T) {
	var sb strings.Builder
	t.Setenv("TOON_SPEC_DIR", t.TempDir())
	t.Setenv("CI", "")
	notice(&sb)
	if got := sb.String(); !strings.HasPrefix(got, "spectest: no conformance fixtures at ") || !strings.Contains(got, "SKIPPED") || !strings.Contains(got, "TOON_SPEC_DIR") || strings.Count(got, "\n") != 1 {
		t.Fatalf("%q", got)
	}
	sb.Reset()
	t.Setenv("CI", "true")
	notice(&sb)
	if got := sb.String(); !strings.Contains(got, "FAIL (CI is set)") {
		t.Fatalf("under CI: %q", got)
	}
	for _, v := range []string{"", "false", "0"} {
		t.Setenv("CI", v)
		if inCI() {
			t.Fatalf("CI=%q taken for CI", v)
		}
	}
	// The fixtures present: nothing to say.
	dir := t.TempDir()
	t.Setenv("TOON_SPEC_DIR", dir)
	if err := os.MkdirAll(filepath.Join(dir, "tests", "fixtures"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb.Reset()
	notice(&sb)
	if sb.Len() != 0 {
		t.Fatalf("fixtures present: %q", sb.String())
	}
}
