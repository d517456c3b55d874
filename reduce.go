package kokkos

import (
	"cmp"
	"math"
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// A Reducer says how ParallelReduce and ParallelScan combine values of type
// T: Identity returns the neutral value each partial result starts from,
// and Join combines two partial results, the one from lower indices first.
// Join must be associative for the result to mean anything; it need not be
// commutative. T should be a value type (numbers, structs, arrays): partial
// results are copied.
//
// The built-in reducers are Sum, Prod, Min, Max, MinMax, LAnd, LOr, BAnd,
// BOr and the location reducers MinLoc, MaxLoc, MinMaxLoc, MinFirstLoc,
// MaxFirstLoc and MinMaxFirstLastLoc (the last three also with a custom
// comparator). A custom reducer is a struct literal:
//
//	absMax := kokkos.Reducer[float64]{
//		Identity: func() float64 { return 0 },
//		Join:     func(a, b float64) float64 { return max(a, b) },
//	}
type Reducer[T any] struct {
	Identity func() T
	Join     func(a, b T) T
	builtin  backend.ReduceOp // the constructor's join; 0 for a custom reducer
}

// Builtin returns the join of r as a device backend runs it when r was
// made by one of Sum, Prod, Min, Max, LAnd, LOr, BAnd and BOr, and 0
// otherwise (a custom or a location reducer, which runs on the host only).
func (r Reducer[T]) Builtin() backend.ReduceOp { return r.builtin }

// Sum adds: identity 0.
func Sum[T Number]() Reducer[T] {
	return Reducer[T]{Identity: zero[T], Join: func(a, b T) T { return a + b }, builtin: backend.ReduceSum}
}

// Prod multiplies: identity 1.
func Prod[T Number]() Reducer[T] {
	return Reducer[T]{Identity: func() T { return 1 }, Join: func(a, b T) T { return a * b }, builtin: backend.ReduceProd}
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
	}, builtin: backend.ReduceMin}
}

// Max keeps the greatest value: identity the least value of T (-Inf for
// floating point).
func Max[T Number]() Reducer[T] {
	return Reducer[T]{Identity: least[T], Join: func(a, b T) T {
		if b > a {
			return b
		}
		return a
	}, builtin: backend.ReduceMax}
}

// A ValLoc is a value and where it was found, the result of MinLoc,
// MaxLoc, MinFirstLoc and MaxFirstLoc (Kokkos's ValLocScalar). L is the
// location's type: int for a RangePolicy, [2]int for a rank-2
// MDRangePolicy, or anything the body records.
type ValLoc[T cmp.Ordered, L any] struct {
	Val T
	Loc L
}

// A MinMaxVal is the least and the greatest value, the result of MinMax
// (Kokkos's MinMaxScalar).
type MinMaxVal[T cmp.Ordered] struct {
	MinVal, MaxVal T
}

// A MinMaxValLoc is the least and the greatest value and their locations,
// the result of MinMaxLoc and MinMaxFirstLastLoc (Kokkos's
// MinMaxLocScalar).
type MinMaxValLoc[T cmp.Ordered, L any] struct {
	MinVal, MaxVal T
	MinLoc, MaxLoc L
}

// MinLoc keeps the least value and its location. The identity's Val is
// the greatest value of T (+Inf), its Loc the greatest value of L when L
// is an integer type (as Kokkos's reduction_identity), and the zero L
// otherwise. The body updates the accumulator itself:
//
//	if x[i] < acc.Val { *acc = kokkos.ValLoc[float64, int]{x[i], i} }
//
// Join keeps the lower-index partial result unless the other's value is
// less, as Kokkos's MinLoc does; of equal values it takes the other's
// location only when the kept one still has the identity's. With a body
// that compares with <, a RangePolicy thus gives the lowest index of the
// least value, for every number of goroutines. (MinFirstLoc gives the
// lowest location whatever the body and the decomposition.) A NaN value
// is never less than another: once in a partial result it stays, and a
// NaN from a later partial result is dropped.
func MinLoc[T Number, L comparable]() Reducer[ValLoc[T, L]] {
	id := ValLoc[T, L]{Val: greatest[T](), Loc: locIdentity[L]()}
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return id },
		Join:     func(a, b ValLoc[T, L]) ValLoc[T, L] { return joinLoc(a, b, less[T], id.Loc) },
	}
}

// MaxLoc keeps the greatest value and its location, as MinLoc does the
// least: the identity's Val is the least value of T (-Inf).
func MaxLoc[T Number, L comparable]() Reducer[ValLoc[T, L]] {
	id := ValLoc[T, L]{Val: least[T](), Loc: locIdentity[L]()}
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return id },
		Join:     func(a, b ValLoc[T, L]) ValLoc[T, L] { return joinLoc(a, b, greater[T], id.Loc) },
	}
}

