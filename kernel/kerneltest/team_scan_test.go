package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The nested scans on every place, against plain Go loops (exactly for
// integers and maxima) and, on the host, against the same kernels called
// from a kokkos.ParallelForTeam closure (the same bits).

var scanTeamSizes = []int{1, 2, 4, 32}

// scanTeams returns whether w runs teams of size.
func scanTeams(w where, size int) bool { return w.name != "serial" || size == 1 }

func newView2[T kokkos.Number](t *testing.T, label string, n, m int) kokkos.View2[T] {
	v, err := kokkos.NewView2[T](label, n, m)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func randInts2(t *testing.T, rng *rand.Rand, label string, n, m int) kokkos.View2[int64] {
	v := newView2[int64](t, label, n, m)
	for i := range n {
		for j := range m {
			v.Set(i, j, rng.Int64N(2001)-1000)
		}
	}
	return v
}

// forTeam runs k's Go function over p from a ParallelForTeam closure.
func forTeam(p kokkos.TeamPolicy, f func(kernel.Team)) {
	kokkos.ParallelForTeam("scan closure", p, func(m *kokkos.TeamMember) { f(kernel.TeamOf(m)) })
}

func eq2[T comparable](t *testing.T, name, what string, got kokkos.View2[T], want func(i, j int) T) {
	t.Helper()
	for i := range got.Extent(0) {
		for j := range got.Extent(1) {
			if g, w := got.At(i, j), want(i, j); g != w {
				t.Fatalf("%s: %s[%d, %d]: kernel %v, want %v", name, what, i, j, g, w)
			}
		}
	}
}

func near2(t *testing.T, name, what string, got kokkos.View2[float64], want func(i, j int) float64) {
	t.Helper()
	for i := range got.Extent(0) {
		for j := range got.Extent(1) {
			if g, w := got.At(i, j), want(i, j); !(math.Abs(g-w) <= 1e-12*max(1, math.Abs(w))) {
				t.Fatalf("%s: %s[%d, %d]: kernel %v, loop %v", name, what, i, j, g, w)
			}
		}
	}
}

func TestScanRowsThread(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, league := range []int{0, 1, 9} {
		for _, cols := range []int{0, 5, 77} {
			a := randInts2(t, rng, "a", league, cols)
			incl, excl := make([][]int64, league), make([][]int64, league)
			tot, top := make([]int64, league), make([]int64, league)
			for i := range league {
				top[i] = math.MinInt64
				for j := range cols {
					excl[i] = append(excl[i], tot[i])
					tot[i] += a.At(i, j)
					incl[i] = append(incl[i], tot[i])
					top[i] = max(top[i], a.At(i, j))
				}
			}
			for _, w := range places(t) {
				da := at(t, w, a, kokkos.CreateMirror)
				for _, size := range scanTeamSizes {
					if !scanTeams(w, size) {
						continue
					}
					name := fmt.Sprintf("%s: league %d, %d columns, team %d", w.name, league, cols, size)
					vi, ve := at(t, w, newView2[int64](t, "incl", league, cols), kokkos.CreateMirror), at(t, w, newView2[int64](t, "excl", league, cols), kokkos.CreateMirror)
					vt, vm := at(t, w, newView2[int64](t, "tot", league, 32), kokkos.CreateMirror), at(t, w, newView2[int64](t, "top", league, 32), kokkos.CreateMirror)
					p := kokkos.Teams(league, size).On(w.space)
					if err := kernel.For("scan thread", p, ScanRowsThread, vi, ve, vt, vm, da); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					gi, ge := back(t, w, vi, kokkos.CreateMirror), back(t, w, ve, kokkos.CreateMirror)
					gt, gm := back(t, w, vt, kokkos.CreateMirror), back(t, w, vm, kokkos.CreateMirror)
					eq2(t, name, "incl", gi, func(i, j int) int64 { return incl[i][j] })
					eq2(t, name, "excl", ge, func(i, j int) int64 { return excl[i][j] })
					eq2(t, name, "tot", gt, func(i, r int) int64 { return map[bool]int64{true: tot[i]}[r < size] })
					eq2(t, name, "top", gm, func(i, r int) int64 { return map[bool]int64{true: top[i]}[r < size] })
					if w.mem == kokkos.HostSpace {
						ci, ce := newView2[int64](t, "incl", league, cols), newView2[int64](t, "excl", league, cols)
						ct, cm := newView2[int64](t, "tot", league, 32), newView2[int64](t, "top", league, 32)
						forTeam(p, func(tm kernel.Team) { ScanRowsThread(tm, ci, ce, ct, cm, a) })
						eq2(t, name+" closure", "incl", ci, func(i, j int) int64 { return incl[i][j] })
						eq2(t, name+" closure", "excl", ce, func(i, j int) int64 { return excl[i][j] })
						eq2(t, name+" closure", "tot", ct, func(i, r int) int64 { return gt.At(i, r) })
					}
				}
			}
		}
	}
}

func TestScanRowsTeamVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, league := range []int{0, 1, 7} {
		for _, cols := range []int{0, 3, 101} {
			a := randMatrix(t, rng, "a", league, cols)
			incl, excl, tot := make([][]float64, league), make([][]float64, league), make([]float64, league)
			for i := range league {
				for j := range cols {
					excl[i] = append(excl[i], tot[i])
					tot[i] += a.At(i, j)
					incl[i] = append(incl[i], tot[i])
				}
			}
			for _, w := range places(t) {
				da := at(t, w, a, kokkos.CreateMirror)
				for _, size := range scanTeamSizes {
					if !scanTeams(w, size) {
						continue
					}
					for _, vl := range []int{1, 4} {
						name := fmt.Sprintf("%s: league %d, %d columns, team %d, vector %d", w.name, league, cols, size, vl)
						vi, ve := at(t, w, newView2[float64](t, "incl", league, cols), kokkos.CreateMirror), at(t, w, newView2[float64](t, "excl", league, cols), kokkos.CreateMirror)
						vt := at(t, w, newView2[float64](t, "tot", league, 32), kokkos.CreateMirror)
						p := kokkos.Teams(league, size).WithVectorLength(vl).On(w.space)
						if err := kernel.For("scan teamvector", p, ScanRowsTeamVector, vi, ve, vt, da); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						gi, ge, gt := back(t, w, vi, kokkos.CreateMirror), back(t, w, ve, kokkos.CreateMirror), back(t, w, vt, kokkos.CreateMirror)
						near2(t, name, "incl", gi, func(i, j int) float64 { return incl[i][j] })
						near2(t, name, "excl", ge, func(i, j int) float64 { return excl[i][j] })
						near2(t, name, "tot", gt, func(i, r int) float64 { return map[bool]float64{true: tot[i]}[r < size] })
						if w.mem == kokkos.HostSpace {
							ci, ce, ct := newView2[float64](t, "incl", league, cols), newView2[float64](t, "excl", league, cols), newView2[float64](t, "tot", league, 32)
							forTeam(p, func(tm kernel.Team) { ScanRowsTeamVector(tm, ci, ce, ct, a) })
							eq2(t, name+" closure", "incl", ci, func(i, j int) float64 { return gi.At(i, j) })
							eq2(t, name+" closure", "excl", ce, func(i, j int) float64 { return ge.At(i, j) })
							eq2(t, name+" closure", "tot", ct, func(i, j int) float64 { return gt.At(i, j) })
						}
					}
				}
			}
		}
	}
}

func TestScanRowsVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	const rpt = 3
	for _, rows := range []int{0, 1, 20} {
		for _, cols := range []int{0, 6, 70} {
			a := randInts2(t, rng, "a", rows, cols)
			incl, excl, tot := make([][]int64, rows), make([][]int64, rows), make([]int64, rows)
			for i := range rows {
				for j := range cols {
					excl[i] = append(excl[i], tot[i])
					tot[i] += a.At(i, j)
					incl[i] = append(incl[i], tot[i])
				}
			}
			league := (rows + rpt - 1) / rpt
			for _, w := range places(t) {
				da := at(t, w, a, kokkos.CreateMirror)
				for _, size := range scanTeamSizes {
					if !scanTeams(w, size) {
						continue
					}
					for _, vl := range []int{1, 8} {
						name := fmt.Sprintf("%s: %d rows, %d columns, team %d, vector %d", w.name, rows, cols, size, vl)
						vi, ve := at(t, w, newView2[int64](t, "incl", rows, cols), kokkos.CreateMirror), at(t, w, newView2[int64](t, "excl", rows, cols), kokkos.CreateMirror)
						vt := at(t, w, randInts[int64](t, rng, "tot", rows, 0, 1), kokkos.CreateMirror)
						p := kokkos.Teams(league, size).WithVectorLength(vl).On(w.space)
						if err := kernel.For("scan vector", p, ScanRowsVector, vi, ve, vt, da, rpt); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						gi, ge, gt := back(t, w, vi, kokkos.CreateMirror), back(t, w, ve, kokkos.CreateMirror), back(t, w, vt, kokkos.CreateMirror)
						eq2(t, name, "incl", gi, func(i, j int) int64 { return incl[i][j] })
						eq2(t, name, "excl", ge, func(i, j int) int64 { return excl[i][j] })
						for i := range rows {
							if gt.At(i) != tot[i] {
								t.Fatalf("%s: tot[%d]: kernel %d, loop %d", name, i, gt.At(i), tot[i])
							}
						}
					}
				}
			}
		}
	}
}

func TestScanRowsMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	for _, league := range []int{0, 1, 8} {
		for _, cols := range []int{0, 1, 64, 65} {
			a := randMatrix(t, rng, "a", league, cols)
			run, tot := make([][]float64, league), make([]float64, league)
			for i := range league {
				tot[i] = math.Inf(-1)
				for j := range cols {
					if v := a.At(i, j); v >= 0 {
						tot[i] = max(tot[i], v)
					}
					run[i] = append(run[i], tot[i])
				}
			}
			for _, w := range places(t) {
				da := at(t, w, a, kokkos.CreateMirror)
				for _, size := range scanTeamSizes {
					if !scanTeams(w, size) {
						continue
					}
					name := fmt.Sprintf("%s: league %d, %d columns, team %d", w.name, league, cols, size)
					vr, vt := at(t, w, newView2[float64](t, "run", league, cols), kokkos.CreateMirror), at(t, w, newView2[float64](t, "tot", league, 32), kokkos.CreateMirror)
					p := kokkos.Teams(league, size).On(w.space)
					if err := kernel.For("scan max", p, ScanRowsMax, vr, vt, da); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					gr, gt := back(t, w, vr, kokkos.CreateMirror), back(t, w, vt, kokkos.CreateMirror)
					eq2(t, name, "run", gr, func(i, j int) float64 { return run[i][j] })
					eq2(t, name, "tot", gt, func(i, r int) float64 { return map[bool]float64{true: tot[i]}[r < size] })
				}
			}
		}
	}
}

func TestScanForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 50))
	for _, league := range []int{0, 1, 5} {
		for _, n := range []int{0, 1, 90} {
			v := randInts[int64](t, rng, "v", n, -100, 100)
			cnt := make([]int64, n)
			var pos, or int64
			for i := range n {
				cnt[i] = -1
				if v.At(i) > 0 {
					cnt[i] = pos
					pos++
				}
				or |= v.At(i)
			}
			for _, w := range places(t) {
				dv := at(t, w, v, kokkos.CreateMirror)
				for _, size := range scanTeamSizes {
					if !scanTeams(w, size) {
						continue
					}
					name := fmt.Sprintf("%s: league %d, %d values, team %d", w.name, league, n, size)
					c := randInts[int64](t, rng, "cnt", n, -1, 0)
					dc, dt := at(t, w, c, kokkos.CreateMirror), at(t, w, randInts[int64](t, rng, "tot", league, 0, 1), kokkos.CreateMirror)
					if err := kernel.For("scan forms", kokkos.Teams(league, size).WithVectorLength(2).On(w.space), ScanForms, dc, dt, dv); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					gc, gt := back(t, w, dc, kokkos.CreateMirror), back(t, w, dt, kokkos.CreateMirror)
					for i := range n {
						want := cnt[i]
						if league == 0 {
							want = -1
						}
						if gc.At(i) != want {
							t.Fatalf("%s: cnt[%d]: kernel %d, loop %d", name, i, gc.At(i), want)
						}
					}
					for r := range league {
						if want := or + pos + int64(n*(n+1)/2); gt.At(r) != want {
							t.Fatalf("%s: tot[%d]: kernel %d, loop %d", name, r, gt.At(r), want)
						}
					}
				}
			}
		}
	}
}
