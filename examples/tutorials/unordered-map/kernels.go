package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// GlobalIDs sets l2g(i) to the exercise's global id of local index i: the
// bytes of ^i (as a 64-bit integer) in reverse order, by the exercise's
// shifts and masks.
//
//kokkos:kernel
func GlobalIDs(i int, l2g kokkos.View1[uint64]) {
	const b = uint64(0xFF)
	tmp := uint64(int64(^int32(i)))
	l2g.Set(i, (tmp&(b<<0))<<56|(tmp&(b<<8))<<40|(tmp&(b<<16))<<24|(tmp&(b<<24))<<8|
		(tmp&(b<<32))>>8|(tmp&(b<<40))>>24|(tmp&(b<<48))>>40|(tmp&(b<<56))>>56)
}

// InsertIDs inserts l2g(i) with its local index i into g2l, and counts the
// inserts that failed.
//
//kokkos:kernel
func InsertIDs(i int, l2g kokkos.View1[uint64], g2l containers.UnorderedMap[uint64, int32], errs *int) {
	if g2l.Insert(l2g.At(i), int32(i)).Failed() {
		*errs++
	}
}

// FindIDs finds l2g(i) in g2l and counts the ids not found at index i.
//
//kokkos:kernel
func FindIDs(i int, l2g kokkos.View1[uint64], g2l containers.UnorderedMap[uint64, int32], errs *int) {
	x := g2l.Find(l2g.At(i))
	if !g2l.ValidAt(x) || g2l.ValueAt(x) != int32(i) {
		*errs++
	}
}

// CheckEntries counts the entries of g2l, over its indices x, whose local
// index does not map back to their global id, as the exercise's loop over
// the map does.
//
//kokkos:kernel
func CheckEntries(x int, l2g kokkos.View1[uint64], g2l containers.UnorderedMap[uint64, int32], errs *int) {
	if g2l.ValidAt(uint32(x)) && l2g.At(int(g2l.ValueAt(uint32(x)))) != g2l.KeyAt(uint32(x)) {
		*errs++
	}
}