// MinMax keeps the least and the greatest value: identity {greatest value
// of T, least value of T} (+Inf, -Inf for floating point). The body
// updates both:
//
//	acc.MinVal = min(acc.MinVal, x[i]); acc.MaxVal = max(acc.MaxVal, x[i])
//
// Join takes the other partial result's value only when it is less
// (greater), so a NaN never replaces a value, as in Min and Max.
func MinMax[T Number]() Reducer[MinMaxVal[T]] {
	return Reducer[MinMaxVal[T]]{
		Identity: func() MinMaxVal[T] { return MinMaxVal[T]{MinVal: greatest[T](), MaxVal: least[T]()} },
		Join: func(a, b MinMaxVal[T]) MinMaxVal[T] {
			if b.MinVal < a.MinVal {
				a.MinVal = b.MinVal
			}
			if b.MaxVal > a.MaxVal {
				a.MaxVal = b.MaxVal
			}
			return a
		},
	}
}

// MinMaxLoc is MinLoc and MaxLoc at once: it keeps the least and the
// greatest value and their locations, joined as MinLoc and MaxLoc join.
func MinMaxLoc[T Number, L comparable]() Reducer[MinMaxValLoc[T, L]] {
	return pairReducer(MinLoc[T, L](), MaxLoc[T, L]())
}

// MinFirstLoc keeps the least value and, of the locations that hold it,
// the least (Kokkos's MinFirstLoc): Join resolves ties between partial
// results by location, not by their order, so a body that does the same
//
//	if x[i] < acc.Val || x[i] == acc.Val && i < acc.Loc { *acc = kokkos.ValLoc[float64, int]{x[i], i} }
//
// gives the least location of the least value whatever the decomposition.
// The identity is the greatest value of T (+Inf) at the greatest location
// of L. Values neither of which is less than the other count as equal, so
// a NaN in a partial result ties with every value: Join keeps the earlier
// partial result's Val and the lesser of the two Locs.
func MinFirstLoc[T Number, L Integer]() Reducer[ValLoc[T, L]] {
	return MinFirstLocCustomComparator[T, L](less[T])
}

// MaxFirstLoc keeps the greatest value and, of the locations that hold
// it, the least, as MinFirstLoc does the least value. The identity's Val
// is the least value of T (-Inf).
func MaxFirstLoc[T Number, L Integer]() Reducer[ValLoc[T, L]] {
	return MaxFirstLocCustomComparator[T, L](less[T])
}

// MinFirstLocCustomComparator is MinFirstLoc with the order lessFn(a, b)
// ("a before b") in place of <: it keeps the first value in that order
// and, of the locations that hold it (values neither before the other),
// the least. The identity is that of MinFirstLoc, so lessFn must put the
// greatest value of T (+Inf) after every value of the data, as Kokkos's
// reduction identity requires; the body should compare with lessFn too.
func MinFirstLocCustomComparator[T Number, L Integer](lessFn func(a, b T) bool) Reducer[ValLoc[T, L]] {
	id := ValLoc[T, L]{Val: greatest[T](), Loc: greatest[L]()}
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return id },
		Join:     func(a, b ValLoc[T, L]) ValLoc[T, L] { return joinFirstLoc(a, b, lessFn, first[L]) },
	}
}

// MaxFirstLocCustomComparator is MaxFirstLoc with the order lessFn in
// place of <: it keeps the last value in that order and the least of the
// locations that hold it. lessFn must put the least value of T (-Inf),
// the identity's, before every value of the data.
func MaxFirstLocCustomComparator[T Number, L Integer](lessFn func(a, b T) bool) Reducer[ValLoc[T, L]] {
	id := ValLoc[T, L]{Val: least[T](), Loc: greatest[L]()}
	return Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return id },
		Join:     func(a, b ValLoc[T, L]) ValLoc[T, L] { return joinFirstLoc(a, b, flip(lessFn), first[L]) },
	}
}

// MinMaxFirstLastLoc keeps the least value with the least location that
// holds it, and the greatest value with the greatest location that holds
// it. The identity is {greatest value of T, least value of T} at
// locations {greatest value of L, least value of L}.
func MinMaxFirstLastLoc[T Number, L Integer]() Reducer[MinMaxValLoc[T, L]] {
	return MinMaxFirstLastLocCustomComparator[T, L](less[T])
}

// MinMaxFirstLastLocCustomComparator is MinMaxFirstLastLoc with the order
// lessFn in place of <; lessFn must put the identity's values, the
// greatest and least values of T, last and first.
func MinMaxFirstLastLocCustomComparator[T Number, L Integer](lessFn func(a, b T) bool) Reducer[MinMaxValLoc[T, L]] {
	first := MinFirstLocCustomComparator[T, L](lessFn)
	last := Reducer[ValLoc[T, L]]{
		Identity: func() ValLoc[T, L] { return ValLoc[T, L]{Val: least[T](), Loc: least[L]()} },
		Join:     func(a, b ValLoc[T, L]) ValLoc[T, L] { return joinFirstLoc(a, b, flip(lessFn), last[L]) },
	}
	return pairReducer(first, last)
}

