package containers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// TestScatterAccess1Strided updates a non-duplicated ScatterView of a
// column of a matrix laid out right (a rank-1 view of stride 3), whose
// updates take the accessor's slow path, with each operation, against a
// plain loop on random data; the other columns keep their values.
func TestScatterAccess1Strided(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 41
	for _, op := range []opKind{opSum, opProd, opMin, opMax} {
		for _, atomic := range []ScatterContribution{ScatterNonAtomic, ScatterAtomic} {
			g := kokkos.Must(kokkos.NewView2[float64]("grid", n, 3))
			ref := make([][3]float64, n)
			for i := range n {
				for j := range 3 {
					ref[i][j] = scatterValue[float64](rng, op)
					g.Set(i, j, ref[i][j])
				}
			}
			col := g.Subview1(kokkos.All, 1)
			if col.Stride(0) != 3 {
				t.Fatalf("the column's stride is %d, want 3", col.Stride(0))
			}
			opts := []ScatterOption{ScatterOn(kokkos.Serial{}), ScatterNonDuplicated, atomic}
			a, release := scatterAccess1(t, op, col, opts)
			if p, n0 := a.Plain(); n0 != 0 {
				t.Fatalf("%v: Plain of a strided view = %v, %d, want extent 0", op, p, n0)
			}
			for range 500 {
				i := rng.IntN(n)
				m := scatterMethod(rng, op)
				x := scatterValue[float64](rng, op)
				ref[i][1] = scatterRef(m, op, ref[i][1], x)
				scatterCall1(a, m, i, x)
			}
			release()
			for i := range n {
				for j := range 3 {
					if got := g.At(i, j); !scatterClose(got, ref[i][j]) {
						t.Fatalf("%v %v: (%d, %d) = %v, want %v", op, atomic, i, j, got, ref[i][j])
					}
				}
			}
		}
	}
}

// scatterAccess1 makes a ScatterView of v for op and returns an accessor
// and a function that releases both.
func scatterAccess1(t *testing.T, op opKind, v kokkos.View1[float64], opts []ScatterOption) (ScatterAccess1[float64], func()) {
	t.Helper()
	var a ScatterAccess1[float64]
	var rel func()
	switch op {
	case opSum:
		sv := kokkos.Must(NewScatterView1[ScatterSum](v, opts...))
		a, rel = sv.Access(), sv.Release
	case opProd:
		sv := kokkos.Must(NewScatterView1[ScatterProd](v, opts...))
		a, rel = sv.Access(), sv.Release
	case opMin:
		sv := kokkos.Must(NewScatterView1[ScatterMin](v, opts...))
		a, rel = sv.Access(), sv.Release
	default:
		sv := kokkos.Must(NewScatterView1[ScatterMax](v, opts...))
		a, rel = sv.Access(), sv.Release
	}
	return a, func() { a.Release(); rel() }
}

func scatterCall1(a ScatterAccess1[float64], method string, i int, x float64) {
	switch method {
	case "Add":
		a.Add(i, x)
	case "Sub":
		a.Sub(i, x)
	case "Mul":
		a.Mul(i, x)
	case "Div":
		a.Div(i, x)
	default:
		a.Update(i, x)
	}
}

