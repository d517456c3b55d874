package kokkos_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/internal/testutil"
)

// Scenarios of Kokkos's deep_copy and mirror unit tests, ported to gokkos.
// Kokkos's device memory space is a fake device (Go memory the host may
// not touch, copied through backend.CopySpace), its device execution space
// an asynchronous Threads instance. Views hold random data, checked
// element by element against a model over logical indices.

// fakeDevice returns a fake device space that fails t on leaked blocks.
func fakeDevice(t *testing.T) kokkos.MemorySpace {
	t.Helper()
	cs := backendtest.NewCheckedSpace(backendtest.FakeDevice(false))
	t.Cleanup(func() { cs.AssertNoLeaks(t) })
	return cs
}

func must[V any](t *testing.T) func(V, error) V {
	return func(v V, err error) V {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// read2 returns v's elements in row-major logical order, through a host
// copy when v lives on the device.
func read2(t *testing.T, v kokkos.View2[int]) []int {
	t.Helper()
	h := must[kokkos.View2[int]](t)(kokkos.NewView2[int]("read", v.Extent(0), v.Extent(1)))
	if err := kokkos.DeepCopy[int](h, v); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(h.Data())
}

// copyModel runs the steps of TestViewCopy_a on views a, b (device), h_a,
// h_b (their mirrors) and m_a (a mirror view of a), and keeps what each
// must hold.
type copyModel struct {
	t     *testing.T
	n, m  int
	exec  kokkos.ExecutionSpace // nil: the calls without an instance
	views map[string]kokkos.View2[int]
	want  map[string][]int
}

func (c *copyModel) fence() {
	c.t.Helper()
	if c.exec != nil {
		if err := c.exec.Fence(); err != nil {
			c.t.Fatal(err)
		}
	}
}

// col returns column 1 of view name, as Kokkos's subview(v, ALL, 1).
func (c *copyModel) col(name string) kokkos.View1[int] {
	v := c.views[name]
	return v.Subview1(kokkos.All, 1)
}

func (c *copyModel) fill(name string, x int) {
	c.t.Helper()
	if err := kokkos.FillOn[int](c.exec, c.views[name], x); err != nil {
		c.t.Fatal(err)
	}
	for i := range c.want[name] {
		c.want[name][i] = x
	}
	c.check(name)
}

func (c *copyModel) copy(dst, src string) {
	c.t.Helper()
	if err := kokkos.DeepCopyOn[int](c.exec, c.views[dst], c.views[src]); err != nil {
		c.t.Fatal(err)
	}
	copy(c.want[dst], c.want[src])
	c.check(dst)
}

func (c *copyModel) fillCol(name string, x int) {
	c.t.Helper()
	if err := kokkos.FillOn[int](c.exec, c.col(name), x); err != nil {
		c.t.Fatal(err)
	}
	for i := range c.n {
		c.want[name][i*c.m+1] = x
	}
	c.check(name)
}

func (c *copyModel) copyCol(dst, src string) {
	c.t.Helper()
	if err := kokkos.DeepCopyOn[int](c.exec, c.col(dst), c.col(src)); err != nil {
		c.t.Fatal(err)
	}
	for i := range c.n {
		c.want[dst][i*c.m+1] = c.want[src][i*c.m+1]
	}
	c.check(dst)
}

// check fences, as Kokkos's run_check does, and compares every view.
func (c *copyModel) check(step string) {
	c.t.Helper()
	c.fence()
	for name, v := range c.views {
		if got := read2(c.t, v); !slices.Equal(got, c.want[name]) {
			c.t.Fatalf("after %s: view %s differs from the model", step, name)
		}
	}
}

// TestConformanceCopyViewCopyTests: contiguous and non-contiguous copies
// and fills between device views and their host mirrors, without an
// instance, on a device instance and on the host space. Where Kokkos
// throws for a non-contiguous copy between a device and the host that no
// execution space reaches, gokkos stages it through the host.
// Kokkos: core/unit_test/TestViewCopy_a.hpp, view_copy_tests.
func TestConformanceCopyViewCopyTests(t *testing.T) {
	rng := rand.New(rand.NewPCG(101, 102))
	dev := fakeDevice(t)
	const n, m = 1000, 10
	execs := []kokkos.ExecutionSpace{nil, kokkos.DefaultHostExecutionSpace().NewInstance(), kokkos.DefaultHostExecutionSpace()}
	for _, exec := range execs {
		a := must[kokkos.View2[int]](t)(kokkos.NewView2[int]("A", n, m, kokkos.InSpace(dev)))
		b := must[kokkos.View2[int]](t)(kokkos.NewView2[int]("B", n, m, kokkos.InSpace(dev)))
		c := &copyModel{t: t, n: n, m: m, exec: exec, views: map[string]kokkos.View2[int]{
			"a": a, "b": b,
			"h_a": must[kokkos.View2[int]](t)(kokkos.CreateMirror(a)),
			"h_b": must[kokkos.View2[int]](t)(kokkos.CreateMirror(b)),
			"m_a": must[kokkos.View2[int]](t)(kokkos.CreateMirrorView(a)),
		}, want: map[string][]int{}}
		if ma, ha := c.views["m_a"], c.views["h_a"]; ma.Space() != kokkos.HostSpace || ha.Label() != "A_mirror" {
			t.Fatalf("mirror of a device view: %s in %s", ha.Label(), ma.Space().Name())
		}
		// Random contents everywhere, through the host mirrors.
		for _, name := range []string{"h_a", "h_b", "m_a"} {
			h := c.views[name]
			for i := range h.Data() {
				h.Data()[i] = 1 + rng.IntN(1<<30)
			}
			c.want[name] = slices.Clone(h.Data())
		}
		for _, p := range [][2]string{{"a", "h_a"}, {"b", "h_b"}} {
			if err := kokkos.DeepCopy[int](c.views[p[0]], c.views[p[1]]); err != nil {
				t.Fatal(err)
			}
			c.want[p[0]] = slices.Clone(c.want[p[1]])
		}
		var empty kokkos.View2[int]
		if err := kokkos.DeepCopyOn[int](exec, empty, empty); err != nil {
			t.Fatal(err)
		}
		x := func() int { return 1 + rng.IntN(1<<30) }
		// Contiguous copies.
		c.fill("a", x())
		c.fill("a", x())
		c.copy("a", "a")
		c.copy("m_a", "a")
		c.fill("m_a", x())
		c.copy("a", "m_a")
		c.fill("b", x())
		c.fill("h_a", x())
		c.copy("a", "b")
		c.copy("h_b", "h_a")
		c.copy("h_a", "a")
		c.copy("b", "h_b")
		// Non-contiguous copies.
		c.fillCol("a", x())
		c.fillCol("h_a", x())
		c.copyCol("b", "a")
		c.copyCol("h_b", "h_a")
		c.copyCol("h_b", "b")
		c.copyCol("a", "h_a")
		c.fence()
		a.Release()
		b.Release()
	}
}

// TestConformanceCopyRank0: the same steps on rank-0 views.
// Kokkos: core/unit_test/TestViewCopy_b.hpp, view_copy_tests_rank_0.
func TestConformanceCopyRank0(t *testing.T) {
	rng := rand.New(rand.NewPCG(103, 104))
	dev := fakeDevice(t)
	execs := []kokkos.ExecutionSpace{nil, kokkos.DefaultHostExecutionSpace().NewInstance(), kokkos.DefaultHostExecutionSpace()}
	for _, exec := range execs {
		a := must[kokkos.View0[int]](t)(kokkos.NewView0[int]("A", kokkos.InSpace(dev)))
		b := must[kokkos.View0[int]](t)(kokkos.NewView0[int]("B", kokkos.InSpace(dev)))
		views := map[string]kokkos.View0[int]{
			"a": a, "b": b,
			"h_a": must[kokkos.View0[int]](t)(kokkos.CreateMirror(a)),
			"h_b": must[kokkos.View0[int]](t)(kokkos.CreateMirror(b)),
			"m_a": must[kokkos.View0[int]](t)(kokkos.CreateMirrorView(a)),
		}
		want := map[string]int{}
		check := func(step string) {
			t.Helper()
			if exec != nil {
				if err := exec.Fence(); err != nil {
					t.Fatal(err)
				}
			}
			for name, v := range views {
				var got int
				if err := kokkos.DeepCopyToScalar(&got, kokkos.View[int](v)); err != nil {
					t.Fatal(err)
				}
				if got != want[name] {
					t.Fatalf("after %s: %s = %d, want %d", step, name, got, want[name])
				}
			}
		}
		fill := func(name string) {
			t.Helper()
			x := 1 + rng.IntN(1<<30)
			if err := kokkos.FillOn[int](exec, views[name], x); err != nil {
				t.Fatal(err)
			}
			want[name] = x
			check("fill " + name)
		}
		cp := func(dst, src string) {
			t.Helper()
			if err := kokkos.DeepCopyOn[int](exec, views[dst], views[src]); err != nil {
				t.Fatal(err)
			}
			want[dst] = want[src]
			check("copy " + src + " to " + dst)
		}
		var empty kokkos.View0[int]
		if err := kokkos.DeepCopyOn[int](exec, empty, empty); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"a", "b", "h_a", "h_b", "m_a"} {
			fill(name)
		}
		fill("a")
		cp("a", "a")
		cp("m_a", "a")
		fill("m_a")
		cp("a", "m_a")
		fill("b")
		fill("h_a")
		cp("a", "b")
		cp("h_b", "h_a")
		cp("h_a", "a")
		cp("b", "h_b")
		a.Release()
		b.Release()
	}
}

// TestConformanceCopyDegenerated: copies between the zero view, wrapped
// and allocated views of no element, in every pairing, do nothing.
// Kokkos: core/unit_test/TestViewCopy_b.hpp, view_copy_degenerated.
func TestConformanceCopyDegenerated(t *testing.T) {
	views := func() []kokkos.View1[int] {
		var def kokkos.View1[int]
		um := must[kokkos.View1[int]](t)(kokkos.WrapView1([]int{}, 0))
		var umDef kokkos.View1[int]
		m := must[kokkos.View1[int]](t)(kokkos.NewView1[int]("v_m", 0))
		return []kokkos.View1[int]{umDef, um, def, m}
	}
	for i, d := range views() {
		for j, s := range views() {
			if err := kokkos.DeepCopy[int](d, s); err != nil {
				t.Errorf("%d from %d: %v", i, j, err)
			}
		}
	}
}

// sub8 returns the subview of v keeping its first k dimensions (the
// others at index 0), and for k == 8 the first two indices of the last
// one, with the kept indices as a predicate over v's logical indices.
func sub8(v kokkos.View8[int], k int) (kokkos.View[int], func(idx []int) bool) {
	a := make([]any, 8)
	for r := range a {
		a[r] = 0
		if r < k {
			a[r] = kokkos.All
		}
	}
	in := func(idx []int) bool {
		for r := k; r < 8; r++ {
			if idx[r] != 0 {
				return false
			}
		}
		return k < 8 || idx[7] < 2
	}
	switch k {
	case 0:
		return v.Subview0(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 1:
		return v.Subview1(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 2:
		return v.Subview2(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 3:
		return v.Subview3(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 4:
		return v.Subview4(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 5:
		return v.Subview5(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 6:
		return v.Subview6(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	case 7:
		return v.Subview7(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), in
	}
	return v.Subview8(a[0], a[1], a[2], a[3], a[4], a[5], a[6], kokkos.Pair(0, 2)), in
}

// TestConformanceCopyFill: FillOn of subviews of ranks 0 to 8 of a rank-8
// view with decreasing and increasing extents stores the value in every
// element of the subview and in no other, in each layout, on the host and
// on the device.
// Kokkos: core/unit_test/TestViewCopy_c.hpp, view_fill_tests_layout_right and view_fill_tests_layout_left.
func TestConformanceCopyFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(105, 106))
	dev := fakeDevice(t)
	exec := kokkos.DefaultHostExecutionSpace().NewInstance()
	exts := [][]int{{7, 5, 4, 3, 3, 2, 2, 3}, {3, 2, 2, 3, 3, 4, 5, 7}}
	layouts := []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft}
	for _, ext := range exts {
		for _, lay := range layouts {
			for _, space := range []kokkos.MemorySpace{kokkos.HostSpace, dev} {
				e := func(r int) int { return ext[r] }
				host := must[kokkos.View8[int]](t)(kokkos.NewView8[int]("a", e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), lay))
				for k := range 9 {
					for i := range host.Data() {
						host.Data()[i] = 1 + rng.IntN(1<<30)
					}
					snap := slices.Clone(host.Data())
					p := host
					if space != kokkos.HostSpace {
						p = must[kokkos.View8[int]](t)(kokkos.NewView8[int]("a", e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), lay, kokkos.InSpace(space)))
						if err := kokkos.DeepCopy[int](p, host); err != nil {
							t.Fatal(err)
						}
					}
					sub, in := sub8(p, k)
					magic := -1 - rng.IntN(1000)
					if err := kokkos.FillOn(exec, sub, magic); err != nil {
						t.Fatal(err)
					}
					if err := exec.Fence(); err != nil {
						t.Fatal(err)
					}
					if space != kokkos.HostSpace {
						if err := kokkos.DeepCopy[int](host, p); err != nil {
							t.Fatal(err)
						}
						p.Release()
					}
					hostSnap := must[kokkos.View8[int]](t)(kokkos.WrapView8(snap, e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), lay))
					testutil.ForEachIndex(ext, func(idx []int) {
						want := hostSnap.At(idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6], idx[7])
						if in(idx) {
							want = magic
						}
						if got := host.At(idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6], idx[7]); got != want {
							t.Fatalf("extents %v, %v, rank-%d subview in %s: %v = %d, want %d", ext, lay, k, space.Name(), idx, got, want)
						}
					})
				}
			}
		}
	}
}

