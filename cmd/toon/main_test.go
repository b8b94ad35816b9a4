package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiktoken-go/tokenizer"
)

// toonBin is the command, built once by TestMain into a temporary directory.
var toonBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toon-cli-test-*")
	if err != nil {
		panic(err)
	}
	toonBin = filepath.Join(dir, "toon")
	build := exec.Command("go", "build", "-o", toonBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building the toon command: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// runToon runs the command with stdin (nil for none) in dir.
func runToon(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(toonBin, args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const usersJSON = `{"users":[{"id":1,"name":"Ada","tags":"a|b"},{"id":2,"name":"Bob","tags":"c"}],"n":1.50}`

const usersTOON = "users[2]{id,name,tags}:\n  1,Ada,a|b\n  2,Bob,c\nn: 1.5"

func TestEncodeDecodeFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	r := runToon(t, dir, nil, "u.json")
	if r.code != 0 || r.stdout != usersTOON || r.stderr != "" {
		t.Fatalf("encode: %+v", r)
	}
	write(t, dir, "u.toon", usersTOON)
	r = runToon(t, dir, nil, "u.toon")
	want := `{"users":[{"id":1,"name":"Ada","tags":"a|b"},{"id":2,"name":"Bob","tags":"c"}],"n":1.5}` + "\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("decode: %+v", r)
	}
	// Upper-case extension, and an explicit direction overriding it.
	write(t, dir, "U.TOON", usersTOON)
	if r := runToon(t, dir, nil, "U.TOON"); r.code != 0 || r.stdout != want {
		t.Fatalf("decode .TOON: %+v", r)
	}
	write(t, dir, "data.txt", usersTOON)
	if r := runToon(t, dir, nil, "-d", "data.txt"); r.code != 0 || r.stdout != want {
		t.Fatalf("-d data.txt: %+v", r)
	}
	if r := runToon(t, dir, nil, "--decode", "data.txt"); r.code != 0 || r.stdout != want {
		t.Fatalf("--decode data.txt: %+v", r)
	}
	write(t, dir, "data.in", usersJSON)
	if r := runToon(t, dir, nil, "data.in", "--encode"); r.code != 0 || r.stdout != usersTOON {
		t.Fatalf("data.in --encode: %+v", r)
	}
}

func TestStdin(t *testing.T) {
	dir := t.TempDir()
	// Standard input encodes by default, through a pipe (spooled).
	if r := runToon(t, dir, []byte(usersJSON)); r.code != 0 || r.stdout != usersTOON {
		t.Fatalf("stdin encode: %+v", r)
	}
	if r := runToon(t, dir, []byte(usersJSON), "-"); r.code != 0 || r.stdout != usersTOON {
		t.Fatalf("stdin '-' encode: %+v", r)
	}
	if r := runToon(t, dir, []byte(usersTOON), "-d"); r.code != 0 || !strings.HasPrefix(r.stdout, `{"users":[{"id":1`) {
		t.Fatalf("stdin decode: %+v", r)
	}
	// Standard input redirected from a file is read in place.
	p := write(t, dir, "u.json", usersJSON)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(toonBin)
	cmd.Stdin = f
	out, err := cmd.Output()
	if err != nil || string(out) != usersTOON {
		t.Fatalf("stdin from file: %q %v", out, err)
	}
}

func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	r := runToon(t, dir, nil, "u.json", "-o", "out.toon")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("%+v", r)
	}
	got, err := os.ReadFile(filepath.Join(dir, "out.toon"))
	if err != nil || string(got) != usersTOON {
		t.Fatalf("out.toon: %q %v", got, err)
	}
	r = runToon(t, dir, nil, "--output", "back.json", "out.toon")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "back.json")); !strings.HasPrefix(string(got), `{"users":`) {
		t.Fatalf("back.json: %q", got)
	}
	// A failed conversion leaves no file, and an existing file untouched.
	write(t, dir, "bad.json", `{"a":[1,2}`)
	if r := runToon(t, dir, nil, "bad.json", "-o", "new.toon"); r.code != 1 {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.toon")); !os.IsNotExist(err) {
		t.Fatalf("new.toon exists after a failure: %v", err)
	}
	if r := runToon(t, dir, nil, "bad.json", "-o", "out.toon"); r.code != 1 {
		t.Fatalf("%+v", r)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out.toon")); string(got) != usersTOON {
		t.Fatalf("out.toon changed after a failure: %q", got)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}

