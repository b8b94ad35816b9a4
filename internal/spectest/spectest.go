// Package spectest reads the conformance fixtures of the TOON
// specification for this module's tests. The fixtures are never copied into
// the repository: they are read from $TOON_SPEC_DIR (the specification
// repository's root), by default from shared/toon-spec beside the module's
// root. When they are missing, the calling test fails if the CI variable is
// set, and is skipped otherwise.
package spectest

import (
	"encoding/json"
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
	root := os.Getenv("TOON_SPEC_DIR")
	if root == "" {
		root = defaultRoot()
	}
	dir := filepath.Join(root, "tests", "fixtures", category)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("conformance fixtures missing (TOON_SPEC_DIR=%q): %v", os.Getenv("TOON_SPEC_DIR"), err)
		}
		t.Skipf("conformance fixtures not found at %s; set TOON_SPEC_DIR", dir)
	}
	return dir
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
