package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

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

// BenchmarkAxpy3 times y += a x on (N, 3) views of either layout, small
// enough for the caches, against a loop by hand over []float64 of stride
// 3.
func BenchmarkAxpy3(b *testing.B) {
	const n = 1 << 14
	rng := rand.New(rand.NewPCG(7, 8))
	for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
		x := kokkos.Must(kokkos.NewView2[float64]("x", n, 3, lay))
		y := kokkos.Must(kokkos.NewView2[float64]("y", n, 3, lay))
		fill(x, randFloat[float64](rng, -1, 1))
		b.Run(fmt.Sprint(lay)+"/kernel", func(b *testing.B) {
			for b.Loop() {
				if err := kernel.For("axpy3", kokkos.Range(0, n), Axpy3, y, x, 1e-3); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	x := kokkos.Must(kokkos.NewView2[float64]("x", n, 3))
	y := kokkos.Must(kokkos.NewView2[float64]("y", n, 3))
	b.Run("plain", func(b *testing.B) {
		xd, yd := x.Data(), y.Data()
		a := 1e-3
		for b.Loop() {
			kokkos.ParallelForChunks("axpy3", kokkos.Range(0, n), func(lo, hi int) {
				xd, yd := xd[3*lo:3*hi], yd[3*lo:3*hi]
				for i := 0; i < len(yd) && i < len(xd); i += 3 {
					yd[i] += float64(a * xd[i])
					yd[i+1] += float64(a * xd[i+1])
					yd[i+2] += float64(a * xd[i+2])
				}
			})
		}
	})
}

// variant is one way to compute a benchmark's result.
type variant struct {
	name string
	run  func()
}

// interleave times the variants in turns, reps runs each per turn, for
// rounds turns, so that a load that varies over the run weighs on each
// alike, and reports the median time of a run of each (name-ns/op) and
// its ratio to the first variant's (name/first).
func interleave(b *testing.B, rounds, reps int, vs ...variant) {
	times := make([][]float64, len(vs))
	for b.Loop() {
		for range rounds {
			for k, v := range vs {
				t0 := time.Now()
				for range reps {
					v.run()
				}
				times[k] = append(times[k], float64(time.Since(t0).Nanoseconds())/float64(reps))
			}
		}
	}
	med := make([]float64, len(vs))
	for k, v := range vs {
		slices.Sort(times[k])
		med[k] = times[k][len(times[k])/2]
		b.ReportMetric(med[k], v.name+"-ns/op")
		if k > 0 {
			b.ReportMetric(med[k]/med[0], v.name+"/"+vs[0].name)
		}
	}
	b.ReportMetric(0, "ns/op")
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// BenchmarkChecksRatios times, in turns, each kernel of the checks against
// its loop by hand (plain, the first of each): y = A x (4096 × 4096) with
// its loop checked once (kernel), each access checked (each: the code
// generated before), and over A's extent; the MD force gather (32768
// particles, 32 neighbors) checked and nocheck; y += a x on (N, 3) views
// of either layout, in the caches. Run it with -benchtime 1x.
func BenchmarkChecksRatios(b *testing.B) {
	b.Run("yax", func(b *testing.B) {
		const n, m = 4096, 4096
		rng := rand.New(rand.NewPCG(1, 2))
		A := kokkos.Must(kokkos.NewView2[float64]("A", n, m))
		x := kokkos.Must(kokkos.NewView1[float64]("x", m))
		y := kokkos.Must(kokkos.NewView1[float64]("y", n))
		fill(A, randFloat[float64](rng, -1, 1))
		fill(x, randFloat[float64](rng, -1, 1))
		p := kokkos.Range(0, n)
		a, xd, yd := A.Data(), x.Data(), y.Data()
		interleave(b, 15, 2,
			variant{"plain", func() {
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
			}},
			variant{"kernel", func() { must(kernel.For("yax", p, YAx, y, A, x, m)) }},
			variant{"extent", func() { must(kernel.For("yax", p, YAxExt, y, A, x)) }},
			variant{"each", func() { must(kernel.For("yax", p, YAxEach, y, A, x, m)) }},
		)
	})
	b.Run("scalerows", func(b *testing.B) {
		const n, m = 64, 512
		rng := rand.New(rand.NewPCG(9, 10))
		x := kokkos.Must(kokkos.NewView2[float64]("x", n, m))
		y := kokkos.Must(kokkos.NewView2[float64]("y", n, m))
		fill(x, randFloat[float64](rng, -1, 1))
		p := kokkos.Range(0, n)
		xd, yd := x.Data(), y.Data()
		const a = 1.5
		interleave(b, 25, 200,
			variant{"plain", func() {
				kokkos.ParallelForChunks("scalerows", p, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						xr, yr := xd[i*m:(i+1)*m], yd[i*m:(i+1)*m]
						for j, v := range xr {
							yr[j] = float64(a * v)
						}
					}
				})
			}},
			variant{"kernel", func() { must(kernel.For("scalerows", p, ScaleRows, y, x, a, m)) }},
		)
	})
	b.Run("force", func(b *testing.B) {
		const n, k = 1 << 15, 32
		const cut2 = 6.25
		x, f, neigh := mdSystem(n, k, kokkos.LayoutRight)
		p := kokkos.Range(0, n)
		xd, fd, nd := x.Data(), f.Data(), neigh.Data()
		interleave(b, 15, 3,
			variant{"plain", func() {
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
			}},
			variant{"checked", func() { must(kernel.For("force", p, Force, f, x, neigh, k, cut2)) }},
			variant{"nocheck", func() { must(kernel.For("force", p, ForceNocheck, f, x, neigh, k, cut2)) }},
		)
	})
	b.Run("axpy3", func(b *testing.B) {
		const n = 1 << 14
		rng := rand.New(rand.NewPCG(7, 8))
		xr := kokkos.Must(kokkos.NewView2[float64]("x", n, 3))
		yr := kokkos.Must(kokkos.NewView2[float64]("y", n, 3))
		xl := kokkos.Must(kokkos.NewView2[float64]("x", n, 3, kokkos.LayoutLeft))
		yl := kokkos.Must(kokkos.NewView2[float64]("y", n, 3, kokkos.LayoutLeft))
		x4 := kokkos.Must(kokkos.NewView2[float64]("x", n, 4))
		y4 := kokkos.Must(kokkos.NewView2[float64]("y", n, 4))
		xs, ys := x4.Subview2(kokkos.All, kokkos.Pair(0, 3)), y4.Subview2(kokkos.All, kokkos.Pair(0, 3))
		for _, v := range []kokkos.View2[float64]{xr, xl, xs} {
			fill(v, randFloat[float64](rng, -1, 1))
		}
		p := kokkos.Range(0, n)
		xd, yd := xr.Data(), yr.Data()
		const a = 1e-3
		interleave(b, 25, 200,
			variant{"plain", func() {
				kokkos.ParallelForChunks("axpy3", p, func(lo, hi int) {
					xd, yd := xd[3*lo:3*hi], yd[3*lo:3*hi]
					for i := 0; i < len(yd) && i < len(xd); i += 3 {
						yd[i] += float64(a * xd[i])
						yd[i+1] += float64(a * xd[i+1])
						yd[i+2] += float64(a * xd[i+2])
					}
				})
			}},
			variant{"right", func() { must(kernel.For("axpy3", p, Axpy3, yr, xr, a)) }},
			variant{"left", func() { must(kernel.For("axpy3", p, Axpy3, yl, xl, a)) }},
			variant{"rows-of-4", func() { must(kernel.For("axpy3", p, Axpy3, ys, xs, a)) }},
		)
	})
}