// pairReducer joins the minimum parts of a MinMaxValLoc with lo and the
// maximum parts with hi.
func pairReducer[T Number, L any](lo, hi Reducer[ValLoc[T, L]]) Reducer[MinMaxValLoc[T, L]] {
	return Reducer[MinMaxValLoc[T, L]]{
		Identity: func() MinMaxValLoc[T, L] {
			l, h := lo.Identity(), hi.Identity()
			return MinMaxValLoc[T, L]{MinVal: l.Val, MaxVal: h.Val, MinLoc: l.Loc, MaxLoc: h.Loc}
		},
		Join: func(a, b MinMaxValLoc[T, L]) MinMaxValLoc[T, L] {
			l := lo.Join(ValLoc[T, L]{a.MinVal, a.MinLoc}, ValLoc[T, L]{b.MinVal, b.MinLoc})
			h := hi.Join(ValLoc[T, L]{a.MaxVal, a.MaxLoc}, ValLoc[T, L]{b.MaxVal, b.MaxLoc})
			return MinMaxValLoc[T, L]{MinVal: l.Val, MaxVal: h.Val, MinLoc: l.Loc, MaxLoc: h.Loc}
		},
	}
}

// joinLoc is the join of MinLoc (better is <) and MaxLoc (>): b when its
// value is better, else a, with b's location when the values are equal and
// a's location is still id.
func joinLoc[T Number, L comparable](a, b ValLoc[T, L], better func(x, y T) bool, id L) ValLoc[T, L] {
	if better(b.Val, a.Val) {
		return b
	}
	if b.Val == a.Val && a.Loc == id {
		a.Loc = b.Loc
	}
	return a
}

// joinFirstLoc is the join of the First and Last location reducers: b when
// its value comes first in the order before, else a, with the location
// pick(a.Loc, b.Loc) when neither value comes before the other.
func joinFirstLoc[T Number, L Integer](a, b ValLoc[T, L], before func(x, y T) bool, pick func(x, y L) L) ValLoc[T, L] {
	if before(b.Val, a.Val) {
		return b
	}
	if !before(a.Val, b.Val) {
		a.Loc = pick(a.Loc, b.Loc)
	}
	return a
}

func less[T Number](a, b T) bool    { return a < b }
func first[L Integer](a, b L) L     { return min(a, b) }
func last[L Integer](a, b L) L      { return max(a, b) }
func greater[T Number](a, b T) bool { return a > b }

// flip returns the order f reversed.
func flip[T any](f func(a, b T) bool) func(a, b T) bool {
	return func(a, b T) bool { return f(b, a) }
}

// locIdentity returns the greatest value of L when L is an integer type,
// as Kokkos's reduction_identity of an index, and the zero L otherwise.
func locIdentity[L any]() L {
	var l L
	v := reflect.ValueOf(&l).Elem()
	bits := 8 * v.Type().Size()
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(uint64(1)<<(bits-1) - 1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(math.MaxUint64 >> (64 - bits))
	}
	return l
}

// LAnd is logical and: identity true.
func LAnd() Reducer[bool] {
	return Reducer[bool]{Identity: func() bool { return true }, Join: func(a, b bool) bool { return a && b }, builtin: backend.ReduceLAnd}
}

// LOr is logical or: identity false.
func LOr() Reducer[bool] {
	return Reducer[bool]{Identity: zero[bool], Join: func(a, b bool) bool { return a || b }, builtin: backend.ReduceLOr}
}

// BAnd is bitwise and: identity all ones.
func BAnd[T Integer]() Reducer[T] {
	return Reducer[T]{Identity: func() T { return ^T(0) }, Join: func(a, b T) T { return a & b }, builtin: backend.ReduceBAnd}
}

// BOr is bitwise or: identity 0.
func BOr[T Integer]() Reducer[T] {
	return Reducer[T]{Identity: zero[T], Join: func(a, b T) T { return a | b }, builtin: backend.ReduceBOr}
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
	return reduceRange("ParallelReduce", label, p, r, nil, body)
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
	return reduceRange("ParallelReduceChunks", label, p, r, body, nil)
}

// reduceRange is ParallelReduceChunks (body) and ParallelReduce (index, a
// body per index, called from reduceIndex's loop over each block).
func reduceRange[T any](pattern, label string, p RangePolicy, r Reducer[T], body func(lo, hi int, acc *T), index func(i int, acc *T)) T {
	s := p.check(pattern, label)
	n := p.End - p.Begin
	bs := reduceBlockSize(n)
	nb := (n + bs - 1) / bs
	if nb == 0 {
		launchEmpty(s, label, kindReduce)
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
				if index != nil {
					reduceIndex(index, lo, min(lo+bs, p.End), acc)
				} else {
					body(lo, min(lo+bs, p.End), acc)
				}
				partial[b] = *acc
			}
		},
	}, true)
	return combine(r.Join, partial)
}

// reduceIndex calls body(i, acc) for i from lo to hi-1: the loop of
// ParallelReduce's blocks, a function of its own, not inlined, so that after
// each call only its own four values are loaded again.
//
//go:noinline
func reduceIndex[T any](body func(i int, acc *T), lo, hi int, acc *T) {
	for i := lo; i < hi; i++ {
		body(i, acc)
	}
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
