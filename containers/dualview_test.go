package containers_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/internal/testutil"
)

// dualMode is how a DualView's two sides relate.
type dualMode int

const (
	modeSingle   dualMode = iota // device space HostSpace: one view, no counters
	modeShared                   // a host-accessible device space: one view, counters
	modeSeparate                 // device memory the host cannot reach: two views
)

func (m dualMode) String() string { return [...]string{"single", "shared", "separate"}[m] }

func (m dualMode) space() kokkos.MemorySpace {
	switch m {
	case modeShared:
		return backendtest.FakeDevice(true)
	case modeSeparate:
		return backendtest.FakeDevice(false)
	}
	return kokkos.HostSpace
}

// dualModel is a naive model of a DualView: Kokkos 4.6.1's two
// counters, written out from its rules, and the elements of each side in
// row-major order of the extents.
type dualModel struct {
	mode      dualMode
	h, d      int
	ext       []int
	host, dev []float64 // the same slice unless modeSeparate
}

func size(ext []int) int {
	n := 1
	for _, e := range ext {
		n *= e
	}
	return n
}

func (m *dualModel) needSyncHost() bool   { return m.h < m.d }
func (m *dualModel) needSyncDevice() bool { return m.d < m.h }

// needSync: side 1 is the device, 0 the host, -1 both (single).
func (m *dualModel) needSync(side int) bool {
	switch side {
	case 1:
		return m.h > 0 && m.h >= m.d
	case 0:
		return m.d > 0 && m.d >= m.h
	}
	return false
}

// modify returns whether the DualView must panic.
func (m *dualModel) modify(side int) bool {
	if m.mode == modeSingle || side < 0 {
		return false
	}
	if side == 0 {
		if m.d > m.h {
			return true
		}
		m.h = max(m.h, m.d) + 1
	} else {
		if m.h > m.d {
			return true
		}
		m.d = max(m.h, m.d) + 1
	}
	return false
}

func (m *dualModel) copyTo(side int) {
	if side == 0 {
		copy(m.host, m.dev)
	} else {
		copy(m.dev, m.host)
	}
	m.h, m.d = 0, 0
}

func (m *dualModel) sync(side int) {
	switch {
	case side == 1 && m.h > 0 && m.h >= m.d:
		m.copyTo(1)
	case side == 0 && m.d > 0 && m.d >= m.h:
		m.copyTo(0)
	}
}

// resized returns the elements of a of extents from in extents to: those
// at indices valid in both, zero elsewhere.
func resized(a []float64, from, to []int) []float64 {
	out := make([]float64, size(to))
	testutil.ForEachIndex(to, func(idx []int) {
		src, dst := 0, 0
		for r := range idx {
			dst = dst*to[r] + idx[r]
			if idx[r] >= from[r] {
				return
			}
			src = src*from[r] + idx[r]
		}
		out[dst] = a[src]
	})
	return out
}

func (m *dualModel) resize(ext []int) {
	if slices.Equal(ext, m.ext) {
		return
	}
	if m.d >= m.h {
		m.dev = resized(m.dev, m.ext, ext)
		m.host = m.alias(m.dev)
		m.d++
	} else {
		m.host = resized(m.host, m.ext, ext)
		m.dev = m.alias(m.host)
		m.h++
	}
	m.ext = ext
}

// alias returns a when both sides are one view, and a new zeroed side
// otherwise.
func (m *dualModel) alias(a []float64) []float64 {
	if m.mode == modeSeparate {
		return make([]float64, len(a))
	}
	return a
}

func (m *dualModel) realloc(ext []int) {
	if !slices.Equal(ext, m.ext) {
		m.dev = make([]float64, size(ext))
		m.host = m.alias(m.dev)
	} else {
		clear(m.dev)
	}
	m.ext = ext
	m.h, m.d = 0, 0
}

// readView returns v's elements in row-major order of its extents.
func readView[T any](a dualAdapter[T], v kokkos.View[T]) []T {
	m, data := a.mirror(v)
	if err := kokkos.DeepCopy(m, v); err != nil {
		panic(err)
	}
	s := kokkos.ShapeOf(m)
	out := make([]T, 0, s.Size)
	testutil.ForEachIndex(s.Extents, func(idx []int) {
		off := 0
		for r, i := range idx {
			off += i * s.Strides[r]
		}
		out = append(out, data[off])
	})
	return out
}

