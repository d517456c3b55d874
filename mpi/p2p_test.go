package mpi

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/dal"
)

// pair is an element type without a predefined MPI datatype (sent as its
// bytes), without padding, so that its bytes compare.
type pair struct {
	A int32
	B float32
	C float64
}

// firstFastest reports whether the message of the view of description d
// has its first index fastest: a contiguous view whose first dimension
// (of extent above 1) has a smaller stride than its last, or a view that
// is packed in the order pack = LayoutLeft. A view of one dimension of
// extent above 1 is both.
func firstFastest(d *backend.View, pack kokkos.Layout) bool {
	if !contiguous(d) {
		return pack == kokkos.LayoutLeft
	}
	first, last := -1, -1
	for r := range d.Rank {
		if d.Extents[r] > 1 {
			if first < 0 {
				first = r
			}
			last = r
		}
	}
	return first == last || d.Strides[first] < d.Strides[last]
}

// roundTrip sends views of every test shape and layout from rank 0 to rank
// 1 with Send and Recv, and receives each into every layout.
func roundTrip[T any](t *testing.T) {
	w := World()
	tag := 0
	for _, ext := range testShapes {
		for _, sl := range testLayouts {
			for _, rl := range testLayouts {
				// The receiving view must order its elements as the
				// sender's: a contiguous view in the order of its memory,
				// the others (packed) first index fastest.
				sv, rv := makeView[T]("s", ext, sl), makeView[T]("r", ext, rl)
				ds, dr := kokkos.Describe[T](&sv), kokkos.Describe[T](&rv)
				if firstFastest(&ds, w.PackLayout()) != firstFastest(&dr, w.PackLayout()) {
					continue
				}
				tag++
				seed := uint64(tag*1000 + len(ext))
				name := shapeName(ext, sl) + "->" + rl
				switch w.Rank() {
				case 0:
					v := makeView[T]("send", ext, sl)
					fill[T](&v, seed)
					if err := Send[T](w, &v, 1, tag); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				case 1:
					v := makeView[T]("recv", ext, rl)
					st, err := Recv[T](w, &v, 0, tag)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if st.Count != v.Size() || st.Source != 0 || st.Tag != tag {
						t.Errorf("%s: status %+v", name, st)
					}
					check[T](t, name, &v, seed)
				}
			}
		}
	}
}

var _ = rankTest("SendRecvTypes", func(t *testing.T) {
	t.Run("int8", roundTrip[int8])
	t.Run("int16", roundTrip[int16])
	t.Run("int32", roundTrip[int32])
	t.Run("int64", roundTrip[int64])
	t.Run("int", roundTrip[int])
	t.Run("uint8", roundTrip[uint8])
	t.Run("uint16", roundTrip[uint16])
	t.Run("uint32", roundTrip[uint32])
	t.Run("uint64", roundTrip[uint64])
	t.Run("uint", roundTrip[uint])
	t.Run("float32", roundTrip[float32])
	t.Run("float64", roundTrip[float64])
	t.Run("complex64", roundTrip[complex64])
	t.Run("complex128", roundTrip[complex128])
	t.Run("bool", roundTrip[bool])
	t.Run("struct", roundTrip[pair])
})

