package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/internal/prof"
)

// pairElem is an element type whose size (16) is not its alignment (8).
type pairElem struct {
	a int8
	b float64
}

// TestViewOnAllocation1: views over random ranges of an allocation of Go
// memory address the elements a naive index gives, for several element
// types, hold the allocation, and give back their storage through
// Allocation, ShapeOf(v).Offset and ReadOnlyData; the allocation's free
// runs once, at the last Release.
func TestViewOnAllocation1(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	testViewOnAllocation1(t, rng, func(r *rand.Rand) float64 { return r.Float64() })
	testViewOnAllocation1(t, rng, func(r *rand.Rand) int16 { return int16(r.Uint32()) })
	testViewOnAllocation1(t, rng, func(r *rand.Rand) pairElem { return pairElem{int8(r.Uint32()), r.Float64()} })
	testViewOnAllocation1(t, rng, func(r *rand.Rand) *int { x := r.Int(); return &x })
	testViewOnAllocation1(t, rng, func(*rand.Rand) struct{} { return struct{}{} })
}

func testViewOnAllocation1[T comparable](t *testing.T, rng *rand.Rand, gen func(*rand.Rand) T) {
	for range 20 {
		buf := make([]T, 1+rng.IntN(40))
		for i := range buf {
			buf[i] = gen(rng)
		}
		frees := 0
		a, err := NewAllocation("on", HostSpace, 0, len(buf)*sizeOf[T](), func() error { frees++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		off := rng.IntN(len(buf) + 1)
		n := rng.IntN(len(buf) - off + 1)
		v, err := ViewOnAllocation1(a, off, n, buf[off:off+n])
		if err != nil {
			t.Fatalf("%T: off %d n %d of %d: %v", buf, off, n, len(buf), err)
		}
		if v.Extent(0) != n || v.Stride(0) != 1 || v.Layout() != LayoutRight || v.Label() != "on" || v.Allocation() != a || a.UseCount() != 2 || v.IsReadOnly() || v.Traits() != 0 {
			t.Fatalf("%T: extent %d stride %d layout %v label %q holders %d read-only %v traits %v", buf, v.Extent(0), v.Stride(0), v.Layout(), v.Label(), a.UseCount(), v.IsReadOnly(), v.Traits())
		}
		for i := range n {
			if v.At(i) != buf[off+i] {
				t.Fatalf("%T: At(%d) = %v, want %v", buf, i, v.At(i), buf[off+i])
			}
		}
		if n > 0 {
			i, x := rng.IntN(n), gen(rng)
			v.Set(i, x)
			if buf[off+i] != x {
				t.Fatalf("%T: Set(%d) did not reach the allocation's memory", buf, i)
			}
		}
		r := v.ReadOnly()
		rec, o, host := r.Allocation(), ShapeOf[T](r).Offset, ReadOnlyData[T](r)
		if rec != a || o != off || len(host) != n || cap(host) != n || n > 0 && &host[0] != &buf[off] {
			t.Fatalf("%T: storage %p %d len %d cap %d, want %p %d %d", buf, rec, o, len(host), cap(host), a, off, n)
		}
		if err := v.Release(); err != nil || a.UseCount() != 1 || frees != 0 {
			t.Fatalf("%T: view Release %v, holders %d, frees %d", buf, err, a.UseCount(), frees)
		}
		if err := a.Release(); err != nil || frees != 1 {
			t.Fatalf("%T: final Release %v, frees %d", buf, err, frees)
		}
	}
}

// TestViewOnAllocation2: views of each layout, with random extents,
// padding and strides, address the elements a naive index computation
// gives and report their span and offset.
func TestViewOnAllocation2(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	buf := make([]float64, 512)
	for i := range buf {
		buf[i] = rng.Float64()
	}
	a, err := NewAllocation("two", HostSpace, 0, len(buf)*8, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		ext := [2]int{rng.IntN(7), rng.IntN(7)}
		var spec LayoutSpec
		var str [2]int
		switch rng.IntN(5) {
		case 0:
			spec, str = LayoutSpec{Layout: LayoutRight}, [2]int{ext[1], 1}
		case 1:
			str = [2]int{max(ext[1], 1) + rng.IntN(4), 1}
			spec = LayoutSpec{Layout: LayoutRight, Strides: str[:]}
		case 2:
			spec, str = LayoutSpec{Layout: LayoutLeft}, [2]int{1, ext[0]}
		case 3:
			str = [2]int{1, max(ext[0], 1) + rng.IntN(4)}
			spec = LayoutSpec{Layout: LayoutLeft, Strides: str[:]}
		default:
			str = [2]int{1 + rng.IntN(3), 0}
			str[1] = str[0]*max(ext[0], 1) + rng.IntN(3)
			if rng.IntN(2) == 0 {
				str[0], str[1] = str[1], str[0]
				str[1] = 1 + rng.IntN(3)
				str[0] = str[1]*max(ext[1], 1) + rng.IntN(3)
			}
			spec = LayoutSpec{Layout: LayoutStride, Strides: str[:]}
		}
		spec.Extents = ext[:]
		span := 0
		if ext[0] > 0 && ext[1] > 0 {
			span = (ext[0]-1)*str[0] + (ext[1]-1)*str[1] + 1
		}
		off := rng.IntN(len(buf) - span + 1)
		v, err := ViewOnAllocation2(a, off, spec, buf[off:off+span])
		if err != nil {
			t.Fatalf("%v extents %v strides %v: %v", spec.Layout, ext, str, err)
		}
		if v.Layout() != spec.Layout || v.Extent(0) != ext[0] || v.Extent(1) != ext[1] || a.UseCount() != 2 {
			t.Fatalf("%v: layout %v extents %d %d holders %d", spec, v.Layout(), v.Extent(0), v.Extent(1), a.UseCount())
		}
		for i := range ext[0] {
			for j := range ext[1] {
				if got, want := v.At(i, j), buf[off+i*str[0]+j*str[1]]; got != want {
					t.Fatalf("%v: (%d,%d) = %v, want %v", spec, i, j, got, want)
				}
			}
		}
		rec, o, host := v.Allocation(), ShapeOf[float64](&v).Offset, ReadOnlyData[float64](&v)
		if rec != a || o != off || len(host) != span || span > 0 && &host[0] != &buf[off] {
			t.Fatalf("%v: storage %p %d %d", spec, rec, o, len(host))
		}
		if err := v.Release(); err != nil || a.UseCount() != 1 {
			t.Fatalf("release: %v, holders %d", err, a.UseCount())
		}
	}
}

// TestViewOnAllocationDevice: a view over device memory addresses it from
// the allocation's address, takes no host slice and refuses element types
// that hold Go pointers; ShapeOf gives its offset.
func TestViewOnAllocationDevice(t *testing.T) {
	frees := 0
	dev := countingSpace{&frees}
	blk, err := dev.Allocate("dev", 800, true)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAllocation("dev", dev, blk.Addr, 800, blk.Free)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ViewOnAllocation1[float64](a, 10, 90, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Space() != MemorySpace(dev) || v.Extent(0) != 90 || a.UseCount() != 2 {
		t.Fatalf("device view: space %v extent %d holders %d", v.Space(), v.Extent(0), a.UseCount())
	}
	expectPanic(t, `view "dev" lives in FakeDevice, which the host cannot access (index (3))`, func() { v.At(3) })
	if rec, off := v.Allocation(), ShapeOf[float64](v).Offset; rec != a || off != 10 {
		t.Fatalf("device storage %p %d", rec, off)
	}
	w, err := ViewOnAllocation2[int32](a, 4, LayoutSpec{Layout: LayoutLeft, Extents: []int{5, 6}}, nil)
	if err != nil || w.Stride(1) != 5 {
		t.Fatalf("rank-2 device view: %v, stride %d", err, w.Stride(1))
	}
	for _, x := range []interface{ Release() error }{&v, &w, a} {
		if err := x.Release(); err != nil {
			t.Fatal(err)
		}
	}
	if frees != 1 {
		t.Fatalf("frees %d, want 1", frees)
	}
}

// TestViewOnAllocationErrors: each refusal wraps its sentinel and adds no
// holder.
func TestViewOnAllocationErrors(t *testing.T) {
	dev := countingSpace{}
	blk, err := dev.Allocate("dev", 64, false)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewAllocation("dev", dev, blk.Addr, 64, blk.Free)
	if err != nil {
		t.Fatal(err)
	}
	odd, err := NewAllocation("odd", dev, blk.Addr+2, 32, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewAllocation("host", HostSpace, 0, 48, nil)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := NewAllocation("dead", HostSpace, 0, 48, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = dead.Release()
	buf := make([]int32, 12)
	right := func(n0, n1 int) LayoutSpec { return LayoutSpec{Layout: LayoutRight, Extents: []int{n0, n1}} }
	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"nil allocation", err2(ViewOnAllocation1[int32](nil, 0, 0, nil)), ErrReleased},
		{"released", err2(ViewOnAllocation1(dead, 0, 12, buf)), ErrReleased},
		{"negative offset", err2(ViewOnAllocation1(h, -1, 2, buf[:2])), ErrShape},
		{"negative extent", err2(ViewOnAllocation1(h, 0, -1, buf[:0])), ErrShape},
		{"past the end", err2(ViewOnAllocation1(h, 1, 12, buf)), ErrShape},
		{"offset past the end", err2(ViewOnAllocation1(h, 13, 0, buf[:0])), ErrShape},
		{"short host slice", err2(ViewOnAllocation1(h, 0, 12, buf[:11])), ErrShape},
		{"no host slice", err2(ViewOnAllocation1[int32](h, 0, 12, nil)), ErrShape},
		{"host slice of device memory", err2(ViewOnAllocation1(d, 0, 4, buf[:4])), ErrNotHostAccessible},
		{"pointers in device memory", err2(ViewOnAllocation1[*int](d, 0, 2, nil)), ErrElementType},
		{"misaligned address", err2(ViewOnAllocation1[int32](odd, 0, 2, nil)), ErrElementType},
		{"rank-3 spec", err2(ViewOnAllocation2(h, 0, LayoutSpec{Layout: LayoutRight, Extents: []int{1, 2, 3}}, buf[:6])), ErrShape},
		{"rank-2 past the end", err2(ViewOnAllocation2(h, 1, right(3, 4), buf)), ErrShape},
		{"rank-2 short host slice", err2(ViewOnAllocation2(h, 0, right(3, 4), buf[:11])), ErrShape},
		{"LayoutRight with column strides", err2(ViewOnAllocation2(h, 0, LayoutSpec{Layout: LayoutRight, Extents: []int{3, 4}, Strides: []int{1, 3}}, buf)), ErrLayout},
		{"LayoutLeft with row strides", err2(ViewOnAllocation2(h, 0, LayoutSpec{Layout: LayoutLeft, Extents: []int{3, 4}, Strides: []int{4, 1}}, buf)), ErrLayout},
		{"negative stride", err2(ViewOnAllocation2(h, 0, LayoutSpec{Layout: LayoutStride, Extents: []int{3, 4}, Strides: []int{-4, 1}}, buf)), ErrLayout},
		{"rank-2 pointers in device memory", err2(ViewOnAllocation2[*int](d, 0, right(1, 2), nil)), ErrElementType},
	} {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{err2(ViewOnAllocation1(h, 1, 12, buf)), `kokkos: ViewOnAllocation1[int32] of 12 elements at element 1 of allocation "host": 12 elements of 4 bytes at element 1 do not lie within the allocation's 48 bytes`},
		{err2(ViewOnAllocation1(d, 0, 4, buf[:4])), `kokkos: ViewOnAllocation1[int32] of 4 elements at element 0 of allocation "dev": host elements given for memory in FakeDevice, which the host cannot access: pass nil`},
		{err2(ViewOnAllocation2(h, 0, right(3, 4), buf[:11])), `kokkos: ViewOnAllocation2[int32] of LayoutRight extents (3, 4) at element 0 of allocation "host": the host slice holds 11 elements, the view's span is 12`},
		{err2(NewAllocation("n", dev, 0, 8, nil)), `kokkos: NewAllocation "n" in FakeDevice without an address: the host cannot access that space, so views over the allocation need the memory's address`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
	if h.UseCount() != 1 || d.UseCount() != 1 {
		t.Fatalf("holders %d %d after refusals", h.UseCount(), d.UseCount())
	}
	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"nil space", err2(NewAllocation("n", nil, 0, 8, nil)), ErrOption},
		{"negative size", err2(NewAllocation("n", HostSpace, 0, -8, nil)), ErrShape},
		{"device memory without address", err2(NewAllocation("n", dev, 0, 8, nil)), ErrNotHostAccessible},
	} {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
		}
	}
	for _, a := range []*Allocation{d, odd, h} {
		if err := a.Release(); err != nil {
			t.Error(err)
		}
	}
}

// TestViewOnUnmanagedAllocation: a view over the Allocation of a view of
// caller memory is Unmanaged, as that view is, and counts no holder.
func TestViewOnUnmanagedAllocation(t *testing.T) {
	buf := []int64{3, 1, 4, 1, 5, 9}
	w := Must(WrapView1(buf, 6))
	v, err := ViewOnAllocation1(w.Allocation(), 2, 3, buf[2:5])
	if err != nil {
		t.Fatal(err)
	}
	if v.Traits()&Unmanaged == 0 || v.UseCount() != 0 || v.At(2) != 5 {
		t.Fatalf("traits %v holders %d At(2) %d", v.Traits(), v.UseCount(), v.At(2))
	}
}

// allocTool is a profiling tool that records the allocation events of
// labels that start with prefix.
type allocTool struct {
	prof.Tool // nil: the other events are never called for these labels
	prefix    string
	mu        sync.Mutex
	events    []string
}

func (t *allocTool) AllocateData(space, label string, ptr uintptr, size uint64) {
	t.record("alloc", space, label, ptr, size)
}

func (t *allocTool) DeallocateData(space, label string, ptr uintptr, size uint64) {
	t.record("dealloc", space, label, ptr, size)
}

func (t *allocTool) record(what, space, label string, ptr uintptr, size uint64) {
	if strings.HasPrefix(label, t.prefix) {
		t.mu.Lock()
		t.events = append(t.events, fmt.Sprintf("%s %s %s %#x %d", what, space, label, ptr, size))
		t.mu.Unlock()
	}
}

func (t *allocTool) Finalize() {}

// TestNewAllocationProfiled: an Allocation with an address is reported to
// the profiling tools when it is made and at its final Release; one of Go
// memory, without an address, is not.
func TestNewAllocationProfiled(t *testing.T) {
	prefix := fmt.Sprintf("prof-%d-", rand.Uint32())
	tool := &allocTool{prefix: prefix}
	prof.Add(tool)
	defer prof.Finalize()
	dev := countingSpace{}
	blk, err := dev.Allocate("b", 96, false)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAllocation(prefix+"dev", dev, blk.Addr, 96, blk.Free)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewAllocation(prefix+"host", HostSpace, 0, 96, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ViewOnAllocation1[int64](a, 2, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []interface{ Release() error }{a, h, &v} {
		if err := x.Release(); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		fmt.Sprintf("alloc FakeDevice %sdev %#x 96", prefix, blk.Addr),
		fmt.Sprintf("dealloc FakeDevice %sdev %#x 96", prefix, blk.Addr),
	}
	tool.mu.Lock()
	defer tool.mu.Unlock()
	if !slices.Equal(tool.events, want) {
		t.Fatalf("events %q, want %q", tool.events, want)
	}
}

// TestViewOnAllocationRoundTrip: the storage of random subviews of allocated
// views, of each layout, gives the offset a naive index computation gives,
// and ViewOnAllocation2 over it with the subview's LayoutSpec is a view of
// the same elements.
func TestViewOnAllocationRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		for range 50 {
			n0, n1 := 1+rng.IntN(9), 1+rng.IntN(9)
			p := Must(NewView2[float64]("parent", n0, n1, l))
			for i := range n0 {
				for j := range n1 {
					p.Set(i, j, rng.Float64())
				}
			}
			b0, b1 := rng.IntN(n0), rng.IntN(n1)
			e0, e1 := b0+1+rng.IntN(n0-b0), b1+1+rng.IntN(n1-b1)
			s := p.Subview2(Pair(b0, e0), Pair(b1, e1))
			a, off, host := s.Allocation(), ShapeOf[float64](&s).Offset, ReadOnlyData[float64](&s)
			if want := b0*p.Stride(0) + b1*p.Stride(1); a != p.Allocation() || off != want || &host[0] != p.Ptr(b0, b1) || len(host) != s.Span() {
				t.Fatalf("%v %dx%d, subview [%d,%d)x[%d,%d): storage offset %d (want %d), %d host elements (span %d)", l, n0, n1, b0, e0, b1, e1, off, want, len(host), s.Span())
			}
			w, err := ViewOnAllocation2(a, off, s.LayoutSpec(), host)
			if err != nil {
				t.Fatalf("%v subview %v: %v", l, s.LayoutSpec(), err)
			}
			for i := range e0 - b0 {
				for j := range e1 - b1 {
					if w.At(i, j) != p.At(b0+i, b1+j) {
						t.Fatalf("%v: (%d,%d) = %v, want %v", l, i, j, w.At(i, j), p.At(b0+i, b1+j))
					}
				}
			}
			if a.UseCount() != 2 {
				t.Fatalf("holders %d, want 2", a.UseCount())
			}
			for _, x := range []interface{ Release() error }{&w, &p} {
				if err := x.Release(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
