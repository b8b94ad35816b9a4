package main

import (
	"bytes"
	"encoding/json"
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

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const usersJSON = `{"users":[{"id":1,"name":"Ada","tags":"a|b"},{"id":2,"name":"Bob","tags":"c"}],"n":1.50}`

const usersTOON = "users[2]{id,name,tags}:\n  1,Ada,a|b\n  2,Bob,c\nn: 1.5"

// usersOut is usersTOON as the command writes it: ending with a newline.
const usersOut = usersTOON + "\n"

func TestEncodeDecodeFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	r := runToon(t, dir, nil, "u.json")
	if r.code != 0 || r.stdout != usersOut || r.stderr != "" {
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
	if r := runToon(t, dir, nil, "data.in", "--encode"); r.code != 0 || r.stdout != usersOut {
		t.Fatalf("data.in --encode: %+v", r)
	}
}

func TestStdin(t *testing.T) {
	dir := t.TempDir()
	// Standard input encodes by default, through a pipe (spooled).
	if r := runToon(t, dir, []byte(usersJSON)); r.code != 0 || r.stdout != usersOut {
		t.Fatalf("stdin encode: %+v", r)
	}
	if r := runToon(t, dir, []byte(usersJSON), "-"); r.code != 0 || r.stdout != usersOut {
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
	if err != nil || string(out) != usersOut {
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
	if err != nil || string(got) != usersOut {
		t.Fatalf("out.toon: %q %v", got, err)
	}
	r = runToon(t, dir, nil, "--output", "back.json", "out.toon")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "back.json")); !strings.HasPrefix(string(got), `{"users":`) || !strings.HasSuffix(string(got), "}\n") {
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
	if got, _ := os.ReadFile(filepath.Join(dir, "out.toon")); string(got) != usersOut {
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
		",":   "a:\n  rows[2]{x,y}:\n    1,p|q\n    2,\"r,s\"\nt[2]: 1,2\n",
		"|":   "a:\n  rows[2|]{x|y}:\n    1|\"p|q\"\n    2|r,s\nt[2|]: 1|2\n",
		`\t`:  "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2\n",
		"\t":  "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2\n",
		"tab": "a:\n  rows[2\t]{x\ty}:\n    1\tp|q\n    2\tr,s\nt[2\t]: 1\t2\n",
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
	want4 := "a:\n    rows[2]{x,y}:\n        1,p|q\n        2,\"r,s\"\nt[2]: 1,2\n"
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
	if r := runToon(t, dir, nil, "--bogus"); r.code != 2 || r.stderr != "toon: unknown flag --bogus\nRun 'toon -h' for usage.\n" {
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

// TestFlags checks the flag syntax: one dash for a letter, two for a name,
// values after a space or "=", and errors that spell flags that way.
func TestFlags(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "u.json", usersJSON)
	write(t, dir, "loose.toon", "items[3]: 1,2\n")
	usage := func(msg string) string { return "toon: " + msg + "\nRun 'toon -h' for usage.\n" }
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--bogus=1", "u.json"}, usage("unknown flag --bogus")},
		{[]string{"-x"}, usage("unknown flag -x")},
		{[]string{"-bogus"}, usage("unknown flag -bogus")},
		{[]string{"-stats", "u.json"}, usage("unknown flag -stats (long flags take two dashes: --stats)")},
		{[]string{"-ed", "u.json"}, usage("unknown flag -ed")},
		{[]string{"--indent", "x"}, usage(`invalid value "x" for --indent: must be a whole number from 1 to 64`)},
		{[]string{"--indent=0", "u.json"}, usage(`invalid value "0" for --indent: must be a whole number from 1 to 64`)},
		{[]string{"--json-indent", "65"}, usage(`invalid value "65" for --json-indent: must be a whole number from 0 to 64`)},
		{[]string{"u.json", "--output"}, usage("flag --output needs a value")},
		{[]string{"u.json", "-o"}, usage("flag --output needs a value")},
		{[]string{"--stats=maybe"}, usage(`invalid value "maybe" for --stats: must be true or false`)},
		{[]string{"--tokenizer", "gpt2"}, usage(`invalid value "gpt2" for --tokenizer: must be o200k_base or cl100k_base`)},
	} {
		if r := runToon(t, dir, nil, c.args...); r.code != 2 || r.stderr != c.stderr || r.stdout != "" {
			t.Errorf("%q: %+v\nwant stderr %q", c.args, r, c.stderr)
		}
	}
	// Values after "=", attached to a letter, or as the next argument.
	for _, args := range [][]string{
		{"u.json", "-o", "a.toon"}, {"u.json", "-o=a.toon"}, {"u.json", "-oa.toon"},
		{"u.json", "--output=a.toon"}, {"--indent=2", "--output", "a.toon", "--", "u.json"},
	} {
		os.Remove(filepath.Join(dir, "a.toon"))
		if r := runToon(t, dir, nil, args...); r.code != 0 || readFile(t, filepath.Join(dir, "a.toon")) != usersOut {
			t.Errorf("%q: %+v", args, r)
		}
	}
	// --strict is the default and may be given; the last of --strict and
	// --no-strict counts.
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"loose.toon"}, 1},
		{[]string{"--strict", "loose.toon"}, 1},
		{[]string{"--no-strict", "loose.toon"}, 0},
		{[]string{"--strict", "--no-strict", "loose.toon"}, 0},
		{[]string{"--no-strict", "--strict", "loose.toon"}, 1},
		{[]string{"--strict=false", "loose.toon"}, 0},
	} {
		if r := runToon(t, dir, nil, c.args...); r.code != c.code {
			t.Errorf("%q: %+v, want status %d", c.args, r, c.code)
		}
	}
	// The help names every flag, the way the parser spells it.
	for _, f := range flags {
		names := f.name()
		if f.short != 0 && f.long != "" {
			names = "-" + string(f.short) + ", --" + f.long
		}
		if !strings.Contains(usageText, "  "+names+" ") {
			t.Errorf("the help lacks %q", names)
		}
	}
}

