// Package umapkernels holds Go kernels that take a
// containers.UnorderedMap, for the tests of the kernel parameter: the
// generator's host code, and the refusal of a device launch.
package umapkernels

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Pair is a struct key.
type Pair struct {
	A int32
	B int32
}

// Insert inserts ids(i) with value i into m and counts the inserts that
// failed in acc.
//
//kokkos:kernel
func Insert(i int, ids kokkos.View1[uint64], m containers.UnorderedMap[uint64, int32], acc *int) {
	if m.Insert(ids.At(i), int32(i)).Failed() {
		*acc++
	}
}

// Find sets out(i) to the value of ids(i) in m, or -1 when it is absent,
// and found(i) to whether it exists.
//
//kokkos:kernel
func Find(i int, ids kokkos.View1[uint64], m containers.UnorderedMap[uint64, int32], out kokkos.View1[int32], found kokkos.View1[int32]) {
	x := m.Find(ids.At(i))
	v := int32(-1)
	if m.ValidAt(x) {
		v = m.ValueAt(x)
	}
	out.Set(i, v)
	if m.Exists(ids.At(i)) {
		found.Set(i, 1)
	} else {
		found.Set(i, 0)
	}
}

// Walk counts the entries of m whose key is ids(value), over the indices
// of m.
//
//kokkos:kernel
func Walk(x int, ids kokkos.View1[uint64], m containers.UnorderedMap[uint64, int32], acc *int) {
	if x < int(m.Capacity()) && m.ValidAt(uint32(x)) && ids.At(int(m.ValueAt(uint32(x)))) == m.KeyAt(uint32(x)) {
		*acc++
	}
}

// Pairs inserts the keys (a(i), b(i)) of a set and counts the new ones.
//
//kokkos:kernel
func Pairs(i int, a kokkos.View1[int32], b kokkos.View1[int32], s containers.UnorderedMap[Pair, struct{}], acc *int) {
	if s.InsertKey(Pair{a.At(i), b.At(i)}).Success() {
		*acc++
	}
}

// Mark inserts keys(i) into set s, dropping the result, and counts in
// acc the keys that were in s already.
//
//kokkos:kernel
func Mark(i int, keys kokkos.View1[uint32], s containers.UnorderedMap[uint32, struct{}], acc *int) {
	if s.InsertKey(keys.At(i)).Existing() {
		*acc++
	}
	s.InsertKey(keys.At(i) + 1)
}

// Where sets at(i) to the index where keys(i) was inserted into m (with
// value i/2), or found, and counts the inserts whose result says an index
// was freed.
//
//kokkos:kernel
func Where(i int, keys kokkos.View1[int32], m containers.UnorderedMap[int32, float64], at kokkos.View1[uint32], acc *int) {
	at.Set(i, m.Insert(keys.At(i), float64(i)/2).Index())
	if m.Insert(keys.At(i), 0).FreedExisting() {
		*acc++
	}
}

// Count adds 1 to the count of keys(i) in m, with InsertOp and
// UnorderedMapAtomicAdd, and counts the keys it added.
//
//kokkos:kernel
func Count(i int, keys kokkos.View1[int64], m containers.UnorderedMap[int64, uint32], acc *int) {
	if m.InsertOp(keys.At(i), 1, containers.UnorderedMapAtomicAdd[uint32]{}).Success() {
		*acc++
	}
}
