package toon

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toonstream/toon/internal/mem"
)

// TestDecodeAnyCaches decodes documents with many distinct keys (more than
// the key cache holds, so entries are replaced), keys that collide in the
// cache, repeated keys in rows, and short and long strings, and compares
// the generic result with encoding/json's decoding of the same data.
func TestDecodeAnyCaches(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for doc := 0; doc < 200; doc++ {
		var tb, jb strings.Builder
		jb.WriteString("{")
		nkeys := 1 + rng.Intn(300)
		for i := 0; i < nkeys; i++ {
			// Keys of equal length, first, middle and last byte: they
			// collide in the cache while their contents differ.
			k := "k" + strconv.Itoa(rng.Intn(50)) + "x" + strconv.Itoa(i)
			v := strings.Repeat(string(rune('a'+rng.Intn(26))), rng.Intn(100))
			if i > 0 {
				jb.WriteString(",")
			}
			tb.WriteString(k + ": " + quoteIfNeeded(v) + "\n")
			jb.WriteString(strconv.Quote(k) + ":" + strconv.Quote(v))
		}
		rows := rng.Intn(20)
		tb.WriteString("rows[" + strconv.Itoa(rows) + "]{id,name}:\n")
		jb.WriteString(`,"rows":[`)
		for r := 0; r < rows; r++ {
			name := "n" + strconv.Itoa(rng.Intn(5))
			tb.WriteString("  " + strconv.Itoa(r) + "," + name + "\n")
			if r > 0 {
				jb.WriteString(",")
			}
			jb.WriteString(`{"id":` + strconv.Itoa(r) + `,"name":"` + name + `"}`)
		}
		jb.WriteString("]}")
		data := []byte(strings.TrimSuffix(tb.String(), "\n"))
		var got, want any
		if err := Unmarshal(data, &got); err != nil {
			t.Fatalf("doc %d: %v\n%s", doc, err, data)
		}
		if err := json.Unmarshal([]byte(jb.String()), &want); err != nil {
			t.Fatal(err)
		}
		// The result must not share memory with the input.
		for i := range data {
			data[i] = '#'
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("doc %d: decoded value differs from encoding/json's", doc)
		}
	}
}

// quoteIfNeeded quotes the empty string, the only value the generated
// documents need quoted.
func quoteIfNeeded(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// TestDecodeAnyAllocs bounds the allocations of decoding a table into
// generic values: each row costs its map (two allocations), its number and
// its three strings boxed in interfaces (the runtime allocates a string's
// header when it boxes it), and nothing for its keys or the strings' bytes.
func TestDecodeAnyAllocs(t *testing.T) {
	const rows = 2000
	var b strings.Builder
	b.WriteString("t[" + strconv.Itoa(rows) + "]{id,name,city,code}:")
	for i := 0; i < rows; i++ {
		b.WriteString("\n  " + strconv.Itoa(i) + ",name" + strconv.Itoa(i%7) + ",city,c" + strconv.Itoa(i))
	}
	data := []byte(b.String())
	allocs := testing.AllocsPerRun(5, func() {
		var v any
		if err := Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
	})
	// Before the key cache and the string blocks, this was 13 per row.
	if perRow := allocs / rows; perRow > 6.5 {
		t.Fatalf("%.2f allocations per row, want at most 6.5", perRow)
	}
}

// TestKeyWords checks that the words read from a line's buffer are the
// key's words (keyWordsOf), for keys of every length up to 20 at the start
// of buffers of shortKey bytes and more, whatever bytes follow the key, and
// keyWordsOf against its definition.
func TestKeyWords(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 5000; round++ {
		b := make([]byte, shortKey+rng.Intn(10))
		for j := range b {
			b[j] = byte(rng.Intn(256))
		}
		n := rng.Intn(min(len(b), 20) + 1)
		k := b[:n]
		want := keyWord{lo: keyPrint(k)}
		for j := min(n, shortKey) - 1; j >= 7; j-- {
			want.hi = want.hi<<8 | uint64(k[j])
		}
		if got := keyWordsOf(k); got != want {
			t.Fatalf("keyWordsOf(%q) = %#x, want %#x", k, got, want)
		}
		if got := keyWords(mem.BytesData(b), n); got != want {
			t.Fatalf("keyWords(%q, %d) = %#x, want %#x", b, n, got, want)
		}
	}
}

// TestKeySet checks duplicate detection against a map, for sets that stay
// small (the filter and the linear search through key words) and sets that
// grow past it (the hash table), with keys that share prefixes, lengths and
// zero bytes.
func TestKeySet(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	alphabet := []byte{'a', 'b', 0, 0xff}
	var s keySet
	for round := 0; round < 300; round++ {
		s.reset()
		seen := map[string]bool{}
		var added []string
		// Up to 100 keys: a set takes up to 64 short keys new to its
		// filter (addNew) before it moves to a table.
		n := rng.Intn(100)
		for i := 0; i < n; i++ {
			// Half the keys sit in a larger buffer with other bytes after
			// them, as keys do in the decoder's line buffer.
			buf := make([]byte, 24)
			for j := range buf {
				buf[j] = alphabet[rng.Intn(len(alphabet))]
			}
			// Lengths on both sides of 8 and of shortKey, where the
			// words stop holding a key whole.
			k := buf[:rng.Intn(21)]
			if len(added) > 0 && rng.Intn(4) == 0 {
				// A key added before, long ones included, or one that
				// differs from it in its last byte only.
				k = append(buf[:0], added[rng.Intn(len(added))]...)
				if len(k) > 0 && rng.Intn(2) == 0 {
					k[len(k)-1] ^= 1
				}
			}
			added = append(added, string(k))
			if rng.Intn(2) == 0 {
				k = append([]byte(nil), k...)
			}
			if got, want := s.add(k), !seen[string(k)]; got != want {
				t.Fatalf("round %d: add(%q) = %v, want %v", round, k, got, want)
			}
			seen[string(k)] = true
		}
	}
}
