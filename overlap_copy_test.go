package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/internal/layout"
	"github.com/gokkos/kokkos/internal/testutil"
)

// Copies between views of one array: DeepCopy copies views whose elements
// are disjoint, does nothing for the same view and refuses views that
// share an element, checked against a reference that copies element by
// element from a snapshot of the array.

// oneArrayCase is a DeepCopy between two random subviews of one random
// parent, and what it must do.
type oneArrayCase struct {
	name  string
	pext  []int
	opts  []Option
	dargs []any
	sargs []any
}

// randSubArgs returns Subview arguments of a parent of extents pext that
// keep the parent dimensions dims (sorted) with extents ext and fix the
// others at random indices.
func randSubArgs(rng *rand.Rand, pext, dims, ext []int) []any {
	args := make([]any, len(pext))
	k := 0
	for r := range pext {
		if k < len(dims) && dims[k] == r {
			b := rng.IntN(pext[r] - ext[k] + 1)
			args[r] = Pair(b, b+ext[k])
			if b == 0 && ext[k] == pext[r] && rng.IntN(2) == 0 {
				args[r] = All
			}
			k++
			continue
		}
		args[r] = rng.IntN(pext[r])
	}
	return args
}

// randDims returns k sorted random dimensions of [0, n).
func randDims(rng *rand.Rand, n, k int) []int {
	d := rng.Perm(n)[:k]
	slices.Sort(d)
	return d
}

// subOffsets returns the parent offsets of the elements that args select
// from a parent of extents pext and strides pstr, in the logical order of
// the result.
func subOffsets(pext, pstr []int, args []any) []int {
	base := 0
	var ext, str []int
	for r, a := range args {
		switch a := a.(type) {
		case int:
			base += a * pstr[r]
		case PairRange:
			base += a.Begin * pstr[r]
			ext = append(ext, a.End-a.Begin)
			str = append(str, pstr[r])
		case AllType:
			ext = append(ext, pext[r])
			str = append(str, pstr[r])
		}
	}
	var out []int
	testutil.ForEachIndex(ext, func(idx []int) { out = append(out, base+offsetOf(str, idx)) })
	return out
}

// newOneArrayCase draws a parent (rank 1 to 4, any layout, padded or with
// gaps) and two subviews of equal extents; biased towards the interesting
// pairs: one dimension fixed at different indices (rows of a LayoutLeft
// matrix, columns of a LayoutRight one), shifted blocks, the same view.
func newOneArrayCase(rng *rand.Rand) oneArrayCase {
	rank := 1 + rng.IntN(4)
	pext := make([]int, rank)
	for r := range pext {
		pext[r] = 1 + rng.IntN(6)
	}
	c := oneArrayCase{pext: pext}
	switch k := rng.IntN(4); k {
	case 0, 1:
		c.opts = layoutOpts(rng, k, pext)
		if rng.IntN(2) == 0 {
			c.opts = append(c.opts, AllowPadding)
		}
	default:
		c.opts = layoutOpts(rng, 2, pext)
	}
	k := rng.IntN(rank + 1)
	ddims := randDims(rng, rank, k)
	sdims := ddims
	if rng.IntN(3) == 0 {
		sdims = randDims(rng, rank, k)
	}
	ext := make([]int, k)
	for j := range ext {
		ext[j] = 1 + rng.IntN(min(pext[ddims[j]], pext[sdims[j]]))
	}
	c.dargs = randSubArgs(rng, pext, ddims, ext)
	c.sargs = randSubArgs(rng, pext, sdims, ext)
	if rng.IntN(10) == 0 {
		c.sargs = c.dargs
	}
	c.name = fmt.Sprintf("parent %v, dst %v, src %v", pext, c.dargs, c.sargs)
	return c
}

