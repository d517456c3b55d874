package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// teamAllowedSrc uses every form of a team kernel.
const teamAllowedSrc = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func sq(x float64) float64 { return x * x }

//kokkos:kernel
func Forms(t kernel.Team, a kokkos.View2[float64], out kokkos.View1[float64], n int, acc *float64) {
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), n)
	u := kokkos.ScratchView2[int32](t.ThreadScratch(1), 2, n)
	w := kokkos.ScratchView3[uint8](t.TeamScratch(1), 1, 2, 3)
	r := kokkos.ScratchView1[float32](t.TeamScratch(0), 4)
	row := t.LeagueRank() + t.LeagueSize()*0 + t.TeamRank()*t.TeamSize()
	for j := range t.TeamThreadRange(0, n) {
		if j == 3 {
			continue
		}
		s.Set(j, a.At(row, j))
		for range t.ThreadVectorRange(0, 2) {
			u.Set(0, j, int32(j))
		}
		for k := range 3 {
			if k == 1 {
				break
			}
		}
		switch {
		case j > 5:
			break
		}
	}
	t.TeamBarrier()
	var v float64
	for j := range t.TeamVectorRange(0, s.Extent(0)) {
		v += sq(s.At(j)) + float64(w.At(0, 0, 0)) + float64(r.At(0))
	}
	v = kernel.TeamReduce(t, kokkos.Sum[float64](), v)
	v = kernel.VectorReduce(t, kokkos.Max[float64](), v)
	p, total := kernel.TeamScan(t, kokkos.Prod[int64](), int64(row))
	b := kernel.TeamReduce(t, kokkos.LOr(), v > 0)
	m := kernel.TeamReduce(t, kokkos.BAnd[uint32](), uint32(row))
	x := kernel.TeamBroadcast(t, v, 0)
	kokkos.AtomicAdd(s.Ptr(0), x)
	if t.SinglePerTeam() && t.SinglePerThread() && b && m > 0 {
		out.Set(row, float64(p+total))
		*acc += v
		return
	}
}

//kokkos:kernel
func Plain(_ kernel.Team, out kokkos.View1[int64]) {
	out.Set(0, 1)
}
`

var checkedTeam = sync.OnceValues(func() (*pkgInfo, error) {
	p, err := loadSource(".", map[string]string{"k.go": teamAllowedSrc})
	if err != nil {
		return nil, err
	}
	return p, p.checkBodies()
})

// kernelNamed returns p's kernel or helper name.
func kernelNamed(t *testing.T, p *pkgInfo, name string) *kernelFunc {
	t.Helper()
	for _, k := range p.kernels {
		if k.name == name {
			return k
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// TestCheckTeamAllows checks that the forms of a team kernel pass, and
// what the model records of them: the Team, the pattern, the scratch
// views (rank, element, level, pad, whether written) and the loops over
// nested ranges.
func TestCheckTeamAllows(t *testing.T) {
	p, err := checkedTeam()
	if err != nil {
		t.Fatal(err)
	}
	k := kernelNamed(t, p, "Forms")
	if k.team == nil || k.team.Name() != "t" || k.helper || k.pattern != patReduce || len(k.index) != 0 || len(k.params) != 3 || k.acc == nil {
		t.Fatalf("Forms: team %v, helper %v, pattern %v, %d indices, %d params, acc %v", k.team, k.helper, k.pattern, len(k.index), len(k.params), k.acc)
	}
	var got []string
	for _, sv := range k.scratch {
		got = append(got, fmt.Sprintf("%s %d %s level %d thread %v write %v extents %d", sv.name, sv.rank, sv.elem, sv.level, sv.thread, sv.write, len(sv.extents)))
	}
	want := []string{
		"s 1 float64 level 0 thread false write true extents 1",
		"u 2 int32 level 1 thread true write true extents 2",
		"w 3 uint8 level 1 thread false write false extents 3",
		"r 1 float32 level 0 thread false write false extents 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scratch views:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	kinds := map[string]int{}
	for _, m := range k.nested {
		kinds[m]++
	}
	if len(k.nested) != 3 || kinds["TeamThreadRange"] != 1 || kinds["ThreadVectorRange"] != 1 || kinds["TeamVectorRange"] != 1 {
		t.Errorf("nested ranges %v", kinds)
	}
	if pl := kernelNamed(t, p, "Plain"); pl.team == nil || pl.pattern != patFor || !pl.params[0].write {
		t.Errorf("Plain: team %v, pattern %v", pl.team, pl.pattern)
	}
}

// TestCheckTeamShapes checks the refusals of team kernels' signatures.
func TestCheckTeamShapes(t *testing.T) {
	_, err := loadSource(".", map[string]string{"k.go": `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func Result(t kernel.Team) int { return 0 }

//kokkos:kernel
func Scan(t kernel.Team, a kokkos.View1[int64], acc *int64, final bool) {}

//kokkos:kernel
func Two(t kernel.Team, u kernel.Team) {}

//kokkos:kernel
func Slice(t kernel.Team, s []float64) {}

//kokkos:kernel
func Acc(t kernel.Team, acc *[]int) {}