// TestConformanceCopyAlignment: byte views starting and ending at every
// alignment are copied between the host and the device and back, each
// byte in place.
// Kokkos: core/unit_test/TestDeepCopyAlignment.hpp, deep_copy_alignment.
func TestConformanceCopyAlignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(107, 108))
	dev := fakeDevice(t)
	const n = 100000 + 128
	pairs := [][2]kokkos.MemorySpace{{dev, dev}, {kokkos.HostSpace, dev}, {dev, kokkos.HostSpace}}
	bounds := [][4]int{{0, 0, 0, 0}, {0, 5, 0, 5}, {3, 0, 3, 0}, {3, 6, 3, 6}, {5, 4, 3, 6}, {0, 8, 2, 6}, {2, 6, 0, 8}}
	for _, sp := range pairs {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(1 + rng.IntN(255))
		}
		hostA := must[kokkos.View1[byte]](t)(kokkos.WrapView1(src, n))
		a := must[kokkos.View1[byte]](t)(kokkos.NewView1[byte]("a", n, kokkos.InSpace(sp[0])))
		aCopy := must[kokkos.View1[byte]](t)(kokkos.NewView1[byte]("a_copy", n, kokkos.InSpace(sp[0])))
		b := must[kokkos.View1[byte]](t)(kokkos.NewView1[byte]("b", n, kokkos.InSpace(sp[1])))
		if err := kokkos.DeepCopy[byte](a, hostA); err != nil {
			t.Fatal(err)
		}
		for _, bd := range bounds {
			if err := kokkos.Fill[byte](aCopy, 0); err != nil {
				t.Fatal(err)
			}
			sa := a.Subview1(kokkos.Pair(bd[0], n-bd[1]))
			sb := b.Subview1(kokkos.Pair(bd[2], n-bd[3]))
			sc := aCopy.Subview1(kokkos.Pair(bd[0], n-bd[1]))
			if err := kokkos.DeepCopy[byte](sb, sa); err != nil {
				t.Fatal(err)
			}
			if err := kokkos.DeepCopy[byte](sc, sb); err != nil {
				t.Fatal(err)
			}
			got := must[kokkos.View1[byte]](t)(kokkos.CreateMirrorViewAndCopy(aCopy))
			for i := range n {
				want := byte(0)
				if i >= bd[0] && i < n-bd[1] {
					want = src[i]
				}
				if got.At(i) != want {
					t.Fatalf("%s to %s, bounds %v: byte %d = %d, want %d", sp[0].Name(), sp[1].Name(), bd, i, got.At(i), want)
				}
			}
			if got.Space() != kokkos.HostSpace {
				t.Fatal("the copy back is not on the host")
			}
			if !got.Equal(aCopy) {
				got.Release()
			}
		}
		for _, v := range []kokkos.View1[byte]{a, aCopy, b} {
			v.Release()
		}
	}
}

