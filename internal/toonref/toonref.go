// Package toonref runs the reference implementation of TOON
// (@toon-format/toon on the npm registry, pinned to Version) under node, for
// this module's differential tests. The package is never vendored: it is
// looked up in $TOON_REF_DIR (default $HOME/.cache/toon-ref), where
//
//	npm install --prefix "$TOON_REF_DIR" @toon-format/toon@4.4.0
//
// puts it. When node or the package is missing, the calling test fails if
// the CI variable is set, and is skipped with a notice otherwise.
//
// Decode runs node once for a whole batch of documents: a small script
// reads one JSON request a line on its standard input and writes one
// result a line, so thousands of documents cost one process.
package toonref

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Version is the version of @toon-format/toon the tests compare with.
const Version = "4.4.0"

// Doc is one decoding request.
type Doc struct {
	Text   string `json:"text"`
	Strict bool   `json:"strict"`
	Indent int    `json:"indent"` // 0 means 2
}

// Result is the reference's verdict on one Doc: an error message, or the
// decoded events and value.
type Result struct {
	Err    string  // the reference's error message; empty when it decoded
	Events []Event // the decoder's event stream, in order (duplicate keys included)
	// Value is the decoded value as JSON with the keys of every object in
	// the order the reference's objects have them, except that integer-like
	// keys are not moved first as a JavaScript object would move them. A
	// key that repeats (non-strict mode) keeps its first position and
	// takes its last value, as assignment to a JavaScript object does.
	Value json.RawMessage
}

// EventKind is the type of an Event, named as the reference names them.
type EventKind byte

const (
	StartObject EventKind = '{'
	EndObject   EventKind = '}'
	StartArray  EventKind = '['
	EndArray    EventKind = ']'
	Key         EventKind = 'k'
	String      EventKind = 's'
	Number      EventKind = 'n'
	Bool        EventKind = 'b'
	Null        EventKind = 'z'
)

// Event is one event of the reference's decodeStreamSync.
type Event struct {
	Kind EventKind
	Text string  // Key and String: the text; Number: the shortest JSON form of Num
	Num  float64 // Number: the value, a float64 as JavaScript numbers are
	Bool bool    // Bool: the value
}

func (e Event) String() string {
	switch e.Kind {
	case Key:
		return "key " + strconv.Quote(e.Text)
	case String:
		return "string " + strconv.Quote(e.Text)
	case Number:
		return "number " + e.Text
	case Bool:
		return "bool " + strconv.FormatBool(e.Bool)
	case Null:
		return "null"
	}
	return string(e.Kind)
}

// Equal reports whether e and f are the same event under JSON-model
// equality (§2): numbers compare by value, as the float64 values the
// reference holds (so -0 equals 0); the rest by kind and content.
func (e Event) Equal(f Event) bool {
	if e.Kind != f.Kind {
		return false
	}
	switch e.Kind {
	case Key, String:
		return e.Text == f.Text
	case Number:
		return e.Num == f.Num
	case Bool:
		return e.Bool == f.Bool
	}
	return true
}

// EventsEqual reports whether two event streams are equal, event by event.
func EventsEqual(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// NumberEvent returns the event of a number token of text s: its value is
// s rounded to a float64 (±Inf beyond the range), as a JavaScript number
// holds it.
func NumberEvent(s string) Event {
	f, _ := strconv.ParseFloat(s, 64)
	return Event{Kind: Number, Text: s, Num: f}
}

// Dir returns the directory the reference package is installed under
// ($TOON_REF_DIR, default $HOME/.cache/toon-ref).
func Dir() string {
	if d := os.Getenv("TOON_REF_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".cache", "toon-ref")
	}
	return filepath.Join(home, ".cache", "toon-ref")
}

// unavailable skips t, or fails it under CI, saying why.
func unavailable(t testing.TB, why string) {
	t.Helper()
	msg := "reference implementation unavailable: " + why + "; install it with\n\tnpm install --prefix \"$TOON_REF_DIR\" @toon-format/toon@" + Version
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip("NOTICE: skipping the differential test: " + msg)
}

// Require returns the path of node and the directory of the reference
// package, after checking that the package is the pinned version. It skips
// or fails t (see the package comment) when either is missing, so a test
// may call it before it prepares its documents.
func Require(t testing.TB) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node is not on PATH")
	}
	dir = Dir()
	pkg := filepath.Join(dir, "node_modules", "@toon-format", "toon", "package.json")
	raw, err := os.ReadFile(pkg)
	if err != nil {
		unavailable(t, "no @toon-format/toon under "+dir+" (TOON_REF_DIR)")
	}
	var meta struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil || meta.Version != Version {
		// A wrong version is not a missing one: the comparison would be
		// against other behaviour, so it always fails.
		t.Fatalf("%s: version %q, want %s", pkg, meta.Version, Version)
	}
	return node, dir
}

// Decode decodes every doc with the reference implementation, in one node
// process, and returns the results in the same order. It skips or fails
// t (see Require) when node or the package is missing.
func Decode(t testing.TB, docs []Doc) []Result {
	t.Helper()
	node, dir := Require(t)
	script := filepath.Join(t.TempDir(), "toonref.mjs")
	if err := os.WriteFile(script, []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, d := range docs {
		if d.Indent == 0 {
			d.Indent = 2
		}
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, script, dir)
	cmd.Stdin = &in
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	results := make([]Result, 0, len(docs))
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		r, err := parseResult(sc.Bytes())
		if err != nil {
			t.Fatalf("reading the reference's result %d: %v", len(results), err)
		}
		results = append(results, r)
	}
	if len(results) != len(docs) {
		t.Fatalf("the reference returned %d results for %d documents\n%s", len(results), len(docs), stderr.String())
	}
	return results
}

