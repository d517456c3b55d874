//go:build longtest

package kokkos

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// forRank runs ParallelForMD with a body of p's rank.
func forRank(label string, p MDRangePolicy, body func(ix [maxMDRank]int)) {
	switch p.Rank() {
	case 2:
		ParallelForMD(label, p, func(i0, i1 int) { body([maxMDRank]int{i0, i1}) })
	case 3:
		ParallelForMD(label, p, func(i0, i1, i2 int) { body([maxMDRank]int{i0, i1, i2}) })
	case 4:
		ParallelForMD(label, p, func(i0, i1, i2, i3 int) { body([maxMDRank]int{i0, i1, i2, i3}) })
	case 5:
		ParallelForMD(label, p, func(i0, i1, i2, i3, i4 int) { body([maxMDRank]int{i0, i1, i2, i3, i4}) })
	case 6:
		ParallelForMD(label, p, func(i0, i1, i2, i3, i4, i5 int) { body([maxMDRank]int{i0, i1, i2, i3, i4, i5}) })
	}
}

// reduceRank runs ParallelReduceMD with a body of p's rank.
func reduceRank[T any](label string, p MDRangePolicy, r Reducer[T], body func(ix [maxMDRank]int, acc *T)) T {
	switch p.Rank() {
	case 2:
		return ParallelReduceMD(label, p, r, func(i0, i1 int, a *T) { body([maxMDRank]int{i0, i1}, a) })
	case 3:
		return ParallelReduceMD(label, p, r, func(i0, i1, i2 int, a *T) { body([maxMDRank]int{i0, i1, i2}, a) })
	case 4:
		return ParallelReduceMD(label, p, r, func(i0, i1, i2, i3 int, a *T) { body([maxMDRank]int{i0, i1, i2, i3}, a) })
	case 5:
		return ParallelReduceMD(label, p, r, func(i0, i1, i2, i3, i4 int, a *T) { body([maxMDRank]int{i0, i1, i2, i3, i4}, a) })
	case 6:
		return ParallelReduceMD(label, p, r, func(i0, i1, i2, i3, i4, i5 int, a *T) { body([maxMDRank]int{i0, i1, i2, i3, i4, i5}, a) })
	}
	panic("rank")
}

// mdOdometer calls f for every index of the box [lo, hi) of rank len(lo),
// the last index fastest when right, else the first.
func mdOdometer(lo, hi []int, right bool, f func(ix []int)) {
	rank := len(lo)
	for d := range rank {
		if lo[d] >= hi[d] {
			return
		}
	}
	ix := slices.Clone(lo)
	for {
		f(ix)
		k := 0
		for ; k < rank; k++ {
			d := k
			if right {
				d = rank - 1 - k
			}
			if ix[d]++; ix[d] < hi[d] {
				break
			}
			ix[d] = lo[d]
		}
		if k == rank {
			return
		}
	}
}

type mdCase struct {
	lower, upper, tile []int
}

func mdCases(r *rand.Rand) []mdCase {
	var cs []mdCase
	for rank := 2; rank <= 6; rank++ {
		for k := range 3 {
			lo, hi, tile := make([]int, rank), make([]int, rank), make([]int, rank)
			for d := range rank {
				lo[d] = r.IntN(3) - 1
				hi[d] = lo[d] + 1 + r.IntN(9-rank)
				switch k {
				case 1:
					tile[d] = 1 + r.IntN(3)
				case 2:
					tile[d] = 1
				}
			}
			if k == 0 {
				tile = nil
			}
			cs = append(cs, mdCase{lo, hi, tile})
		}
	}
	return cs
}

// flat numbers the indices of c's box, the last fastest.
func (c mdCase) flat(ix [maxMDRank]int) int {
	f := 0
	for d := range c.lower {
		f = f*(c.upper[d]-c.lower[d]) + ix[d] - c.lower[d]
	}
	return f
}

func (c mdCase) size() int {
	n := 1
	for d := range c.lower {
		n *= c.upper[d] - c.lower[d]
	}
	return n
}