// convertCase runs TestDeepCopyScalarConversion for element types D and S
// and the layouts of the destination and the source (a LayoutStride view
// is one over LayoutLeft storage).
func convertCase[D, S kokkos.Number](t *testing.T, dl, sl kokkos.Layout, n0, n1 int) {
	t.Helper()
	mk1 := func(l kokkos.Layout) []kokkos.Option {
		if l == kokkos.LayoutStride {
			return []kokkos.Option{kokkos.WithStrides(1)}
		}
		return []kokkos.Option{l}
	}
	mk2 := func(l kokkos.Layout) []kokkos.Option {
		if l == kokkos.LayoutStride {
			return []kokkos.Option{kokkos.WithStrides(1, n0)}
		}
		return []kokkos.Option{l}
	}
	d1 := must[kokkos.View1[D]](t)(kokkos.NewView1[D]("b_s1_1d", n0, mk1(dl)...))
	s1 := must[kokkos.View1[S]](t)(kokkos.NewView1[S]("b_s2_1d", n0, mk1(sl)...))
	d2 := must[kokkos.View2[D]](t)(kokkos.NewView2[D]("b_s1_2d", n0, n1, mk2(dl)...))
	s2 := must[kokkos.View2[S]](t)(kokkos.NewView2[S]("b_s2_2d", n0, n1, mk2(sl)...))
	for i := range n0 {
		s1.Set(i, S(i+1))
		for j := range n1 {
			s2.Set(i, j, S((i+1)*1000+j+1))
		}
	}
	errs := func() int {
		e := 0
		for i := range n0 {
			if d1.At(i) != D(S(i+1)) {
				e++
			}
			for j := range n1 {
				if d2.At(i, j) != D(S((i+1)*1000+j+1)) {
					e++
				}
			}
		}
		return e
	}
	for range 2 {
		if err := kokkos.DeepCopyConvert[D, S](d1, s1); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.DeepCopyConvert[D, S](d2, s2); err != nil {
			t.Fatal(err)
		}
		if e := errs(); e != 0 {
			t.Fatalf("%v from %v: %d elements differ", dl, sl, e)
		}
		if err := kokkos.Fill[D](d1, 0); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.Fill[D](d2, 0); err != nil {
			t.Fatal(err)
		}
		if errs() == 0 {
			t.Fatal("the fill changed nothing")
		}
	}
}

