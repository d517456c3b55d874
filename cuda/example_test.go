package cuda_test

import (
	"fmt"
	"log"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

func TestLeakCheckHelper(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	b, err := cuda.Space.Allocate("checked", 256, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.Fill(b.Addr, 4, 0x01020304, 64); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
}

// The Kokkos View page's example on the GPU: two vectors, their outer
// product into a LayoutLeft matrix, and its sum, all on the device. (It
// needs a GPU, so go test compiles it without running it.)
func ExampleParallelFor() {
	const n0, n1 = 1000, 800
	a := kokkos.Must(kokkos.NewView1[float64]("A", n0, kokkos.InSpace(cuda.Space)))
	b := kokkos.Must(kokkos.NewView1[float64]("B", n1, kokkos.InSpace(cuda.Space)))
	c := kokkos.Must(kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(cuda.Space)))
	defer a.Release()
	defer b.Release()
	defer c.Release()
	check := func(err error) {
		if err != nil {
			log.Fatal(err)
		}
	}
	check(cuda.ParallelFor("InitA", kokkos.Range(0, n0), `a(i) = i + 1;`, cuda.Bind("a", a)))
	check(cuda.ParallelFor("InitB", kokkos.Range(0, n1), `b(i) = 0.5 * i;`, cuda.Bind("b", b)))
	check(cuda.ParallelFor("SetC", kokkos.MDRange([]int{0, 0}, []int{n0, n1}), `c(i0, i1) = a(i0) * b(i1);`,
		cuda.Bind("a", a.ReadOnly()), cuda.Bind("b", b.ReadOnly()), cuda.Bind("c", c)))
	sum, err := cuda.ParallelReduce("Sum", kokkos.MDRange([]int{0, 0}, []int{n0, n1}), cuda.Sum[float64](),
		`acc += c(i0, i1);`, cuda.Bind("c", c))
	check(err)
	fmt.Println(sum) // (n0(n0+1)/2) * 0.5 * (n1(n1-1)/2) = 79920000000
}

// A maximum and where it is, on the device.
func ExampleMaxLoc() {
	x := kokkos.Must(kokkos.NewView1[float32]("x", 1<<20, kokkos.InSpace(cuda.Space)))
	defer x.Release()
	if err := cuda.ParallelFor("init", kokkos.Range(0, 1<<20), `x(i) = sinf(0.001f * i);`, cuda.Bind("x", x)); err != nil {
		log.Fatal(err)
	}
	m, err := cuda.ParallelReduce("argmax", kokkos.Range(0, 1<<20), cuda.MaxLoc[float32](),
		`if (x(i) > acc.val) { acc.val = x(i); acc.loc = i; }`, cuda.Bind("x", x))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("max %.4f at %d\n", m.Val, m.Loc)
}