// writeView stores vals, in row-major order of v's extents, into v.
func writeView[T any](a dualAdapter[T], v kokkos.View[T], vals []T) {
	m, data := a.mirror(v)
	s := kokkos.ShapeOf(m)
	k := 0
	testutil.ForEachIndex(s.Extents, func(idx []int) {
		off := 0
		for r, i := range idx {
			off += i * s.Strides[r]
		}
		data[off] = vals[k]
		k++
	})
	if err := kokkos.DeepCopy(v, m); err != nil {
		panic(err)
	}
}

func randomValues(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(rng.IntN(1000)+1) + 0.25
	}
	return v
}

func randomExtents(rng *rand.Rand, rank int) []int {
	ext := make([]int, rank)
	for r := range ext {
		ext[r] = 1 + rng.IntN(3)
		if rank <= 3 {
			ext[r] = rng.IntN(6)
		}
	}
	return ext
}

// panics runs f and returns its panic's message, or "" when it returned.
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// runDualSequence applies n random operations to a DualView of rank rank
// in mode and checks its counters and both sides' elements against the
// model after each.
func runDualSequence(t *testing.T, rng *rand.Rand, rank int, mode dualMode, layout []kokkos.Option, n int) {
	t.Helper()
	runDualSequenceIn(t, rng, rank, mode.space(), mode, layout, n)
}

