package dal_test

import (
	"testing"
	"time"

	"github.com/gokkos/kokkos/dal"
)

var sink float64

// BenchmarkAt sums an array through At and reports the time per element
// relative to the same loop over a plain slice.
func BenchmarkAt(b *testing.B) {
	const n = 1 << 14
	data := randFloat64(n)
	a := dal.Wrap(data)
	sumSlice := func() (s float64) {
		for _, x := range data {
			s += x
		}
		return s
	}
	sumAt := func() (s float64) {
		for i := range a.Count() {
			s += a.At(i)
		}
		return s
	}
	for b.Loop() {
		sink = sumAt()
	}
	at := b.Elapsed()
	start := time.Now()
	for range b.N {
		sink = sumSlice()
	}
	b.ReportMetric(float64(at)/float64(time.Since(start)), "x-slice")
}
