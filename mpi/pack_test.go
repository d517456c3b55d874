package mpi

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/testutil"
)

// TestPackHost: a host view whose elements do not fill their span is
// gathered into its message in the order of the packing layout (first
// index fastest for LayoutLeft, the default; last index fastest for
// LayoutRight), and a received message is scattered back into every
// logical element; no MPI library is needed for either.
func TestPackHost(t *testing.T) {
	if l := World().PackLayout(); l != kokkos.LayoutLeft {
		t.Fatalf("default packing layout %v, want LayoutLeft", l)
	}
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
		v := packView(ext, layout)
		fill[float64](&v, uint64(it))
		d := kokkos.Describe[float64](&v)
		if contiguous(&d) {
			continue // sent from its own memory
		}
		packed++
		for _, pack := range []kokkos.Layout{kokkos.LayoutLeft, kokkos.LayoutRight} {
			name := fmt.Sprintf("%v-%s packed %v", ext, layout, pack)
			var b buffer[float64]
			if err := b.prepare("Send", &v, false, false, pack); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b.store == nil || b.elems == nil {
				t.Fatalf("%s: not packed on the host path", name)
			}
			msg := append([]float64(nil), b.message()...)
			b.release()
			k := 0
			walk(ext, pack == kokkos.LayoutLeft, func(idx []int) {
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
			if err := b.prepare("Recv", &w, true, false, pack); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			copy(b.message(), msg)
			if err := b.unpack("Recv", len(msg)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b.release()
			check[float64](t, name+" scattered", &w, uint64(it))
		}
	}
	if packed < 40 {
		t.Fatalf("only %d of the views were packed", packed)
	}
}

// kokkosCommMessage is kokkos-comm's rule for the message of a rank-2
// view, written as plain loops: a view whose span is contiguous goes from
// its memory as it lies (element (i, j) at offset i*stride0 + j*stride1);
// any other is deep-copied into a View<T**, LayoutLeft> of the same
// extents and sent from there (element (i, j) at i + j*extent0).
func kokkosCommMessage(v *kokkos.DynRankView[float64]) []float64 {
	n0, n1 := v.Extent(0), v.Extent(1)
	s0, s1 := v.Stride(0), v.Stride(1)
	msg := make([]float64, n0*n1)
	if v.Span() == v.Size() {
		for i := range n0 {
			for j := range n1 {
				msg[i*s0+j*s1] = v.At(i, j)
			}
		}
		return msg
	}
	for j := range n1 {
		for i := range n0 {
			msg[i+j*n0] = v.At(i, j)
		}
	}
	return msg
}

// kokkosCommViews returns rank-2 views of extents n0×n1, contiguous and
// not, as halo exchanges send them: subviews of both layouts, padded
// views, columns and rows.
func kokkosCommViews(n0, n1 int) map[string]kokkos.DynRankView[float64] {
	vs := map[string]kokkos.DynRankView[float64]{}
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		whole := kokkos.Must(kokkos.NewDynRankView[float64]("whole", []int{n0, n1}, l))
		vs[fmt.Sprintf("%v", l)] = whole
		big := kokkos.Must(kokkos.NewDynRankView[float64]("big", []int{n0 + 3, n1 + 4}, l))
		vs[fmt.Sprintf("%v subview", l)] = big.Subview(kokkos.Pair(1, 1+n0), kokkos.Pair(2, 2+n1))
		vs[fmt.Sprintf("%v padded", l)] = kokkos.Must(kokkos.NewDynRankView[float64]("padded", []int{n0, n1}, l, kokkos.AllowPadding))
		wide := kokkos.Must(kokkos.NewDynRankView[float64]("wide", []int{n0, 64}, l))
		vs[fmt.Sprintf("%v rows", l)] = wide.Subview(kokkos.All, kokkos.Pair(5, 5+n1))
		tall := kokkos.Must(kokkos.NewDynRankView[float64]("tall", []int{64, n1}, l))
		vs[fmt.Sprintf("%v columns", l)] = tall.Subview(kokkos.Pair(5, 5+n0), kokkos.All)
	}
	return vs
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

// TestPackKokkosCommOrder: the message of every rank-2 view is what
// kokkos-comm sends for it (kokkosCommMessage), so that halos pass
// between the two unscrambled; received, such a message lands where
// kokkos-comm's unpacking puts it.
func TestPackKokkosCommOrder(t *testing.T) {
	pack := World().PackLayout()
	padded := 0
	for _, ext := range [][2]int{{3, 4}, {5, 2}, {1, 6}, {6, 1}, {7, 9}, {9, 7}} {
		for name, v := range kokkosCommViews(ext[0], ext[1]) {
			if strings.HasSuffix(name, "padded") && v.Span() != v.Size() {
				padded++
			}
			name = fmt.Sprintf("%v %s", ext, name)
			fill[float64](&v, 11)
			want := kokkosCommMessage(&v)
			var b buffer[float64]
			if err := b.prepare("Send", &v, false, false, pack); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := append([]float64(nil), b.message()...)
			b.release()
			for k := range want {
				if !sameBits(got[k], want[k]) {
					t.Fatalf("%s (span %d, size %d): message element %d = %v, kokkos-comm's is %v", name, v.Span(), v.Size(), k, got[k], want[k])
				}
			}
			w := kokkosCommViews(ext[0], ext[1])[strings.TrimPrefix(name, fmt.Sprintf("%v ", ext))]
			if err := b.prepare("Recv", &w, true, false, pack); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			copy(b.message(), want)
			if err := b.unpack("Recv", len(want)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b.release()
			check[float64](t, name+" received", &w, 11)
		}
	}
	if padded < 2 {
		t.Errorf("only %d padded views were not contiguous: the padded case of both layouts went untested", padded)
	}
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
				if err := bf.prepare("Send", &col, false, false, kokkos.LayoutLeft); err != nil {
					b.Fatal(err)
				}
				bf.release()
			}
		})
		b.Run(fmt.Sprintf("n=%d/unpack", n), func(b *testing.B) {
			for b.Loop() {
				var bf buffer[float64]
				if err := bf.prepare("Recv", &col, true, false, kokkos.LayoutLeft); err != nil {
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

// Halo blocks pass between this package and a kokkos-comm program as
// kokkos-comm lays them out (kokkosCommMessage), both ways, blocking and
// not: rank 0 sends every kind of rank-2 view, rank 1 receives the
// message raw and compares it with kokkos-comm's; then rank 1 sends
// kokkos-comm's message raw and rank 0 receives it into the view.
var _ = rankTest("KokkosCommOrder", func(t *testing.T) {
	w := World()
	if w.Rank() > 1 {
		return
	}
	tag := 100
	for _, ext := range [][2]int{{3, 4}, {5, 2}, {7, 9}, {9, 7}} {
		views := kokkosCommViews(ext[0], ext[1])
		for _, name := range sortedKeys(views) {
			v := views[name]
			name = fmt.Sprintf("%v %s", ext, name)
			fill[float64](&v, uint64(tag))
			want := kokkosCommMessage(&v)
			raw := kokkos.Must(kokkos.NewView1[float64]("raw", len(want)))
			nonblocking := tag%2 == 0
			tag++
			switch w.Rank() {
			case 0:
				if err := sendMaybeAsync(w, &v, 1, tag, nonblocking); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				fill[float64](&v, 0)
				if err := recvMaybeAsync(w, &v, 1, tag, nonblocking); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				check[float64](t, name+" received from kokkos-comm's layout", &v, uint64(tag-1))
			case 1:
				if _, err := Recv[float64](w, &raw, 0, tag); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for k := range want {
					if got := raw.At(k); !sameBits(got, want[k]) {
						t.Fatalf("%s: message element %d = %v, kokkos-comm's is %v", name, k, got, want[k])
					}
				}
				copy(raw.Data(), want)
				if err := Send[float64](w, &raw, 0, tag); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
	// WithPackLayout(LayoutRight) packs last index fastest.
	right, err := w.WithPackLayout(kokkos.LayoutRight)
	if err != nil || right.PackLayout() != kokkos.LayoutRight || w.PackLayout() != kokkos.LayoutLeft {
		t.Fatalf("WithPackLayout: %v", err)
	}
	big := kokkos.Must(kokkos.NewView2[float64]("big", 6, 7))
	block := big.Subview2(kokkos.Pair(1, 4), kokkos.Pair(2, 6))
	fill[float64](&block, 5)
	switch w.Rank() {
	case 0:
		if err := Send[float64](right, &block, 1, 999); err != nil {
			t.Fatal(err)
		}
	case 1:
		raw := kokkos.Must(kokkos.NewView1[float64]("raw", 12))
		if _, err := Recv[float64](right, &raw, 0, 999); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			for j := range 4 {
				if raw.At(i*4+j) != block.At(i, j) {
					t.Fatalf("LayoutRight packing: element %d = %v, want (%d,%d) = %v", i*4+j, raw.At(i*4+j), i, j, block.At(i, j))
				}
			}
		}
	}
	if _, err := w.WithPackLayout(kokkos.LayoutStride); !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("WithPackLayout(LayoutStride): %v", err)
	}
	if err := right.Free(); err == nil {
		t.Error("Free of a WithPackLayout copy of World succeeded")
	}
})

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sendMaybeAsync(c *Comm, v kokkos.View[float64], dest, tag int, async bool) error {
	if !async {
		return Send(c, v, dest, tag)
	}
	r, err := Isend(c, v, dest, tag)
	if err != nil {
		return err
	}
	_, err = r.Wait()
	return err
}

func recvMaybeAsync(c *Comm, v kokkos.View[float64], src, tag int, async bool) error {
	if !async {
		_, err := Recv(c, v, src, tag)
		return err
	}
	r, err := Irecv(c, v, src, tag)
	if err != nil {
		return err
	}
	_, err = r.Wait()
	return err
}
