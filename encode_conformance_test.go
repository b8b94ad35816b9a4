package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The encode fixtures of the specification are read from
// $TOON_SPEC_DIR/tests/fixtures/encode, or ../shared/toon-spec when the
// variable is unset. They are never copied into this repository. A missing
// directory fails the test under CI and skips it elsewhere.

func encodeFixtureDir(t *testing.T) string {
	t.Helper()
	root := os.Getenv("TOON_SPEC_DIR")
	if root == "" {
		root = filepath.Join("..", "shared", "toon-spec")
	}
	dir := filepath.Join(root, "tests", "fixtures", "encode")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("encode fixtures missing (TOON_SPEC_DIR=%q): %v", os.Getenv("TOON_SPEC_DIR"), err)
		}
		t.Skipf("encode fixtures not found at %s; set TOON_SPEC_DIR", dir)
	}
	return dir
}

type encodeCase struct {
	file, name string
	input      json.RawMessage
	expected   string
	opts       []Option
}

func loadEncodeCases(t *testing.T) []encodeCase {
	t.Helper()
	dir := encodeFixtureDir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no encode fixtures in %s", dir)
	}
	sort.Strings(paths)
	var cases []encodeCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Tests []struct {
				Name     string          `json:"name"`
				Input    json.RawMessage `json:"input"`
				Expected string          `json:"expected"`
				Options  struct {
					Delimiter  string `json:"delimiter"`
					IndentSize int    `json:"indentSize"`
				} `json:"options"`
				ShouldError bool `json:"shouldError"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, tc := range f.Tests {
			if tc.ShouldError {
				t.Fatalf("%s: %q: encode fixtures with shouldError are not handled", p, tc.Name)
			}
			c := encodeCase{file: filepath.Base(p), name: tc.Name, input: tc.Input, expected: tc.Expected}
			switch tc.Options.Delimiter {
			case "":
			case ",":
				c.opts = append(c.opts, WithDelimiter(Comma))
			case "\t":
				c.opts = append(c.opts, WithDelimiter(Tab))
			case "|":
				c.opts = append(c.opts, WithDelimiter(Pipe))
			default:
				t.Fatalf("%s: %q: unknown delimiter %q", p, tc.Name, tc.Options.Delimiter)
			}
			if tc.Options.IndentSize != 0 {
				c.opts = append(c.opts, WithIndent(tc.Options.IndentSize))
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// jsonToValue decodes JSON into Encode's generic values, keeping key order
// (Object) and, with exact set, numbers as json.Number; otherwise numbers
// are float64.
func jsonToValue(data []byte, exact bool) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := readJSONValue(d, exact)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func readJSONValue(d *json.Decoder, exact bool) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			obj := Object{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := readJSONValue(d, exact)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: kt.(string), Value: v})
			}
			_, err := d.Token()
			return obj, err
		case '[':
			arr := []any{}
			for d.More() {
				v, err := readJSONValue(d, exact)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := d.Token()
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", x)
	case json.Number:
		if exact {
			return x, nil
		}
		return x.Float64()
	}
	return tok, nil // string, bool, nil
}

// TestEncodeConformance runs every encode fixture through Marshal, with
// numbers both as exact json.Number text and as float64, and through an
// Encoder writing to a file-like writer, and compares the output byte for
// byte.
func TestEncodeConformance(t *testing.T) {
	cases := loadEncodeCases(t)
	passed := 0
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.file, ".json")+"/"+c.name, func(t *testing.T) {
			ok := true
			for _, exact := range []bool{true, false} {
				v, err := jsonToValue(c.input, exact)
				if err != nil {
					t.Fatalf("input: %v", err)
				}
				got, err := Marshal(v, c.opts...)
				if err != nil {
					t.Errorf("Marshal (exact numbers %v): %v", exact, err)
					ok = false
					continue
				}
				if string(got) != c.expected {
					t.Errorf("Marshal (exact numbers %v):\n got: %q\nwant: %q", exact, got, c.expected)
					ok = false
				}
				var buf bytes.Buffer
				enc := NewEncoder(&buf, c.opts...)
				if err := enc.Encode(v); err != nil {
					t.Errorf("Encode: %v", err)
					ok = false
				} else if buf.String() != c.expected {
					t.Errorf("Encode (exact numbers %v):\n got: %q\nwant: %q", exact, buf.String(), c.expected)
					ok = false
				}
			}
			if ok {
				passed++
			}
		})
	}
	t.Logf("encode conformance: %d of %d fixtures passed", passed, len(cases))
	if len(cases) == 0 {
		t.Fatal("no encode fixtures")
	}
}
