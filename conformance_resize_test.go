package kokkos

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// conformanceResizeSizes are the extents Kokkos's resize and realloc tests
// use: {2, 3, ..., 9}, the first rank of them per view.
var conformanceResizeSizes = []int{2, 3, 4, 5, 6, 7, 8, 9}

// Kokkos: core/unit_test/TestResize.hpp, impl_testResize (Default and
// WithoutInitializing): resizing to the same extents keeps the storage
// (#904), and doubling the first extent keeps every element, for ranks 1
// to 8, in host memory and in a space the host cannot access.
func TestConformanceResizeKeepsStorageAndData(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dev := range []bool{false, true} {
		for _, noInit := range []bool{false, true} {
			var opts []Option
			if noInit {
				opts = append(opts, WithoutInitializing)
			}
			for rank := 1; rank <= MaxRank; rank++ {
				name := fmt.Sprintf("device %v, WithoutInitializing %v, rank %d", dev, noInit, rank)
				ext := conformanceResizeSizes[:rank]
				h := newViewN(t, "h", ext)
				hd := h.viewDesc()
				for i := range hd.data {
					hd.data[i] = float64(1 + rng.IntN(1<<20))
				}
				v := h
				if dev {
					var err error
					if v, err = newViewR[float64]("view", ext, InSpace(checked(t, newFakeSpace(false)))); err != nil {
						t.Fatal(err)
					}
					if err := DeepCopy(v, h); err != nil {
						t.Fatal(err)
					}
				}
				before := Describe(v)
				if err := resizeR(&v, ext, true, opts...); err != nil {
					t.Fatal(err)
				}
				if after := Describe(v); after.Host != before.Host || after.Addr != before.Addr || after.Owner != before.Owner {
					t.Fatalf("%s: Resize to the same extents reallocated", name)
				}
				grown := append([]int{2 * ext[0]}, ext[1:]...)
				if err := resizeR(&v, grown, true, opts...); err != nil {
					t.Fatal(err)
				}
				if dev {
					// Resize leaves the old storage to its holders, where
					// Kokkos drops v's reference.
					if err := before.Owner.(*Allocation).Release(); err != nil {
						t.Fatal(err)
					}
				}
				if d := Describe(v); d.Extents[0] != grown[0] || d.Label != before.Label {
					t.Fatalf("%s: after Resize: extent %d, label %q", name, d.Extents[0], d.Label)
				}
				back := newViewN(t, "back", grown)
				if err := DeepCopy(back, v); err != nil {
					t.Fatal(err)
				}
				testutil.ForEachIndex(ext, func(idx []int) {
					if got, want := atN(back, idx), atN(h, idx); got != want {
						t.Fatalf("%s: Resize lost %v: %v, want %v", name, idx, got, want)
					}
				})
				if dev {
					if err := Describe(v).Owner.(*Allocation).Release(); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// Kokkos: core/unit_test/TestRealloc.hpp, impl_testRealloc: realloc to the
// same extents keeps the storage and the label (#904); with
// WithoutInitializing it also keeps the contents (#6992), and without it
// the view is zeroed; to other extents it allocates anew, zeroed.
func TestConformanceReallocSameExtents(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for rank := 1; rank <= MaxRank; rank++ {
		ext := conformanceResizeSizes[:rank]
		for _, noInit := range []bool{true, false} {
			v := newViewN(t, fmt.Sprintf("view_%dd", rank), ext)
			d := v.viewDesc()
			for i := range d.data {
				d.data[i] = float64(1 + rng.IntN(1<<20))
			}
			snapshot := append([]float64(nil), d.data...)
			var opts []Option
			if noInit {
				opts = append(opts, WithoutInitializing)
			}
			before := Describe(v)
			if err := resizeR(&v, ext, false, opts...); err != nil {
				t.Fatal(err)
			}
			after := Describe(v)
			if after.Host != before.Host || after.Label != before.Label {
				t.Fatalf("rank %d: Realloc to the same extents moved the view or its label (%q)", rank, after.Label)
			}
			for i, x := range v.viewDesc().data {
				want := 0.0
				if noInit {
					want = snapshot[i]
				}
				if x != want {
					t.Fatalf("rank %d, WithoutInitializing %v: element %d = %v, want %v", rank, noInit, i, x, want)
				}
			}
			grown := append([]int{ext[0] + 1}, ext[1:]...)
			if err := resizeR(&v, grown, false, opts...); err != nil {
				t.Fatal(err)
			}
			if Describe(v).Host == before.Host || ShapeOf(v).Label != before.Label {
				t.Fatalf("rank %d: Realloc to other extents kept the storage or lost the label", rank)
			}
		}
	}
}
