package gonum

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// randomView2 returns a view of extents n0×n1 in the layout l, filled with
// random values.
func randomView2(t testing.TB, rng *rand.Rand, n0, n1 int, l kokkos.Layout) kokkos.View2[float64] {
	t.Helper()
	v := kokkos.Must(kokkos.NewView2[float64]("V", n0, n1, l))
	for i := range n0 {
		for j := range n1 {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	return v
}

// sameElements fails t unless m.At(i, j) == v.At(i, j) for every index.
func sameElements(t testing.TB, m mat.Matrix, v kokkos.View2[float64]) {
	t.Helper()
	r, c := m.Dims()
	if r != v.Extent(0) || c != v.Extent(1) {
		t.Fatalf("dims %d×%d, view %d×%d", r, c, v.Extent(0), v.Extent(1))
	}
	for i := range r {
		for j := range c {
			if m.At(i, j) != v.At(i, j) {
				t.Fatalf("(%d, %d): matrix %v, view %v", i, j, m.At(i, j), v.At(i, j))
			}
		}
	}
}

// writeThrough checks that m and v share memory: a write on each side is
// read on the other.
func writeThrough(t testing.TB, rng *rand.Rand, m interface {
	mat.Matrix
	Set(i, j int, x float64)
}, v kokkos.View2[float64]) {
	t.Helper()
	r, c := m.Dims()
	for range 8 {
		i, j := rng.IntN(r), rng.IntN(c)
		x := rng.NormFloat64()
		m.Set(i, j, x)
		if v.At(i, j) != x {
			t.Fatalf("matrix Set(%d, %d) not seen by the view", i, j)
		}
		v.Set(i, j, x+1)
		if m.At(i, j) != x+1 {
			t.Fatalf("view Set(%d, %d) not seen by the matrix", i, j)
		}
	}
}

// transposeSetter sets elements of a mat.Transpose of a *mat.Dense.
type transposeSetter struct{ mat.Transpose }

func (t transposeSetter) Set(i, j int, x float64) { t.Matrix.(*mat.Dense).Set(j, i, x) }

// TestDenseSubviews converts random subviews of row-major and padded
// parents without copying and checks elements and shared memory.
func TestDenseSubviews(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n0, n1 := 1+rng.IntN(9), 1+rng.IntN(9)
		p := randomView2(t, rng, n0, n1, kokkos.LayoutRight)
		b0, b1 := rng.IntN(n0), rng.IntN(n1)
		e0, e1 := b0+1+rng.IntN(n0-b0), b1+1+rng.IntN(n1-b1)
		v := p.Subview2(kokkos.Pair(b0, e0), kokkos.Pair(b1, e1))
		m, err := Dense(v)
		if err != nil {
			t.Fatal(err)
		}
		sameElements(t, m, v)
		writeThrough(t, rng, m, v)
		if rs := m.RawMatrix().Stride; e0-b0 > 1 && rs != n1 {
			t.Fatalf("stride %d, want the parent's row stride %d", rs, n1)
		}
		// A mat operation reads the padded storage correctly.
		var sum mat.Dense
		sum.Add(m, m)
		for i := range e0 - b0 {
			for j := range e1 - b1 {
				if sum.At(i, j) != 2*v.At(i, j) {
					t.Fatalf("Add (%d, %d)", i, j)
				}
			}
		}
	}
}

// TestTransposeLayoutLeft converts column-major views and their subviews
// without copying.
func TestTransposeLayoutLeft(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		n0, n1 := 1+rng.IntN(9), 1+rng.IntN(9)
		p := randomView2(t, rng, n0, n1, kokkos.LayoutLeft)
		b0, b1 := rng.IntN(n0), rng.IntN(n1)
		v := p.Subview2(kokkos.Pair(b0, n0), kokkos.Pair(b1, n1))
		tr, err := Transpose(v)
		if err != nil {
			t.Fatal(err)
		}
		sameElements(t, tr, v)
		writeThrough(t, rng, transposeSetter{tr}, v)
		c, err := CopyDense(v)
		if err != nil {
			t.Fatal(err)
		}
		sameElements(t, c, v)
		if n0-b0 > 1 && n1-b1 > 1 {
			if _, err := Dense(v); !errors.Is(err, kokkos.ErrLayout) {
				t.Fatalf("Dense of a column-major view: %v", err)
			}
		}
	}
	v := randomView2(t, rng, 3, 4, kokkos.LayoutRight)
	if _, err := Transpose(v); !errors.Is(err, kokkos.ErrLayout) {
		t.Fatalf("Transpose of a row-major view: %v", err)
	}
}

