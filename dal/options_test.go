package dal_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// Two InSpace options naming different spaces, or two WithLabel naming
// different labels, are an error wrapping dal.ErrOption and
// kokkos.ErrOption, as kokkos's own InSpace is, for every constructor that
// takes options; nothing is allocated and ResetCount leaves the handle as
// it was. Repeating the same option is no conflict.
func TestConflictingOptionsAreErrors(t *testing.T) {
	s := newHeapSpace()
	conflicts := []struct {
		name string
		opts []dal.Option
		text string
	}{
		{"two spaces", []dal.Option{dal.InSpace(s), dal.InSpace(kokkos.HostSpace)}, "InSpace(TestHeap) and InSpace(HostSpace)"},
		{"host then block space", []dal.Option{dal.InSpace(kokkos.HostSpace), dal.InSpace(s)}, "conflict"},
		{"two labels", []dal.Option{dal.WithLabel("a"), dal.WithLabel("b")}, `WithLabel("a") and WithLabel("b")`},
	}
	for _, c := range conflicts {
		check := func(op string, err error) {
			t.Helper()
			if !errors.Is(err, dal.ErrOption) || !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), op) {
				t.Fatalf("%s with %s: %v; want an error wrapping dal.ErrOption and kokkos.ErrOption naming %s and %q", op, c.name, err, op, c.text)
			}
		}
		_, err := dal.Empty[float64](4, c.opts...)
		check("Empty", err)
		_, err = dal.Zeros[float64](4, c.opts...)
		check("Zeros", err)
		_, err = dal.Full(4, randFloat64(1)[0], c.opts...)
		check("Full", err)
		data := randFloat64(3)
		a := dal.WrapMutable(data)
		check("ResetCount", a.ResetCount(5, c.opts...))
		if a.Count() != 3 || !same(a.Data(), data) || a.Released() {
			t.Fatal("a ResetCount with conflicting options changed the handle")
		}
		must(t, a.Release())
	}
	s.want(t, 0, 0, "after the refused calls")

	// The same option twice, and nil options, are fine.
	v := randFloat64(1)[0]
	a, err := dal.Full(4, v, dal.InSpace(s), nil, dal.InSpace(s), dal.WithLabel("x"), dal.WithLabel("x"))
	must(t, err)
	if a.Space() != kokkos.MemorySpace(s) || a.Allocation().Label() != "x" || a.At(3) != v {
		t.Fatalf("Full with repeated options: space %s, label %q", a.Space().Name(), a.Allocation().Label())
	}
	must(t, a.Release())
	h, err := dal.Zeros[int32](2, dal.InSpace(nil), dal.InSpace(nil))
	must(t, err)
	if h.Space() != kokkos.HostSpace {
		t.Fatalf("InSpace(nil) allocated in %s", h.Space().Name())
	}
	must(t, h.Release())
}