func TestDelimiterAndIndent(t *testing.T) {
	dir := t.TempDir()
	in := `{"a":{"rows":[{"x":1,"y":"p|q"},{"x":2,"y":"r,s"}]},"t":[1,2]}`
	write(t, dir, "in.json", in)
	cases := map[string]string{
		",":   "a:\n  rows[2]{x,y}:\n    1,p|q\n    2,\"r,s\"\nt[2]: 1,2",
		"|":   "a:\n  rows[2|]{x|y}:\n    1|\"p|q\"\n    2|r,s\nt[2|]: 1|2",
		`\t`:  "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2",
		"\t":  "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2",
		"tab": "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2",
	}
	for d, want := range cases {
		r := runToon(t, dir, nil, "--delimiter", d, "in.json")
		if r.code != 0 || r.stdout != want {
			t.Errorf("--delimiter %q: %+v\nwant %q", d, r, want)
		}
	}
	if r := runToon(t, dir, nil, "--delimiter=|", "in.json"); r.code != 0 || r.stdout != cases["|"] {
		t.Errorf("--delimiter=|: %+v", r)
	}
	if r := runToon(t, dir, nil, "--delimiter", ";", "in.json"); r.code != 2 || !strings.Contains(r.stderr, "delimiter") {
		t.Errorf("bad delimiter: %+v", r)
	}
	r := runToon(t, dir, nil, "--indent", "4", "in.json")
	want4 := "a:\n    rows[2]{x,y}:\n        1,p|q\n        2,\"r,s\"\nt[2]: 1,2"
	if r.code != 0 || r.stdout != want4 {
		t.Fatalf("--indent 4: %+v", r)
	}
	write(t, dir, "in4.toon", want4)
	if r := runToon(t, dir, nil, "in4.toon"); r.code != 1 {
		t.Fatalf("4-space document read with indent 2 in strict mode: %+v", r)
	}
	r = runToon(t, dir, nil, "--indent", "4", "in4.toon")
	if r.code != 0 || r.stdout != `{"a":{"rows":[{"x":1,"y":"p|q"},{"x":2,"y":"r,s"}]},"t":[1,2]}`+"\n" {
		t.Fatalf("decode --indent 4: %+v", r)
	}
	if r := runToon(t, dir, nil, "--indent", "0", "in.json"); r.code != 2 {
		t.Fatalf("--indent 0: %+v", r)
	}
}

