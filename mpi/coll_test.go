package mpi

import (
	"errors"
	"fmt"
	"github.com/gokkos/kokkos/internal/testutil"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// small returns the values of rank r's view for reductions: small
// integers, so that sums and products are exact in every type.
func small[T kokkos.Number](r, n int) []T {
	rng := rand.New(rand.NewPCG(uint64(r), 11))
	out := make([]T, n)
	for i := range out {
		out[i] = T(rng.IntN(4))
		if rng.IntN(3) == 0 {
			out[i] = 0
		}
	}
	return out
}

func truth[T kokkos.Number](x T) bool { return x != 0 }

func fromBool[T kokkos.Number](b bool) T {
	if b {
		return 1
	}
	return 0
}

// reduceRef is the naive reduction of op over the values of every rank.
func reduceRef[T kokkos.Number](op Op, ranks, n int, bits func(x, y T, op Op) T) []T {
	acc := small[T](0, n)
	for r := 1; r < ranks; r++ {
		v := small[T](r, n)
		for i := range acc {
			a, b := acc[i], v[i]
			switch op {
			case Sum:
				acc[i] = a + b
			case Prod:
				acc[i] = a * b
			case Min:
				acc[i] = min(a, b)
			case Max:
				acc[i] = max(a, b)
			case LAnd:
				acc[i] = fromBool[T](truth(a) && truth(b))
			case LOr:
				acc[i] = fromBool[T](truth(a) || truth(b))
			case LXor:
				acc[i] = fromBool[T](truth(a) != truth(b))
			default:
				acc[i] = bits(a, b, op)
			}
		}
	}
	return acc
}

func intBits[T kokkos.Integer](x, y T, op Op) T {
	switch op {
	case BAnd:
		return x & y
	case BOr:
		return x | y
	}
	return x ^ y
}

// allreduce checks Allreduce and Reduce of T with each op, from a strided
// view into a contiguous one and in place.
func allreduce[T kokkos.Number](t *testing.T, ops []Op, bits func(x, y T, op Op) T) {
	w := World()
	ext := []int{5, 6}
	n := 30
	for _, op := range ops {
		want := reduceRef[T](op, w.Size(), n, bits)
		mine := small[T](w.Rank(), n)
		send := makeView[T]("send", ext, "strided-right")
		d := kokkos.DynRankFrom[T](&send)
		k := 0
		testutil.ForEachIndex(ext, func(idx []int) { d.Set(mine[k], idx...); k++ })
		// The strided send view is packed first index fastest, as the
		// contiguous LayoutLeft recv view lies: element (i, j) meets
		// element (i, j).
		recv := makeView[T]("recv", ext, "left")
		if err := Allreduce[T](w, &send, &recv, op); err != nil {
			t.Fatalf("Allreduce %v: %v", op, err)
		}
		rd := kokkos.DynRankFrom[T](&recv)
		k = 0
		testutil.ForEachIndex(ext, func(idx []int) {
			if got := rd.At(idx...); got != want[k] {
				t.Fatalf("Allreduce %v: element %v = %v, want %v", op, idx, got, want[k])
			}
			k++
		})
		// In place, into the strided view.
		if err := Allreduce[T](w, &send, &send, op); err != nil {
			t.Fatalf("Allreduce %v in place: %v", op, err)
		}
		k = 0
		testutil.ForEachIndex(ext, func(idx []int) {
			if got := d.At(idx...); got != want[k] {
				t.Fatalf("Allreduce %v in place: element %v = %v, want %v", op, idx, got, want[k])
			}
			k++
		})
		// Reduce to the last rank; the others pass no recv view.
		root := w.Size() - 1
		src := kokkos.Must(kokkos.WrapDynRankView(append([]T(nil), mine...), []int{n}))
		var dst kokkos.View[T]
		out := kokkos.Must(kokkos.NewView1[T]("out", n))
		if w.Rank() == root {
			dst = &out
		}
		if err := Reduce[T](w, &src, dst, op, root); err != nil {
			t.Fatalf("Reduce %v: %v", op, err)
		}
		if w.Rank() == root && fmt.Sprint(out.Data()) != fmt.Sprint(want) {
			t.Errorf("Reduce %v: %v, want %v", op, out.Data(), want)
		}
	}
}

var allOps = []Op{Sum, Prod, Min, Max, LAnd, LOr, LXor, BAnd, BOr, BXor}

var _ = rankTest("Allreduce", func(t *testing.T) {
	t.Run("int8", func(t *testing.T) { allreduce(t, allOps, intBits[int8]) })
	t.Run("int16", func(t *testing.T) { allreduce(t, allOps, intBits[int16]) })
	t.Run("int32", func(t *testing.T) { allreduce(t, allOps, intBits[int32]) })
	t.Run("int64", func(t *testing.T) { allreduce(t, allOps, intBits[int64]) })
	t.Run("int", func(t *testing.T) { allreduce(t, allOps, intBits[int]) })
	t.Run("uint8", func(t *testing.T) { allreduce(t, allOps, intBits[uint8]) })
	t.Run("uint16", func(t *testing.T) { allreduce(t, allOps, intBits[uint16]) })
	t.Run("uint32", func(t *testing.T) { allreduce(t, allOps, intBits[uint32]) })
	t.Run("uint64", func(t *testing.T) { allreduce(t, allOps, intBits[uint64]) })
	t.Run("float32", func(t *testing.T) { allreduce[float32](t, allOps[:4], nil) })
	t.Run("float64", func(t *testing.T) { allreduce[float64](t, allOps[:4], nil) })
	t.Run("bool", func(t *testing.T) {
		w := World()
		for _, op := range []Op{LAnd, LOr, LXor} {
			v := kokkos.Must(kokkos.NewView1[bool]("b", 3))
			// element 0 true everywhere, 1 true on rank 0 only, 2 false.
			v.Set(0, true)
			v.Set(1, w.Rank() == 0)
			if err := Allreduce[bool](w, &v, &v, op); err != nil {
				t.Fatal(err)
			}
			want := map[Op][3]bool{LAnd: {true, false, false}, LOr: {true, true, false}, LXor: {w.Size()%2 == 1, true, false}}[op]
			if got := [3]bool{v.At(0), v.At(1), v.At(2)}; got != want {
				t.Errorf("%v: %v, want %v", op, got, want)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		w := World()
		f := kokkos.Must(kokkos.NewView1[float64]("f", 3))
		if err := Allreduce[float64](w, &f, &f, BXor); !errors.Is(err, ErrType) {
			t.Errorf("BXor of float64: %v", err)
		}
		p := kokkos.Must(kokkos.NewView1[pair]("p", 3))
		if err := Allreduce[pair](w, &p, &p, Sum); !errors.Is(err, ErrType) {
			t.Errorf("Sum of a struct: %v", err)
		}
		if err := Allreduce[float64](w, &f, nil, Sum); !errors.Is(err, ErrShape) {
			t.Errorf("Allreduce into no view: %v", err)
		}
		if err := Send[float64](w, nil, 0, 0); !errors.Is(err, ErrShape) {
			t.Errorf("Send of no view: %v", err)
		}
		g := kokkos.Must(kokkos.NewView1[float64]("g", 4))
		if err := Allreduce[float64](w, &f, &g, Sum); !errors.Is(err, ErrShape) {
			t.Errorf("Allreduce of 3 into 4 elements: %v", err)
		}
	})
})

var _ = rankTest("Bcast", func(t *testing.T) {
	w := World()
	root := w.Size() - 1
	for _, layout := range testLayouts {
		v := makeView[complex128]("b", []int{4, 3, 2}, layout)
		if w.Rank() == root {
			fill[complex128](&v, 77)
		}
		if err := Bcast[complex128](w, &v, root); err != nil {
			t.Fatal(err)
		}
		check[complex128](t, layout, &v, 77)
	}
})

// blockOf is the value of element i of the block that rank from sends to
// rank to.
func blockOf(from, to, i int) int32 { return int32(1000*from + 100*to + i) }

var _ = rankTest("GatherScatterAlltoall", func(t *testing.T) {
	w := World()
	p, me := w.Size(), w.Rank()
	root := 1 % p
	const m = 4
	// Gather and Allgather: a strided send view of m elements, rows of a
	// LayoutRight [p, m] view on receipt.
	pairs := makeView[int32]("gs", []int{m, 2}, "right")
	send := pairs.Subview(kokkos.All, 1)
	for i := range m {
		send.Set(blockOf(me, 0, i), i)
	}
	all := kokkos.Must(kokkos.NewView2[int32]("all", p, m))
	var recv kokkos.View[int32]
	if me == root {
		recv = &all
	}
	if err := Gather[int32](w, &send, recv, root); err != nil {
		t.Fatal(err)
	}
	checkRows := func(what string) {
		for r := range p {
			for i := range m {
				if got := all.At(r, i); got != blockOf(r, 0, i) {
					t.Fatalf("%s: row %d element %d = %d, want %d", what, r, i, got, blockOf(r, 0, i))
				}
			}
		}
	}
	if me == root {
		checkRows("Gather")
	}
	all = kokkos.Must(kokkos.NewView2[int32]("all", p, m))
	if err := Allgather[int32](w, &send, &all); err != nil {
		t.Fatal(err)
	}
	checkRows("Allgather")
	// Scatter: row r of root's [p, m] view to rank r.
	src := kokkos.Must(kokkos.NewView2[int32]("src", p, m))
	for r := range p {
		for i := range m {
			src.Set(r, i, blockOf(root, r, i))
		}
	}
	var sv kokkos.View[int32]
	if me == root {
		sv = &src
	}
	got := kokkos.Must(kokkos.NewView1[int32]("got", m))
	if err := Scatter[int32](w, sv, &got, root); err != nil {
		t.Fatal(err)
	}
	for i := range m {
		if got.At(i) != blockOf(root, me, i) {
			t.Fatalf("Scatter: element %d = %d, want %d", i, got.At(i), blockOf(root, me, i))
		}
	}
	// Alltoall: row j of the send view goes to rank j, and lands in row
	// me there. The receive view, a block of a larger LayoutRight view, is
	// not contiguous: it is packed in the communicator's order, which must
	// be LayoutRight for its rows to be the blocks.
	a := kokkos.Must(kokkos.NewView2[int32]("a2a send", p, m))
	for j := range p {
		for i := range m {
			a.Set(j, i, blockOf(me, j, i))
		}
	}
	big := kokkos.Must(kokkos.NewView2[int32]("a2a recv", p+1, m+2))
	b := big.Subview2(kokkos.Pair(1, 1+p), kokkos.Pair(2, 2+m))
	rows, err := w.WithPackLayout(kokkos.LayoutRight)
	if err != nil {
		t.Fatal(err)
	}
	if err := Alltoall[int32](rows, &a, &b); err != nil {
		t.Fatal(err)
	}
	for r := range p {
		for i := range m {
			if b.At(r, i) != blockOf(r, me, i) {
				t.Fatalf("Alltoall: row %d element %d = %d, want %d", r, i, b.At(r, i), blockOf(r, me, i))
			}
		}
	}
	// A receive view of the wrong size is an error on every rank.
	short := kokkos.Must(kokkos.NewView1[int32]("short", m*p-1))
	if err := Allgather[int32](w, &send, &short); !errors.Is(err, ErrShape) {
		t.Errorf("Allgather into %d elements: %v", m*p-1, err)
	}
})
