package containers

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
)

// The extents of the views of TestScatterView1 ... 6.
var scatterTestExtents = [...][]int{
	1: {37},
	2: {5, 7},
	3: {3, 4, 5},
	4: {2, 3, 2, 3},
	5: {2, 2, 3, 2, 2},
	6: {2, 2, 2, 2, 2, 3},
}

var (
	testThreadsOnce sync.Once
	testThreads     *kokkos.Threads
)

// threads8 is a pool of 8 workers, more than the machine may have, so
// that updates interleave.
func threads8() *kokkos.Threads {
	testThreadsOnce.Do(func() { testThreads = kokkos.NewThreads(8) })
	return testThreads
}

// scatterCase is one way of making and updating a ScatterView.
type scatterCase struct {
	name        string
	space       kokkos.ExecutionSpace
	layout      kokkos.Layout
	extra       []ScatterOption
	dup, atomic bool
	chunks      bool
}

func (c scatterCase) opts() []ScatterOption {
	return append([]ScatterOption{ScatterOn(c.space)}, c.extra...)
}

func scatterCases() []scatterCase {
	th := threads8()
	return []scatterCase{
		{name: "threads-default-each", space: th, layout: kokkos.LayoutRight, dup: true},
		{name: "threads-default-chunks", space: th, layout: kokkos.LayoutLeft, dup: true, chunks: true},
		{name: "threads-nondup-atomic", space: th, layout: kokkos.LayoutLeft, extra: []ScatterOption{ScatterNonDuplicated, ScatterAtomic}, atomic: true},
		{name: "threads-nondup-atomic-chunks", space: th, layout: kokkos.LayoutRight, extra: []ScatterOption{ScatterNonDuplicated, ScatterAtomic}, atomic: true, chunks: true},
		{name: "threads-dup-atomic", space: th, layout: kokkos.LayoutRight, extra: []ScatterOption{ScatterDuplicated, ScatterAtomic}, dup: true, atomic: true},
		{name: "serial-default", space: kokkos.Serial{}, layout: kokkos.LayoutLeft},
		{name: "serial-dup", space: kokkos.Serial{}, layout: kokkos.LayoutRight, extra: []ScatterOption{ScatterDuplicated}, dup: true, chunks: true},
		{name: "serial-atomic", space: kokkos.Serial{}, layout: kokkos.LayoutRight, extra: []ScatterOption{ScatterAtomic}, atomic: true},
	}
}

// scatterValue returns a random value for op: small integers or floats
// for sums, factors near 1 for products.
func scatterValue[T kokkos.Number](rng *rand.Rand, op opKind) T {
	var z T
	_, isFloat := any(z).(float64)
	if _, f32 := any(z).(float32); f32 {
		isFloat = true
	}
	switch {
	case op == opProd:
		return T(0.9 + 0.2*rng.Float64())
	case isFloat:
		return T(rng.Float64()*200 - 100)
	}
	return T(rng.IntN(201) - 100)
}

// scatterMethod returns a random accessor method that fits op.
func scatterMethod(rng *rand.Rand, op opKind) string {
	switch op {
	case opSum:
		return [...]string{"Add", "Sub", "Update"}[rng.IntN(3)]
	case opProd:
		return [...]string{"Mul", "Div", "Update"}[rng.IntN(3)]
	}
	return "Update"
}

// scatterRef applies method with v to r, serially: the reference.
func scatterRef[T kokkos.Number](method string, op opKind, r, v T) T {
	switch method {
	case "Add":
		return r + v
	case "Sub":
		return r - v
	case "Mul":
		return r * v
	case "Div":
		return r / v
	}
	return join(op, r, v)
}

// scatterClose reports whether got is want, to a relative 1e-9 for
// floats summed in another order.
func scatterClose[T kokkos.Number](got, want T) bool {
	g, w := float64(got), float64(want)
	return g == w || math.Abs(g-w) <= 1e-9*max(1, math.Abs(w))
}

