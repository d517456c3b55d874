package kokkos

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// Views initialized on an execution-space instance (WithExec, Kokkos's
// view_alloc(exec, label)): the fill is queued on the instance behind the
// work already there, the constructor does not wait for it, and the fences
// and the copies without an instance wait for it as for other work.

// dirtyFake returns a fake device whose blocks allocated without zeroing
// hold random non-zero bytes.
func dirtyFake(host bool, seed uint64) *backendtest.Fake {
	f := newFakeSpace(host)
	var calls atomic.Uint64
	f.SetGarbage(func(b []byte) {
		rng := rand.New(rand.NewPCG(seed, calls.Add(1)))
		for i := range b {
			b[i] = byte(rng.IntN(255) + 1)
		}
	})
	return f
}

// spaceQueue is a device-like asynchronous instance (a WorkQueue) whose
// memory space is a fake device's.
type spaceQueue struct {
	*testQueue
	space MemorySpace
}

func (q spaceQueue) MemorySpace() MemorySpace { return q.space }

// blocker is work queued on an instance that runs until release is
// called; done reports whether it has ended.
type blocker struct {
	ch   chan struct{}
	once sync.Once
	done atomic.Bool
}

func (b *blocker) release() { b.once.Do(func() { close(b.ch) }) }

// block queues a blocker on exec: a Threads instance or a WorkQueue. A
// test that fails before releasing it releases it at its end, so that
// closing the instance's pool (with t.Cleanup, registered earlier) does
// not wait for ever.
func block(t *testing.T, exec ExecutionSpace) *blocker {
	t.Helper()
	b := &blocker{ch: make(chan struct{})}
	t.Cleanup(b.release)
	switch e := exec.(type) {
	case *Threads:
		e.Submit("block", func() { <-b.ch; b.done.Store(true) })
	case backend.WorkQueue:
		e.Submit(func() error { <-b.ch; b.done.Store(true); return nil })
	default:
		t.Fatalf("cannot block %T", exec)
	}
	return b
}

// hostElems returns a copy of the span of d's elements, read on the host
// (through a copy for memory the host cannot access), without a fence.
func hostElems[T any](t *testing.T, d desc[T]) []T {
	t.Helper()
	if d.data != nil {
		return slices.Clone(d.data)
	}
	span := d.span()
	out := make([]T, span)
	if span == 0 {
		return out
	}
	cs := d.rec.Space().(backend.CopySpace)
	var pin runtime.Pinner
	defer pin.Unpin()
	if err := cs.CopyBytes(hostEndpoint(&pin, out), devEndpoint(&d, 0), span*sizeOf[T]()); err != nil {
		t.Fatal(err)
	}
	return out
}

func countZero[T comparable](s []T) int {
	var z T
	n := 0
	for _, x := range s {
		if x == z {
			n++
		}
	}
	return n
}

