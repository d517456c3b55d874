package mpi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/testutil"
)

// TestPackHost: a host view that is not contiguous in message order is
// gathered into its message in that order (last index fastest, or first
// index fastest where the view's strides say so), and a received message
// is scattered back into every logical element; no MPI library is needed
// for either.
func TestPackHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	packed := 0
	for it := range 60 {
		rank := 1 + rng.IntN(4)
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = 1 + rng.IntN(6)
		}
		layout := testLayouts[2+it%2]
		if it%10 == 9 {
			// A long column of a wide matrix: its gather is cut into
			// pieces that run on the pool.
			rank, ext, layout = 1, []int{2048 + rng.IntN(2048)}, "column"
		}
		name := fmt.Sprintf("%v-%s", ext, layout)
		v := packView(ext, layout)
		fill[float64](&v, uint64(it))
		d := kokkos.Describe[float64](&v)
		if compact(&d) {
			continue // sent from its own memory
		}
		packed++

		var b buffer[float64]
		if err := b.prepare("Send", &v, false, false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.store == nil || b.elems == nil {
			t.Fatalf("%s: not packed on the host path", name)
		}
		msg := append([]float64(nil), b.message()...)
		b.release()
		k := 0
		walk(ext, messageLayout(&d) == kokkos.LayoutLeft, func(idx []int) {
			if got, want := msg[k], v.At(idx...); !sameBits(got, want) {
				t.Fatalf("%s: message element %d = %v, want element %v = %v", name, k, got, idx, want)
			}
			k++
		})
		if k != len(msg) {
			t.Fatalf("%s: message of %d elements, view of %d", name, len(msg), k)
		}

		// Scatter the message into another view of the same shape.
		w := packView(ext, layout)
		fill[float64](&w, uint64(it)+1000)
		if err := b.prepare("Recv", &w, true, false); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		copy(b.message(), msg)
		if err := b.unpack("Recv", len(msg)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b.release()
		check[float64](t, name+" scattered", &w, uint64(it))
	}
	if packed < 40 {
		t.Fatalf("only %d of the views were packed", packed)
	}
}

// packView returns a non-contiguous view of extents ext: a strided
// subview of a view of either layout, or a column of a wide matrix.
func packView(ext []int, layout string) kokkos.DynRankView[float64] {
	if layout == "column" {
		m := kokkos.Must(kokkos.NewView2[float64]("m", ext[0], 520))
		col := m.Subview1(kokkos.All, 5)
		return kokkos.DynRankFrom[float64](&col)
	}
	return makeView[float64]("v", ext, layout)
}

// walk visits the indices of ext in message order: last index fastest, or
// first index fastest when left.
func walk(ext []int, left bool, visit func(idx []int)) {
	if !left {
		testutil.ForEachIndex(ext, visit)
		return
	}
	rev := make([]int, len(ext))
	for r := range ext {
		rev[r] = ext[len(ext)-1-r]
	}
	idx := make([]int, len(ext))
	testutil.ForEachIndex(rev, func(ri []int) {
		for r := range ri {
			idx[len(ri)-1-r] = ri[r]
		}
		visit(idx)
	})
}

// BenchmarkPackColumn: gathering (pack) and scattering (unpack) the
// column of a padded n×n float64 field, the halo of a row-split domain,
// against a plain loop that gathers the same column; no MPI library is
// needed.
func BenchmarkPackColumn(b *testing.B) {
	for _, n := range []int{512, 4096} {
		a := kokkos.Must(kokkos.NewView2[float64]("f", n, n, kokkos.AllowPadding))
		col := a.Subview1(kokkos.All, 7)
		b.Run(fmt.Sprintf("n=%d/pack", n), func(b *testing.B) {
			for b.Loop() {
				var bf buffer[float64]
				if err := bf.prepare("Send", &col, false, false); err != nil {
					b.Fatal(err)
				}
				bf.release()
			}
		})
		b.Run(fmt.Sprintf("n=%d/unpack", n), func(b *testing.B) {
			for b.Loop() {
				var bf buffer[float64]
				if err := bf.prepare("Recv", &col, true, false); err != nil {
					b.Fatal(err)
				}
				if err := bf.unpack("Recv", n); err != nil {
					b.Fatal(err)
				}
				bf.release()
			}
		})
		buf := make([]float64, n)
		d, st := a.Data(), a.Stride(0)
		b.Run(fmt.Sprintf("n=%d/loop", n), func(b *testing.B) {
			for b.Loop() {
				for i := range buf {
					buf[i] = d[i*st+7]
				}
			}
		})
	}
}
