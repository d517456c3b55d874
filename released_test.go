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