func TestMDRangeFor(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	orders := []Iterate{IterateLeft, IterateRight}
	for _, c := range mdCases(r) {
		for _, outer := range orders {
			for _, inner := range orders {
				p := MDRange(c.lower, c.upper).Order(outer, inner)
				if c.tile != nil {
					p = p.Tile(c.tile...)
				}
				// The order of visits on Serial: tiles in the outer
				// order, indices within a tile in the inner order.
				var got, want [][maxMDRank]int
				forRank("order", p.On(Serial{}), func(ix [maxMDRank]int) { got = append(got, ix) })
				tl := p.check("test", "order", p.Rank())
				ntl := tl.ntiles[:p.Rank()]
				mdOdometer(make([]int, p.Rank()), ntl, outer != IterateLeft, func(tc []int) {
					b, e := make([]int, p.Rank()), make([]int, p.Rank())
					for d := range b {
						b[d] = c.lower[d] + tc[d]*tl.tile[d]
						e[d] = min(b[d]+tl.tile[d], c.upper[d])
					}
					mdOdometer(b, e, inner != IterateLeft, func(ix []int) {
						var a [maxMDRank]int
						copy(a[:], ix)
						want = append(want, a)
					})
				})
				if len(want) != c.size() || !slices.Equal(got, want) {
					t.Fatalf("%v %v %v: Serial visits %d indices %v..., want %d %v...", c, outer, inner, len(got), got[:min(4, len(got))], len(want), want[:min(4, len(want))])
				}
				// Every space visits every index once.
				for _, s := range testSpaces(t) {
					var mu sync.Mutex
					seen := make([]int, c.size())
					forRank("visit", p.On(s).WithChunk(r.IntN(3)), func(ix [maxMDRank]int) {
						mu.Lock()
						seen[c.flat(ix)]++
						mu.Unlock()
					})
					checkVisitedOnce(t, s, c, seen)
				}
			}
		}
	}
}

func TestMDRangeReduce(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	spaces := testSpaces(t)
	for _, c := range mdCases(r) {
		x := randFloats(r, c.size())
		var serial float64
		for _, v := range x {
			serial += v
		}
		for _, order := range []Iterate{IterateLeft, IterateRight} {
			p := MDRange(c.lower, c.upper).Order(order, order)
			if c.tile != nil {
				p = p.Tile(c.tile...)
			}
			var first float64
			for k, s := range spaces {
				for _, chunk := range []int{0, 1, 7} {
					got := reduceRank("sum", p.On(s).WithChunk(chunk), Sum[float64](), func(ix [maxMDRank]int, acc *float64) { *acc += x[c.flat(ix)] })
					if k == 0 && chunk == 0 {
						first = got
						if math.Abs(got-serial) > 1e-9*float64(len(x)) {
							t.Fatalf("%v: sum %v, serial %v", c, got, serial)
						}
					} else if math.Float64bits(got) != math.Float64bits(first) {
						t.Fatalf("%v %s chunk %d: sum %v, want %v bit for bit", c, spaceName(s), chunk, got, first)
					}
				}
			}
			mx := reduceRank("maxloc", p, MaxLoc[float64, int](), func(ix [maxMDRank]int, acc *ValLoc[float64, int]) {
				if v := x[c.flat(ix)]; v > acc.Val {
					*acc = ValLoc[float64, int]{v, c.flat(ix)}
				}
			})
			if want := slices.Max(x); mx.Val != want || x[mx.Loc] != want {
				t.Fatalf("%v: MaxLoc %v, want %v", c, mx, want)
			}
		}
	}
}