func TestScatterDefaults(t *testing.T) {
	v := kokkos.Must(kokkos.NewView1[float64]("d", 4))
	cases := []struct {
		name        string
		opts        []ScatterOption
		dup, atomic bool
	}{
		{"threads", []ScatterOption{ScatterOn(threads8())}, true, false},
		{"serial", []ScatterOption{ScatterOn(kokkos.Serial{})}, false, false},
		{"one-worker", []ScatterOption{ScatterOn(kokkos.NewThreads(1))}, false, false},
		{"threads-atomic", []ScatterOption{ScatterOn(threads8()), ScatterAtomic}, true, true},
		{"threads-nondup", []ScatterOption{ScatterOn(threads8()), ScatterNonDuplicated}, false, false},
		{"serial-dup-atomic", []ScatterOption{ScatterOn(kokkos.Serial{}), ScatterDuplicated, ScatterAtomic}, true, true},
	}
	for _, c := range cases {
		sv, err := NewScatterView1[ScatterSum](v, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if sv.Duplicated() != c.dup || sv.IsAtomic() != c.atomic {
			t.Errorf("%s: Duplicated, IsAtomic = %v, %v, want %v, %v", c.name, sv.Duplicated(), sv.IsAtomic(), c.dup, c.atomic)
		}
		sv.Release()
	}
	sv := kokkos.Must(NewScatterView1[ScatterSum](v))
	if sv.Space() != kokkos.DefaultExecutionSpace() || sv.Duplicated() != (kokkos.DefaultExecutionSpace().Concurrency() > 1) {
		t.Errorf("no option: space %v, Duplicated %v", sv.Space(), sv.Duplicated())
	}
}

func TestScatterErrors(t *testing.T) {
	v := kokkos.Must(kokkos.NewView1[float64]("ro", 4))
	if _, err := NewScatterView1[ScatterSum](v.ReadOnly()); !errors.Is(err, ErrScatterView) || !strings.Contains(err.Error(), `"ro"`) {
		t.Errorf("read-only view: %v", err)
	}
	if _, err := NewScatterView1[ScatterSum](kokkos.View1[float64]{}); !errors.Is(err, ErrScatterView) {
		t.Errorf("zero view: %v", err)
	}
	sv := kokkos.Must(NewScatterView1[ScatterSum](v, ScatterOn(threads8())))
	other := kokkos.Must(kokkos.NewView1[float64]("other", 5))
	if err := sv.ContributeInto(other); !errors.Is(err, ErrScatterView) || !strings.Contains(err.Error(), "[5]") || !strings.Contains(err.Error(), "[4]") {
		t.Errorf("other extents: %v", err)
	}
	w := kokkos.Must(kokkos.NewView1[float64]("w", 4))
	if err := sv.ContributeInto(w.ReadOnly()); !errors.Is(err, ErrScatterView) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only destination: %v", err)
	}
	if _, err := sv.DeviceView(); !errors.Is(err, ErrScatterView) || !strings.Contains(err.Error(), "duplicated") {
		t.Errorf("DeviceView of a duplicated ScatterView: %v", err)
	}
	nd := kokkos.Must(NewScatterView1[ScatterSum](v, ScatterNonDuplicated))
	if dv, err := nd.DeviceView(); err != nil || !v.Equal(dv.(kokkos.View1[float64])) {
		t.Errorf("DeviceView: %v, %v", dv, err)
	}
}

// mustPanic calls f and checks that it panics with a message holding
// each of want.
func mustPanic(t *testing.T, name string, f func(), want ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		msg, _ := r.(string)
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: panic %q does not say %q", name, msg, w)
			}
		}
	}()
	f()
}

