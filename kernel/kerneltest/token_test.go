package kerneltest

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/kernel"
)

// tokenIndices is the number of indices of the token tests at w for a
// token of size ids: 10M on a GPU, but 2000 per id for a token of few
// (the device's threads would wait long for them), fewer on the host,
// and fewer still on the fake device, which interprets each index.
func tokenIndices(w where, size int) int {
	switch {
	case w.gpu():
		return min(10_000_000, 2000*size)
	case w.name == "fake":
		return 3000
	}
	return 200_000
}

// TestTokenHolds runs TokenHolds with a token of the concurrency and
// tokens of fewer ids at every place: no id is held twice at once, every
// id is in range, every index holds one, and the work done while holding
// it is the reference's. A second launch finds every id released.
func TestTokenHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, w := range places(t) {
		space := w.space
		if space == nil {
			space = kokkos.DefaultExecutionSpace()
		}
		for _, tok := range []kokkos.UniqueToken{kokkos.NewUniqueToken(w.space), kokkos.NewUniqueTokenSize(w.space, 3), kokkos.NewUniqueTokenSize(w.space, 1000)} {
			size := tok.Size()
			if tok.Space() != space {
				t.Fatalf("%s: token of %v, want %v", w.name, tok.Space(), space)
			}
			n := tokenIndices(w, size)
			x := kokkos.Must(kokkos.NewView1[int64]("x", n))
			fill(x, randInt[int64](rng))
			want := at(t, refPlace, x, kokkos.CreateMirror)
			for i := range n {
				v := want.At(i)
				for range i % 16 {
					v = v*6364136223846793005 + 1442695040888963407
				}
				want.Set(i, v)
			}
			inUse := kokkos.Must(kokkos.NewView1[int32]("inUse", size, kokkos.InSpace(w.mem)))
			counts := kokkos.Must(kokkos.NewView1[int64]("counts", size, kokkos.InSpace(w.mem)))
			clashes := kokkos.Must(kokkos.NewView1[int64]("clashes", 2, kokkos.InSpace(w.mem)))
			keep(t, &inUse)
			keep(t, &counts)
			keep(t, &clashes)
			dx := at(t, w, x, kokkos.CreateMirror)
			for run := range 2 {
				if !launched(t, w, kernel.For("tokenholds", kokkos.Range(0, n).On(w.space), TokenHolds, tok, inUse, counts, clashes, dx)) {
					return
				}
				fence(t, w)
				c := kokkos.Must(kokkos.CreateMirrorViewAndCopy(clashes))
				if c.At(0) != 0 || c.At(1) != 0 {
					t.Fatalf("%s: size %d, run %d: %d holds of an id already held, %d ids out of range", w.name, size, run, c.At(0), c.At(1))
				}
				h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(counts))
				total, used := int64(0), 0
				for id := range size {
					total += h.At(id)
					if h.At(id) > 0 {
						used++
					}
				}
				if total != int64(n*(run+1)) {
					t.Fatalf("%s: size %d, run %d: %d holds counted, want %d", w.name, size, run, total, n*(run+1))
				}
				if run == 0 {
					t.Logf("%s: size %d: %d ids used over %d indices", w.name, size, used, n)
					check(t, w, "x", dx, want)
				}
			}
		}
	}
}

// TestTokenHist builds a histogram in rows of bins, one per id, without
// atomics: their sum is the reference's histogram exactly.
func TestTokenHist(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const nb = 13
	for _, w := range places(t) {
		for _, tok := range []kokkos.UniqueToken{kokkos.NewUniqueToken(w.space), kokkos.NewUniqueTokenSize(w.space, 2)} {
			n := tokenIndices(w, tok.Size())
			x := kokkos.Must(kokkos.NewView1[int64]("x", n))
			fill(x, randInt[int64](rng))
			var want [nb]int64
			for i := range n {
				want[uint64(x.At(i))%nb]++
			}
			bins := kokkos.Must(kokkos.NewView2[int64]("bins", tok.Size(), nb, kokkos.InSpace(w.mem)))
			keep(t, &bins)
			if !launched(t, w, kernel.For("tokenhist", kokkos.Range(0, n).On(w.space), TokenHist, tok, bins, at(t, w, x, kokkos.CreateMirror))) {
				return
			}
			fence(t, w)
			h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(bins))
			var got [nb]int64
			for id := range tok.Size() {
				for b := range nb {
					got[b] += h.At(id, b)
				}
			}
			if got != want {
				t.Fatalf("%s: size %d: histogram %v, want %v", w.name, tok.Size(), got, want)
			}
		}
	}
}

