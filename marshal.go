package toon

// Marshaler is implemented by types that encode themselves as TOON.
// MarshalTOON returns a value to encode in the receiver's place: a generic
// value (nil, string, bool, a number, Number, map[string]any, Object,
// []any) or any other value Marshal accepts. The value goes through the
// same form selection as any other (§9, §10), so a Marshaler's object can
// become a table row and its array a table, and streaming is unaffected.
//
// Marshal gives Marshaler precedence over json.Marshaler, and both over
// encoding.TextMarshaler; a method with a pointer receiver counts.
type Marshaler interface {
	MarshalTOON() (any, error)
}
