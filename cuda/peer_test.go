package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// These tests of the routing of copies between devices run without a GPU:
// the devices and blocks are records only, and forceStagedPeer keeps the
// driver out of it.

func fakeDevices(n int) []*Device {
	ds := make([]*Device, n)
	for i := range ds {
		ds[i] = &Device{ordinal: i}
	}
	return ds
}

func fakeEntry(label string, k kind, dev *Device) *entry {
	return &entry{Allocation: Allocation{Label: label, Space: k.space(), Device: dev.ordinal}, kind: k, dev: dev}
}

// TestPeerRoute checks which device runs a copy and when it crosses
// devices, and that a forced staged path never asks the driver.
func TestPeerRoute(t *testing.T) {
	d := fakeDevices(3)
	dev0, dev1 := fakeEntry("dev0", kindDevice, d[0]), fakeEntry("dev1", kindDevice, d[1])
	dev0b := fakeEntry("dev0b", kindDevice, d[0])
	pin1, uvm0 := fakeEntry("pin1", kindPinned, d[1]), fakeEntry("uvm0", kindManaged, d[0])
	s2 := &Stream{dev: d[2]}
	for _, c := range []struct {
		s        *Stream
		de, se   *entry
		run      int
		crossing bool
	}{
		{nil, dev0, dev1, 0, true},
		{nil, dev1, dev0, 1, true},
		{nil, dev0, dev0b, 0, false},
		{nil, pin1, dev0, 0, false},
		{nil, dev0, pin1, 0, false},
		{nil, pin1, uvm0, 1, false},
		{nil, uvm0, pin1, 0, false},
		{&Stream{dev: d[1]}, dev0, dev1, 1, true},
		{&Stream{dev: d[1]}, pin1, uvm0, 1, false},
		{s2, dev0, dev0b, 2, true},
		{s2, pin1, uvm0, 2, false},
	} {
		what := fmt.Sprintf("%s<-%s on %v", c.de.Label, c.se.Label, c.s)
		if c.s != nil {
			what = fmt.Sprintf("%s<-%s on a stream of device %d", c.de.Label, c.se.Label, c.s.dev.ordinal)
		}
		run := runner(c.s, c.de, c.se)
		if run.ordinal != c.run {
			t.Errorf("%s: runs on device %d, want %d", what, run.ordinal, c.run)
		}
		if got := crosses(run, c.de, c.se); got != c.crossing {
			t.Errorf("%s: crosses %v, want %v", what, got, c.crossing)
		}
		func() {
			defer func(old bool) { forceStagedPeer.Store(old) }(forceStagedPeer.Swap(true))
			r, staged, err := peerRoute(c.s, c.de, c.se)
			if err != nil || r != run || staged != c.crossing {
				t.Errorf("%s: forced staged: route %d, staged %v, %v; want %d, %v", what, r.ordinal, staged, err, run.ordinal, c.crossing)
			}
		}()
	}
	if ok, err := peerAccess(d[1], d[1]); !ok || err != nil {
		t.Errorf("peerAccess of a device to itself: %v, %v", ok, err)
	}
}

// TestPeerPackedOrder checks the packed strides of a staged strided copy
// (the destination's order) and the test for a destination already so.
func TestPeerPackedOrder(t *testing.T) {
	for _, c := range []struct {
		ext, str []int
		ps       []int
		n        int
		dense    bool
	}{
		{[]int{4, 5, 6}, []int{30, 6, 1}, []int{30, 6, 1}, 120, true},
		{[]int{4, 5, 6}, []int{1, 4, 20}, []int{1, 4, 20}, 120, true},
		{[]int{4, 5, 6}, []int{7, 100, 1}, []int{6, 24, 1}, 120, false},
		{[]int{4, 5, 6}, []int{60, 12, 2}, []int{30, 6, 1}, 120, false},
		{[]int{4, 1, 6}, []int{6, 99, 1}, []int{6, 24, 1}, 24, true},
		{[]int{7}, []int{3}, []int{1}, 7, false},
		{[]int{}, []int{}, []int{}, 1, true},
	} {
		s := backend.Strided{Rank: len(c.ext), ElemSize: 8}
		copy(s.Extents[:], c.ext)
		copy(s.Strides[:], c.str)
		ps, n := packedOrder(&s)
		if n != c.n || fmt.Sprint(ps[:s.Rank]) != fmt.Sprint(c.ps) {
			t.Errorf("packedOrder(%v, %v) = %v, %d; want %v, %d", c.ext, c.str, ps[:s.Rank], n, c.ps, c.n)
		}
		if got := denseIn(&s, &ps); got != c.dense {
			t.Errorf("denseIn(%v, %v) = %v, want %v", c.ext, c.str, got, c.dense)
		}
	}
}

// TestPeerFillRefusal checks the error of a fill of device memory on a
// stream of another device, and that the other cases pass.
func TestPeerFillRefusal(t *testing.T) {
	d := fakeDevices(2)
	s0 := &Stream{dev: d[0]}
	err := checkFillDevice(s0, fakeEntry("field on 1", kindDevice, d[1]))
	if !errors.Is(err, ErrBinding) {
		t.Fatalf("fill of device 1's memory on device 0's stream: %v, want ErrBinding", err)
	}
	for _, w := range []string{`"field on 1"`, "on device 1", "stream on device 0"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %s", err, w)
		}
	}
	for _, c := range []struct {
		s *Stream
		e *entry
	}{
		{nil, fakeEntry("x", kindDevice, d[1])},
		{s0, fakeEntry("x", kindDevice, d[0])},
		{s0, fakeEntry("x", kindPinned, d[1])},
		{s0, fakeEntry("x", kindManaged, d[1])},
	} {
		if err := checkFillDevice(c.s, c.e); err != nil {
			t.Errorf("%s on %v: %v", c.e.Space, c.s != nil, err)
		}
	}
}