func TestScatterPanics(t *testing.T) {
	v := kokkos.Must(kokkos.NewView2[float64]("grid", 3, 4))
	for _, opts := range [][]ScatterOption{{ScatterOn(threads8())}, {ScatterNonDuplicated, ScatterAtomic}, {ScatterOn(kokkos.Serial{})}} {
		prod := kokkos.Must(NewScatterView2[ScatterProd](v, opts...))
		a := prod.Access()
		mustPanic(t, "Add of a ScatterProd", func() { a.Add(0, 0, 1) }, `"grid"`, "Add of a ScatterProd", "call Mul, Div or Update")
		mustPanic(t, "Sub of a ScatterProd", func() { a.Sub(0, 0, 1) }, "Sub of a ScatterProd")
		mustPanic(t, "out of bounds", func() { a.Mul(3, 1, 2) }, `"grid"`, "Mul(3, 1)", "extents (3, 4)")
		mustPanic(t, "negative", func() { a.Update(0, -1, 2) }, "Update(0, -1)", "extents (3, 4)")
		a.Release()
		a.Release()
		mustPanic(t, "after Release", func() { a.Mul(0, 0, 2) }, "after the accessor's Release")
		mx := kokkos.Must(NewScatterView2[ScatterMax](v, opts...))
		b := mx.Access()
		mustPanic(t, "Add of a ScatterMax", func() { b.Add(1, 1, 1) }, "Add of a ScatterMax", "call Update")
		mustPanic(t, "Div of a ScatterMax", func() { b.Div(1, 1, 1) }, "Div of a ScatterMax")
		sum := kokkos.Must(NewScatterView2[ScatterSum](v, opts...))
		c := sum.Access()
		mustPanic(t, "Mul of a ScatterSum", func() { c.Mul(1, 1, 1) }, "Mul of a ScatterSum", "call Add, Sub or Update")
		c.Release()
		b.Release()
		sum.Release()
		sum.Release()
		mustPanic(t, "Access after Release", func() { sum.Access() }, `"grid"`, "Access after Release")
		mustPanic(t, "Reset after Release", func() { _ = sum.Reset() }, "Reset after Release")
		mx.Release()
		prod.Release()
	}
	var zero ScatterView1[ScatterSum, int32]
	mustPanic(t, "zero ScatterView", func() { zero.Access() }, "zero ScatterView", "NewScatterView1")
	var za ScatterAccess1[int32]
	mustPanic(t, "zero accessor", func() { za.Add(0, 1) }, "zero accessor")
	sv := kokkos.Must(NewScatterView2[ScatterSum](v))
	mustPanic(t, "Extent", func() { sv.Extent(2) }, "Extent(2)", "rank is 2")
}

// fill sets v(i, j) to random values and returns them.
func fill2(rng *rand.Rand, v kokkos.View2[int64]) [][]int64 {
	out := make([][]int64, v.Extent(0))
	for i := range out {
		out[i] = make([]int64, v.Extent(1))
		for j := range out[i] {
			out[i][j] = rng.Int64N(1000) + 1
			v.Set(i, j, out[i][j])
		}
	}
	return out
}

func check2(t *testing.T, what string, v kokkos.View2[int64], want func(i, j int) int64) {
	t.Helper()
	for i := range v.Extent(0) {
		for j := range v.Extent(1) {
			if got := v.At(i, j); got != want(i, j) {
				t.Fatalf("%s: (%d, %d) = %d, want %d", what, i, j, got, want(i, j))
			}
		}
	}
}

