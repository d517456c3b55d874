package algorithms

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// naiveBinSort returns the counts, offsets and stable permutation of the
// keys [begin, end) whose bins are bins(i), sorted within the bins by
// less when it is not nil.
func naiveBinSort(nb, begin, end int, bin func(i int) int, less func(i, j int) bool) (counts, offsets, perm []int) {
	counts = make([]int, nb)
	for i := begin; i < end; i++ {
		counts[bin(i)]++
	}
	offsets = make([]int, nb)
	for k := 1; k < nb; k++ {
		offsets[k] = offsets[k-1] + counts[k-1]
	}
	for i := begin; i < end; i++ {
		perm = append(perm, i)
	}
	slices.SortStableFunc(perm, func(i, j int) int {
		if bin(i) != bin(j) {
			return bin(i) - bin(j)
		}
		if less != nil && less(i, j) {
			return -1
		}
		if less != nil && less(j, i) {
			return 1
		}
		return 0
	})
	return
}

func TestBinSort1D(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{2, 17, 1000, 3*minMergeChunk + 11, 100000} {
		for _, within := range []bool{false, true} {
			keys := make([]float64, n)
			for i := range keys {
				keys[i] = rng.Float64()*200 - 50
			}
			lo, hi := slices.Min(keys), slices.Max(keys)
			nb := 1 + rng.IntN(n)
			kv := view(t, keys)
			op := NewBinOp1D(kv, nb, lo, hi)
			begin := rng.IntN(n)
			end := begin + 1 + rng.IntN(n-begin)
			bs, err := NewBinSortRange(op, begin, end, within)
			if err != nil {
				t.Fatal(err)
			}
			if err := bs.CreatePermuteVectorOn(kokkos.NewThreads(4)); err != nil {
				t.Fatal(err)
			}
			mul := float64(nb) / (hi - lo)
			bin := func(i int) int { return int(mul * (keys[i] - lo)) }
			var less func(i, j int) bool
			if within {
				less = func(i, j int) bool { return keys[i] < keys[j] }
			}
			counts, offsets, perm := naiveBinSort(nb+1, begin, end, bin, less)
			gc, go_, gp := bs.BinCount(), bs.BinOffsets(), bs.PermuteVector()
			if !slices.Equal(kokkos.ReadOnlyData(&gc), counts) || !slices.Equal(kokkos.ReadOnlyData(&go_), offsets) {
				t.Fatalf("n %d nb %d: counts %v offsets %v, want %v %v", n, nb, kokkos.ReadOnlyData(&gc), kokkos.ReadOnlyData(&go_), counts, offsets)
			}
			if !slices.Equal(kokkos.ReadOnlyData(&gp), perm) {
				t.Fatalf("n %d nb %d [%d, %d) within %v: permutation differs", n, nb, begin, end, within)
			}
			// Apply to the keys' own range: the keys sorted by bin.
			if err := ApplyRange(bs, kokkos.View[float64](kv), begin, end); err != nil {
				t.Fatal(err)
			}
			for i := begin; i < end; i++ {
				if kv.At(i) != keys[perm[i-begin]] {
					t.Fatalf("n %d: key %d after Apply is %g, want %g", n, i, kv.At(i), keys[perm[i-begin]])
				}
			}
			for i := range n {
				if (i < begin || i >= end) && kv.At(i) != keys[i] {
					t.Fatalf("n %d: key %d outside the range changed", n, i)
				}
			}
			if within {
				for i := begin + 1; i < end; i++ {
					if bin(perm[i-begin]) == bin(perm[i-1-begin]) && kv.At(i) < kv.At(i-1) {
						t.Fatalf("bin not sorted at %d", i)
					}
				}
			}
		}
	}
}

