package toon

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The official conformance fixtures are read from $TOON_SPEC_DIR (the
// specification repository's root). They are never copied into this
// repository. Under CI a missing directory fails the test.

// specFixtureDir returns $TOON_SPEC_DIR/tests/fixtures/<category>.
func specFixtureDir(t *testing.T, category string) string {
	t.Helper()
	root := os.Getenv("TOON_SPEC_DIR")
	if root == "" {
		root = filepath.Join("..", "shared", "toon-spec")
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

type fixtureFile struct {
	Tests []struct {
		Name        string          `json:"name"`
		Input       json.RawMessage `json:"input"`
		Expected    json.RawMessage `json:"expected"`
		ShouldError bool            `json:"shouldError"`
		Options     struct {
			Strict     *bool  `json:"strict"`
			IndentSize int    `json:"indentSize"`
			Delimiter  string `json:"delimiter"`
		} `json:"options"`
	} `json:"tests"`
}

func readFixtures(t *testing.T, dir string) map[string]fixtureFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixture files in %s", dir)
	}
	sort.Strings(paths)
	out := make(map[string]fixtureFile)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f fixtureFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = f
	}
	return out
}

func TestDecodeConformance(t *testing.T) {
	dir := specFixtureDir(t, "decode")
	passed, total := 0, 0
	for file, f := range readFixtures(t, dir) {
		for _, tc := range f.Tests {
			total++
			var input string
			if err := json.Unmarshal(tc.Input, &input); err != nil {
				t.Fatalf("%s: %s: input is not a string", file, tc.Name)
			}
			var opts []Option
			if tc.Options.Strict != nil {
				opts = append(opts, WithStrict(*tc.Options.Strict))
			}
			if tc.Options.IndentSize > 0 {
				opts = append(opts, WithIndent(tc.Options.IndentSize))
			}
			ok := t.Run(strings.TrimSuffix(file, ".json")+"/"+tc.Name, func(t *testing.T) {
				// Both the reader path and the byte-slice path must agree.
				for _, mode := range []string{"bytes", "reader", "onebyte"} {
					var got any
					var err error
					switch mode {
					case "bytes":
						err = Unmarshal([]byte(input), &got, opts...)
					case "reader":
						err = NewDecoder(strings.NewReader(input), opts...).Decode(&got)
					case "onebyte":
						err = NewDecoder(&oneByteReader{s: input}, opts...).Decode(&got)
					}
					if tc.ShouldError {
						if err == nil {
							t.Fatalf("%s: input %q: want an error, got %#v", mode, input, got)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s: input %q: %v", mode, input, err)
					}
					var want any
					if err := json.Unmarshal(tc.Expected, &want); err != nil {
						t.Fatal(err)
					}
					if !modelEqual(got, want) { // JSON-model equality, fuzz_test.go
						t.Fatalf("%s: input %q:\n got %#v\nwant %#v", mode, input, got, want)
					}
				}
			})
			if ok {
				passed++
			}
		}
	}
	t.Logf("decode conformance: %d/%d fixtures passed", passed, total)
	if total == 0 {
		t.Fatal("no decode fixtures ran")
	}
}

type oneByteReader struct {
	s string
	i int
}

func (r *oneByteReader) Read(p []byte) (int, error) {
	if r.i >= len(r.s) {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.s[r.i]
	r.i++
	return 1, nil
}