// runDualSequenceIn is runDualSequence with the device space given.
func runDualSequenceIn(t *testing.T, rng *rand.Rand, rank int, space kokkos.MemorySpace, mode dualMode, layout []kokkos.Option, n int) {
	t.Helper()
	ext := randomExtents(rng, rank)
	opts := append([]kokkos.Option{kokkos.InSpace(space)}, layout...)
	a, err := newDual[float64]("dv", ext, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer a.dv.Release()
	m := &dualModel{mode: mode, ext: ext, dev: make([]float64, size(ext))}
	m.host = m.alias(m.dev)
	exec := kokkos.DefaultExecutionSpace()
	sideSpace := func(side int) kokkos.MemorySpace {
		if side == 0 {
			return kokkos.HostSpace
		}
		return space
	}
	sideOf := func(s kokkos.MemorySpace) int {
		if mode == modeSingle {
			return -1
		}
		if s == kokkos.HostSpace {
			return 0
		}
		return 1
	}
	var trace []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("rank %d %s, after %s: %s", rank, mode, strings.Join(trace, ", "), fmt.Sprintf(format, args...))
	}
	for range n {
		op := rng.IntN(12)
		side := rng.IntN(2)
		s := sideSpace(side)
		switch op {
		case 0, 1: // write a side and mark it modified
			name := [...]string{"ModifyHost", "ModifyDevice"}[side]
			trace = append(trace, name)
			var msg string
			if side == 0 {
				msg = panics(a.dv.ModifyHost)
			} else {
				msg = panics(a.dv.ModifyDevice)
			}
			if want := m.modify(side); want != (msg != "") {
				fail("%s panicked %q, want a panic: %v", name, msg, want)
			} else if want {
				if !strings.Contains(msg, `"dv"`) || !strings.Contains(msg, name) {
					fail("%s's panic %q does not name the label and the call", name, msg)
				}
				break
			}
			vals := randomValues(rng, size(m.ext))
			if side == 0 {
				writeView(a, a.host(), vals)
				copy(m.host, vals)
			} else {
				writeView(a, a.dev(), vals)
				copy(m.dev, vals)
			}
		case 2: // Modify(space), writing nothing
			trace = append(trace, fmt.Sprintf("Modify(%s)", s.Name()))
			msg := panics(func() { a.dv.Modify(s) })
			if want := m.modify(sideOf(s)); want != (msg != "") {
				fail("Modify(%s) panicked %q, want a panic: %v", s.Name(), msg, want)
			}
		case 3:
			trace = append(trace, "ClearSyncState")
			a.dv.ClearSyncState()
			m.h, m.d = 0, 0
		case 4:
			trace = append(trace, "SyncHost")
			var err error
			if rng.IntN(2) == 0 {
				err = a.dv.SyncHost()
			} else if err = a.dv.SyncHostOn(exec); err == nil {
				err = exec.Fence()
			}
			if err != nil {
				fail("SyncHost: %v", err)
			}
			if m.needSyncHost() {
				m.copyTo(0)
			}
		case 5:
			trace = append(trace, "SyncDevice")
			var err error
			if rng.IntN(2) == 0 {
				err = a.dv.SyncDevice()
			} else if err = a.dv.SyncDeviceOn(exec); err == nil {
				err = exec.Fence()
			}
			if err != nil {
				fail("SyncDevice: %v", err)
			}
			if m.needSyncDevice() {
				m.copyTo(1)
			}
		case 6:
			trace = append(trace, fmt.Sprintf("Sync(%s)", s.Name()))
			var err error
			if rng.IntN(2) == 0 {
				err = a.dv.Sync(s)
			} else if err = a.dv.SyncOn(exec, s); err == nil {
				err = exec.Fence()
			}
			if err != nil {
				fail("Sync: %v", err)
			}
			m.sync(sideOf(s))
		case 7, 8:
			next := randomExtents(rng, rank)
			if rng.IntN(3) == 0 {
				next = slices.Clone(m.ext)
			}
			trace = append(trace, fmt.Sprintf("Resize%v", next))
			if err := a.resize(next); err != nil {
				fail("Resize: %v", err)
			}
			if rank > 0 {
				m.resize(next)
			}
		case 9:
			next := randomExtents(rng, rank)
			if rng.IntN(2) == 0 {
				next = slices.Clone(m.ext)
			}
			trace = append(trace, fmt.Sprintf("Realloc%v", next))
			if err := a.realloc(next); err != nil {
				fail("Realloc: %v", err)
			}
			m.realloc(next)
		case 10, 11: // the other side's mark after a sync, the common pattern
			trace = append(trace, "Sync+Modify")
			if err := a.dv.Sync(s); err != nil {
				fail("Sync: %v", err)
			}
			m.sync(sideOf(s))
			if msg := panics(func() { a.dv.Modify(s) }); msg != "" || m.modify(sideOf(s)) {
				fail("Modify after Sync of one side panicked %q", msg)
			}
		}
		if got, want := a.dv.NeedSyncHost(), m.needSyncHost(); got != want {
			fail("NeedSyncHost = %v, want %v (counters h=%d d=%d)", got, want, m.h, m.d)
		}
		if got, want := a.dv.NeedSyncDevice(), m.needSyncDevice(); got != want {
			fail("NeedSyncDevice = %v, want %v (counters h=%d d=%d)", got, want, m.h, m.d)
		}
		for sd := range 2 {
			s := sideSpace(sd)
			if got, want := a.dv.NeedSync(s), m.needSync(sideOf(s)); got != want {
				fail("NeedSync(%s) = %v, want %v (counters h=%d d=%d)", s.Name(), got, want, m.h, m.d)
			}
		}
		for r := range rank {
			if a.dv.Extent(r) != m.ext[r] {
				fail("Extent(%d) = %d, want %d", r, a.dv.Extent(r), m.ext[r])
			}
		}
		if got := readView(a, a.host()); !slices.Equal(got, m.host) {
			fail("host elements %v, want %v", got, m.host)
		}
		if got := readView(a, a.dev()); !slices.Equal(got, m.dev) {
			fail("device elements %v, want %v", got, m.dev)
		}
	}
}

// TestDualViewModel checks every rank, layout and kind of device space
// against the model on random sequences of operations.
func TestDualViewModel(t *testing.T) {
	layouts := map[string][]kokkos.Option{
		"right":  {kokkos.LayoutRight},
		"left":   {kokkos.LayoutLeft},
		"padded": {kokkos.LayoutRight, kokkos.AllowPadding},
	}
	for rank := 0; rank <= 8; rank++ {
		for lname, layout := range layouts {
			for _, mode := range []dualMode{modeSingle, modeShared, modeSeparate} {
				t.Run(fmt.Sprintf("rank%d/%s/%s", rank, lname, mode), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(rank), uint64(mode)*7+uint64(len(lname))))
					for range 4 {
						runDualSequence(t, rng, rank, mode, layout, 30)
					}
				})
			}
		}
	}
}

