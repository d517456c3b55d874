package kerneltest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/kernelir"
	"github.com/gokkos/kokkos/kernel"
)

// The kernels of locals.go, at every place, against plain Go loops.

func TestLocalHist(t *testing.T) {
	rng := rand.New(rand.NewPCG(201, 1))
	const n, m = 500, 37
	in := kokkos.Must(kokkos.NewView2[int32]("in", n, m))
	fill(in, func() int32 { return rng.Int32() - math.MaxInt32/2 })
	hist := kokkos.Must(kokkos.NewView1[int32]("hist", 16))
	mode := kokkos.Must(kokkos.NewView1[int32]("mode", n))
	for i := range n {
		var bins [16]int32
		for k := range m {
			bins[in.At(i, k)&15]++
		}
		best := 0
		for b := range 16 {
			if bins[b] > bins[best] {
				best = b
			}
			hist.Set(b, hist.At(b)+bins[b])
		}
		mode.Set(i, int32(best)-100+bins[0])
	}
	for _, w := range places(t) {
		gh := kokkos.Must(kokkos.NewView1[int32]("hist", 16, kokkos.InSpace(w.mem)))
		keep(t, &gh)
		gm := kokkos.Must(kokkos.NewView1[int32]("mode", n, kokkos.InSpace(w.mem)))
		keep(t, &gm)
		if launched(t, w, kernel.For("localhist", kokkos.Range(0, n).On(w.space), LocalHist, at(t, w, in, kokkos.CreateMirror), gh, gm)) {
			check(t, w, "hist", gh, hist)
			check(t, w, "mode", gm, mode)
		}
	}
}

func TestForces(t *testing.T) {
	rng := rand.New(rand.NewPCG(202, 1))
	const n, eps = 300, 1e-3
	pos := kokkos.Must(kokkos.NewView2[float64]("pos", n, 3))
	fill(pos, randFloat[float64](rng, -1, 1))
	want := kokkos.Must(kokkos.NewView2[float64]("f", n, 3))
	for i := range n {
		var ax, ay, az float64
		for j := range n {
			rx, ry, rz := pos.At(j, 0)-pos.At(i, 0), pos.At(j, 1)-pos.At(i, 1), pos.At(j, 2)-pos.At(i, 2)
			d2 := float64(rx*rx) + float64(ry*ry) + float64(rz*rz) + eps
			s := 1 / float64(d2*math.Sqrt(d2))
			ax, ay, az = ax+float64(rx*s), ay+float64(ry*s), az+float64(rz*s)
		}
		want.Set(i, 0, ax)
		want.Set(i, 1, ay)
		want.Set(i, 2, az)
	}
	for _, w := range places(t) {
		f := kokkos.Must(kokkos.NewView2[float64]("f", n, 3, kokkos.InSpace(w.mem)))
		keep(t, &f)
		if launched(t, w, kernel.For("forces", kokkos.Range(0, n).On(w.space), Forces, at(t, w, pos, kokkos.CreateMirror), f, eps)) {
			check(t, w, "f", f, want)
		}
	}
}

func TestDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(203, 1))
	const n, m = 400, 9
	seed := rng.Uint64()
	out := kokkos.Must(kokkos.NewView2[uint64]("out", n, m))
	mo := kokkos.Must(kokkos.NewView2[float64]("m", n, 3))
	for i := range n {
		s := seed ^ uint64(i)*0x9E3779B97F4A7C15
		if s == 0 {
			s = 1
		}
		next := func() uint64 {
			s ^= s >> 12
			s ^= s << 25
			s ^= s >> 27
			return s * 2685821657736338717
		}
		for range i % 5 {
			next()
		}
		var sum, sq float64
		for k := range m {
			x := next()
			out.Set(i, k, x)
			u := float64(x>>11) / (1 << 53)
			sum += u
			sq += float64(u * u)
		}
		mo.Set(i, 0, m)
		mo.Set(i, 1, sum)
		mo.Set(i, 2, sq)
	}
	for _, w := range places(t) {
		go2 := kokkos.Must(kokkos.NewView2[uint64]("out", n, m, kokkos.InSpace(w.mem)))
		keep(t, &go2)
		gm := kokkos.Must(kokkos.NewView2[float64]("m", n, 3, kokkos.InSpace(w.mem)))
		keep(t, &gm)
		if launched(t, w, kernel.For("draws", kokkos.Range(0, n).On(w.space), Draws, go2, gm, seed)) {
			check(t, w, "out", go2, out)
			check(t, w, "m", gm, mo)
		}
	}
}

func TestLocalIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(204, 1))
	const n = 1000
	idx := kokkos.Must(kokkos.NewView1[int32]("idx", n))
	fill(idx, func() int32 { return rng.Int32N(8) })
	want := kokkos.Must(kokkos.NewView1[int32]("out", n))
	for i := range n {
		x := idx.At(i)
		g := int32(0)
		if x&3 == 3 {
			g = 49
		}
		want.Set(i, x*x+g)
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView1[int32]("out", n, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("localindex", kokkos.Range(0, n).On(w.space), LocalIndex, at(t, w, idx, kokkos.CreateMirror), out)) {
			check(t, w, "out", out, want)
		}
	}
	// An index outside the table: the host panics as Go does, the
	// description's interpreter (the fake device) fails the launch.
	idx.Set(n/2, 8)
	for _, w := range places(t) {
		if w.gpu() {
			continue // not checked on the device
		}
		out := kokkos.Must(kokkos.NewView1[int32]("out", n, kokkos.InSpace(w.mem)))
		keep(t, &out)
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("%v", r)
				}
			}()
			err = kernel.For("localindex", kokkos.Range(0, n).On(w.space), LocalIndex, at(t, w, idx, kokkos.CreateMirror), out)
			if err == nil {
				err = w.fenceErr()
			}
		}()
		if err == nil || !strings.Contains(err.Error(), "index out of range [8] with length 8") {
			t.Errorf("%s: an index outside the table gave %v", w.name, err)
		}
	}
	k, err := kernelir.Parse(specOf(t, "kerneltest.LocalIndex").IR)
	if err != nil {
		t.Fatal(err)
	}
	m, err := kernelir.NewMachine(k, kernelir.View{Data: []int32{-1}, Extents: []int{1}, Strides: []int{1}}, kernelir.View{Data: []int32{0}, Extents: []int{1}, Strides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run([]int{0}, nil, false); !errors.Is(err, kernelir.ErrRun) {
		t.Errorf("the description at index -1: %v, want ErrRun", err)
	}
}

// specOf returns the spec of the kernel named name.
func specOf(t *testing.T, name string) kernel.Spec {
	for _, s := range gkSpecs {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no kernel %s", name)
	return kernel.Spec{}
}

// fenceErr waits for w's queued work and returns its error.
func (w where) fenceErr() error {
	if w.space != nil {
		return w.space.Fence()
	}
	return nil
}

func TestDeposit(t *testing.T) {
	rng := rand.New(rand.NewPCG(205, 1))
	const n, nb = 2000, 13
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(x, randFloat[float64](rng, 0, 1))
	hist := kokkos.Must(kokkos.NewView1[int32]("hist", nb))
	out := kokkos.Must(kokkos.NewView2[float64]("out", n, 2))
	sum := kokkos.Must(kokkos.NewView1[float64]("sum", n))
	for i := range n {
		v := x.At(i)
		b := min(int(v*nb), nb-1)
		hist.Set(b, hist.At(b)+1)
		out.Set(i, 0, v)
		out.Set(i, 1, 2*v)
		sum.Set(i, 2*v+v)
	}
	for _, w := range places(t) {
		gh := kokkos.Must(kokkos.NewView1[int32]("hist", nb, kokkos.InSpace(w.mem)))
		keep(t, &gh)
		gout := kokkos.Must(kokkos.NewView2[float64]("out", n, 2, kokkos.InSpace(w.mem)))
		keep(t, &gout)
		gs := kokkos.Must(kokkos.NewView1[float64]("sum", n, kokkos.InSpace(w.mem)))
		keep(t, &gs)
		if launched(t, w, kernel.For("deposit", kokkos.Range(0, n).On(w.space), Deposit, at(t, w, x, kokkos.CreateMirror), gh, gout, gs)) {
			check(t, w, "hist", gh, hist)
			check(t, w, "out", gout, out)
			check(t, w, "sum", gs, sum)
		}
	}
	// The helper writes hist: a read-only hist is refused before the
	// launch, as for a view the kernel's own body writes.
	ro := hist.ReadOnly()
	err := kernel.For("deposit", kokkos.Range(0, n), Deposit, x, ro, out, sum)
	if !errors.Is(err, kernel.ErrArgs) {
		t.Errorf("a read-only hist: %v, want ErrArgs", err)
	}
}

// randomFields fills the fields (or elements) of v, exported or not, with
// scalar's random values.
func randomFields(rng *rand.Rand, v reflect.Value) {
	if v.Kind() == reflect.Array {
		for n := range v.Len() {
			v.Index(n).Set(scalar(rng, v.Type().Elem()))
		}
		return
	}
	for n := range v.NumField() {
		f := v.Field(n)
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(scalar(rng, f.Type()))
	}
}

func TestPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(206, 1))
	const n = 700
	for _, fr := range []frame{
		{lo: [3]float64{-1, 0.5, 2}, step: 0.25, n: 7, tag: -3, id: -1 << 40},
		{lo: [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}, step: float32(rng.Float64()), n: 1 + rng.Int32N(50), tag: int8(rng.IntN(200) - 100), id: rng.Int64()},
	} {
		want := kokkos.Must(kokkos.NewView2[float64]("out", n, 4))
		for i := range n {
			for k := range 3 {
				want.Set(i, k, fr.lo[k]+float64(float64(fr.step)*float64(int32(i)%fr.n+int32(fr.tag))))
			}
			want.Set(i, 3, float64(fr.id))
		}
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView2[float64]("out", n, 4, kokkos.InSpace(w.mem)))
			keep(t, &out)
			if launched(t, w, kernel.For("place", kokkos.Range(0, n).On(w.space), Place, out, fr)) {
				check(t, w, "out", out, want)
			}
		}
	}
	// A struct of another type is refused.
	out := kokkos.Must(kokkos.NewView2[float64]("out", n, 4))
	if err := kernel.For("place", kokkos.Range(0, n), Place, out, vec3{}); !errors.Is(err, kernel.ErrArgs) {
		t.Errorf("a vec3 for a frame: %v, want ErrArgs", err)
	}
}

func TestRangeCopy(t *testing.T) {
	const n = 300
	want := kokkos.Must(kokkos.NewView1[int64]("out", n))
	for i := range n {
		want.Set(i, int64(i+3)*100+int64(i+2)*10+5)
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView1[int64]("out", n, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("rangecopy", kokkos.Range(0, n).On(w.space), RangeCopy, out)) {
			check(t, w, "out", out, want)
		}
	}
}