// TestBinOp1DIntegers: integer keys whose range fits the bins get a bin
// each, as Kokkos's.
func TestBinOp1DIntegers(t *testing.T) {
	keys := []int32{5, 9, 7, 5, 6, 9, 8}
	kv := view(t, keys)
	op := NewBinOp1D(kv, 10, 5, 9)
	if op.MaxBins() != 11 {
		t.Fatalf("MaxBins %d", op.MaxBins())
	}
	for i, k := range keys {
		if op.Bin(i) != int(k-5) {
			t.Errorf("key %d: bin %d, want %d", k, op.Bin(i), k-5)
		}
	}
	bs := kokkos.Must(NewBinSort(op, false))
	if err := bs.CreatePermuteVector(); err != nil {
		t.Fatal(err)
	}
	pv := bs.PermuteVector()
	if got := kokkos.ReadOnlyData(&pv); !slices.Equal(got, []int{0, 3, 4, 2, 6, 1, 5}) {
		t.Fatalf("permutation %v", got)
	}
	vals := view(t, []string{"a", "b", "c", "d", "e", "f", "g"})
	if err := Apply(bs, kokkos.View[string](vals)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(vals.Data(), []string{"a", "d", "e", "c", "g", "b", "f"}) {
		t.Fatalf("values %v", vals.Data())
	}
}

func TestBinSort3D(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 50, 20000} {
		for _, within := range []bool{false, true} {
			kv := kokkos.Must(kokkos.NewView2[float32]("pos", n, 3))
			for i := range n {
				for d := range 3 {
					kv.Set(i, d, float32(rng.IntN(8))*0.5)
				}
			}
			nbins := [3]int{3, 4, 2}
			lo, hi := [3]float32{0, 0, 0}, [3]float32{4, 4, 4}
			op := NewBinOp3D(kv, nbins, lo, hi)
			bs := kokkos.Must(NewBinSort(op, within))
			if err := bs.CreatePermuteVector(); err != nil {
				t.Fatal(err)
			}
			cell := func(i int) int {
				c := [3]int{}
				for d := range 3 {
					c[d] = int(float64(nbins[d]) / 4 * float64(kv.At(i, d)))
				}
				return (c[0]*nbins[1]+c[1])*nbins[2] + c[2]
			}
			var less func(i, j int) bool
			if within {
				less = func(i, j int) bool {
					a := [3]float32{kv.At(i, 0), kv.At(i, 1), kv.At(i, 2)}
					b := [3]float32{kv.At(j, 0), kv.At(j, 1), kv.At(j, 2)}
					return slices.Compare(a[:], b[:]) > 0
				}
			}
			counts, _, perm := naiveBinSort(24, 0, n, cell, less)
			gc, gp := bs.BinCount(), bs.PermuteVector()
			if !slices.Equal(kokkos.ReadOnlyData(&gc), counts) || !slices.Equal(kokkos.ReadOnlyData(&gp), perm) {
				t.Fatalf("n %d within %v: counts or permutation differ", n, within)
			}
			before := kokkos.Must(kokkos.CreateMirror(kv))
			if err := kokkos.DeepCopy(before, kv); err != nil {
				t.Fatal(err)
			}
			if err := Apply(bs, kokkos.View[float32](&kv)); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				for d := range 3 {
					if kv.At(i, d) != before.At(perm[i], d) {
						t.Fatalf("row %d after Apply", i)
					}
				}
			}
		}
	}
}

func TestBinSortErrors(t *testing.T) {
	kv := view(t, []float64{1, 2, 3, 40})
	bs := kokkos.Must(NewBinSort(NewBinOp1D(kv, 4, 1, 3), false))
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, `key 3 of keys "keys" of extent 4 has bin 78, outside [0, 5)`) {
				t.Errorf("panic %q", msg)
			}
		}()
		_ = bs.CreatePermuteVector()
	}()
	if _, err := NewBinSort(NewBinOp1D(kv, -1, 1, 3), false); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("no bins: %v", err)
	}
	short := view(t, []float64{1})
	if err := ApplyRange(bs, kokkos.View[float64](short), 0, 1); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "permutation has 4") {
		t.Errorf("short range: %v", err)
	}
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, `range [0, 4) outside view "keys" of extents [1]`) {
				t.Errorf("panic %q", msg)
			}
		}()
		_ = Apply(bs, kokkos.View[float64](short))
	}()
	if err := Apply(bs, kokkos.View[float64](kv.ReadOnly())); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Errorf("read-only values: %v", err)
	}
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, "range [2, 5) outside 4 keys") {
				t.Errorf("panic %q", msg)
			}
		}()
		_, _ = NewBinSortRange(NewBinOp1D(kv, 4, 1, 3), 2, 5, false)
	}()
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, `keys "m" of extents [4 2]`) {
				t.Errorf("panic %q", msg)
			}
		}()
		NewBinOp3D(kokkos.Must(kokkos.NewView2[float64]("m", 4, 2)), [3]int{1, 1, 1}, [3]float64{}, [3]float64{1, 1, 1})
	}()
}
