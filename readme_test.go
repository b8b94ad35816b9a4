package toon_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/convert"
	"github.com/toonstream/toon/sqltoon"
	_ "modernc.org/sqlite" // the "sqlite" driver of the database/sql snippet
)

// Each Go snippet of README.md is here, word for word, inside a function
// that gives it the variables it uses, and an example runs it and checks
// its output. TestReadmeSnippets keeps the two texts the same.

// User is the type of the README's Go types and streaming snippets.
type User struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
}

// readmeDecoding is the README's "Decoding" snippet.
func readmeDecoding(r io.Reader) error {
	dec := toon.NewDecoder(r) // r is any io.Reader
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err // *toon.SyntaxError: line, column, offset, cause
		}
		switch tok.Kind() {
		case toon.KindArrayStart:
			fmt.Println("array of", tok.Len(), "in", tok.Form(), "form")
		case toon.KindKey, toon.KindString:
			fmt.Println(string(tok.Bytes()))
		case toon.KindNumber:
			n, _ := tok.Int() // or tok.Float(); tok.Bytes() is the exact text
			fmt.Println(n)
		}
	}
	return nil
}

func Example_readmeDecoding() {
	if err := readmeDecoding(strings.NewReader("users[2]{id,name}:\n  1,Ada\n  2,Bob")); err != nil {
		fmt.Println(err)
	}
	err := readmeDecoding(strings.NewReader("t[3]: a,b"))
	fmt.Println(err)
	// Output:
	// users
	// array of 2 in tabular form
	// id
	// 1
	// name
	// Ada
	// id
	// 2
	// name
	// Bob
	// t
	// array of 3 in inline form
	// toon: line 1, column 7: array length mismatch: declared 3 values, found 2
}

// readmeValues is the README's "Into Go values" snippet; show sees v at
// the end.
func readmeValues(data []byte, r io.Reader, show func(any)) error {
	var v any
	if err := toon.Unmarshal(data, &v); err != nil { // map[string]any, []any, float64, ...
		return err
	}
	dec := toon.NewDecoder(r, toon.UseNumber()) // numbers as toon.Number text
	if err := dec.Decode(&v); err != nil {
		return err
	}
	show(v)
	return nil
}

func Example_readmeValues() {
	show := func(v any) { fmt.Printf("%v %T\n", v, v.(map[string]any)["n"]) }
	fmt.Println(readmeValues([]byte("n: 1.50"), strings.NewReader("n: 1.50"), show))
	err := readmeValues([]byte("t[2]: 1"), strings.NewReader("n: 1.50"), show)
	fmt.Println(errors.Is(err, toon.ErrCount))
	// Output:
	// map[n:1.50] toon.Number
	// <nil>
	// true
}

// readmeErrors is the README's snippet on matching errors.
func readmeErrors(err error) {
	if errors.Is(err, toon.ErrCount) { /* a table lost rows */
	}
	var se *toon.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Column, se.Source)
	}
}

func Example_readmeErrors() {
	var v any
	readmeErrors(toon.Unmarshal([]byte("a: 1\nrows[2]{x}:\n  1\nb: 2"), &v))
	// Output:
	// 3 1   1
}

// readmeEncoding is the README's "Encoding" snippet; show sees b.
func readmeEncoding(w io.Writer, v any, show func([]byte)) error {
	b, err := toon.Marshal(map[string]any{"id": 1, "tags": []any{"a", "b"}})
	if err != nil {
		return err
	}
	// b is:
	// id: 1
	// tags[2]: a,b

	enc := toon.NewEncoder(w, toon.WithDelimiter(toon.Tab), toon.WithIndent(2))
	err = enc.Encode(v) // writes v to w, and flushes
	show(b)
	return err
}

func Example_readmeEncoding() {
	show := func(b []byte) { fmt.Printf("\n%s\n", b) }
	err := readmeEncoding(os.Stdout, map[string]any{"t": []any{1, "x y"}}, show)
	fmt.Println(err)
	// Output:
	// t[2	]: 1	x y
	// id: 1
	// tags[2]: a,b
	// <nil>
}

