package kernel

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"unsafe"
)

// The benchmarks of the elementwise helpers of stream.go against the
// loops the generator wrote before them (the unit-stride copy of a
// chunk: a load and store at base plus i times 8), float64, in the
// first-level cache (1024 elements) and in memory (4M elements, 32 MiB
// an array, 96 MiB in all, past the 32 MiB last-level cache): loop, the
// helper as vectors with plain stores (vector) and, for destinations of
// streamBytes or more, with non-temporal stores (stream, the default).
// b.SetBytes counts the bytes the kernel reads and writes, as STREAM
// counts them.

//go:noinline
func loopCopy(c, a unsafe.Pointer, n int) {
	for i := 0; i < n; i++ {
		*(*float64)(unsafe.Add(c, i*8)) = *(*float64)(unsafe.Add(a, i*8))
	}
}

//go:noinline
func loopScale(c, a unsafe.Pointer, s float64, n int) {
	for i := 0; i < n; i++ {
		*(*float64)(unsafe.Add(c, i*8)) = float64(s * *(*float64)(unsafe.Add(a, i*8)))
	}
}

//go:noinline
func loopAdd(c, a, b unsafe.Pointer, n int) {
	for i := 0; i < n; i++ {
		*(*float64)(unsafe.Add(c, i*8)) = *(*float64)(unsafe.Add(a, i*8)) + *(*float64)(unsafe.Add(b, i*8))
	}
}

//go:noinline
func loopTriad(c, a, b unsafe.Pointer, s float64, n int) {
	for i := 0; i < n; i++ {
		*(*float64)(unsafe.Add(c, i*8)) = *(*float64)(unsafe.Add(a, i*8)) + float64(s**(*float64)(unsafe.Add(b, i*8)))
	}
}

//go:noinline
func loopNstream(c, a, b unsafe.Pointer, s float64, n int) {
	for i := 0; i < n; i++ {
		*(*float64)(unsafe.Add(c, i*8)) += *(*float64)(unsafe.Add(a, i*8)) + float64(s**(*float64)(unsafe.Add(b, i*8)))
	}
}

func BenchmarkStream(b *testing.B) {
	for _, n := range []int{1024, 4 << 20} {
		x, y, z := benchF64(n), benchF64(n), benchF64(n)
		pa, pb, pc := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), unsafe.Pointer(&z[0])
		const s = 0.4
		for _, k := range []struct {
			name   string
			bytes  int
			loop   func()
			helper func()
		}{
			{"copy", 16, func() { loopCopy(pc, pa, n) }, func() { Copy[float64](pc, pa, n) }},
			{"scale", 16, func() { loopScale(pc, pa, s, n) }, func() { ScaleFloat64(pc, pa, s, n) }},
			{"add", 24, func() { loopAdd(pc, pa, pb, n) }, func() { AddFloat64(pc, pa, pb, n) }},
			{"triad", 24, func() { loopTriad(pc, pa, pb, s, n) }, func() { TriadFloat64(pc, pa, pb, s, n) }},
			{"nstream", 32, func() { loopNstream(pc, pa, pb, s, n) }, func() { NstreamFloat64(pc, pa, pb, s, n) }},
		} {
			run := func(name string, f func(), stream int) {
				b.Run(fmt.Sprintf("%s/%d/%s", k.name, n, name), func(b *testing.B) {
					defer func(s int) { streamBytes = s }(streamBytes)
					streamBytes = stream
					b.SetBytes(int64(k.bytes * n))
					for b.Loop() {
						f()
					}
				})
			}
			run("loop", k.loop, streamBytes)
			run("vector", k.helper, math.MaxInt)
			if n*8 >= streamBytes && k.name != "copy" {
				run("stream", k.helper, streamBytes)
			}
		}
	}
}

//go:noinline
func loopDot(s float64, a, b unsafe.Pointer, n int) float64 {
	for i := 0; i < n; i++ {
		s += float64(*(*float64)(unsafe.Add(a, i*8)) * *(*float64)(unsafe.Add(b, i*8)))
	}
	return s
}

var sinkDot float64

// BenchmarkDotOrdered is the dot product of kernels not marked fastmath:
// the loop the generator wrote before it, and DotOrderedFloat64, which
// adds in the loop's order (its bits); 1024 elements, and 16M (128 MiB an
// array) on one goroutine and split in halves between two, as a kernel's
// chunks run on two cores.
func BenchmarkDotOrdered(b *testing.B) {
	for _, n := range []int{1024, 16 << 20} {
		x, y := benchF64(n), benchF64(n)
		pa, pb := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
		for _, k := range []struct {
			name string
			f    func(float64, unsafe.Pointer, unsafe.Pointer, int) float64
		}{{"loop", loopDot}, {"ordered", DotOrderedFloat64}} {
			b.Run(fmt.Sprintf("%d/%s", n, k.name), func(b *testing.B) {
				b.SetBytes(int64(16 * n))
				for b.Loop() {
					sinkDot = k.f(sinkDot, pa, pb, n)
				}
			})
			if n < 1<<20 {
				continue
			}
			b.Run(fmt.Sprintf("%d/%s/2", n, k.name), func(b *testing.B) {
				b.SetBytes(int64(16 * n))
				h := n / 2
				var r [2]float64
				for b.Loop() {
					var wg sync.WaitGroup
					for g := range 2 {
						wg.Go(func() { r[g] = k.f(0, unsafe.Add(pa, g*h*8), unsafe.Add(pb, g*h*8), h) })
					}
					wg.Wait()
					sinkDot += r[0] + r[1]
				}
			})
		}
	}
}
