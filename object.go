package toon

// Object is a TOON (and JSON) object whose members keep the order they are
// given in. Encode writes an Object's fields in that order, where a
// map[string]any is written in sorted key order; use Object whenever the key
// order matters, as when converting a JSON document. Keys must be distinct:
// encoding an Object with a repeated key is an error, because a strict
// decoder rejects duplicate keys (§14.3).
//
// Member values may be any value Encode accepts, including nested Objects.
type Object []Member

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// Get returns the value of the member with key k, and whether there is one.
func (o Object) Get(k string) (any, bool) {
	for i := range o {
		if o[i].Key == k {
			return o[i].Value, true
		}
	}
	return nil, false
}