// ported from core/unit_test/TestWithoutInitializing.hpp
// (view_alloc_exec_space, realloc_exec_space): a view allocated with
// view_alloc(exec, label) is initialized on exec without a fence. Here
// the instance is busy with earlier work when the constructor runs: every
// view kind's constructor returns while that work still runs, the memory
// is still what the space gave (random bytes), and work queued on the
// instance afterwards (a ParallelFor, a FillOn) sees zeros.
func TestWithExecThreadsQueuesInit(t *testing.T) {
	pool := NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	inst := pool.NewInstance()
	fs := dirtyFake(true, 1)
	const n0, n1 = 37, 29
	makers := []struct {
		name string
		make func() (desc[float64], error)
	}{
		{"NewView2", func() (desc[float64], error) {
			v, err := NewView2[float64]("v", n0, n1, InSpace(fs), LayoutLeft, AllowPadding, WithExec(inst))
			return v.viewDesc(), err
		}},
		{"NewView3From", func() (desc[float64], error) {
			v, err := NewView3From[float64]("v", LayoutSpec{Layout: LayoutStride, Extents: []int{3, n0, n1}, Strides: []int{1, 3 * n1, 3}}, InSpace(fs), WithExec(inst))
			return v.viewDesc(), err
		}},
		{"NewDynRankView", func() (desc[float64], error) {
			v, err := NewDynRankView[float64]("v", []int{n0, n1}, InSpace(fs), WithExec(inst))
			return v.viewDesc(), err
		}},
		{"NewOffsetView2", func() (desc[float64], error) {
			v, err := NewOffsetView2[float64]("v", Bounds(-3, n0-4), Bounds(5, n1+4), InSpace(fs), WithExec(inst))
			return v.viewDesc(), err
		}},
	}
	for _, m := range makers {
		b := block(t, inst)
		var d desc[float64]
		within(t, m.name+" with a busy instance", func() {
			var err error
			if d, err = m.make(); err != nil {
				t.Error(err)
			}
		})
		if t.Failed() {
			b.release()
			t.FailNow()
		}
		if b.done.Load() {
			t.Fatalf("%s returned after the instance's earlier work ended", m.name)
		}
		if z := countZero(hostElems(t, d)); z == d.span() {
			t.Fatalf("%s: the memory was zeroed before the instance's earlier work ended", m.name)
		}
		// Work queued after the fill sees zeros.
		seen := make([]float64, d.span())
		ParallelFor("read", Range(0, d.span()).On(inst), func(i int) { seen[i] = d.data[i] + 1 })
		b.release()
		if err := inst.Fence(); err != nil {
			t.Fatal(err)
		}
		for i, x := range seen {
			if x != 1 {
				t.Fatalf("%s: work queued after the fill saw element %d = %v, want 0", m.name, i, x-1)
			}
		}
		if z := countZero(d.data); z != d.span() {
			t.Fatalf("%s: %d of %d elements zero after the fence", m.name, z, d.span())
		}
		if err := d.rec.Release(); err != nil {
			t.Fatal(err)
		}
	}
	// WithoutInitializing: nothing is queued, the memory stays as it was.
	v, err := NewView1[int64]("raw", 100, InSpace(fs), WithoutInitializing, WithExec(inst))
	if err != nil {
		t.Fatal(err)
	}
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	if countZero(v.Data()) == 100 {
		t.Fatal("WithoutInitializing and WithExec: the memory was zeroed")
	}
	v.Release()
	if fs.Blocks() != 0 {
		t.Fatalf("%d blocks not freed", fs.Blocks())
	}
}

// Synchronous instances (Serial, a pool's synchronous Threads instance)
// have filled the view when the constructor returns; Go-heap views are
// zero without any fill.
func TestWithExecSynchronousInstances(t *testing.T) {
	fs := dirtyFake(true, 2)
	pool := NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	for _, exec := range []ExecutionSpace{Serial{}, DefaultExecutionSpace(), pool} {
		v, err := NewView2[int32]("v", 13, 17, InSpace(fs), WithExec(exec))
		if err != nil {
			t.Fatal(err)
		}
		if z := countZero(v.Data()); z != 13*17 {
			t.Fatalf("%s: %d of %d elements zero", exec.Name(), z, 13*17)
		}
		v.Release()
		h, err := NewView1[float64]("h", 1000, WithExec(exec))
		if err != nil || countZero(h.Data()) != 1000 {
			t.Fatalf("%s: HostSpace view: %v", exec.Name(), err)
		}
	}
}

