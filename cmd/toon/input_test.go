package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFileInputMatchesPipe checks that a file input, which the command
// reads through a memory mapping where it can, gives what the same bytes
// give through a pipe: the same output, the same error (with its line and
// column), the same exit code. The file is given by name, and as a
// standard input whose offset is past a prefix of other bytes.
func TestFileInputMatchesPipe(t *testing.T) {
	dir := t.TempDir()
	page := os.Getpagesize()
	table := func(size int) string { // a table of exactly size bytes
		var b strings.Builder
		fmt.Fprintf(&b, "t[%d]{a,b}:\n", size/16)
		for i := 0; i < size/16-1; i++ {
			fmt.Fprintf(&b, "  %d,x\n", i)
		}
		b.WriteString("  0,")
		b.WriteString(strings.Repeat("y", size-b.Len()))
		return b.String()
	}
	cases := []struct {
		name, in string
		args     []string
	}{
		{"encode", usersJSON, []string{"--encode"}},
		{"decode", usersTOON, []string{"--decode"}},
		{"decode a page", table(page), []string{"--decode"}},
		{"decode two pages", table(2 * page), []string{"--decode"}},
		{"encode, bad JSON", "{\"a\": [1,\n 2,, 3]}", []string{"--encode"}},
		{"decode, bad count", "a: 1\nb[2]: 1,2,3\n", []string{"--decode"}},
		{"encode, empty", "", []string{"--encode"}},
		{"decode, empty", "", []string{"--decode"}},
		{"decode non-strict, indented", "a: 1\na: 2\n", []string{"--decode", "--no-strict", "--json-indent", "2"}},
	}
	for _, tc := range cases {
		want := runToon(t, dir, []byte(tc.in), tc.args...) // stdin in a pipe
		if want.code != 0 && !strings.Contains(tc.name, "bad") && !strings.Contains(tc.name, "empty") {
			t.Fatalf("%s through a pipe: %+v", tc.name, want)
		}
		write(t, dir, "in.data", tc.in)
		got := runToon(t, dir, nil, append(tc.args, "in.data")...)
		got.stderr = strings.ReplaceAll(got.stderr, "in.data:", "<stdin>:") // errors name their input
		if got != want {
			t.Errorf("%s from a file: %+v, through a pipe %+v", tc.name, got, want)
		}
		for _, prefix := range []int{1, page + 1} {
			p := write(t, dir, "in.off", strings.Repeat("#", prefix)+tc.in)
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Seek(int64(prefix), io.SeekStart); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(toonBin, tc.args...)
			cmd.Dir, cmd.Stdin = dir, f
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err = cmd.Run()
			f.Close()
			got := result{out.String(), errb.String(), 0}
			if ee, ok := err.(*exec.ExitError); ok {
				got.code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s from a file at offset %d: %+v, through a pipe %+v", tc.name, prefix, got, want)
			}
		}
	}
}