// TestShortTable: decoding a table that declares more rows than it has
// writes the rows up to the error, and never the closing brackets that
// would make the truncated output parse; with -o, no file is written.
func TestShortTable(t *testing.T) {
	dir := t.TempDir()
	in := "users[1000]{id,name}:\n  1,Ada\n  2,Bob\n"
	write(t, dir, "short.toon", in)
	for _, args := range [][]string{{"short.toon"}, {"--json-indent", "2", "short.toon"}} {
		r := runToon(t, dir, nil, args...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "short.toon:3:1: array length mismatch: declared 1000 rows, found 2 (header at line 1)") {
			t.Fatalf("%q: %+v", args, r)
		}
		if json.Valid([]byte(r.stdout)) || !strings.Contains(r.stdout, "Bob") {
			t.Fatalf("%q: the output is %q", args, r.stdout)
		}
	}
	r := runToon(t, dir, []byte(in), "-d")
	if r.code != 1 || r.stdout != `{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}` {
		t.Fatalf("standard input: %+v", r)
	}
	if r := runToon(t, dir, nil, "short.toon", "-o", "out.json"); r.code != 1 {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); !os.IsNotExist(err) {
		t.Fatalf("out.json written after an error: %v", err)
	}
}

// TestManyJSONValues: JSON input with a second top-level value (JSON
// Lines) is an error at the line and column where that value starts.
func TestManyJSONValues(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "rows.json", "{\"id\":1}\n{\"id\":2}\n")
	r := runToon(t, dir, nil, "rows.json")
	want := "rows.json:2:1: more than one JSON value in the input (a second one starts here)\n" +
		"    {\"id\":2}\n" +
		"    ^\n"
	if r.code != 1 || r.stderr != want || r.stdout != "" {
		t.Fatalf("%+v\nwant stderr %q", r, want)
	}
}

// TestFinalNewline: the output ends with a newline, as a text file does,
// for an empty document too; the TOON the statistics count has none.
func TestFinalNewline(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "empty.json", "{}")
	if r := runToon(t, dir, nil, "empty.json"); r.code != 0 || r.stdout != "\n" {
		t.Fatalf("%+v", r)
	}
	write(t, dir, "u.json", usersJSON)
	if r := runToon(t, dir, nil, "u.json", "-o", "u.toon"); r.code != 0 || readFile(t, filepath.Join(dir, "u.toon")) != usersOut {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "u.toon", "-o", "u2.json"); r.code != 0 || !strings.HasSuffix(readFile(t, filepath.Join(dir, "u2.json")), "}\n") {
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
	// More read than the size (a pass that reads a little twice) stays at 100%.
	if got := renderBar(120, 100, time.Second, 4); got != "[====] 100%  100 B/100 B  120 B/s" {
		t.Fatalf("%q", got)
	}
	// An input of unknown size (a pipe): the bytes read and the rate.
	if got := renderBar(2500, -1, time.Second, 10); got != "2.5 kB read  2.5 kB/s" {
		t.Fatalf("%q", got)
	}
}
