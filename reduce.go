package kokkos

import (
	"cmp"
	"math"
	"unsafe"
)

// A Reducer says how ParallelReduce and ParallelScan combine values of type
// T: Identity returns the neutral value each partial result starts from,
// and Join combines two partial results, the one from lower indices first.
// Join must be associative for the result to mean anything; it need not be
// commutative. T should be a value type (numbers, structs, arrays): partial
// results are copied.
//
// The built-in reducers are Sum, Prod, Min, Max, MinLoc, MaxLoc, LAnd, LOr,
// BAnd and BOr. A custom reducer is a struct literal:
//
//	absMax := kokkos.Reducer[float64]{
//		Identity: func() float64 { return 0 },
//		Join:     func(a, b float64) float64 { return max(a, b) },
//	}
type Reducer[T any] struct {
	Identity func() T
	Join     func(a, b T) T
}

// Sum adds: identity 0.
func Sum[T Number]() Reducer[T] {
	return Reducer[T]{Identity: zero[T], Join: func(a, b T) T { return a + b }}
}

// Prod multiplies: identity 1.
func Prod[T Number]() Reducer[T] {
	return Reducer[T]{Identity: func() T { return 1 }, Join: func(a, b T) T { return a * b }}
}

// Min keeps the least value: identity the greatest value of T (+Inf for
// floating point). NaNs are not ordered: a NaN in the data gives an
// unspecified result.
func Min[T Number]() Reducer[T] {
	return Reducer[T]{Identity: greatest[T], Join: func(a, b T) T {
		if b < a {
			return b
		}
		return a
	}}
}

// Max keeps the greatest value: identity the least value of T (-Inf for
// floating point).
func Max[T Number]() Reducer[T] {
	return Reducer[T]{Identity: least[T], Join: func(a, b T) T {
		if b > a {
			return b
		}
		return a
	}}
}

// A ValLoc is a value and where it was found, the result of MinLoc and
// MaxLoc. L is the location's type: int for a RangePolicy, [2]int for a
// rank-2 MDRangePolicy, or anything the body records.
type ValLoc[T cmp.Ordered, L any] struct {
	Val T
	Loc L
}

// MinLoc keeps the least value and its location; among equal values the
// first in the decomposition order wins, which for a RangePolicy is the
// lowest index. The identity's Val is the greatest value of T (+Inf), its
// Loc the zero L. The body updates the accumulator itself:
//
//	if x[i] < acc.Val { *acc = kokkos.ValLoc[float64, int]{x[i], i} }
func MinLoc[T Number, L any]() Reducer[ValLoc[T, L]] {
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return ValLoc[T, L]{Val: greatest[T]()} },
		Join: func(a, b ValLoc[T, L]) ValLoc[T, L] {
			if b.Val < a.Val {
				return b
			}
			return a
		},
	}
}

// MaxLoc keeps the greatest value and its location, the first among equals
// as MinLoc does.
func MaxLoc[T Number, L any]() Reducer[ValLoc[T, L]] {
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return ValLoc[T, L]{Val: least[T]()} },
		Join: func(a, b ValLoc[T, L]) ValLoc[T, L] {
			if b.Val > a.Val {
				return b
			}
			return a
		},
	}
}

// LAnd is logical and: identity true.
func LAnd() Reducer[bool] {
	return Reducer[bool]{Identity: func() bool { return true }, Join: func(a, b bool) bool { return a && b }}
}

// LOr is logical or: identity false.
func LOr() Reducer[bool] {
	return Reducer[bool]{Identity: zero[bool], Join: func(a, b bool) bool { return a || b }}
}

// BAnd is bitwise and: identity all ones.
func BAnd[T Integer]() Reducer[T] {
	return Reducer[T]{Identity: func() T { return ^T(0) }, Join: func(a, b T) T { return a & b }}
}

// BOr is bitwise or: identity 0.
func BOr[T Integer]() Reducer[T] {
	return Reducer[T]{Identity: zero[T], Join: func(a, b T) T { return a | b }}
}

func zero[T any]() T {
	var z T
	return z
}

func isFloat[T Number]() bool { return T(1)/T(2) != 0 }

func isSigned[T Number]() bool {
	var z T
	return z-1 < 0
}

// greatest returns the greatest value of T: +Inf for floating point.
func greatest[T Number]() T {
	if isFloat[T]() {
		return T(math.Inf(1))
	}
	bits := 8 * unsafe.Sizeof(T(0))
	if isSigned[T]() {
		return T(uint64(1)<<(bits-1) - 1)
	}
	return T(uint64(math.MaxUint64) >> (64 - bits))
}

