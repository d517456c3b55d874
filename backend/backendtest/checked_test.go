package backendtest_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// devSpace is device memory for tests: Go memory the host may not touch
// through views, copied and filled on request. It checks that every
// endpoint it is handed names devSpace itself, never the CheckedSpace
// around it.
type devSpace struct {
	mu     sync.Mutex
	blocks map[uintptr][]byte
	frees  int
	calls  int // CopyBytes and FillBytes
}

func newDevSpace() *devSpace { return &devSpace{blocks: map[uintptr][]byte{}} }

func (d *devSpace) Name() string         { return "TestDevice" }
func (d *devSpace) HostAccessible() bool { return false }

func (d *devSpace) Allocate(label string, n int, zero bool) (backend.Block, error) {
	if n > 1<<20 {
		return backend.Block{}, fmt.Errorf("test device: %q of %d bytes: out of memory", label, n)
	}
	buf := make([]byte, n+1)
	if !zero {
		for i := range buf {
			buf[i] = 0xCD
		}
	}
	addr := uintptr(unsafe.Pointer(&buf[0]))
	d.mu.Lock()
	d.blocks[addr] = buf
	d.mu.Unlock()
	return backend.Block{Addr: addr, Free: func() error {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.frees++
		delete(d.blocks, addr)
		return nil
	}}, nil
}

func (d *devSpace) mem(e backend.Endpoint, n int) []byte {
	if e.Host != nil {
		return unsafe.Slice((*byte)(e.Host), n)
	}
	if e.Space != kokkos.MemorySpace(d) {
		panic(fmt.Sprintf("test device: endpoint of space %v, not the test device", e.Space))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for base, b := range d.blocks {
		if e.Addr >= base && e.Addr+uintptr(n) <= base+uintptr(len(b)) {
			return b[e.Addr-base:][:n]
		}
	}
	panic(fmt.Sprintf("test device: no block holds [%#x, +%d)", e.Addr, n))
}

func (d *devSpace) CopyBytes(dst, src backend.Endpoint, n int) error {
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	copy(d.mem(dst, n), d.mem(src, n))
	return nil
}

func (d *devSpace) FillBytes(dst uintptr, p []byte, count int) error {
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	m := d.mem(backend.Endpoint{Space: d, Addr: dst}, len(p)*count)
	for i := range count {
		copy(m[i*len(p):], p)
	}
	return nil
}

// dev2D adds CopyBytes2D, counting its calls.
type dev2D struct {
	*devSpace
	calls2D *int
}

func (d dev2D) own(e backend.Endpoint) backend.Endpoint {
	if e.Space == kokkos.MemorySpace(d) {
		e.Space = d.devSpace
	}
	return e
}

func (d dev2D) CopyBytes(dst, src backend.Endpoint, n int) error {
	return d.devSpace.CopyBytes(d.own(dst), d.own(src), n)
}

func (d dev2D) CopyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	*d.calls2D++
	dst, src = d.own(dst), d.own(src)
	for r := range height {
		dr, sr := dst, src
		if dr.Host != nil {
			dr.Host = unsafe.Add(dr.Host, r*dpitch)
		} else {
			dr.Addr += uintptr(r * dpitch)
		}
		if sr.Host != nil {
			sr.Host = unsafe.Add(sr.Host, r*spitch)
		} else {
			sr.Addr += uintptr(r * spitch)
		}
		copy(d.mem(dr, width), d.mem(sr, width))
	}
	return nil
}

// devAsync adds CopyBytesAsync, which copies at once and says so.
type devAsync struct {
	*devSpace
	execs *[]any
}

func (d devAsync) own(e backend.Endpoint) backend.Endpoint {
	if e.Space == kokkos.MemorySpace(d) {
		e.Space = d.devSpace
	}
	return e
}

func (d devAsync) CopyBytes(dst, src backend.Endpoint, n int) error {
	return d.devSpace.CopyBytes(d.own(dst), d.own(src), n)
}

func (d devAsync) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	*d.execs = append(*d.execs, exec)
	return true, d.CopyBytes(dst, src, n)
}

// dev2DAsync has both.
type dev2DAsync struct {
	dev2D
	execs *[]any
}

// own turns d's endpoints into the dev2D's, which turns them into the
// devSpace's.
func (d dev2DAsync) own(e backend.Endpoint) backend.Endpoint {
	if e.Space == kokkos.MemorySpace(d) {
		e.Space = d.dev2D
	}
	return e
}

func (d dev2DAsync) CopyBytes(dst, src backend.Endpoint, n int) error {
	return d.dev2D.CopyBytes(d.own(dst), d.own(src), n)
}