// TestConformanceCopyConversion: DeepCopyConvert between float64 and
// float64 or float32 views of every pair of layouts that Kokkos tests.
// gokkos has no DeepCopyConvert on an execution space: the second round
// repeats the synchronous conversion.
// Kokkos: core/unit_test/TestDeepCopyAlignment.hpp, deep_copy_conversion.
func TestConformanceCopyConversion(t *testing.T) {
	const n0, n1 = 1931, 17
	r, l, s := kokkos.LayoutRight, kokkos.LayoutLeft, kokkos.LayoutStride
	for _, p := range [][2]kokkos.Layout{{r, r}, {r, l}, {l, r}, {s, r}, {r, s}} {
		convertCase[float64, float64](t, p[0], p[1], n0, n1)
		convertCase[float64, float32](t, p[0], p[1], n0, n1)
	}
}

// TestConformanceCopyCreateMirrorSpaces: the memory space of every mirror
// call's result, for a device view and a host view. Kokkos's execution
// space argument (create_mirror(exec, v)) is InSpace(exec.MemorySpace())
// here; view_alloc(exec) with create_mirror_view_and_copy is
// CreateMirrorViewAndCopyOn.
// Kokkos: core/unit_test/TestCreateMirror.cpp, test_create_mirror_properties.
func TestConformanceCopyCreateMirrorSpaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(109, 110))
	dev := fakeDevice(t)
	exec := kokkos.DefaultHostExecutionSpace().NewInstance()
	hostData := make([]int, 10)
	for i := range hostData {
		hostData[i] = 1 + rng.IntN(1000)
	}
	hostView := must[kokkos.View1[int]](t)(kokkos.NewView1[int]("host view", 10))
	copy(hostView.Data(), hostData)
	deviceView := must[kokkos.View1[int]](t)(kokkos.CreateMirrorViewAndCopy(hostView, kokkos.InSpace(dev), kokkos.WithLabel("device view")))
	defer deviceView.Release()
	for _, v := range []kokkos.View1[int]{deviceView, hostView} {
		type call struct {
			name  string
			f     func() (kokkos.View1[int], error)
			space kokkos.MemorySpace
			fresh bool // a new allocation, to Release when in the device
			copy  bool // holds v's elements
		}
		calls := []call{
			{"create_mirror(WithoutInitializing, v)", func() (kokkos.View1[int], error) { return kokkos.CreateMirror(v, kokkos.WithoutInitializing) }, kokkos.HostSpace, true, false},
			{"create_mirror(v)", func() (kokkos.View1[int], error) { return kokkos.CreateMirror(v) }, kokkos.HostSpace, true, false},
			{"create_mirror(WithoutInitializing, dev, v)", func() (kokkos.View1[int], error) {
				return kokkos.CreateMirror(v, kokkos.WithoutInitializing, kokkos.InSpace(dev))
			}, dev, true, false},
			{"create_mirror(view_alloc(dev), v)", func() (kokkos.View1[int], error) { return kokkos.CreateMirror(v, kokkos.InSpace(dev)) }, dev, true, false},
			{"create_mirror_view(v)", func() (kokkos.View1[int], error) { return kokkos.CreateMirrorView(v) }, kokkos.HostSpace, v.Space() != kokkos.HostSpace, v.Space() == kokkos.HostSpace},
			{"create_mirror_view(WithoutInitializing, dev, v)", func() (kokkos.View1[int], error) {
				return kokkos.CreateMirrorView(v, kokkos.WithoutInitializing, kokkos.InSpace(dev))
			}, dev, v.Space() != dev, v.Space() == dev},
			{"create_mirror_view_and_copy(HostSpace, v)", func() (kokkos.View1[int], error) {
				return kokkos.CreateMirrorViewAndCopy(v, kokkos.InSpace(kokkos.HostSpace))
			}, kokkos.HostSpace, v.Space() != kokkos.HostSpace, true},
			{"create_mirror_view_and_copy(dev, v)", func() (kokkos.View1[int], error) { return kokkos.CreateMirrorViewAndCopy(v, kokkos.InSpace(dev)) }, dev, v.Space() != dev, true},
			{"create_mirror_view_and_copy(view_alloc(HostSpace, exec), v)", func() (kokkos.View1[int], error) {
				return kokkos.CreateMirrorViewAndCopyOn(exec, v, kokkos.InSpace(kokkos.HostSpace))
			}, kokkos.HostSpace, v.Space() != kokkos.HostSpace, true},
			{"create_mirror_view_and_copy(view_alloc(dev, exec), v)", func() (kokkos.View1[int], error) {
				return kokkos.CreateMirrorViewAndCopyOn(exec, v, kokkos.InSpace(dev))
			}, dev, v.Space() != dev, true},
		}
		for _, c := range calls {
			m, err := c.f()
			if err != nil {
				t.Fatalf("%s of %q: %v", c.name, v.Label(), err)
			}
			if m.Space() != c.space {
				t.Errorf("%s of %q: in %s, want %s", c.name, v.Label(), m.Space().Name(), c.space.Name())
			}
			if m.Equal(v) == c.fresh {
				t.Errorf("%s of %q: a new allocation is %v, want %v", c.name, v.Label(), !m.Equal(v), c.fresh)
			}
			if err := exec.Fence(); err != nil {
				t.Fatal(err)
			}
			if c.copy {
				h := must[kokkos.View1[int]](t)(kokkos.CreateMirrorViewAndCopy(m))
				if !slices.Equal(h.Data(), hostData) {
					t.Errorf("%s of %q: elements %v, want %v", c.name, v.Label(), h.Data(), hostData)
				}
			}
			if c.fresh && m.Space() == dev {
				m.Release()
			}
		}
	}
}

