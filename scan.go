package kokkos

import (
	"fmt"
	"github.com/gokkos/kokkos/internal/plan"
	"runtime"
	"sync/atomic"
)

// ParallelScan runs a prefix scan over the indices of p, Kokkos style, and
// returns the join of all contributions (the total).
//
// body(i, acc, final) adds index i's contribution to *acc. When final is
// true, *acc holds the join of the contributions of all indices before i
// (from p.Begin) on entry, and the body may store it: reading *acc before
// adding gives an exclusive scan, after adding an inclusive one.
//
//	total := kokkos.ParallelScan("offsets", kokkos.Range(0, n), kokkos.Sum[int](),
//		func(i int, acc *int, final bool) {
//			if final { offset[i] = *acc } // exclusive
//			*acc += count[i]
//		})
//
// The body may be called twice for an index, first with final false; its
// contribution must be the same both times. The scan works in the fixed
// blocks of ParallelReduce, each scanned in index order from the join of
// the blocks before it, so floating-point results are the same bit for bit
// for any number of workers and any p.Chunk (which the scan ignores). All
// blocks are reduced (final false), then all are scanned (final true), as
// Kokkos's host backends do, so that no goroutine waits for another's
// chunk before the second pass. It returns when the scan is done, also on
// an asynchronous instance. A panic in body reaches the caller as a
// *PanicError.
func ParallelScan[T any](label string, p RangePolicy, r Reducer[T], body func(i int, acc *T, final bool)) T {
	return scanRange("ParallelScan", label, p, r, body)
}

// ParallelScanChunks is ParallelScan with a body that runs the indices
// lo, ..., hi-1 in order, all with the same final, as ParallelScan's body
// would one by one. It works in the same blocks as ParallelScan, so the
// two give the same bits.
func ParallelScanChunks[T any](label string, p RangePolicy, r Reducer[T], body func(lo, hi int, acc *T, final bool)) T {
	return scanChunks("ParallelScanChunks", label, p, r, body)
}

// InclusiveScan sets dst[i] = src[p.Begin] + ... + src[i] for every index i
// of p and returns the sum of all of them. It panics, naming the label, if
// dst or src is shorter than p.End. dst may be src. It reads src once from
// memory (the second read of each piece comes from cache) and, as
// ParallelScan, gives the same bits for any number of workers.
func InclusiveScan[T Number](label string, p RangePolicy, dst, src []T) T {
	checkScanSlices("InclusiveScan", label, p, len(dst), len(src))
	return sliceScan("InclusiveScan", label, p, dst, src, true)
}

// ExclusiveScan sets dst[i] = src[p.Begin] + ... + src[i-1] (0 for
// p.Begin) for every index i of p and returns the sum of all src[i]. It
// panics, naming the label, if dst or src is shorter than p.End. dst may be
// src. It reads src once from memory and gives the same bits for any
// number of workers, as InclusiveScan.
func ExclusiveScan[T Number](label string, p RangePolicy, dst, src []T) T {
	checkScanSlices("ExclusiveScan", label, p, len(dst), len(src))
	return sliceScan("ExclusiveScan", label, p, dst, src, false)
}

// scanStart checks p for pattern and returns the host execution space to
// scan on and the number of reduceBlock blocks of p; when there are none,
// it has launched the empty scan (as the profiling tools see it), and the
// caller returns the identity.
func scanStart(pattern, label string, p RangePolicy) (HostExecutionSpace, int) {
	s := p.check(pattern, label)
	nb := (p.End - p.Begin + reduceBlock - 1) / reduceBlock
	if nb == 0 {
		launchEmpty(s, label, kindScan)
	}
	return s, nb
}