// TestCopyDenseStrided copies a view with no unit stride, which neither
// Dense nor Transpose take.
func TestCopyDenseStrided(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := randomView2(t, rng, 8, 9, kokkos.LayoutRight)
	v := kokkos.Must(kokkos.WrapView2(p.Data(), 3, 4, kokkos.WithStrides(18, 2)))
	for _, f := range []func() error{
		func() error { _, err := Dense(v); return err },
		func() error { _, err := Transpose(v); return err },
	} {
		if err := f(); !errors.Is(err, kokkos.ErrLayout) {
			t.Fatalf("strided view: %v", err)
		}
	}
	c, err := CopyDense(v)
	if err != nil {
		t.Fatal(err)
	}
	sameElements(t, c, v)
	c.Set(0, 0, 42)
	if v.At(0, 0) == 42 {
		t.Fatal("CopyDense shares memory")
	}
}

func TestRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	v := randomView2(t, rng, 3, 4, kokkos.LayoutRight)
	ro := v.ReadOnly()
	at := kokkos.Must(v.AsTraits(kokkos.Atomic))
	dev := kokkos.Must(kokkos.NewView2[float64]("dev", 3, 4, kokkos.InSpace(backendtest.FakeDevice(false))))
	empty := kokkos.Must(kokkos.NewView2[float64]("empty", 0, 4))
	ro1 := kokkos.Must(kokkos.NewView1[float64]("x", 3))
	ro1 = ro1.ReadOnly()
	dev1 := kokkos.Must(kokkos.NewView1[float64]("dev1", 3, kokkos.InSpace(backendtest.FakeDevice(false))))
	cases := []struct {
		name string
		err  error
		kind error
		text string
	}{
		{"Dense read-only", second(Dense(ro)), kokkos.ErrReadOnly, "copy the view"},
		{"Transpose read-only", second(Transpose(ro)), kokkos.ErrReadOnly, "read-only"},
		{"General atomic", second(General(at)), ErrAtomic, "atomics"},
		{"Dense device", second(Dense(dev)), kokkos.ErrNotHostAccessible, "mirror it first"},
		{"CopyDense device", second(CopyDense(dev)), kokkos.ErrNotHostAccessible, "CreateMirrorViewAndCopy"},
		{"Dense empty", second(Dense(empty)), kokkos.ErrShape, "zero dimension"},
		{"CopyDense empty", second(CopyDense(empty)), kokkos.ErrShape, "zero dimension"},
		{"Vector read-only", second(Vector(ro1)), kokkos.ErrReadOnly, "read-only"},
		{"VecDense device", second(VecDense(dev1)), kokkos.ErrNotHostAccessible, "mirror"},
		{"CopyVecDense device", second(CopyVecDense(dev1)), kokkos.ErrNotHostAccessible, "mirror"},
		{"FromGeneral stride", second(FromGeneral(blas64.General{Rows: 2, Cols: 3, Stride: 2, Data: make([]float64, 6)}, "g")), kokkos.ErrShape, "stride 2"},
		{"FromGeneral short", second(FromGeneral(blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 5)}, "g")), kokkos.ErrShape, "5 elements"},
		{"FromVector inc", second(FromVector(blas64.Vector{N: 3, Inc: -1, Data: make([]float64, 3)}, "x")), kokkos.ErrLayout, "increment -1"},
		{"FromVector negative", second(FromVector(blas64.Vector{N: -1, Inc: 1}, "x")), kokkos.ErrShape, "negative length"},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.kind) || !strings.Contains(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %v containing %q", c.name, c.err, c.kind, c.text)
		}
	}
	// The messages name the view.
	if err := second(Dense(ro)); !strings.Contains(err.Error(), `"V"`) || !strings.Contains(err.Error(), "[3 4]") {
		t.Errorf("message does not name the view: %v", err)
	}
	// Read-only and atomic views copy.
	for _, w := range []kokkos.View2[float64]{ro, at} {
		c, err := CopyDense(w)
		if err != nil {
			t.Fatal(err)
		}
		r, cc := c.Dims()
		for i := range r {
			for j := range cc {
				if c.At(i, j) != v.At(i, j) {
					t.Fatalf("CopyDense (%d, %d)", i, j)
				}
			}
		}
	}
	x, err := CopyVecDense(ro1)
	if err != nil || x.Len() != 3 {
		t.Fatalf("CopyVecDense of a read-only view: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestFromDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50 {
		r, c := 1+rng.IntN(7), 1+rng.IntN(7)
		big := mat.NewDense(r+2, c+3, nil)
		for i := range r + 2 {
			for j := range c + 3 {
				big.Set(i, j, rng.NormFloat64())
			}
		}
		// A slice of a larger matrix is padded: Stride > Cols.
		m := big.Slice(1, 1+r, 2, 2+c).(*mat.Dense)
		v, err := FromDense(m, "m")
		if err != nil {
			t.Fatal(err)
		}
		if v.Layout() != kokkos.LayoutRight || v.Stride(0) != max(c+3, 0) && r > 1 || v.Label() != "m" {
			t.Fatalf("layout %v, strides %v, label %q", v.Layout(), v.Strides(), v.Label())
		}
		sameElements(t, m, v)
		writeThrough(t, rng, m, v)
		// Back to gonum, the same storage.
		m2, err := Dense(v)
		if err != nil {
			t.Fatal(err)
		}
		if m2.RawMatrix().Stride != m.RawMatrix().Stride && r > 1 || &m2.RawMatrix().Data[0] != &m.RawMatrix().Data[0] {
			t.Fatal("round trip does not share storage")
		}
	}
}

