package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// BenchmarkYAx times y = A x over rows of A: the kernel whose inner loop
// is checked once per row (kernel), the same with each access checked
// (each: the host code before), and a loop by hand over the slices.
func BenchmarkYAx(b *testing.B) {
	const n, m = 4096, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	A := kokkos.Must(kokkos.NewView2[float64]("A", n, m))
	x := kokkos.Must(kokkos.NewView1[float64]("x", m))
	y := kokkos.Must(kokkos.NewView1[float64]("y", n))
	fill(A, randFloat[float64](rng, -1, 1))
	fill(x, randFloat[float64](rng, -1, 1))
	p := kokkos.Range(0, n)
	run := func(name string, fn any, args ...any) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(8 * n * m)
			for b.Loop() {
				if err := kernel.For("yax", p, fn, args...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("kernel", YAx, y, A, x, m)
	run("kernel-extent", YAxExt, y, A, x)
	run("each", YAxEach, y, A, x, m)
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(8 * n * m)
		a, xd, yd := A.Data(), x.Data(), y.Data()
		for b.Loop() {
			kokkos.ParallelForChunks("yax", p, func(lo, hi int) {
				xd := xd[:m]
				for i := lo; i < hi; i++ {
					row := a[i*m : (i+1)*m]
					s := 0.0
					for j, v := range row {
						s += float64(v * xd[j])
					}
					yd[i] = s
				}
			})
		}
	})
}

// mdSystem is n particles in a box with k neighbors each, drawn near
// their own index, as a neighbor list sorted in space gives them.
func mdSystem(n, k int, lay kokkos.Option) (x, f kokkos.View2[float64], neigh kokkos.View2[int32]) {
	rng := rand.New(rand.NewPCG(3, 4))
	x = kokkos.Must(kokkos.NewView2[float64]("x", n, 3, lay))
	f = kokkos.Must(kokkos.NewView2[float64]("f", n, 3, lay))
	neigh = kokkos.Must(kokkos.NewView2[int32]("neigh", n, k))
	fill(x, randFloat[float64](rng, 0, 20))
	for i := range n {
		for c := range k {
			j := (i + 1 + rng.IntN(256)) % n
			neigh.Set(i, c, int32(j))
		}
	}
	return x, f, neigh
}

// BenchmarkForce times the gather of an MD force kernel: the kernel with
// its checks, marked nocheck, and by hand over slices.
func BenchmarkForce(b *testing.B) {
	const n, k = 1 << 15, 32
	x, f, neigh := mdSystem(n, k, kokkos.LayoutRight)
	p := kokkos.Range(0, n)
	const cut2 = 6.25
	b.Run("checked", func(b *testing.B) {
		for b.Loop() {
			if err := kernel.For("force", p, Force, f, x, neigh, k, cut2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("nocheck", func(b *testing.B) {
		for b.Loop() {
			if err := kernel.For("force", p, ForceNocheck, f, x, neigh, k, cut2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		xd, fd, nd := x.Data(), f.Data(), neigh.Data()
		for b.Loop() {
			kokkos.ParallelForChunks("force", p, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					xi, yi, zi := xd[3*i], xd[3*i+1], xd[3*i+2]
					var fx, fy, fz float64
					for _, j := range nd[i*k : (i+1)*k] {
						dx, dy, dz := xi-xd[3*j], yi-xd[3*j+1], zi-xd[3*j+2]
						r2 := float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
						if r2 < cut2 {
							r2i := 1 / r2
							r6i := float64(float64(r2i*r2i) * r2i)
							s := float64(float64(float64(48*r6i)*(r6i-0.5)) * r2i)
							fx += float64(dx * s)
							fy += float64(dy * s)
							fz += float64(dz * s)
						}
					}
					fd[3*i], fd[3*i+1], fd[3*i+2] = fx, fy, fz
				}
			})
		}
	})
}

// BenchmarkNorm3 times the length of each row of an (N, 3) view of
// positions, of either layout, against a loop by hand over a []float64
// of stride 3.
func BenchmarkNorm3(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	r := kokkos.Must(kokkos.NewView1[float64]("r", n))
	for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
		x := kokkos.Must(kokkos.NewView2[float64]("x", n, 3, lay))
		fill(x, randFloat[float64](rng, -1, 1))
		b.Run(fmt.Sprint(lay)+"/kernel", func(b *testing.B) {
			for b.Loop() {
				if err := kernel.For("norm3", kokkos.Range(0, n), Norm3, r, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	x := kokkos.Must(kokkos.NewView2[float64]("x", n, 3))
	b.Run("plain", func(b *testing.B) {
		xd, rd := x.Data(), r.Data()
		for b.Loop() {
			kokkos.ParallelForChunks("norm3", kokkos.Range(0, n), func(lo, hi int) {
				xd := xd[3*lo : 3*hi]
				for i := range rd[lo:hi] {
					x0, x1, x2 := xd[3*i], xd[3*i+1], xd[3*i+2]
					rd[lo+i] = math.Sqrt(float64(x0*x0) + float64(x1*x1) + float64(x2*x2))
				}
			})
		}
	})
}