// readmeTable is the README's "Streaming tables" snippet.
func readmeTable(w io.Writer, n int, users []User) error {
	enc := toon.NewEncoder(w)
	enc.BeginTable("users", n, "id", "name", "active") // n < 0: count not known yet
	for _, u := range users {
		enc.WriteRow(toon.Int(int64(u.ID)), toon.String(u.Name), toon.Bool(u.Active))
	}
	if err := enc.EndTable(); err != nil { // checks that exactly n rows were written
		return err
	}
	return enc.Close()
}

func Example_readmeTable() {
	users := []User{{1, "Ada", true}, {2, "Bob", false}}
	if err := readmeTable(os.Stdout, -1, users); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	err := readmeTable(io.Discard, 3, users)
	fmt.Println(errors.Is(err, toon.ErrCount))
	// Output:
	// users[2]{id,name,active}:
	//   1,Ada,true
	//   2,Bob,false
	// true
}

// readmeFilter is the README's "Token by token" snippet.
func readmeFilter(r io.Reader, w io.Writer) error {
	dec, enc := toon.NewDecoder(r), toon.NewEncoder(w)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := enc.WriteToken(tok); err != nil {
			return err
		}
	}
	return enc.Close()
}

func Example_readmeFilter() {
	if err := readmeFilter(strings.NewReader("a:\n  b[2]: 1,x\nc: true"), os.Stdout); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	// Output:
	// a:
	//   b[2]: 1,x
	// c: true
}

// readmeTypes is the README's "Go types" snippet; show sees b and what
// it decodes to.
func readmeTypes(show func(b []byte, decoded any)) error {
	type User struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Active bool   `json:"active"`
	}

	users := []User{{1, "Ada", true}, {2, "Bob", false}}
	b, err := toon.Marshal(map[string]any{"users": users})
	if err != nil {
		return err
	}
	// b is:
	// users[2]{id,name,active}:
	//   1,Ada,true
	//   2,Bob,false

	var doc struct {
		Users []User `json:"users"`
	}
	err = toon.Unmarshal(b, &doc) // numbers must fit: overflow is an *UnmarshalTypeError with line and column
	show(b, doc.Users)
	return err
}

func Example_readmeTypes() {
	err := readmeTypes(func(b []byte, decoded any) { fmt.Printf("%s\n%v\n", b, decoded) })
	fmt.Println(err)
	// Output:
	// users[2]{id,name,active}:
	//   1,Ada,true
	//   2,Bob,false
	// [{1 Ada true} {2 Bob false}]
	// <nil>
}

// processed collects what the Rows snippet's process is given.
var processed []User

func process(u User) { processed = append(processed, u) }

// readmeRows is the README's snippet on streaming rows.
func readmeRows(r io.Reader, enc *toon.Encoder, users []User) (err error) {
	dec := toon.NewDecoder(r)
	// ... read tokens up to the table's key, or start at a root table
	for u, err := range toon.Rows[User](dec) {
		if err != nil {
			return err
		}
		process(u) // no allocation per row beyond the strings kept
	}

	err = toon.WriteRows(enc, "users", -1, slices.Values(users)) // constant memory, any row count
	return err
}

func Example_readmeRows() {
	processed = nil
	enc := toon.NewEncoder(os.Stdout)
	if err := readmeRows(strings.NewReader("[2]{id,name,active}:\n  1,Ada,true\n  2,Bob,false"), enc, []User{{3, "Eve", true}}); err != nil {
		fmt.Println(err)
	}
	if err := enc.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	fmt.Println(processed)
	// Output:
	// users[1]{id,name,active}:
	//   3,Eve,true
	// [{1 Ada true} {2 Bob false}]
}