// FuzzDualView drives the model check of a rank-2 DualView with the
// fuzzer's seed choosing the mode, layout and operations.
func FuzzDualView(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, uint8(s%3), s%2 == 0)
	}
	f.Fuzz(func(t *testing.T, seed uint64, mode uint8, left bool) {
		layout := []kokkos.Option{kokkos.LayoutRight}
		if left {
			layout[0] = kokkos.LayoutLeft
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		runDualSequence(t, rng, 1+int(seed%3), dualMode(mode%3), layout, 60)
	})
}

// TestDualViewViews: a host-accessible device space gives one view for
// both sides; device memory a host mirror, labelled as Kokkos labels it.
func TestDualViewViews(t *testing.T) {
	for _, mode := range []dualMode{modeSingle, modeShared, modeSeparate} {
		space := mode.space()
		dv, err := containers.NewDualView2[int32]("A", 3, 4, kokkos.InSpace(space), kokkos.LayoutLeft)
		if err != nil {
			t.Fatal(err)
		}
		h, d := dv.ViewHost(), dv.ViewDevice()
		if same := h.Equal(&d); same != (mode != modeSeparate) {
			t.Errorf("%s: host view is the device view: %v", mode, same)
		}
		if h.Space() != kokkos.HostSpace && mode == modeSeparate || d.Space() != space {
			t.Errorf("%s: spaces %s and %s", mode, h.Space().Name(), d.Space().Name())
		}
		if h.Layout() != kokkos.LayoutLeft || d.Layout() != kokkos.LayoutLeft {
			t.Errorf("%s: layouts %s, %s", mode, h.Layout(), d.Layout())
		}
		if mode == modeSeparate && h.Label() != "A_mirror" {
			t.Errorf("host label %q", h.Label())
		}
		if dv.Label() != "A" || dv.Rank() != 2 || dv.Extent(0) != 3 || dv.Extent(1) != 4 || dv.Span() != 12 || !dv.SpanIsContiguous() || dv.Stride(1) != 3 {
			t.Errorf("%s: label %q rank %d extents %d %d span %d stride %d", mode, dv.Label(), dv.Rank(), dv.Extent(0), dv.Extent(1), dv.Span(), dv.Stride(1))
		}
		if dv.Space() != space || !dv.IsAllocated() {
			t.Errorf("%s: space %s allocated %v", mode, dv.Space().Name(), dv.IsAllocated())
		}
		vh, vd := dv.View(kokkos.HostSpace), dv.View(space)
		if !vh.Equal(&h) || !vd.Equal(&d) {
			t.Errorf("%s: View(space) is not the view of that side", mode)
		}
		msg := panics(func() { dv.View(backendtest.FakeDevice(false)) })
		if !strings.Contains(msg, `"A"`) || !strings.Contains(msg, "FakeDeviceSpace") {
			t.Errorf("%s: View of another space: panic %q", mode, msg)
		}
		msg = panics(func() { dv.Modify(backendtest.FakeDevice(false)) })
		if !strings.Contains(msg, "Modify(FakeDeviceSpace)") || !strings.Contains(msg, "[3 4]") {
			t.Errorf("%s: Modify of another space: panic %q", mode, msg)
		}
		if err := dv.Release(); err != nil {
			t.Errorf("%s: Release: %v", mode, err)
		}
		if dv.IsAllocated() {
			t.Errorf("%s: allocated after Release", mode)
		}
	}
}

// TestDualViewReleases: Release frees both sides of device memory, and
// Resize and Realloc the views they replace.
func TestDualViewReleases(t *testing.T) {
	for _, host := range []bool{false, true} {
		fake := backendtest.FakeDevice(host)
		dv, err := containers.NewDualView1[float64]("R", 10, kokkos.InSpace(fake))
		if err != nil {
			t.Fatal(err)
		}
		old := dv.ViewDevice()
		if err := dv.Resize(20); err != nil {
			t.Fatal(err)
		}
		if old.IsAllocated() {
			t.Errorf("host %v: the device view Resize replaced is still allocated", host)
		}
		if err := dv.Realloc(5); err != nil {
			t.Fatal(err)
		}
		if fake.Blocks() != 1 {
			t.Errorf("host %v: %d blocks live, want 1", host, fake.Blocks())
		}
		if err := dv.Release(); err != nil {
			t.Fatal(err)
		}
		if fake.Blocks() != 0 {
			t.Errorf("host %v: %d blocks live after Release", host, fake.Blocks())
		}
	}
}

