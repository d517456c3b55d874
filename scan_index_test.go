package kokkos

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// span is the value of spanReducer: the indices [Lo, Hi) a partial result
// covers, Lo -1 for none.
type span struct{ Lo, Hi int }

// spanReducer joins only adjacent spans, the lower first, and reports any
// other join: a scan whose prefixes are out of order, missing a block or
// counting one twice fails it.
func spanReducer(t *testing.T, bad *atomic.Int64) Reducer[span] {
	return Reducer[span]{
		Identity: func() span { return span{-1, -1} },
		Join: func(a, b span) span {
			switch {
			case a.Lo < 0:
				return b
			case b.Lo < 0:
				return a
			case a.Hi != b.Lo:
				if bad.Add(1) == 1 {
					t.Errorf("join of %v and %v", a, b)
				}
			}
			return span{a.Lo, b.Hi}
		},
	}
}

// TestScanIndexOrder: ParallelScan's prefixes are the joins, in order, of
// exactly the indices before each one, for several worker counts and
// lengths around the chunk sizes, while random indices hold their
// goroutine for a while (as a descheduled thread would), so that chunks
// are reduced and scanned out of order.
func TestScanIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, workers := range []int{1, 2, 3, 7} {
		s := NewThreads(workers)
		for _, n := range []int{1, 2047, 2049, 16 * reduceBlock, 40*reduceBlock + 5, 300 * reduceBlock} {
			begin := min(5, n)
			slow := map[int]bool{}
			for range 8 {
				slow[begin+rng.IntN(n-begin+1)] = true
			}
			var bad atomic.Int64
			got := make([]span, n)
			total := ParallelScan("order", Range(begin, n).On(s), spanReducer(t, &bad), func(i int, acc *span, final bool) {
				if slow[i] {
					time.Sleep(time.Millisecond)
				}
				switch {
				case acc.Lo < 0:
					*acc = span{i, i + 1}
				case acc.Hi != i:
					if bad.Add(1) == 1 {
						t.Errorf("index %d (final %v) on %v", i, final, *acc)
					}
				default:
					acc.Hi = i + 1
				}
				if final {
					got[i] = *acc
				}
			})
			if bad.Load() != 0 {
				t.Fatalf("workers %d n %d: %d bad joins or updates", workers, n, bad.Load())
			}
			if want := (span{begin, n}); begin == n && total.Lo >= 0 || begin < n && total != want {
				t.Fatalf("workers %d n %d: total %v, want %v", workers, n, total, want)
			}
			for i := begin; i < n; i++ {
				if got[i] != (span{begin, i + 1}) {
					t.Fatalf("workers %d n %d: [%d] = %v, want %v", workers, n, i, got[i], span{begin, i + 1})
				}
			}
		}
		s.Close()
	}
}

// TestScanIndexJoinPanics: a panic in the reducer's Join, which the scan
// calls while it holds its lock, reaches the caller as a *PanicError and
// leaves no goroutine waiting, for every worker count.
func TestScanIndexJoinPanics(t *testing.T) {
	n := 200 * reduceBlock
	for _, workers := range []int{1, 2, 3, 7} {
		s := NewThreads(workers)
		for _, at := range []int64{1, 5, 60} {
			var joins atomic.Int64
			r := Reducer[int]{
				Identity: func() int { return 0 },
				Join: func(a, b int) int {
					if joins.Add(1) == at {
						panic(fmt.Sprint("join ", at))
					}
					return a + b
				},
			}
			done := make(chan any, 1)
			go func() {
				done <- catchPanic(func() {
					ParallelScan("join", Range(0, n).On(s), r, func(i int, acc *int, final bool) { *acc += i })
				})
			}()
			select {
			case p := <-done:
				if pe, ok := p.(*PanicError); !ok || pe.Label != "join" || pe.Value != fmt.Sprint("join ", at) {
					t.Fatalf("workers %d, join %d: panic %v, want a *PanicError from Join", workers, at, p)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("workers %d: a panic in Join hung the scan", workers)
			}
			// The instance runs the next pattern whole.
			if got := ParallelScan("after", Range(0, n).On(s), Sum[int](), func(i int, acc *int, final bool) { *acc += 1 }); got != n {
				t.Fatalf("workers %d: after the panic, total %d, want %d", workers, got, n)
			}
		}
		s.Close()
	}
}
