package kerneltest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The team kernels on the device places (the fake device, which runs
// their descriptions in kernelir's interpreter, and a GPU when there is
// one), against the same kernels on the host and plain Go loops. Team
// sizes are explicit: the output of some kernels depends on the size, and
// a device resolves Auto its own way.

// devicePlaces are the places of places(t) that are not the host.
func devicePlaces(t *testing.T) []where {
	var ws []where
	for _, w := range places(t) {
		if w.mem != kokkos.HostSpace {
			ws = append(ws, w)
		}
	}
	return ws
}

// back returns a host copy of the device view v.
func back[V interface{ kokkos.View[T] }, T any](t *testing.T, w where, v V, mirror func(V, ...kokkos.Option) (V, error)) V {
	t.Helper()
	fence(t, w)
	return at(t, where{"host", nil, kokkos.HostSpace}, v, mirror)
}

var deviceTeamSizes = []int{1, 2, 4, 32}

func TestTeamYAxDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, rows := range []int{0, 1, 300} {
		const cols = 67
		y, x := randView1(t, rng, "y", rows), randView1(t, rng, "x", cols)
		a := randMatrix(t, rng, "a", rows, cols)
		want := plainYAx(y, x, a)
		for _, w := range devicePlaces(t) {
			dy, dx, da := at(t, w, y, kokkos.CreateMirror), at(t, w, x, kokkos.CreateMirror), at(t, w, a, kokkos.CreateMirror)
			for _, size := range deviceTeamSizes {
				name := fmt.Sprintf("%s: league %d, team %d", w.name, rows, size)
				got, err := kernel.Reduce("yax", kokkos.Teams(rows, size).On(w.space), kokkos.Sum[float64](), TeamYAx, dy, dx, da)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !closeTo(got, want) {
					t.Errorf("%s: kernel %v, loop %v", name, got, want)
				}
				got, err = kernel.Reduce("tvyax", kokkos.Teams((rows+6)/7, size).WithVectorLength(4).On(w.space), kokkos.Sum[float64](), TeamVectorYAx, dy, dx, da, 7)
				if err != nil {
					t.Fatalf("%s: vector: %v", name, err)
				}
				if !closeTo(got, want) {
					t.Errorf("%s: vector: kernel %v, loop %v", name, got, want)
				}
			}
		}
	}
}

func TestTeamHistogramDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const bins, chunk = 23, 500
	for _, league := range []int{0, 1, 40} {
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
		for _, w := range devicePlaces(t) {
			dd := at(t, w, data, kokkos.CreateMirror)
			for _, size := range deviceTeamSizes {
				name := fmt.Sprintf("%s: league %d, team %d", w.name, league, size)
				got := at(t, w, start, kokkos.CreateMirror)
				if err := kernel.For("hist", histogramPolicy(league, size, bins).On(w.space), TeamHistogram, got, dd, chunk); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				h := back(t, w, got, kokkos.CreateMirror)
				for b := range bins {
					if h.At(b) != want[b] {
						t.Errorf("%s: bin %d: kernel %d, loop %d", name, b, h.At(b), want[b])
					}
				}
			}
		}
	}
}

func TestTeamScanDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, league := range []int{0, 1, 11} {
		for _, w := range devicePlaces(t) {
			for _, ts := range deviceTeamSizes {
				name := fmt.Sprintf("%s: league %d, team %d", w.name, league, ts)
				n := league * ts
				in := randInts[int64](t, rng, "in", n, -1000, 1000)
				wantOut, wantSums := make([]int64, n), make([]int64, league)
				for i := range n {
					wantSums[i/ts] += in.At(i)
					wantOut[i] = wantSums[i/ts]
				}
				out := at(t, w, randInts[int64](t, rng, "out", n, 0, 1), kokkos.CreateMirror)
				sums := at(t, w, randInts[int64](t, rng, "sums", league, 0, 1), kokkos.CreateMirror)
				if err := kernel.For("scan", kokkos.Teams(league, ts).On(w.space), TeamRankScan, out, sums, at(t, w, in, kokkos.CreateMirror)); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				o, s := back(t, w, out, kokkos.CreateMirror), back(t, w, sums, kokkos.CreateMirror)
				for i := range n {
					if o.At(i) != wantOut[i] {
						t.Fatalf("%s: out[%d]: kernel %d, loop %d", name, i, o.At(i), wantOut[i])
					}
				}
				for b := range league {
					if s.At(b) != wantSums[b] {
						t.Fatalf("%s: sums[%d]: kernel %d, loop %d", name, b, s.At(b), wantSums[b])
					}
				}
			}
		}
	}
}

func TestTeamMaxBroadcastDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, league := range []int{0, 1, 9} {
		seeds := randInts[int64](t, rng, "seeds", league, -1<<40, 1<<40)
		for _, w := range devicePlaces(t) {
			ds := at(t, w, seeds, kokkos.CreateMirror)
			for _, ts := range deviceTeamSizes {
				name := fmt.Sprintf("%s: league %d, team %d", w.name, league, ts)
				out := at(t, w, kokkos.Must(kokkos.NewView2[int64]("out", league, ts)), kokkos.CreateMirror)
				ranks := at(t, w, kokkos.Must(kokkos.NewView1[int32]("ranks", league)), kokkos.CreateMirror)
				if err := kernel.For("bcast", kokkos.Teams(league, ts).On(w.space), TeamMaxBroadcast, out, ranks, ds); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				o, r := back(t, w, out, kokkos.CreateMirror), back(t, w, ranks, kokkos.CreateMirror)
				for l := range league {
					for k := range ts {
						if want := seeds.At(l)*3 + int64(k); o.At(l, k) != want {
							t.Errorf("%s: out(%d, %d): kernel %d, loop %d", name, l, k, o.At(l, k), want)
						}
					}
					if r.At(l) != int32(ts-1) {
						t.Errorf("%s: ranks[%d]: kernel %d, want %d", name, l, r.At(l), ts-1)
					}
				}
			}
		}
	}
}

func TestTeamScratchDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	const wd, b = 19, 4
	for _, league := range []int{0, 1, 8} {
		for _, w := range devicePlaces(t) {
			for _, ts := range deviceTeamSizes {
				name := fmt.Sprintf("%s: league %d, team %d", w.name, league, ts)
				// Level-1 thread scratch.
				rows := max(0, league*ts-1)
				in := randMatrix(t, rng, "in", rows, wd)
				out := at(t, w, randMatrix(t, rng, "out", rows, wd), kokkos.CreateMirror)
				p := kokkos.Teams(league, ts).SetScratchSize(1, 0, kokkos.ScratchSize[float64](2, wd)).On(w.space)
				if err := kernel.For("rev", p, ThreadReverse, out, at(t, w, in, kokkos.CreateMirror)); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				o := back(t, w, out, kokkos.CreateMirror)
				for i := range rows {
					for j := range wd {
						if want := in.At(i, wd-1-j) + float64(2*in.At(i, j)); o.At(i, j) != want {
							t.Fatalf("%s: out(%d, %d): kernel %v, loop %v", name, i, j, o.At(i, j), want)
						}
					}
				}
				// Level-1 team scratch of rank 3, a tile a team.
				tiles := league
				n := tiles * b
				sq := kokkos.Must(kokkos.NewView2[int32]("sq", n, n))
				for i := range n {
					for j := range n {
						sq.Set(i, j, rng.Int32())
					}
				}
				tr := at(t, w, kokkos.Must(kokkos.NewView2[int32]("tr", n, n)), kokkos.CreateMirror)
				p = kokkos.Teams(tiles*tiles, ts).SetScratchSize(1, kokkos.ScratchSize[int32](1, b, b), 0).On(w.space)
				if err := kernel.For("tr", p, TileTranspose, tr, at(t, w, sq, kokkos.CreateMirror), b); err != nil {
					t.Fatalf("%s: transpose: %v", name, err)
				}
				h := back(t, w, tr, kokkos.CreateMirror)
				for i := range n {
					for j := range n {
						if h.At(j, i) != sq.At(i, j) {
							t.Fatalf("%s: transpose (%d, %d): kernel %d, want %d", name, j, i, h.At(j, i), sq.At(i, j))
						}
					}
				}
			}
		}
	}
}