// The copies and fences without an instance wait for a fill queued on an
// asynchronous Threads instance, as they wait for other work on it.
func TestWithExecFencedByCopies(t *testing.T) {
	pool := NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	inst := pool.NewInstance()
	fs := dirtyFake(true, 3)
	const n = 5000
	for _, wait := range []string{"DeepCopy", "Fill", "Fence"} {
		b := block(t, inst)
		v, err := NewView1[float64]("v", n, InSpace(fs), WithExec(inst))
		if err != nil {
			b.release()
			t.Fatal(err)
		}
		h := Must(NewView1[float64]("h", n))
		b.release()
		switch wait {
		case "DeepCopy":
			if err := DeepCopy[float64](h, v); err != nil {
				t.Fatal(err)
			}
		case "Fill":
			// Fill of a corner waits for the whole fill first: the rest
			// is zero, not what the space gave.
			if err := Fill[float64](v.Subview1(Pair(0, 10)), 4); err != nil {
				t.Fatal(err)
			}
			copy(h.Data(), v.Data())
		case "Fence":
			if err := Fence(); err != nil {
				t.Fatal(err)
			}
			copy(h.Data(), v.Data())
		}
		for i, x := range h.Data() {
			want := 0.0
			if wait == "Fill" && i < 10 {
				want = 4
			}
			if x != want {
				t.Fatalf("%s: element %d = %v, want %v", wait, i, x, want)
			}
		}
		v.Release()
	}
}

// A device-like asynchronous instance (a WorkQueue whose memory space is a
// fake device the host cannot access): the fill goes through the space's
// FillBytes as work queued on the instance; FillOn and DeepCopyOn queued
// afterwards see zeros; a DeepCopy without an instance, whose device fence
// waits for the instance, sees them too.
func TestWithExecDeviceQueue(t *testing.T) {
	fs := dirtyFake(false, 4)
	q := spaceQueue{newTestQueue(), fs}
	defer close(q.work)
	const n0, n1 = 40, 23
	b := block(t, q)
	var v View2[float64]
	within(t, "NewView2 on a busy queue", func() {
		var err error
		if v, err = NewView2[float64]("d", n0, n1, InSpace(fs), LayoutLeft, WithExec(q)); err != nil {
			t.Error(err)
		}
	})
	if t.Failed() {
		b.release()
		t.FailNow()
	}
	if b.done.Load() {
		t.Fatal("NewView2 returned after the queue's earlier work ended")
	}
	if countZero(hostElems(t, v.viewDesc())) == n0*n1 {
		t.Fatal("the memory was zeroed before the queue's earlier work ended")
	}
	if err := FillOn[float64](q, v.Subview2(Pair(1, 3), Pair(2, 5)), 7); err != nil {
		t.Fatal(err)
	}
	h := Must(NewView2[float64]("h", n0, n1))
	if err := DeepCopyOn[float64](q, h, v); err != nil {
		t.Fatal(err)
	}
	b.release()
	if err := q.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			want := 0.0
			if i >= 1 && i < 3 && j >= 2 && j < 5 {
				want = 7
			}
			if h.At(i, j) != want {
				t.Fatalf("h(%d, %d) = %v, want %v", i, j, h.At(i, j), want)
			}
		}
	}
	v.Release()

	// Without an instance, DeepCopy runs the device fences, one of which
	// waits for this queue.
	remove := backend.RegisterFence(q.Fence)
	defer remove()
	b = block(t, q)
	w, err := NewView1[int32]("w", 3000, InSpace(fs), WithExec(q))
	if err != nil {
		b.release()
		t.Fatal(err)
	}
	hw := Must(NewView1[int32]("hw", 3000))
	b.release()
	if err := DeepCopy[int32](hw, w); err != nil {
		t.Fatal(err)
	}
	if z := countZero(hw.Data()); z != 3000 {
		t.Fatalf("DeepCopy saw %d of 3000 elements zero", z)
	}
	w.Release()
	if fs.Blocks() != 0 {
		t.Fatalf("%d blocks not freed", fs.Blocks())
	}
}