// Typed views (View0, View2, View3, OffsetView), a read-only sender, and a
// dal.Array.
var _ = rankTest("ViewKinds", func(t *testing.T) {
	w := World()
	switch w.Rank() {
	case 0:
		v0 := kokkos.Must(kokkos.NewView0[float64]("v0"))
		fill[float64](&v0, 1)
		v2 := kokkos.Must(kokkos.NewView2[float64]("v2", 9, 4, kokkos.LayoutLeft))
		fill[float64](&v2, 2)
		v3 := kokkos.Must(kokkos.NewView3[int32]("v3", 4, 5, 6))
		fill[int32](&v3, 3)
		o := kokkos.Must(kokkos.NewOffsetView2[int64]("o", kokkos.Bounds(-2, 3), kokkos.Bounds(1, 4)))
		fill[int64](&o, 4)
		a := kokkos.Must(dal.Empty[float32](33))
		av := kokkos.Must(a.View())
		fill[float32](&av, 5)
		col := v3.Subview2(kokkos.All, 2, kokkos.All) // strided
		ro := col.ReadOnly()
		for i, err := range []error{
			Send[float64](w, v0, 1, 1), Send[float64](w, &v2, 1, 2), Send[int32](w, &v3, 1, 3),
			Send[int64](w, &o, 1, 4), SendArray(w, a, 1, 5), Send[int32](w, &ro, 1, 6),
		} {
			if err != nil {
				t.Errorf("send %d: %v", i+1, err)
			}
		}
	case 1:
		v0 := kokkos.Must(kokkos.NewView0[float64]("v0"))
		v2 := kokkos.Must(kokkos.NewView2[float64]("v2", 9, 4, kokkos.LayoutLeft))
		v3 := kokkos.Must(kokkos.NewView3[int32]("v3", 4, 5, 6))
		o := kokkos.Must(kokkos.NewOffsetView2[int64]("o", kokkos.Bounds(-2, 3), kokkos.Bounds(1, 4)))
		a := kokkos.Must(dal.Empty[float32](33))
		// The strided column travels first index fastest, as a
		// LayoutLeft view lies.
		col := kokkos.Must(kokkos.NewView2[int32]("col", 4, 6, kokkos.LayoutLeft))
		for i, f := range []func() error{
			func() error { _, err := Recv[float64](w, &v0, 0, 1); return err },
			func() error { _, err := Recv[float64](w, &v2, 0, 2); return err },
			func() error { _, err := Recv[int32](w, &v3, 0, 3); return err },
			func() error { _, err := Recv[int64](w, &o, 0, 4); return err },
			func() error { _, err := RecvArray(w, a, 0, 5); return err },
			func() error { _, err := Recv[int32](w, &col, 0, 6); return err },
		} {
			if err := f(); err != nil {
				t.Errorf("recv %d: %v", i+1, err)
			}
		}
		check[float64](t, "View0", &v0, 1)
		check[float64](t, "View2 LayoutLeft", &v2, 2)
		check[int32](t, "View3", &v3, 3)
		check[int64](t, "OffsetView2", &o, 4)
		av := kokkos.Must(a.View())
		check[float32](t, "dal.Array", &av, 5)
		// The column sent was the subview (All, 2, All) of the filled v3.
		ref := kokkos.Must(kokkos.NewView3[int32]("ref", 4, 5, 6))
		fill[int32](&ref, 3)
		want := ref.Subview2(kokkos.All, 2, kokkos.All)
		for i := range 4 {
			for j := range 6 {
				if col.At(i, j) != want.At(i, j) {
					t.Fatalf("read-only strided column: (%d,%d) = %d, want %d", i, j, col.At(i, j), want.At(i, j))
				}
			}
		}
	}
})

// Each rank sends a strided subview to the next with Isend and receives
// from the previous one with Irecv, for ranks 1 to 3.
var _ = rankTest("IsendIrecvRing", func(t *testing.T) {
	w := World()
	next, prev := (w.Rank()+1)%w.Size(), (w.Rank()+w.Size()-1)%w.Size()
	for _, ext := range testShapes {
		for _, layout := range testLayouts {
			s := makeView[float64]("ring send", ext, layout)
			fill[float64](&s, uint64(100+w.Rank()))
			r := makeView[float64]("ring recv", ext, layout)
			rr, err := Irecv[float64](w, &r, prev, 7)
			if err != nil {
				t.Fatal(err)
			}
			sr, err := Isend[float64](w, &s, next, 7)
			if err != nil {
				t.Fatal(err)
			}
			if err := WaitAll(sr, rr); err != nil {
				t.Fatal(err)
			}
			check[float64](t, shapeName(ext, layout), &r, uint64(100+prev))
		}
	}
})