func TestJSONIndentAndNoStrict(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.toon", "a:\n  b[2]: 1,2\n")
	r := runToon(t, dir, nil, "--json-indent", "2", "a.toon")
	if want := "{\n  \"a\": {\n    \"b\": [\n      1,\n      2\n    ]\n  }\n}\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("--json-indent 2: %+v", r)
	}
	if r := runToon(t, dir, nil, "--json-indent", "-1", "a.toon"); r.code != 2 {
		t.Fatalf("--json-indent -1: %+v", r)
	}
	write(t, dir, "loose.toon", "items[3]: 1,2\nk: 1\nk: 2\n")
	r = runToon(t, dir, nil, "loose.toon")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "loose.toon:1:") {
		t.Fatalf("strict: %+v", r)
	}
	r = runToon(t, dir, nil, "--no-strict", "loose.toon")
	if want := `{"items":[1,2],"k":2}` + "\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("--no-strict: %+v", r)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "bad.toon", "a: 1\nrows[2]{x,y}:\n  1,2\n  3\n")
	r := runToon(t, dir, nil, "bad.toon")
	lines := strings.Split(r.stderr, "\n")
	// Decoding streams: what came before the error has been written.
	if r.code != 1 || len(lines) < 3 || !strings.HasPrefix(r.stdout, `{"a":1,"rows":[{"x":1,"y":2`) {
		t.Fatalf("%+v", r)
	}
	if !regexp.MustCompile(`^bad\.toon:4:\d+: row width mismatch`).MatchString(lines[0]) {
		t.Fatalf("first line %q", lines[0])
	}
	if lines[1] != "      3" {
		t.Fatalf("source line %q", lines[1])
	}
	col, _ := strconv.Atoi(strings.Split(lines[0], ":")[2])
	if caret := strings.Index(lines[2], "^"); caret != 4+col-1 {
		t.Fatalf("caret at %d for column %d: %q", caret, col, lines[2])
	}

	write(t, dir, "bad.json", "{\n  \"a\": [1, 2,, 3]\n}\n")
	r = runToon(t, dir, nil, "bad.json")
	if r.stdout != "" {
		t.Fatalf("encoding wrote %q before failing", r.stdout)
	}
	want := "bad.json:2:14: invalid character ',' at start of value (within \"/a/2\")\n" +
		"      \"a\": [1, 2,, 3]\n" +
		"                 ^\n"
	if r.code != 1 || r.stderr != want {
		t.Fatalf("got %q\nwant %q", r.stderr, want)
	}
	// Standard input is named <stdin>.
	r = runToon(t, dir, []byte(`[1,}`))
	if r.code != 1 || !strings.HasPrefix(r.stderr, "<stdin>:1:3: ") {
		t.Fatalf("%+v", r)
	}
	write(t, dir, "dup.json", `{"a":1,"a":2}`)
	if r := runToon(t, dir, nil, "dup.json"); r.code != 1 || !strings.Contains(r.stderr, `duplicate object member name "a"`) {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "missing.json"); r.code != 1 || !strings.Contains(r.stderr, "no such file") {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "--bogus"); r.code != 2 || !strings.Contains(r.stderr, "bogus") {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "-e", "-d", "x.json"); r.code != 2 {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "a.json", "b.json"); r.code != 2 {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "--indent", "x"); r.code != 2 {
		t.Fatalf("%+v", r)
	}
}

func TestHelpAndVersion(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"-h", "--help"} {
		r := runToon(t, dir, nil, f)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage: toon [flags] [input]") || !strings.Contains(r.stdout, "Examples:") {
			t.Fatalf("%s: %+v", f, r)
		}
	}
	r := runToon(t, dir, nil, "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "toon ") || !strings.Contains(r.stdout, "4.0") {
		t.Fatalf("%+v", r)
	}
}

// statsLine parses a row of the --stats table.
func statsLine(t *testing.T, stderr, label string) (bytes, tokens int) {
	t.Helper()
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, label) {
			f := strings.Fields(strings.TrimPrefix(l, label))
			if len(f) == 2 {
				b, _ := strconv.Atoi(f[0])
				n, _ := strconv.Atoi(f[1])
				return b, n
			}
		}
	}
	t.Fatalf("no %q row in %q", label, stderr)
	return 0, 0
}