// TestScatterResetContribute checks Reset, ResetExcept, ContributeInto
// and Subview as Kokkos has them, duplicated and not.
func TestScatterResetContribute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n0, n1 = 4, 6
	add := func(sv ScatterView2[ScatterSum, int64], k int64) {
		kokkos.ParallelForChunks("add", kokkos.Range(0, n0*n1).On(threads8()).WithChunk(1), func(lo, hi int) {
			a := sv.Access()
			defer a.Release()
			for e := lo; e < hi; e++ {
				a.Add(e/n1, e%n1, k*int64(e+1))
			}
		})
	}
	t.Run("non-duplicated", func(t *testing.T) {
		v := kokkos.Must(kokkos.NewView2[int64]("v", n0, n1, kokkos.LayoutLeft))
		init := fill2(rng, v)
		sv := kokkos.Must(NewScatterView2[ScatterSum](v, ScatterOn(threads8()), ScatterNonDuplicated, ScatterAtomic))
		if !v.Equal(sv.Subview()) {
			t.Fatal("Subview is not the view")
		}
		// ResetExcept(v) keeps v's values; updates land in v itself.
		if err := sv.ResetExcept(v); err != nil {
			t.Fatal(err)
		}
		add(sv, 1)
		check2(t, "updated", v, func(i, j int) int64 { return init[i][j] + int64(i*n1+j+1) })
		// Contributing into the view itself does nothing.
		if err := sv.ContributeInto(v); err != nil {
			t.Fatal(err)
		}
		check2(t, "contributed into itself", v, func(i, j int) int64 { return init[i][j] + int64(i*n1+j+1) })
		// Into another view: added to what it holds.
		w := kokkos.Must(kokkos.NewView2[int64]("w", n0, n1))
		winit := fill2(rng, w)
		if err := sv.ContributeInto(w); err != nil {
			t.Fatal(err)
		}
		check2(t, "contributed into another view", w, func(i, j int) int64 { return winit[i][j] + init[i][j] + int64(i*n1+j+1) })
		// ResetExcept of another view resets v, as Reset does.
		if err := sv.ResetExcept(w); err != nil {
			t.Fatal(err)
		}
		check2(t, "ResetExcept(other)", v, func(i, j int) int64 { return 0 })
		fill2(rng, v)
		if err := sv.Reset(); err != nil {
			t.Fatal(err)
		}
		check2(t, "Reset", v, func(i, j int) int64 { return 0 })
	})
	t.Run("duplicated", func(t *testing.T) {
		v := kokkos.Must(kokkos.NewView2[int64]("v", n0, n1))
		init := fill2(rng, v)
		sv := kokkos.Must(NewScatterView2[ScatterSum](v, ScatterOn(threads8())))
		defer sv.Release()
		if !sv.Duplicated() {
			t.Fatal("not duplicated")
		}
		add(sv, 1)
		// The updates are in the copies, not in v.
		check2(t, "before ContributeInto", v, func(i, j int) int64 { return init[i][j] })
		w := kokkos.Must(kokkos.NewView2[int64]("w", n0, n1, kokkos.LayoutLeft))
		winit := fill2(rng, w)
		if err := sv.ContributeInto(w); err != nil {
			t.Fatal(err)
		}
		check2(t, "into another view", w, func(i, j int) int64 { return winit[i][j] + int64(i*n1+j+1) })
		if err := sv.ContributeInto(v); err != nil {
			t.Fatal(err)
		}
		check2(t, "into the view", v, func(i, j int) int64 { return init[i][j] + int64(i*n1+j+1) })
		// Reset, then the next updates only.
		if err := sv.ResetExcept(v); err != nil {
			t.Fatal(err)
		}
		add(sv, 2)
		if err := sv.ContributeInto(v); err != nil {
			t.Fatal(err)
		}
		check2(t, "after ResetExcept", v, func(i, j int) int64 { return init[i][j] + 3*int64(i*n1+j+1) })
		// Subview is the first copy; contributing into it adds the
		// others, and ResetExcept(Subview()) keeps it.
		sub := sv.Subview()
		if err := sv.ContributeInto(sub); err != nil {
			t.Fatal(err)
		}
		if err := sv.ResetExcept(sub); err != nil {
			t.Fatal(err)
		}
		check2(t, "Subview after ContributeInto and ResetExcept", sub, func(i, j int) int64 { return 2 * int64(i*n1+j+1) })
		u := kokkos.Must(kokkos.NewView2[int64]("u", n0, n1))
		if err := sv.ContributeInto(u); err != nil {
			t.Fatal(err)
		}
		check2(t, "all copies after ResetExcept(Subview())", u, func(i, j int) int64 { return 2 * int64(i*n1+j+1) })
		if err := sv.Reset(); err != nil {
			t.Fatal(err)
		}
		check2(t, "Subview after Reset", sub, func(i, j int) int64 { return 0 })
	})
	t.Run("prod-min-max-identity", func(t *testing.T) {
		v := kokkos.Must(kokkos.NewView1[float32]("f", 3))
		for _, c := range []struct {
			reset func() error
			want  float32
		}{
			{kokkos.Must(NewScatterView1[ScatterProd](v, ScatterNonDuplicated)).Reset, 1},
			{kokkos.Must(NewScatterView1[ScatterMin](v, ScatterNonDuplicated)).Reset, float32(math.Inf(1))},
			{kokkos.Must(NewScatterView1[ScatterMax](v, ScatterNonDuplicated)).Reset, float32(math.Inf(-1))},
			{kokkos.Must(NewScatterView1[ScatterSum](v, ScatterNonDuplicated)).Reset, 0},
		} {
			if err := c.reset(); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if v.At(i) != c.want {
					t.Fatalf("Reset: %v, want %v", v.At(i), c.want)
				}
			}
		}
	})
}