// TestTokenReduce counts, in a reduction, the indices that got an id in
// range.
func TestTokenReduce(t *testing.T) {
	for _, w := range places(t) {
		for _, tok := range []kokkos.UniqueToken{kokkos.NewUniqueToken(w.space), kokkos.NewUniqueTokenSize(w.space, 5)} {
			n := tokenIndices(w, tok.Size())
			got, err := kernel.Reduce("tokencount", kokkos.Range(0, n).On(w.space), kokkos.Sum[int64](), TokenCount, tok)
			if !launched(t, w, err) {
				return
			}
			if got != int64(n) {
				t.Fatalf("%s: size %d: %d indices counted, want %d", w.name, tok.Size(), got, n)
			}
		}
	}
}

// TestTokenArgs refuses a token made for another instance than the
// launch's, and the zero token, with ErrArgs.
func TestTokenArgs(t *testing.T) {
	fake := backendtest.FakeDevice(false).Executor()
	bins := kokkos.Must(kokkos.NewView2[int64]("bins", 4, 3))
	x := kokkos.Must(kokkos.NewView1[int64]("x", 10))
	for _, c := range []struct {
		name  string
		space kokkos.ExecutionSpace
		tok   kokkos.UniqueToken
		want  string
	}{
		{"serial token on the pool", nil, kokkos.NewUniqueTokenSize(kokkos.Serial{}, 4), "token tok was made for another instance (Serial) than the launch's (Threads)"},
		{"pool token on serial", kokkos.Serial{}, kokkos.NewUniqueToken(nil), "token tok was made for another instance (Threads) than the launch's (Serial)"},
		{"other pool", kokkos.DefaultExecutionSpace(), kokkos.NewUniqueTokenSize(kokkos.NewThreads(2), 4), "token tok was made for another instance (Threads) than the launch's (Threads)"},
		{"host token on the fake device", fake, kokkos.NewUniqueTokenSize(nil, 4), "another instance (Threads) than the launch's (FakeExec)"},
		{"fake token on the host", nil, kokkos.NewUniqueTokenSize(fake, 4), "another instance (FakeExec) than the launch's (Threads)"},
		{"zero token", nil, kokkos.UniqueToken{}, "token tok is the zero UniqueToken"},
	} {
		err := kernel.For("tokenhist", kokkos.Range(0, 10).On(c.space), TokenHist, c.tok, bins, x)
		if !errors.Is(err, kernel.ErrArgs) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrArgs saying %q", c.name, err, c.want)
		}
		_, err = kernel.Reduce("tokencount", kokkos.Range(0, 10).On(c.space), kokkos.Sum[int64](), TokenCount, c.tok)
		if !errors.Is(err, kernel.ErrArgs) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Reduce: %v, want ErrArgs saying %q", c.name, err, c.want)
		}
	}
}

// TestTokenBox runs a kernel of two indices with a token over boxes of
// several tilings: every index gets an id in range, and the holds add up.
func TestTokenBox(t *testing.T) {
	const n0, n1 = 301, 77
	for _, w := range places(t) {
		for _, tok := range []kokkos.UniqueToken{kokkos.NewUniqueToken(w.space), kokkos.NewUniqueTokenSize(w.space, 4)} {
			for _, p := range mdPolicies([]int{n0, n1}, []int{8, 16}) {
				ok := kokkos.Must(kokkos.NewView2[int32]("ok", n0, n1, kokkos.InSpace(w.mem)))
				counts := kokkos.Must(kokkos.NewView1[int64]("counts", tok.Size(), kokkos.InSpace(w.mem)))
				keep(t, &ok)
				keep(t, &counts)
				if !launched(t, w, kernel.For("tokenbox", p.On(w.space), TokenBox, tok, ok, counts)) {
					return
				}
				fence(t, w)
				h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(ok))
				for i := range n0 {
					for j := range n1 {
						if h.At(i, j) != 1 {
							t.Fatalf("%s: size %d: index (%d, %d) got no id in range", w.name, tok.Size(), i, j)
						}
					}
				}
				c := kokkos.Must(kokkos.CreateMirrorViewAndCopy(counts))
				total := int64(0)
				for id := range tok.Size() {
					total += c.At(id)
				}
				if total != n0*n1 {
					t.Fatalf("%s: size %d: %d holds, want %d", w.name, tok.Size(), total, n0*n1)
				}
			}
		}
	}
}
