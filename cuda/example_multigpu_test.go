package cuda_test

import (
	"fmt"
	"log"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

// One loop and one reduction over [0, n) split across every GPU of the
// machine: device k gets part k of the range (cuda.Split), its own stream,
// and its part of the view, in its own memory. Each device fills its part
// and reduces it into a rank-0 view in its memory (cuda.ReduceInto), so
// the host queues the work on every device before it waits for any; then
// it fences each stream and joins the partial sums on the host in device
// order. Each device's sum is the same on every run, and so is the total
// for a given number of devices (it may differ in the last bits between
// one device and four, as the sum's grouping does). Without a GPU it says
// why and stops.
func Example_multiGPU() {
	ndev, err := cuda.DeviceCount()
	if err == nil && ndev == 0 {
		err = cuda.Available()
	}
	if err != nil {
		fmt.Println("CUDA unavailable:", err)
		return
	}
	const n = 1 << 26
	type part struct {
		s      *cuda.Stream
		lo, hi int
		x      kokkos.View1[float64] // x(i) is element lo+i of the whole
		sum    kokkos.View0[float64]
	}
	parts := make([]part, ndev)
	for k := range parts {
		p := &parts[k]
		dev, err := cuda.GetDevice(k)
		if err != nil {
			log.Fatal(err)
		}
		if p.s, err = dev.NewStream(); err != nil {
			log.Fatal(err)
		}
		defer p.s.Release()
		p.lo, p.hi = cuda.Split(0, n, ndev, k)
		in := kokkos.InSpace(cuda.SpaceOn(k))
		p.x = kokkos.Must(kokkos.NewView1[float64]("x", p.hi-p.lo, in))
		defer p.x.Release()
		p.sum = kokkos.Must(kokkos.NewView0[float64]("sum", in))
		defer p.sum.Release()
	}
	// Queue the work of every device; nothing here waits for a device.
	for _, p := range parts {
		r := kokkos.Range(0, p.hi-p.lo).On(p.s)
		err := cuda.ParallelFor("fill", r, `double k = lo + i + 1; x(i) = 1.0 / (k * k);`,
			cuda.Bind("x", p.x), cuda.Scalar("lo", p.lo))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := cuda.ParallelReduce("sum", r, cuda.Sum[float64](), `acc += x(i);`,
			cuda.Bind("x", p.x.ReadOnly()), cuda.ReduceInto(p.sum)); err != nil {
			log.Fatal(err)
		}
	}
	// Join in device order.
	total := 0.0
	for k, p := range parts {
		if err := p.s.Fence(); err != nil {
			log.Fatal(err)
		}
		h, err := kokkos.CreateMirrorViewAndCopy(p.sum)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("device %d: [%d, %d) sums to %.12f\n", k, p.lo, p.hi, h.At())
		total += h.At()
	}
	fmt.Printf("sum of 1/k² for k = 1 to %d: %.9f\n", n, total)
}