func (d dev2DAsync) CopyBytes2D(dst backend.Endpoint, dpitch int, src backend.Endpoint, spitch int, width, height int) error {
	return d.dev2D.CopyBytes2D(d.own(dst), dpitch, d.own(src), spitch, width, height)
}

func (d dev2DAsync) CopyBytesAsync(exec backend.Exec, dst, src backend.Endpoint, n int) (bool, error) {
	*d.execs = append(*d.execs, exec)
	return true, d.CopyBytes(dst, src, n)
}

// hostOnly is a host-accessible block space without copy methods.
type hostOnly struct{ frees *int }

func (hostOnly) Name() string         { return "TestHostBlocks" }
func (hostOnly) HostAccessible() bool { return true }
func (h hostOnly) Allocate(label string, n int, zero bool) (backend.Block, error) {
	buf := make([]byte, n+1)
	p := unsafe.Pointer(&buf[0])
	return backend.Block{Addr: uintptr(p), Host: p, Free: func() error { *h.frees++; return nil }}, nil
}

// recordingT collects what a CheckedSpace assertion reports.
type recordingT struct{ errs []string }

func (r *recordingT) Helper() {}
func (r *recordingT) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

//go:noinline
func allocateForLeak(cs backendtest.CheckedSpace, label string, n int) backend.Block {
	b, err := cs.Allocate(label, n, true)
	if err != nil {
		panic(err)
	}
	return b
}

// TestCheckedSpaceRecordsBlocks allocates blocks of random sizes, frees some
// and checks CurrentAlloc against the sum of the rest, the reports of
// AssertNoLeaks and AssertSize (label, size, space, allocating stack), and
// that a second Free frees nothing, returns an error and is reported.
func TestCheckedSpaceRecordsBlocks(t *testing.T) {
	inner := newDevSpace()
	cs := backendtest.NewCheckedSpace(inner)
	rng := rand.New(rand.NewPCG(1, 2))
	var blocks []backend.Block
	sizes := make([]int, 20)
	total := 0
	for i := range sizes {
		sizes[i] = 1 + rng.IntN(4096)
		total += sizes[i]
		blocks = append(blocks, allocateForLeak(cs, fmt.Sprintf("b%02d", i), sizes[i]))
	}
	if cs.CurrentAlloc() != total {
		t.Fatalf("CurrentAlloc = %d, want %d", cs.CurrentAlloc(), total)
	}
	// Free all but block 7, in random order.
	for _, i := range rng.Perm(len(blocks)) {
		if i == 7 {
			continue
		}
		if err := blocks[i].Free(); err != nil {
			t.Fatal(err)
		}
		total -= sizes[i]
		if cs.CurrentAlloc() != total {
			t.Fatalf("after freeing b%02d: CurrentAlloc = %d, want %d", i, cs.CurrentAlloc(), total)
		}
	}
	if inner.frees != len(blocks)-1 {
		t.Fatalf("inner frees = %d, want %d", inner.frees, len(blocks)-1)
	}
	var rt recordingT
	cs.AssertSize(&rt, sizes[7])
	if len(rt.errs) != 0 {
		t.Fatalf("AssertSize with the right size: %q", rt.errs)
	}
	cs.AssertSize(&rt, 0)
	if len(rt.errs) != 1 || !strings.Contains(rt.errs[0], fmt.Sprintf("%d bytes allocated in TestDevice, want 0", sizes[7])) || !strings.Contains(rt.errs[0], `"b07"`) {
		t.Fatalf("AssertSize with the wrong size: %q", rt.errs)
	}
	rt = recordingT{}
	cs.AssertNoLeaks(&rt)
	want := fmt.Sprintf(`backendtest: leak: block "b07" of %d bytes in TestDevice was never freed`, sizes[7])
	if len(rt.errs) != 1 || !strings.HasPrefix(rt.errs[0], want) ||
		!strings.Contains(rt.errs[0], "backendtest_test.allocateForLeak") ||
		!strings.Contains(rt.errs[0], "backendtest_test.TestCheckedSpaceRecordsBlocks") ||
		!strings.Contains(rt.errs[0], "checked_test.go:") {
		t.Fatalf("AssertNoLeaks: %q", rt.errs)
	}
	// A second Free of a block.
	err := blocks[3].Free()
	if !errors.Is(err, kokkos.ErrReleased) || !strings.Contains(err.Error(), `block "b03"`) || !strings.Contains(err.Error(), "freed twice") {
		t.Fatalf("second Free: %v", err)
	}
	if inner.frees != len(blocks)-1 {
		t.Fatal("a second Free reached the inner space")
	}
	if err := blocks[7].Free(); err != nil {
		t.Fatal(err)
	}
	rt = recordingT{}
	cs.AssertNoLeaks(&rt)
	if len(rt.errs) != 1 || !strings.Contains(rt.errs[0], `block "b03"`) || !strings.Contains(rt.errs[0], "freed twice") {
		t.Fatalf("AssertNoLeaks after a double free: %q", rt.errs)
	}
	if cs.CurrentAlloc() != 0 || inner.frees != len(blocks) {
		t.Fatalf("CurrentAlloc %d, inner frees %d", cs.CurrentAlloc(), inner.frees)
	}
	// An allocation failure is the inner space's error and records nothing.
	if _, err := cs.Allocate("huge", 1<<21, false); err == nil || !strings.Contains(err.Error(), "out of memory") || cs.CurrentAlloc() != 0 {
		t.Fatalf("failed Allocate: %v, %d bytes", err, cs.CurrentAlloc())
	}
}

