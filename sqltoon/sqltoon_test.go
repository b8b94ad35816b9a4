package sqltoon

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toonstream/toon"
	"github.com/toonstream/toon/internal/longtest"
	_ "modernc.org/sqlite"
)

// openDB opens a new SQLite database in a temporary file.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var base = time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)

// sample returns the values of row i of the test table: an integer key,
// text, a real, a boolean, a time, a blob and a nullable text.
func sample(i int) (id int64, name string, score float64, active bool, created time.Time, data []byte, note any) {
	id = int64(i)
	name = "user " + strconv.Itoa(i)
	if i%97 == 0 {
		name = "quote \" comma, pipe | " + strconv.Itoa(i)
	}
	score = float64(i%1000) / 8
	active = i%3 == 0
	created = base.Add(time.Duration(i) * 1500 * time.Millisecond)
	data = []byte{byte(i), byte(i >> 8), 0, 0xff}
	if i%5 != 0 {
		note = "note " + strconv.Itoa(i)
	}
	return
}

// fillDB creates table t with n rows of sample.
func fillDB(t testing.TB, db *sql.DB, n int) {
	t.Helper()
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, active BOOLEAN, created DATETIME, data BLOB, note TEXT)`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	st, err := tx.Prepare(`INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		id, name, score, active, created, data, note := sample(i)
		if _, err := st.Exec(id, name, score, active, created, data, note); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestWriteSQLRows writes 30,000 rows (100,000 in the long form) of mixed
// types from SQLite through a table budget small enough to spill, and checks every cell of the
// decoded result against the rows inserted.
func TestWriteSQLRows(t *testing.T) {
	n := longtest.Size(t, 30000, 100000)
	db := openDB(t)
	fillDB(t, db, n)
	for _, opts := range [][]Option{nil, {WithCount(n), WithBytesAsText(true)}} {
		rows, err := db.Query(`SELECT id, name, score, active, created, data, note FROM t ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		enc := toon.NewEncoder(&out, toon.WithTableBudget(1<<20), toon.WithTempDir(t.TempDir()))
		if err := WriteSQLRows(enc, "users", rows, opts...); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
		text := len(opts) > 0
		head := "users[" + strconv.Itoa(n) + "]{id,name,score,active,created,data,note}:\n"
		if !strings.HasPrefix(out.String(), head) {
			t.Fatalf("header: %.100q", out.String())
		}
		var doc struct {
			Users []struct {
				ID      int64   `toon:"id"`
				Name    string  `toon:"name"`
				Score   float64 `toon:"score"`
				Active  bool    `toon:"active"`
				Created string  `toon:"created"`
				Data    string  `toon:"data"`
				Note    *string `toon:"note"`
			} `toon:"users"`
		}
		if err := toon.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Users) != n {
			t.Fatalf("%d rows decoded", len(doc.Users))
		}
		for i, u := range doc.Users {
			id, name, score, active, created, data, note := sample(i + 1)
			wantData := base64.StdEncoding.EncodeToString(data)
			if text {
				wantData = strings.ToValidUTF8(string(data), "\uFFFD")
			}
			switch {
			case u.ID != id, u.Name != name, u.Score != score, u.Active != active,
				u.Created != created.Format(time.RFC3339Nano), u.Data != wantData,
				(note == nil) != (u.Note == nil), note != nil && *u.Note != note:
				t.Fatalf("row %d: %+v", i+1, u)
			}
		}
	}
}

// TestWriteSQLRowsQueryError runs a query that SQLite fails in the middle
// (an integer overflow at row 500): the error names the row, and nothing
// of the table is written.
func TestWriteSQLRowsQueryError(t *testing.T) {
	db := openDB(t)
	fillDB(t, db, 1000)
	rows, err := db.Query(`SELECT id, CASE WHEN id = 500 THEN abs(-9223372036854775807 - 1) ELSE id END AS v FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out bytes.Buffer
	enc := toon.NewEncoder(&out)
	err = WriteSQLRows(enc, "t", rows)
	if err == nil || !strings.Contains(err.Error(), "sqltoon: row 500: ") || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("error %v", err)
	}
	if cerr := enc.Close(); cerr == nil {
		t.Fatal("Close after the failure: no error for the open table")
	}
	if out.Len() != 0 {
		t.Fatalf("wrote %q", out.String())
	}
}

// TestWriteSQLRowsCount checks WithCount against a query that returns
// another number of rows.
func TestWriteSQLRowsCount(t *testing.T) {
	db := openDB(t)
	fillDB(t, db, 10)
	rows, err := db.Query(`SELECT id FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	enc := toon.NewEncoder(io.Discard)
	err = WriteSQLRows(enc, "", rows, WithCount(11))
	if !errors.Is(err, toon.ErrCount) {
		t.Fatalf("error %v", err)
	}
	rows, err = db.Query(`SELECT id, name AS id FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	err = WriteSQLRows(toon.NewEncoder(io.Discard), "", rows)
	if err == nil || !strings.Contains(err.Error(), `repeated field "id"`) {
		t.Fatalf("repeated column: %v", err)
	}
}

// fakeRows is a driver result: its rows, with a DECIMAL column, and an
// error from Next at row failAt (1-based; 0 for none).
type fakeRows struct {
	cols   []string
	types  []string
	rows   [][]driver.Value
	failAt int
	i      int
}

func (r *fakeRows) Columns() []string { return r.cols }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i+1 == r.failAt {
		return errors.New("connection reset by peer")
	}
	if r.i == len(r.rows) {
		return io.EOF
	}
	copy(dest, r.rows[r.i])
	r.i++
	return nil
}
func (r *fakeRows) ColumnTypeDatabaseTypeName(i int) string { return r.types[i] }

type fakeDriver struct{ rows *fakeRows }

func (d fakeDriver) Connect(context.Context) (driver.Conn, error) { return fakeConn(d), nil }
func (d fakeDriver) Driver() driver.Driver                        { return nil }

type fakeConn fakeDriver

func (c fakeConn) Prepare(string) (driver.Stmt, error) { return fakeStmt(c), nil }
func (c fakeConn) Close() error                        { return nil }
func (c fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("no transactions") }

type fakeStmt fakeConn

func (s fakeStmt) Close() error                               { return nil }
func (s fakeStmt) NumInput() int                              { return 0 }
func (s fakeStmt) Exec([]driver.Value) (driver.Result, error) { return nil, errors.New("no exec") }
func (s fakeStmt) Query([]driver.Value) (driver.Rows, error) {
	r := *s.rows
	return &r, nil
}

type point struct{ x, y int }

func (p point) String() string { return fmt.Sprintf("(%d,%d)", p.x, p.y) }

type opaque struct{ v int }

func query(t *testing.T, r *fakeRows) *sql.Rows {
	t.Helper()
	db := sql.OpenDB(fakeDriver{r})
	t.Cleanup(func() { db.Close() })
	rows, err := db.Query("SELECT")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rows.Close() })
	return rows
}