// TestDualViewResizeKeepsModifiedSide: Kokkos resizes the side modified
// last and marks it modified; the next sync carries its elements over.
func TestDualViewResizeKeepsModifiedSide(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	dv := kokkos.Must(containers.NewDualView1[int]("K", 4, kokkos.InSpace(fake)))
	defer dv.Release()
	h := dv.ViewHost()
	for i := range 4 {
		h.Set(i, 10+i)
	}
	dv.ModifyHost()
	if err := dv.Resize(6); err != nil {
		t.Fatal(err)
	}
	if !dv.NeedSyncDevice() || dv.NeedSyncHost() {
		t.Fatalf("after Resize of a host-modified DualView: NeedSyncDevice %v NeedSyncHost %v", dv.NeedSyncDevice(), dv.NeedSyncHost())
	}
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	got := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	if want := []int{10, 11, 12, 13, 0, 0}; !slices.Equal(got.Data(), want) {
		t.Fatalf("device after Resize and SyncDevice: %v, want %v", got.Data(), want)
	}
	// Unmodified: the device side is resized and marked modified.
	if err := dv.Resize(3); err != nil {
		t.Fatal(err)
	}
	if !dv.NeedSyncHost() {
		t.Fatal("Resize of an unmodified DualView does not mark the device modified")
	}
	if err := dv.SyncHost(); err != nil {
		t.Fatal(err)
	}
	h = dv.ViewHost()
	if want := []int{10, 11, 12}; !slices.Equal(h.Data(), want) {
		t.Fatalf("host after Resize and SyncHost: %v, want %v", h.Data(), want)
	}
}

// TestDualViewBothModifiedPanics: marking one side while the other holds
// unsynced changes panics with the label, the extents and what to do.
func TestDualViewBothModifiedPanics(t *testing.T) {
	dv := kokkos.Must(containers.NewDualView2[float32]("both", 2, 5, kokkos.InSpace(backendtest.FakeDevice(false))))
	defer dv.Release()
	dv.ModifyHost()
	msg := panics(dv.ModifyDevice)
	for _, want := range []string{`"both"`, "[2 5]", "ModifyDevice", "SyncDevice", "ClearSyncState"} {
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q does not contain %q", msg, want)
		}
	}
	dv.ModifyHost() // the same side again is fine
	dv.ClearSyncState()
	dv.ModifyDevice()
	if msg := panics(dv.ModifyHost); !strings.Contains(msg, "SyncHost first") {
		t.Errorf("ModifyHost after ModifyDevice: panic %q", msg)
	}
	// On the host only, nothing is ever marked.
	hv := kokkos.Must(containers.NewDualView1[int]("host", 3))
	hv.ModifyHost()
	hv.ModifyDevice()
	if hv.NeedSyncHost() || hv.NeedSyncDevice() {
		t.Error("a DualView in HostSpace records modifications")
	}
}

// TestDualViewFrom: NewDualViewNFrom takes a device view and a host view
// of its shape, and refuses others with errors naming them.
func TestDualViewFrom(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	d := kokkos.Must(kokkos.NewView2[float64]("d", 3, 4, kokkos.InSpace(fake)))
	h := kokkos.Must(kokkos.CreateMirror(d))
	dv, err := containers.NewDualView2From(d, h)
	if err != nil {
		t.Fatal(err)
	}
	h.Set(2, 3, 7.5)
	dv.ModifyHost()
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	back := kokkos.Must(kokkos.CreateMirrorViewAndCopy(d))
	if back.At(2, 3) != 7.5 {
		t.Errorf("device element %v after SyncDevice", back.At(2, 3))
	}
	left := kokkos.Must(kokkos.NewView2[float64]("left", 3, 4, kokkos.LayoutLeft))
	if _, err := containers.NewDualView2From(d, left); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), `"left"`) {
		t.Errorf("layouts differ: %v", err)
	}
	if _, err := containers.NewDualView2From(d, d); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Errorf("host view in device memory: %v", err)
	}
	if err := dv.Release(); err != nil {
		t.Fatal(err)
	}
	if fake.Blocks() != 0 {
		t.Errorf("%d blocks live after Release", fake.Blocks())
	}
}