// ported from core/unit_test/TestCreateMirror.cpp (create_mirror and
// create_mirror_view with view_alloc(exec, space), and
// create_mirror_view_and_copy with view_alloc(space, exec)): the mirror
// is in the space asked for, initialized on the instance; the copy of
// create_mirror_view_and_copy is ordered on it.
func TestWithExecMirrors(t *testing.T) {
	fs := dirtyFake(false, 5)
	q := spaceQueue{newTestQueue(), fs}
	defer close(q.work)
	rng := rand.New(rand.NewPCG(5, 6))
	src := Must(NewView2[float64]("src", 31, 9, LayoutLeft))
	for i := range src.Data() {
		src.Data()[i] = rng.NormFloat64()
	}
	for _, op := range []string{"CreateMirror", "CreateMirrorView"} {
		b := block(t, q)
		var m View2[float64]
		var err error
		if op == "CreateMirror" {
			m, err = CreateMirror(src, InSpace(fs), WithExec(q))
		} else {
			m, err = CreateMirrorView(src, InSpace(fs), WithExec(q))
		}
		if err != nil {
			b.release()
			t.Fatal(err)
		}
		if b.done.Load() || m.Space() != MemorySpace(fs) || m.Layout() != LayoutLeft || m.Label() != "src_mirror" {
			b.release()
			t.Fatalf("%s: waited %v, space %v, layout %v, label %q", op, b.done.Load(), m.Space(), m.Layout(), m.Label())
		}
		b.release()
		if err := q.Fence(); err != nil {
			t.Fatal(err)
		}
		if z := countZero(hostElems(t, m.viewDesc())); z != 31*9 {
			t.Fatalf("%s: %d of %d elements zero", op, z, 31*9)
		}
		m.Release()
	}
	b := block(t, q)
	m, err := CreateMirrorViewAndCopy(src, InSpace(fs), WithExec(q))
	if err != nil {
		b.release()
		t.Fatal(err)
	}
	if b.done.Load() {
		t.Fatal("CreateMirrorViewAndCopy with WithExec waited for the instance")
	}
	b.release()
	if err := q.Fence(); err != nil {
		t.Fatal(err)
	}
	if got := hostElems(t, m.viewDesc()); !slices.Equal(got, src.Data()) {
		t.Fatal("CreateMirrorViewAndCopy with WithExec: the mirror differs from the source")
	}
	m.Release()
	// The same instance as argument and option is no conflict.
	m, err = CreateMirrorViewAndCopyOn(q, src, InSpace(fs), WithExec(q))
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Fence(); err != nil {
		t.Fatal(err)
	}
	m.Release()
}

// ported from core/unit_test/TestWithoutInitializing.hpp
// (realloc_exec_space) and TestResize.hpp: resize and realloc with
// view_alloc(exec) fill and copy on the instance, without a fence.
func TestWithExecResize(t *testing.T) {
	pool := NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	inst := pool.NewInstance()
	fs := dirtyFake(true, 6)
	rng := rand.New(rand.NewPCG(7, 8))
	const n0, n1 = 21, 13
	v := Must(NewView2[float64]("r", n0, n1, InSpace(fs)))
	want := make([]float64, n0*n1)
	for i := range want {
		want[i] = rng.NormFloat64()
		v.Data()[i] = want[i]
	}
	old := v
	b := block(t, inst)
	if err := Resize(&v, [2]int{n0 + 4, n1 - 3}, WithExec(inst)); err != nil {
		b.release()
		t.Fatal(err)
	}
	if b.done.Load() {
		t.Fatal("Resize with WithExec waited for the instance")
	}
	b.release()
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range n0 + 4 {
		for j := range n1 - 3 {
			w := 0.0
			if i < n0 {
				w = want[i*n1+j]
			}
			if v.At(i, j) != w {
				t.Fatalf("after Resize: (%d, %d) = %v, want %v", i, j, v.At(i, j), w)
			}
		}
	}
	old.Release()
	// Realloc to the same extents zero-fills the storage on the instance.
	b = block(t, inst)
	if err := Realloc(&v, [2]int{n0 + 4, n1 - 3}, WithExec(inst)); err != nil {
		b.release()
		t.Fatal(err)
	}
	if v.At(0, 0) != want[0] {
		b.release()
		t.Fatal("Realloc with WithExec filled before the instance's earlier work")
	}
	b.release()
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	if z := countZero(v.Data()); z != len(v.Data()) {
		t.Fatalf("after Realloc: %d of %d elements zero", z, len(v.Data()))
	}
	// Realloc to new extents.
	prev := v
	b = block(t, inst)
	if err := Realloc(&v, [2]int{5, 50}, WithExec(inst)); err != nil {
		b.release()
		t.Fatal(err)
	}
	b.release()
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	if z := countZero(v.Data()); z != 250 {
		t.Fatalf("after Realloc to new extents: %d of 250 elements zero", z)
	}
	prev.Release()
	v.Release()

	// DynRankView's Resize, to another rank, on the instance.
	d := Must(NewDynRankView[int64]("dr", []int{4, 5, 6}, InSpace(fs)))
	for i := range d.Data() {
		d.Data()[i] = int64(i + 1)
	}
	dold := d
	b = block(t, inst)
	if err := d.Resize([]int{6, 3}, WithExec(inst)); err != nil {
		b.release()
		t.Fatal(err)
	}
	if b.done.Load() {
		t.Fatal("DynRankView.Resize with WithExec waited for the instance")
	}
	b.release()
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		for j := range 3 {
			w := int64(0)
			if i < 4 {
				w = int64(i*30 + j*6 + 1) // old (i, j, 0)
			}
			if got := d.At(i, j); got != w {
				t.Fatalf("DynRankView after Resize: (%d, %d) = %d, want %d", i, j, got, w)
			}
		}
	}
	dold.Release()
	d.Release()
	if fs.Blocks() != 0 {
		t.Fatalf("%d blocks not freed", fs.Blocks())
	}
}