// TestScatterAccess1Panics checks the panics of the rank-1 accessor's
// methods, whose fast paths differ from the other ranks': a method that
// does not fit the operation, an index outside the extent, a released
// and a zero accessor; and Plain's extent for each kind of accessor.
func TestScatterAccess1Panics(t *testing.T) {
	v := kokkos.Must(kokkos.NewView1[float64]("bins", 5))
	for _, opts := range [][]ScatterOption{{ScatterOn(threads8())}, {ScatterNonDuplicated, ScatterAtomic}, {ScatterOn(kokkos.Serial{})}} {
		atomic := len(opts) == 2
		plain := func(name string, a ScatterAccess1[float64]) {
			t.Helper()
			p, n0 := a.Plain()
			switch {
			case atomic && n0 != 0:
				t.Fatalf("%s: Plain of an atomic accessor: extent %d, want 0", name, n0)
			case !atomic && (n0 != 5 || p == nil):
				t.Fatalf("%s: Plain = %v, %d, want the elements and 5", name, p, n0)
			}
		}
		prod := kokkos.Must(NewScatterView1[ScatterProd](v, opts...))
		a := prod.Access()
		plain("prod", a)
		mustPanic(t, "Add of a ScatterProd", func() { a.Add(0, 1) }, `"bins"`, "Add of a ScatterProd", "call Mul, Div or Update")
		mustPanic(t, "Sub of a ScatterProd", func() { a.Sub(0, 1) }, "Sub of a ScatterProd")
		mustPanic(t, "out of bounds", func() { a.Mul(5, 2) }, `"bins"`, "Mul(5)", "extents (5)")
		mustPanic(t, "negative", func() { a.Div(-1, 2) }, "Div(-1)", "extents (5)")
		mustPanic(t, "Update out of bounds", func() { a.Update(7, 2) }, "Update(7)", "extents (5)")
		a.Release()
		a.Release()
		if _, n0 := a.Plain(); n0 != 0 {
			t.Fatalf("Plain after Release: extent %d, want 0", n0)
		}
		mustPanic(t, "after Release", func() { a.Mul(0, 2) }, "after the accessor's Release")
		mustPanic(t, "Update after Release", func() { a.Update(0, 2) }, "after the accessor's Release")
		mx := kokkos.Must(NewScatterView1[ScatterMax](v, opts...))
		b := mx.Access()
		plain("max", b)
		mustPanic(t, "Add of a ScatterMax", func() { b.Add(1, 1) }, "Add of a ScatterMax", "call Update")
		mustPanic(t, "Mul of a ScatterMax", func() { b.Mul(1, 1) }, "Mul of a ScatterMax")
		mustPanic(t, "Div of a ScatterMax", func() { b.Div(1, 1) }, "Div of a ScatterMax")
		sum := kokkos.Must(NewScatterView1[ScatterSum](v, opts...))
		c := sum.Access()
		plain("sum", c)
		mustPanic(t, "Mul of a ScatterSum", func() { c.Mul(1, 1) }, "Mul of a ScatterSum", "call Add, Sub or Update")
		mustPanic(t, "Div of a ScatterSum", func() { c.Div(1, 1) }, "Div of a ScatterSum")
		mustPanic(t, "Add out of bounds", func() { c.Add(5, 1) }, "Add(5)", "extents (5)")
		mustPanic(t, "Sub out of bounds", func() { c.Sub(-3, 1) }, "Sub(-3)", "extents (5)")
		c.Release()
		mustPanic(t, "Add after Release", func() { c.Add(0, 1) }, "after the accessor's Release")
		b.Release()
		sum.Release()
		mx.Release()
		prod.Release()
	}
	var za ScatterAccess1[int32]
	for _, m := range []string{"Add", "Sub", "Mul", "Div", "Update"} {
		mustPanic(t, "zero accessor "+m, func() {
			switch m {
			case "Add":
				za.Add(0, 1)
			case "Sub":
				za.Sub(0, 1)
			case "Mul":
				za.Mul(0, 1)
			case "Div":
				za.Div(0, 1)
			default:
				za.Update(0, 1)
			}
		}, "ScatterAccess1."+m+" of the zero accessor")
	}
	za.Release()
	if _, n0 := za.Plain(); n0 != 0 {
		t.Fatalf("Plain of the zero accessor: extent %d, want 0", n0)
	}
}

// TestScatterUsedCopies checks that Reset and ContributeInto of a
// duplicated ScatterView, which touch only the copies accessors have
// taken since their last reset, give Kokkos's results, which touch every
// copy: random updates through a random number of accessors held at once
// (so that some copies stay unused), through the first copy written as
// Subview(), with ResetExcept(Subview()) and Resize, for ScatterSum and
// ScatterProd (whose identity is not 0), against a serial reference; and
// that Reset leaves every copy at the identity.
func TestScatterUsedCopies(t *testing.T) {
	testUsedCopies[ScatterSum](t)
	testUsedCopies[ScatterProd](t)
}