// parseResult reads one line of the driver's output.
func parseResult(line []byte) (Result, error) {
	var wire struct {
		Error  *string             `json:"error"`
		Events [][]json.RawMessage `json:"events"`
		Value  json.RawMessage     `json:"value"`
	}
	if err := json.Unmarshal(line, &wire); err != nil {
		return Result{}, err
	}
	if wire.Error != nil {
		msg := *wire.Error
		if msg == "" {
			msg = "(error without a message)"
		}
		return Result{Err: msg}, nil
	}
	r := Result{Value: wire.Value, Events: make([]Event, 0, len(wire.Events))}
	for _, w := range wire.Events {
		if len(w) == 0 {
			return Result{}, fmt.Errorf("empty event")
		}
		var tag string
		if err := json.Unmarshal(w[0], &tag); err != nil || len(tag) != 1 {
			return Result{}, fmt.Errorf("bad event tag %s", w[0])
		}
		e := Event{Kind: EventKind(tag[0])}
		switch e.Kind {
		case Key, String:
			if len(w) != 2 || json.Unmarshal(w[1], &e.Text) != nil {
				return Result{}, fmt.Errorf("bad event %s", w)
			}
		case Number:
			if len(w) != 2 {
				return Result{}, fmt.Errorf("bad event %s", w)
			}
			e.Text = string(w[1])
			f, err := strconv.ParseFloat(e.Text, 64)
			if err != nil {
				return Result{}, fmt.Errorf("bad number %s: %v", w[1], err)
			}
			e.Num = f
		case Bool:
			if len(w) != 2 || json.Unmarshal(w[1], &e.Bool) != nil {
				return Result{}, fmt.Errorf("bad event %s", w)
			}
		case Null, StartObject, EndObject, StartArray, EndArray:
		default:
			return Result{}, fmt.Errorf("unknown event %s", w)
		}
		r.Events = append(r.Events, e)
	}
	return r, nil
}

// Describe formats a result for a test failure.
func (r Result) Describe() string {
	if r.Err != "" {
		return "error: " + r.Err
	}
	return string(r.Value)
}

// driver is the node side. It resolves the package from the directory
// given as its argument, then decodes each request line of its standard
// input with decodeStreamSync (the events decode() builds its value from),
// and writes one line per request: {"error": message} or {"events": [...],
// "value": ...}. The value is built from the events with Maps, so that key
// order is the events' order; a repeated key keeps its first position and
// takes its last value, as decode()'s plain objects do.
const driver = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const dir = process.argv[2];
const require = createRequire(join(dir, 'package.json'));
const toon = await import(pathToFileURL(require.resolve('@toon-format/toon')).href);

function event(e) {
  switch (e.type) {
    case 'startObject': return ['{'];
    case 'endObject': return ['}'];
    case 'startArray': return ['['];
    case 'endArray': return [']'];
    case 'key': return ['k', e.key];
    case 'primitive': {
      const v = e.value;
      if (v === null) return ['z'];
      if (typeof v === 'boolean') return ['b', v];
      if (typeof v === 'number') return ['n', v];
      if (typeof v === 'string') return ['s', v];
      throw new Error('unexpected primitive ' + typeof v);
    }
  }
  throw new Error('unexpected event ' + e.type);
}

function build(events) {
  const stack = [];
  let root, key;
  const put = (v) => {
    if (stack.length === 0) { root = v; return; }
    const top = stack[stack.length - 1];
    if (top.map) { top.map.set(top.key, v); } else { top.arr.push(v); }
  };
  for (const e of events) {
    switch (e.type) {
      case 'startObject': { const m = new Map(); put(m); stack.push({ map: m }); break; }
      case 'startArray': { const a = []; put(a); stack.push({ arr: a }); break; }
      case 'endObject': case 'endArray': stack.pop(); break;
      case 'key': stack[stack.length - 1].key = e.key; break;
      case 'primitive': put(e.value); break;
    }
  }
  return root;
}

function json(v) {
  if (v instanceof Map) {
    const parts = [];
    for (const [k, x] of v) parts.push(JSON.stringify(k) + ':' + json(x));
    return '{' + parts.join(',') + '}';
  }
  if (Array.isArray(v)) return '[' + v.map(json).join(',') + ']';
  return JSON.stringify(v);
}

const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (line === '') continue;
  const req = JSON.parse(line);
  const opts = { strict: req.strict, indentSize: req.indent };
  const events = [];
  try {
    for (const e of toon.decodeStreamSync(req.text.split('\n'), opts)) events.push(e);
  } catch (err) {
    out.push(JSON.stringify({ error: String(err && err.message !== undefined ? err.message : err) }));
    continue;
  }
  out.push('{"events":' + JSON.stringify(events.map(event)) + ',"value":' + json(build(events)) + '}');
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
`

// Lines reports the lines of text, for failure messages: each prefixed
// with its number.
func Lines(text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		fmt.Fprintf(&b, "%4d| %s\n", i+1, l)
	}
	return b.String()
}