//kokkos:kernel
func Late(i int, t kernel.Team) {}
`})
	if err == nil {
		t.Fatal("no error")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.Index(l, "k.go:"):])
	}
	want := []string{
		"k.go:9:1: kernel Result: a team kernel has no results (a helper takes no kernel.Team)",
		"k.go:12:49: kernel Scan: a team kernel cannot be a scan (acc *T, final bool): Kokkos has no parallel_scan over a TeamPolicy; use kernel.TeamScan in the body",
		"k.go:15:25: kernel Two: parameter u: a team kernel takes one kernel.Team, its first parameter",
		"k.go:18:27: kernel Slice: parameter s has type []float64; a team kernel takes a kernel.Team, then views (kokkos.View1 to View6 of fixed-size numbers) and scalars (numbers, bool), then acc *T for a reduction",
		"k.go:21:25: kernel Acc: accumulator acc has type *[]int; it must point to a number or a bool",
		"k.go:24:18: kernel Late: parameter t has type github.com/gokkos/kokkos/kernel.Team; a kernel takes views (kokkos.View1 to View6 of fixed-size numbers), scalars (numbers, bool, structs of numbers declared in the package) and unique tokens (kokkos.UniqueToken), then acc *T for a reduction or acc *T, final bool for a scan",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// teamRefusedHeader declares what the refused team bodies use.
const teamRefusedHeader = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func h(x int) int { return x }
`

