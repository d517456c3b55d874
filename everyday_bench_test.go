package kokkos

import (
	"testing"
	"unsafe"
)

// Benchmarks of everyday operations, each next to a plain-Go baseline run
// in the same `go test -bench` invocation: a subview against slicing the
// same window out of the parent's slice, a small allocation against make
// of the same elements and a record of the Allocation's size, and
// ParallelScan with a per-index body against the serial loop (and
// BenchmarkInclusiveScanInt32, the scan without a body). The subview ones
// read the result's extent and data pointer, as code that goes on to use it
// would.

var sinkP uintptr

func BenchmarkSubview2of2(b *testing.B) {
	v, err := NewView2[float64]("sub2", 4096, 4096)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := v.Subview2(Pair(i&63, i&63+100), Pair(0, 200))
		n += w.Extent(0)
		sinkP ^= uintptr(unsafe.Pointer(unsafe.SliceData(w.Data())))
	}
	sinkF = float64(n)
}

func BenchmarkSubview1of3(b *testing.B) {
	v, err := NewView3[float64]("sub3", 64, 64, 64)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := v.Subview1(i&63, 3, All)
		n += w.Extent(0)
		sinkP ^= uintptr(unsafe.Pointer(unsafe.SliceData(w.Data())))
	}
	sinkF = float64(n)
}

// BenchmarkSubviewSliceBaseline is BenchmarkSubview2of2's window as a
// plain slice of the parent's elements, with its extents.
func BenchmarkSubviewSliceBaseline(b *testing.B) {
	v, err := NewView2[float64]("sub2", 4096, 4096)
	if err != nil {
		b.Fatal(err)
	}
	d := v.Data()
	n := 0
	for i := 0; b.Loop(); i++ {
		lo := i & 63
		w := d[lo*4096 : (lo+99)*4096+200]
		e0 := 100
		n += e0
		sinkP ^= uintptr(unsafe.Pointer(unsafe.SliceData(w)))
	}
	sinkF = float64(n)
}

func BenchmarkNewView1Small(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := NewView1[float64]("tmp", 1000)
		if err != nil {
			b.Fatal(err)
		}
		sinkP ^= uintptr(unsafe.Pointer(unsafe.SliceData(v.Data())))
	}
}

var (
	sinkSlice []float64
	sinkRec   *Allocation
)

// BenchmarkNewView1SmallBaseline allocates what NewView1Small does, with
// make and new: 1000 zeroed float64s and a record of an Allocation's size.
func BenchmarkNewView1SmallBaseline(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		d := make([]float64, 1000)
		sinkRec = &Allocation{label: "tmp", space: HostSpace, bytes: 8000, managed: true}
		sinkSlice = d
		sinkP ^= uintptr(unsafe.Pointer(unsafe.SliceData(d)))
	}
}

// BenchmarkScanSerialLoopInt32 is BenchmarkParallelScanInt32's scan as one
// serial loop: the baseline of the per-index body.
func BenchmarkScanSerialLoopInt32(b *testing.B) {
	n := 1 << 24
	x, y := make([]int32, n), make([]int32, n)
	for i := range x {
		x[i] = int32(i % 7)
	}
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		var acc int32
		for i, v := range x {
			acc += v
			y[i] = acc
		}
	}
}
