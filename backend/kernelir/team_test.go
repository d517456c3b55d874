package kernelir

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// teamSample is a team kernel with every team node.
const teamSample = `kernelir 1
(kernel K reduce (team t)
  (view y float64 1 w)
  (view a float64 2 r)
  (view h int32 1 w)
  (scalar bins int)
  (acc float64)
  (body
    (assign ((new row int)) ((team LeagueRank)))
    (scratch s float64 team 0 ((team TeamSize)))
    (scratch c int32 thread 1 (bins (int 1)))
    (var ((sum float64)) ())
    (nested thread (new j int) (int 0) (extent a 1)
      (body
        (if (eq int j (int 3)) (then (continue)))
        (opassign add sum (at a row j))
        (nested vector _ (int 0) (int 2) (body (do (atomic Add h ((int 0)) (int32 1)))))))
    (vectorreduce Sum float64 (sum) sum)
    (teamreduce Sum float64 (sum) sum)
    (assign ((at s (team TeamRank))) (sum))
    (barrier)
    (teamscan Max float64 ((new p float64) _) (at s (team TeamRank)))
    (teambroadcast int ((new r0 int)) (team TeamRank) (int 0))
    (nested teamvector _ (int 0) (extent s 0) (body))
    (if (team SinglePerTeam)
      (then (assign ((at y row) (acc)) ((add float64 sum p) (conv float64 r0)))))))
`

func TestTeamPrintParse(t *testing.T) {
	k, err := Parse(teamSample)
	if err != nil {
		t.Fatal(err)
	}
	if k.Team != "t" || len(k.Index) != 0 {
		t.Fatalf("Team %q, Index %v", k.Team, k.Index)
	}
	text := Print(k)
	if squash(text) != squash(teamSample) {
		t.Fatalf("Print:\n%s\nwant\n%s", text, teamSample)
	}
	back, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if Print(back) != text {
		t.Fatal("the printed text does not read back to itself")
	}
}

func TestTeamInvalid(t *testing.T) {
	head := "kernelir 1\n(kernel K for (team t) (view v float64 1 w) (scalar n int)\n(body "
	for _, c := range []struct{ body, want string }{
		{"(nested thread _ (int 0) n (body (barrier)))", "barrier inside a thread range"},
		{"(nested teamvector _ (int 0) n (body (teamreduce Sum int ((new x int)) n)))", "teamreduce inside a teamvector range"},
		{"(nested vector _ (int 0) n (body (vectorreduce Sum int ((new x int)) n)))", "vectorreduce inside a vector range"},
		{"(nested thread _ (int 0) n (body (nested thread _ (int 0) n (body))))", "a thread range inside a thread range"},
		{"(nested vector _ (int 0) n (body (nested vector _ (int 0) n (body))))", "a vector range inside a vector range"},
		{"(nested thread _ (int 0) n (body (break)))", "break outside a loop"},
		{"(nested thread _ (int 0) n (body (return)))", "return inside a thread range"},
		{"(nested thread _ (int 0) n (body (scratch s int team 0 (n))))", "scratch view s inside a thread range"},
		{"(scratch s int team 2 (n))", "level 2"},
		{"(scratch s int team 0 (n n n n))", "rank 4"},
		{"(scratch s int team 0 (n)) (assign ((new x int)) (s))", "undeclared s"},
		{"(teamreduce LAnd int ((new x int)) n)", "teamreduce by LAnd of a int"},
		{"(teamreduce BOr float64 ((new x float64)) (at v n))", "BOr of a float64"},
		{"(teamscan Sum int ((new x int)) n)", "1 targets, want 2"},
		{"(teambroadcast int ((new x int)) n (float64 1))", "a float64 where a int"},
		{"(nested thread (new j float64) (int 0) n (body))", "key j of type float64"},
		{"(assign ((new x bool)) ((team Rank)))", "want a team query"},
	} {
		_, err := Parse(head + c.body + "))\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", c.body, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"kernelir 1\n(kernel K for (index i) (body (barrier)))\n", "a team barrier outside the body of a team kernel"},
		{"kernelir 1\n(kernel K for (index i) (body (assign ((new x int)) ((team TeamRank)))))\n", "outside the body of a team kernel"},
		{"kernelir 1\n(kernel K scan (team t) (acc int) (final f) (body))\n", "not a scan"},
		{"kernelir 1\n(func f () (int) (body (assign ((new x int)) ((team TeamRank))) (return x)))\n(kernel K for (team t) (body))\n", "helper f: t.TeamRank() outside"},
	} {
		_, err := Parse(c.text)
		if err == nil || !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error about %q", c.text, err, c.want)
		}
	}
}