// oneArrayParent returns c's parent filled with random values: host, a
// host view, and p, the parent the copy runs on (host itself, or a view in
// space with host's strides and values), and the values in host's memory
// order.
func oneArrayParent(t *testing.T, rng *rand.Rand, c oneArrayCase, space MemorySpace) (host, p DynRankView[float64], snap []float64) {
	t.Helper()
	host, err := NewDynRankView[float64]("P", c.pext, c.opts...)
	if err != nil {
		t.Fatal(err)
	}
	hd := host.viewDesc()
	for i := range hd.data {
		hd.data[i] = float64(1 + rng.IntN(1<<20))
	}
	snap = slices.Clone(hd.data)
	if space == nil {
		return host, host, snap
	}
	if p, err = NewDynRankView[float64]("P", c.pext, append(c.opts, InSpace(space))...); err != nil {
		t.Fatal(err)
	}
	if pd := p.viewDesc(); !slices.Equal(pd.strides(), hd.strides()) {
		t.Fatalf("%s: device strides %v, host %v", c.name, pd.strides(), hd.strides())
	}
	if err := DeepCopy[float64](p, host); err != nil {
		t.Fatal(err)
	}
	return host, p, snap
}

// checkOneArray runs c on a host parent, or on a parent in space (copied
// from and back to a host twin of the same strides), and checks the
// result against the reference. It returns the kind of the case.
func checkOneArray(t *testing.T, rng *rand.Rand, c oneArrayCase, space MemorySpace) string {
	t.Helper()
	host, p, snap := oneArrayParent(t, rng, c, space)
	hd := host.viewDesc()
	if space != nil {
		defer p.Release()
	}
	dst, src := p.Subview(c.dargs...), p.Subview(c.sargs...)
	err := DeepCopy[float64](dst, src)
	if space != nil {
		if err := DeepCopy[float64](host, p); err != nil {
			t.Fatal(err)
		}
	}
	dofs, sofs := subOffsets(c.pext, hd.strides(), c.dargs), subOffsets(c.pext, hd.strides(), c.sargs)
	want := slices.Clone(snap)
	kind := "disjoint"
	switch {
	case slices.Equal(dofs, sofs):
		kind = "same"
	case slices.ContainsFunc(dofs, func(o int) bool { return slices.Contains(sofs, o) }):
		kind = "overlap"
	default:
		for i := range dofs {
			want[dofs[i]] = snap[sofs[i]]
		}
		if slices.Max(dofs) > slices.Min(sofs) && slices.Max(sofs) > slices.Min(dofs) {
			kind = "interleaved"
		}
	}
	if kind == "overlap" {
		if !errors.Is(err, ErrOverlap) {
			t.Fatalf("%s: views that share an element: error %v, want ErrOverlap", c.name, err)
		}
	} else if err != nil {
		t.Fatalf("%s (%s): %v", c.name, kind, err)
	}
	if !slices.Equal(hd.data, want) {
		for i := range want {
			if hd.data[i] != want[i] {
				t.Fatalf("%s (%s): parent element %d = %v, want %v", c.name, kind, i, hd.data[i], want[i])
			}
		}
	}
	return kind
}

func TestDeepCopyOneArray(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	counts := map[string]int{}
	n := 4000
	if testing.Short() {
		n = 1500
	}
	for range n {
		counts[checkOneArray(t, rng, newOneArrayCase(rng), nil)]++
	}
	fs := checked(t, newFakeSpace(false))
	for range n / 10 {
		counts[checkOneArray(t, rng, newOneArrayCase(rng), fs)]++
	}
	t.Logf("cases: %v", counts)
	for _, k := range []string{"same", "overlap", "disjoint", "interleaved"} {
		if counts[k] < n/40 {
			t.Errorf("only %d cases %s of %d: %v", counts[k], k, n, counts)
		}
	}
}

// FuzzDeepCopyOneArray is TestDeepCopyOneArray's check on cases drawn from
// the fuzzer's seed.
func FuzzDeepCopyOneArray(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s, false)
	}
	f.Add(uint64(99), true)
	f.Fuzz(func(t *testing.T, seed uint64, device bool) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var space MemorySpace
		if device {
			space = checked(t, newFakeSpace(false))
		}
		checkOneArray(t, rng, newOneArrayCase(rng), space)
	})
}