func TestStats(t *testing.T) {
	dir := t.TempDir()
	pretty := "{\n  \"users\": [\n    {\"id\": 1, \"name\": \"Ada\", \"tags\": \"a|b\"},\n    {\"id\": 2, \"name\": \"Bob\", \"tags\": \"c\"}\n  ],\n  \"n\": 1.50\n}\n"
	write(t, dir, "u.json", pretty)
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		codec, err := tokenizer.Get(tokenizer.Encoding(enc))
		if err != nil {
			t.Fatal(err)
		}
		compact := `{"users":[{"id":1,"name":"Ada","tags":"a|b"},{"id":2,"name":"Bob","tags":"c"}],"n":1.50}`
		wantJSON, _ := codec.Count(compact)
		wantTOON, _ := codec.Count(usersTOON)
		for _, args := range [][]string{
			{"--stats", "--tokenizer", enc, "u.json"},                 // encode
			{"--stats", "--tokenizer", enc, "-o", "u.toon", "u.json"}, // encode to a file
		} {
			r := runToon(t, dir, nil, args...)
			if r.code != 0 {
				t.Fatalf("%v: %+v", args, r)
			}
			jb, jt := statsLine(t, r.stderr, "JSON (compact)")
			tb, tt := statsLine(t, r.stderr, "TOON")
			if jb != len(compact) || jt != wantJSON || tb != len(usersTOON) || tt != wantTOON {
				t.Fatalf("%v: got JSON %d/%d TOON %d/%d, want %d/%d %d/%d\n%s", args, jb, jt, tb, tt, len(compact), wantJSON, len(usersTOON), wantTOON, r.stderr)
			}
			if !strings.Contains(r.stderr, "saved") || !strings.Contains(r.stderr, "tokenizer: "+enc) {
				t.Fatalf("%s", r.stderr)
			}
		}
		// Decoding counts the same texts: compact output, and indented
		// output compacted for the count.
		decoded := `{"users":[{"id":1,"name":"Ada","tags":"a|b"},{"id":2,"name":"Bob","tags":"c"}],"n":1.5}`
		wantDec, _ := codec.Count(decoded)
		for _, args := range [][]string{
			{"--stats", "--tokenizer", enc, "u.toon"},
			{"--stats", "--tokenizer", enc, "--json-indent", "2", "u.toon"},
		} {
			r := runToon(t, dir, nil, args...)
			jb, jt := statsLine(t, r.stderr, "JSON (compact)")
			tb, tt := statsLine(t, r.stderr, "TOON")
			if r.code != 0 || jb != len(decoded) || jt != wantDec || tb != len(usersTOON) || tt != wantTOON {
				t.Fatalf("%v: %+v", args, r)
			}
		}
	}
	if r := runToon(t, dir, nil, "--stats", "--tokenizer", "gpt2", "u.json"); r.code != 2 {
		t.Fatalf("%+v", r)
	}
	// No stats table when the conversion fails.
	write(t, dir, "bad.json", `{"a":}`)
	if r := runToon(t, dir, nil, "--stats", "bad.json"); r.code != 1 || strings.Contains(r.stderr, "tokens") {
		t.Fatalf("%+v", r)
	}
}

// TestExample checks the bundled example that the README runs with
// `go run ./cmd/toon --stats examples/users.json`.
func TestExample(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := os.ReadFile(filepath.Join(root, "examples", "users.toon"))
	if err != nil {
		t.Fatal(err)
	}
	r := runToon(t, root, nil, "--stats", filepath.Join("examples", "users.json"))
	if r.code != 0 || r.stdout != string(want) {
		t.Fatalf("got:\n%s\nwant:\n%s\n%s", r.stdout, want, r.stderr)
	}
	if !strings.Contains(r.stderr, "JSON (compact)") || !strings.Contains(r.stderr, "saved") {
		t.Fatalf("stats: %s", r.stderr)
	}
	// And back: the TOON decodes to the example's value.
	r = runToon(t, root, nil, filepath.Join("examples", "users.toon"))
	if r.code != 0 || !strings.HasPrefix(r.stdout, `{"service":"checkout","version":3,"tags":["payments","eu-west","canary"],"users":[{"id":1,"name":"Ada Lovelace"`) {
		t.Fatalf("%+v", r)
	}
}

func TestRenderBar(t *testing.T) {
	got := renderBar(50, 100, time.Second, 10)
	if got != "[=====>    ]  50%  50 B/100 B  50 B/s" {
		t.Fatalf("%q", got)
	}
	if got := renderBar(300e6, 300e6, 2*time.Second, 4); got != "[====] 100%  300.0 MB/300.0 MB  150.0 MB/s" {
		t.Fatalf("%q", got)
	}
	// No bar when standard error is not a terminal, however large the input.
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := startProgress(f, 1<<40, true)
	p.stop()
	if p.total != 0 {
		t.Fatal("progress started on a regular file")
	}
}