// runLeague runs every team of a league of k.
func runLeague(t *testing.T, k *Kernel, league, size int, scratch [2][2]int, acc any, args ...any) error {
	t.Helper()
	m, err := NewMachine(k, args...)
	if err != nil {
		t.Fatal(err)
	}
	for r := range league {
		if err := m.RunTeam(TeamRun{LeagueRank: r, LeagueSize: league, Size: size, Scratch: scratch}, acc); err != nil {
			return err
		}
	}
	return nil
}

func mustParse(t *testing.T, text string) *Kernel {
	t.Helper()
	k, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// yAx: y(row) = sum_j A(row, j) x(j), one team per row, then the
// reduction of x(row) y(row) over the league.
const teamYAx = `kernelir 1
(kernel YAx reduce (team t) (view y float64 1 w) (view a float64 2 r) (view x float64 1 r) (acc float64)
  (body
    (assign ((new row int)) ((team LeagueRank)))
    (var ((s float64)) ())
    (nested thread (new j int) (int 0) (extent a 1)
      (body (opassign add s (mul float64 (at a row j) (at x j)))))
    (teamreduce Sum float64 (s) s)
    (if (team SinglePerTeam)
      (then (assign ((at y row)) (s)) (opassign add (acc) (mul float64 (at x row) s))))))
`

func TestTeamYAx(t *testing.T) {
	k := mustParse(t, teamYAx)
	const n = 7
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, n*n)
	x := make([]float64, n)
	for i := range a {
		a[i] = float64(rng.IntN(19) - 9)
	}
	for i := range x {
		x[i] = float64(rng.IntN(19) - 9)
	}
	for _, size := range []int{1, 2, 3, 8} {
		y := make([]float64, n)
		var acc float64
		err := runLeague(t, k, n, size, [2][2]int{}, &acc,
			View{Data: y, Extents: []int{n}, Strides: []int{1}},
			View{Data: a, Extents: []int{n, n}, Strides: []int{n, 1}},
			View{Data: x, Extents: []int{n}, Strides: []int{1}})
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		for r := range n {
			var s float64
			for j := range n {
				s += a[r*n+j] * x[j]
			}
			if y[r] != s {
				t.Fatalf("size %d: y[%d] = %v, want %v", size, r, y[r], s)
			}
			want += x[r] * s
		}
		if acc != want {
			t.Fatalf("size %d: acc %v, want %v", size, acc, want)
		}
	}
}

// A histogram per team in team scratch, merged into the result with
// atomics; a scan and a broadcast of the ranks; level-1 thread scratch.
const teamHist = `kernelir 1
(kernel Hist for (team t) (view h int64 1 w) (view d int32 1 r) (view out int 2 w) (scalar nb int)
  (body
    (scratch c int64 team 0 (nb))
    (nested thread (new b int) (int 0) nb (body (assign ((at c b)) ((int64 0)))))
    (barrier)
    (assign ((new per int)) ((div int (extent d 0) (team LeagueSize))))
    (assign ((new lo int)) ((mul int (team LeagueRank) per)))
    (nested teamvector (new i int) lo (add int lo per)
      (body (do (atomic Add c ((conv int (at d i))) (int64 1)))))
    (barrier)
    (nested thread (new b int) (int 0) nb (body (do (atomic Add h (b) (at c b)))))
    (teamscan Sum int ((new p int) (new tot int)) (add int (team TeamRank) (int 1)))
    (teambroadcast int ((new last int)) (mul int (team TeamRank) (int 10)) (sub int (team TeamSize) (int 1)))
    (scratch w int thread 1 ((int 2)))
    (assign ((at w (int 0)) (at w (int 1))) (p tot))
    (assign ((at out (team LeagueRank) (mul int (int 3) (team TeamRank))) (at out (team LeagueRank) (add int (int 1) (mul int (int 3) (team TeamRank)))) (at out (team LeagueRank) (add int (int 2) (mul int (int 3) (team TeamRank))))) ((at w (int 0)) (at w (int 1)) last))))
`