func TestMDRangeErrors(t *testing.T) {
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { ParallelForMD("m", MDRange([]int{0, 0}, []int{3}), func(i, j int) {}) }, `kokkos: ParallelForMD "m": MDRangePolicy([0 0], [3]): 2 lower bounds and 1 upper bounds`},
		{func() { ParallelForMD("m", MDRange([]int{0, 0}, []int{3, 3}), func(i, j, k int) {}) }, `kokkos: ParallelForMD "m": MDRangePolicy([0 0], [3 3]): rank 2, want 3`},
		{func() { ParallelForMD("m", MDRange([]int{0, 4}, []int{3, 3}), func(i, j int) {}) }, `kokkos: ParallelForMD "m": MDRangePolicy([0 4], [3 3]): lower[1] = 4 > upper[1] = 3`},
		{func() { ParallelForMD("m", MDRange([]int{0, 0}, []int{3, 3}).Tile(2, -1), func(i, j int) {}) }, `kokkos: ParallelForMD "m": MDRangePolicy([0 0], [3 3]).Tile[2 -1]: negative tile size -1 in dimension 1`},
		{func() { ParallelForMD("m", MDRange([]int{0, 0}, []int{3, 3}).Tile(2), func(i, j int) {}) }, `kokkos: ParallelForMD "m": MDRangePolicy([0 0], [3 3]).Tile[2]: 1 tile sizes for rank 2`},
		{func() {
			ParallelReduceMD("r", MDRange([]int{0, 0}, []int{3, 3}).WithChunk(-1), Sum[int](), func(i, j int, a *int) {})
		}, `kokkos: ParallelReduceMD "r": MDRangePolicy([0 0], [3 3]): negative chunk size -1`},
	} {
		if r := catchPanic(c.f); r != c.want {
			t.Errorf("panic %q\nwant  %q", r, c.want)
		}
	}
	// Empty boxes run nothing.
	ParallelForMD("empty", MDRange([]int{0, 2}, []int{3, 2}), func(i, j int) { t.Error("called") })
	if got := ParallelReduceMD("empty", MDRange([]int{0, 2}, []int{3, 2}), Prod[int](), func(i, j int, a *int) {}); got != 1 {
		t.Errorf("empty reduce = %d", got)
	}
	pe, ok := catchPanic(func() {
		ParallelForMD("p4", MDRange([]int{0, 0, 0, 0}, []int{4, 4, 4, 4}), func(i, j, k, l int) {
			if l == 3 {
				panic("four")
			}
		})
	}).(*PanicError)
	if !ok || pe.Label != "p4" {
		t.Errorf("panic in ParallelForMD: %v", pe)
	}
}

// tilesRank runs ParallelForTiles with bounds of p's rank,
// handing body the tile's box as arrays of maxMDRank bounds.
func tilesRank(label string, p MDRangePolicy, body func(lo, hi [maxMDRank]int)) {
	wide := func(lo, hi []int) {
		var b, e [maxMDRank]int
		copy(b[:], lo)
		copy(e[:], hi)
		body(b, e)
	}
	switch p.Rank() {
	case 2:
		ParallelForTiles(label, p, func(lo, hi [2]int) { wide(lo[:], hi[:]) })
	case 3:
		ParallelForTiles(label, p, func(lo, hi [3]int) { wide(lo[:], hi[:]) })
	case 4:
		ParallelForTiles(label, p, func(lo, hi [4]int) { wide(lo[:], hi[:]) })
	case 5:
		ParallelForTiles(label, p, func(lo, hi [5]int) { wide(lo[:], hi[:]) })
	case 6:
		ParallelForTiles(label, p, func(lo, hi [6]int) { wide(lo[:], hi[:]) })
	}
}

// reduceTilesRank runs ParallelReduceTiles with bounds of p's rank.
func reduceTilesRank[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [maxMDRank]int, acc *T)) T {
	wide := func(lo, hi []int, acc *T) {
		var b, e [maxMDRank]int
		copy(b[:], lo)
		copy(e[:], hi)
		body(b, e, acc)
	}
	switch p.Rank() {
	case 2:
		return ParallelReduceTiles(label, p, r, func(lo, hi [2]int, a *T) { wide(lo[:], hi[:], a) })
	case 3:
		return ParallelReduceTiles(label, p, r, func(lo, hi [3]int, a *T) { wide(lo[:], hi[:], a) })
	case 4:
		return ParallelReduceTiles(label, p, r, func(lo, hi [4]int, a *T) { wide(lo[:], hi[:], a) })
	case 5:
		return ParallelReduceTiles(label, p, r, func(lo, hi [5]int, a *T) { wide(lo[:], hi[:], a) })
	case 6:
		return ParallelReduceTiles(label, p, r, func(lo, hi [6]int, a *T) { wide(lo[:], hi[:], a) })
	}
	panic("rank")
}

// visitBox calls f for every index of the box [lo, hi) of the given rank,
// in the inner order right or left.
func visitBox(rank int, lo, hi [maxMDRank]int, right bool, f func(ix [maxMDRank]int)) {
	mdOdometer(lo[:rank], hi[:rank], right, func(ix []int) {
		var a [maxMDRank]int
		copy(a[:], ix)
		f(a)
	})
}