// Gonum has no matrix or vector with a zero dimension: an empty mat.Dense
// or mat.VecDense (a receiver not yet used), and blas64 values of a zero
// dimension, are refused with kokkos.ErrShape, as views with a zero extent
// are in the other direction. A nil matrix or vector is an error wrapping
// ErrNil, not a nil dereference.
func TestEmptyAndNilAreRefusedBothWays(t *testing.T) {
	var e mat.Dense
	var ev mat.VecDense
	cases := []struct {
		name string
		err  error
		kind error
		text string
	}{
		{"FromDense empty", second(FromDense(&e, "empty")), kokkos.ErrShape, "zero dimension"},
		{"FromGeneral 0×3", second(FromGeneral(blas64.General{Rows: 0, Cols: 3, Stride: 3}, "g")), kokkos.ErrShape, "0 rows and 3 columns"},
		{"FromGeneral 3×0", second(FromGeneral(blas64.General{Rows: 3, Cols: 0, Stride: 1}, "g")), kokkos.ErrShape, "zero dimension"},
		{"Dense 0×3", second(Dense(kokkos.Must(kokkos.NewView2[float64]("z", 0, 3)))), kokkos.ErrShape, "zero dimension"},
		{"FromVecDense empty", second(FromVecDense(&ev, "x")), kokkos.ErrShape, "length 0"},
		{"FromVector 0", second(FromVector(blas64.Vector{N: 0, Inc: 1}, "x")), kokkos.ErrShape, "length 0"},
		{"VecDense 0", second(VecDense(kokkos.Must(kokkos.NewView1[float64]("z", 0)))), kokkos.ErrShape, "zero dimension"},
		{"FromDense nil", second(FromDense(nil, "m")), ErrNil, "nil *mat.Dense"},
		{"FromVecDense nil", second(FromVecDense(nil, "x")), ErrNil, "nil *mat.VecDense"},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.kind) || !strings.Contains(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %v containing %q", c.name, c.err, c.kind, c.text)
		}
	}
}