func TestScatterReshape(t *testing.T) {
	for _, dup := range []ScatterDuplication{ScatterDuplicated, ScatterNonDuplicated} {
		v := kokkos.Must(kokkos.NewView2[int64]("r", 3, 4))
		sv := kokkos.Must(NewScatterView2[ScatterSum](v, ScatterOn(threads8()), dup))
		a := sv.Access()
		for i := range 3 {
			for j := range 4 {
				a.Add(i, j, int64(10*i+j+1))
			}
		}
		a.Release()
		if err := sv.Resize(4, 2); err != nil {
			t.Fatal(err)
		}
		if sv.Extent(0) != 4 || sv.Extent(1) != 2 {
			t.Fatalf("extents after Resize: %d, %d", sv.Extent(0), sv.Extent(1))
		}
		w := kokkos.Must(kokkos.NewView2[int64]("w", 4, 2))
		if err := sv.ContributeInto(w); err != nil {
			t.Fatal(err)
		}
		check2(t, "after Resize", w, func(i, j int) int64 {
			if i < 3 {
				return int64(10*i + j + 1)
			}
			return 0
		})
		if err := sv.Realloc(2, 5); err != nil {
			t.Fatal(err)
		}
		a = sv.Access()
		a.Add(1, 4, 7)
		mustPanic(t, "old extents", func() { a.Add(2, 0, 1) }, "extents (2, 5)")
		a.Release()
		u := kokkos.Must(kokkos.NewView2[int64]("u", 2, 5))
		if err := sv.ContributeInto(u); err != nil {
			t.Fatal(err)
		}
		check2(t, "after Realloc", u, func(i, j int) int64 {
			if i == 1 && j == 4 {
				return 7
			}
			return 0
		})
		if err := sv.Realloc(-1, 2); !errors.Is(err, ErrScatterView) {
			t.Errorf("negative extent: %v", err)
		}
		sv.Release()
	}
}

// TestScatterRace updates one ScatterView from many goroutines at once,
// each with its own accessor: run with -race.
func TestScatterRace(t *testing.T) {
	const bins, per, workers = 16, 2000, 12
	for _, opts := range [][]ScatterOption{
		{ScatterOn(threads8())},
		{ScatterOn(threads8()), ScatterNonDuplicated, ScatterAtomic},
		{ScatterOn(threads8()), ScatterDuplicated, ScatterAtomic},
	} {
		v := kokkos.Must(kokkos.NewView1[int32]("hist", bins))
		sv := kokkos.Must(NewScatterView1[ScatterSum](v, opts...))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range per {
					a := sv.Access()
					a.Add((k*7+w)%bins, 1)
					a.Release()
				}
			}()
		}
		wg.Wait()
		if err := sv.ContributeInto(v); err != nil {
			t.Fatal(err)
		}
		total := int32(0)
		for i := range bins {
			total += v.At(i)
		}
		if total != workers*per {
			t.Fatalf("%d counts, want %d", total, workers*per)
		}
		sv.Release()
	}
}
