package backendtest

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// The team kernels of TestTeamLauncher, as kokkos-kernelgen describes them:
//
//	// One team per row: y(row) = A(row, :) x, and the sum of x(row) y(row).
//	func YAx(t kernel.Team, y, a, x kokkos.View1[float64], n int, acc *float64) {
//		row := t.LeagueRank()
//		var s float64
//		for j := range t.TeamThreadRange(0, n) {
//			s += a.At(row*n+j) * x.At(j)
//		}
//		s = kernel.TeamReduce(t, kokkos.Sum[float64](), s)
//		if t.SinglePerTeam() {
//			y.Set(row, s)
//			*acc += x.At(row) * s
//		}
//	}
//
//	// Rows of A split among the threads, columns among the vector lanes.
//	func RowsVec(t kernel.Team, y, a, x kokkos.View1[float64], n, per int) {
//		for r := range t.TeamThreadRange(0, per) {
//			row := t.LeagueRank()*per + r
//			if row >= n {
//				continue
//			}
//			var s float64
//			for j := range t.ThreadVectorRange(0, n) {
//				s += a.At(row*n+j) * x.At(j)
//			}
//			s = kernel.VectorReduce(t, kokkos.Sum[float64](), s)
//			if t.SinglePerThread() {
//				y.Set(row, s)
//			}
//		}
//	}
//
//	// A histogram of each team's chunk of d in level-0 team scratch,
//	// added to h.
//	func Hist(t kernel.Team, h, d kokkos.View1[int32], nb, per int) {
//		c := kokkos.ScratchView1[int32](t.TeamScratch(0), nb)
//		for b := range t.TeamThreadRange(0, nb) {
//			c.Set(b, 0)
//		}
//		t.TeamBarrier()
//		lo := t.LeagueRank() * per
//		for i := range t.TeamVectorRange(lo, min(lo+per, d.Extent(0))) {
//			kokkos.AtomicAdd(c.Ptr(int(d.At(i))), 1)
//		}
//		t.TeamBarrier()
//		for b := range t.TeamThreadRange(0, nb) {
//			if t.SinglePerThread() { // once per thread, not per lane
//				kokkos.AtomicAdd(h.Ptr(b), c.At(b))
//			}
//		}
//	}
//
//	// Per thread: its rank's scan, the team's total, a broadcast value,
//	// and the team's size, at out(4*(league*m + rank)...).
//	func Ranks(t kernel.Team, out kokkos.View1[int32], m int) {
//		v := int32((t.TeamRank() + 1) * (t.LeagueRank() + 2))
//		p, tot := kernel.TeamScan(t, kokkos.Sum[int32](), v)
//		b := kernel.TeamBroadcast(t, v*3, t.TeamSize()-1)
//		k := 4 * (t.LeagueRank()*m + t.TeamRank())
//		out.Set(k, p); out.Set(k+1, tot); out.Set(k+2, b); out.Set(k+3, int32(t.TeamSize()))
//	}
//
//	// The joins of the team's values r = x(i), k(i) for i =
//	// LeagueRank*TeamSize + TeamRank, at out(5*i...).
//	func Joins(t kernel.Team, out, x kokkos.View1[float64], k kokkos.View1[int32]) {
//		i := t.LeagueRank()*t.TeamSize() + t.TeamRank()
//		lo := kernel.TeamReduce(t, kokkos.Min[float64](), x.At(i))
//		p := kernel.TeamReduce(t, kokkos.Prod[int32](), k.At(i))
//		b := kernel.TeamReduce(t, kokkos.BAnd[int32](), k.At(i))
//		neg := kernel.TeamReduce(t, kokkos.LOr(), k.At(i) < 0)
//		hi, _ := kernel.TeamScan(t, kokkos.Max[int32](), k.At(i))
//		out.Set(5*i, lo)
//		out.Set(5*i+1, float64(p))
//		out.Set(5*i+2, float64(b))
//		out.Set(5*i+4, float64(hi))
//		if neg {
//			out.Set(5*i+3, 1)
//		}
//	}
//
//	// Each team reverses its row of a through level-1 team scratch, and
//	// adds a thread's level-1 scratch round trip.
//	func Reverse(t kernel.Team, out, a kokkos.View1[float64], n int) {
//		s := kokkos.ScratchView1[float64](t.TeamScratch(1), n)
//		w := kokkos.ScratchView1[float64](t.ThreadScratch(1), 1)
//		base := t.LeagueRank() * n
//		for j := range t.TeamThreadRange(0, n) {
//			s.Set(j, a.At(base+j))
//		}
//		t.TeamBarrier()
//		for j := range t.TeamThreadRange(0, n) {
//			w.Set(0, s.At(n-1-j))
//			out.Set(base+j, w.At(0)*2)
//		}
//	}
var (
	kYAx = &backend.Kernel{Name: "backendtest.YAx", Pattern: backend.PatternReduce, Team: true, Acc: backend.KindFloat64,
		Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "a", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "n", Elem: backend.KindInt}},
		IR: `kernelir 1
(kernel YAx reduce (team t) (view y float64 1 w) (view a float64 1 r) (view x float64 1 r) (scalar n int) (acc float64)
  (body
    (assign ((new row int)) ((team LeagueRank)))
    (var ((s float64)) ())
    (nested thread (new j int) (int 0) n
      (body (opassign add s (mul float64 (at a (add int (mul int row n) j)) (at x j)))))
    (teamreduce Sum float64 (s) s)
    (if (team SinglePerTeam)
      (then (assign ((at y row)) (s)) (opassign add (acc) (mul float64 (at x row) s))))))`}
	kRowsVec = &backend.Kernel{Name: "backendtest.RowsVec", Pattern: backend.PatternFor, Team: true,
		Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "a", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "n", Elem: backend.KindInt}, {Name: "per", Elem: backend.KindInt}},
		IR: `kernelir 1
(kernel RowsVec for (team t) (view y float64 1 w) (view a float64 1 r) (view x float64 1 r) (scalar n int) (scalar per int)
  (body
    (nested thread (new r int) (int 0) per
      (body
        (assign ((new row int)) ((add int (mul int (team LeagueRank) per) r)))
        (if (ge int row n) (then (continue)))
        (var ((s float64)) ())
        (nested vector (new j int) (int 0) n
          (body (opassign add s (mul float64 (at a (add int (mul int row n) j)) (at x j)))))
        (vectorreduce Sum float64 (s) s)
        (if (team SinglePerThread) (then (assign ((at y row)) (s))))))))`}
	kHist = &backend.Kernel{Name: "backendtest.Hist", Pattern: backend.PatternFor, Team: true,
		Params: []backend.Param{{Name: "h", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}, {Name: "d", View: true, Rank: 1, Elem: backend.KindInt32}, {Name: "nb", Elem: backend.KindInt}, {Name: "per", Elem: backend.KindInt}},
		IR: `kernelir 1
(kernel Hist for (team t) (view h int32 1 w) (view d int32 1 r) (scalar nb int) (scalar per int)
  (body
    (scratch c int32 team 0 (nb))
    (nested thread (new b int) (int 0) nb (body (assign ((at c b)) ((int32 0)))))
    (barrier)
    (assign ((new lo int)) ((mul int (team LeagueRank) per)))
    (nested teamvector (new i int) lo (min int (add int lo per) (extent d 0))
      (body (do (atomic Add c ((conv int (at d i))) (int32 1)))))
    (barrier)
    (nested thread (new b int) (int 0) nb
      (body (if (team SinglePerThread) (then (do (atomic Add h (b) (at c b)))))))))`}
	kRanks = &backend.Kernel{Name: "backendtest.Ranks", Pattern: backend.PatternFor, Team: true,
		Params: []backend.Param{{Name: "out", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}, {Name: "m", Elem: backend.KindInt}},
		IR: `kernelir 1
(kernel Ranks for (team t) (view out int32 1 w) (scalar m int)
  (body
    (assign ((new v int32)) ((conv int32 (mul int (add int (team TeamRank) (int 1)) (add int (team LeagueRank) (int 2))))))
    (teamscan Sum int32 ((new p int32) (new tot int32)) v)
    (teambroadcast int32 ((new b int32)) (mul int32 v (int32 3)) (sub int (team TeamSize) (int 1)))
    (assign ((new k int)) ((mul int (int 4) (add int (mul int (team LeagueRank) m) (team TeamRank)))))
    (assign ((at out k)) (p))
    (assign ((at out (add int k (int 1)))) (tot))
    (assign ((at out (add int k (int 2)))) (b))
    (assign ((at out (add int k (int 3)))) ((conv int32 (team TeamSize))))))`}
	kJoins = &backend.Kernel{Name: "backendtest.Joins", Pattern: backend.PatternFor, Team: true,
		Params: []backend.Param{{Name: "out", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "k", View: true, Rank: 1, Elem: backend.KindInt32}},
		IR: `kernelir 1
(kernel Joins for (team t) (view out float64 1 w) (view x float64 1 r) (view k int32 1 r)
  (body
    (assign ((new i int)) ((add int (mul int (team LeagueRank) (team TeamSize)) (team TeamRank))))
    (teamreduce Min float64 ((new lo float64)) (at x i))
    (teamreduce Prod int32 ((new p int32)) (at k i))
    (teamreduce BAnd int32 ((new b int32)) (at k i))
    (teamreduce LOr bool ((new neg bool)) (lt int32 (at k i) (int32 0)))
    (teamscan Max int32 ((new hi int32) _) (at k i))
    (assign ((at out (mul int (int 5) i))) (lo))
    (assign ((at out (add int (mul int (int 5) i) (int 1)))) ((conv float64 p)))
    (assign ((at out (add int (mul int (int 5) i) (int 2)))) ((conv float64 b)))
    (assign ((at out (add int (mul int (int 5) i) (int 4)))) ((conv float64 hi)))
    (if neg (then (assign ((at out (add int (mul int (int 5) i) (int 3)))) ((float64 1)))))))`}
	kReverse = &backend.Kernel{Name: "backendtest.Reverse", Pattern: backend.PatternFor, Team: true,
		Params: []backend.Param{{Name: "out", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "a", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "n", Elem: backend.KindInt}},
		IR: `kernelir 1
(kernel Reverse for (team t) (view out float64 1 w) (view a float64 1 r) (scalar n int)
  (body
    (scratch s float64 team 1 (n))
    (scratch w float64 thread 1 ((int 1)))
    (assign ((new base int)) ((mul int (team LeagueRank) n)))
    (nested thread (new j int) (int 0) n (body (assign ((at s j)) ((at a (add int base j))))))
    (barrier)
    (nested thread (new j int) (int 0) n
      (body
        (assign ((at w (int 0))) ((at s (sub int (sub int n (int 1)) j))))
        (assign ((at out (add int base j))) ((mul float64 (at w (int 0)) (float64 2))))))))`}
)