// The refusal of a layout says what helps that view: Transpose for a
// column-major view given to Dense, Dense for a row-major view given to
// Transpose, and a copy (CopyDense, or DeepCopy into a LayoutRight view)
// for a view with no unit stride, where neither would.
func TestLayoutRefusalSaysWhatHelps(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	left := randomView2(t, rng, 3, 4, kokkos.LayoutLeft)
	right := randomView2(t, rng, 3, 4, kokkos.LayoutRight)
	p := randomView2(t, rng, 8, 9, kokkos.LayoutRight)
	strided := kokkos.Must(kokkos.WrapView2(p.Data(), 3, 4, kokkos.WithStrides(18, 2)))
	check := func(name string, err error, want, not string) {
		t.Helper()
		if !errors.Is(err, kokkos.ErrLayout) || !strings.Contains(err.Error(), want) || not != "" && strings.Contains(err.Error(), not) {
			t.Errorf("%s: %v; want kokkos.ErrLayout saying %q and not %q", name, err, want, not)
		}
	}
	check("Dense of LayoutLeft", second(Dense(left)), "converts with Transpose", "")
	check("Transpose of LayoutRight", second(Transpose(right)), "converts with Dense", "")
	check("Dense of no unit stride", second(Dense(strided)), "DeepCopy it into a LayoutRight view", "Transpose (no copy)")
	check("General of no unit stride", second(General(strided)), "CopyDense", "converts with Transpose")
	check("Transpose of no unit stride", second(Transpose(strided)), "DeepCopy it into a LayoutRight view", "converts with Dense")

	// What the message says helps does: a LayoutRight copy converts.
	c := kokkos.Must(kokkos.NewView2[float64]("C", 3, 4))
	if err := kokkos.DeepCopy(c, strided); err != nil {
		t.Fatal(err)
	}
	m, err := Dense(c)
	if err != nil {
		t.Fatal(err)
	}
	sameElements(t, m, strided)
}

// A product written into a LayoutLeft view: Transpose(c) is cᵀ as a
// row-major matrix over c's memory, so storing (A·B)ᵀ = Bᵀ·Aᵀ there
// leaves A·B in c, for random shapes and values.
func TestProductIntoLayoutLeft(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 50 {
		m, k, n := 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6)
		a := randomView2(t, rng, m, k, kokkos.LayoutRight)
		b := randomView2(t, rng, k, n, kokkos.LayoutLeft)
		c := randomView2(t, rng, m, n, kokkos.LayoutLeft)
		am, err := Dense(a)
		if err != nil {
			t.Fatal(err)
		}
		bt, err := Transpose(b)
		if err != nil {
			t.Fatal(err)
		}
		ct, err := Transpose(c)
		if err != nil {
			t.Fatal(err)
		}
		ct.Matrix.(*mat.Dense).Mul(bt.T(), am.T())
		for i := range m {
			for j := range n {
				want := 0.0
				for l := range k {
					want += a.At(i, l) * b.At(l, j)
				}
				if d := c.At(i, j) - want; d > 1e-12 || d < -1e-12 {
					t.Fatalf("%d×%d·%d×%d: c(%d, %d) = %v, want %v", m, k, k, n, i, j, c.At(i, j), want)
				}
			}
		}
	}
}

func TestVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 50 {
		n0, n1 := 1+rng.IntN(7), 1+rng.IntN(7)
		p := randomView2(t, rng, n0, n1, kokkos.LayoutRight)
		j := rng.IntN(n1)
		col := p.Subview1(kokkos.All, j) // stride n1
		x, err := VecDense(col)
		if err != nil {
			t.Fatal(err)
		}
		if x.Len() != n0 {
			t.Fatalf("len %d", x.Len())
		}
		for i := range n0 {
			if x.AtVec(i) != col.At(i) {
				t.Fatalf("element %d", i)
			}
		}
		i := rng.IntN(n0)
		x.SetVec(i, 7.5)
		if p.At(i, j) != 7.5 {
			t.Fatal("VecDense write not seen by the view")
		}
		p.Set(i, j, -1)
		if x.AtVec(i) != -1 {
			t.Fatal("view write not seen by the VecDense")
		}
		back, err := FromVecDense(x, "col")
		if err != nil {
			t.Fatal(err)
		}
		if n0 > 1 && n1 > 1 && (back.Stride(0) != n1 || back.Layout() != kokkos.LayoutStride) {
			t.Fatalf("FromVecDense strides %v layout %v", back.Strides(), back.Layout())
		}
		for i := range n0 {
			if back.At(i) != col.At(i) {
				t.Fatalf("FromVecDense element %d", i)
			}
		}
		c, err := CopyVecDense(col)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(c, x) {
			t.Fatal("CopyVecDense differs")
		}
	}
}

