package kokkos

import "fmt"

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
// blocks of ParallelReduce, so floating-point results are reproducible bit
// for bit. It returns when the scan is done, also on an asynchronous
// instance. A panic in body reaches the caller as a *PanicError.
func ParallelScan[T any](label string, p RangePolicy, r Reducer[T], body func(i int, acc *T, final bool)) T {
	return scanRange("ParallelScan", label, p, r, body)
}

// InclusiveScan sets dst[i] = src[p.Begin] + ... + src[i] for every index i
// of p and returns the sum of all of them. It panics, naming the label, if
// dst or src is shorter than p.End.
func InclusiveScan[T Number](label string, p RangePolicy, dst, src []T) T {
	checkScanSlices("InclusiveScan", label, p, len(dst), len(src))
	return scanRange("InclusiveScan", label, p, Sum[T](), func(i int, acc *T, final bool) {
		*acc += src[i]
		if final {
			dst[i] = *acc
		}
	})
}

// ExclusiveScan sets dst[i] = src[p.Begin] + ... + src[i-1] (0 for
// p.Begin) for every index i of p and returns the sum of all src[i]. It
// panics, naming the label, if dst or src is shorter than p.End.
func ExclusiveScan[T Number](label string, p RangePolicy, dst, src []T) T {
	checkScanSlices("ExclusiveScan", label, p, len(dst), len(src))
	return scanRange("ExclusiveScan", label, p, Sum[T](), func(i int, acc *T, final bool) {
		v := src[i]
		if final {
			dst[i] = *acc
		}
		*acc += v
	})
}

func checkScanSlices(pattern, label string, p RangePolicy, ndst, nsrc int) {
	if p.Begin < 0 || p.End > ndst || p.End > nsrc {
		panic(fmt.Sprintf("kokkos: %s %q: %v out of range for len(dst) = %d, len(src) = %d", pattern, label, p, ndst, nsrc))
	}
}

// scanRange is a two-pass scan over fixed blocks: the first pass reduces
// each block, a serial pass turns the block results into block prefixes,
// and the second pass reruns each block from its prefix with final set. A
// range of one block needs one pass.
func scanRange[T any](pattern, label string, p RangePolicy, r Reducer[T], body func(i int, acc *T, final bool)) T {
	s := p.check(pattern, label)
	n := p.End - p.Begin
	nb := (n + reduceBlock - 1) / reduceBlock
	if nb == 0 {
		return r.Identity()
	}
	prefix := make([]T, nb+1)
	chunk := defaultChunk(nb, (p.Chunk+reduceBlock-1)/reduceBlock, s)
	pass := func(final bool) func(blo, bhi int) {
		return func(blo, bhi int) {
			acc := new(T)
			for b := blo; b < bhi; b++ {
				if final {
					*acc = prefix[b]
				} else {
					*acc = r.Identity()
				}
				lo := p.Begin + b*reduceBlock
				for i := lo; i < min(lo+reduceBlock, p.End); i++ {
					body(i, acc, final)
				}
				if !final {
					prefix[b+1] = *acc
				}
			}
		}
	}
	prefix[0] = r.Identity()
	if nb == 1 {
		launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: 1, Chunk: 1,
			Body: func(int, int) {
				acc := new(T)
				*acc = prefix[0]
				for i := p.Begin; i < p.End; i++ {
					body(i, acc, true)
				}
				prefix[1] = *acc
			}}, true)
		return prefix[1]
	}
	launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: nb, Chunk: chunk, Body: pass(false)}, true)
	for b := 1; b <= nb; b++ {
		prefix[b] = r.Join(prefix[b-1], prefix[b])
	}
	launch(s, dispatch{Label: label, Kind: kindScan, Begin: 0, End: nb, Chunk: chunk, Body: pass(true)}, true)
	return prefix[nb]
}