// TestPeerPlanBoundNamesView checks that a launch over views of device 1
// on a stream of device 0 is refused naming a view and both devices.
func TestPeerPlanBoundNamesView(t *testing.T) {
	d := fakeDevices(2)
	lb := getLaunch()
	defer lb.put()
	lb.args.views = append(lb.args.views, viewArg{name: "y", elem: elemFloat64, d: backend.View{Label: "y on 1", Space: SpaceOn(1)}})
	sh := backend.Shape{Rank: 1}
	sh.Upper[0] = 10
	_, err := planBound(lb, "axpy", patFor, &sh, &Stream{dev: d[0]}, 1)
	if !errors.Is(err, ErrBinding) {
		t.Fatalf("planBound: %v, want ErrBinding", err)
	}
	for _, w := range []string{`"axpy"`, `"y on 1"`, "device 1", "stream on device 0"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %s", err, w)
		}
	}
}

// TestPeerKernelRefusals launches a Go kernel and a team kernel over a
// view of device 1 on a stream of device 0, and checks the refusal, which
// comes before any driver call.
func TestPeerKernelRefusals(t *testing.T) {
	d := fakeDevices(2)
	s := &Stream{dev: d[0]}
	v := &backend.View{Label: "field on 1", Space: SpaceOn(1), Addr: 4096, Rank: 1,
		Extents: [backend.MaxRank]int{8}, Strides: [backend.MaxRank]int{1}, Elem: backend.KindFloat64, ElemSize: 8}
	axpy := &backend.Kernel{Name: "peer.Axpy", Pattern: backend.PatternFor, Rank: 1,
		Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "a", Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Axpy for (index i) (view y float64 1 w) (view x float64 1 r) (scalar a float64)
  (body (assign ((at y i)) ((add float64 (mul float64 a (at x i)) (at y i))))))`}
	sh := backend.Shape{Rank: 1}
	sh.Upper[0] = 8
	team := backendtest.TeamKernels()[1] // RowsVec: y, a, x, n, per
	for _, c := range []struct {
		name string
		l    *backend.Launch
	}{
		{"Go kernel", &backend.Launch{Label: "axpy", Kernel: axpy, Shape: sh,
			Args: []backend.Arg{{View: v, Kind: backend.KindFloat64}, {View: v, Kind: backend.KindFloat64}, {Kind: backend.KindFloat64, Bits: 0x4000000000000000}}}},
		{"team kernel", &backend.Launch{Label: "team", Kernel: team, Shape: backend.Shape{Team: backend.TeamShape{League: 2, Size: 4, Vector: 1}},
			Args: []backend.Arg{{View: v, Kind: backend.KindFloat64}, {View: v, Kind: backend.KindFloat64}, {View: v, Kind: backend.KindFloat64}, {Kind: backend.KindInt, Bits: 2}, {Kind: backend.KindInt, Bits: 1}}}},
	} {
		err := s.For(c.l)
		if !errors.Is(err, ErrBinding) {
			t.Errorf("%s: %v, want ErrBinding", c.name, err)
			continue
		}
		for _, w := range []string{fmt.Sprintf("%q", c.l.Label), `"field on 1"`, "device 1", "stream on device 0"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %s", c.name, err, w)
			}
		}
	}
}

// TestPeerBodyRefusals launches CUDA C bodies (ParallelFor,
// ParallelReduce) over a view of device 1 on a stream of device 0, and
// views of two devices together, and checks the refusals.
func TestPeerBodyRefusals(t *testing.T) {
	d := fakeDevices(2)
	s := &Stream{dev: d[0]}
	y1, err := kokkos.WrapView1[float64](nil, 8, kokkos.InSpace(SpaceOn(1)), kokkos.AtAddress(4096))
	if err != nil {
		t.Fatal(err)
	}
	x0, err := kokkos.WrapView1[float64](nil, 8, kokkos.InSpace(SpaceOn(0)), kokkos.AtAddress(8192))
	if err != nil {
		t.Fatal(err)
	}
	_, rerr := ParallelReduce("sum", kokkos.Range(0, 8).On(s), Sum[float64](), "acc += y(i);", Bind("y", y1))
	for _, c := range []struct {
		name string
		err  error
		says []string
	}{
		{"ParallelFor", ParallelFor("set", kokkos.Range(0, 8).On(s), "y(i) = 1;", Bind("y", y1)), []string{`"set"`, "view y", "on device 1", "stream on device 0"}},
		{"ParallelReduce", rerr, []string{`"sum"`, "view y", "on device 1", "stream on device 0"}},
		{"two devices", ParallelFor("mix", kokkos.Range(0, 8), "y(i) = x(i);", Bind("x", x0), Bind("y", y1)), []string{`"mix"`, "on device 1", "on device 0"}},
	} {
		if !errors.Is(c.err, ErrBinding) {
			t.Errorf("%s: %v, want ErrBinding", c.name, c.err)
			continue
		}
		for _, w := range c.says {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %q lacks %s", c.name, c.err, w)
			}
		}
	}
}
