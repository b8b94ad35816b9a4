package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
	"github.com/toonstream/toon"
)

// splitInput returns a document with a table of n rows under data.users,
// with fields before and after it; the cells have quotes, delimiters,
// multi-byte text and some long notes.
func splitInput(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "meta:\n  source: test\ndata:\n  page: 1\n  users[%d|]{id|name|city|note}:", n)
	cities := []string{"Berlin", "São Paulo", "東京", "Zürich, CH", `"quoted"`}
	for i := 1; i <= n; i++ {
		note := "ok"
		if i%97 == 0 {
			note = strings.Repeat("a longer note with words ", 12)
		}
		city := cities[i%len(cities)]
		if strings.ContainsAny(city, `"`) {
			city = `"\"quoted\""`
		}
		fmt.Fprintf(&b, "\n    %d|User %d|%s|%s", i, i, city, note)
	}
	b.WriteString("\n  more: true\nafter: x")
	return b.String()
}

// decodeValue decodes a TOON document strictly.
func decodeValue(t *testing.T, text []byte) any {
	t.Helper()
	var v any
	if err := toon.Unmarshal(text, &v); err != nil {
		t.Fatalf("%v:\n%s", err, text)
	}
	return v
}

// usersOf returns the rows of data.users of a decoded document.
func usersOf(t *testing.T, v any) []any {
	t.Helper()
	rows, ok := v.(map[string]any)["data"].(map[string]any)["users"].([]any)
	if !ok {
		t.Fatalf("no data.users in %v", v)
	}
	return rows
}

// chunkFilesIn returns the names of the files in dir, sorted.
func chunkFilesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// TestSplitCommand splits a table into files under several limits and
// checks each file's token count (tiktoken-go), bytes and rows, that each
// decodes strictly, that their rows in name order are the table's, and
// the summary.
func TestSplitCommand(t *testing.T) {
	dir := t.TempDir()
	in := splitInput(3000)
	write(t, dir, "in.toon", in)
	want := usersOf(t, decodeValue(t, []byte(in)))
	cases := []struct {
		args      []string
		maxTokens int
		tokenizer string
		maxBytes  int
		maxRows   int
	}{
		{args: []string{"--max-tokens", "500"}, maxTokens: 500, tokenizer: "o200k_base"},
		{args: []string{"--max-tokens", "2000", "--tokenizer", "cl100k_base", "--context"}, maxTokens: 2000, tokenizer: "cl100k_base"},
		{args: []string{"--max-bytes", "4096"}, maxBytes: 4096},
		{args: []string{"--max-rows", "250", "--max-tokens", "6000", "--max-bytes", "9000"}, maxRows: 250, maxTokens: 6000, tokenizer: "o200k_base", maxBytes: 9000},
	}
	for i, c := range cases {
		out := fmt.Sprintf("out%d", i)
		args := append([]string{"split", "--table", "data.users", "--out-dir", out, "in.toon"}, c.args...)
		res := runToon(t, dir, nil, args...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, res.code, res.stderr)
		}
		names := chunkFilesIn(t, filepath.Join(dir, out))
		var codec tokenizer.Codec
		if c.maxTokens > 0 {
			var err error
			if codec, err = tokenizer.Get(tokenizer.Encoding(c.tokenizer)); err != nil {
				t.Fatal(err)
			}
		}
		var got []any
		maxTok, maxBytes, maxRows := 0, 0, 0
		for j, name := range names {
			if want := fmt.Sprintf("chunk-%04d.toon", j+1); name != want {
				t.Fatalf("%v: file %q, want %q", c.args, name, want)
			}
			text, err := os.ReadFile(filepath.Join(dir, out, name))
			if err != nil {
				t.Fatal(err)
			}
			if codec != nil {
				n, err := codec.Count(string(text))
				if err != nil {
					t.Fatal(err)
				}
				if n > c.maxTokens {
					t.Fatalf("%v: %s has %d tokens", c.args, name, n)
				}
				maxTok = max(maxTok, n)
			}
			if c.maxBytes > 0 && len(text) > c.maxBytes {
				t.Fatalf("%v: %s has %d bytes", c.args, name, len(text))
			}
			v := decodeValue(t, text)
			rows := usersOf(t, v)
			if c.maxRows > 0 && len(rows) > c.maxRows {
				t.Fatalf("%v: %s has %d rows", c.args, name, len(rows))
			}
			if _, ok := v.(map[string]any)["meta"]; ok != slices.Contains(c.args, "--context") {
				t.Fatalf("%v: %s: meta carried: %v", c.args, name, ok)
			}
			maxBytes, maxRows = max(maxBytes, len(text)), max(maxRows, len(rows))
			got = append(got, rows...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: the chunks' %d rows differ from the table's %d", c.args, len(got), len(want))
		}
		summary := fmt.Sprintf("toon split: 3000 rows in %d chunks (%s ... %s); largest: ", len(names),
			filepath.Join(out, names[0]), filepath.Join(out, names[len(names)-1]))
		if codec != nil {
			summary += fmt.Sprintf("%d tokens (%s), ", maxTok, c.tokenizer)
		}
		summary += fmt.Sprintf("%d bytes, %d rows\n", maxBytes, maxRows)
		if res.stderr != summary {
			t.Fatalf("%v: summary\n%q\nwant\n%q", c.args, res.stderr, summary)
		}
	}
}

