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

// The loops over nested ranges of team kernels run unchecked behind a
// test of their share's range, checked when it fails: the results are
// those of the function called from a closure, and an access out of
// range panics at its line, naming the view, its indices and extents.

// lineAfter returns "file:line" of the first line of file that contains s
// after the line that starts with after.
func lineAfter(t *testing.T, file, after, s string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := false
	for n, l := range strings.Split(string(src), "\n") {
		in = in || strings.HasPrefix(l, after)
		if in && strings.Contains(l, s) {
			return fmt.Sprintf("%s:%d", file, n+1)
		}
	}
	t.Fatalf("%s: no %q after %q", file, s, after)
	return ""
}

// teamPanic runs f and returns the kokkos.PanicError it panics with.
func teamPanic(t *testing.T, name string, f func()) *kokkos.PanicError {
	t.Helper()
	var got any
	func() {
		defer func() { got = recover() }()
		f()
	}()
	var pe *kokkos.PanicError
	if err, ok := got.(error); !ok || !errors.As(err, &pe) {
		t.Fatalf("%s: panic %v, want a *kokkos.PanicError", name, got)
	}
	return pe
}

func randMatrixLayout(t *testing.T, rng *rand.Rand, label string, n, m int, lay kokkos.Option) kokkos.View2[float64] {
	a := kokkos.Must(kokkos.NewView2[float64](label, n, m, lay))
	for i := range n {
		for j := range m {
			a.Set(i, j, rng.Float64()*2-1)
		}
	}
	return a
}

// TestTeamYAxNocheck checks the nocheck TeamYAx, checks off and on,
// against TeamYAx and the closure, bit for bit.
func TestTeamYAxNocheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const rows, cols = 37, 29
	y, x := randView1(t, rng, "y", rows), randView1(t, rng, "x", cols)
	a := randMatrix(t, rng, "a", rows, cols)
	for _, on := range []bool{false, true} {
		for _, size := range teamSizes {
			name := fmt.Sprintf("checks %v, team %d", on, size)
			p := kokkos.Teams(rows, size)
			was := kernel.CheckHostBounds(on)
			got, err := kernel.Reduce("yax", p, kokkos.Sum[float64](), TeamYAxNocheck, y, x, a)
			kernel.CheckHostBounds(was)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := kernel.Reduce("yax", p, kokkos.Sum[float64](), TeamYAx, y, x, a)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ref := kokkos.ParallelReduceTeam("yax", p, kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
				TeamYAxNocheck(kernel.TeamOf(m), y, x, a, acc)
			})
			if math.Float64bits(got) != math.Float64bits(want) || math.Float64bits(got) != math.Float64bits(ref) {
				t.Errorf("%s: nocheck %v, checked %v, closure %v", name, got, want, ref)
			}
		}
	}
}

