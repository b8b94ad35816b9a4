package convert

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
	"github.com/toonstream/toon/internal/toonref"
)

// TestReferenceToJSON holds ToJSON to the reference implementation
// (@toon-format/toon 4.4.0, run under node by internal/toonref) on random
// documents with small random edits, in strict and non-strict mode, through
// each of its paths: compact (with the table loop) and indented; in
// non-strict mode through the spool that resolves repeated keys.
//
// The decoder's own agreement with the reference, and the documented
// classes where the two part, are tested in the root package
// (TestReferenceDifferential). Here, where the decoder's tokens agree with
// the reference's events, ToJSON must write the reference's value: the
// same members in the same order, a repeated key (non-strict mode) at its
// first position with its last value, as a JavaScript object keeps it, and
// numbers equal by value (the reference's are float64). Everywhere, ToJSON
// must fail exactly where the decoder does.
func TestReferenceToJSON(t *testing.T) {
	toonref.Require(t)
	n := longtest.Size(t, 250, 10000) // documents, each in both modes
	if s := os.Getenv("TOON_REF_DOCS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("TOON_REF_DOCS=%q: want a positive count", s)
		}
		n = v / 2
	}
	if testing.Short() {
		n = 200
	}
	g := toonref.NewGen(15)
	var docs []toonref.Doc
	for i := 0; i < n; i++ {
		text, indent := g.Document()
		text = g.Mutate(text)
		docs = append(docs, toonref.Doc{Text: text, Strict: true, Indent: indent},
			toonref.Doc{Text: text, Strict: false, Indent: indent})
	}
	refs := toonref.Decode(t, docs)
	configs := []struct {
		name string
		opts []Option
	}{
		{"compact", nil},
		{"indented", []Option{WithJSONIndent(2)}},
	}
	compared, failed := 0, 0
	for i, d := range docs {
		ref := refs[i]
		evs, decErr := tokenEvents(d)
		agree := (decErr != nil) == (ref.Err != "") && (decErr != nil || toonref.EventsEqual(evs, ref.Events))
		for _, cf := range configs {
			opts := append([]Option{WithStrict(d.Strict), WithIndent(d.Indent)}, cf.opts...)
			var out bytes.Buffer
			err := ToJSON(&out, strings.NewReader(d.Text), opts...)
			var problem string
			switch {
			case (err != nil) != (decErr != nil):
				problem = fmt.Sprintf("ToJSON: %v; the decoder: %v", err, decErr)
			case err == nil && agree:
				compared++
				if e := sameOrdered(out.Bytes(), ref.Value); e != nil {
					problem = fmt.Sprintf("%v\n  ToJSON: %s\n  reference: %s", e, bytes.TrimSpace(out.Bytes()), ref.Value)
				}
			}
			if problem != "" {
				if failed++; failed <= 20 {
					t.Errorf("%s, strict %v, indent %d, %q:\n%s  %s", cf.name, d.Strict, d.Indent, d.Text, toonref.Lines(d.Text), problem)
				}
			}
		}
	}
	t.Logf("%d documents in two modes, %d outputs compared with the reference's value, %d failures", n, compared, failed)
	if compared < n {
		t.Fatalf("only %d outputs compared", compared)
	}
}

// tokenEvents decodes d with toon.Decoder into the reference's event form.
func tokenEvents(d toonref.Doc) ([]toonref.Event, error) {
	dec := toon.NewDecoder(strings.NewReader(d.Text), toon.WithStrict(d.Strict), toon.WithIndent(d.Indent))
	var evs []toonref.Event
	for {
		t, err := dec.Token()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return nil, err
		}
		var e toonref.Event
		switch t.Kind() {
		case toon.KindObjectStart:
			e.Kind = toonref.StartObject
		case toon.KindObjectEnd:
			e.Kind = toonref.EndObject
		case toon.KindArrayStart:
			e.Kind = toonref.StartArray
		case toon.KindArrayEnd:
			e.Kind = toonref.EndArray
		case toon.KindKey:
			e = toonref.Event{Kind: toonref.Key, Text: t.String()}
		case toon.KindString:
			e = toonref.Event{Kind: toonref.String, Text: t.String()}
		case toon.KindNumber:
			e = toonref.NumberEvent(t.String())
		case toon.KindBool:
			e = toonref.Event{Kind: toonref.Bool, Bool: t.Bool()}
		case toon.KindNull:
			e.Kind = toonref.Null
		}
		evs = append(evs, e)
	}
}

// sameOrdered compares two JSON values with their members in order and
// numbers by float64 value.
func sameOrdered(a, b []byte) error {
	va, err := ordered(a)
	if err != nil {
		return err
	}
	vb, err := ordered(b)
	if err != nil {
		return err
	}
	return cmpOrdered(va, vb, "")
}

func cmpOrdered(a, b any, path string) error {
	switch x := a.(type) {
	case toon.Object:
		y, ok := b.(toon.Object)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		for i := range x {
			if x[i].Key != y[i].Key {
				return fmt.Errorf("%s: member %d: key %q vs %q", path, i, x[i].Key, y[i].Key)
			}
			if err := cmpOrdered(x[i].Value, y[i].Value, path+"/"+x[i].Key); err != nil {
				return err
			}
		}
		return nil
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		for i := range x {
			if err := cmpOrdered(x[i], y[i], path+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	case toon.Number:
		y, ok := b.(toon.Number)
		if !ok || toonref.NumberEvent(string(x)).Num != toonref.NumberEvent(string(y)).Num {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		return nil
	}
	if a != b {
		return fmt.Errorf("%s: %v vs %v", path, a, b)
	}
	return nil
}