// TestSplitCommandInputs reads standard input, writes with --prefix into a
// directory it creates, and numbers the files with 5 digits when there are
// 10,000 chunks.
func TestSplitCommandInputs(t *testing.T) {
	dir := t.TempDir()
	in := "[3]: a,b,c"
	res := runToon(t, dir, []byte(in), "split", "--max-rows", "2", "--prefix", "sub/part-")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if names := chunkFilesIn(t, filepath.Join(dir, "sub")); !reflect.DeepEqual(names, []string{"part-0001.toon", "part-0002.toon"}) {
		t.Fatalf("files %q", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "part-0002.toon")); string(b) != "[1]: c" {
		t.Fatalf("part-0002.toon: %q", b)
	}
	var b strings.Builder
	b.WriteString("[10000]{n}:")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&b, "\n  %d", i)
	}
	write(t, dir, "many.toon", b.String())
	res = runToon(t, dir, nil, "split", "--max-rows", "1", "--out-dir", "many", "many.toon")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	names := chunkFilesIn(t, filepath.Join(dir, "many"))
	if len(names) != 10000 || names[0] != "chunk-00001.toon" || names[9999] != "chunk-10000.toon" {
		t.Fatalf("%d files, %q ... %q", len(names), names[0], names[len(names)-1])
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "many", names[9999])); string(b) != "[1]{n}:\n  9999" {
		t.Fatalf("last chunk %q", b)
	}
}

