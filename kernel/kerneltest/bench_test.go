package kerneltest

import (
	"fmt"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

// The benchmarks time each kernel against the same loop written by hand:
// plain Go over the views' slices, in chunks on the same pool (the
// baseline), and, for the per-index form Kokkos code is written in, a
// closure calling At and Set.

const benchN = 1 << 22

func BenchmarkTriad(b *testing.B) {
	a, _ := kokkos.NewView1[float64]("a", benchN)
	x, _ := kokkos.NewView1[float64]("b", benchN)
	y, _ := kokkos.NewView1[float64]("c", benchN)
	kokkos.Fill(x, 1.5)
	kokkos.Fill(y, 2.5)
	b.Run("kernel", func(b *testing.B) {
		b.SetBytes(3 * 8 * benchN)
		for b.Loop() {
			if err := kernel.For("triad", kokkos.Range(0, benchN), Triad, a, x, y, 2.0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(3 * 8 * benchN)
		ad, xd, yd := a.Data(), x.Data(), y.Data()
		s := 2.0
		for b.Loop() {
			kokkos.ParallelForChunks("triad", kokkos.Range(0, benchN), func(lo, hi int) {
				ad, xd, yd := ad[lo:hi], xd[lo:hi], yd[lo:hi]
				for i := range ad {
					ad[i] = xd[i] + s*yd[i]
				}
			})
		}
	})
	b.Run("closure", func(b *testing.B) {
		b.SetBytes(3 * 8 * benchN)
		s := 2.0
		for b.Loop() {
			kokkos.ParallelFor("triad", kokkos.Range(0, benchN), func(i int) { a.Set(i, x.At(i)+s*y.At(i)) })
		}
	})
}

func BenchmarkStencil7(b *testing.B) {
	const n = 128
	in, _ := kokkos.NewView3[float64]("in", n, n, n)
	out, _ := kokkos.NewView3[float64]("out", n, n, n)
	kokkos.Fill(in, 1.25)
	p := kokkos.MDRange([]int{0, 0, 0}, []int{n, n, n})
	h := 0.5
	interior := kokkos.MDRange([]int{1, 1, 1}, []int{n - 1, n - 1, n - 1})
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			if err := kernel.For("stencil", interior, Lap7, out, in, h*h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kernel-guarded", func(b *testing.B) {
		for b.Loop() {
			if err := kernel.For("stencil", p, Stencil7, out, in, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		o, x := out.Data(), in.Data()
		for b.Loop() {
			kokkos.ParallelForChunks("stencil", kokkos.Range(1, n-1), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					for j := 1; j < n-1; j++ {
						for k := 1; k < n-1; k++ {
							c := (i*n+j)*n + k
							s := x[c-n*n] + x[c+n*n] + x[c-n] + x[c+n] + x[c-1] + x[c+1]
							o[c] = (s - float64(6*x[c])) / (h * h)
						}
					}
				}
			})
		}
	})
	b.Run("closure", func(b *testing.B) {
		for b.Loop() {
			kokkos.ParallelForMD("stencil", p, func(i, j, k int) { Stencil7(i, j, k, out, in, h) })
		}
	})
}

// The GPU benchmarks time each translated kernel against the same body
// written by hand in CUDA C through cuda.ParallelFor, on one stream,
// fencing after each launch.

func gpuStream(b *testing.B) *cuda.Stream {
	if err := cuda.Available(); err != nil {
		b.Skipf("CUDA unavailable: %v", err)
	}
	st, err := cuda.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Release() })
	return st
}

func BenchmarkTriadCUDA(b *testing.B) {
	st := gpuStream(b)
	const n = 1 << 25
	a, _ := kokkos.NewView1[float64]("a", n, kokkos.InSpace(cuda.Space))
	x, _ := kokkos.NewView1[float64]("b", n, kokkos.InSpace(cuda.Space))
	y, _ := kokkos.NewView1[float64]("c", n, kokkos.InSpace(cuda.Space))
	kokkos.Fill(x, 1.5)
	kokkos.Fill(y, 2.5)
	p := kokkos.Range(0, n).On(st)
	b.Run("kernel", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		for b.Loop() {
			if err := kernel.For("triad", p, Triad, a, x, y, 2.0); err != nil {
				b.Fatal(err)
			}
			st.Fence()
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		for b.Loop() {
			if err := cuda.ParallelFor("triad", p, `a(i) = b(i) + s * c(i);`,
				cuda.Bind("a", a), cuda.Bind("b", x), cuda.Bind("c", y), cuda.Scalar("s", 2.0), cuda.FMAD(false)); err != nil {
				b.Fatal(err)
			}
			st.Fence()
		}
	})
}

func BenchmarkSetCCUDA(b *testing.B) {
	st := gpuStream(b)
	const n0, n1 = 8192, 8192
	for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
		c, _ := kokkos.NewView2[float64]("c", n0, n1, lay, kokkos.InSpace(cuda.Space))
		x, _ := kokkos.NewView1[float64]("a", n0, kokkos.InSpace(cuda.Space))
		y, _ := kokkos.NewView1[float64]("b", n1, kokkos.InSpace(cuda.Space))
		kokkos.Fill(x, 1.5)
		kokkos.Fill(y, 2.5)
		p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).On(st)
		name := fmt.Sprint(lay)
		b.Run(name+"/kernel", func(b *testing.B) {
			b.SetBytes(8 * n0 * n1)
			for b.Loop() {
				if err := kernel.For("setc", p, SetC, c, x, y); err != nil {
					b.Fatal(err)
				}
				st.Fence()
			}
		})
		b.Run(name+"/handwritten", func(b *testing.B) {
			b.SetBytes(8 * n0 * n1)
			for b.Loop() {
				if err := cuda.ParallelFor("setc", p, `c(i0, i1) = a(i0) * b(i1);`,
					cuda.Bind("c", c), cuda.Bind("a", x), cuda.Bind("b", y), cuda.FMAD(false)); err != nil {
					b.Fatal(err)
				}
				st.Fence()
			}
		})
	}
}
