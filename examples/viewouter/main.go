// Command viewouter is the Kokkos View page's example in Go: it fills
// a(i) = i and b(i) = i, computes the outer product c(i0, i1) = a(i0)*b(i1)
// into a LayoutLeft view through read-only views of a and b with an MDRange
// loop (iterating left, to match the layout), and checks the sum of c, a
// reduction, against the closed form.
//
//	go run ./examples/viewouter -n0 300 -n1 200
//	go run ./examples/viewouter -space cuda    # the same on the GPU, checked against the host
//
// The loop bodies are written once, as the //kokkos:kernel functions InitA,
// InitB, SetC and SumC, which go generate compiles into host loops and CUDA
// C (viewouter_kernels_gen.go). kernel.For and kernel.Reduce run them on
// the host pool, or, with -space cuda, on a cuda stream over views in
// cuda.Space; the GPU's C is then copied back with
// kokkos.CreateMirrorViewAndCopy and compared, element by element, with the
// host's. Every value is an integer held exactly by a float64: the products
// i0*i1 and every partial sum stay below 2^53 while the total does, so the
// sum is exact whatever the order of the additions, and host and device
// print the same checksum and the same C.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// InitA sets a(i) = i.
//
//kokkos:kernel
func InitA(i int, a kokkos.View1[float64]) { a.Set(i, float64(i)) }

// InitB sets b(i) = i.
//
//kokkos:kernel
func InitB(i int, b kokkos.View1[float64]) { b.Set(i, float64(i)) }

// SetC sets c(i0, i1) = a(i0)*b(i1).
//
//kokkos:kernel
func SetC(i0, i1 int, c kokkos.View2[float64], a, b kokkos.View1[float64]) {
	c.Set(i0, i1, a.At(i0)*b.At(i1))
}

// SumC adds c(i0, i1) to the sum.
//
//kokkos:kernel
func SumC(i0, i1 int, c kokkos.View2[float64], acc *float64) { *acc += c.At(i0, i1) }

func main() {
	n0 := flag.Int("n0", 1000, "extent of a")
	n1 := flag.Int("n1", 800, "extent of b")
	space := flag.String("space", "host", "where the views live and the loops run: host or cuda (checked against the host)")
	flag.Parse()
	var err error
	switch *space {
	case "host":
		err = run(*n0, *n1)
	case "cuda":
		err = runCUDA(*n0, *n1)
	default:
		err = fmt.Errorf("unknown -space %q: use host or cuda", *space)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "viewouter:", err)
		os.Exit(1)
	}
}

// run computes C on the host pool and checks its sum.
func run(n0, n1 int) error {
	c, sum, err := outer(n0, n1, nil)
	if err != nil {
		return err
	}
	return report(c.Extent(0), c.Extent(1), c.Layout(), sum)
}

// runCUDA computes C on a GPU stream and checks its sum, then computes it
// on the host too and checks that the two agree exactly.
func runCUDA(n0, n1 int) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	st, err := cuda.NewStream()
	if err != nil {
		return err
	}
	defer st.Release()
	dc, dsum, err := outer(n0, n1, st)
	if err != nil {
		return err
	}
	if err := report(dc.Extent(0), dc.Extent(1), dc.Layout(), dsum); err != nil {
		return err
	}
	hc, hsum, err := outer(n0, n1, nil)
	if err != nil {
		return err
	}
	if err := same(hc, dc); err != nil {
		return err
	}
	if hsum != dsum {
		return fmt.Errorf("host and GPU differ: sum %v on the host, %v on the GPU", hsum, dsum)
	}
	fmt.Println("host and GPU agree: C and its sum are identical")
	return nil
}

// outer fills a and b, computes C = a b^T in a LayoutLeft view and sums it,
// with the views in host memory and the kernels on the host pool when st
// is nil, and otherwise with the views in cuda.Space and the kernels on st.
// It returns C in host memory (a copy of the device's C for a stream).
func outer(n0, n1 int, st *cuda.Stream) (kokkos.View2[float64], float64, error) {
	var (
		space kokkos.ExecutionSpace // nil: the host pool
		mem   = kokkos.InSpace(kokkos.HostSpace)
		zero  kokkos.View2[float64]
	)
	if st != nil {
		space, mem = st, kokkos.InSpace(cuda.Space)
	}
	a, err := kokkos.NewView1[float64]("A", n0, mem)
	if err != nil {
		return zero, 0, err
	}
	defer a.Release()
	b, err := kokkos.NewView1[float64]("B", n1, mem)
	if err != nil {
		return zero, 0, err
	}
	defer b.Release()
	if err := kernel.For("InitA", kokkos.Range(0, n0).On(space), InitA, a); err != nil {
		return zero, 0, err
	}
	if err := kernel.For("InitB", kokkos.Range(0, n1).On(space), InitB, b); err != nil {
		return zero, 0, err
	}
	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft, mem)
	if err != nil {
		return zero, 0, err
	}
	policy := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Order(kokkos.IterateLeft, kokkos.IterateLeft).On(space)
	if err := kernel.For("SetC", policy, SetC, c, a.ReadOnly(), b.ReadOnly()); err != nil {
		c.Release()
		return zero, 0, err
	}
	// check: sum of c = (sum of 0..n0-1) * (sum of 0..n1-1). An empty C
	// sums to 0. (cuda.ParallelReduce over an MDRange with an empty
	// dimension divides by zero sizing its grid.) On a stream the
	// reduction waits for its result, after SetC.
	sum := 0.0
	if n0 > 0 && n1 > 0 {
		sum, err = kernel.Reduce("SumC", policy, kokkos.Sum[float64](), SumC, c.ReadOnly())
		if err != nil {
			c.Release()
			return zero, 0, err
		}
	}
	if st == nil {
		return c, sum, nil
	}
	defer c.Release()
	if err := st.Fence(); err != nil {
		return zero, 0, err
	}
	hc, err := kokkos.CreateMirrorViewAndCopy(c)
	if err != nil {
		return zero, 0, err
	}
	return hc, sum, nil
}

// same returns an error naming the first element where the host's C and
// the GPU's differ.
func same(host, dev kokkos.View2[float64]) error {
	for i1 := range host.Extent(1) {
		for i0 := range host.Extent(0) {
			if h, d := host.At(i0, i1), dev.At(i0, i1); h != d {
				return fmt.Errorf("host and GPU differ: C(%d, %d) is %v on the host, %v on the GPU", i0, i1, h, d)
			}
		}
	}
	return nil
}

// report prints the checksum and compares it with the closed form.
func report(n0, n1 int, layout kokkos.Layout, sum float64) error {
	want := float64(n0*(n0-1)/2) * float64(n1*(n1-1)/2)
	fmt.Printf("C(%d, %d) %v: sum %.6g, expected %.6g\n", n0, n1, layout, sum, want)
	if sum != want {
		return fmt.Errorf("check failed: sum %v, want %v", sum, want)
	}
	fmt.Println("check passed")
	return nil
}
