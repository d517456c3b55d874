package containers

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// semantics runs testdata/scatter_semantics.cpp's sequence with a
// ScatterView of op made with opts, and returns its lines.
func semantics[Op ScatterOp](name string, k int64, space kokkos.ExecutionSpace, opts ...ScatterOption) []string {
	var out []string
	print := func(what string, v kokkos.View1[int64]) {
		s := name + ": " + what + ":"
		for i := range v.Extent(0) {
			s += fmt.Sprintf(" %d", v.At(i))
		}
		out = append(out, s)
	}
	v := kokkos.Must(kokkos.NewView1[int64]("v", 6))
	w := kokkos.Must(kokkos.NewView1[int64]("w", 6))
	for i := range 6 {
		v.Set(i, int64(10*i+1))
		w.Set(i, int64(100+i))
	}
	sv := kokkos.Must(NewScatterView1[Op](v, append([]ScatterOption{ScatterOn(space)}, opts...)...))
	defer sv.Release()
	print("constructed", v)
	update := func(by int64) {
		kokkos.ParallelFor("update", kokkos.Range(0, 60).On(space), func(i int) {
			a := sv.Access()
			a.Update(i%6, by*int64(i%7)+k*int64(i%5))
			a.Release()
		})
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	update(1)
	print("updated", v)
	must(sv.ContributeInto(w))
	print("contribute(w)", w)
	must(sv.ContributeInto(v))
	print("contribute(v)", v)
	must(sv.ResetExcept(v))
	print("reset_except(v)", v)
	update(2)
	must(sv.ContributeInto(v))
	print("updated, contribute(v)", v)
	must(sv.ResetExcept(w))
	print("reset_except(w)", v)
	must(sv.Reset())
	print("reset", v)
	must(sv.ContributeInto(v))
	print("reset, contribute(v)", v)
	return out
}

// TestScatterKokkosSemantics compares construction, updates,
// ContributeInto, ResetExcept and Reset with what Kokkos 4.6.1 printed
// for the same sequence (testdata/scatter_semantics.cpp).
func TestScatterKokkosSemantics(t *testing.T) {
	data, err := os.ReadFile("testdata/scatter_semantics.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	th := threads8()
	var got []string
	got = append(got, semantics[ScatterSum]("sum-dup", 3, th, ScatterDuplicated, ScatterNonAtomic)...)
	got = append(got, semantics[ScatterSum]("sum-atomic", 3, th, ScatterNonDuplicated, ScatterAtomic)...)
	got = append(got, semantics[ScatterSum]("sum-serial", 3, kokkos.Serial{})...)
	got = append(got, semantics[ScatterMax]("max-dup", -40, th, ScatterDuplicated, ScatterNonAtomic)...)
	got = append(got, semantics[ScatterMax]("max-atomic", -40, th, ScatterNonDuplicated, ScatterAtomic)...)
	// Kokkos 4.6.1's non-duplicated contribute_into of a view other than
	// its own does nothing: its ReduceDuplicates runs over a range of
	// stride elements, and the non-duplicated form passes a stride of 0.
	// ContributeInto combines the view into it, as the duplicated form
	// does: w(i) + v(i).
	for i, l := range want {
		switch l {
		case "sum-atomic: contribute(w): 100 101 102 103 104 105":
			want[i] = "sum-atomic: contribute(w): 193 200 207 221 235 249"
		case "sum-serial: contribute(w): 100 101 102 103 104 105":
			want[i] = "sum-serial: contribute(w): 193 200 207 221 235 249"
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, Kokkos printed %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
		}
	}
}
