package kokkos

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// ParallelScan with a per-index body works in chunks of fixed blocks, as
// scanBlocks does, but no goroutine ever waits for another while chunks
// are left. The goroutines take chunks in order from one counter and
// reduce each (final false). A chunk whose prefix (the join of all blocks
// before it) is known once it is reduced, because every chunk before it is
// reduced, is scanned (final true) at once by the goroutine that reduced
// it, whose caches still hold what the reduction read; a chunk whose
// prefix is not known yet is left, and the goroutine takes the next one.
// Left chunks are scanned, lowest first, by the first goroutine free once
// their prefix is known, before it takes a new chunk. Only when every chunk
// is taken does a goroutine wait, for chunks still being reduced.
//
// So on a quiet machine each chunk's two passes run back to back on one
// goroutine, the second from cache, as in the chained scan of scanBlocks;
// and where a goroutine's thread is descheduled in the middle of a chunk
// (on loaded cores), the others go on reducing the chunks after it, as in
// a scan that reduces all blocks before it scans any, instead of waiting
// for it. (The chained scan, where each chunk waits for the one before it,
// ran at a quarter of one goroutine's speed on 2 loaded cores.) The
// prefixes are folded in block order from the identity, as scanBlocks
// folds them, so both give the same bits for any number of goroutines.

// scanIndexChunks is the number of blocks of one chunk of scanTwoPass (32
// Ki indices): what the reduction of a chunk reads stays in a core's
// caches for its scan (128 KiB of int32 input).
const scanIndexChunks = 16

// The states of a chunk of scanTwoPass.
const (
	scanFree     uint8 = iota // not taken
	scanReducing              // being reduced
	scanReduced               // reduced; its prefix is not known yet
	scanReady                 // reduced, its prefix known: to be scanned
	scanTaken                 // being scanned, or scanned
)

// scanTwoPass scans nb blocks on s and returns the join of all of them:
// run(b, acc, final) runs block b's indices in order on *acc, with final
// false for the reduction (from the identity) and true for the scan (from
// the join of the blocks before b).
func scanTwoPass[T any](s HostExecutionSpace, label string, nb int, r Reducer[T], run func(b int, acc *T, final bool)) T {
	workers := max(1, s.Concurrency())
	per := max(1, min(scanIndexChunks, nb/(4*workers)))
	nc := (nb + per - 1) / per
	sums := make([]T, nb)
	// The chunks' states and the fold, guarded by mu. front is the first
	// chunk not yet reduced (or reduced by a goroutine that has not yet
	// said so): fold is the join of the blocks of the chunks before it, and
	// pre[c] the prefix of each chunk c before it. low is a chunk before
	// which none is scanReady. reduced counts the chunks in scanReduced and
	// scanReady. changed is bumped whenever a waiting goroutine may find
	// work: front moved, or a body panicked (aborted).
	var (
		mu      sync.Mutex
		state   = make([]uint8, nc)
		pre     = make([]T, nc)
		next    int
		front   int
		low     int
		reduced int
		fold    = r.Identity()
		aborted atomic.Bool
		changed atomic.Uint64
	)
	// advance moves front past the reduced chunks at it, each getting its
	// prefix and becoming ready. Called with mu held.
	advance := func() {
		for front < nc && state[front] == scanReduced {
			pre[front] = fold
			state[front] = scanReady
			for b := front * per; b < min((front+1)*per, nb); b++ {
				fold = r.Join(fold, sums[b])
			}
			front++
		}
	}
	body := func(int, int) {
		// held: this goroutine holds mu (a custom Join may panic under it).
		finished, held := false, false
		defer func() {
			if !finished {
				aborted.Store(true)
				changed.Add(1)
				if held {
					mu.Unlock()
				}
			}
		}()
		lock := func() { mu.Lock(); held = true }
		unlock := func() { held = false; mu.Unlock() }
		// One accumulator per goroutine: its chunks run one after the
		// other.
		acc := new(T)
		scan := func(c int, p T) {
			for b := c * per; b < min((c+1)*per, nb); b++ {
				*acc = p
				run(b, acc, true)
				p = r.Join(p, sums[b])
			}
		}
		lock()
		for !aborted.Load() {
			for low < front && state[low] != scanReady {
				low++
			}
			if low < front {
				// A left chunk whose prefix is known.
				c := low
				state[c] = scanTaken
				reduced--
				p := pre[c]
				unlock()
				scan(c, p)
				lock()
				continue
			}
			if next == nc {
				if reduced == 0 {
					// Nothing is left to this goroutine: every chunk is
					// scanned, being scanned, or being reduced by a
					// goroutine that will see to it.
					break
				}
				// Wait for a chunk before the left ones to be reduced.
				v := changed.Load()
				unlock()
				for spin := 0; changed.Load() == v; spin++ {
					if spin >= 64 {
						runtime.Gosched()
					}
				}
				lock()
				continue
			}
			c := next
			next++
			state[c] = scanReducing
			unlock()
			for b := c * per; b < min((c+1)*per, nb); b++ {
				*acc = r.Identity()
				run(b, acc, false)
				sums[b] = *acc
			}
			lock()
			state[c] = scanReduced
			reduced++
			if front != c {
				continue
			}
			// Every chunk before c is reduced: scan it now, from cache.
			p := fold
			advance()
			state[c] = scanTaken
			reduced--
			changed.Add(1)
			unlock()
			scan(c, p)
			lock()
		}
		unlock()
		finished = true
	}
	launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: min(workers, nc), Chunk: 1, Body: body}, true)
	mu.Lock()
	defer mu.Unlock()
	return fold
}

// scanIndex calls body(i, acc, final) for i from lo to hi-1: the loop of
// ParallelScan's blocks, a function of its own, not inlined, so that after
// each call only its own five values are loaded again.
//
//go:noinline
func scanIndex[T any](body func(i int, acc *T, final bool), lo, hi int, acc *T, final bool) {
	for i := lo; i < hi; i++ {
		body(i, acc, final)
	}
}
