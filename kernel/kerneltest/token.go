package kerneltest

import "github.com/gokkos/kokkos"

// The kernels below use a unique token (kokkos.UniqueToken): token_test.go
// runs them on the host, on the fake device and on a GPU.

// TokenHolds acquires an id of tok and checks, with an in-use flag per id
// set and cleared atomically, that no other holder has it: a clash counts
// in clashes(0), an id outside [0, Size()) in clashes(1). It counts the
// holds of each id, works on x(i) while it holds the id, and releases it.
//
//kokkos:kernel
func TokenHolds(i int, tok kokkos.UniqueToken, inUse kokkos.View1[int32], counts, clashes, x kokkos.View1[int64]) {
	id := tok.Acquire()
	if id < 0 || id >= tok.Size() {
		kokkos.AtomicAdd(clashes.Ptr(1), 1)
		return
	}
	if kokkos.AtomicExchange(inUse.Ptr(id), 1) != 0 {
		kokkos.AtomicAdd(clashes.Ptr(0), 1)
	}
	kokkos.AtomicAdd(counts.Ptr(id), 1)
	v := x.At(i)
	for range i % 16 {
		v = v*6364136223846793005 + 1442695040888963407
	}
	x.Set(i, v)
	if kokkos.AtomicExchange(inUse.Ptr(id), 0) != 1 {
		kokkos.AtomicAdd(clashes.Ptr(0), 1)
	}
	tok.Release(id)
}

// TokenHist adds x(i)'s bin to the histogram of its id, a row of bins of
// its own, without atomics: the token keeps the rows apart.
//
//kokkos:kernel
func TokenHist(i int, tok kokkos.UniqueToken, bins kokkos.View2[int64], x kokkos.View1[int64]) {
	b := int(uint64(x.At(i)) % uint64(bins.Extent(1)))
	id := tok.Acquire()
	bins.Set(id, b, bins.At(id, b)+1)
	tok.Release(id)
}

// TokenCount counts the indices whose id is below the token's size: all
// of them.
//
//kokkos:kernel
func TokenCount(i int, tok kokkos.UniqueToken, acc *int64) {
	id := tok.Acquire()
	if id < tok.Size() && id >= 0 {
		*acc += 1
	}
	tok.Release(id)
}

// TokenBox acquires an id for each index of a box and stores 1 at the
// index when it is in range (0 otherwise), adding the holds of each id.
//
//kokkos:kernel
func TokenBox(i, j int, tok kokkos.UniqueToken, ok kokkos.View2[int32], counts kokkos.View1[int64]) {
	id := tok.Acquire()
	if id >= 0 && id < tok.Size() {
		ok.Set(i, j, 1)
		kokkos.AtomicAdd(counts.Ptr(id), 1)
	}
	tok.Release(id)
}
