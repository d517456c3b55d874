package main

import (
	"fmt"
	"math/rand/v2"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

func init() {
	register(suite{name: "cuda", space: "cuda", run: runCUDA,
		desc: "DeepCopy and Fill of views in CUDA spaces vs the raw driver copy (-space cuda only)"})
}

// runCUDA times DeepCopy between views in CUDA spaces and the host against
// the driver's own copy of the same bytes. Without a usable driver it
// returns the error that lists where the driver was looked for.
func runCUDA(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	drv, err := openRawCUDA()
	if err != nil {
		return err
	}
	gbs := func(n int, sec float64) float64 { return float64(n) / sec / 1e9 }
	// Sizes in float64 elements, multiples of 512 (4 KiB).
	size := func(bytes int) int { return max(512, scaled(bytes/8, cfg.scale)&^511) }

	// Device → device.
	n := size(2 << 30)
	dst, err := kokkos.NewView1[float64]("dst", n, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	src, err := kokkos.NewView1[float64]("src", n, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	if err := kokkos.Fill(src, 1.2345); err != nil {
		return err
	}
	var cerr error
	run := func(f func() error) func() {
		return func() {
			if err := f(); err != nil && cerr == nil {
				cerr = err
			}
		}
	}
	da, sa, bytes := dst.Allocation().Addr(), src.Allocation().Addr(), n*8
	k, b, s := timeAlternating(cfg.reps,
		run(func() error { return kokkos.DeepCopy(dst, src) }),
		run(func() error { return drv.copy(da, sa, bytes) }))
	if cerr != nil {
		return cerr
	}
	add(measure{Name: fmt.Sprintf("DeepCopy device→device %d MiB", bytes>>20), Unit: "GB/s",
		Value: gbs(bytes, k), Baseline: gbs(bytes, b), samples: s, Goal: 0.97, GoalOp: ">=", Note: "baseline: cuMemcpy + cuCtxSynchronize"})

	// Fill.
	k, _, _ = timeAlternating(cfg.reps, run(func() error { return kokkos.Fill(dst, 2.5) }), nil)
	if cerr != nil {
		return cerr
	}
	add(measure{Name: fmt.Sprintf("Fill float64 device %d MiB", bytes>>20), Unit: "GB/s", Value: gbs(bytes, k)})
	if err := dst.Release(); err != nil {
		return err
	}
	if err := src.Release(); err != nil {
		return err
	}

	// Host → device, from pinned and pageable memory; device → pageable.
	n = size(1 << 30)
	bytes = n * 8
	d, err := kokkos.NewView1[float64]("d", n, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer d.Release()
	pinned, err := kokkos.NewView1[float64]("pinned", n, kokkos.InSpace(cuda.HostPinnedSpace))
	if err != nil {
		return err
	}
	defer pinned.Release()
	host, err := kokkos.NewView1[float64]("host", n)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, hd, pd := 0, host.Data(), pinned.Data(); i < n; i++ {
		hd[i] = rng.Float64() + 1
		pd[i] = hd[i]
	}
	pa, dAddr := uintptr(unsafe.Pointer(&pinned.Data()[0])), d.Allocation().Addr()
	k, b, s = timeAlternating(cfg.reps,
		run(func() error { return kokkos.DeepCopy(d, pinned) }),
		run(func() error { return drv.copy(dAddr, pa, bytes) }))
	if cerr != nil {
		return cerr
	}
	add(measure{Name: fmt.Sprintf("DeepCopy pinned→device %d MiB", bytes>>20), Unit: "GB/s",
		Value: gbs(bytes, k), Baseline: gbs(bytes, b), samples: s, Goal: 0.97, GoalOp: ">=", Note: "baseline: cuMemcpy"})

	hb := unsafe.Slice((*byte)(unsafe.Pointer(&host.Data()[0])), bytes)
	k, b, s = timeAlternating(cfg.reps,
		run(func() error { return kokkos.DeepCopy(d, host) }),
		run(func() error { return drv.copyFromHost(dAddr, hb) }))
	if cerr != nil {
		return cerr
	}
	add(measure{Name: fmt.Sprintf("DeepCopy Go memory→device %d MiB", bytes>>20), Unit: "GB/s",
		Value: gbs(bytes, k), Baseline: gbs(bytes, b), samples: s, Goal: 3, GoalOp: ">=", Note: "baseline: cuMemcpyHtoD from the same pageable memory"})

	k, b, s = timeAlternating(cfg.reps,
		run(func() error { return kokkos.DeepCopy(host, d) }),
		run(func() error { return drv.copyToHost(hb, dAddr) }))
	if cerr != nil {
		return cerr
	}
	add(measure{Name: fmt.Sprintf("DeepCopy device→Go memory %d MiB", bytes>>20), Unit: "GB/s",
		Value: gbs(bytes, k), Baseline: gbs(bytes, b), samples: s, Goal: 1.5, GoalOp: ">=", Note: "baseline: cuMemcpyDtoH to the same pageable memory"})
	return nil
}