// TestSplitCommandBadInput checks that bad input, found before or after
// chunks were emitted, or a row over the limit, is reported with its line
// and leaves no file: no chunk, no temporary file, and no directory made
// for them.
func TestSplitCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	rows := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "\n  %d,user %d", i, i)
		}
		return b.String()
	}
	long := "\n  41," + strings.Repeat("word ", 400) + "end"
	cases := []struct {
		name, in string
		args     []string
		msg      string // a regexp
	}{
		{"count", "[60]{id,name}:" + rows(1, 50), nil, `^in\.toon:51:1: array length mismatch: declared 60 rows, found 50 \(header at line 1\)\n`},
		{"width", "[50]{id,name}:" + rows(1, 40) + "\n  41,a,b" + rows(42, 50), nil, `^in\.toon:42:\d+: row width mismatch`},
		{"escape", "[50]{id,name}:" + rows(1, 45) + "\n  46,\"\\x\"" + rows(47, 50), nil, `^in\.toon:47:\d+: invalid escape`},
		{"trailing", "[50]{id,name}:" + rows(1, 50) + "\nx: 1", nil, `^in\.toon:52:1: `},
		{"oversize", "[50]{id,name}:" + rows(1, 40) + long + rows(42, 50), nil, `^in\.toon:42: row 41 \(line 42\) does not fit a chunk: alone it makes a chunk of \d+ tokens, over the limit of 300 \(--allow-oversize`},
		{"no table", "a: 1", []string{"--table", "b"}, `^toon split: in\.toon: no table at "b"\n$`},
		{"not a table", "a: 1", []string{"--table", "a"}, `^toon split: in\.toon: "a" \(line 1\) holds a number, not a table\n$`},
		{"missing", "", []string{"nothere.toon"}, `^toon split: open nothere\.toon: `},
	}
	for _, c := range cases {
		write(t, dir, "in.toon", c.in)
		args := []string{"split", "--max-tokens", "300", "--max-rows", "10", "--out-dir", "out"}
		if len(c.args) > 0 && c.args[0] == "nothere.toon" {
			args = append(args, c.args...)
		} else {
			args = append(append(args, c.args...), "in.toon")
		}
		res := runToon(t, dir, nil, args...)
		if res.code != 1 || !regexp.MustCompile(c.msg).MatchString(res.stderr) {
			t.Fatalf("%s: exit %d, stderr %q, want %q", c.name, res.code, res.stderr, c.msg)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
			t.Fatalf("%s: the output directory is left: %v", c.name, err)
		}
	}
	// In an existing directory, nothing is left either, and the user's
	// files stay.
	write(t, dir, "in.toon", "[50]{id,name}:"+rows(1, 40)+"\n  41,a,b"+rows(42, 50))
	os.Mkdir(filepath.Join(dir, "keep"), 0o755)
	write(t, dir, "keep/notes.txt", "mine")
	res := runToon(t, dir, nil, "split", "--max-rows", "5", "--out-dir", "keep", "in.toon")
	if res.code != 1 {
		t.Fatalf("exit %d", res.code)
	}
	if names := chunkFilesIn(t, filepath.Join(dir, "keep")); !reflect.DeepEqual(names, []string{"notes.txt"}) {
		t.Fatalf("left in keep: %q", names)
	}
}

// TestSplitCommandExisting checks that chunk files of an earlier run are
// not replaced without --force, and that --force replaces them and removes
// those this run does not write.
func TestSplitCommandExisting(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in.toon", "[5]: 1,2,3,4,5")
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	write(t, dir, "out/chunk-0001.toon", "old 1")
	write(t, dir, "out/chunk-0009.toon", "old 9")
	write(t, dir, "out/chunk-notes.toon", "not a chunk name")
	res := runToon(t, dir, nil, "split", "--max-rows", "2", "--out-dir", "out", "in.toon")
	if res.code != 1 || !strings.Contains(res.stderr, "out/chunk-0001.toon exists (and 1 more chunk files): remove them, write elsewhere, or give --force") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out", "chunk-0001.toon")); string(b) != "old 1" {
		t.Fatalf("chunk-0001.toon replaced: %q", b)
	}
	res = runToon(t, dir, nil, "split", "--max-rows", "2", "--out-dir", "out", "--force", "in.toon")
	if res.code != 0 {
		t.Fatalf("--force: exit %d: %s", res.code, res.stderr)
	}
	names := chunkFilesIn(t, filepath.Join(dir, "out"))
	if !reflect.DeepEqual(names, []string{"chunk-0001.toon", "chunk-0002.toon", "chunk-0003.toon", "chunk-notes.toon"}) {
		t.Fatalf("--force: files %q", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out", "chunk-0001.toon")); string(b) != "[2]: 1,2" {
		t.Fatalf("chunk-0001.toon: %q", b)
	}
}