// hostVec returns a rank-1 host view of n random elements in layout l,
// wrapped over a Go slice (Kokkos's Unmanaged trait) when unmanaged.
func hostVec(t *testing.T, rng *rand.Rand, n int, l kokkos.Layout, unmanaged bool) kokkos.View1[float64] {
	t.Helper()
	var v kokkos.View1[float64]
	if unmanaged {
		v = must[kokkos.View1[float64]](t)(kokkos.WrapView1(make([]float64, n), n, l, kokkos.WithLabel("A")))
	} else {
		v = must[kokkos.View1[float64]](t)(kokkos.NewView1[float64]("A", n, l))
	}
	for i := range n {
		v.Set(i, rng.Float64()+1)
	}
	return v
}

// TestConformanceCopyViewMirror: create_mirror always allocates;
// create_mirror_view and create_mirror_view_and_copy return the view
// itself in its own space and a copy elsewhere; a mirror view made
// without initializing, written on the device, copies back; for both
// layouts, managed and unmanaged views.
// Kokkos: core/unit_test/TestViewAPI.hpp, TestViewMirror::testit.
func TestConformanceCopyViewMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(111, 112))
	dev := fakeDevice(t)
	for _, l := range []kokkos.Layout{kokkos.LayoutLeft, kokkos.LayoutRight} {
		for _, unmanaged := range []bool{false, true} {
			name := fmt.Sprintf("%v unmanaged=%v", l, unmanaged)
			// test_mirror
			ah := hostVec(t, rng, 1000, l, unmanaged)
			ah2 := must[kokkos.View1[float64]](t)(kokkos.CreateMirror(ah, kokkos.InSpace(kokkos.HostSpace)))
			ad := must[kokkos.View1[float64]](t)(kokkos.CreateMirror(ah, kokkos.InSpace(dev)))
			if ah.Equal(ah2) || ah.Equal(ad) || ah2.Equal(ad) || ah2.Extent(0) != 1000 || ad.Extent(0) != 1000 {
				t.Fatalf("%s: create_mirror did not allocate", name)
			}
			if ah2.Label() != "A_mirror" || ah2.Layout() != l || ah2.Traits() != 0 {
				t.Fatalf("%s: mirror %q %v %v", name, ah2.Label(), ah2.Layout(), ah2.Traits())
			}
			ad.Release()
			// test_mirror_view
			ah2 = must[kokkos.View1[float64]](t)(kokkos.CreateMirrorView(ah, kokkos.InSpace(kokkos.HostSpace)))
			ad = must[kokkos.View1[float64]](t)(kokkos.CreateMirrorView(ah, kokkos.InSpace(dev)))
			if !ah.Equal(ah2) || ah.Equal(ad) || ad.Extent(0) != 1000 {
				t.Fatalf("%s: create_mirror_view", name)
			}
			ad.Release()
			// test_mirror_copy
			org := hostVec(t, rng, 10, l, unmanaged)
			ah2 = must[kokkos.View1[float64]](t)(kokkos.CreateMirrorViewAndCopy(org, kokkos.InSpace(kokkos.HostSpace)))
			ad = must[kokkos.View1[float64]](t)(kokkos.CreateMirrorViewAndCopy(org, kokkos.InSpace(dev)))
			ah3 := must[kokkos.View1[float64]](t)(kokkos.CreateMirrorViewAndCopy(ad, kokkos.InSpace(kokkos.HostSpace)))
			if !org.Equal(ah2) || org.Equal(ad) || ah3.Equal(ad) || ad.Label() != "A" || ah3.Label() != "A" {
				t.Fatalf("%s: create_mirror_view_and_copy: labels %q %q", name, ad.Label(), ah3.Label())
			}
			for i := range 10 {
				if ah3.At(i) != org.At(i) {
					t.Fatalf("%s: element %d = %v, want %v", name, i, ah3.At(i), org.At(i))
				}
			}
			ad.Release()
			// test_mirror_no_initialize
			ah = hostVec(t, rng, 10, l, unmanaged)
			ad = must[kokkos.View1[float64]](t)(kokkos.CreateMirrorView(ah, kokkos.WithoutInitializing, kokkos.InSpace(dev)))
			if ad.Equal(ah) {
				t.Fatalf("%s: the device mirror view is the host view", name)
			}
			w := hostVec(t, rng, 10, kokkos.LayoutRight, false) // the device kernel's values
			if err := kokkos.DeepCopy[float64](ad, w); err != nil {
				t.Fatal(err)
			}
			if err := kokkos.DeepCopy[float64](ah, ad); err != nil {
				t.Fatal(err)
			}
			for i := range 10 {
				if ah.At(i) != w.At(i) {
					t.Fatalf("%s: element %d = %v, want %v", name, i, ah.At(i), w.At(i))
				}
			}
			ad.Release()
		}
	}
}

