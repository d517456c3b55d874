package cuda

import (
	"testing"
	"time"

	"github.com/ebitengine/purego"
	kokkos "github.com/gokkos/kokkos"
)

// BenchmarkPeerCopy copies 1 GiB from device 0 to device 1 with
// kokkos.DeepCopy and, in the same iterations, with a raw cuMemcpyPeer of
// the same bytes and with DeepCopyOn a stream of device 0, and reports the
// bandwidths and the ratio of DeepCopy's to the raw copy's (the goal is at
// least 0.95): once with peer access (peer), once with
// DeepCopy forced onto the path through pinned host memory (staged).
func BenchmarkPeerCopy(b *testing.B) {
	if err := Available(); err != nil {
		b.Skipf("CUDA unavailable: %v", err)
	}
	if n, _ := DeviceCount(); n < 2 {
		b.Skipf("CUDA unavailable: this benchmark needs 2 devices, the driver reports %d", n)
	}
	for _, staged := range []bool{false, true} {
		name := "peer"
		if staged {
			name = "staged"
		}
		b.Run(name, func(b *testing.B) {
			defer func(old bool) { forceStagedPeer.Store(old) }(forceStagedPeer.Swap(staged))
			benchPeerCopy(b)
		})
	}
}

func benchPeerCopy(b *testing.B) {
	const bytes = 1 << 30
	d0, err := GetDevice(0)
	if err != nil {
		b.Fatal(err)
	}
	d1, err := GetDevice(1)
	if err != nil {
		b.Fatal(err)
	}
	src, err := kokkos.NewView1[float64]("peer src", bytes/8, kokkos.InSpace(SpaceOn(0)))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Release()
	dst, err := kokkos.NewView1[float64]("peer dst", bytes/8, kokkos.InSpace(SpaceOn(1)))
	if err != nil {
		b.Fatal(err)
	}
	defer dst.Release()
	if err := kokkos.Fill(src, 1.5); err != nil {
		b.Fatal(err)
	}
	da, sa := dst.Allocation().Addr(), src.Allocation().Addr()
	raw := func() error {
		if r, _, _ := purego.SyscallN(d0.drv.cuMemcpyPeer, da, uintptr(d1.ctx), sa, uintptr(d0.ctx), bytes); r != 0 {
			return d0.drv.err("cuMemcpyPeer", r, "", "")
		}
		if err := d0.Synchronize(); err != nil {
			return err
		}
		return d1.Synchronize()
	}
	// Once each first: peer access, the stagers.
	if err := kokkos.DeepCopy(dst, src); err != nil {
		b.Fatal(err)
	}
	if err := raw(); err != nil {
		b.Fatal(err)
	}
	// DeepCopyOn a stream of the source device: the source's copy engine
	// pushes the bytes, where DeepCopy runs on the destination's.
	s0, err := d0.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s0.Release()
	onSrc := func() error {
		if err := kokkos.DeepCopyOn(s0, dst, src); err != nil {
			return err
		}
		return s0.Fence()
	}
	if err := onSrc(); err != nil {
		b.Fatal(err)
	}
	var deep, direct, pushed time.Duration
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := kokkos.DeepCopy(dst, src); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := raw(); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := onSrc(); err != nil {
			b.Fatal(err)
		}
		deep += t1.Sub(t0)
		direct += t2.Sub(t1)
		pushed += time.Since(t2)
	}
	b.StopTimer()
	gb := float64(bytes) * float64(b.N) / 1e9
	b.ReportMetric(gb/deep.Seconds(), "DeepCopy-GB/s")
	b.ReportMetric(gb/direct.Seconds(), "cuMemcpyPeer-GB/s")
	b.ReportMetric(gb/pushed.Seconds(), "DeepCopyOn-src-GB/s")
	b.ReportMetric(direct.Seconds()/deep.Seconds(), "DeepCopy/raw")
	var probe float64
	if err := kokkos.DeepCopyToScalar(&probe, dst.Subview0(bytes/8-1)); err != nil {
		b.Fatal(err)
	}
	if probe != 1.5 {
		b.Fatalf("the last element copied is %v, want 1.5", probe)
	}
}
