package npy

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// TestReadAny writes random views of every element type, rank 0 to 7 and
// both layouts, and reads them back with ReadAny: a DynRankView of the
// dtype's type, with the view's extents, layout and elements.
func TestReadAny(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	readAnyAll[bool](t, rng)
	readAnyAll[int8](t, rng)
	readAnyAll[int16](t, rng)
	readAnyAll[int32](t, rng)
	readAnyAll[int64](t, rng)
	readAnyAll[uint8](t, rng)
	readAnyAll[uint16](t, rng)
	readAnyAll[uint32](t, rng)
	readAnyAll[uint64](t, rng)
	readAnyAll[float32](t, rng)
	readAnyAll[float64](t, rng)
	readAnyAll[complex64](t, rng)
	readAnyAll[complex128](t, rng)

	// int is written as int64, and read back as one.
	v := kokkos.Must(kokkos.NewView1[int]("i", 3))
	v.Set(2, -5)
	var f bytes.Buffer
	if err := Write(&f, v); err != nil {
		t.Fatal(err)
	}
	a, err := ReadAny(&f, "i")
	if g, ok := a.(kokkos.DynRankView[int64]); err != nil || !ok || g.At1(2) != -5 {
		t.Fatalf("int: %T, %v", a, err)
	}

	// Rank 8 is above a DynRankView's.
	f.Reset()
	if err := Write(&f, randomView[float64](t, rng, 8, kokkos.LayoutRight, true)); err != nil {
		t.Fatal(err)
	}
	if a, err := ReadAny(&f, "x"); !errors.Is(err, ErrRank) || !strings.Contains(err.Error(), "View8") || a != nil {
		t.Fatalf("rank 8: %v, %v", a, err)
	}
	if _, err := ReadAny(bytes.NewReader(fileWith("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }")), "x"); !errors.Is(err, ErrDtype) {
		t.Fatalf("string dtype: %v", err)
	}
}

func readAnyAll[T Elem](t *testing.T, rng *rand.Rand) {
	t.Helper()
	for rank := range kokkos.MaxDynRank + 1 {
		for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
			v := randomView[T](t, rng, rank, l, false)
			var f bytes.Buffer
			if err := Write(&f, v); err != nil {
				t.Fatal(err)
			}
			a, err := ReadAny(bytes.NewReader(f.Bytes()), "x")
			g, ok := a.(kokkos.DynRankView[T])
			if err != nil || !ok {
				t.Fatalf("%s rank %d: %T, %v", dtypeOf[T](), rank, a, err)
			}
			s, gs := kokkos.ShapeOf(v), kokkos.ShapeOf(g)
			if !sameBits(logical(v), logical[T](g)) || !slices.Equal(s.Extents, gs.Extents) || rank > 1 && s.Size > 0 && gs.Layout != l {
				t.Fatalf("%s rank %d %v: extents %v layout %v, want %v", dtypeOf[T](), rank, l, gs.Extents, gs.Layout, s.Extents)
			}
		}
	}
}