// TestCheckedSpaceInterfaces checks that a CheckedSpace implements exactly
// the copy interfaces of its inner space, keeps its name and host access,
// and compares equal only to itself.
func TestCheckedSpaceInterfaces(t *testing.T) {
	var execs []any
	n2, hf := 0, 0
	d := newDevSpace()
	for _, c := range []struct {
		inner                    backend.BlockSpace
		copies, twoD, async, hst bool
	}{
		{hostOnly{&hf}, false, false, false, true},
		{d, true, false, false, false},
		{dev2D{d, &n2}, true, true, false, false},
		{devAsync{d, &execs}, true, false, true, false},
		{dev2DAsync{dev2D{d, &n2}, &execs}, true, true, true, false},
	} {
		cs := backendtest.NewCheckedSpace(c.inner)
		_, copies := cs.(backend.CopySpace)
		_, twoD := cs.(backend.Copy2DSpace)
		_, async := cs.(backend.AsyncCopySpace)
		if copies != c.copies || twoD != c.twoD || async != c.async {
			t.Errorf("%T: CopySpace %v Copy2DSpace %v AsyncCopySpace %v, want %v %v %v", c.inner, copies, twoD, async, c.copies, c.twoD, c.async)
		}
		if cs.Name() != c.inner.Name() || cs.HostAccessible() != c.hst {
			t.Errorf("%T: name %q host %v", c.inner, cs.Name(), cs.HostAccessible())
		}
		other := backendtest.NewCheckedSpace(c.inner)
		if kokkos.MemorySpace(cs) != kokkos.MemorySpace(cs) || kokkos.MemorySpace(cs) == kokkos.MemorySpace(other) || kokkos.MemorySpace(cs) == kokkos.MemorySpace(c.inner) {
			t.Errorf("%T: CheckedSpace must equal itself only", c.inner)
		}
	}
}

