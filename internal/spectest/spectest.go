// Package spectest reads the conformance fixtures of the TOON
// specification for this module's tests. The fixtures are never copied into
// the repository: they are read from $TOON_SPEC_DIR (the specification
// repository's root), by default from shared/toon-spec beside the module's
// root. When they are missing, the calling test fails if the CI variable is
// set (to anything but "false" or "0"), and is skipped otherwise; Notice,
// called from a package's TestMain, says so on standard error.
package spectest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Fixture is one test case of a fixture file.
type Fixture struct {
	File        string          `json:"-"` // base name of the fixture file
	Name        string          `json:"name"`
	Input       json.RawMessage `json:"input"`
	Expected    json.RawMessage `json:"expected"`
	ShouldError bool            `json:"shouldError"`
	Options     Options         `json:"options"`
}

// Options are a fixture's encoder or decoder options; zero values mean
// the defaults.
type Options struct {
	Strict     *bool  `json:"strict"`
	IndentSize int    `json:"indentSize"`
	Delimiter  string `json:"delimiter"`
}

// Dir returns the directory of one category of fixtures ("encode" or
// "decode").
func Dir(t testing.TB, category string) string {
	t.Helper()
	dir := filepath.Join(root(), "tests", "fixtures", category)
	if _, err := os.Stat(dir); err != nil {
		if inCI() {
			t.Fatalf("conformance fixtures missing (TOON_SPEC_DIR=%q): %v", os.Getenv("TOON_SPEC_DIR"), err)
		}
		t.Skipf("conformance fixtures not found at %s; set TOON_SPEC_DIR", dir)
	}
	return dir
}

// Notice prints one line to standard error when the fixtures are missing,
// for a package's TestMain to call: the tests that need them are skipped,
// and go test shows a skip only with -v. (In package list mode, as in
// "go test ./...", go test shows a passing package's output only with -v
// too; "go test" in the package's directory shows it.) Under CI the tests
// fail instead, and the line says so.
func Notice() { notice(os.Stderr) }

func notice(w io.Writer) {
	r := root()
	if _, err := os.Stat(filepath.Join(r, "tests", "fixtures")); err == nil {
		return
	}
	what := "the conformance tests are SKIPPED"
	if inCI() {
		what = "the conformance tests FAIL (CI is set)"
	}
	fmt.Fprintf(w, "spectest: no conformance fixtures at %s: %s; set TOON_SPEC_DIR to a copy of the TOON specification repository (github.com/toon-format/spec)\n", filepath.Join(r, "tests", "fixtures"), what)
}

// root is the specification repository's root: $TOON_SPEC_DIR, or
// defaultRoot.
func root() string {
	if r := os.Getenv("TOON_SPEC_DIR"); r != "" {
		return r
	}
	return defaultRoot()
}

// inCI reports whether the tests run under CI, where missing fixtures are
// a failure.
func inCI() bool {
	switch os.Getenv("CI") {
	case "", "false", "0":
		return false
	}
	return true
}

// defaultRoot is shared/toon-spec beside the module's root, found by
// walking up from the working directory to go.mod.
func defaultRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "toon-spec")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "toon-spec")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", "toon-spec")
		}
		dir = parent
	}
}

// Load reads every fixture of a category, in file-name order and then in
// the order of each file.
func Load(t testing.TB, category string) []Fixture {
	t.Helper()
	dir := Dir(t, category)
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixture files in %s", dir)
	}
	sort.Strings(paths)
	var out []Fixture
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Tests []Fixture `json:"tests"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for i := range f.Tests {
			f.Tests[i].File = filepath.Base(p)
		}
		out = append(out, f.Tests...)
	}
	return out
}