// TestTeamShift checks TeamShift and TeamShiftNocheck, of views laid out
// right and left (unit strides and not), against a plain loop.
func TestTeamShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const rows, cols = 13, 41
	kernels := map[string]func(kernel.Team, kokkos.View2[float64], kokkos.View2[float64], int){"TeamShift": TeamShift, "TeamShiftNocheck": TeamShiftNocheck}
	for kname, k := range kernels {
		for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
			for _, off := range []int{0, 3} {
				in := randMatrixLayout(t, rng, "in", rows, cols, lay)
				for _, size := range teamSizes {
					name := fmt.Sprintf("%s, %v, off %d, team %d", kname, lay, off, size)
					out := kokkos.Must(kokkos.NewView2[float64]("out", rows, cols-off, lay))
					if err := kernel.For("shift", kokkos.Teams(rows, size), k, out, in, off); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					for i := range rows {
						for j := range cols - off {
							if got, want := out.At(i, j), 2*in.At(i, j+off); math.Float64bits(got) != math.Float64bits(want) {
								t.Fatalf("%s: out(%d, %d) = %v, want %v", name, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestTeamShiftPanicSite checks that a loop over a nested range whose
// accesses go out of range, for some threads' shares or all, or below 0,
// panics at the access's line, naming the view, indices and extents; a
// nocheck kernel does when kernel.CheckHostBounds(true).
func TestTeamShiftPanicSite(t *testing.T) {
	const rows, cols = 3, 16
	in := kokkos.Must(kokkos.NewView2[float64]("in", rows, cols))
	for _, kname := range []string{"TeamShift", "TeamShiftNocheck"} {
		k := TeamShift
		if kname == "TeamShiftNocheck" {
			k = TeamShiftNocheck
			defer kernel.CheckHostBounds(kernel.CheckHostBounds(true))
		}
		want := lineAfter(t, "team_loops.go", "func "+kname+"(", "out.Set(row, j, 2*in.At(row, j+off))")
		for _, c := range []struct{ outCols, off, bad int }{{cols, 1, cols}, {cols - 2, 3, cols}, {4, -1, -1}} {
			for _, size := range []int{1, 4} {
				name := fmt.Sprintf("%s, %d columns, off %d, team %d", kname, c.outCols, c.off, size)
				out := kokkos.Must(kokkos.NewView2[float64]("out", rows, c.outCols))
				pe := teamPanic(t, name, func() { _ = kernel.For("shift", kokkos.Teams(rows, size), k, out, in, c.off) })
				msg := fmt.Sprint(pe.Value)
				if pe.Where != want || !strings.Contains(msg, fmt.Sprintf(" %d] out of bounds of view in (label \"in\") with extents [%d %d]", c.bad, rows, cols)) || !strings.Contains(msg, "kernel kerneltest."+kname+": in.At[") {
					t.Errorf("%s: panic at %q (%v), want at %s naming in.At[r %d]", name, pe.Where, pe.Value, want, c.bad)
				}
			}
		}
	}
}

// scratchShiftPolicy is the policy of TeamScratchShift over rows of cols.
func scratchShiftPolicy(rows, size, cols int) kokkos.TeamPolicy {
	return kokkos.Teams(rows, size).SetScratchSize(0, kokkos.ScratchSize[float64](cols), 0)
}

// TestTeamScratchShift checks TeamScratchShift, whose loops address a
// scratch view unchecked, and its nocheck twin, checks off and on,
// against a plain loop and the closure.
func TestTeamScratchShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	const rows, cols = 11, 37
	kernels := []struct {
		name   string
		f      func(kernel.Team, kokkos.View2[float64], kokkos.View2[float64], int)
		checks bool
	}{{"TeamScratchShift", TeamScratchShift, false}, {"TeamScratchShiftNocheck", TeamScratchShiftNocheck, false}, {"TeamScratchShiftNocheck", TeamScratchShiftNocheck, true}}
	for _, k := range kernels {
		for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
			for _, off := range []int{0, 5} {
				in := randMatrixLayout(t, rng, "in", rows, cols, lay)
				for _, size := range teamSizes {
					name := fmt.Sprintf("%s, checks %v, %v, off %d, team %d", k.name, k.checks, lay, off, size)
					p := scratchShiftPolicy(rows, size, cols).WithVectorLength(4)
					out := kokkos.Must(kokkos.NewView2[float64]("out", rows, cols-off, lay))
					was := kernel.CheckHostBounds(k.checks)
					err := kernel.For("sshift", p, k.f, out, in, off)
					kernel.CheckHostBounds(was)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					ref := kokkos.Must(kokkos.NewView2[float64]("ref", rows, cols-off, lay))
					kokkos.ParallelForTeam("sshift", p, func(m *kokkos.TeamMember) { TeamScratchShift(kernel.TeamOf(m), ref, in, off) })
					for i := range rows {
						for j := range cols - off {
							want := in.At(i, j+off) + in.At(i, j)
							want = want + float64(0)*in.At(i, j)
							want = want + float64(1)*in.At(i, j)
							got := out.At(i, j)
							if math.Float64bits(got) != math.Float64bits(want) || math.Float64bits(got) != math.Float64bits(ref.At(i, j)) {
								t.Fatalf("%s: out(%d, %d) = %v, closure %v, want %v", name, i, j, got, ref.At(i, j), want)
							}
						}
					}
				}
			}
		}
	}
}

// TestTeamScratchShiftPanicSite checks that a scratch view's access out
// of range in a nested range's loop panics at its line, naming it, in
// the nocheck twin too when kernel.CheckHostBounds(true).
func TestTeamScratchShiftPanicSite(t *testing.T) {
	const rows, cols = 3, 16
	in := kokkos.Must(kokkos.NewView2[float64]("in", rows, cols))
	out := kokkos.Must(kokkos.NewView2[float64]("out", rows, cols))
	defer kernel.CheckHostBounds(kernel.CheckHostBounds(true)) // for the nocheck twin
	for _, kname := range []string{"TeamScratchShift", "TeamScratchShiftNocheck"} {
		k := TeamScratchShift
		if kname == "TeamScratchShiftNocheck" {
			k = TeamScratchShiftNocheck
		}
		want := lineAfter(t, "team_loops.go", "func "+kname+"(", "out.Set(row, j, s.At(j+off)+in.At(row, j))")
		for _, size := range []int{1, 4} {
			name := fmt.Sprintf("%s, team %d", kname, size)
			pe := teamPanic(t, name, func() { _ = kernel.For("sshift", scratchShiftPolicy(rows, size, cols), k, out, in, 2) })
			msg := fmt.Sprint(pe.Value)
			if pe.Where != want || !strings.Contains(msg, "kernel kerneltest."+kname+": s.At[") || !strings.Contains(msg, "out of bounds of view s") || !strings.Contains(msg, fmt.Sprintf("extents [%d]", cols)) {
				t.Errorf("%s: panic at %q (%v), want at %s naming scratch view s", name, pe.Where, pe.Value, want)
			}
		}
	}
}