// TestCheckedSpaceViews copies random data host → device → device → host
// through CheckedSpaces over each kind of inner space, fills a device
// subview, and checks every element against a host reference; the inner
// spaces see only their own endpoints. The views are released, and the
// checker then finds no leak, except the one view left unreleased.
func TestCheckedSpaceViews(t *testing.T) {
	var execs []any
	n2 := 0
	rng := rand.New(rand.NewPCG(7, 8))
	const n0, n1 = 37, 23
	for _, inner := range []backend.BlockSpace{
		newDevSpace(),
		dev2D{newDevSpace(), &n2},
		devAsync{newDevSpace(), &execs},
		dev2DAsync{dev2D{newDevSpace(), &n2}, &execs},
	} {
		name := fmt.Sprintf("%T", inner)
		cs := backendtest.NewCheckedSpace(inner)
		// A second CheckedSpace over a CheckedSpace: endpoints unwrap
		// through both.
		cs2 := backendtest.NewCheckedSpace(backendtest.NewCheckedSpace(inner))
		h := kokkos.Must(kokkos.NewView2[float64]("h", n0, n1))
		for i := range n0 {
			for j := range n1 {
				h.Set(i, j, rng.NormFloat64())
			}
		}
		a := kokkos.Must(kokkos.NewView2[float64]("a", n0, n1, kokkos.InSpace(cs), kokkos.WithoutInitializing))
		b := kokkos.Must(kokkos.NewView2[float64]("b", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(cs2)))
		if a.Space() != kokkos.MemorySpace(cs) || b.Space() != kokkos.MemorySpace(cs2) {
			t.Fatalf("%s: views must report the CheckedSpace as their space", name)
		}
		if err := kokkos.DeepCopyOn(kokkos.DefaultExecutionSpace(), a, h); err != nil {
			t.Fatalf("%s: host → device: %v", name, err)
		}
		if err := kokkos.DeepCopy(b, a); err != nil {
			t.Fatalf("%s: device → device: %v", name, err)
		}
		x := rng.NormFloat64()
		if err := kokkos.Fill(b.Subview2(kokkos.Pair(3, 9), kokkos.Pair(2, 20)), x); err != nil {
			t.Fatalf("%s: fill: %v", name, err)
		}
		back := kokkos.Must(kokkos.NewView2[float64]("back", n0, n1))
		if err := kokkos.DeepCopy(back, b); err != nil {
			t.Fatalf("%s: device → host: %v", name, err)
		}
		// A strided host block into a strided device block: rows of 8
		// elements, through CopyBytes2D where the inner space has it.
		hs := kokkos.Must(kokkos.NewView2[float64]("hs", n0, 2*n1))
		for i := range n0 {
			for j := range 2 * n1 {
				hs.Set(i, j, rng.NormFloat64())
			}
		}
		if err := kokkos.DeepCopy(a.Subview2(kokkos.Pair(1, 5), kokkos.Pair(2, 10)), hs.Subview2(kokkos.Pair(0, 4), kokkos.Pair(n1, n1+8))); err != nil {
			t.Fatalf("%s: strided host → device: %v", name, err)
		}
		arow := kokkos.Must(kokkos.NewView2[float64]("arow", n0, n1))
		if err := kokkos.DeepCopy(arow, a); err != nil {
			t.Fatal(err)
		}
		for i := range n0 {
			for j := range n1 {
				want := h.At(i, j)
				if i >= 3 && i < 9 && j >= 2 && j < 20 {
					want = x
				}
				if back.At(i, j) != want {
					t.Fatalf("%s: back(%d, %d) = %v, want %v", name, i, j, back.At(i, j), want)
				}
				want = h.At(i, j)
				if i >= 1 && i < 5 && j >= 2 && j < 10 {
					want = hs.At(i-1, n1+j-2)
				}
				if arow.At(i, j) != want {
					t.Fatalf("%s: a(%d, %d) = %v, want %v", name, i, j, arow.At(i, j), want)
				}
			}
		}
		if cs.CurrentAlloc() != n0*n1*8 || cs2.CurrentAlloc() != n0*n1*8 {
			t.Fatalf("%s: CurrentAlloc %d, %d", name, cs.CurrentAlloc(), cs2.CurrentAlloc())
		}
		leak := kokkos.Must(kokkos.NewView1[int32]("forgotten", 11, kokkos.InSpace(cs)))
		_ = leak
		if err := a.Release(); err != nil {
			t.Fatal(err)
		}
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
		cs2.AssertNoLeaks(t)
		var rt recordingT
		cs.AssertNoLeaks(&rt)
		if len(rt.errs) != 1 || !strings.HasPrefix(rt.errs[0], `backendtest: leak: block "forgotten" of 44 bytes in TestDevice was never freed`) ||
			!strings.Contains(rt.errs[0], "TestCheckedSpaceViews") {
			t.Fatalf("%s: AssertNoLeaks: %q", name, rt.errs)
		}
		if err := leak.Release(); err != nil {
			t.Fatal(err)
		}
		cs.AssertNoLeaks(t)
	}
	if n2 == 0 {
		t.Error("CopyBytes2D was never called through a CheckedSpace")
	}
	if len(execs) == 0 || execs[0] != any(kokkos.DefaultExecutionSpace()) {
		t.Errorf("CopyBytesAsync calls: %v", execs)
	}
}

// TestCheckedSpaceWithoutCopySpace checks that a CheckedSpace over a space
// without copy methods is refused by DeepCopy as that space would be.
func TestCheckedSpaceWithoutCopySpace(t *testing.T) {
	inner := newDevSpace()
	cs := backendtest.NewCheckedSpace(struct{ backend.BlockSpace }{inner})
	defer cs.AssertNoLeaks(t)
	v := kokkos.Must(kokkos.NewView1[float64]("nocopy", 8, kokkos.InSpace(cs)))
	defer v.Release()
	h := kokkos.Must(kokkos.NewView1[float64]("h", 8))
	if err := kokkos.DeepCopy(v, h); err == nil || !strings.Contains(err.Error(), "does not implement CopySpace") {
		t.Fatalf("DeepCopy into a space without CopySpace: %v", err)
	}
}