// FuzzSubview converts subviews of random bounds of a row-major or
// column-major parent, and checks each conversion against the view's
// elements or its refusal against the layout.
func FuzzSubview(f *testing.F) {
	f.Add(uint8(5), uint8(6), uint8(1), uint8(3), uint8(2), uint8(5), false)
	f.Add(uint8(4), uint8(1), uint8(0), uint8(4), uint8(0), uint8(1), true)
	f.Fuzz(func(t *testing.T, n0, n1, b0, e0, b1, e1 uint8, left bool) {
		N0, N1 := 1+int(n0%12), 1+int(n1%12)
		B0, B1 := int(b0)%N0, int(b1)%N1
		E0, E1 := B0+1+int(e0)%(N0-B0), B1+1+int(e1)%(N1-B1)
		l := kokkos.LayoutRight
		if left {
			l = kokkos.LayoutLeft
		}
		rng := rand.New(rand.NewPCG(uint64(N0), uint64(N1)))
		p := randomView2(t, rng, N0, N1, l)
		v := p.Subview2(kokkos.Pair(B0, E0), kokkos.Pair(B1, E1))
		rowMajor := E1-B1 == 1 || v.Stride(1) == 1
		colMajor := E0-B0 == 1 || v.Stride(0) == 1
		m, err := Dense(v)
		if rowMajor != (err == nil) {
			t.Fatalf("Dense of strides %v: %v", v.Strides(), err)
		}
		if err == nil {
			sameElements(t, m, v)
			writeThrough(t, rng, m, v)
		}
		tr, err := Transpose(v)
		if colMajor != (err == nil) {
			t.Fatalf("Transpose of strides %v: %v", v.Strides(), err)
		}
		if err == nil {
			sameElements(t, tr, v)
			writeThrough(t, rng, transposeSetter{tr}, v)
		}
		c, err := CopyDense(v)
		if err != nil {
			t.Fatal(err)
		}
		sameElements(t, c, v)
	})
}

// TestDenseLayoutStride converts a LayoutStride view with unit column
// stride, as a wrapped slice with a row stride gives.
func TestDenseLayoutStride(t *testing.T) {
	data := make([]float64, 3*7)
	for i := range data {
		data[i] = float64(i) + 0.5
	}
	v := kokkos.Must(kokkos.WrapView2(data, 3, 5, kokkos.WithStrides(7, 1)))
	if v.Layout() != kokkos.LayoutStride {
		t.Fatalf("layout %v", v.Layout())
	}
	m, err := Dense(v)
	if err != nil {
		t.Fatal(err)
	}
	if m.RawMatrix().Stride != 7 {
		t.Fatalf("stride %d", m.RawMatrix().Stride)
	}
	sameElements(t, m, v)
	writeThrough(t, rand.New(rand.NewPCG(13, 14)), m, v)
}

func TestReleased(t *testing.T) {
	v := kokkos.Must(kokkos.NewView2[float64]("R", 2, 2))
	x := kokkos.Must(kokkos.NewView1[float64]("x", 2))
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if err := x.Release(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Dense":        second(Dense(v)),
		"CopyDense":    second(CopyDense(v)),
		"VecDense":     second(VecDense(x)),
		"CopyVecDense": second(CopyVecDense(x)),
	} {
		if !errors.Is(err, kokkos.ErrReleased) || !strings.Contains(err.Error(), "Release") {
			t.Errorf("%s of a released view: %v", name, err)
		}
	}
}
