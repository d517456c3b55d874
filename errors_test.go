package kokkos

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// TestSentinelErrors checks that each failure a caller can act on wraps its
// sentinel for errors.Is, and that the message still names the view.
func TestSentinelErrors(t *testing.T) {
	a := Must(NewView2[float64]("A", 3, 4))
	b := Must(NewView2[float64]("B", 4, 3))
	ro := a.ReadOnly()
	released := Must(NewView1[int]("R", 5))
	other := Must(NewView1[int]("R2", 5))
	if err := released.Release(); err != nil {
		t.Fatal(err)
	}
	wrapped := Must(WrapView1(make([]int, 5), 5, WithLabel("W")))
	host := Must(NewView1[float64]("H", 8))
	cases := []struct {
		name  string
		err   error
		kind  error
		label string
	}{
		{"DeepCopy extents", DeepCopy[float64](a, b), ErrShape, `"A"`},
		{"DeepCopy ranks", DeepCopy[float64](a, host), ErrShape, `"H"`},
		{"DeepCopy read-only", DeepCopy[float64](ro, b), ErrReadOnly, `"A"`},
		{"Fill read-only", Fill[float64](ro, 1), ErrReadOnly, `"A"`},
		{"DeepCopy overlap", DeepCopy[float64](a.Subview2(Pair(0, 2), All), a.Subview2(Pair(1, 3), All)), ErrOverlap, `"A"`},
		{"DeepCopy released", DeepCopy[int](other, released), ErrReleased, `"R"`},
		{"Fill released", Fill[int](released, 3), ErrReleased, `"R"`},
		{"Realloc unmanaged", Realloc(&wrapped, [1]int{7}), ErrUnmanaged, `"W"`},
		{"Resize read-only", func() error { r := host.ReadOnly(); return Resize(&r, [1]int{9}) }(), ErrReadOnly, `"H"`},
		{"DeepCopyToScalar rank", DeepCopyToScalar(new(float64), a), ErrShape, `"A"`},
		{"negative extent", err2(NewView2[float64]("N", -1, 3)), ErrShape, `"N"`},
		{"overflowing extents", err2(NewView3[float64]("O", 1<<40, 1<<40, 1<<40)), ErrShape, `"O"`},
		{"rank of a spec", err2(NewView2From[float64]("S", LayoutSpec{Layout: LayoutRight, Extents: []int{2, 3, 4}})), ErrShape, `"S"`},
		{"strides overlap", err2(NewView2[float64]("S", 3, 3, WithStrides(1, 2))), ErrLayout, `"S"`},
		{"strides count", err2(NewView2[float64]("S", 3, 3, WithStrides(1))), ErrLayout, `"S"`},
		{"AsLayout", err2(a.AsLayout(LayoutLeft)), ErrLayout, `"A"`},
		{"wrap too short", err2(WrapView2(make([]int, 3), 2, 2, WithLabel("T"))), ErrShape, `"T"`},
		{"Unmanaged allocation", err2(NewView1[int]("U", 3, WithTraits(Unmanaged))), ErrUnmanaged, `"U"`},
		{"pointers outside the Go heap", err2(NewView1[*int]("P", 3, InSpace(newFakeSpace(true)))), ErrElementType, `"P"`},
		{"DynRankView rank", err2(NewDynRankView[int]("D", make([]int, MaxRank+1))), ErrShape, `"D"`},
		{"offset range", err2(NewOffsetView1[int]("OV", Bounds(3, 1))), ErrShape, `"OV"`},
		{"CreateMirror label", err2(CreateMirror(a, WithLabel("M"))), ErrOption, `WithLabel("M")`},
		{"DeepCopy device to host without CopySpace", DeepCopy[float64](host, Must(NewView1[float64]("NC", 8, InSpace(noCopySpace{})))), ErrNoCopySpace, `"NC"`},
	}
	sentinels := []error{ErrShape, ErrLayout, ErrReadOnly, ErrReleased, ErrUnmanaged, ErrOverlap,
		ErrNotHostAccessible, ErrNoCopySpace, ErrElementType, ErrWouldDeadlock, ErrOption}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v is not %v", c.name, c.err, c.kind)
		}
		for _, s := range sentinels {
			if s != c.kind && errors.Is(c.err, s) {
				t.Errorf("%s: %v is also %v", c.name, c.err, s)
			}
		}
		if !strings.Contains(c.err.Error(), c.label) {
			t.Errorf("%s: %q does not name %s", c.name, c.err, c.label)
		}
		if strings.Contains(c.err.Error(), c.kind.Error()) {
			t.Errorf("%s: %q repeats the sentinel's text", c.name, c.err)
		}
	}
}

func err2[V any](_ V, err error) error { return err }

// noCopySpace is a device space that allocates but cannot copy.
type noCopySpace struct{}

func (noCopySpace) Name() string         { return "NoCopySpace" }
func (noCopySpace) HostAccessible() bool { return false }
func (noCopySpace) Allocate(label string, n int, zero bool) (backend.Block, error) {
	buf := make([]byte, n+1)
	return backend.Block{Addr: uintptr(len(buf)) << 12, Free: func() error { return nil }}, nil
}
