package toon

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/ordered"
	"github.com/toonstream/toon/internal/spectest"
)

// The official conformance fixtures are read through internal/spectest
// from $TOON_SPEC_DIR; they are never copied into this repository.

// TestMain says on standard error when the fixtures are missing, and
// makes the parallel paths run their workers however busy the machine is.
func TestMain(m *testing.M) {
	spectest.Notice()
	ordered.IgnoreLoad()
	os.Exit(m.Run())
}

func TestDecodeConformance(t *testing.T) {
	passed, total := 0, 0
	for _, tc := range spectest.Load(t, "decode") {
		file := tc.File
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
