package kokkos

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// randArgs picks one Subview argument per dimension with exactly m ranges.
func randArgs(rng *rand.Rand, ext []int, m int) ([]any, []int) {
	n := len(ext)
	keep := rng.Perm(n)[:m]
	isKept := make([]bool, n)
	for _, r := range keep {
		isKept[r] = true
	}
	args := make([]any, n)
	begins := make([]int, n)
	for r := range n {
		switch {
		case !isKept[r]:
			i := rng.IntN(ext[r])
			args[r], begins[r] = i, i
		case rng.IntN(3) == 0:
			args[r] = All
		default:
			b := rng.IntN(ext[r] + 1)
			e := b + rng.IntN(ext[r]-b+1)
			args[r], begins[r] = Pair(b, e), b
		}
	}
	return args, begins
}

// subviewN calls the generated SubviewM method of a rank-n view.
func subviewN(v View[float64], m int, a []any) View[float64] {
	call := func(f ...func() View[float64]) View[float64] { return f[m]() }
	switch v := v.(type) {
	case View1[float64]:
		return call(func() View[float64] { return v.Subview0(a[0]) }, func() View[float64] { return v.Subview1(a[0]) })
	case View2[float64]:
		return call(func() View[float64] { return v.Subview0(a[0], a[1]) }, func() View[float64] { return v.Subview1(a[0], a[1]) },
			func() View[float64] { return v.Subview2(a[0], a[1]) })
	case View3[float64]:
		return call(func() View[float64] { return v.Subview0(a[0], a[1], a[2]) }, func() View[float64] { return v.Subview1(a[0], a[1], a[2]) },
			func() View[float64] { return v.Subview2(a[0], a[1], a[2]) }, func() View[float64] { return v.Subview3(a[0], a[1], a[2]) })
	case View8[float64]:
		return call(
			func() View[float64] { return v.Subview0(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview1(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview2(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview3(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview4(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview5(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview6(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview7(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) },
			func() View[float64] { return v.Subview8(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]) })
	}
	panic(fmt.Sprintf("subviewN: %T", v))
}

func fillRandom(rng *rand.Rand, v View[float64]) {
	d := v.viewDesc()
	testutil.ForEachIndex(d.extents(), func(idx []int) { setN(v, idx, rng.NormFloat64()) })
}

// TestSubviewAgainstParent checks every element of random subviews of
// ranks 1, 2, 3 and 8, in every layout, against the parent element it maps
// to, and subviews of those subviews.
func TestSubviewAgainstParent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rank := range []int{1, 2, 3, 8} {
		for trial := range 40 {
			ext := randExtents(rng, rank, 1, 4)
			if rank == 8 {
				ext = randExtents(rng, rank, 1, 3)
			}
			opts := []Option{[]Layout{LayoutRight, LayoutLeft, LayoutStride}[trial%3]}
			if trial%3 == 2 {
				str := make([]int, rank)
				s := 1
				for _, r := range rng.Perm(rank) {
					str[r] = s
					s *= ext[r] + 1
				}
				opts = []Option{WithStrides(str...)}
			}
			if trial%4 == 1 {
				opts = append(opts, AllowPadding)
			}
			parent := newViewN(t, "P", ext, opts...)
			fillRandom(rng, parent)
			m := rng.IntN(rank + 1)
			args, begins := randArgs(rng, ext, m)
			sub := subviewN(parent, m, args)
			sd := sub.viewDesc()
			// the accessors rely on it: in-bounds indices stay inside data
			if sd.span() > len(sd.data) {
				t.Fatalf("subview span %d exceeds its %d elements", sd.span(), len(sd.data))
			}
			if sd.rec != parent.viewDesc().rec || sd.label() != "P" {
				t.Fatal("subview must share allocation and label")
			}
			checkSub := func(sub View[float64], args []any, begins []int) {
				sd := sub.viewDesc()
				testutil.ForEachIndex(sd.extents(), func(si []int) {
					pi := make([]int, rank)
					k := 0
					for r := range rank {
						pi[r] = begins[r]
						if _, isIdx := args[r].(int); !isIdx {
							pi[r] += si[k]
							k++
						}
					}
					if got, want := atN(sub, si), atN(parent, pi); got != want {
						t.Fatalf("rank %d args %v: sub%v = %v, parent%v = %v", rank, args, si, got, pi, want)
					}
				})
			}
			checkSub(sub, args, begins)
			// writes through the subview land in the parent
			testutil.ForEachIndex(sd.extents(), func(si []int) { setN(sub, si, float64(len(si))+0.25) })
			checkSub(sub, args, begins)
			if m == rank && rank <= 3 && sd.size() > 0 {
				// a subview of the subview composes the mappings
				a2, b2 := randArgs(rng, sd.extents(), rng.IntN(rank+1))
				sub2 := subviewN(sub, len(sd.extents())-countInts(a2), a2)
				d2 := sub2.viewDesc()
				testutil.ForEachIndex(d2.extents(), func(si []int) {
					pi := make([]int, rank)
					k := 0
					for r := range rank {
						pi[r] = b2[r]
						if _, isIdx := a2[r].(int); !isIdx {
							pi[r] += si[k]
							k++
						}
						pi[r] += begins[r]
					}
					if atN(sub2, si) != atN(parent, pi) {
						t.Fatalf("subview of subview: %v", si)
					}
				})
			}
		}
	}
}

func countInts(a []any) int {
	n := 0
	for _, x := range a {
		if _, ok := x.(int); ok {
			n++
		}
	}
	return n
}

func TestSubviewLayoutRules(t *testing.T) {
	r3, _ := NewView3[float64]("R", 4, 5, 6)
	l3, _ := NewView3[float64]("L", 4, 5, 6, LayoutLeft)
	s3, _ := NewView3[float64]("S", 4, 5, 6, WithStrides(30, 6, 1))
	cases := []struct {
		got  Layout
		want Layout
		desc string
	}{
		{ptr(r3.Subview2(1, All, All)).Layout(), LayoutRight, "R(i, All, All)"},
		{ptr(r3.Subview2(1, Pair(1, 3), All)).Layout(), LayoutRight, "R(i, Pair, All)"},
		{ptr(r3.Subview2(1, All, Pair(1, 3))).Layout(), LayoutRight, "R(i, All, Pair)"},
		{ptr(r3.Subview1(1, 2, All)).Layout(), LayoutRight, "R(i, j, All)"},
		{ptr(r3.Subview1(1, All, 2)).Layout(), LayoutStride, "R(i, All, k)"},
		{ptr(r3.Subview3(Pair(1, 2), All, All)).Layout(), LayoutRight, "R(Pair, All, All)"},
		{ptr(r3.Subview2(All, 1, All)).Layout(), LayoutRight, "R(All, j, All)"},
		{ptr(l3.Subview2(All, All, 1)).Layout(), LayoutLeft, "L(All, All, k)"},
		{ptr(l3.Subview2(All, Pair(0, 2), 1)).Layout(), LayoutLeft, "L(All, Pair, k)"},
		{ptr(l3.Subview1(All, 1, 2)).Layout(), LayoutLeft, "L(All, j, k)"},
		{ptr(l3.Subview1(1, All, 2)).Layout(), LayoutStride, "L(i, All, k)"},
		{ptr(l3.Subview2(Pair(0, 2), All, 1)).Layout(), LayoutLeft, "L(Pair, All, k)"},
		{ptr(r3.Subview3(All, Pair(1, 3), All)).Layout(), LayoutStride, "R(All, Pair, All)"},
		{ptr(l3.Subview3(Pair(0, 2), Pair(0, 2), Pair(0, 2))).Layout(), LayoutStride, "L(Pair, Pair, Pair)"},
		{ptr(s3.Subview2(1, All, All)).Layout(), LayoutStride, "S(i, All, All)"},
		{ptr(r3.Subview0(1, 2, 3)).Layout(), LayoutRight, "R(i, j, k)"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: layout %v, want %v", c.desc, c.got, c.want)
		}
	}
}

func ptr[V any](v V) *V { return &v }

func TestSubviewPanics(t *testing.T) {
	v, _ := NewView3[float64]("A", 4, 5, 6)
	expectPanic(t, `Subview2 of view "A" with extents (4, 5, 6): index 4 of dimension 0 is out of bounds`, func() { v.Subview2(4, All, All) })
	expectPanic(t, `Subview2 of view "A" with extents (4, 5, 6): range [3, 7) of dimension 1 is not within [0, 5]`, func() { v.Subview2(0, Pair(3, 7), All) })
	expectPanic(t, `range [3, 2) of dimension 2`, func() { v.Subview2(0, All, Pair(3, 2)) })
	expectPanic(t, `Subview2 of view "A": 1 of the 3 arguments are ranges (All or Pair), so the result has rank 1, not 2`, func() { v.Subview2(0, 1, All) })
	expectPanic(t, `Subview1 of view "A": more than 1 of the 3 arguments are ranges`, func() { v.Subview1(0, All, All) })
	expectPanic(t, `Subview1 of view "A": argument 2 has type string; use an integer, All or Pair(begin, end)`, func() { v.Subview1(0, All, "x") })
	if s := v.Subview1(int64(1), int32(2), All); s.Extent(0) != 6 {
		t.Fatal("int64 and int32 indices")
	}
}