func TestTeamHistogramScanBroadcast(t *testing.T) {
	k := mustParse(t, teamHist)
	const nb, league, per, size = 5, 4, 37, 3
	rng := rand.New(rand.NewPCG(3, 4))
	d := make([]int32, league*per)
	want := make([]int64, nb)
	for i := range d {
		d[i] = int32(rng.IntN(nb))
		want[d[i]]++
	}
	h := make([]int64, nb)
	out := make([]int, league*3*size)
	err := runLeague(t, k, league, size, [2][2]int{{8 * nb, 0}, {0, 16}}, nil,
		View{Data: h, Extents: []int{nb}, Strides: []int{1}},
		View{Data: d, Extents: []int{len(d)}, Strides: []int{1}},
		View{Data: out, Extents: []int{league, 3 * size}, Strides: []int{3 * size, 1}}, nb)
	if err != nil {
		t.Fatal(err)
	}
	for b := range nb {
		if h[b] != want[b] {
			t.Fatalf("h = %v, want %v", h, want)
		}
	}
	for l := range league {
		for r := range size {
			p, tot, last := out[l*3*size+3*r], out[l*3*size+3*r+1], out[l*3*size+3*r+2]
			if p != r*(r+1)/2 || tot != size*(size+1)/2 || last != 10*(size-1) {
				t.Fatalf("team %d rank %d: prefix %d, total %d, broadcast %d", l, r, p, tot, last)
			}
		}
	}
	// The pad is too small for the histogram.
	err = runLeague(t, k, league, size, [2][2]int{{8*nb - 8, 0}, {0, 16}}, nil,
		View{Data: h, Extents: []int{nb}, Strides: []int{1}},
		View{Data: d, Extents: []int{len(d)}, Strides: []int{1}},
		View{Data: out, Extents: []int{league, 3 * size}, Strides: []int{3 * size, 1}}, nb)
	if !errors.Is(err, ErrRun) || !strings.Contains(err.Error(), "scratch view c of int64 with extents [5] needs 40 bytes, 32 of the 32 bytes per team of scratch level 0 are left") {
		t.Fatalf("%v, want the scratch overflow", err)
	}
}

func TestTeamMisuse(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"(if (team SinglePerTeam) (then (barrier)))", "a team barrier waits for threads of team 0 that have returned"},
		{"(if (team SinglePerTeam) (then (barrier)) (else (block (teamreduce Sum int ((new x int)) (int 1)))))", "reach different barriers or collectives"},
		{"(teambroadcast int ((new x int)) (int 1) (int 5))", "TeamBroadcast from rank 5 of a team of 3"},
		{"(assign ((at v (team TeamRank))) ((float64 1)))", "out of bounds"},
		{"(barrier) (assign ((at v (mul int (int 2) (team TeamRank)))) ((float64 1))) (barrier)", "out of bounds"},
	} {
		k := mustParse(t, "kernelir 1\n(kernel K for (team t) (view v float64 1 w)\n(body "+c.body+"))\n")
		v := make([]float64, 2)
		err := runLeague(t, k, 2, 3, [2][2]int{}, nil, View{Data: v, Extents: []int{2}, Strides: []int{1}})
		if !errors.Is(err, ErrRun) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	k := mustParse(t, "kernelir 1\n(kernel K for (team t) (body))\n")
	m, _ := NewMachine(k)
	if err := m.Run(nil, nil, false); err == nil || !strings.Contains(err.Error(), "RunTeam") {
		t.Errorf("Run of a team kernel: %v", err)
	}
	if err := m.RunTeam(TeamRun{LeagueRank: 0, LeagueSize: 0, Size: 1}, nil); err == nil {
		t.Error("RunTeam of a team outside its league: no error")
	}
}