// readmeParallel is the README's snippet on every core.
func readmeParallel(data []byte, enc *toon.Encoder, users []User) (err error) {
	dec := toon.NewBytesDecoder(data) // a byte slice or a memory-mapped file
	// ... read tokens up to the table's key, or start at a root table
	for u, err := range toon.ParallelRows[User](dec, 0) { // 0: GOMAXPROCS workers
		if err != nil {
			return err // the error Rows would give, at the same line and column
		}
		process(u) // in the table's order, on this goroutine
	}

	err = toon.WriteRowsParallel(enc, "users", len(users), slices.Values(users), 0)
	return err
}

func Example_readmeParallel() {
	processed = nil
	enc := toon.NewEncoder(os.Stdout)
	if err := readmeParallel([]byte("[2]{id,name,active}:\n  1,Ada,true\n  2,Bob,false"), enc, []User{{3, "Eve", true}}); err != nil {
		fmt.Println(err)
	}
	if err := enc.Close(); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	fmt.Println(processed)
	// Output:
	// users[1]{id,name,active}:
	//   3,Eve,true
	// [{1 Ada true} {2 Bob false}]
}

// Order is the type of the README's snippet on walking to a table.
type Order struct {
	ID    int     `json:"id"`
	Total float64 `json:"total"`
}

// orders collects what the walking snippet's process is given.
var orders []Order

// readmeWalk is the README's snippet on Decode after Token, More and Skip;
// its process is the one below, for Orders.
func readmeWalk(r io.Reader, process func(Order)) error {
	dec := toon.NewDecoder(r)
	dec.Token() // ObjectStart of the root
	for dec.More() {
		key, _ := dec.Token()
		if string(key.Bytes()) != "orders" {
			dec.Skip() // a table of any size, in constant memory
			continue
		}
		dec.Token() // ArrayStart
		for dec.More() {
			var o Order
			if err := dec.Decode(&o); err != nil { // one row
				return err
			}
			process(o)
		}
		dec.Token() // ArrayEnd
	}
	return nil
}

func Example_readmeWalk() {
	orders = nil
	doc := "users[2]{id,name}:\n  1,Ada\n  2,Bob\nmeta:\n  n: 2\norders[2]{id,total}:\n  7,9.5\n  8,12\nz: 1"
	err := readmeWalk(strings.NewReader(doc), func(o Order) { orders = append(orders, o) })
	fmt.Println(orders, err)
	// Output:
	// [{7 9.5} {8 12}] <nil>
}

// readmeMisuse is the README's snippet on misuse errors; it returns the
// error of a second call, for the example to show.
func readmeMisuse(enc *toon.Encoder, cells []toon.Value) error {
	if err := enc.WriteRow(cells...); errors.Is(err, toon.ErrClosed) { /* WriteRow after Close */
	}
	return enc.WriteRow(cells...)
}

func Example_readmeMisuse() {
	enc := toon.NewEncoder(io.Discard)
	enc.BeginTable("t", 1, "x")
	enc.WriteRow(toon.Int(1))
	enc.EndTable()
	enc.Close()
	err := readmeMisuse(enc, []toon.Value{toon.Int(2)})
	fmt.Println(errors.Is(err, toon.ErrClosed), err)
	// Output:
	// true toon: WriteRow after Close
}

// TestReadmeSnippets checks that every Go snippet of README.md appears in
// this file as it is, up to white space, so that the README shows only
// code that compiles and whose output the examples above check.
// readmeJSONLines is the README's JSON Lines snippet: it reads
// events.jsonl in the current directory.
func readmeJSONLines(w io.Writer, r io.Reader) error {
	f, err := os.Open("events.jsonl")
	if err != nil {
		return err
	}
	defer f.Close()
	err = convert.FromJSONLines(w, f) // a root table of the records, or a list if they differ
	if err != nil {
		return err
	}
	err = convert.ToJSONLines(w, r) // a TOON array back to one compact JSON value per line
	return err
}