// Requests completed out of order: rank 0 sends tags 0..n-1, rank 1 posts
// the receives in reverse and completes them in a random order, some with
// Test.
var _ = rankTest("OutOfOrder", func(t *testing.T) {
	w := World()
	const n = 16
	switch w.Rank() {
	case 0:
		var reqs []*Request
		for i := range n {
			v := makeView[int64]("ooo", []int{100 * (i + 1)}, "right")
			fill[int64](&v, uint64(i))
			r, err := Isend[int64](w, &v, 1, i)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		if err := WaitAll(reqs...); err != nil {
			t.Fatal(err)
		}
	case 1:
		views := make([]kokkos.DynRankView[int64], n)
		reqs := make([]*Request, n)
		for i := n - 1; i >= 0; i-- {
			views[i] = makeView[int64]("ooo", []int{100 * (i + 1)}, "strided-right")
			r, err := Irecv[int64](w, &views[i], 0, i)
			if err != nil {
				t.Fatal(err)
			}
			reqs[i] = r
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for _, i := range rng.Perm(n) {
			if i%2 == 0 {
				for {
					ok, st, err := reqs[i].Test()
					if err != nil {
						t.Fatal(err)
					}
					if ok {
						if st.Tag != i || st.Count != 100*(i+1) {
							t.Errorf("request %d: status %+v", i, st)
						}
						break
					}
				}
			} else if _, err := reqs[i].Wait(); err != nil {
				t.Fatal(err)
			}
			check[int64](t, fmt.Sprint("tag ", i), &views[i], uint64(i))
		}
		// A second Wait gives the first result.
		if st, err := reqs[0].Wait(); err != nil || st.Count != 100 {
			t.Errorf("second Wait: %+v, %v", st, err)
		}
	}
})

// Truncation and element type mismatches are errors that name both sizes.
var _ = rankTest("RecvErrors", func(t *testing.T) {
	w := World()
	switch w.Rank() {
	case 0:
		big := makeView[float64]("big", []int{10}, "right")
		fill[float64](&big, 1)
		odd := makeView[int16]("odd", []int{3}, "right")
		fill[int16](&odd, 2)
		for i, err := range []error{Send[float64](w, &big, 1, 1), Send[int16](w, &odd, 1, 2), Send[float64](w, &big, 1, 3), Send[float64](w, &big, 1, 4)} {
			if err != nil {
				t.Errorf("send %d: %v", i, err)
			}
		}
	case 1:
		small := makeView[float64]("small", []int{5}, "right")
		_, err := Recv[float64](w, &small, 0, 1)
		// The library's MPI_ERR_TRUNCATE is an *Error, ErrMPI and
		// ErrTruncate at once, and says both sizes it knows.
		var me *Error
		if !errors.Is(err, ErrTruncate) || !errors.Is(err, ErrMPI) || !errors.As(err, &me) || me.Call != "MPI_Recv" ||
			!strings.Contains(err.Error(), `"small" of 5 elements (40 bytes)`) {
			t.Errorf("truncation: %v", err)
		}
		t.Log(err)
		// The same through Irecv, into a packed view.
		packed := makeView[float64]("packed", []int{5}, "strided-left")
		r, err := Irecv[float64](w, &packed, 0, 4)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Wait()
		if !errors.Is(err, ErrTruncate) || !errors.Is(err, ErrMPI) || !errors.As(err, &me) || me.Call != "MPI_Irecv" {
			t.Errorf("truncation through Irecv: %v", err)
		}
		f32 := makeView[float32]("f32", []int{4}, "right")
		_, err = Recv[float32](w, &f32, 0, 2)
		if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "holds 6 bytes") {
			t.Errorf("type mismatch: %v", err)
		}
		t.Log(err)
		// A packed view must receive exactly its size.
		strided := makeView[float64]("strided", []int{4, 3}, "strided-right")
		_, err = Recv[float64](w, &strided, 0, 3)
		if !errors.Is(err, ErrShape) {
			t.Errorf("short message into a packed view: %v", err)
		}
		ro := makeView[float64]("ro", []int{10}, "right")
		ro = ro.ReadOnly()
		if _, err := Recv[float64](w, &ro, 0, 9); !errors.Is(err, kokkos.ErrReadOnly) {
			t.Errorf("Recv into a read-only view: %v", err)
		}
	}
})

// Many goroutines send and receive at once, each on its own tag.
var _ = rankTest("Goroutines", func(t *testing.T) {
	w := World()
	if w.Rank() > 1 {
		return
	}
	const g = 16
	var wg sync.WaitGroup
	errs := make([]error, g)
	views := make([]kokkos.DynRankView[float32], g)
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			layout := testLayouts[i%len(testLayouts)]
			views[i] = makeView[float32]("g", []int{50, 30}, layout)
			if w.Rank() == 0 {
				fill[float32](&views[i], uint64(i))
				errs[i] = Send[float32](w, &views[i], 1, i)
			} else {
				_, errs[i] = Recv[float32](w, &views[i], 0, i)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("goroutine %d: %v", i, err)
		}
		if w.Rank() == 1 {
			check[float32](t, fmt.Sprint("goroutine ", i), &views[i], uint64(i))
		}
	}
})

// Send and Recv of a contiguous host view allocate nothing but what
// purego.SyscallN allocates per call of the library (1).
var _ = rankTest("NoAllocs", func(t *testing.T) {
	w := World()
	if w.Rank() > 1 || serial {
		return
	}
	v := kokkos.Must(kokkos.NewView1[float64]("x", 4))
	peer := 1 - w.Rank()
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if w.Rank() == 0 {
			err = Send[float64](w, &v, peer, 3)
		} else {
			_, err = Recv[float64](w, &v, peer, 3)
		}
		if err != nil {
			panic(err)
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations per Send or Recv", allocs)
	}
})