// Where WithExec cannot apply: constructors that never write the memory,
// two instances, an instance that cannot access the view's space.
func TestWithExecErrors(t *testing.T) {
	pool := NewThreads(2)
	t.Cleanup(func() { pool.Close() })
	i1, i2 := pool.NewInstance(), pool.NewInstance()
	dev := newFakeSpace(false)
	q := spaceQueue{newTestQueue(), dev}
	defer close(q.work)
	check := func(err error, want string) {
		t.Helper()
		if !errors.Is(err, ErrOption) {
			t.Fatalf("error %v, want one wrapping ErrOption", err)
		}
		wantErr(t, err, want)
	}
	_, err := WrapView1([]float64{1, 2, 3}, 3, WithExec(i1))
	check(err, `kokkos: wrapping a slice as view "" with extents (3): option WithExec(Threads) does not apply: a Wrap constructor never writes the caller's memory`)
	_, err = WrapDynRankView([]float64{1, 2, 3}, []int{3}, WithExec(i1))
	check(err, `option WithExec(Threads) does not apply`)
	_, err = WrapOffsetView1([]float64{1, 2, 3}, [1]int{1}, [1]int{4}, WithExec(i1))
	check(err, `option WithExec(Threads) does not apply`)
	cfg := makeConfig([]Option{WithExec(i1)})
	check(optionsFor(&cfg, forScratch), `option WithExec(Threads) does not apply: a scratch view takes the pad's memory as it is`)

	_, err = NewView1[float64]("two", 3, WithExec(i1), WithExec(i2))
	check(err, `kokkos: view "two" with extents (3): options WithExec(Threads) and WithExec(Threads) conflict: give one execution-space instance`)
	_, err = NewView1[float64]("serial", 3, WithExec(Serial{}), WithExec(i2))
	check(err, `options WithExec(Serial) and WithExec(Threads) conflict`)
	if _, err := NewView1[float64]("same", 3, WithExec(i1), WithExec(i1), WithExec(nil)); err != nil {
		t.Fatalf("the same instance twice: %v", err)
	}

	_, err = NewView1[float64]("far", 3, InSpace(dev), WithExec(i1))
	check(err, `kokkos: view "far" with extents (3): option WithExec(Threads) does not apply: work on Threads, whose memory space is HostSpace, cannot access memory space FakeDeviceSpace`)
	_, err = NewDynRankView[float64]("far", []int{3}, InSpace(dev), WithExec(Serial{}))
	check(err, `work on Serial, whose memory space is HostSpace, cannot access memory space FakeDeviceSpace`)
	_, err = NewView1[float64]("host", 3, WithExec(q))
	check(err, `option WithExec(TestQueue) does not apply: work on TestQueue, whose memory space is FakeDeviceSpace, cannot access memory space HostSpace`)
	h := Must(NewView1[float64]("h", 3))
	_, err = CreateMirror(h, InSpace(dev), WithExec(i1))
	check(err, `cannot access memory space FakeDeviceSpace`)
	d := Must(NewView1[float64]("d", 3, InSpace(dev)))
	defer d.Release()
	err = Resize(&d, [1]int{5}, WithExec(i1))
	check(err, `kokkos: Resize of view "d" with extents (3): option WithExec(Threads) does not apply: work on Threads`)
	err = Realloc(&d, [1]int{3}, WithExec(i1))
	check(err, `kokkos: Realloc of view "d" with extents (3): option WithExec(Threads)`)
	dr := Must(NewDynRankView[float64]("dr", []int{3}, InSpace(dev)))
	defer dr.Release()
	check(dr.Resize([]int{4}, WithExec(i1)), `cannot access memory space FakeDeviceSpace`)
	if d.Extent(0) != 3 || dr.Extent(0) != 3 {
		t.Fatal("a refused Resize changed the view")
	}
	_, err = CreateMirrorViewAndCopyOn(i1, h, WithExec(i2))
	check(err, `kokkos: CreateMirrorViewAndCopyOn of view "h" with extents (3): the instance Threads and option WithExec(Threads) conflict`)
	// A second Fake's queue cannot reach this one's memory.
	other := spaceQueue{q.testQueue, newFakeSpace(false)}
	_, err = NewView1[float64]("x", 3, InSpace(dev), WithExec(other))
	check(err, `cannot access memory space FakeDeviceSpace`)
}

