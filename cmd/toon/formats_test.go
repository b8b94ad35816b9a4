package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const eventsJSONL = `{"id":1,"kind":"click","at":"2024-03-01T12:00:00Z"}
{"id":2,"kind":"view","at":"2024-03-01T12:00:05Z"}

{"id":3,"kind":"click, twice","at":"2024-03-01T12:00:09Z"}
`

const eventsTOON = "[3]{id,kind,at}:\n  1,click,\"2024-03-01T12:00:00Z\"\n  2,view,\"2024-03-01T12:00:05Z\"\n  3,\"click, twice\",\"2024-03-01T12:00:09Z\"\n" // with the command's final newline

const usersCSV = "id,name,score,active\r\n1,Ada,9.50,true\r\n2,\"Bob, Jr.\",,false\r\n3,05,-0,null\r\n"

const usersCSVTOON = "[3]{id,name,score,active}:\n  1,Ada,9.5,true\n  2,\"Bob, Jr.\",\"\",false\n  3,\"05\",0,null\n" // with the command's final newline

// TestFormatsByExtension converts JSON Lines and CSV to TOON and back,
// the formats following the names of the input and of -o.
func TestFormatsByExtension(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", eventsJSONL)
	write(t, dir, "events.ndjson", eventsJSONL)
	write(t, dir, "users.csv", usersCSV)
	for _, c := range []struct{ args []string }{
		{[]string{"events.jsonl"}},
		{[]string{"events.ndjson"}},
	} {
		if r := runToon(t, dir, nil, c.args...); r.code != 0 || r.stdout != eventsTOON {
			t.Fatalf("%v: %+v", c.args, r)
		}
	}
	if r := runToon(t, dir, nil, "users.csv", "-o", "users.toon"); r.code != 0 || readFile(t, filepath.Join(dir, "users.toon")) != usersCSVTOON {
		t.Fatalf("csv: %+v\n%s", r, readFile(t, filepath.Join(dir, "users.toon")))
	}
	if r := runToon(t, dir, nil, "users.toon", "-o", "back.csv"); r.code != 0 {
		t.Fatalf("to csv: %+v", r)
	}
	if got, want := readFile(t, filepath.Join(dir, "back.csv")), "id,name,score,active\n1,Ada,9.5,true\n2,\"Bob, Jr.\",,false\n3,05,0,\n"; got != want {
		t.Fatalf("back.csv:\n%q\nwant\n%q", got, want)
	}
	if r := runToon(t, dir, nil, "events.jsonl", "-o", "events.toon"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if r := runToon(t, dir, nil, "events.toon", "-o", "back.jsonl"); r.code != 0 {
		t.Fatalf("to jsonl: %+v", r)
	}
	want := strings.ReplaceAll(eventsJSONL, "\n\n", "\n")
	if got := readFile(t, filepath.Join(dir, "back.jsonl")); got != want {
		t.Fatalf("back.jsonl:\n%s\nwant\n%s", got, want)
	}
}

// TestFormatsByFlag converts through standard input and output, the
// formats given by --from and --to, with the delimiter flags.
func TestFormatsByFlag(t *testing.T) {
	dir := t.TempDir()
	if r := runToon(t, dir, []byte(eventsJSONL), "--from", "ndjson"); r.code != 0 || r.stdout != eventsTOON {
		t.Fatalf("%+v", r)
	}
	semi := strings.ReplaceAll(strings.ReplaceAll(usersCSV, ",", ";"), "\"Bob; Jr.\"", "\"Bob, Jr.\"")
	r := runToon(t, dir, []byte(semi), "--from", "csv", "--csv-delimiter", ";", "--delimiter", "|")
	if want := "[3|]{id|name|score|active}:\n  1|Ada|9.5|true\n  2|Bob, Jr.|\"\"|false\n  3|\"05\"|0|null\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("csv ; |: %+v", r)
	}
	r = runToon(t, dir, []byte(usersCSV), "--from", "csv", "--csv-strings")
	if want := "[3]{id,name,score,active}:\n  \"1\",Ada,\"9.50\",\"true\"\n  \"2\",\"Bob, Jr.\",\"\",\"false\"\n  \"3\",\"05\",\"-0\",\"null\"\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("csv strings: %+v", r)
	}
	r = runToon(t, dir, []byte(usersCSVTOON), "--to", "csv", "--csv-delimiter", `\t`)
	if want := "id\tname\tscore\tactive\n1\tAda\t9.5\ttrue\n2\tBob, Jr.\t\tfalse\n3\t05\t0\t\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("to tsv: %+v", r)
	}
	r = runToon(t, dir, []byte("rows"+eventsTOON[0:]), "-d", "--to", "jsonl")
	if r.code != 0 || r.stdout != strings.ReplaceAll(eventsJSONL, "\n\n", "\n") {
		t.Fatalf("to jsonl: %+v", r)
	}
}

