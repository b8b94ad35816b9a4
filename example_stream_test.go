package toon_test

import (
	"fmt"
	"strings"

	"github.com/toonstream/toon"
)

// Decode after Token reads one value at a time; More and Skip walk the
// document to the table that is wanted.
func ExampleDecoder_More() {
	doc := `meta:
  owner: ops
orders[3]{id,total}:
  A-1,129.9
  A-2,15
  A-3,42
audit[2]{who,when}:
  ada,monday
  bob,tuesday`
	type order struct {
		ID    string  `toon:"id"`
		Total float64 `toon:"total"`
	}
	dec := toon.NewDecoder(strings.NewReader(doc))
	dec.Token() // the root object's start
	for dec.More() {
		key, _ := dec.Token()
		if string(key.Bytes()) != "orders" {
			dec.Skip() // the value, in constant memory
			continue
		}
		dec.Token() // the table's start
		for dec.More() {
			var o order
			if err := dec.Decode(&o); err != nil {
				fmt.Println(err)
				return
			}
			fmt.Println(o.ID, o.Total)
		}
		dec.Token() // the table's end
	}
	// Output:
	// A-1 129.9
	// A-2 15
	// A-3 42
}
