package layout

import (
	"math/rand/v2"
	"testing"
)

// sharedBrute answers Shared by marking every byte of a's elements.
func sharedBrute(a, b Elements) Verdict {
	bytes := map[int]bool{}
	for _, o := range offsets(a.Ext, a.Str) {
		for k := range a.Size {
			bytes[a.Base+o+k] = true
		}
	}
	for _, o := range offsets(b.Ext, b.Str) {
		for k := range b.Size {
			if bytes[b.Base+o+k] {
				return Intersect
			}
		}
	}
	return Disjoint
}

// subElements returns a random subview of the parent of extents pext and
// strides pstr (in elements of size size): a random box of each
// dimension, with some dimensions fixed at one index and dropped.
func subElements(rng *rand.Rand, pext, pstr []int, size int) Elements {
	e := Elements{Size: size}
	for r := range pext {
		b := rng.IntN(pext[r])
		n := 1 + rng.IntN(pext[r]-b)
		e.Base += b * pstr[r] * size
		if rng.IntN(4) == 0 {
			continue // an index, not a range
		}
		e.Ext = append(e.Ext, n)
		e.Str = append(e.Str, pstr[r]*size)
	}
	return e
}

// TestSharedSubviews checks Shared against brute force on pairs of random
// subviews of one parent of random layout, element size and rank: the
// views of one allocation that DeepCopy meets.
func TestSharedSubviews(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	counts := [3]int{}
	for range 20000 {
		rank := 1 + rng.IntN(4)
		pext := make([]int, rank)
		for r := range pext {
			pext[r] = 1 + rng.IntN(5)
		}
		pstr := make([]int, rank)
		l := Layout(rng.IntN(3))
		if _, err := MapStrides(min(l, Left), pext, nil, 8, rng.IntN(2) == 0, pstr); err != nil {
			t.Fatal(err)
		}
		if l == Stride { // a permuted order with gaps
			perm := rng.Perm(rank)
			s := 1 + rng.IntN(2)
			for _, r := range perm {
				pstr[r] = s
				s = s*pext[r] + rng.IntN(3)
			}
		}
		size := []int{1, 2, 4, 8}[rng.IntN(4)]
		a, b := subElements(rng, pext, pstr, size), subElements(rng, pext, pstr, size)
		if rng.IntN(8) == 0 { // another element type over the same bytes
			b.Size = []int{1, 2, 4, 8, 16}[rng.IntN(5)]
		}
		got, want := Shared(a, b), sharedBrute(a, b)
		if got != want {
			t.Fatalf("Shared(%+v, %+v) = %d, want %d", a, b, got, want)
		}
		counts[got]++
	}
	if counts[Disjoint] < 1000 || counts[Intersect] < 1000 {
		t.Fatalf("too few cases of each kind: %v", counts)
	}
}

// FuzzShared checks Shared against brute force on arbitrary strides,
// bases and element sizes: it must never say Disjoint or Intersect
// wrongly.
func FuzzShared(f *testing.F) {
	f.Add([]byte{2, 3, 4, 1, 3, 8, 2, 5, 2, 4, 3, 6, 1})
	f.Add([]byte{1, 9, 1, 1, 9, 1, 3, 2, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &bytesIn{data}
		gen := func() Elements {
			e := Elements{Base: in.n(40), Size: 1 + in.n(8)}
			rank := in.n(4)
			for range rank {
				e.Ext = append(e.Ext, in.n(6))
				e.Str = append(e.Str, in.n(30))
			}
			return e
		}
		a, b := gen(), gen()
		got, want := Shared(a, b), sharedBrute(a, b)
		if got != Unknown && got != want {
			t.Fatalf("Shared(%+v, %+v) = %d, want %d", a, b, got, want)
		}
	})
}

// TestSharedLarge: the cases DeepCopy meets on large views answer at once:
// rows of a LayoutLeft matrix, columns of a LayoutRight one, overlapping
// and disjoint blocks.
func TestSharedLarge(t *testing.T) {
	const n = 4096
	row := func(i int) Elements { return Elements{Base: i * 8, Size: 8, Ext: []int{n}, Str: []int{8 * n}} }
	block := func(i, j, m int) Elements {
		return Elements{Base: (i*n + j) * 8, Size: 8, Ext: []int{m, m}, Str: []int{8 * n, 8}}
	}
	cases := []struct {
		a, b Elements
		want Verdict
	}{
		{row(2), row(5), Disjoint},
		{row(7), row(7), Intersect},
		{block(0, 0, 1000), block(1000, 0, 1000), Disjoint},
		{block(0, 0, 1000), block(999, 999, 1000), Intersect},
		{block(0, 0, 1000), block(500, 1000, 1000), Disjoint},
		{block(10, 10, 2000), block(0, 2010, 2000), Disjoint},
	}
	for _, c := range cases {
		if got := Shared(c.a, c.b); got != c.want {
			t.Errorf("Shared(%+v, %+v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestSharedHard: strides of many unrelated sizes defeat the pruning; the
// answer is then Unknown or the right one, never a wrong one.
func TestSharedHard(t *testing.T) {
	a := Elements{Base: 0, Size: 1, Ext: []int{20, 20, 20, 20}, Str: []int{1009, 1013, 1019, 1021}}
	b := Elements{Base: 40000, Size: 1, Ext: []int{20, 20, 20, 20}, Str: []int{1031, 1033, 1039, 1049}}
	got, want := Shared(a, b), sharedBrute(a, b)
	t.Logf("Shared = %d, brute force %d", got, want)
	if got != Unknown && got != want {
		t.Fatalf("Shared = %d, want %d", got, want)
	}
	b.Base = 40001
	if got, want := Shared(a, b), sharedBrute(a, b); got != Unknown && got != want {
		t.Fatalf("Shared = %d, want %d", got, want)
	}
}