// teamRefusedCases has a case for each form a team kernel may not take.
func teamRefusedCases() []refusedCase {
	const asValue = "call its methods in the kernel; it cannot be copied or passed to a helper"
	const teamTS = "every thread of the team must call it as often: call it after the loop"
	return []refusedCase{
		{"team value", `//kokkos:kernel
func TeamValue(t kernel.Team) {
	u := t
	_ = u
	_ = h(t.TeamRank())
	t = u
}`, []string{
			refused("3:7", "TeamValue", "the Team t as a value", asValue),
			refused("6:2", "TeamValue", "an assignment to the Team t", "a team kernel has one Team, its parameter"),
		}},
		{"range exits", `//kokkos:kernel
func Exits(t kernel.Team, n int) {
	for j := range t.TeamThreadRange(0, n) {
		if j > 2 {
			break
		}
		for range t.ThreadVectorRange(0, j) {
			return
		}
		j++
	}
}`, []string{
			refused("5:4", "Exits", "a break out of a loop over TeamThreadRange", "the loop runs each thread's share of the range: use continue, or a flag"),
			refused("8:4", "Exits", "a return inside a loop over ThreadVectorRange", "the loop runs each thread's share of the range: use continue, or an if around the rest"),
			refused("10:3", "Exits", "an assignment to j, the index of a nested range", "copy it to a local"),
		}},
		{"range elsewhere", `//kokkos:kernel
func Elsewhere(t kernel.Team, n int) {
	r := t.TeamThreadRange(0, n)
	_ = r
	var j int
	for j = range t.ThreadVectorRange(0, n) {
	}
	_ = j
}`, []string{
			refused("3:7", "Elsewhere", "t.TeamThreadRange outside a range loop", "loop over it: for j := range t.TeamThreadRange(b, e)"),
			refused("6:2", "Elsewhere", "a range over ThreadVectorRange assigning an existing variable", "declare the index: for j := range t.ThreadVectorRange(0, n)"),
		}},
		{"collectives in loops", `//kokkos:kernel
func InLoops(t kernel.Team, n int) {
	for j := range t.TeamThreadRange(0, n) {
		t.TeamBarrier()
		_ = kernel.TeamReduce(t, kokkos.Sum[int](), j)
		for k := range t.ThreadVectorRange(0, n) {
			_, _ = kernel.TeamScan(t, kokkos.Sum[int](), k)
			_ = kernel.VectorReduce(t, kokkos.Sum[int](), k)
		}
		_ = kernel.TeamBroadcast(t, j, 0)
		_ = kernel.VectorReduce(t, kokkos.Sum[int](), j)
	}
}`, []string{
			refused("4:3", "InLoops", "t.TeamBarrier() inside a loop over a team range", teamTS),
			refused("5:7", "InLoops", "kernel.TeamReduce inside a loop over a team range", teamTS),
			refused("7:11", "InLoops", "kernel.TeamScan inside a loop over a team range", teamTS),
			refused("8:8", "InLoops", "kernel.VectorReduce inside a loop over a vector range", "every vector lane must call it: call it after the loop"),
			refused("10:7", "InLoops", "kernel.TeamBroadcast inside a loop over a team range", teamTS),
		}},
		{"nested team ranges", `//kokkos:kernel
func Nested(t kernel.Team, n int) {
	for range t.TeamThreadRange(0, n) {
		for range t.TeamVectorRange(0, n) {
		}
	}
	for range t.ThreadVectorRange(0, n) {
		for range t.ThreadVectorRange(0, n) {
		}
	}
}`, []string{
			refused("4:3", "Nested", "a loop over TeamVectorRange inside a loop over a team range", "nest a ThreadVectorRange in a TeamThreadRange"),
			refused("8:3", "Nested", "a loop over ThreadVectorRange inside a loop over a vector range", "a vector range is innermost"),
		}},
		{"reducers", `//kokkos:kernel
func Reducers(t kernel.Team, n int) {
	r := kokkos.Sum[int]()
	_ = kernel.TeamReduce(t, r, n)
	_ = kernel.TeamReduce(t, kokkos.Sum[int](), n)
}`, []string{
			refused("3:7", "Reducers", "the reducer kokkos.Sum[int]() outside a team collective", "pass it, written in place, to kernel.TeamReduce, VectorReduce or TeamScan"),
			refused("4:27", "Reducers", "the reducer r of kernel.TeamReduce", "write one of kokkos.Sum[T](), Prod, Min, Max, LAnd(), LOr(), BAnd, BOr in place"),
		}},
		{"scratch", `//kokkos:kernel
func Scratch(t kernel.Team, n, lv int) {
	a := kokkos.ScratchView1[float64](t.TeamScratch(lv), n)
	b := kokkos.ScratchView1[float64](t.ThreadScratch(2), n)
	c := kokkos.ScratchView1[float64](t.TeamScratch(0), n, kokkos.LayoutLeft)
	d := kokkos.ScratchView1[int](t.TeamScratch(0), n)
	e, f := kokkos.ScratchView1[float64](t.TeamScratch(0), n), 1
	if n > 0 {
		g := kokkos.ScratchView1[float64](t.TeamScratch(0), n)
		_ = g.At(0)
	}
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), n)
	s2 := s
	s = s2
	_ = t.TeamScratch(0)
	e = kokkos.ScratchView1[float64](t.TeamScratch(0), n)
	var v = kokkos.ScratchView1[float64](t.TeamScratch(0), n)
	_, _, _, _, _, _, _ = a, b, c, d, e, f, v
}`, []string{
			refused("3:50", "Scratch", "the scratch level lv", "use the constant 0 (fast, small) or 1"),
			refused("4:52", "Scratch", "the scratch level 2", "use the constant 0 (fast, small) or 1"),
			refused("5:7", "Scratch", "the options of a scratch view", "give the pad and the extents only: s := kokkos.ScratchView1[T](t.TeamScratch(0), extents...)"),
			refused("6:7", "Scratch", "a scratch view of type kokkos.View1[int]", "use ScratchView1 to ScratchView6 of int8..int64, uint8..uint64, float32 or float64"),
			refused("7:10", "Scratch", "a scratch view outside a declaration s := kokkos.ScratchView1[T](t.TeamScratch(level), extents...)", "declare it on its own, at the top of the kernel's body"),
			refused("9:3", "Scratch", "a scratch view declared inside a block", "declare scratch views at the top level of the kernel's body"),
			refused("13:8", "Scratch", "the scratch view s as a value", "call its At, Set, Ptr or Extent"),
			refused("14:2", "Scratch", "an assignment to scratch view s", "write its elements with s.Set, or declare another scratch view"),
			refused("15:6", "Scratch", "t.TeamScratch outside a scratch view declaration", "declare s := kokkos.ScratchView1[T](t.TeamScratch(0), n)"),
			refused("16:2", "Scratch", "this scratch view declaration", "declare one view a statement: s := kokkos.ScratchView1[T](t.TeamScratch(0), extents...)"),
			refused("17:10", "Scratch", "a scratch view outside a declaration s := kokkos.ScratchView1[T](t.TeamScratch(level), extents...)", "declare it on its own, at the top of the kernel's body"),
		}},
		{"flat kernel", `//kokkos:kernel
func Flat(i int, v kokkos.View1[float64]) {
	s := kokkos.ScratchView1[float64](nil, 4)
	_ = kokkos.ScratchView1[float64](nil, 4)
	_ = s
}`, []string{
			refused("3:7", "Flat", "a scratch view in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)"),
			refused("4:6", "Flat", "a scratch view in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)"),
		}},
	}
}

func TestCheckTeamRefuses(t *testing.T) {
	cases := teamRefusedCases()
	src := teamRefusedHeader
	first := make([]int, len(cases))
	var want []string
	for n, c := range cases {
		src += "\n"
		first[n] = strings.Count(src, "\n") + 1
		src += c.src + "\n"
		for _, w := range c.want {
			want = append(want, "k.go:"+shiftLine(t, w, first[n]-1))
		}
	}
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		i := strings.Index(l, "/k.go:")
		if i < 0 {
			t.Fatalf("refusal without a position: %q", l)
		}
		got = append(got, l[i+1:])
	}
	byCase := func(lines []string) [][]string {
		out := make([][]string, len(cases))
		for _, l := range lines {
			ln, _ := strconv.Atoi(strings.Split(l, ":")[1])
			n := len(cases) - 1
			for n > 0 && first[n] > ln {
				n--
			}
			out[n] = append(out[n], l)
		}
		return out
	}
	g, w := byCase(got), byCase(want)
	for n, c := range cases {
		if strings.Join(g[n], "\n") != strings.Join(w[n], "\n") {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", c.name, strings.Join(g[n], "\n\t"), strings.Join(w[n], "\n\t"))
		}
	}
}
