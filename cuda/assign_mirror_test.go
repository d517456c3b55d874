package cuda_test

import (
	"math/rand/v2"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

// TestAssignDataCudaAddress: AssignData(nil, AtAddress(p)) re-points a
// CudaSpace view at device memory, as Kokkos's assign_data(ptr)
// (core/src/View/Kokkos_ViewLegacy.hpp:1041-1044): filled through the
// view, the second half of a larger buffer holds the values, the first
// half and the view's old memory keep theirs.
func TestAssignDataCudaAddress(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(67, 2))
	const n = 1000
	buf := kokkos.Must(kokkos.NewView1[float64]("buf", 2*n, kokkos.InSpace(cuda.Space)))
	defer buf.Release()
	v := kokkos.Must(kokkos.NewView1[float64]("v", n, kokkos.InSpace(cuda.Space)))
	old := v
	defer old.Release()
	x, y := rng.NormFloat64(), rng.NormFloat64()
	if err := kokkos.Fill(kokkos.View[float64](v), x); err != nil {
		t.Fatal(err)
	}
	if err := v.AssignData(nil, kokkos.AtAddress(buf.Allocation().Addr()+n*8)); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.Fill(kokkos.View[float64](v), y); err != nil {
		t.Fatal(err)
	}
	hb := kokkos.Must(kokkos.CreateMirrorViewAndCopy(buf))
	ho := kokkos.Must(kokkos.CreateMirrorViewAndCopy(old))
	for i := range 2 * n {
		want := 0.0
		if i >= n {
			want = y
		}
		if hb.At(i) != want {
			t.Fatalf("buf[%d] = %v, want %v", i, hb.At(i), want)
		}
	}
	for i := range n {
		if ho.At(i) != x {
			t.Fatalf("old[%d] = %v, want %v", i, ho.At(i), x)
		}
	}
}

// TestMirrorPaddedCuda: a padded host view's CudaSpace mirror has its
// strides (Kokkos makes the mirror from src.layout(),
// core/src/Kokkos_CopyViews.hpp:2916-2931), holds its elements after
// CreateMirrorViewAndCopy, and copies back element for element.
func TestMirrorPaddedCuda(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(21, 3))
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		h := kokkos.Must(kokkos.NewView2[float32]("h", 37, 45, l, kokkos.AllowPadding))
		for i := range 37 {
			for j := range 45 {
				h.Set(i, j, rng.Float32())
			}
		}
		d := kokkos.Must(kokkos.CreateMirrorViewAndCopy(h, kokkos.InSpace(cuda.Space)))
		if d.Stride(0) != h.Stride(0) || d.Stride(1) != h.Stride(1) || d.Layout() != l || d.SpanIsContiguous() {
			d.Release()
			t.Fatalf("%v: device mirror %+v of %+v", l, d.LayoutSpec(), h.LayoutSpec())
		}
		back := kokkos.Must(kokkos.NewView2[float32]("back", 37, 45))
		err := kokkos.DeepCopy(kokkos.View[float32](back), kokkos.View[float32](d))
		d.Release()
		if err != nil {
			t.Fatal(err)
		}
		for i := range 37 {
			for j := range 45 {
				if back.At(i, j) != h.At(i, j) {
					t.Fatalf("%v (%d, %d): %v, want %v", l, i, j, back.At(i, j), h.At(i, j))
				}
			}
		}
	}
}
