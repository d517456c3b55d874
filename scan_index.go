package kokkos

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ParallelScan with a per-index body runs in two passes over the same
// fixed blocks as scanBlocks, as Kokkos's host backends do: all chunks of
// blocks are reduced, then all are scanned. The chained scan of
// scanBlocks, where each chunk waits for the one before it, suits fast
// bodies whose input comes from memory (a chunk's second pass finds it in
// cache); a per-index body pays an indirect call per index in each pass,
// so the cache matters less than the chain's waits, which cost the most
// where a goroutine's thread is descheduled: on 2 loaded cores the chain
// ran at a quarter of one goroutine's speed, every chunk waiting for a
// thread that was not running.
//
// The goroutines take tasks from one counter: the reductions of chunks 0,
// 1, ..., nc-1, then their scans. The scan of chunk c needs the join of the
// blocks before it and its own blocks' sums, which need the reductions of
// chunks 0 to c only: those were taken nc tasks earlier, so that in practice no scan waits,
// and the one goroutine of a nested pattern runs all reductions and then
// all scans without waiting. The prefixes are folded once, in block order
// from the identity, as scanBlocks folds them, so both give the same bits.

// scanIndexChunks is the number of blocks of one chunk of scanTwoPass: a
// task of 32 Ki indices, many more tasks than goroutines.
const scanIndexChunks = 16

// scanTwoPass scans nb blocks on s and returns the join of all of them:
// run(b, acc, final) runs block b's indices in order on *acc, with final
// false for the reduction (from the identity) and true for the scan (from
// the join of the blocks before b).
func scanTwoPass[T any](s HostExecutionSpace, label string, nb int, r Reducer[T], run func(b int, acc *T, final bool)) T {
	workers := max(1, s.Concurrency())
	per := max(1, min(scanIndexChunks, nb/(4*workers)))
	nc := (nb + per - 1) / per
	sums := make([]T, nb)
	reduced := make([]atomic.Bool, nc)
	var abort atomic.Bool
	// pre[b] is the join of the blocks before b, for the blocks of the
	// chunks before front and the first block after them; both are
	// guarded by mu. A block's entry is written once, before front passes
	// its chunk.
	var (
		mu    sync.Mutex
		pre   = make([]T, nb+1)
		front int
	)
	pre[0] = r.Identity()
	// advance folds the blocks of the reduced chunks from front on, up to
	// chunk c, and reports whether the chunks before c are folded. Called
	// with mu held.
	advance := func(c int) bool {
		for front < c && reduced[front].Load() {
			for b := front * per; b < min((front+1)*per, nb); b++ {
				pre[b+1] = r.Join(pre[b], sums[b])
			}
			front++
		}
		return front >= c
	}
	// known reports whether the prefixes of chunk c's blocks are known. mu
	// is released also when a custom Join panics in advance, so that the
	// other goroutines do not wait for it forever.
	known := func(c int) bool {
		mu.Lock()
		defer mu.Unlock()
		return advance(c + 1)
	}
	// prefixes waits until the prefixes of chunk c's blocks are known,
	// that is for the reductions of chunks 0 to c; it reports false when
	// another goroutine's body panicked.
	prefixes := func(c int) bool {
		for spin := 0; ; spin++ {
			if known(c) {
				return true
			}
			if abort.Load() {
				return false
			}
			if spin >= 64 {
				runtime.Gosched()
			}
		}
	}
	var next atomic.Int64
	body := func(int, int) {
		finished := false
		defer func() {
			if !finished {
				abort.Store(true)
			}
		}()
		// One accumulator per goroutine: the blocks of one goroutine run
		// one after the other.
		acc := new(T)
		for {
			t := int(next.Add(1)) - 1
			if t >= 2*nc {
				break
			}
			c := t % nc
			b0, b1 := c*per, min((c+1)*per, nb)
			if t < nc {
				for b := b0; b < b1; b++ {
					*acc = r.Identity()
					run(b, acc, false)
					sums[b] = *acc
				}
				reduced[c].Store(true)
				continue
			}
			if !prefixes(c) {
				break
			}
			for b := b0; b < b1; b++ {
				*acc = pre[b]
				run(b, acc, true)
			}
		}
		finished = true
	}
	launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: min(workers, nc), Chunk: 1, Body: body}, true)
	mu.Lock()
	defer mu.Unlock()
	advance(nc)
	return pre[nb]
}
