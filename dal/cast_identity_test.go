package dal_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos/dal"
)

// Two function-local types may share a printed name (both "dal_test.Node")
// while their fields differ in order: Cast must tell them apart by type
// identity, or a pointer field would read the bits of an integer.
func TestCastRefusesDistinctTypesOfTheSameName(t *testing.T) {
	type Node struct {
		P *int
		X uintptr
	}
	x := uintptr(rand.Uint64N(1<<40) | 1)
	a, err := dal.Full(3, Node{X: x})
	must(t, err)
	defer func() { must(t, a.Release()) }()
	func() {
		type Node struct {
			X uintptr
			P *int
		}
		b, err := dal.Cast[Node](a)
		if err == nil {
			defer func() { must(t, b.Release()) }()
			t.Fatalf("Cast between two distinct types both named %T holding pointers succeeded (P reads %p)", b.Data()[0], b.Data()[0].P)
		}
		wantErr(t, err, dal.ErrCast)
	}()
	// The same type still casts to itself, pointers and all.
	v := 7
	self, err := dal.Cast[Node](dal.Wrap([]Node{{P: &v, X: x}}))
	must(t, err)
	if self.At(0).P != &v || self.At(0).X != x {
		t.Fatal("Cast to the same pointer-holding type changed the elements")
	}
	must(t, self.Release())
}

// Distinct pointer-free types reinterpret whatever their names; pointer
// types of the same layout but another identity (a defined type over
// *int) are refused.
func TestCastIdentityRules(t *testing.T) {
	type Pair struct{ A, B uint32 }
	a := dal.Wrap([]uint64{rand.Uint64(), rand.Uint64()})
	p, err := dal.Cast[Pair](a)
	must(t, err)
	if p.Count() != 2 {
		t.Fatalf("Cast of 2 uint64 to Pair: count %d", p.Count())
	}
	must(t, p.Release())

	type IntPtr *int
	v := 1
	_, err = dal.Cast[IntPtr](dal.Wrap([]*int{&v}))
	wantErr(t, err, dal.ErrCast)
	type Named struct{ P *int }
	_, err = dal.Cast[Named](dal.Wrap([]struct{ P *int }{{&v}}))
	wantErr(t, err, dal.ErrCast)
}