// sliceScan is InclusiveScan (inclusive true) and ExclusiveScan: the
// chained scan of scanBlocks with plain loops for the blocks.
func sliceScan[T Number](pattern, label string, p RangePolicy, dst, src []T, inclusive bool) T {
	s, nb := scanStart(pattern, label, p)
	if nb == 0 {
		return 0
	}
	chunk := scanChunkBytes
	if s.Concurrency() > scanPipeWorkers {
		chunk = scanWideChunkBytes
	}
	per := max(1, chunk/(reduceBlock*sizeOf[T]()))
	// Integer additions are associative, so integer blocks are summed and
	// scanned in four independent lanes, with the same results; floating
	// point ones in index order.
	exact := T(1)/T(2) == 0
	// Large scans store their output with non-temporal stores, as large
	// fills do: it is not read again soon, and the stores need not read
	// dst's lines first.
	stream := (p.End-p.Begin)*sizeOf[T]() >= plan.StreamFillBytes
	return scanBlocks(s, label, nb, per, Sum[T](), stream,
		func(b int) T {
			lo := p.Begin + b*reduceBlock
			if exact {
				x := src[lo:min(lo+reduceBlock, p.End)]
				acc, i := sumVector(x)
				return acc + sumExact(x[i:])
			}
			var acc T
			for _, v := range src[lo:min(lo+reduceBlock, p.End)] {
				acc += v
			}
			return acc
		},
		func(b int, acc T, ahead int) {
			lo := p.Begin + b*reduceBlock
			hi := min(lo+reduceBlock, p.End)
			sr, out := src[lo:hi], dst[lo:hi]
			out = out[:len(sr)]
			var next []T
			if ahead >= 0 {
				alo := p.Begin + ahead*reduceBlock
				next = src[alo:min(alo+reduceBlock, p.End)]
			}
			i := 0
			if exact {
				acc, i = scanVector(out, sr, acc, inclusive, stream, next)
				var j int
				acc, j = scanExact(out[i:], sr[i:], acc, inclusive)
				i += j
			}
			if inclusive {
				for ; i < len(sr); i++ {
					acc += sr[i]
					out[i] = acc
				}
			} else {
				for ; i < len(sr); i++ {
					v := sr[i]
					out[i] = acc
					acc += v
				}
			}
		})
}

// sumExact returns the sum of x in four lanes: for integers only, whose
// sums do not depend on the order.
func sumExact[T Number](x []T) T {
	var a, b, c, d T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		a += v[0]
		b += v[1]
		c += v[2]
		d += v[3]
	}
	for ; i < len(x); i++ {
		a += x[i]
	}
	return a + b + c + d
}

// scanExact scans the first multiple of four elements of s into d from acc
// (inclusive or exclusive), each group of four from its own partial sums,
// so that the chain through acc is one addition per group: for integers
// only. It returns acc after them and their number.
func scanExact[T Number](d, s []T, acc T, inclusive bool) (T, int) {
	d = d[:len(s)]
	i := 0
	for ; i+4 <= len(s); i += 4 {
		v := s[i : i+4 : i+4]
		w := d[i : i+4 : i+4]
		p1 := v[0] + v[1]
		p2 := p1 + v[2]
		p3 := p2 + v[3]
		if inclusive {
			w[0], w[1], w[2], w[3] = acc+v[0], acc+p1, acc+p2, acc+p3
		} else {
			w[0], w[1], w[2], w[3] = acc, acc+v[0], acc+p1, acc+p2
		}
		acc += p3
	}
	return acc, i
}

func checkScanSlices(pattern, label string, p RangePolicy, ndst, nsrc int) {
	if p.Begin < 0 || p.End > ndst || p.End > nsrc {
		panic(fmt.Sprintf("kokkos: %s %q: %v out of range for len(dst) = %d, len(src) = %d", pattern, label, p, ndst, nsrc))
	}
}

// scanChunkBytes is the input of one chunk of a slice scan: it stays in
// cache between the chunk's two passes. scanWideChunkBytes replaces it
// for more than scanPipeWorkers goroutines, whose chunks wait for each
// other without the pipeline: on 16 cores of the H100 host, 16M int32
// scanned at 1.06-1.30 of a parallel copy in 1 MiB chunks and at
// 0.32-0.52 in 256 KiB ones (on 2 cores 256 KiB did better: 1.00-1.14
// against 0.85-1.12).
const (
	scanChunkBytes     = 256 << 10
	scanWideChunkBytes = 1 << 20
)

// scanPipeWorkers is the most goroutines for which scanBlocks takes a
// goroutine's next chunk before it scans its current one.
const scanPipeWorkers = 4

// scanBodyBlocks is the number of blocks of one chunk of ParallelScan:
// each chunk waits for the one before it, and with a fast body (a Go
// kernel's) 8 blocks made that chain the limit on 16 cores (0.41–0.50 of a
// copy, against 1.55–1.84 with 16 and 1.76–1.88 with 32).
const scanBodyBlocks = 16

// scanRange is ParallelScan: the blocks of scanChunks with a body per
// index, in the two passes of scanTwoPass.
func scanRange[T any](pattern, label string, p RangePolicy, r Reducer[T], body func(i int, acc *T, final bool)) T {
	s, nb := scanStart(pattern, label, p)
	if nb == 0 {
		return r.Identity()
	}
	return scanTwoPass(s, label, nb, r, func(b int, acc *T, final bool) {
		lo := p.Begin + b*reduceBlock
		for i, hi := lo, min(lo+reduceBlock, p.End); i < hi; i++ {
			body(i, acc, final)
		}
	})
}