// TestDualViewRealloc: Realloc zeroes the device; with unchanged extents
// the host keeps its (stale) elements, as in Kokkos; options other than
// WithoutInitializing are refused.
func TestDualViewRealloc(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	dv := kokkos.Must(containers.NewDualView1[int]("Z", 3, kokkos.InSpace(fake)))
	defer dv.Release()
	h := dv.ViewHost()
	h.Set(1, 5)
	dv.ModifyHost()
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	if err := dv.Realloc(3); err != nil {
		t.Fatal(err)
	}
	d := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	if !slices.Equal(d.Data(), []int{0, 0, 0}) || h.At(1) != 5 || dv.NeedSyncHost() || dv.NeedSyncDevice() {
		t.Errorf("after Realloc to the same extents: device %v, host %v", d.Data(), h.Data())
	}
	if err := dv.Realloc(4, kokkos.LayoutLeft); !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), `"Z"`) {
		t.Errorf("Realloc with a layout: %v", err)
	}
	if err := dv.Resize(4, kokkos.InSpace(kokkos.HostSpace)); !errors.Is(err, kokkos.ErrOption) {
		t.Errorf("Resize with a space: %v", err)
	}
	if err := dv.Resize(-1); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("Resize to a negative extent: %v", err)
	}
	d0 := kokkos.Must(containers.NewDualView0[int]("s", kokkos.InSpace(fake)))
	defer d0.Release()
	if err := d0.Realloc(kokkos.LayoutLeft); !errors.Is(err, kokkos.ErrOption) {
		t.Errorf("rank-0 Realloc with a layout: %v", err)
	}
}

// TestDualViewZero: the zero DualView has no views and records nothing;
// Resize gives it views in HostSpace.
func TestDualViewZero(t *testing.T) {
	var dv containers.DualView2[float64]
	dv.ModifyHost()
	dv.ModifyDevice()
	if dv.NeedSyncHost() || dv.NeedSyncDevice() || dv.IsAllocated() {
		t.Fatal("the zero DualView records modifications or is allocated")
	}
	if err := dv.SyncHost(); err != nil {
		t.Fatal(err)
	}
	if err := dv.Release(); err != nil {
		t.Fatal(err)
	}
	if err := dv.Resize(2, 3); err != nil {
		t.Fatal(err)
	}
	if !dv.IsAllocated() || dv.Extent(1) != 3 || dv.Space() != kokkos.HostSpace {
		t.Fatalf("after Resize: allocated %v extent %d", dv.IsAllocated(), dv.Extent(1))
	}
}

// TestDualViewWithoutInitializing: WithoutInitializing reaches the device
// view and the host mirror, also through Resize and Realloc, and the
// elements written survive a round trip.
func TestDualViewWithoutInitializing(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	dv, err := containers.NewDualView2[int32]("u", 4, 3, kokkos.InSpace(fake), kokkos.WithoutInitializing)
	if err != nil {
		t.Fatal(err)
	}
	defer dv.Release()
	d := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	if d.At(0, 0) != int32(-0x54545455) { // 0xABABABAB: the fake device's unzeroed bytes
		t.Errorf("device element %#x: the device view was zeroed", uint32(d.At(0, 0)))
	}
	h := dv.ViewHost()
	for i := range 4 {
		for j := range 3 {
			h.Set(i, j, int32(10*i+j))
		}
	}
	dv.ModifyHost()
	if err := dv.Resize(5, 3, kokkos.WithoutInitializing); err != nil {
		t.Fatal(err)
	}
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	d = kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	if d.At(3, 2) != 32 || d.At(1, 1) != 11 {
		t.Errorf("device after Resize and SyncDevice: %v", d.Data())
	}
	if err := dv.Realloc(2, 2, kokkos.WithoutInitializing); err != nil {
		t.Fatal(err)
	}
	if dv.Extent(0) != 2 || dv.NeedSyncHost() || dv.NeedSyncDevice() {
		t.Errorf("after Realloc: extent %d, marks %v %v", dv.Extent(0), dv.NeedSyncHost(), dv.NeedSyncDevice())
	}
}