func testUsedCopies[Op ScatterOp](t *testing.T) {
	op := opOf[Op]()
	rng := rand.New(rand.NewPCG(7, uint64(op)))
	const n = 300
	v := kokkos.Must(kokkos.NewView1[float64]("bins", n))
	sv := kokkos.Must(NewScatterView1[Op](v, ScatterOn(threads8())))
	defer sv.Release()
	s := &sv.s.scatterState
	if s.ndup != 8 {
		t.Fatalf("%d copies, want 8", s.ndup)
	}
	atIdentity := func(what string, from int) {
		t.Helper()
		id := identity[float64](op)
		for j := from; j < s.ndup; j++ {
			for e := range n {
				if x := s.copies[j*s.cstride+e]; x != id {
					t.Fatalf("%v %s: copy %d (%d) = %v, want %v", op, what, j, e, x, id)
				}
			}
		}
	}
	atIdentity("at first", 0)
	ref := make([]float64, n)
	for round := range 8 {
		for i := range n {
			ref[i] = scatterValue[float64](rng, op)
			v.Set(i, ref[i])
		}
		held := make([]ScatterAccess1[float64], 1+rng.IntN(s.ndup-1))
		for k := range held {
			held[k] = sv.Access()
		}
		for _, a := range held {
			for range 50 {
				i := rng.IntN(n)
				m := scatterMethod(rng, op)
				x := scatterValue[float64](rng, op)
				ref[i] = scatterRef(m, op, ref[i], x)
				scatterCall1(a, m, i, x)
			}
		}
		for k := range held {
			held[k].Release()
		}
		if len(s.usedCopies(0)) == s.ndup {
			t.Fatalf("round %d: %d accessors held at once used every copy", round, len(held))
		}
		if round >= 4 {
			// Write the first copy directly, as Subview.
			sub := sv.Subview()
			i, x := rng.IntN(n), scatterValue[float64](rng, op)
			sub.Set(i, scatterRef("Update", op, sub.At(i), x))
			ref[i] = scatterRef("Update", op, ref[i], x)
		}
		if round == 6 {
			if err := sv.Resize(n); err != nil {
				t.Fatal(err)
			}
		}
		if err := sv.ContributeInto(v); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if got := v.At(i); !scatterClose(got, ref[i]) {
				t.Fatalf("%v round %d: bin %d = %v, want %v", op, round, i, got, ref[i])
			}
		}
		if round%2 == 1 {
			if err := sv.ResetExcept(sv.Subview()); err != nil {
				t.Fatal(err)
			}
			atIdentity("after ResetExcept(Subview())", 1)
		}
		if err := sv.Reset(); err != nil {
			t.Fatal(err)
		}
		atIdentity("after Reset", 0)
	}
}

// TestScatterOutOfLine checks that OutOfLine, which the generated host
// code calls for the updates its inlined one does not take, is the
// method it names: random updates of each operation through OutOfLine
// and through the methods, of rank 1 and 2, atomic or not, give the same
// views; and its panics name the method.
func TestScatterOutOfLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n0, n1 = 13, 3
	for _, op := range []opKind{opSum, opProd, opMin, opMax} {
		for _, c := range []ScatterContribution{ScatterNonAtomic, ScatterAtomic} {
			opts := []ScatterOption{ScatterOn(kokkos.Serial{}), c}
			v1 := [2]kokkos.View1[float64]{kokkos.Must(kokkos.NewView1[float64]("a", n0)), kokkos.Must(kokkos.NewView1[float64]("b", n0))}
			a1, r1 := scatterAccess1(t, op, v1[0], opts)
			b1, s1 := scatterAccess1(t, op, v1[1], opts)
			for range 200 {
				i, m, x := rng.IntN(n0), scatterMethod(rng, op), scatterValue[float64](rng, op)
				scatterCall1(a1, m, i, x)
				b1.OutOfLine(m, i, x)
			}
			mustPanic(t, "OutOfLine out of bounds", func() { b1.OutOfLine("Update", n0, 1) }, `"b"`, fmt.Sprintf("Update(%d)", n0))
			r1()
			s1()
			for i := range n0 {
				if x, y := v1[0].At(i), v1[1].At(i); x != y {
					t.Fatalf("%v %v rank 1: (%d) = %v through the method, %v through OutOfLine", op, c, i, x, y)
				}
			}
			v2 := kokkos.Must(kokkos.NewView2[float64]("g", n0, n1))
			w2 := kokkos.Must(kokkos.NewView2[float64]("h", n0, n1))
			sa := kokkos.Must(NewScatterView2[ScatterSum](v2, opts...))
			sb := kokkos.Must(NewScatterView2[ScatterSum](w2, opts...))
			a2, b2 := sa.Access(), sb.Access()
			for range 200 {
				i, j, x := rng.IntN(n0), rng.IntN(n1), scatterValue[float64](rng, opSum)
				m := scatterMethod(rng, opSum)
				switch m {
				case "Add":
					a2.Add(i, j, x)
				case "Sub":
					a2.Sub(i, j, x)
				default:
					a2.Update(i, j, x)
				}
				b2.OutOfLine(m, i, j, x)
			}
			mustPanic(t, "OutOfLine of a misfit", func() { b2.OutOfLine("Mul", 0, 0, 2) }, "Mul of a ScatterSum")
			a2.Release()
			b2.Release()
			for i := range n0 {
				for j := range n1 {
					if x, y := v2.At(i, j), w2.At(i, j); x != y {
						t.Fatalf("%v rank 2: (%d, %d) = %v through the method, %v through OutOfLine", c, i, j, x, y)
					}
				}
			}
		}
	}
}
