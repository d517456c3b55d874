package kerneltest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// BenchmarkSIMDKernels times kernels whose inner loops call the vector
// helpers (run it with and without GOEXPERIMENT=simd): y = A x as YAx
// (the scalar loop: no fastmath) and DotFast, an int32 row sum and dot
// product (SumDotInts, which also sums int64 rows), and c = a + b - b
// (MapsF64), over rows of 1024 columns: 256 rows (2 MiB, in cache) and
// 4096 (32 MiB a matrix).
func BenchmarkSIMDKernels(b *testing.B) {
	const m = 1024
	for _, n := range []int{256, 4096} {
		rng := rand.New(rand.NewPCG(1, 2))
		A := kokkos.Must(kokkos.NewView2[float64]("A", n, m))
		B := kokkos.Must(kokkos.NewView2[float64]("B", n, m))
		C := kokkos.Must(kokkos.NewView2[float64]("C", n, m))
		x := kokkos.Must(kokkos.NewView1[float64]("x", m))
		y := kokkos.Must(kokkos.NewView1[float64]("y", n))
		fill(A, randFloat[float64](rng, -1, 1))
		fill(B, randFloat[float64](rng, -1, 1))
		fill(x, randFloat[float64](rng, -1, 1))
		ia := kokkos.Must(kokkos.NewView2[int32]("ia", n, m))
		ib := kokkos.Must(kokkos.NewView2[int32]("ib", n, m))
		la := kokkos.Must(kokkos.NewView2[int64]("la", n, m))
		out := kokkos.Must(kokkos.NewView2[int64]("out", n, 4))
		fill(ia, func() int32 { return rng.Int32N(1000) })
		fill(ib, func() int32 { return rng.Int32N(1000) })
		p := kokkos.Range(0, n)
		run := func(name string, fn any, args ...any) {
			b.Run(fmt.Sprintf("%s/rows=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if err := kernel.For(name, p, fn, args...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		run("yax", YAx, y, A, x, m)
		run("dotfast", DotFast, y, A, x, 0, m)
		run("sumdotints", SumDotInts, out, ia, ib, la, la, m)
		run("maps", MapsF64, C, A, B, 0, m)
	}
}
