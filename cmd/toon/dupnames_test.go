package main

import (
	"strings"
	"testing"
)

// TestEncodeRepeatedNames: a JSON object that repeats a member name is an
// error when encoding, and with --no-strict the name keeps its first
// position and takes its last value, as JSON.parse and the reference
// implementation's command read it.
func TestEncodeRepeatedNames(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "dup.json", `{"a":1,"b":{"x":1,"y":2,"x":[1,2]},"c":3,"a":{"z":true}}`)
	r := runToon(t, dir, nil, "dup.json")
	if r.code != 1 || !strings.Contains(r.stderr, `duplicate object member name "x"`) || r.stdout != "" {
		t.Fatalf("strict: %+v", r)
	}
	r = runToon(t, dir, nil, "--no-strict", "dup.json")
	if want := "a:\n  z: true\nb:\n  x[2]: 1,2\n  y: 2\nc: 3\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("--no-strict: %+v", r)
	}
	// From standard input too, which is copied to a temporary file first.
	r = runToon(t, dir, []byte(`{"rows":[{"id":1,"n":"a","id":9},{"id":2,"n":"b"}]}`), "--no-strict", "-e")
	if want := "rows[2]{id,n}:\n  9,a\n  2,b\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("--no-strict from standard input: %+v", r)
	}
}
