package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestOptionsApplyOrErr gives every option to every constructor family:
// each either applies, and the view shows it, or the constructor returns
// an error wrapping ErrOption. No option is dropped silently. The table is
// the one in docs/guide/views.md.
func TestOptionsApplyOrErr(t *testing.T) {
	const label = "A"
	data := make([]float64, 300*200)
	for i := range data {
		data[i] = rand.Float64()
	}
	spec := LayoutSpec{Layout: LayoutRight, Extents: []int{300, 199}}
	host := Must(NewView2[float64]("H", 300, 199))
	type ctor struct {
		name string
		make func(opts ...Option) (View[float64], error)
	}
	ctors := []ctor{
		{"NewView2", func(o ...Option) (View[float64], error) {
			v, err := NewView2[float64](label, 300, 199, o...)
			return &v, err
		}},
		{"NewView2From", func(o ...Option) (View[float64], error) {
			v, err := NewView2From[float64](label, spec, o...)
			return &v, err
		}},
		{"NewDynRankView", func(o ...Option) (View[float64], error) {
			v, err := NewDynRankView[float64](label, []int{300, 199}, o...)
			return &v, err
		}},
		{"NewOffsetView2", func(o ...Option) (View[float64], error) {
			v, err := NewOffsetView2[float64](label, IndexRange{0, 299}, IndexRange{0, 198}, o...)
			return &v, err
		}},
		{"WrapView2", func(o ...Option) (View[float64], error) { v, err := WrapView2(data, 300, 199, o...); return &v, err }},
		{"WrapDynRankView", func(o ...Option) (View[float64], error) {
			v, err := WrapDynRankView(data, []int{300, 199}, o...)
			return &v, err
		}},
		{"WrapOffsetView2", func(o ...Option) (View[float64], error) {
			v, err := WrapOffsetView2(data, [2]int{0, 0}, [2]int{300, 199}, o...)
			return &v, err
		}},
		{"CreateMirror", func(o ...Option) (View[float64], error) { v, err := CreateMirror(host, o...); return &v, err }},
		{"CreateMirrorViewAndCopy", func(o ...Option) (View[float64], error) {
			v, err := CreateMirrorViewAndCopy(host, o...)
			return &v, err
		}},
	}
	type opt struct {
		name string
		o    Option
		// applies says whether constructor c applies the option; check
		// says whether a view made with it shows it.
		applies func(c string) bool
		check   func(d desc[float64]) bool
	}
	isWrap := func(c string) bool { return c[:4] == "Wrap" }
	isMirror := func(c string) bool { return c[:6] == "Create" }
	isFrom := func(c string) bool { return c == "NewView2From" }
	always := func(string) bool { return true }
	opts := []opt{
		// A From constructor has its spec's layout: another one conflicts
		// (ErrLayout, checked below).
		{"LayoutLeft", LayoutLeft, func(c string) bool { return !isMirror(c) && !isFrom(c) }, func(d desc[float64]) bool { return d.layout == LayoutLeft }},
		{"WithStrides", WithStrides(1, 300), func(c string) bool { return !isMirror(c) && !isFrom(c) }, func(d desc[float64]) bool { return d.layout == LayoutStride && d.str[1] == 300 }},
		{"AllowPadding", AllowPadding, func(c string) bool { return !isWrap(c) && !isMirror(c) }, func(d desc[float64]) bool { return d.str[0] == 200 }},
		{"WithoutInitializing", WithoutInitializing, func(c string) bool { return !isWrap(c) }, func(desc[float64]) bool { return true }},
		{"WithExec(Serial)", WithExec(Serial{}), func(c string) bool { return !isWrap(c) }, func(desc[float64]) bool { return true }},
		{"InSpace(HostSpace)", InSpace(HostSpace), always, func(d desc[float64]) bool { return d.rec.Space() == HostSpace }},
		{"WithTraits(RandomAccess)", WithTraits(RandomAccess), func(c string) bool { return !isMirror(c) }, func(d desc[float64]) bool { return d.traits&RandomAccess != 0 }},
		// CreateMirrorViewAndCopy labels the view it makes; a host view is
		// its own host mirror, and keeps its label, as in Kokkos.
		{"WithLabel", WithLabel("B"), func(c string) bool { return isWrap(c) || c == "CreateMirrorViewAndCopy" }, func(d desc[float64]) bool { return d.label() == "B" || d.rec == host.rec }},
		{"AtAddress", AtAddress(0x1000), func(string) bool { return false }, nil},
	}
	for _, c := range ctors {
		for _, o := range opts {
			t.Run(fmt.Sprintf("%s/%s", c.name, o.name), func(t *testing.T) {
				v, err := c.make(o.o)
				if !o.applies(c.name) {
					// AtAddress with a slice is refused as a shape error:
					// it names memory that the slice argument names too.
					if err == nil || !errors.Is(err, ErrOption) && !(o.name == "AtAddress" && isWrap(c.name) && errors.Is(err, ErrShape)) && !(isFrom(c.name) && errors.Is(err, ErrLayout)) {
						t.Fatalf("err = %v, want an error wrapping ErrOption", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("the option applies, but: %v", err)
				}
				if !o.check(v.viewDesc()) {
					d := v.viewDesc()
					t.Fatalf("the view does not show %s: label %q layout %v strides %v traits %v", o.name, d.label(), d.layout, d.strides(), d.traits)
				}
			})
		}
	}
}

// TestWrapRefusesPadding is the case of a wrapped slice given
// AllowPadding: the view would have stride 199, not the padded 200, so
// the option is refused rather than dropped.
func TestWrapRefusesPadding(t *testing.T) {
	d := make([]float64, 300*200)
	if _, err := WrapView2(d, 300, 199, AllowPadding); !errors.Is(err, ErrOption) {
		t.Fatalf("WrapView2 with AllowPadding: %v, want ErrOption", err)
	}
	if _, err := NewView2[float64]("A", 3, 3, WithLabel("B")); !errors.Is(err, ErrOption) {
		t.Fatalf("NewView2 with WithLabel: %v, want ErrOption", err)
	}
	if _, err := WrapView1(d, 10, WithoutInitializing); !errors.Is(err, ErrOption) {
		t.Fatalf("WrapView1 with WithoutInitializing: %v, want ErrOption", err)
	}
}

// The switch options are constants, which no code can reassign: this
// declaration compiles only for constants.
const _, _ = AllowPadding, WithoutInitializing
