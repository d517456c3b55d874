//go:build longtest

package kokkos

import (
	"sync"
	"testing"
)

// BenchmarkAtomic16Add times Ref(i).Add on a complex128 Atomic view against
// an add under a sync.Mutex (one per element, so that the comparison is
// with the simplest correct alternative), in one run: uncontended, one
// update per element of a cache-resident view, and contended, every
// goroutine adding to one element. "cx16" is the LOCK CMPXCHG16B path,
// "locks" the lock table (forced).
func BenchmarkAtomic16Add(b *testing.B) {
	const n = 1024
	type locked struct {
		mu sync.Mutex
		c  complex128
	}
	ref := func(b *testing.B) {
		v := Must(NewView1[complex128]("ref", n, WithTraits(Atomic)))
		for b.Loop() {
			for i := range n {
				v.Ref(i).Add(0.5 + 0.25i)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/add")
	}
	refContended := func(b *testing.B) {
		v := Must(NewView1[complex128]("ref", 1, WithTraits(Atomic)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				v.Ref(0).Add(0.5 + 0.25i)
			}
		})
	}
	b.Run("cx16", func(b *testing.B) {
		if !cx16 {
			b.Skip("no CMPXCHG16B path in this build")
		}
		b.Run("uncontended", ref)
		b.Run("contended", refContended)
	})
	b.Run("locks", func(b *testing.B) {
		forceLocks16(b)
		b.Run("uncontended", ref)
		b.Run("contended", refContended)
	})
	b.Run("mutex", func(b *testing.B) {
		b.Run("uncontended", func(b *testing.B) {
			s := make([]locked, n)
			for b.Loop() {
				for i := range s {
					s[i].mu.Lock()
					s[i].c += 0.5 + 0.25i
					s[i].mu.Unlock()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/add")
		})
		b.Run("contended", func(b *testing.B) {
			var s locked
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					s.mu.Lock()
					s.c += 0.5 + 0.25i
					s.mu.Unlock()
				}
			})
		})
	})
}