func Example_readmeJSONLines() {
	dir, err := os.MkdirTemp("", "toon-readme-*")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	wd, err := os.Getwd()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := os.Chdir(dir); err != nil {
		fmt.Println(err)
		return
	}
	defer os.Chdir(wd)
	if err := os.WriteFile("events.jsonl", []byte("{\"id\":1,\"kind\":\"click\"}\n\n{\"id\":2,\"kind\":\"view\"}\n"), 0o666); err != nil {
		fmt.Println(err)
		return
	}
	var out strings.Builder
	err = readmeJSONLines(&out, strings.NewReader("[2]{id,kind}:\n  3,open\n  4,close"))
	fmt.Print(out.String())
	fmt.Println(err)
	// Output:
	// [2]{id,kind}:
	//   1,click
	//   2,view{"id":3,"kind":"open"}
	// {"id":4,"kind":"close"}
	// <nil>
}

// readmeCSV is the README's CSV snippet. Its three outputs go to the same
// w, one after the other: a TOON document ends without a newline.
func readmeCSV(w io.Writer, f, g, r io.Reader) error {
	err := convert.FromCSV(w, f) // header row, then one row per record
	if err != nil {
		return err
	}
	err = convert.FromCSV(w, g, convert.WithCSVDelimiter(';'), // the CSV side: g has ';' between fields
		convert.WithDelimiter(toon.Tab), convert.WithCSVStrings(true)) // the TOON side: tabs, no typing
	if err != nil {
		return err
	}
	err = convert.ToCSV(w, r) // a flat TOON table back to CSV
	return err
}

func Example_readmeCSV() {
	f := strings.NewReader("id,name,score\n1,Ada,9.50\n2,Bob,\n")
	g := strings.NewReader("id;name\n05;Eve\n")
	err := readmeCSV(os.Stdout, f, g, strings.NewReader("\n[1]{id,name}:\n  7,\"Li, Wei\""))
	fmt.Println(err)
	// Output:
	// [2]{id,name,score}:
	//   1,Ada,9.5
	//   2,Bob,""[1	]{id	name}:
	//   "05"	Eveid,name
	// 7,"Li, Wei"
	// <nil>
}

// readmeSQL is the README's database/sql snippet.
func readmeSQL(ctx context.Context, db *sql.DB, w io.Writer) error {
	rows, err := db.QueryContext(ctx, "SELECT id, name, total, created FROM orders")
	if err != nil {
		return err
	}
	defer rows.Close()
	enc := toon.NewEncoder(w, toon.WithTableBudget(8<<20)) // rows held in memory before spilling
	if err := sqltoon.WriteSQLRows(enc, "orders", rows); err != nil {
		return err // "sqltoon: row 1042: ..." for a failed scan or query; nothing of the table written
	}
	return enc.Close()
}

func Example_readmeSQL() {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: each would have its own in-memory database
	for _, q := range []string{
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT, total REAL, created TEXT)`,
		`INSERT INTO orders VALUES (1, 'Ada', 12.5, '2024-03-01'), (2, NULL, 7, '2024-03-02')`,
	} {
		if _, err := db.Exec(q); err != nil {
			fmt.Println(err)
			return
		}
	}
	err = readmeSQL(context.Background(), db, os.Stdout)
	fmt.Println()
	fmt.Println(err)
	// Output:
	// orders[2]{id,name,total,created}:
	//   1,Ada,12.5,2024-03-01
	//   2,null,7,2024-03-02
	// <nil>
}

func TestReadmeSnippets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	space := regexp.MustCompile(`\s+`)
	norm := func(s string) string { return space.ReplaceAllString(strings.TrimSpace(s), " ") }
	code := norm(string(self))
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 8 {
		t.Fatalf("found %d Go snippets in README.md, expected at least 8", len(blocks))
	}
	for _, b := range blocks {
		if !strings.Contains(code, norm(b[1])) {
			t.Errorf("README.md snippet not in readme_test.go (add it there as it is, inside a function an example runs):\n%s", b[1])
		}
	}
}
