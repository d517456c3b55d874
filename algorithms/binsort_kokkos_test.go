package algorithms

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

func splitmix(i uint64) uint64 {
	z := i + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func unit(i int) float64 { return float64(splitmix(uint64(i))>>11) / (1 << 53) }

// binsortBinsOf returns the counts and offsets of a BinSort of op.
func binsortBinsOf(t *testing.T, op BinOp) (counts, offsets []int) {
	t.Helper()
	bs := kokkos.Must(NewBinSort(op, false))
	if err := bs.CreatePermuteVector(); err != nil {
		t.Fatal(err)
	}
	c, o := bs.BinCount(), bs.BinOffsets()
	return kokkos.ReadOnlyData(&c), kokkos.ReadOnlyData(&o)
}

func binOp1DOf[T kokkos.Number](t *testing.T, n, nbins int, key func(i int) T) BinOp {
	s := make([]T, n)
	for i := range s {
		s[i] = key(i)
	}
	return NewBinOp1D(view(t, s), nbins, slices.Min(s), slices.Max(s))
}

// TestBinSortKokkos compares the bin counts and offsets with those of
// Kokkos 4.6.1's BinSort of the same keys (testdata/binsort_ref.cpp):
// BinOp1D of float64, float32 and int32 keys (one bin per value where the
// range fits), and BinOp3D.
func TestBinSortKokkos(t *testing.T) {
	f, err := os.Open("testdata/binsort_ref.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		var xs []int
		for _, x := range fs[2:] {
			v, err := strconv.Atoi(x)
			if err != nil {
				t.Fatal(err)
			}
			xs = append(xs, v)
		}
		want[fs[0]+" "+fs[1]] = xs
	}
	pos := kokkos.Must(kokkos.NewView2[float64]("pos", 500, 3))
	for i := range 500 {
		for d := range 3 {
			pos.Set(i, d, unit(3*i+d))
		}
	}
	ops := map[string]BinOp{
		"f64":      binOp1DOf(t, 1000, 37, unit),
		"f32":      binOp1DOf(t, 777, 10, func(i int) float32 { return float32(unit(i)*200 - 100) }),
		"i32small": binOp1DOf(t, 500, 100, func(i int) int32 { return int32(splitmix(uint64(i))%50) - 20 }),
		"i32":      binOp1DOf(t, 900, 64, func(i int) int32 { return int32(splitmix(uint64(i)) % 1000) }),
		"p3":       NewBinOp3D(pos, [3]int{3, 4, 5}, [3]float64{}, [3]float64{1, 1, 1}),
	}
	for name, op := range ops {
		c, o := binsortBinsOf(t, op)
		if wc := want[name+" counts"]; wc == nil || !slices.Equal(c, wc) {
			t.Errorf("%s: counts %v, Kokkos's %v", name, c, wc)
		}
		if wo := want[name+" offsets"]; wo == nil || !slices.Equal(o, wo) {
			t.Errorf("%s: offsets %v, Kokkos's %v", name, o, wo)
		}
	}
}