func TestMDRangeTiles(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	orders := []Iterate{IterateLeft, IterateRight}
	spaces := testSpaces(t)
	for _, c := range mdCases(r) {
		x := randFloats(r, c.size())
		for _, outer := range orders {
			for _, inner := range orders {
				p := MDRange(c.lower, c.upper).Order(outer, inner)
				if c.tile != nil {
					p = p.Tile(c.tile...)
				}
				rank := p.Rank()
				right := inner != IterateLeft
				// On Serial, the tiles' indices in the inner order are
				// the per-index form's visits.
				var got, want [][maxMDRank]int
				forRank("order", p.On(Serial{}), func(ix [maxMDRank]int) { want = append(want, ix) })
				tilesRank("order", p.On(Serial{}), func(lo, hi [maxMDRank]int) {
					visitBox(rank, lo, hi, right, func(ix [maxMDRank]int) { got = append(got, ix) })
				})
				if !slices.Equal(got, want) {
					t.Fatalf("%v %v %v: tiles visit %d indices %v..., want %d %v...", c, outer, inner, len(got), got[:min(4, len(got))], len(want), want[:min(4, len(want))])
				}
				ref := reduceRank("sum", p.On(Serial{}), Sum[float64](), func(ix [maxMDRank]int, acc *float64) { *acc += x[c.flat(ix)] })
				for _, s := range spaces {
					chunk := r.IntN(3)
					var mu sync.Mutex
					seen := make([]int, c.size())
					tilesRank("visit", p.On(s).WithChunk(chunk), func(lo, hi [maxMDRank]int) {
						visitBox(rank, lo, hi, right, func(ix [maxMDRank]int) {
							mu.Lock()
							seen[c.flat(ix)]++
							mu.Unlock()
						})
					})
					checkVisitedOnce(t, s, c, seen)
					// The tile reduction is the per-index one, bit for bit.
					got := reduceTilesRank("sum", p.On(s).WithChunk(chunk), Sum[float64](), func(lo, hi [maxMDRank]int, acc *float64) {
						visitBox(rank, lo, hi, right, func(ix [maxMDRank]int) { *acc += x[c.flat(ix)] })
					})
					if math.Float64bits(got) != math.Float64bits(ref) {
						t.Fatalf("%v %v %v %s: tile sum %v, per-index sum %v", c, outer, inner, spaceName(s), got, ref)
					}
				}
			}
		}
	}
	// Empty boxes run nothing; panics carry the label.
	ParallelForTiles("empty", MDRange([]int{0, 2}, []int{3, 2}), func(lo, hi [2]int) { t.Error("called") })
	if got := ParallelReduceTiles("empty", MDRange([]int{0, 0, 2}, []int{3, 3, 2}), Prod[int](), func(lo, hi [3]int, a *int) {}); got != 1 {
		t.Errorf("empty reduce = %d", got)
	}
	if r := catchPanic(func() { ParallelForTiles("m", MDRange([]int{0, 0}, []int{3}), func(lo, hi [2]int) {}) }); r != `kokkos: ParallelForTiles "m": MDRangePolicy([0 0], [3]): 2 lower bounds and 1 upper bounds` {
		t.Errorf("panic %q", r)
	}
	pe, ok := catchPanic(func() {
		ParallelReduceTiles("t2", MDRange([]int{0, 0}, []int{4, 4}), Sum[int](), func(lo, hi [2]int, a *int) { panic("two") })
	}).(*PanicError)
	if !ok || pe.Label != "t2" {
		t.Errorf("panic in ParallelReduceTiles: %v", pe)
	}
}

// checkVisitedOnce fences s and checks that every index of c was visited
// once: seen counts the visits by flat index.
func checkVisitedOnce(t *testing.T, s HostExecutionSpace, c any, seen []int) {
	t.Helper()
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	for i, v := range seen {
		if v != 1 {
			t.Fatalf("%s %v: index %d visited %d times", spaceName(s), c, i, v)
		}
	}
}

// TestMDRangeWrite writes a random affine function of the index through
// ParallelForMD and ParallelForTiles at every rank, on random boxes, and
// compares with a plain loop over the box.
func TestMDRangeWrite(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, c := range mdCases(r) {
		coef := randFloats(r, maxMDRank)
		f := func(ix [maxMDRank]int) float64 {
			s := 0.0
			for d := range c.lower {
				s += coef[d] * float64(ix[d])
			}
			return s
		}
		want := make([]float64, c.size())
		mdOdometer(c.lower, c.upper, true, func(ix []int) {
			var a [maxMDRank]int
			copy(a[:], ix)
			want[c.flat(a)] = f(a)
		})
		p := MDRange(c.lower, c.upper)
		if c.tile != nil {
			p = p.Tile(c.tile...)
		}
		got := make([]float64, c.size())
		forRank("write", p, func(ix [maxMDRank]int) { got[c.flat(ix)] = f(ix) })
		if !slices.Equal(got, want) {
			t.Fatalf("%v: ParallelForMD wrote %v..., want %v...", c, got[:min(4, len(got))], want[:min(4, len(want))])
		}
		clear(got)
		tilesRank("write", p, func(lo, hi [maxMDRank]int) {
			visitBox(len(c.lower), lo, hi, true, func(ix [maxMDRank]int) { got[c.flat(ix)] = f(ix) })
		})
		if !slices.Equal(got, want) {
			t.Fatalf("%v: ParallelForTiles wrote %v..., want %v...", c, got[:min(4, len(got))], want[:min(4, len(want))])
		}
	}
}

