package toon_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toonstream/toon"
)

func ExampleDecoder_Token() {
	dec := toon.NewDecoder(strings.NewReader("users[2]{id,name}:\n  1,Ada\n  2,Bob"))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		switch tok.Kind() {
		case toon.KindArrayStart:
			fmt.Println("array of", tok.Len(), "in", tok.Form(), "form")
		case toon.KindKey, toon.KindString, toon.KindNumber:
			fmt.Println(tok.Kind(), tok.String())
		}
	}
	// Output:
	// Key users
	// array of 2 in tabular form
	// Key id
	// Number 1
	// Key name
	// String Ada
	// Key id
	// Number 2
	// Key name
	// String Bob
}

func ExampleUnmarshal_errors() {
	var v any
	err := toon.Unmarshal([]byte("tags[3]: a,b"), &v)
	var se *toon.SyntaxError
	if errors.As(err, &se) && errors.Is(err, toon.ErrCount) {
		fmt.Println(se.Line, se.Column, err)
	}
	// Output:
	// 1 10 toon: line 1, column 10: array length mismatch: declared 3 values, found 2
}

func ExampleMarshal() {
	type User struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Active bool   `json:"active"`
	}
	b, err := toon.Marshal(map[string]any{
		"users": []User{{1, "Ada", true}, {2, "Bob", false}},
		"tags":  []string{"a", "b,c"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	// Output:
	// tags[2]: a,"b,c"
	// users[2]{id,name,active}:
	//   1,Ada,true
	//   2,Bob,false
}

func ExampleEncoder_BeginTable() {
	enc := toon.NewEncoder(os.Stdout)
	enc.BeginTable("rows", -1, "id", "city") // count not known in advance
	enc.WriteRow(toon.Int(1), toon.String("Oslo"))
	enc.WriteRow(toon.Int(2), toon.String("São Paulo"))
	if err := enc.EndTable(); err != nil {
		fmt.Println(err)
	}
	if err := enc.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	// Output:
	// rows[2]{id,city}:
	//   1,Oslo
	//   2,São Paulo
}

func ExampleRows() {
	type Row struct {
		ID   int    `toon:"id"`
		Name string `toon:"name"`
	}
	dec := toon.NewDecoder(strings.NewReader("[2]{id,name}:\n  1,Ada\n  2,Bob"))
	for r, err := range toon.Rows[Row](dec) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r.ID, r.Name)
	}
	// Output:
	// 1 Ada
	// 2 Bob
}

func ExampleDecoder_Row() {
	dec := toon.NewDecoder(strings.NewReader("users[3]{id,name}:\n  1,Ada\n  2,Bob\n  3,Eve\n"))
	for {
		if row := dec.Row(); row != nil {
			// ObjectStart, then each key and its value, then ObjectEnd.
			fmt.Println("row:", row[2].String(), row[4].String())
			continue
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("token:", tok.Kind())
	}
	// The first row came as tokens: Row gives a row only when it is ready.

	// Output:
	// token: ObjectStart
	// token: Key
	// token: ArrayStart
	// token: ObjectStart
	// token: Key
	// token: Number
	// token: Key
	// token: String
	// token: ObjectEnd
	// row: 2 Bob
	// row: 3 Eve
	// token: ArrayEnd
	// token: ObjectEnd
}

func ExampleValue_Equal() {
	var cells []toon.Value
	if err := toon.Unmarshal([]byte("[3]: Ada,1.50,true"), &cells); err != nil {
		fmt.Println(err)
		return
	}
	want := toon.String("Ada")
	// The decoded Value refers to other bytes than want does: == compares
	// the Values, Equal their texts.
	fmt.Println(cells[0] == want, cells[0].Equal(want))
	fmt.Println(cells[1], cells[1].Equal(toon.NumberValue("1.50")), cells[2])
	// Output:
	// false true
	// 1.5 true true
}
