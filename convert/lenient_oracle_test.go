package convert

import (
	"unsafe"

	"github.com/toonstream/toon"
)

// The in-memory non-strict path that spoolToJSON replaced, kept as the
// oracle of the differential tests (lenient_test.go).

// lenientToJSON converts a document decoded in non-strict mode, where keys
// may repeat. The specification gives repeated keys last-write-wins
// meaning (§14.3): a key keeps its first position and takes its last value.
// So no member of an object can be written before the object ends, a later
// line may replace it; and as every value lies inside the root, when the
// root is an object (the usual document, a table included) nothing can be
// written before the last line. This path therefore builds the whole
// document in memory, keeps each key once and then writes it: memory grows
// with the document, by several times its size.
//
// Only a root array could be written element by element (an element is
// final once it ends, no object being open around it), and writing the
// members of an object as they come would need them kept aside (in memory
// or a temporary file) until the object ends; neither is done. Strict
// mode, which rejects repeated keys, streams in constant memory instead.
func lenientToJSON(jw *jsonWriter, dec *toon.Decoder) error {
	v, ok, err := lenientDocument(dec)
	if !ok {
		return err
	}
	writeLenient(jw, v)
	return nil
}

// writeLenient writes a value built by lenientValue.
func writeLenient(jw *jsonWriter, v any) {
	switch x := v.(type) {
	case toon.Object:
		jw.open('{')
		for _, m := range x {
			jw.key(unsafe.Slice(unsafe.StringData(m.Key), len(m.Key)))
			writeLenient(jw, m.Value)
		}
		jw.close('}')
	case []any:
		jw.open('[')
		for _, e := range x {
			writeLenient(jw, e)
		}
		jw.close(']')
	case string:
		jw.str(unsafe.Slice(unsafe.StringData(x), len(x)))
	case lenientNumber:
		jw.raw(unsafe.Slice(unsafe.StringData(string(x)), len(x)))
	case bool:
		if x {
			jw.raw(litTrue)
		} else {
			jw.raw(litFalse)
		}
	case nil:
		jw.raw(litNull)
	}
}