// TestConformanceCopyMirrorConst: create_mirror_view_and_copy of a
// read-only view, to the host and to its own space.
// Kokkos: core/unit_test/TestViewAPI.hpp, test_mirror_copy_const_data_type.
func TestConformanceCopyMirrorConst(t *testing.T) {
	dev := fakeDevice(t)
	v := must[kokkos.View1[int]](t)(kokkos.NewView1[int]("v", 100, kokkos.InSpace(dev)))
	defer v.Release()
	if err := kokkos.Fill(kokkos.View[int](v), 255); err != nil {
		t.Fatal(err)
	}
	ro := v.ReadOnly()
	m1 := must[kokkos.View1[int]](t)(kokkos.CreateMirrorViewAndCopyOn(kokkos.DefaultHostExecutionSpace(), ro))
	m2 := must[kokkos.View1[int]](t)(kokkos.CreateMirrorViewAndCopy(ro, kokkos.InSpace(dev)))
	if m1.Space() != kokkos.HostSpace || m1.At(99) != 255 || !m2.Equal(ro) {
		t.Fatalf("mirrors of a read-only view: %s %d %v", m1.Space().Name(), m1.At(99), m2.Equal(ro))
	}
	// The new host mirror is writable.
	m1.Set(0, 1)
}

// TestConformanceCopyMirrorRank0: a rank-0 host view's mirror view is
// itself; its mirror is a new allocation.
// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_mirror.
func TestConformanceCopyMirrorRank0(t *testing.T) {
	a := must[kokkos.View0[int]](t)(kokkos.NewView0[int]("a"))
	am := must[kokkos.View0[int]](t)(kokkos.CreateMirrorView(a))
	ax := must[kokkos.View0[int]](t)(kokkos.CreateMirror(a))
	if !am.Equal(a) || ax.Equal(a) || ax.Label() != "a_mirror" {
		t.Fatal("rank-0 mirrors")
	}
}