// scanChunks is ParallelScanChunks: scanBlocks over the blocks of p, each
// block reduced with final false and scanned with final true.
func scanChunks[T any](pattern, label string, p RangePolicy, r Reducer[T], body func(lo, hi int, acc *T, final bool)) T {
	s, nb := scanStart(pattern, label, p)
	if nb == 0 {
		return r.Identity()
	}
	// A new accumulator for each block: the chunks of different
	// goroutines overlap in time.
	return scanBlocks(s, label, nb, scanBodyBlocks, r, false,
		func(b int) T {
			a := new(T)
			*a = r.Identity()
			lo := p.Begin + b*reduceBlock
			body(lo, min(lo+reduceBlock, p.End), a, false)
			return *a
		},
		func(b int, pre T, _ int) {
			a := new(T)
			*a = pre
			lo := p.Begin + b*reduceBlock
			body(lo, min(lo+reduceBlock, p.End), a, true)
		})
}

// scanBlocks scans nb fixed blocks in one parallel pattern on s and returns
// the join of all of them. reduce(b) returns block b's join from the
// identity; scan(b, pre, ahead) scans block b from pre, the join of the
// blocks before it, and may prefetch the input of block ahead (none if
// negative), which the goroutine reduces after it. streamed says that scan
// stores with non-temporal stores: each chunk fences them when its blocks
// are scanned.
//
// The blocks are grouped in chunks of per blocks, which the goroutines
// take in increasing order from a counter of their own. A chunk is
// reduced, waits for the join of all blocks before it (published by the
// chunk before), publishes its own end, and is scanned; its input is read
// from memory once, the scan finding it in cache. With at most
// scanPipeWorkers goroutines the work is pipelined: a goroutine takes its
// next chunk before it scans its current one, and
// the scan of the current chunk's block k prefetches the next chunk's
// block k, so that the next chunk's reads from memory overlap the current
// chunk's computation and writes, as they do in a copy; the next chunk is
// reduced, from cache, once the current one is scanned. Block b's prefix
// is the join, in block order from the identity, of the blocks before it,
// whatever the number of goroutines, so results are reproducible bit for
// bit. A goroutine only waits for the prefix of its current chunk, which
// depends on lower chunks only, all taken and being reduced or scanned
// without waiting; a panic in a chunk releases the waiters. A chunk's two
// passes run on the goroutine that took it.
func scanBlocks[T any](s HostExecutionSpace, label string, nb, per int, r Reducer[T], streamed bool, reduce func(b int) T, scan func(b int, pre T, ahead int)) T {
	workers := max(1, s.Concurrency())
	// Enough chunks for the goroutines to share.
	per = max(1, min(per, nb/(4*workers)))
	nc := (nb + per - 1) / per
	carry := make([]T, nc+1)
	ready := make([]atomic.Bool, nc+1)
	carry[0] = r.Identity()
	ready[0].Store(true)
	var next atomic.Int64
	var abort atomic.Bool
	// Few goroutines take their next chunk before they scan the current one,
	// so that each core's reads overlap its writes; many take it after, so
	// that each chunk's prefix is published as early as it can be (on 16
	// cores the look-ahead ran at 0.6 of the plain order, on 2 at 1.25).
	pipelined := workers <= scanPipeWorkers
	// take claims the next chunk and returns it and its blocks [b0, b1),
	// empty past the last chunk.
	take := func() (c, b0, b1 int) {
		c = int(next.Add(1)) - 1
		if c >= nc {
			return nc, nb, nb
		}
		return c, c * per, min((c+1)*per, nb)
	}
	body := func(int, int) {
		done := false
		defer func() {
			if !done {
				abort.Store(true)
			}
		}()
		sums, ahead := make([]T, per), make([]T, per)
		c, b0, b1 := take()
		for b := b0; b < b1; b++ {
			sums[b-b0] = reduce(b)
		}
		for c < nc {
			for spin := 0; !ready[c].Load(); spin++ {
				if abort.Load() {
					done = true
					return
				}
				if spin >= 64 {
					runtime.Gosched()
				}
			}
			pre := carry[c]
			end := pre
			for b := b0; b < b1; b++ {
				end = r.Join(end, sums[b-b0])
			}
			carry[c+1] = end
			ready[c+1].Store(true)
			var n, n0, n1 int
			if pipelined {
				n, n0, n1 = take()
			}
			for b := b0; b < b1; b++ {
				a := n0 + b - b0
				if !pipelined || a >= n1 {
					a = -1
				}
				scan(b, pre, a)
				pre = r.Join(pre, sums[b-b0])
			}
			if streamed {
				plan.StoreFence()
			}
			if !pipelined {
				n, n0, n1 = take()
			}
			for b := n0; b < n1; b++ {
				ahead[b-n0] = reduce(b)
			}
			c, b0, b1 = n, n0, n1
			sums, ahead = ahead, sums
		}
		done = true
	}
	launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: min(workers, nc), Chunk: 1, Body: body}, true)
	return carry[nc]
}