// TestSplitCommandUsage checks the command lines toon split refuses, with
// toon's flag syntax and messages, and its help.
func TestSplitCommandUsage(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "in.toon", "[2]: 1,2")
	usage := func(msg string) string { return "toon split: " + msg + "\nRun 'toon split -h' for usage.\n" }
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"--out-dir", "o", "in.toon"}, usage("give a limit: --max-tokens, --max-bytes or --max-rows")},
		{[]string{"--max-tokens", "10", "in.toon"}, usage("give --out-dir DIR or --prefix P for the chunk files")},
		{[]string{"--max-tokens", "10", "--tokenizer", "gpt2", "--out-dir", "o", "in.toon"}, usage(`invalid value "gpt2" for --tokenizer: must be o200k_base or cl100k_base`)},
		{[]string{"--max-rows", "-1", "--out-dir", "o", "in.toon"}, usage(`invalid value "-1" for --max-rows: must be a whole number, at least 1`)},
		{[]string{"--max-tokens=0", "--out-dir", "o", "in.toon"}, usage(`invalid value "0" for --max-tokens: must be a whole number, at least 1`)},
		{[]string{"--max-rows", "1", "--indent", "0", "--out-dir", "o", "in.toon"}, usage(`invalid value "0" for --indent: must be a whole number from 1 to 64`)},
		{[]string{"--max-rows", "1", "--out-dir", "o", "in.toon", "other.toon"}, usage("more than one input: in.toon other.toon")},
		{[]string{"--max-rows", "1", "--bogus"}, usage("unknown flag --bogus")},
		{[]string{"--max-rows", "1", "--bogus=1", "in.toon"}, usage("unknown flag --bogus")},
		{[]string{"-max-rows", "1", "--out-dir", "o", "in.toon"}, usage("unknown flag -max-rows (long flags take two dashes: --max-rows)")},
		{[]string{"--max-rows", "1", "in.toon", "--out-dir"}, usage("flag --out-dir needs a value")},
		{[]string{"--max-rows", "1", "--force=maybe", "--out-dir", "o", "in.toon"}, usage(`invalid value "maybe" for --force: must be true or false`)},
		{[]string{"--max-rows", "1", "--prefix=", "in.toon"}, usage(`invalid value "" for --prefix: must not be empty`)},
	} {
		res := runToon(t, dir, nil, append([]string{"split"}, c.args...)...)
		if res.code != 2 || res.stderr != c.stderr || res.stdout != "" {
			t.Errorf("%q: %+v\nwant stderr %q", c.args, res, c.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o")); !os.IsNotExist(err) {
		t.Fatalf("a refused command made its directory: %v", err)
	}
	// Values after "=" or as the next argument, flags after the input,
	// and "--" before an input that starts with a dash.
	write(t, dir, "-in.toon", "[3]: 1,2,3")
	for i, args := range [][]string{
		{"--max-rows=2", "--out-dir=o0", "in.toon"},
		{"in.toon", "--max-rows", "2", "--out-dir", "o1", "--context=true"},
		{"--max-rows", "2", "--prefix", "o2/c-", "--", "-in.toon"},
	} {
		res := runToon(t, dir, nil, append([]string{"split"}, args...)...)
		if res.code != 0 {
			t.Fatalf("%q: %+v", args, res)
		}
		out := fmt.Sprintf("o%d", i)
		if names := chunkFilesIn(t, filepath.Join(dir, out)); len(names) != 1+i/2 {
			t.Fatalf("%q: files %q", args, names)
		}
	}
	for _, f := range []string{"-h", "--help"} {
		res := runToon(t, dir, nil, "split", f)
		if res.code != 0 || res.stdout != splitUsageText || res.stderr != "" {
			t.Fatalf("%s: exit %d: %.100s", f, res.code, res.stdout)
		}
	}
	// The help names every flag, the way the parser spells it, and toon's
	// help names toon split.
	for _, f := range splitFlags {
		names := f.name()
		if f.short != 0 && f.long != "" {
			names = "-" + string(f.short) + ", --" + f.long
		}
		if !strings.Contains(splitUsageText, "  "+names+" ") {
			t.Errorf("toon split's help lacks %q", names)
		}
	}
	if !strings.Contains(usageText, `"toon split -h"`) {
		t.Error("toon's help does not point to toon split's")
	}
}