// TestWriteSQLRowsTypes checks the cells of the types drivers return, the
// DECIMAL column's exact numbers among them.
func TestWriteSQLRowsTypes(t *testing.T) {
	r := &fakeRows{
		cols:  []string{"price", "f", "b", "s", "t", "x"},
		types: []string{"DECIMAL", "DOUBLE", "BOOL", "VARCHAR", "TIMESTAMP", "POINT"},
		rows: [][]driver.Value{
			{"12345678901234567890.125", math.NaN(), true, "05", time.Date(2024, 1, 2, 3, 4, 5, 600, time.FixedZone("", 3600)), point{1, 2}},
			{[]byte("-0.50"), math.Inf(1), false, "", time.Time{}, nil},
			{"n/a", 1.5, nil, "true", nil, point{3, 4}},
		},
	}
	var out bytes.Buffer
	enc := toon.NewEncoder(&out)
	if err := WriteSQLRows(enc, "", query(t, r)); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	want := `[3]{price,f,b,s,t,x}:
  12345678901234567890.125,null,true,"05","2024-01-02T03:04:05.0000006+01:00","(1,2)"
  -0.5,null,false,"","0001-01-01T00:00:00Z",null
  n/a,1.5,null,"true",null,"(3,4)"`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestWriteSQLRowsFailures checks the row numbers of a failure of the
// connection during the rows and of a value without a TOON form.
func TestWriteSQLRowsFailures(t *testing.T) {
	rows := make([][]driver.Value, 100)
	for i := range rows {
		rows[i] = []driver.Value{int64(i), "x"}
	}
	cases := []struct {
		r   *fakeRows
		msg string
	}{
		{&fakeRows{cols: []string{"id", "s"}, types: []string{"INT", "TEXT"}, rows: rows, failAt: 42}, "sqltoon: row 42: connection reset by peer"},
		{&fakeRows{cols: []string{"id", "s"}, types: []string{"INT", "TEXT"}, rows: append(rows[:7:7], []driver.Value{int64(7), opaque{1}}), failAt: 0}, `sqltoon: row 8, column "s": values of type sqltoon.opaque have no TOON form`},
	}
	for _, c := range cases {
		var out bytes.Buffer
		enc := toon.NewEncoder(&out)
		err := WriteSQLRows(enc, "t", query(t, c.r))
		if err == nil || err.Error() != c.msg {
			t.Errorf("error %v, want %q", err, c.msg)
		}
		enc.Close()
		if out.Len() != 0 {
			t.Errorf("wrote %q", out.String())
		}
	}
}

func BenchmarkWriteSQLRows(b *testing.B) {
	db := openDB(b)
	fillDB(b, db, 100000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rows, err := db.Query(`SELECT id, name, score, active, created, data, note FROM t`)
		if err != nil {
			b.Fatal(err)
		}
		enc := toon.NewEncoder(io.Discard)
		if err := WriteSQLRows(enc, "t", rows); err != nil {
			b.Fatal(err)
		}
		rows.Close()
		enc.Close()
	}
}
