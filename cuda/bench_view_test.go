package cuda

import (
	"testing"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
)

// Deep copies through the view API against the raw driver copy of the
// same bytes, in the same run (see docs/guide/cuda.md for the figures).

func benchViews(b *testing.B, n int, srcSpace kokkos.MemorySpace) (dst, src kokkos.View1[float64]) {
	gpu(b)
	var err error
	if dst, err = kokkos.NewView1[float64]("dst", n/8, kokkos.InSpace(Space)); err != nil {
		b.Fatal(err)
	}
	if src, err = kokkos.NewView1[float64]("src", n/8, kokkos.InSpace(srcSpace)); err != nil {
		b.Fatal(err)
	}
	if srcSpace.HostAccessible() {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&src.Data()[0])), n), randBytes(n, 11))
	} else if err := kokkos.Fill(src, 1.2345); err != nil {
		b.Fatal(err)
	}
	return dst, src
}

func benchPair(b *testing.B, n int, raw func() error, dst, src kokkos.View1[float64]) {
	b.Run("raw", func(b *testing.B) {
		b.SetBytes(int64(n))
		for b.Loop() {
			if err := raw(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.SetBytes(int64(n))
		for b.Loop() {
			if err := kokkos.DeepCopy(dst, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	if err := dst.Release(); err != nil {
		b.Fatal(err)
	}
	if err := src.Release(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkViewDeviceToDevice2GiB(b *testing.B) {
	const n = 2 << 30
	dst, src := benchViews(b, n, Space)
	da, sa := dst.Allocation().Addr(), src.Allocation().Addr()
	benchPair(b, n, func() error { return driverCopy(da, sa, n) }, dst, src)
}

func BenchmarkViewPinnedToDevice1GiB(b *testing.B) {
	const n = 1 << 30
	dst, src := benchViews(b, n, HostPinnedSpace)
	da, sa := dst.Allocation().Addr(), src.Allocation().Addr()
	benchPair(b, n, func() error { return driverCopy(da, sa, n) }, dst, src)
}

func BenchmarkViewPageableToDevice1GiB(b *testing.B) {
	const n = 1 << 30
	dst, src := benchViews(b, n, kokkos.HostSpace)
	da := dst.Allocation().Addr()
	host := unsafe.Slice((*byte)(unsafe.Pointer(&src.Data()[0])), n)
	benchPair(b, n, func() error { return driverCopyFromHost(da, host) }, dst, src)
}