// TestConformanceCopyScalar: a rank-0 value through device views and
// back, and into a scalar, with and without an instance.
// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_scalar.
func TestConformanceCopyScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(113, 114))
	dev := fakeDevice(t)
	dx := must[kokkos.View0[float64]](t)(kokkos.NewView0[float64]("dx", kokkos.InSpace(dev)))
	dy := must[kokkos.View0[float64]](t)(kokkos.NewView0[float64]("dy", kokkos.InSpace(dev)))
	defer dx.Release()
	defer dy.Release()
	hx := must[kokkos.View0[float64]](t)(kokkos.CreateMirror(dx))
	hy := must[kokkos.View0[float64]](t)(kokkos.CreateMirror(dy))
	exec := kokkos.DefaultHostExecutionSpace().NewInstance()
	for _, e := range []kokkos.ExecutionSpace{nil, exec} {
		x := rng.Float64() + 1
		hx.Set(x)
		for _, p := range [][2]kokkos.View0[float64]{{dx, hx}, {dy, dx}, {hy, dy}} {
			if err := kokkos.DeepCopyOn[float64](e, p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		var s float64
		if err := kokkos.DeepCopyToScalarOn(e, &s, kokkos.View[float64](dy)); err != nil {
			t.Fatal(err)
		}
		if err := exec.Fence(); err != nil {
			t.Fatal(err)
		}
		if hy.At() != x || s != x {
			t.Fatalf("exec %v: hy %v, scalar %v, want %v", e, hy.At(), s, x)
		}
	}
	// A null source leaves the scalar alone, as Kokkos does.
	var zero kokkos.View0[float64]
	s := 7.5
	if err := kokkos.DeepCopyToScalar(&s, kokkos.View[float64](zero)); err != nil || s != 7.5 {
		t.Fatalf("from the zero view: %v, %v", s, err)
	}
	if err := kokkos.DeepCopyToScalarOn(exec, &s, kokkos.View[float64](zero)); err != nil || exec.Fence() != nil || s != 7.5 {
		t.Fatalf("from the zero view on an instance: %v, %v", s, err)
	}
}

// TestConformanceCopyAsyncRank4: rank-4 copies host → device → device →
// host ordered on the host instance, on a device instance and without
// one, then a fill and a copy back.
// Kokkos: core/unit_test/TestViewAPI.hpp, run_test (asynchronous deep copy with respect to device / host, synchronous deep copy).
func TestConformanceCopyAsyncRank4(t *testing.T) {
	rng := rand.New(rand.NewPCG(115, 116))
	dev := fakeDevice(t)
	const n0, n1, n2, n3 = 1000, 3, 4, 2
	dx := must[kokkos.View4[float64]](t)(kokkos.NewView4[float64]("dx", n0, n1, n2, n3, kokkos.InSpace(dev)))
	dy := must[kokkos.View4[float64]](t)(kokkos.NewView4[float64]("dy", n0, n1, n2, n3, kokkos.InSpace(dev)))
	defer dx.Release()
	defer dy.Release()
	hx := must[kokkos.View4[float64]](t)(kokkos.CreateMirror(dx))
	hy := must[kokkos.View4[float64]](t)(kokkos.CreateMirror(dy))
	execs := []kokkos.ExecutionSpace{kokkos.DefaultHostExecutionSpace(), kokkos.DefaultHostExecutionSpace().NewInstance(), nil}
	for _, e := range execs {
		fence := func() {
			if e != nil {
				if err := e.Fence(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := range hx.Data() {
			hx.Data()[i] = rng.Float64() + 1
		}
		for _, p := range [][2]kokkos.View4[float64]{{dx, hx}, {dy, dx}, {hy, dy}} {
			if err := kokkos.DeepCopyOn[float64](e, p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		fence()
		if !slices.Equal(hx.Data(), hy.Data()) {
			t.Fatalf("exec %v: hy differs from hx", e)
		}
		x := rng.Float64() - 2
		if err := kokkos.FillOn[float64](e, dx, x); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.DeepCopyOn[float64](e, hx, dx); err != nil {
			t.Fatal(err)
		}
		fence()
		for i, v := range hx.Data() {
			if v != x {
				t.Fatalf("exec %v: element %d = %v, want %v", e, i, v, x)
			}
		}
	}
}

// TestConformanceCopyEmpty: copies between views of different layouts and
// spaces, and between zero views of rank 1 and 2.
// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_deep_copy_empty.
func TestConformanceCopyEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(117, 118))
	dev := fakeDevice(t)
	dll := must[kokkos.View1[float64]](t)(kokkos.NewView1[float64]("dll", 10, kokkos.LayoutLeft, kokkos.InSpace(dev)))
	defer dll.Release()
	hlr := hostVec(t, rng, 10, kokkos.LayoutRight, false)
	want := slices.Clone(hlr.Data())
	if err := kokkos.DeepCopy[float64](dll, hlr); err != nil {
		t.Fatal(err)
	}
	clear(hlr.Data())
	if err := kokkos.DeepCopy[float64](hlr, dll); err != nil || !slices.Equal(hlr.Data(), want) {
		t.Fatalf("LayoutLeft device ↔ LayoutRight host: %v", err)
	}
	var d1, h1 kokkos.View1[float64]
	var d2, h2 kokkos.View2[float64]
	for _, err := range []error{kokkos.DeepCopy[float64](d1, h1), kokkos.DeepCopy[float64](h1, d1), kokkos.DeepCopy[float64](d2, h2), kokkos.DeepCopy[float64](h2, d2)} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestConformanceCopyMirrorOptions: Kokkos rejects a label and padding
// among create_mirror's properties at compile time; gokkos returns an
// error wrapping ErrOption that names the option, also for the options
// a mirror has no use for (a layout, strides, traits).
// create_mirror_view_and_copy takes a name.
// Kokkos: core/src/Kokkos_CopyViews.hpp, check_view_ctor_args_create_mirror.
func TestConformanceCopyMirrorOptions(t *testing.T) {
	v := must[kokkos.View2[int]](t)(kokkos.NewView2[int]("v", 3, 4))
	bad := []struct {
		opt  kokkos.Option
		name string
	}{
		{kokkos.WithLabel("m"), `WithLabel("m")`},
		{kokkos.AllowPadding, "AllowPadding"},
		{kokkos.AtAddress(0x1000), "AtAddress"},
		{kokkos.LayoutLeft, "a layout"},
		{kokkos.WithStrides(1, 3), "WithStrides"},
		{kokkos.WithTraits(kokkos.RandomAccess), "WithTraits(RandomAccess)"},
	}
	for _, b := range bad {
		_, e1 := kokkos.CreateMirror(v, b.opt)
		_, e2 := kokkos.CreateMirrorView(v, b.opt)
		for _, err := range []error{e1, e2} {
			if !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), b.name) || !strings.Contains(err.Error(), `"v"`) {
				t.Errorf("option %s: %v", b.name, err)
			}
		}
		if !strings.HasPrefix(b.name, "WithLabel") { // it takes a label
			if _, err := kokkos.CreateMirrorViewAndCopy(v, b.opt, kokkos.InSpace(fakeDevice(t))); !errors.Is(err, kokkos.ErrOption) {
				t.Errorf("CreateMirrorViewAndCopy with %s: %v", b.name, err)
			}
		}
	}
	dev := fakeDevice(t)
	m := must[kokkos.View2[int]](t)(kokkos.CreateMirrorViewAndCopy(v, kokkos.InSpace(dev), kokkos.WithLabel("named")))
	defer m.Release()
	if m.Label() != "named" {
		t.Fatalf("label %q", m.Label())
	}
}
