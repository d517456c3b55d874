package kerneltest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// Each team kernel runs through kernel.For or Reduce against the same
// function called from a kokkos.ParallelForTeam (or ParallelReduceTeam)
// closure, which must give the same bits (the host kernel is the body as
// written, and both split the nested ranges alike), and against a plain
// Go loop, exactly for integers.

// teamSizes are the team sizes the tests run, Auto among them.
var teamSizes = []int{1, 2, 4, kokkos.Auto}

// resolved is the number of threads of a team of size on the host.
func resolved(size int) int { return max(size, 1) }

// teamSpaces returns the host spaces that run teams of size: the default
// pool, and Serial for teams of one thread.
func teamSpaces(size int) []kokkos.ExecutionSpace {
	if resolved(size) == 1 {
		return []kokkos.ExecutionSpace{nil, kokkos.Serial{}}
	}
	return []kokkos.ExecutionSpace{nil}
}

func randMatrix(t testing.TB, rng *rand.Rand, label string, n, m int) kokkos.View2[float64] {
	a, err := kokkos.NewView2[float64](label, n, m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range m {
			a.Set(i, j, rng.Float64()*2-1)
		}
	}
	return a
}

func randInts[T kokkos.Integer](t testing.TB, rng *rand.Rand, label string, n int, lo, hi int64) kokkos.View1[T] {
	v, err := kokkos.NewView1[T](label, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		v.Set(i, T(lo+rng.Int64N(hi-lo)))
	}
	return v
}

// plainYAx is y·(A x) in index order.
func plainYAx(y, x kokkos.View1[float64], a kokkos.View2[float64]) float64 {
	var sum float64
	for i := range a.Extent(0) {
		var s float64
		for j := range a.Extent(1) {
			s += float64(a.At(i, j) * x.At(j))
		}
		sum += float64(y.At(i) * s)
	}
	return sum
}

func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*max(1, math.Abs(want))
}

func TestTeamYAx(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rows := range []int{0, 1, 37} {
		const cols = 29
		y, x := randView1(t, rng, "y", rows), randView1(t, rng, "x", cols)
		a := randMatrix(t, rng, "a", rows, cols)
		want := plainYAx(y, x, a)
		for _, size := range teamSizes {
			for _, s := range teamSpaces(size) {
				name := fmt.Sprintf("league %d, team %d, space %v", rows, size, s)
				p := kokkos.Teams(rows, size).On(s)
				got, err := kernel.Reduce("yax", p, kokkos.Sum[float64](), TeamYAx, y, x, a)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				ref := kokkos.ParallelReduceTeam("yax", p, kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
					TeamYAx(kernel.TeamOf(m), y, x, a, acc)
				})
				if math.Float64bits(got) != math.Float64bits(ref) || !closeTo(got, want) {
					t.Errorf("%s: kernel %v, closure %v, loop %v", name, got, ref, want)
				}
			}
		}
	}
}

func TestTeamVectorYAx(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, cols = 45, 17
	y, x := randView1(t, rng, "y", rows), randView1(t, rng, "x", cols)
	a := randMatrix(t, rng, "a", rows, cols)
	want := plainYAx(y, x, a)
	for _, rpt := range []int{rows, 4, 7} {
		league := (rows + rpt - 1) / rpt
		for _, size := range teamSizes {
			name := fmt.Sprintf("%d rows a team, team %d", rpt, size)
			p := kokkos.Teams(league, size).WithVectorLength(4)
			got, err := kernel.Reduce("tvyax", p, kokkos.Sum[float64](), TeamVectorYAx, y, x, a, rpt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ref := kokkos.ParallelReduceTeam("tvyax", p, kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
				TeamVectorYAx(kernel.TeamOf(m), y, x, a, rpt, acc)
			})
			if math.Float64bits(got) != math.Float64bits(ref) || !closeTo(got, want) {
				t.Errorf("%s: kernel %v, closure %v, loop %v", name, got, ref, want)
			}
		}
	}
}

// histogramPolicy is the policy of TeamHistogram over league teams and
// bins bins.
func histogramPolicy(league, size, bins int) kokkos.TeamPolicy {
	return kokkos.Teams(league, size).SetScratchSize(0, kokkos.ScratchSize[int64](bins), 0)
}

func TestTeamHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const bins, chunk = 23, 50
	for _, league := range []int{0, 1, 13} {
		n := max(0, league*chunk-7)
		data := randInts[int32](t, rng, "data", n, 0, bins)
		start := randInts[int64](t, rng, "start", bins, 0, 1000)
		want := make([]int64, bins)
		for b := range bins {
			want[b] = start.At(b)
		}
		for i := range n {
			want[data.At(i)]++
		}
		for _, size := range teamSizes {
			for _, s := range teamSpaces(size) {
				name := fmt.Sprintf("league %d, team %d, space %v", league, size, s)
				p := histogramPolicy(league, size, bins).On(s)
				got := kokkos.Must(kokkos.NewView1[int64]("hist", bins))
				ref := kokkos.Must(kokkos.NewView1[int64]("ref", bins))
				kokkos.DeepCopy(got, start)
				kokkos.DeepCopy(ref, start)
				if err := kernel.For("hist", p, TeamHistogram, got, data, chunk); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				kokkos.ParallelForTeam("hist", p, func(m *kokkos.TeamMember) {
					TeamHistogram(kernel.TeamOf(m), ref, data, chunk)
				})
				for b := range bins {
					if got.At(b) != want[b] || ref.At(b) != want[b] {
						t.Errorf("%s: bin %d: kernel %d, closure %d, loop %d", name, b, got.At(b), ref.At(b), want[b])
					}
				}
			}
		}
	}
}

func TestTeamPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const chunk = 41
	for _, league := range []int{0, 1, 11} {
		n := max(0, league*chunk-5)
		in := randInts[int64](t, rng, "in", n, -1000, 1000)
		wantOut, wantSums := make([]int64, n), make([]int64, league)
		for i := range n {
			b := i / chunk
			wantSums[b] += in.At(i)
			wantOut[i] = wantSums[b]
		}
		for _, size := range teamSizes {
			name := fmt.Sprintf("league %d, team %d", league, size)
			p := kokkos.Teams(league, size)
			run := func(f func(out, sums kokkos.View1[int64])) (kokkos.View1[int64], kokkos.View1[int64]) {
				out := randInts[int64](t, rng, "out", n, 0, 1)
				sums := randInts[int64](t, rng, "sums", league, 0, 1)
				f(out, sums)
				return out, sums
			}
			out, sums := run(func(out, sums kokkos.View1[int64]) {
				if err := kernel.For("prefix", p, TeamPrefix, out, sums, in, chunk); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			})
			rout, rsums := run(func(out, sums kokkos.View1[int64]) {
				kokkos.ParallelForTeam("prefix", p, func(m *kokkos.TeamMember) { TeamPrefix(kernel.TeamOf(m), out, sums, in, chunk) })
			})
			for i := range n {
				if out.At(i) != wantOut[i] || rout.At(i) != wantOut[i] {
					t.Fatalf("%s: out[%d]: kernel %d, closure %d, loop %d", name, i, out.At(i), rout.At(i), wantOut[i])
				}
			}
			for b := range league {
				if sums.At(b) != wantSums[b] || rsums.At(b) != wantSums[b] {
					t.Fatalf("%s: sums[%d]: kernel %d, closure %d, loop %d", name, b, sums.At(b), rsums.At(b), wantSums[b])
				}
			}
		}
	}
}

func TestTeamMaxBroadcast(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, league := range []int{0, 1, 9} {
		seeds := randInts[int64](t, rng, "seeds", league, -1<<40, 1<<40)
		for _, size := range teamSizes {
			ts := resolved(size)
			name := fmt.Sprintf("league %d, team %d", league, size)
			p := kokkos.Teams(league, size)
			ranks := randInts[int32](t, rng, "ranks", league, 0, 1)
			o2 := kokkos.Must(kokkos.NewView2[int64]("out", league, ts))
			if err := kernel.For("bcast", p, TeamMaxBroadcast, o2, ranks, seeds); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r2 := kokkos.Must(kokkos.NewView2[int64]("ref", league, ts))
			rranks := kokkos.Must(kokkos.NewView1[int32]("rranks", league))
			kokkos.ParallelForTeam("bcast", p, func(m *kokkos.TeamMember) { TeamMaxBroadcast(kernel.TeamOf(m), r2, rranks, seeds) })
			for r := range league {
				for k := range ts {
					want := seeds.At(r)*3 + int64(k)
					if o2.At(r, k) != want || r2.At(r, k) != want {
						t.Errorf("%s: out(%d, %d): kernel %d, closure %d, loop %d", name, r, k, o2.At(r, k), r2.At(r, k), want)
					}
				}
				if ranks.At(r) != int32(ts-1) || rranks.At(r) != int32(ts-1) {
					t.Errorf("%s: ranks[%d]: kernel %d, closure %d, want %d", name, r, ranks.At(r), rranks.At(r), ts-1)
				}
			}
		}
	}
}

func TestThreadReverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const w = 19
	for _, league := range []int{0, 1, 8} {
		for _, size := range teamSizes {
			ts := resolved(size)
			rows := max(0, league*ts-1) // the last thread has no row
			in := randMatrix(t, rng, "in", rows, w)
			name := fmt.Sprintf("league %d, team %d", league, size)
			p := kokkos.Teams(league, size).SetScratchSize(1, 0, kokkos.ScratchSize[float64](2, w))
			out := randMatrix(t, rng, "out", rows, w)
			if err := kernel.For("rev", p, ThreadReverse, out, in); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ref := randMatrix(t, rng, "ref", rows, w)
			kokkos.ParallelForTeam("rev", p, func(m *kokkos.TeamMember) { ThreadReverse(kernel.TeamOf(m), ref, in) })
			for i := range rows {
				for j := range w {
					want := in.At(i, w-1-j) + float64(2*in.At(i, j))
					if out.At(i, j) != want || ref.At(i, j) != want {
						t.Fatalf("%s: out(%d, %d): kernel %v, closure %v, loop %v", name, i, j, out.At(i, j), ref.At(i, j), want)
					}
				}
			}
		}
	}
}

func TestTileTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const b = 4
	for _, tiles := range []int{0, 1, 3} {
		n := tiles * b
		in := kokkos.Must(kokkos.NewView2[int32]("in", n, n))
		for i := range n {
			for j := range n {
				in.Set(i, j, rng.Int32())
			}
		}
		for _, size := range teamSizes {
			name := fmt.Sprintf("%d tiles, team %d", tiles*tiles, size)
			p := kokkos.Teams(tiles*tiles, size).SetScratchSize(1, kokkos.ScratchSize[int32](1, b, b), 0)
			out := kokkos.Must(kokkos.NewView2[int32]("out", n, n))
			if err := kernel.For("tr", p, TileTranspose, out, in, b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ref := kokkos.Must(kokkos.NewView2[int32]("ref", n, n))
			kokkos.ParallelForTeam("tr", p, func(m *kokkos.TeamMember) { TileTranspose(kernel.TeamOf(m), ref, in, b) })
			for i := range n {
				for j := range n {
					if out.At(j, i) != in.At(i, j) || ref.At(j, i) != in.At(i, j) {
						t.Fatalf("%s: out(%d, %d): kernel %d, closure %d, want %d", name, j, i, out.At(j, i), ref.At(j, i), in.At(i, j))
					}
				}
			}
		}
	}
}

// TestTeamErrors checks the errors of launches that do not fit a team
// kernel, or a team policy that does not fit a kernel.
func TestTeamErrors(t *testing.T) {
	hist := kokkos.Must(kokkos.NewView1[int64]("hist", 4))
	data := kokkos.Must(kokkos.NewView1[int32]("data", 8))
	ro := hist.ReadOnly()
	a := kokkos.Must(kokkos.NewView1[float64]("a", 8))
	cases := []struct {
		name string
		err  error
		is   error
		want string
	}{
		{"range policy", kernel.For("h", kokkos.Range(0, 8), TeamHistogram, hist, data, 8), kernel.ErrArgs,
			"kernel kerneltest.TeamHistogram is a team kernel (its first parameter is a kernel.Team): launch it over a kokkos.TeamPolicy"},
		{"team policy", kernel.For("t", kokkos.Teams(1, 1), Triad, a, a, a, 2.0), kernel.ErrArgs,
			"kernel kerneltest.Triad takes 1 indices, not a kernel.Team: launch it over a RangePolicy, not a TeamPolicy"},
		{"pattern", kernel.For("y", kokkos.Teams(1, 1), TeamYAx, a, a, kokkos.Must(kokkos.NewView2[float64]("m", 1, 8))), kernel.ErrArgs,
			"kernel kerneltest.TeamYAx is written for kernel.Reduce, not kernel.For"},
		{"arguments", kernel.For("h", histogramPolicy(1, 1, 4), TeamHistogram, hist, data), kernel.ErrArgs,
			"kernel kerneltest.TeamHistogram takes 3 arguments (hist kokkos.View1[int64], data kokkos.View1[int32], chunk int), got 2"},
		{"argument type", kernel.For("h", histogramPolicy(1, 1, 4), TeamHistogram, hist, a, 8), kernel.ErrArgs,
			"argument 2 (data) is kokkos.View1[float64], want kokkos.View1[int32]"},
		{"read-only", kernel.For("h", histogramPolicy(1, 1, 4), TeamHistogram, ro, data, 8), kernel.ErrArgs,
			`view hist (label "hist") is read-only and the kernel writes it`},
	}
	_, err := kernel.Reduce("y", kokkos.Teams(1, 1), kokkos.Sum[float32](), TeamYAx, a, a, kokkos.Must(kokkos.NewView2[float64]("m", 1, 8)))
	cases = append(cases, struct {
		name string
		err  error
		is   error
		want string
	}{"reducer", err, kernel.ErrArgs, "kernel kerneltest.TeamYAx accumulates into a *float64, the reducer gives a float32"})
	for _, c := range cases {
		if !errors.Is(c.err, c.is) || !strings.Contains(fmt.Sprint(c.err), c.want) {
			t.Errorf("%s: error %v, want one wrapping %v saying %q", c.name, c.err, c.is, c.want)
		}
	}
}

