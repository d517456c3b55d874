package arrow

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"

	"github.com/gokkos/kokkos"
)

// Options that cannot apply or that conflict are errors wrapping ErrOption
// (and kokkos.ErrOption), for every conversion that takes options, with or
// without nulls in the data; repeating an option is no conflict.
func TestOptionsThatCannotApply(t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[float64](r, 12)
	valid := make([]bool, 12)
	for i := range valid {
		valid[i] = i != 3
	}
	withNulls := newArray(mem, vals, valid)
	defer withNulls.Release()
	noNulls := newArray(mem, vals, nil)
	defer noNulls.Release()
	list := newList(noNulls.Data(), 3, 4, 0, nil)
	defer list.Release()
	tdata := noNulls.Data()
	tens := tensor.New(tdata, []int64{3, 4}, nil, nil)
	defer tens.Release()
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(96)
	defer buf.Release()

	cases := []struct {
		name string
		opts []Option
		text string
	}{
		{"Writable and FillNulls", []Option{Writable(), FillNulls(-1.0)}, "Writable and FillNulls conflict"},
		{"FillNulls and Writable", []Option{FillNulls(-1.0), Writable()}, "Writable and FillNulls conflict"},
		{"two labels", []Option{WithLabel("a"), WithLabel("b")}, `WithLabel("a") and WithLabel("b")`},
		{"two fill values", []Option{FillNulls(1.0), FillNulls(2.0)}, "FillNulls(1) and FillNulls(2)"},
	}
	conversions := []struct {
		name string
		run  func(opts []Option) error
	}{
		{"ToView1 with nulls", func(o []Option) error { return release1(ToView1[float64](withNulls, o...)) }},
		{"ToView1", func(o []Option) error { return release1(ToView1[float64](noNulls, o...)) }},
		{"ToArray", func(o []Option) error {
			a, err := ToArray[float64](noNulls, o...)
			if err == nil {
				err = a.Release()
			}
			return err
		}},
		{"FixedSizeListToView2", func(o []Option) error { return release2(FixedSizeListToView2[float64](list, o...)) }},
		{"TensorToView2", func(o []Option) error { return release2(TensorToView2[float64](tens, o...)) }},
		{"BufferToView1", func(o []Option) error { return release1(BufferToView1[float64](buf, o...)) }},
	}
	for _, c := range cases {
		for _, conv := range conversions {
			err := conv.run(c.opts)
			if !errors.Is(err, ErrOption) || !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), c.text) {
				t.Errorf("%s with %s: %v; want an error wrapping ErrOption naming %q", conv.name, c.name, err, c.text)
			}
		}
	}

	// FillNulls cannot apply to a buffer, which has no nulls.
	for _, err := range []error{
		release1(BufferToView1[float64](buf, FillNulls(0.0))),
		func() error {
			a, err := BufferToArray[float64](buf, FillNulls(0.0))
			if err == nil {
				err = a.Release()
			}
			return err
		}(),
	} {
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "no null bitmap") {
			t.Errorf("FillNulls of a buffer: %v", err)
		}
	}
	// FillNulls of another element type is both an option that cannot
	// apply and a type mismatch.
	if err := release1(ToView1[float64](withNulls, FillNulls(int8(1)))); !errors.Is(err, ErrOption) || !errors.Is(err, ErrType) {
		t.Errorf("FillNulls of another type: %v", err)
	}

	// The same option twice, a NaN fill value twice and nil options apply.
	nan := math.NaN()
	v, err := ToView1[float64](withNulls, WithLabel("x"), nil, WithLabel("x"), FillNulls(nan), FillNulls(nan))
	if err != nil {
		t.Fatal(err)
	}
	if v.Label() != "x" || !math.IsNaN(v.At(3)) || v.At(4) != vals[4] {
		t.Fatalf("repeated options: label %q, v(3) %v, v(4) %v (want %v)", v.Label(), v.At(3), v.At(4), vals[4])
	}
	must(t, v.Release())
	w, err := ToView1[float64](noNulls, Writable(), Writable())
	if err != nil || w.IsReadOnly() {
		t.Fatalf("Writable twice: %v", err)
	}
	must(t, w.Release())
}

func release1[T Element](v kokkos.View1[T], err error) error {
	if err != nil {
		return err
	}
	return v.Release()
}

func release2[T Element](v kokkos.View2[T], err error) error {
	if err != nil {
		return err
	}
	return v.Release()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
