package random

import (
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// TestFillShapes fills views of rank 0, 1 (a strided column), 2 (a
// LayoutLeft one), 4 and 5 from one-state Serial pools of both kinds,
// which draw in Kokkos's order: index by index of the first dimension,
// and within one the others in row-major order. Each value is checked
// against the state's own draws in that order, for float64, float32,
// int32 and uint64 elements.
func TestFillShapes(t *testing.T) {
	for _, kind := range []string{pool64, pool1024} {
		testShapes[float64](t, kind, -3, 7.5)
		testShapes[float32](t, kind, 0.25, 2)
		testShapes[int32](t, kind, -40, 1000)
		testShapes[uint64](t, kind, 5, 1<<50)
	}
}

func testShapes[T kokkos.Number](t *testing.T, kind string, lo, hi T) {
	t.Helper()
	const seed = 4242
	// draws returns the first n draws of the one state of a fresh pool.
	draws := func(n int) []T {
		var out []T
		if kind == pool64 {
			g := must(NewXorShift64PoolSize(kokkos.Serial{}, seed, 1)).GetStateAt(0)
			row := rows64(lo, hi)
			out = make([]T, n)
			for i := range out {
				row(&g, unsafePtr(&out[i]), 1, 0)
			}
		} else {
			g := must(NewXorShift1024PoolSize(kokkos.Serial{}, seed, 1)).GetStateAt(0)
			row := rows1024(lo, hi)
			out = make([]T, n)
			for i := range out {
				row(&g, unsafePtr(&out[i]), 1, 0)
			}
		}
		return out
	}
	fill := func(v kokkos.View[T]) {
		t.Helper()
		var err error
		if kind == pool64 {
			err = FillRange(v, must(NewXorShift64PoolSize(kokkos.Serial{}, seed, 1)), lo, hi)
		} else {
			err = FillRange(v, must(NewXorShift1024PoolSize(kokkos.Serial{}, seed, 1)), lo, hi)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, k int, got, want T) {
		t.Helper()
		if got != want {
			t.Fatalf("%s %T from %s: element %d = %v, want draw %d, %v", what, got, kind, k, got, k, want)
		}
	}
	// The draws of each element type, as a reference: the first of them
	// also checks the row fillers against the generators' own methods.
	want := draws(300 * 7 * 3)
	if kind == pool64 {
		g := must(NewXorShift64PoolSize(kokkos.Serial{}, seed, 1)).GetStateAt(0)
		for k := range 20 {
			var x T
			switch any(x).(type) {
			case float64:
				x = T(g.DrandRange(float64(lo), float64(hi)))
			case float32:
				x = T(g.FrandRange(float32(lo), float32(hi)))
			case int32:
				x = T(g.RandRange(int32(lo), int32(hi)))
			case uint64:
				x = T(g.Urand64Range(uint64(lo), uint64(hi)))
			}
			check("the row filler", k, want[k], x)
		}
	}

	v0 := must(kokkos.NewView0[T]("v0"))
	fill(v0)
	check("rank 0", 0, v0.At(), want[0])

	// Column 2 of a 300×5 view: 300 elements 5 apart, in 3 chunks.
	w := must(kokkos.NewView2[T]("w", 300, 5))
	col := w.Subview1(kokkos.All, 2)
	fill(col)
	for i := range 300 {
		check("a column", i, col.At(i), want[i])
		for j := range 5 {
			if j != 2 && w.At(i, j) != 0 {
				t.Fatalf("filling column 2 wrote w(%d, %d) = %v", i, j, w.At(i, j))
			}
		}
	}

	l := must(kokkos.NewView2[T]("l", 260, 7, kokkos.LayoutLeft))
	fill(l)
	for i := range 260 {
		for j := range 7 {
			check("a LayoutLeft rank 2", i*7+j, l.At(i, j), want[i*7+j])
		}
	}

	v4 := must(kokkos.NewView4[T]("v4", 130, 3, 1, 4))
	fill(v4)
	for i := range 130 {
		for j := range 3 {
			for m := range 4 {
				k := i*12 + j*4 + m
				check("rank 4", k, v4.At(i, j, 0, m), want[k])
			}
		}
	}

	v5 := must(kokkos.NewView5[T]("v5", 129, 2, 3, 2, 2, kokkos.LayoutLeft))
	fill(v5)
	for i := range 129 {
		for j := range 2 {
			for m := range 3 {
				for n := range 2 {
					for o := range 2 {
						k := i*24 + j*12 + m*4 + n*2 + o
						check("a LayoutLeft rank 5", k, v5.At(i, j, m, n, o), want[k])
					}
				}
			}
		}
	}
}

// unsafePtr is p as an unsafe.Pointer.
func unsafePtr[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
