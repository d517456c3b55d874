package mpi

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// withPointer is an element type that holds a Go pointer: its bytes mean
// nothing in another process, and received ones would be addresses the
// garbage collector follows.
type withPointer struct {
	P *int
	X float64
}

// withString holds a pointer in a string header.
type withString struct {
	S string
	N int64
}

// refusedViews returns views of T of every kind the package takes, that
// go every way through it: contiguous ones (the fast path), a LayoutLeft
// one, strided subviews (packed), a DynRankView, an OffsetView, a View0
// and a read-only one; each with opts.
func refusedViews[T any](opts ...kokkos.Option) map[string]kokkos.View[T] {
	v1 := kokkos.Must(kokkos.NewView1[T]("view1", 8, opts...))
	v2 := kokkos.Must(kokkos.NewView2[T]("view2 left", 4, 2, append([]kokkos.Option{kokkos.LayoutLeft}, opts...)...))
	v3 := kokkos.Must(kokkos.NewView3[T]("view3", 2, 4, 3, opts...))
	col := v3.Subview2(kokkos.All, 1, kokkos.All)
	big := kokkos.Must(kokkos.NewView2[T]("big", 5, 6, opts...))
	block := big.Subview2(kokkos.Pair(1, 3), kokkos.Pair(1, 5))
	d := kokkos.Must(kokkos.NewDynRankView[T]("dynrank", []int{2, 4}, opts...))
	dsub := d.Subview(kokkos.All, kokkos.Pair(0, 4))
	o := kokkos.Must(kokkos.NewOffsetView1[T]("offset", kokkos.Bounds(-3, 5), opts...))
	v0 := kokkos.Must(kokkos.NewView0[T]("view0", opts...))
	ro := v1.ReadOnly()
	return map[string]kokkos.View[T]{
		"View1": &v1, "View2 LayoutLeft": &v2, "View3": &v3, "strided subview": &col,
		"LayoutRight block": &block, "DynRankView": &d, "DynRankView subview": &dsub,
		"OffsetView1": &o, "View0": &v0, "read-only View1": &ro,
	}
}

// TestPrepareRefuses: the buffer of every view of an element type that
// holds Go pointers, and of every view with the Atomic trait, is refused
// with an error wrapping ErrType, for a send and a receive, on every path
// (contiguous, packed, every view kind); no MPI library is needed.
func TestPrepareRefuses(t *testing.T) {
	refuse := func(t *testing.T, what string, prepare func(recv bool) error, words ...string) {
		t.Helper()
		for _, recv := range []bool{false, true} {
			err := prepare(recv)
			if !errors.Is(err, ErrType) {
				t.Errorf("%s (receive %v): %v, want an error wrapping ErrType", what, recv, err)
				continue
			}
			for _, w := range words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: %q does not say %q", what, err, w)
				}
			}
		}
	}
	for name, v := range refusedViews[withPointer]() {
		refuse(t, name+" of withPointer", func(recv bool) error {
			var b buffer[withPointer]
			return b.prepare("Send", v, recv, false, kokkos.LayoutLeft)
		}, "hold Go pointers", "mpi.withPointer")
	}
	for name, v := range refusedViews[withString]() {
		refuse(t, name+" of withString", func(recv bool) error {
			var b buffer[withString]
			return b.prepare("Send", v, recv, false, kokkos.LayoutLeft)
		}, "hold Go pointers")
	}
	for name, v := range refusedViews[float64](kokkos.WithTraits(kokkos.Atomic)) {
		refuse(t, name+" Atomic", func(recv bool) error {
			var b buffer[float64]
			return b.prepare("Send", v, recv, false, kokkos.LayoutLeft)
		}, "Atomic trait", "AsTraits")
	}
	// The same elements without the trait go.
	a := kokkos.Must(kokkos.NewView1[float64]("atomic", 8, kokkos.WithTraits(kokkos.Atomic)))
	plain := kokkos.Must(a.AsTraits(0))
	var b buffer[float64]
	if err := b.prepare("Send", &plain, false, false, kokkos.LayoutLeft); err != nil {
		t.Errorf("the view without the Atomic trait: %v", err)
	}
	b.release()
}

// refuseAll fails t unless every operation of the package refuses every
// view of refusedViews[T](opts...) with an error wrapping ErrType that
// says words (reductions: reduceWords), before any message moves: the
// point-to-point calls, their nonblocking forms and the collectives, on
// every rank.
func refuseAll[T any](t *testing.T, words, reduceWords string, opts ...kokkos.Option) {
	w := World()
	peer := (w.Rank() + 1) % w.Size()
	for name, v := range refusedViews[T](opts...) {
		ops := map[string]func() error{
			"Send": func() error { return Send(w, v, peer, 60) },
			"Recv": func() error { _, err := Recv(w, v, peer, 60); return err },
			"Isend": func() error {
				r, err := Isend(w, v, peer, 60)
				if r != nil {
					t.Errorf("Isend returned a request with the error %v", err)
				}
				return err
			},
			"Irecv": func() error {
				r, err := Irecv(w, v, peer, 60)
				if r != nil {
					t.Errorf("Irecv returned a request with the error %v", err)
				}
				return err
			},
			"Allreduce": func() error { return Allreduce(w, v, v, Max) },
			"Reduce":    func() error { return Reduce(w, v, v, Max, 0) },
			"Bcast":     func() error { return Bcast(w, v, 0) },
			"Gather":    func() error { return Gather(w, v, v, 0) },
			"Allgather": func() error { return Allgather(w, v, v) },
			"Scatter":   func() error { return Scatter(w, v, v, 0) },
			"Alltoall":  func() error { return Alltoall(w, v, v) },
		}
		for op, f := range ops {
			want := words
			if op == "Allreduce" || op == "Reduce" {
				want = reduceWords
			}
			if err := f(); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s of %s: %v, want an error wrapping ErrType that says %q", op, name, err, want)
			}
		}
	}
	// Every rank refused before calling MPI: nothing is left to match.
	if err := w.Barrier(); err != nil {
		t.Fatal(err)
	}
}

var _ = rankTest("RefusePointerElements", func(t *testing.T) {
	refuseAll[withPointer](t, "hold Go pointers", "MPI defines no such reduction")
	refuseAll[withString](t, "hold Go pointers", "MPI defines no such reduction")
	v := kokkos.Must(kokkos.NewView1[withPointer]("ptrs", 4))
	err := Send[withPointer](World(), &v, 0, 61)
	if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), `view "ptrs": elements of type mpi.withPointer hold Go pointers`) {
		t.Errorf("Send: %v", err)
	}
})

var _ = rankTest("RefuseAtomicViews", func(t *testing.T) {
	refuseAll[float64](t, "Atomic trait", "Atomic trait", kokkos.WithTraits(kokkos.Atomic))
	v := kokkos.Must(kokkos.NewView1[float64]("counts", 4, kokkos.WithTraits(kokkos.Atomic)))
	err := Send[float64](World(), &v, 0, 62)
	if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), `view "counts": it has the Atomic trait`) {
		t.Errorf("Send: %v", err)
	}
	t.Log(err)
})