// A view's ExecutionSpace is the default instance of its memory space's
// execution space, as Kokkos's View::execution_space.
func TestViewExecutionSpace(t *testing.T) {
	host := Must(NewView2[float64]("h", 2, 3))
	var zero View3[int]
	dr := Must(NewDynRankView[float64]("dr", []int{2}))
	ov := Must(NewOffsetView1[float64]("ov", Bounds(-1, 1)))
	for name, got := range map[string]ExecutionSpace{
		"View2": host.ExecutionSpace(), "zero View3": zero.ExecutionSpace(),
		"DynRankView": dr.ExecutionSpace(), "OffsetView1": ov.ExecutionSpace(),
	} {
		if got != DefaultExecutionSpace() {
			t.Errorf("%s: ExecutionSpace() = %v, want DefaultExecutionSpace()", name, got)
		}
	}
	for _, hostOK := range []bool{false, true} {
		fs := newFakeSpace(hostOK)
		v := Must(NewView1[float32]("d", 4, InSpace(fs)))
		e := v.ExecutionSpace()
		if e == nil || e != fs.ExecutionSpace() || e.MemorySpace() != MemorySpace(fs) || e.Name() != "FakeExec" {
			t.Fatalf("fake device (host %v): ExecutionSpace() = %v", hostOK, e)
		}
		// Its execution space can initialize a view there.
		w, err := NewView1[float32]("w", 4, InSpace(fs), WithExec(e))
		if err != nil {
			t.Fatal(err)
		}
		w.Release()
		v.Release()
	}
	// A space the host cannot access whose backend names no execution
	// space (the leak-checking decorator does not forward the Fake's).
	cs := checked(t, newFakeSpace(false))
	c := Must(NewView1[float32]("c", 4, InSpace(cs)))
	if e := c.ExecutionSpace(); e != nil {
		t.Errorf("checked fake device: ExecutionSpace() = %v, want nil", e)
	}
	c.Release()
}
