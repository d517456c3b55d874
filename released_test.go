package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// unmapSpace is a BlockSpace of anonymous mappings, outside the Go heap,
// that the final Release unmaps, as CUDA unified memory is freed by
// cuMemFree: an access after it faults and kills the process, so that a
// missing check fails the test binary rather than passing by luck.
type unmapSpace struct{}

func (unmapSpace) Name() string         { return "UnmapSpace" }
func (unmapSpace) HostAccessible() bool { return true }

func (unmapSpace) Allocate(label string, n int, zero bool) (backend.Block, error) {
	mem, err := syscall.Mmap(-1, 0, max(n, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return backend.Block{}, fmt.Errorf("mmap of %d bytes for %q: %w", n, label, err)
	}
	p := unsafe.Pointer(&mem[0])
	return backend.Block{Addr: uintptr(p), Host: p, Free: func() error { return syscall.Munmap(mem) }}, nil
}

// fillRandom sets every element of v to a random value and returns the
// values in v's index order.
func fillRandom1(t *testing.T, v *View1[float64]) []float64 {
	t.Helper()
	want := make([]float64, v.Extent(0))
	for i := range want {
		want[i] = rand.Float64()
		v.Set(i, want[i])
	}
	return want
}

// TestReleasedForeignViewAccessPanics allocates views in memory that the
// final Release unmaps, checks every host accessor against a reference on
// random data while the allocation is live, releases it, and checks that
// every accessor then panics naming the label instead of touching the
// unmapped memory.
func TestReleasedForeignViewAccessPanics(t *testing.T) {
	const label = "uvm"
	v := Must(NewView1[float64](label, 1024, InSpace(unmapSpace{})))
	m := Must(NewView2[float64](label, 6, 7, InSpace(unmapSpace{})))
	ml := Must(NewView2[float64](label, 6, 7, InSpace(unmapSpace{}), LayoutLeft))
	c := Must(NewView3[float64](label, 3, 4, 5, InSpace(unmapSpace{})))
	z := Must(NewView0[float64](label, InSpace(unmapSpace{})))
	e := Must(NewView8[float64](label, 2, 1, 2, 1, 2, 1, 2, 1, InSpace(unmapSpace{})))
	for _, w := range []interface{ Release() error }{&m, &ml, &c, &z, &e} {
		defer func() {
			if err := w.Release(); err != nil && !errors.Is(err, ErrReleased) {
				t.Error(err)
			}
		}()
	}

	want := fillRandom1(t, &v)
	sub := v.Subview1(Pair(100, 200))
	ro := v.ReadOnly()
	alias := Must(v.AsTraits(Unmanaged))
	strided := Must(v.AsLayout(LayoutStride))
	atomic := Must(v.AsTraits(Atomic))
	copied := v
	before := v.Ref(5)
	for i := range 100 {
		if got := sub.At(i); got != want[100+i] {
			t.Fatalf("live subview At(%d) = %v, want %v", i, got, want[100+i])
		}
	}
	for i, x := range want {
		if v.At(i) != x || ro.At(i) != x || alias.At(i) != x || strided.At(i) != x || copied.At(i) != x ||
			*v.Ptr(i) != x || v.Access(i) != x || v.Data()[i] != x || ReadOnlyData[float64](&v)[i] != x || atomic.Ref(i).Load() != x {
			t.Fatalf("live view at %d disagrees with the reference %v", i, x)
		}
	}
	var r2 [6][7]float64
	for i := range 6 {
		for j := range 7 {
			r2[i][j] = rand.Float64()
			m.Set(i, j, r2[i][j])
			*ml.Ptr(i, j) = r2[i][j]
		}
	}
	for i := range 6 {
		for j := range 7 {
			if m.Row(i)[j] != r2[i][j] || ml.Col(j)[i] != r2[i][j] || m.Line(i)[j] != r2[i][j] || ml.Line(j)[i] != r2[i][j] || m.At(i, j) != r2[i][j] {
				t.Fatalf("live rank-2 view at (%d, %d) disagrees with the reference %v", i, j, r2[i][j])
			}
		}
	}
	c.Set(2, 3, 4, 1.5)
	z.Set(2.5)
	e.Set(1, 0, 1, 0, 1, 0, 1, 0, 3.5)
	if c.At(2, 3, 4) != 1.5 || *c.Ptr(2, 3, 4) != 1.5 || z.At() != 2.5 || *z.Ptr() != 2.5 || e.At(1, 0, 1, 0, 1, 0, 1, 0) != 3.5 {
		t.Fatal("live rank-0, 3 or 8 view disagrees with what was stored")
	}
	// Out of bounds on a live view still names the extents.
	mustPanic(t, func() { v.At(1024) }, "out of bounds", label, "(1024)")
	mustPanic(t, func() { atomic.At(3) }, "Atomic")

	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if v.IsAllocated() {
		t.Fatal("IsAllocated after the final Release")
	}
	const gone = "after the final Release"
	mustPanic(t, func() { v.At(3) }, label, gone, "At(3)")
	mustPanic(t, func() { v.Set(3, 1) }, label, gone)
	mustPanic(t, func() { v.Ptr(3) }, label, gone)
	mustPanic(t, func() { v.Ref(3).Load() }, label, gone)
	mustPanic(t, func() { before.Load() }, label, gone)
	mustPanic(t, func() { v.Access(3) }, label, gone)
	mustPanic(t, func() { v.Data() }, label, gone)
	mustPanic(t, func() { ReadOnlyData[float64](&v) }, label, gone)
	mustPanic(t, func() { sub.At(3) }, label, gone)
	mustPanic(t, func() { ro.At(3) }, label, gone)
	mustPanic(t, func() { alias.At(3) }, label, gone)
	mustPanic(t, func() { strided.At(3) }, label, gone)
	mustPanic(t, func() { copied.At(3) }, label, gone)
	mustPanic(t, func() { atomic.Ref(3).Add(1) }, label, gone)
	mustPanic(t, func() { atomic.At(3) }, label, gone)
	// Out of bounds still reports the bounds first.
	mustPanic(t, func() { v.At(1024) }, "out of bounds", label)
	if err := Fill[float64](&v, 1); !errors.Is(err, ErrReleased) {
		t.Errorf("Fill of a released view: %v, want ErrReleased", err)
	}
	h := Must(NewView1[float64]("host", 1024))
	if err := DeepCopy[float64](&h, &v); !errors.Is(err, ErrReleased) {
		t.Errorf("DeepCopy from a released view: %v, want ErrReleased", err)
	}
	if err := DeepCopy[float64](&v, &h); !errors.Is(err, ErrReleased) {
		t.Errorf("DeepCopy into a released view: %v, want ErrReleased", err)
	}
	if _, err := CreateMirrorViewAndCopy(v, InSpace(HostSpace)); !errors.Is(err, ErrReleased) {
		t.Errorf("CreateMirrorViewAndCopy of a released view: %v, want ErrReleased", err)
	}

	for _, w := range []interface{ Release() error }{&m, &ml, &c, &z, &e} {
		if err := w.Release(); err != nil && !errors.Is(err, ErrReleased) {
			t.Fatal(err)
		}
	}
	mustPanic(t, func() { m.At(1, 2) }, label, gone)
	mustPanic(t, func() { m.Set(1, 2, 0) }, label, gone)
	mustPanic(t, func() { m.Ptr(1, 2) }, label, gone)
	mustPanic(t, func() { m.Row(1) }, label, gone, "Row(1)")
	mustPanic(t, func() { ml.Col(1) }, label, gone, "Col(1)")
	mustPanic(t, func() { m.Line(1) }, label, gone, "Line(1)")
	mustPanic(t, func() { ml.Line(1) }, label, gone)
	mustPanic(t, func() { c.At(2, 3, 4) }, label, gone)
	mustPanic(t, func() { c.Set(2, 3, 4, 0) }, label, gone)
	mustPanic(t, func() { c.Ptr(2, 3, 4) }, label, gone)
	mustPanic(t, func() { z.At() }, label, gone)
	mustPanic(t, func() { z.Set(0) }, label, gone)
	mustPanic(t, func() { z.Ptr() }, label, gone)
	mustPanic(t, func() { z.Ref().Load() }, label, gone)
	mustPanic(t, func() { e.At(1, 0, 1, 0, 1, 0, 1, 0) }, label, gone)
	o := Must(OffsetView2Of(m, [2]int{-1, -1}))
	mustPanic(t, func() { o.Data() }, label, gone)
	mustPanic(t, func() { o.Row(0) }, label, gone)
}

// TestReleasedGoHeapViewStaysReadable checks that a view of Go memory,
// whose elements the garbage collector keeps, reads and writes as before
// after its final Release: its accessors take no check for it.
func TestReleasedGoHeapViewStaysReadable(t *testing.T) {
	v := Must(NewView1[float64]("host", 64))
	want := fillRandom1(t, &v)
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	for i, x := range want {
		if v.At(i) != x || v.Data()[i] != x || v.Ref(i).Load() != x {
			t.Fatalf("released Go-heap view at %d disagrees with the reference %v", i, x)
		}
	}
	if v.flags&flagForeign != 0 || v.hlim != 0 || v.lim0 != 64 {
		t.Fatalf("Go-heap view has flags %#x, lim0 %d, hlim %d", v.flags, v.lim0, v.hlim)
	}
}

// TestReleasedForeignOffsetAndDynRankPanic: the element accessors of
// offset views and DynRankViews of memory that the final Release unmaps
// read and write as their reference while the allocation is live, and
// panic naming the label after its final Release, for copies, subviews and
// read-only views too; a read-only or Atomic view of live foreign memory
// still refuses what it refused.
func TestReleasedForeignOffsetAndDynRankPanic(t *testing.T) {
	const label = "uvm"
	rng := rand.New(rand.NewPCG(5, 6))
	o := Must(NewOffsetView3[float64](label, Bounds(-1, 2), Bounds(2, 4), Bounds(0, 1), InSpace(unmapSpace{})))
	d := Must(NewDynRankView[float64](label, []int{3, 4, 2}, InSpace(unmapSpace{})))
	ref := map[[3]int]float64{}
	for i := -1; i <= 2; i++ {
		for j := 2; j <= 4; j++ {
			for k := 0; k <= 1; k++ {
				x := rng.Float64()
				ref[[3]int{i, j, k}] = x
				switch (i + j + k) % 2 {
				case 0:
					o.Set(i, j, k, x)
				default:
					*o.Ptr(i, j, k) = x
				}
			}
		}
	}
	dref := make([]float64, 3*4*2)
	for n := range dref {
		dref[n] = rng.Float64()
		i, j, k := n/8, n/2%4, n%2
		switch n % 3 {
		case 0:
			d.Set3(i, j, k, dref[n])
		case 1:
			*d.Ptr3(i, j, k) = dref[n]
		default:
			d.Set(dref[n], i, j, k)
		}
	}
	oro, dro := o.ReadOnly(), d.ReadOnly()
	osub := o.Subview2(All, 3, All)
	ocopy, dcopy := o, d
	for key, x := range ref {
		i, j, k := key[0], key[1], key[2]
		if o.At(i, j, k) != x || oro.At(i, j, k) != x || ocopy.At(i, j, k) != x || osub.At(i, k) != x && j == 3 {
			t.Fatalf("live offset view at %v disagrees with the reference %v", key, x)
		}
	}
	for n, x := range dref {
		i, j, k := n/8, n/2%4, n%2
		if d.At3(i, j, k) != x || d.At(i, j, k) != x || dro.At3(i, j, k) != x || dcopy.At3(i, j, k) != x || d.Access(i, j, k) != x || d.Data()[i*8+j*2+k] != x {
			t.Fatalf("live DynRankView at (%d, %d, %d) disagrees with the reference %v", i, j, k, x)
		}
	}
	mustPanic(t, func() { oro.Set(0, 2, 0, 1) }, "read-only")
	mustPanic(t, func() { oro.Ptr(0, 2, 0) }, "read-only")
	mustPanic(t, func() { dro.Set3(0, 0, 0, 1) }, "read-only")
	mustPanic(t, func() { d.At2(0, 0) }, label) // rank 3 through At2
	atomicD := Must(NewDynRankView[float64](label, []int{2, 2, 2}, InSpace(unmapSpace{}), WithTraits(Atomic)))
	mustPanic(t, func() { atomicD.At3(0, 0, 0) }, "Atomic")
	if err := atomicD.Release(); err != nil {
		t.Fatal(err)
	}

	if err := o.Release(); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(); err != nil {
		t.Fatal(err)
	}
	const gone = "after the final Release"
	for name, f := range map[string]func(){
		"offset At":         func() { o.At(0, 2, 0) },
		"offset Set":        func() { o.Set(0, 2, 0, 1) },
		"offset Ptr":        func() { o.Ptr(0, 2, 0) },
		"offset copy At":    func() { ocopy.At(2, 4, 1) },
		"offset read-only":  func() { oro.At(0, 2, 0) },
		"offset subview":    func() { osub.At(0, 1) },
		"offset Ref":        func() { o.Ref(0, 2, 0).Load() },
		"DynRank At3":       func() { d.At3(1, 1, 1) },
		"DynRank Set3":      func() { d.Set3(1, 1, 1, 0) },
		"DynRank Ptr3":      func() { d.Ptr3(1, 1, 1) },
		"DynRank At":        func() { d.At(1, 1, 1) },
		"DynRank Set":       func() { d.Set(0, 1, 1, 1) },
		"DynRank Access":    func() { d.Access(1, 1, 1) },
		"DynRank Data":      func() { d.Data() },
		"DynRank copy At3":  func() { dcopy.At3(2, 3, 1) },
		"DynRank read-only": func() { dro.At3(0, 0, 0) },
		"DynRank Ref":       func() { d.Ref3(1, 1, 1).Load() },
	} {
		t.Run(name, func(t *testing.T) { mustPanic(t, f, label, gone) })
	}
	// Indices out of bounds still report the bounds.
	mustPanic(t, func() { o.At(3, 2, 0) }, "out of")
	mustPanic(t, func() { d.At3(3, 0, 0) }, "out of bounds")
}
