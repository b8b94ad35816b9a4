package convert_test

import (
	"fmt"
	"strings"

	"github.com/toonstream/toon/convert"
)

// Split cuts the users table into documents of at most 45 tokens each,
// keeping the path to the table and, with Context, the meta field before it.
func ExampleSplit() {
	doc := `meta:
  source: crm
data:
  users[5]{id,name,city}:
    1,Ada Lovelace,London
    2,Alan Turing,Wilmslow
    3,Grace Hopper,Arlington
    4,Edsger Dijkstra,Austin
    5,Barbara Liskov,Boston`
	opts := convert.SplitOptions{MaxTokens: 45, Table: "data.users", Context: true}
	err := convert.Split(strings.NewReader(doc), opts, func(c convert.Chunk) error {
		fmt.Printf("--- rows %d-%d of the table, %d tokens\n%s\n", c.FirstRow+1, c.FirstRow+c.Rows, c.Tokens, c.Text)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// --- rows 1-2 of the table, 42 tokens
	// meta:
	//   source: crm
	// data:
	//   users[2]{id,name,city}:
	//     1,Ada Lovelace,London
	//     2,Alan Turing,Wilmslow
	// --- rows 3-4 of the table, 40 tokens
	// meta:
	//   source: crm
	// data:
	//   users[2]{id,name,city}:
	//     3,Grace Hopper,Arlington
	//     4,Edsger Dijkstra,Austin
	// --- rows 5-5 of the table, 30 tokens
	// meta:
	//   source: crm
	// data:
	//   users[1]{id,name,city}:
	//     5,Barbara Liskov,Boston
}