func intArg(n int) backend.Arg { return backend.Arg{Kind: backend.KindInt, Bits: uint64(n)} }

func teamShape(league, size, vector int) backend.Shape {
	return backend.Shape{Team: backend.TeamShape{League: league, Size: size, Vector: vector}}
}

// TestTeamLauncher checks that l runs team kernels (backend.Kernel.Team)
// as package kernel's host code would, over memory of space (as
// TestLauncher): a reduction over a league with nested thread ranges and
// TeamReduce (within a relative 1e-12), thread and vector ranges with
// VectorReduce, a histogram in level-0 team scratch with atomics, TeamScan
// and TeamBroadcast (exactly, whatever team size l picks for Auto),
// level-1 team and thread scratch, leagues of 0 and 1 teams, and the
// refusal of a team of 2048 threads. Each run draws fresh random data.
func TestTeamLauncher(t *testing.T, l backend.Launcher, space backend.BlockSpace) {
	t.Helper()
	m := &lmem{space: space}
	m.cs, _ = space.(backend.CopySpace)
	if m.cs == nil && !space.HostAccessible() {
		t.Fatalf("space %s is neither host-accessible nor a CopySpace", space.Name())
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), 23))
	const n = 67
	a, x := make([]float64, n*n), make([]float64, n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	da, dx := upload(t, m, "a", a), upload(t, m, "x", x)
	ref := make([]float64, n)
	dot, mag := 0.0, 0.0
	for r := range n {
		for j := range n {
			ref[r] += a[r*n+j] * x[j]
		}
		dot += x[r] * ref[r]
		mag += math.Abs(x[r] * ref[r])
	}
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-12*(1+math.Abs(want))*n }
	fence := func(t *testing.T) {
		t.Helper()
		if err := l.Fence(); err != nil {
			t.Fatal(err)
		}
	}

	for _, sz := range [][2]int{{backend.TeamAuto, backend.TeamAuto}, {1, 1}, {4, 1}, {32, 1}, {8, 4}, {3, 32}} {
		name := teamShape(n, sz[0], sz[1]).Team
		t.Run("YAx", func(t *testing.T) {
			y := upload(t, m, "y", make([]float64, n))
			bits, err := l.Reduce(&backend.Launch{Label: "yax", Kernel: kYAx, Shape: teamShape(n, sz[0], sz[1]), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n)}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64})
			if err != nil {
				t.Fatalf("%+v: %v", name, err)
			}
			got := download[float64](t, m, y)
			for r := range n {
				if !near(got[r], ref[r]) {
					t.Fatalf("%+v: y[%d] = %v, want %v", name, r, got[r], ref[r])
				}
			}
			if s := math.Float64frombits(bits); math.Abs(s-dot) > 1e-12*mag*n {
				t.Errorf("%+v: sum of x y = %v, want %v", name, s, dot)
			}
		})
		t.Run("RowsVec", func(t *testing.T) {
			const per = 5
			y := upload(t, m, "y", make([]float64, n))
			if err := l.For(&backend.Launch{Label: "rowsvec", Kernel: kRowsVec, Shape: teamShape((n+per-1)/per, sz[0], sz[1]), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n), intArg(per)}}); err != nil {
				t.Fatalf("%+v: %v", name, err)
			}
			fence(t)
			got := download[float64](t, m, y)
			for r := range n {
				if !near(got[r], ref[r]) {
					t.Fatalf("%+v: y[%d] = %v, want %v", name, r, got[r], ref[r])
				}
			}
		})
	}
	t.Run("Hist", func(t *testing.T) {
		const nb, nd, per = 13, 3001, 256
		d := make([]int32, nd)
		want := make([]int32, nb)
		for i := range d {
			d[i] = rng.Int32N(nb)
			want[d[i]]++
		}
		dd := upload(t, m, "d", d)
		for _, sz := range [][2]int{{backend.TeamAuto, backend.TeamAuto}, {16, 2}, {1, 1}} {
			h := upload(t, m, "h", make([]int32, nb))
			s := teamShape((nd+per-1)/per, sz[0], sz[1])
			s.Team.Scratch[0][0] = (4*nb + 7) &^ 7
			if err := l.For(&backend.Launch{Label: "hist", Kernel: kHist, Shape: s, Args: []backend.Arg{h.arg(), dd.arg(), intArg(nb), intArg(per)}}); err != nil {
				t.Fatal(err)
			}
			fence(t)
			got := download[int32](t, m, h)
			for b := range nb {
				if got[b] != want[b] {
					t.Fatalf("%+v: h = %v, want %v", s.Team, got, want)
				}
			}
		}
	})
	t.Run("ScanBroadcast", func(t *testing.T) {
		const league, mx = 5, 1024 // mx: the largest team a backend may pick for Auto
		for _, sz := range []int{backend.TeamAuto, 1, 7, 64} {
			out := upload(t, m, "ranks", make([]int32, 4*league*mx))
			if err := l.For(&backend.Launch{Label: "ranks", Kernel: kRanks, Shape: teamShape(league, sz, backend.TeamAuto), Args: []backend.Arg{out.arg(), intArg(mx)}}); err != nil {
				t.Fatal(err)
			}
			fence(t)
			got := download[int32](t, m, out)
			size := int(got[3])
			if size < 1 || size > mx || sz > 0 && size != sz {
				t.Fatalf("team size %d, asked for %d", size, sz)
			}
			for lg := range league {
				sum := int32(0)
				for r := range size {
					sum += int32((r + 1) * (lg + 2))
				}
				for r := range size {
					k := 4 * (lg*mx + r)
					p := int32(r * (r + 1) / 2 * (lg + 2))
					if got[k] != p || got[k+1] != sum || got[k+2] != int32(3*size*(lg+2)) || got[k+3] != int32(size) {
						t.Fatalf("size %d: team %d rank %d: prefix, total, broadcast, size = %v, want %d %d %d %d", sz, lg, r, got[k:k+4], p, sum, 3*size*(lg+2), size)
					}
				}
			}
		}
	})
	t.Run("Joins", func(t *testing.T) {
		const league = 6
		for _, size := range []int{1, 5, 32} {
			n := league * size
			x, k := make([]float64, n), make([]int32, n)
			for i := range n {
				x[i], k[i] = rng.NormFloat64(), rng.Int32N(2001)-1000
				if rng.IntN(3) > 0 {
					k[i] |= 1 // odd: the products wrap around
				}
			}
			x[size] = math.NaN()             // team 1 has a NaN
			x[2*size] = math.Copysign(0, -1) // team 2 a -0 and +0s
			for r := 1; r < size; r++ {
				x[2*size+r] = 0
			}
			for r := range size {
				k[3*size+r] = int32(r) + 1 // team 3 has no negative value
			}
			out := upload(t, m, "joins", make([]float64, 5*n))
			dxj, dk := upload(t, m, "x", x), upload(t, m, "k", k)
			if err := l.For(&backend.Launch{Label: "joins", Kernel: kJoins, Shape: teamShape(league, size, backend.TeamAuto), Args: []backend.Arg{out.arg(), dxj.arg(), dk.arg()}}); err != nil {
				t.Fatal(err)
			}
			fence(t)
			got := download[float64](t, m, out)
			for lg := range league {
				lo, p, b, neg := x[lg*size], int32(1), int32(-1), 0.0
				for r := range size {
					lo = min(lo, x[lg*size+r])
					p *= k[lg*size+r]
					b &= k[lg*size+r]
					if k[lg*size+r] < 0 {
						neg = 1
					}
				}
				hi := int32(math.MinInt32)
				for r := range size {
					i := lg*size + r
					want := []float64{lo, float64(p), float64(b), neg, float64(hi)}
					g := got[5*i : 5*i+5]
					for j := range want {
						if math.Float64bits(g[j]) != math.Float64bits(want[j]) && !(math.IsNaN(g[j]) && math.IsNaN(want[j])) {
							t.Fatalf("size %d: team %d rank %d: min, prod, band, lor, scan max = %v, want %v", size, lg, r, g, want)
						}
					}
					hi = max(hi, k[i])
				}
			}
		}
	})
	t.Run("Level1", func(t *testing.T) {
		const league = 9
		for _, sz := range []int{backend.TeamAuto, 5} {
			out := upload(t, m, "rev", make([]float64, league*n))
			s := teamShape(league, sz, backend.TeamAuto)
			s.Team.Scratch[1] = [2]int{8 * n, 8}
			if err := l.For(&backend.Launch{Label: "reverse", Kernel: kReverse, Shape: s, Args: []backend.Arg{out.arg(), da.arg(), intArg(n)}}); err != nil {
				t.Fatal(err)
			}
			fence(t)
			got := download[float64](t, m, out)
			for lg := range league {
				for j := range n {
					if want := 2 * a[lg*n+n-1-j]; got[lg*n+j] != want {
						t.Fatalf("size %d: out[%d][%d] = %v, want %v", sz, lg, j, got[lg*n+j], want)
					}
				}
			}
		}
	})
	t.Run("League0and1", func(t *testing.T) {
		y := upload(t, m, "y", make([]float64, n))
		bits, err := l.Reduce(&backend.Launch{Label: "yax0", Kernel: kYAx, Shape: teamShape(0, 4, 1), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n)}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64})
		if err != nil || bits != 0 {
			t.Errorf("a league of 0: %v, %v; want 0", math.Float64frombits(bits), err)
		}
		if err := l.For(&backend.Launch{Label: "rowsvec0", Kernel: kRowsVec, Shape: teamShape(0, 4, 1), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n), intArg(1)}}); err != nil {
			t.Fatal(err)
		}
		bits, err = l.Reduce(&backend.Launch{Label: "yax1", Kernel: kYAx, Shape: teamShape(1, 4, 1), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n)}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64})
		if err != nil || !near(math.Float64frombits(bits), x[0]*ref[0]) {
			t.Errorf("a league of 1: %v, %v; want %v", math.Float64frombits(bits), err, x[0]*ref[0])
		}
		got := download[float64](t, m, y)
		if !near(got[0], ref[0]) || got[1] != 0 {
			t.Errorf("a league of 1: y[:2] = %v, want [%v 0]", got[:2], ref[0])
		}
	})
	t.Run("Refusals", func(t *testing.T) {
		y := upload(t, m, "y", make([]float64, n))
		err := l.For(&backend.Launch{Label: "big", Kernel: kRowsVec, Shape: teamShape(1, 2048, 1), Args: []backend.Arg{y.arg(), da.arg(), dx.arg(), intArg(n), intArg(1)}})
		if err == nil {
			err = l.Fence()
		}
		if !errors.Is(err, backend.ErrUnsupported) || !strings.Contains(err.Error(), "2048") || !strings.Contains(err.Error(), "1024") {
			t.Errorf("a team of 2048 threads: %v, want an error wrapping ErrUnsupported naming 2048 and the limit 1024", err)
		}
	})
}

// TeamKernels returns the kernels of TestTeamLauncher, for tests that
// check their descriptions against the Go source in this file's comment.
func TeamKernels() []*backend.Kernel {
	return []*backend.Kernel{kYAx, kRowsVec, kHist, kRanks, kJoins, kReverse}
}
