package main

import "testing"

func TestLoadClassifies(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func Triad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func Dot(i int, a, b kokkos.View1[float64], acc *float64) { *acc += a.At(i) * b.At(i) }

//kokkos:kernel
func Scan(i int, in, out kokkos.View1[int64], acc *int64, final bool) {
	*acc += in.At(i)
	if final {
		out.Set(i, *acc)
	}
}

//kokkos:kernel
func SetC(i, j int, c kokkos.View2[float64], a, b kokkos.View1[float64]) { c.Set(i, j, a.At(i)*b.At(j)) }

//kokkos:kernel
func lerp(a, b, t float64) float64 { return a + t*(b-a) }
`})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name    string
		helper  bool
		pat     pattern
		nIdx    int
		nParams int
	}{
		{"Triad", false, patFor, 1, 4}, {"Dot", false, patReduce, 1, 2}, {"Scan", false, patScan, 1, 2},
		{"SetC", false, patFor, 2, 3}, {"lerp", true, patFor, 0, 3},
	}
	if len(p.kernels) != len(want) {
		t.Fatalf("%d kernels, want %d", len(p.kernels), len(want))
	}
	for n, w := range want {
		k := p.kernels[n]
		if k.name != w.name || k.helper != w.helper || k.pattern != w.pat || len(k.index) != w.nIdx || len(k.params) != w.nParams {
			t.Errorf("kernel %d: %s helper %v pattern %d %d indices %d params; want %+v", n, k.name, k.helper, k.pattern, len(k.index), len(k.params), w)
		}
	}
}
