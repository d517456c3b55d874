package cuda

import (
	"fmt"
	"testing"

	kokkos "github.com/gokkos/kokkos"
)

// Benchmarks of the copy and fill kernels against the driver: a
// transposing DeepCopy against the contiguous device-to-device DeepCopy of
// the same bytes, and Fill against cuMemsetD32 of the same bytes. Each
// reports GB/s; the parent logs the ratio.

const copykernN = 16384

func benchView2(b *testing.B, label string, layout kokkos.Option) kokkos.View2[float64] {
	b.Helper()
	v, err := kokkos.NewView2[float64](label, copykernN, copykernN, kokkos.InSpace(Space), layout, kokkos.WithoutInitializing)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		d := kokkos.DynRankFrom[float64](v)
		if err := d.Release(); err != nil {
			b.Error(err)
		}
	})
	return v
}

// gbps runs f as sub-benchmark name, moving n bytes per call, and returns
// its rate in GB/s.
func gbps(b *testing.B, name string, n int64, f func() error) float64 {
	var rate float64
	b.Run(name, func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			if err := f(); err != nil {
				b.Fatal(err)
			}
		}
		rate = float64(n) * float64(b.N) / b.Elapsed().Seconds() / 1e9
		b.ReportMetric(rate, "GB/s")
	})
	return rate
}

// BenchmarkCopykernTranspose: 16384x16384 float64, LayoutLeft from
// LayoutRight, against a LayoutRight to LayoutRight copy.
func BenchmarkCopykernTranspose(b *testing.B) {
	gpu(b)
	src := benchView2(b, "src", kokkos.LayoutRight)
	right := benchView2(b, "right", kokkos.LayoutRight)
	left := benchView2(b, "left", kokkos.LayoutLeft)
	if err := kokkos.Fill(src, 1.25); err != nil {
		b.Fatal(err)
	}
	const n = int64(copykernN) * copykernN * 8
	d2d := gbps(b, "d2d", n, func() error { return kokkos.DeepCopy(right, src) })
	saved := transposeGroup
	for _, g := range []int{1, 8, 32} {
		transposeGroup = g
		gbps(b, fmt.Sprintf("transpose-group%d", g), n, func() error { return kokkos.DeepCopy(left, src) })
	}
	transposeGroup = saved
	tr := gbps(b, "transpose", n, func() error { return kokkos.DeepCopy(left, src) })
	sub := gbps(b, "transpose-subview", int64(copykernN-1)*(copykernN-1)*8, func() error {
		return kokkos.DeepCopy(left.Subview2(kokkos.Pair(1, copykernN), kokkos.Pair(0, copykernN-1)),
			src.Subview2(kokkos.Pair(0, copykernN-1), kokkos.Pair(1, copykernN)))
	})
	str := gbps(b, "strided-subview", int64(copykernN-1)*(copykernN-1)*8, func() error {
		return kokkos.DeepCopy(right.Subview2(kokkos.Pair(1, copykernN), kokkos.Pair(0, copykernN-1)),
			src.Subview2(kokkos.Pair(0, copykernN-1), kokkos.Pair(1, copykernN)))
	})
	if d2d > 0 {
		b.Logf("transpose %.1f GB/s, subview %.1f GB/s, strided subview %.1f GB/s, d2d copy %.1f GB/s: ratio %.3f, %.3f, %.3f",
			tr, sub, str, d2d, tr/d2d, sub/d2d, str/d2d)
	}
}

// BenchmarkCopykernFill: Fill of 16384x16384 float64 (a pattern whose
// halves differ, so not a 4-byte memset), whole and as a strided subview,
// against cuMemsetD32 of the same bytes.
func BenchmarkCopykernFill(b *testing.B) {
	dev := gpu(b)
	v := benchView2(b, "v", kokkos.LayoutRight)
	addr := kokkos.Describe[float64](v).Addr
	memset := func(bytes int64) func() error {
		return func() error {
			c, unlock, err := dev.bind()
			if err != nil {
				return err
			}
			defer unlock()
			if err := c.do("cuMemsetD32Async", "", dev.drv.cuMemsetD32Async, addr, 0x3ff80000, uintptr(bytes/4), 0); err != nil {
				return err
			}
			return c.do("cuStreamSynchronize", "", dev.drv.cuStreamSynchronize, 0)
		}
	}
	const n = int64(copykernN) * copykernN * 8
	const ns = int64(copykernN) * (copykernN - 1) * 8
	ms := gbps(b, "memsetD32", n, memset(n))
	fc := gbps(b, "fill", n, func() error { return kokkos.Fill(v, 1.5) })
	st, err := dev.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer st.Release()
	fo := gbps(b, "fillOn-stream", n, func() error {
		if err := kokkos.FillOn(st, v, 1.5); err != nil {
			return err
		}
		return st.Fence()
	})
	mss := gbps(b, "memsetD32-strided-bytes", ns, memset(ns))
	fs := gbps(b, "fill-strided", ns, func() error { return kokkos.Fill(v.Subview2(kokkos.All, kokkos.Pair(0, copykernN-1)), 1.5) })
	if ms > 0 && mss > 0 {
		b.Logf("memset %.1f GB/s; fill %.1f (%.3f), fillOn %.1f (%.3f); strided fill %.1f (%.3f of memset %.1f)", ms, fc, fc/ms, fo, fo/ms, fs, fs/mss, mss)
	}
}
