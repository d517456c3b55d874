package kerneltest

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// BenchmarkMDWrite times the side-by-side harness's 2-D write,
// a(i, j) = i/2 + j over a 4096 × 4096 view, as a Go kernel (MDWrite)
// and as a closure, against loops by hand on the same tiles and pool:
//
//   - plain: the loop over a line of the view, i/2 computed once per
//     line, as the kernel's host loops run it;
//   - plain-per-index: the same loop computing i/2 for every element,
//     as the host loops ran it before they computed it once per line;
//   - closure: ParallelForMD calling a closure (At and Set) per index;
//   - closure-by-hand: the same closure called per index from a loop by
//     hand, the least a call per index costs;
//   - set-by-hand: the closure's body (Set) written in that loop, no call.
func BenchmarkMDWrite(b *testing.B) {
	const n = 4096
	a := kokkos.Must(kokkos.NewView2[float64]("a", n, n))
	p := kokkos.MDRange([]int{0, 0}, []int{n, n})
	b.Run("kernel", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			if err := kernel.For("md", p, MDWrite, a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForTiles("md", p, func(lo, hi [2]int) {
				for i := lo[0]; i < hi[0]; i++ {
					row, x := a.Line(i)[lo[1]:hi[1]], float64(i)*0.5
					for j := range row {
						row[j] = x + float64(lo[1]+j)
					}
				}
			})
		}
	})
	b.Run("plain-per-index", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForTiles("md", p, func(lo, hi [2]int) {
				for i := lo[0]; i < hi[0]; i++ {
					row := a.Line(i)[lo[1]:hi[1]]
					for j := range row {
						row[j] = float64(float64(i)*0.5) + float64(lo[1]+j)
					}
				}
			})
		}
	})
	body := func(i, j int) { a.Set(i, j, float64(i)*0.5+float64(j)) }
	b.Run("closure", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForMD("md", p, body)
		}
	})
	b.Run("closure-by-hand", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		f := mdBody
		mdBody = body
		defer func() { mdBody = f }()
		for b.Loop() {
			kokkos.ParallelForTiles("md", p, func(lo, hi [2]int) {
				f := mdBody
				for i := lo[0]; i < hi[0]; i++ {
					for j := lo[1]; j < hi[1]; j++ {
						f(i, j)
					}
				}
			})
		}
	})
	b.Run("set-by-hand", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForTiles("md", p, func(lo, hi [2]int) {
				for i := lo[0]; i < hi[0]; i++ {
					for j := lo[1]; j < hi[1]; j++ {
						a.Set(i, j, float64(i)*0.5+float64(j))
					}
				}
			})
		}
	})
}

// mdBody holds the closure that closure-by-hand calls, so that the
// compiler cannot inline it.
var mdBody func(i, j int)
