package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/spectest"
)

// The encode fixtures of the specification are read through
// internal/spectest from $TOON_SPEC_DIR; they are never copied into this
// repository.

type encodeCase struct {
	file, name string
	input      json.RawMessage
	expected   string
	opts       []Option
}

func loadEncodeCases(t *testing.T) []encodeCase {
	t.Helper()
	var cases []encodeCase
	for _, tc := range spectest.Load(t, "encode") {
		if tc.ShouldError {
			t.Fatalf("%s: %q: encode fixtures with shouldError are not handled", tc.File, tc.Name)
		}
		c := encodeCase{file: tc.File, name: tc.Name, input: tc.Input}
		if err := json.Unmarshal(tc.Expected, &c.expected); err != nil {
			t.Fatalf("%s: %q: expected output is not a string", tc.File, tc.Name)
		}
		switch tc.Options.Delimiter {
		case "":
		case ",":
			c.opts = append(c.opts, WithDelimiter(Comma))
		case "\t":
			c.opts = append(c.opts, WithDelimiter(Tab))
		case "|":
			c.opts = append(c.opts, WithDelimiter(Pipe))
		default:
			t.Fatalf("%s: %q: unknown delimiter %q", tc.File, tc.Name, tc.Options.Delimiter)
		}
		if tc.Options.IndentSize != 0 {
			c.opts = append(c.opts, WithIndent(tc.Options.IndentSize))
		}
		cases = append(cases, c)
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