// TestMDRangeRankMismatch: the rank of the body (or of the tile bounds)
// must be the policy's; each pattern panics with its name, the label and
// the policy otherwise.
func TestMDRangeRankMismatch(t *testing.T) {
	names := [4]string{"ParallelForMD", "ParallelReduceMD", "ParallelForTiles", "ParallelReduceTiles"}
	calls := map[int][4]func(p MDRangePolicy){
		2: {
			func(p MDRangePolicy) { ParallelForMD("mis", p, func(i0, i1 int) {}) },
			func(p MDRangePolicy) { ParallelReduceMD("mis", p, Sum[int](), func(i0, i1 int, a *int) {}) },
			func(p MDRangePolicy) { ParallelForTiles("mis", p, func(lo, hi [2]int) {}) },
			func(p MDRangePolicy) { ParallelReduceTiles("mis", p, Sum[int](), func(lo, hi [2]int, a *int) {}) },
		},
		3: {
			func(p MDRangePolicy) { ParallelForMD("mis", p, func(i0, i1, i2 int) {}) },
			func(p MDRangePolicy) { ParallelReduceMD("mis", p, Sum[int](), func(i0, i1, i2 int, a *int) {}) },
			func(p MDRangePolicy) { ParallelForTiles("mis", p, func(lo, hi [3]int) {}) },
			func(p MDRangePolicy) { ParallelReduceTiles("mis", p, Sum[int](), func(lo, hi [3]int, a *int) {}) },
		},
		4: {
			func(p MDRangePolicy) { ParallelForMD("mis", p, func(i0, i1, i2, i3 int) {}) },
			func(p MDRangePolicy) { ParallelReduceMD("mis", p, Sum[int](), func(i0, i1, i2, i3 int, a *int) {}) },
			func(p MDRangePolicy) { ParallelForTiles("mis", p, func(lo, hi [4]int) {}) },
			func(p MDRangePolicy) { ParallelReduceTiles("mis", p, Sum[int](), func(lo, hi [4]int, a *int) {}) },
		},
		5: {
			func(p MDRangePolicy) { ParallelForMD("mis", p, func(i0, i1, i2, i3, i4 int) {}) },
			func(p MDRangePolicy) { ParallelReduceMD("mis", p, Sum[int](), func(i0, i1, i2, i3, i4 int, a *int) {}) },
			func(p MDRangePolicy) { ParallelForTiles("mis", p, func(lo, hi [5]int) {}) },
			func(p MDRangePolicy) { ParallelReduceTiles("mis", p, Sum[int](), func(lo, hi [5]int, a *int) {}) },
		},
		6: {
			func(p MDRangePolicy) { ParallelForMD("mis", p, func(i0, i1, i2, i3, i4, i5 int) {}) },
			func(p MDRangePolicy) {
				ParallelReduceMD("mis", p, Sum[int](), func(i0, i1, i2, i3, i4, i5 int, a *int) {})
			},
			func(p MDRangePolicy) { ParallelForTiles("mis", p, func(lo, hi [6]int) {}) },
			func(p MDRangePolicy) { ParallelReduceTiles("mis", p, Sum[int](), func(lo, hi [6]int, a *int) {}) },
		},
	}
	for pr := 2; pr <= maxMDRank; pr++ {
		hi := make([]int, pr)
		for d := range hi {
			hi[d] = 2
		}
		p := MDRange(make([]int, pr), hi)
		for br := 2; br <= maxMDRank; br++ {
			for k, call := range calls[br] {
				msg, _ := catchPanic(func() { call(p) }).(string)
				want := ""
				if br != pr {
					want = fmt.Sprintf("kokkos: %s \"mis\": %v: rank %d, want %d", names[k], p, pr, br)
				}
				if msg != want {
					t.Errorf("policy rank %d, body rank %d: panic %q\nwant %q", pr, br, msg, want)
				}
			}
		}
	}
}