// least returns the least value of T: -Inf for floating point.
func least[T Number]() T {
	if isFloat[T]() {
		return T(math.Inf(-1))
	}
	if isSigned[T]() {
		return -greatest[T]() - 1
	}
	return 0
}

// reduceBlock is the largest number of indices in one block of a
// one-dimensional reduction, and the block of a scan. Blocks start at the
// policy's Begin; each is reduced in index order from the identity, and
// the block results are joined in a fixed pairwise tree (see combine).
// The block size depends on the length of the range alone (see
// reduceBlockSize): neither the number of goroutines nor the chunk size
// changes the decomposition, so floating-point results are reproducible
// bit for bit.
const reduceBlock = 2048

// reduceMinBlocks is the number of blocks a range shorter than
// reduceMinBlocks*reduceBlock indices is cut into (or one block per index
// when it is shorter still), so that a short range whose body is
// expensive still spreads over the goroutines.
const reduceMinBlocks = 64

// reduceBlockSize returns the block size of a reduction over n indices:
// reduceBlock, or less for short ranges, so that there are at least
// reduceMinBlocks blocks (one index each for n <= reduceMinBlocks).
func reduceBlockSize(n int) int {
	return min(reduceBlock, max(1, (n+reduceMinBlocks-1)/reduceMinBlocks))
}

// ParallelReduce calls body(i, acc) for every index i of p and returns the
// join of all contributions by r. The body adds index i's contribution to
// *acc, which starts at r.Identity() for each block of indices:
//
//	sum := kokkos.ParallelReduce("dot", kokkos.Range(0, n), kokkos.Sum[float64](),
//		func(i int, acc *float64) { *acc += x[i] * y[i] })
//
// The result is the same, bit for bit, for every execution space, number of
// goroutines and chunk size: the blocks depend on the range alone (see
// reduceBlock). A range of a few indices is still cut into one block per
// index, so an expensive body spreads over the goroutines; p.Chunk, when
// set, is the number of indices a goroutine takes at a time (rounded up to
// whole blocks). It returns when the result
// is ready, also on an asynchronous instance, where it first waits for the
// instance's earlier work. A panic in body reaches the caller as a
// *PanicError with the label. An empty range gives r.Identity().
func ParallelReduce[T any](label string, p RangePolicy, r Reducer[T], body func(i int, acc *T)) T {
	return reduceRange("ParallelReduce", label, p, r, func(lo, hi int, acc *T) {
		for i := lo; i < hi; i++ {
			body(i, acc)
		}
	})
}

// ParallelReduceChunks is ParallelReduce with a body that handles a chunk
// [lo, hi) of indices at a time, in its own loop, for plain-Go speed. The
// chunks are the fixed blocks of the range (2048 indices, fewer for ranges
// under 131072 indices, which are cut into 64 blocks or one per index), so
// a body that runs its chunk in index order gives reproducible results:
//
//	func(lo, hi int, acc *float64) {
//		s := *acc
//		for i := lo; i < hi; i++ { s += x[i] * y[i] }
//		*acc = s
//	}
func ParallelReduceChunks[T any](label string, p RangePolicy, r Reducer[T], body func(lo, hi int, acc *T)) T {
	return reduceRange("ParallelReduceChunks", label, p, r, body)
}

func reduceRange[T any](pattern, label string, p RangePolicy, r Reducer[T], body func(lo, hi int, acc *T)) T {
	s := p.check(pattern, label)
	n := p.End - p.Begin
	bs := reduceBlockSize(n)
	nb := (n + bs - 1) / bs
	if nb == 0 {
		return r.Identity()
	}
	partial := make([]T, nb)
	chunk := defaultChunk(nb, (p.Chunk+bs-1)/bs, s)
	launch(s, dispatch{
		Label: label, Kind: kindReduce, Begin: 0, End: nb, Chunk: chunk,
		Body: func(blo, bhi int) {
			acc := new(T)
			for b := blo; b < bhi; b++ {
				*acc = r.Identity()
				lo := p.Begin + b*bs
				body(lo, min(lo+bs, p.End), acc)
				partial[b] = *acc
			}
		},
	}, true)
	return combine(r.Join, partial)
}

// combine joins v in a fixed pairwise tree: neighbours at distance 1, then
// 2, 4, ..., always the lower-index value first. It overwrites v.
func combine[T any](join func(a, b T) T, v []T) T {
	for s := 1; s < len(v); s *= 2 {
		for i := 0; i+s < len(v); i += 2 * s {
			v[i] = join(v[i], v[i+s])
		}
	}
	return v[0]
}
