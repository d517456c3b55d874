package mpi

import (
	"bytes"
	"fmt"
	"github.com/gokkos/kokkos/internal/testutil"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
)

func sendInts(c *Comm, dest int) error {
	v := kokkos.Must(kokkos.NewView1[int32]("ints", 4))
	return Send[int32](c, &v, dest, 0)
}

// value returns the element of T made of pseudo-random bytes drawn from
// rng (a bool is 0 or 1).
func value[T any](rng *rand.Rand) T {
	var x T
	b := unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if _, ok := any(x).(bool); ok {
		b[0] &= 1
	}
	return x
}

func sameBits[T any](a, b T) bool {
	n := unsafe.Sizeof(a)
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a)), n), unsafe.Slice((*byte)(unsafe.Pointer(&b)), n))
}

// fill sets v's elements, over its logical indices, to values drawn from
// a generator seeded with seed.
func fill[T any](v kokkos.View[T], seed uint64) {
	d := kokkos.DynRankFrom(v)
	rng := rand.New(rand.NewPCG(seed, 7))
	testutil.ForEachIndex(d.Extents(), func(idx []int) { d.Set(value[T](rng), idx...) })
}

// check fails t unless v holds what fill(v, seed) stores.
func check[T any](t *testing.T, what string, v kokkos.View[T], seed uint64) {
	t.Helper()
	d := kokkos.DynRankFrom(v)
	rng := rand.New(rand.NewPCG(seed, 7))
	bad := 0
	testutil.ForEachIndex(d.Extents(), func(idx []int) {
		want := value[T](rng)
		if got := d.At(idx...); !sameBits(got, want) && bad < 3 {
			bad++
			t.Errorf("%s: element %v = %v, want %v", what, idx, got, want)
		}
	})
}

// layouts of the test views: two contiguous ones and a strided subview of
// a larger view (of either parent layout).
var testLayouts = []string{"right", "left", "strided-right", "strided-left"}

// makeView returns a view of extents ext of the named layout.
func makeView[T any](label string, ext []int, layout string) kokkos.DynRankView[T] {
	switch layout {
	case "right":
		return kokkos.Must(kokkos.NewDynRankView[T](label, ext, kokkos.LayoutRight))
	case "left":
		return kokkos.Must(kokkos.NewDynRankView[T](label, ext, kokkos.LayoutLeft))
	}
	l := kokkos.LayoutRight
	if layout == "strided-left" {
		l = kokkos.LayoutLeft
	}
	big := make([]int, len(ext))
	args := make([]any, len(ext))
	for i, e := range ext {
		big[i] = e + 3
		args[i] = kokkos.Pair(1, 1+e)
	}
	p := kokkos.Must(kokkos.NewDynRankView[T](label, big, l))
	fill[T](&p, 99) // the elements around the subview must stay as they are
	return p.Subview(args...)
}

var testShapes = [][]int{{7}, {5, 6}, {3, 4, 5}}

func shapeName(ext []int, layout string) string { return fmt.Sprintf("%v-%s", ext, layout) }
