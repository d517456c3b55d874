package kokkos

import (
	"math/rand/v2"
	"testing"
)

// TestStridePastRankKokkos checks Stride(k) for k in [rank, 8) against what
// Kokkos 4.6.1 (KOKKOS_ENABLE_DEPRECATED_CODE_4, its default) printed for
// the same views: testdata/kokkos/stride_past.cpp, built with
//
//	g++ -O1 -std=c++20 -fopenmp -I$KOKKOS/include stride_past.cpp -L$KOKKOS/lib -lkokkoscontainers -lkokkoscore -ldl
//
// printed
//
//	right rank 0: 1 1 1 1 1 1 1 1
//	left rank 0: 1 1 1 1 1 1 1 1
//	stride rank 0: 0 0 0 0 0 0 0 0
//	right rank 2: 5 1 1 1 1 1 1 1
//	left rank 2: 1 3 15 15 15 15 15 15
//	stride rank 2: 7 1 0 0 0 0 0 0
//	left padded rank 3: 1 24 96 192 192 192 192 192
//	dynrank right rank 2: 5 1 1 1 1 1 1 1
//	dynrank left rank 2: 1 3 15 15 15 15 15 15
//
// The rank-0 LayoutStride view is the one difference: the legacy 4.6 View
// gives 0, the 4.7 View (core/src/Kokkos_View.hpp:283, "if constexpr
// (rank() == 0) return 1") and gokkos 1.
func TestStridePastRankKokkos(t *testing.T) {
	all := func(name string, stride func(int) int, want ...int) {
		t.Helper()
		for k, w := range want {
			if got := stride(k); got != w {
				t.Errorf("%s: Stride(%d) = %d, want %d", name, k, got, w)
			}
		}
	}
	r0 := Must(NewView0[float64]("r0"))
	l0 := Must(NewView0[float64]("l0", LayoutLeft))
	s0 := Must(NewView0[float64]("s0", LayoutStride))
	all("right rank 0", r0.Stride, 1, 1, 1, 1, 1, 1, 1, 1)
	all("left rank 0", l0.Stride, 1, 1, 1, 1, 1, 1, 1, 1)
	all("stride rank 0", s0.Stride, 1, 1, 1, 1, 1, 1, 1, 1)
	r2 := Must(NewView2[float64]("r2", 3, 5))
	l2 := Must(NewView2[float64]("l2", 3, 5, LayoutLeft))
	s2 := Must(NewView2[float64]("s2", 3, 5, WithStrides(7, 1)))
	all("right rank 2", r2.Stride, 5, 1, 1, 1, 1, 1, 1, 1)
	all("left rank 2", l2.Stride, 1, 3, 15, 15, 15, 15, 15, 15)
	all("stride rank 2", s2.Stride, 7, 1, 0, 0, 0, 0, 0, 0)
	l3 := Must(NewView3From[float64]("l3", LayoutSpec{Layout: LayoutLeft, Extents: []int{17, 4, 2}, Strides: []int{1, 24, 96}}))
	all("left padded rank 3", l3.Stride, 1, 24, 96, 192, 192, 192, 192, 192)
	dr := Must(NewDynRankView[float64]("dr", []int{3, 5}))
	dl := Must(NewDynRankView[float64]("dl", []int{3, 5}, LayoutLeft))
	all("dynrank right rank 2", dr.Stride, 5, 1, 1, 1, 1, 1, 1, 1)
	all("dynrank left rank 2", dl.Stride, 1, 3, 15, 15, 15, 15, 15, 15)
}

// TestStridePastRankDynRankOffset checks Stride(k) past the rank of
// DynRankView and OffsetView of random extents, rank and layout against the
// rule of core/src/Kokkos_View.hpp:274-301 (Kokkos 4.7), and that k outside
// [0, 8) panics, as Extent does.
func TestStridePastRankDynRankOffset(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 3))
	for range 40 {
		rank := rng.IntN(MaxDynRank + 1)
		ext := randExtents(rng, rank, 1, 4)
		l := []Layout{LayoutRight, LayoutLeft, LayoutStride}[rng.IntN(3)]
		opt := Option(l)
		if l == LayoutStride {
			// Nested strides in a random order, with a gap.
			str, s := make([]int, rank), 1
			for _, r := range rng.Perm(rank) {
				str[r] = s
				s *= ext[r] + 1
			}
			opt = WithStrides(str...)
		}
		d := Must(NewDynRankView[int32]("d", ext, opt))
		for k := range MaxRank {
			want := 1
			if k < rank {
				want = d.LayoutSpec().Strides[k]
			} else if rank > 0 && l == LayoutLeft {
				want = d.Stride(rank-1) * ext[rank-1]
			} else if rank > 0 && l == LayoutStride {
				want = 0
			}
			if got := d.Stride(k); got != want {
				t.Fatalf("rank %d %v extents %v: Stride(%d) = %d, want %d", rank, l, ext, k, got, want)
			}
		}
		mustPanic(t, func() { d.Stride(MaxRank) }, "Stride(8)", "[0, 8)")
		mustPanic(t, func() { d.Stride(-1) }, "Stride(-1)")
	}
	for range 20 {
		l := []Layout{LayoutRight, LayoutLeft}[rng.IntN(2)]
		n0, n1 := 1+rng.IntN(5), 1+rng.IntN(5)
		b0, b1 := rng.IntN(7)-3, rng.IntN(7)-3
		o := Must(NewOffsetView2[float64]("o", Bounds(b0, b0+n0-1), Bounds(b1, b1+n1-1), l))
		want := 1
		if l == LayoutLeft {
			want = n0 * n1
		}
		for k := 2; k < MaxRank; k++ {
			if got := o.Stride(k); got != want {
				t.Fatalf("%v offset view %dx%d: Stride(%d) = %d, want %d", l, n0, n1, k, got, want)
			}
		}
		mustPanic(t, func() { o.Stride(8) }, "Stride(8) of a rank-2 view")
	}
}