// TestDeepCopySeedRows is the seed's deep_copy example: two rows of a
// LayoutLeft matrix, and two columns of a LayoutRight one, copy.
func TestDeepCopySeedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 12
	a, _ := NewView2[int]("A", n, 10, LayoutLeft)
	for i := range a.Data() {
		a.Data()[i] = 1 + rng.IntN(1000)
	}
	row5 := make([]int, 10)
	for j := range row5 {
		row5[j] = a.At(5, j)
	}
	if err := DeepCopy[int](a.Subview1(2, All), a.Subview1(5, All)); err != nil {
		t.Fatal(err)
	}
	for j := range 10 {
		if a.At(2, j) != row5[j] || a.At(5, j) != row5[j] {
			t.Fatalf("column %d: row 2 %d, row 5 %d, want %d", j, a.At(2, j), a.At(5, j), row5[j])
		}
	}
	r, _ := NewView2[int]("R", 5, 2)
	for i := range r.Data() {
		r.Data()[i] = 1 + rng.IntN(1000)
	}
	col0 := []int{r.At(0, 0), r.At(1, 0), r.At(2, 0), r.At(3, 0), r.At(4, 0)}
	if err := DeepCopy[int](r.Subview1(All, 1), r.Subview1(All, 0)); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if r.At(i, 1) != col0[i] {
			t.Fatalf("row %d: %d, want %d", i, r.At(i, 1), col0[i])
		}
	}
	// A row into a column of a square matrix shares one element.
	s, _ := NewView2[int]("S", 4, 4)
	wantErr(t, DeepCopy[int](s.Subview1(1, All), s.Subview1(All, 2)), `the views overlap in memory`)
}

// TestDeepCopyStaged: a copy whose views could not be proven disjoint in
// bounded time goes through a temporary and gives the result of copying
// from a snapshot, overlapping or not, on the host and on a device.
func TestDeepCopyStaged(t *testing.T) {
	// checkPair answers copyStaged when the search gives up.
	hard := func(base uintptr, str []int) side {
		ext := []int{20, 20, 20, 20}
		return side{rank: 4, ext: ext, str: str, rec: unmanagedAllocation("H", HostSpace, 8), mem: memRange{lo: base, hi: base + 1<<20}, label: "H", esz: 1}
	}
	d := hard(1<<20, []int{1009, 1013, 1019, 1021})
	s := hard(1<<20+40000, []int{1031, 1033, 1039, 1049})
	if layout.Shared(elementsOf(d), elementsOf(s)) != layout.Unknown {
		t.Fatal("the search decided the hard case; make it harder")
	}
	if mode, err := checkPair("DeepCopy", d, s); mode != copyStaged || err != nil {
		t.Fatalf("mode %d, %v; want copyStaged", mode, err)
	}
	// copyMode(copyStaged) copies from a snapshot.
	rng := rand.New(rand.NewPCG(11, 12))
	fs := checked(t, newFakeSpace(false))
	for _, space := range []MemorySpace{nil, fs} {
		for range 200 {
			c := newOneArrayCase(rng)
			host, p, snap := oneArrayParent(t, rng, c, space)
			hd := host.viewDesc()
			dst, src := p.Subview(c.dargs...), p.Subview(c.sargs...)
			dd, sd := dst.viewDesc(), src.viewDesc()
			if err := copyMode(copyStaged, &dd, &sd); err != nil {
				t.Fatal(err)
			}
			if space != nil {
				if err := DeepCopy[float64](host, p); err != nil {
					t.Fatal(err)
				}
				p.Release()
			}
			want := slices.Clone(snap)
			dofs, sofs := subOffsets(c.pext, hd.strides(), c.dargs), subOffsets(c.pext, hd.strides(), c.sargs)
			for i := range dofs {
				want[dofs[i]] = snap[sofs[i]]
			}
			if !slices.Equal(hd.data, want) {
				t.Fatalf("%s: staged copy differs from the snapshot copy", c.name)
			}
		}
	}
}