// TestTeamPanicSite checks that a panic in a team kernel's host code (a
// value outside the histogram's bins) names the kernel's line and the
// scratch view, for teams of one and of several threads.
func TestTeamPanicSite(t *testing.T) {
	src, err := os.ReadFile("team.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for n, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "kokkos.AtomicAdd(h.Ptr(int(data.At(i))), 1)") {
			line = n + 1
		}
	}
	want := fmt.Sprintf("team.go:%d", line)
	const bins = 8
	hist := kokkos.Must(kokkos.NewView1[int64]("hist", bins))
	data := kokkos.Must(kokkos.NewView1[int32]("data", 64))
	data.Set(37, bins)
	for _, size := range []int{1, 4} {
		var got any
		func() {
			defer func() { got = recover() }()
			_ = kernel.For("hist", histogramPolicy(4, size, bins), TeamHistogram, hist, data, 16)
		}()
		var pe *kokkos.PanicError
		if err, ok := got.(error); !ok || !errors.As(err, &pe) {
			t.Fatalf("team %d: panic %v, want a *kokkos.PanicError", size, got)
		}
		msg := fmt.Sprint(pe.Value)
		if pe.Where != want || !strings.Contains(msg, "h.Ptr[8] out of bounds of view h") || !strings.Contains(msg, "extents [8]") {
			t.Errorf("team %d: panic at %q (%v), want at %s naming scratch view h", size, pe.Where, pe.Value, want)
		}
	}
}

// TestTeamRangePanicSite checks that a nested range of begin > end panics
// as kokkos.TeamThreadRange does, naming the kernel's loop.
func TestTeamRangePanicSite(t *testing.T) {
	src, err := os.ReadFile("team.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	line := 0
	for n, l := range lines {
		if strings.HasPrefix(l, "func TeamPrefix(") {
			for m := n; line == 0; m++ {
				if strings.Contains(lines[m], "for i := range t.TeamThreadRange(lo, hi)") {
					line = m + 1
				}
			}
		}
	}
	want := fmt.Sprintf("team.go:%d", line)
	in := kokkos.Must(kokkos.NewView1[int64]("in", 4))
	out := kokkos.Must(kokkos.NewView1[int64]("out", 4))
	sums := kokkos.Must(kokkos.NewView1[int64]("sums", 3))
	var got any
	func() {
		defer func() { got = recover() }()
		_ = kernel.For("prefix", kokkos.Teams(3, 1), TeamPrefix, out, sums, in, 4)
	}()
	var pe *kokkos.PanicError
	if err, ok := got.(error); !ok || !errors.As(err, &pe) {
		t.Fatalf("panic %v, want a *kokkos.PanicError", got)
	}
	if pe.Where != want || !strings.Contains(fmt.Sprint(pe.Value), "TeamThreadRange(8, 4): begin > end") {
		t.Errorf("panic at %q (%v), want at %s about TeamThreadRange(8, 4)", pe.Where, pe.Value, want)
	}
}