// TestFormatErrors checks bad JSON Lines and CSV: an error with the line
// (and column), exit status 1, and no output file.
func TestFormatErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "bad.jsonl", "{\"a\":1}\n[1,2]\n")
	write(t, dir, "cut.jsonl", "{\"a\":1}\n{\"a\":\n2}\n")
	write(t, dir, "ragged.csv", "a,b,c\n1,2,3\n4,5\n")
	write(t, dir, "quote.csv", "a,b\n1,\"x\"y\n")
	write(t, dir, "nested.toon", "[1]{id,pos{x,y}}:\n  1,2,3")
	write(t, dir, "keep.toon", "precious")
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"bad.jsonl", "-o", "out.toon"}, "bad.jsonl:2:1: a JSON Lines record must be a JSON object, not an array\n    [1,2]\n    ^\n"},
		{[]string{"cut.jsonl", "-o", "out.toon"}, "cut.jsonl:2:6: unexpected EOF (within \"/a\")\n    {\"a\":\n         ^\n"},
		{[]string{"ragged.csv", "-o", "out.toon"}, "toon: ragged.csv:3:1: wrong number of fields (2 fields, the header has 3)\n"},
		{[]string{"quote.csv", "-o", "out.toon"}, "toon: quote.csv:2:5: extraneous or missing \" in quoted-field\n"},
		{[]string{"nested.toon", "-o", "out.csv"}, "toon: convert: line 1: field \"pos\" of the table holds objects (a nested field group); CSV holds flat tables only\n"},
		{[]string{"ragged.csv", "-o", "keep.toon"}, "toon: ragged.csv:3:1: wrong number of fields (2 fields, the header has 3)\n"},
	}
	for _, c := range cases {
		r := runToon(t, dir, nil, c.args...)
		if r.code != 1 || r.stderr != c.stderr {
			t.Errorf("%v: %+v\nwant stderr %q", c.args, r, c.stderr)
		}
	}
	for _, name := range []string{"out.toon", "out.csv"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s exists after a failure: %v", name, err)
		}
	}
	if got := readFile(t, filepath.Join(dir, "keep.toon")); got != "precious" {
		t.Errorf("keep.toon changed after a failure: %q", got)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestFormatUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--from", "xml"}, `unknown format "xml"`},
		{[]string{"--from", "json", "--to", "csv"}, "one side of a conversion must be toon"},
		{[]string{"--from", "toon", "--to", "toon"}, "one side of a conversion must be json, jsonl or csv"},
		{[]string{"--to", "jsonl", "x.json"}, "one side of a conversion must be toon"},
		{[]string{"-d", "--from", "csv"}, "-d/--decode reads TOON, not csv"},
		{[]string{"--stats", "x.csv"}, "--stats compares JSON and TOON"},
		{[]string{"--no-strict", "--to", "csv"}, "--no-strict is for JSON output"},
		{[]string{"--json-indent", "2", "x.toon", "-o", "y.jsonl"}, "--json-indent is for JSON output, not jsonl"},
		{[]string{"--csv-delimiter", ";;", "x.csv"}, "--csv-delimiter must be one ASCII character"},
		{[]string{"--csv-delimiter", `"`, "x.csv"}, "--csv-delimiter must be one ASCII character"},
	} {
		r := runToon(t, dir, nil, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: %+v, want %q", c.args, r, c.msg)
		}
	}
	if r := runToon(t, dir, nil, "-h"); r.code != 0 || !strings.Contains(r.stdout, "--csv-delimiter D") {
		t.Errorf("help: %+v", r)
	}
}
