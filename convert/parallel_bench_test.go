package convert

import (
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkToJSONParallel converts a table of about 32 MB with one worker
// (the serial path) and with two.
func BenchmarkToJSONParallel(b *testing.B) {
	data := parallelDoc(rand.New(rand.NewPCG(19, 6)), 32<<20, true, ',')
	for _, w := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				if err := ToJSONBytes(io.Discard, data, withWorkers(w)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
