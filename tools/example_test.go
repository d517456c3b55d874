package tools_test

import (
	"fmt"
	"io"
	"runtime"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// The kernel timer counts and times the kernels per label; Finalize
// prints its table (to Out, here discarded) and Stats returns it.
func ExampleKernelTimer() {
	timer := &tools.KernelTimer{Out: io.Discard}
	tools.Register(timer)

	x := kokkos.Must(kokkos.NewView1[float64]("x", 1000))
	for range 3 {
		kokkos.ParallelFor("axpy", kokkos.Range(0, 1000), func(i int) { x.Set(i, 2*x.At(i)+1) })
	}
	kokkos.ParallelReduce("norm", kokkos.Range(0, 1000), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += x.At(i) * x.At(i) })
	tools.Finalize()

	for _, s := range timer.Stats() {
		if s.Label == "axpy" {
			fmt.Println(s.Label, s.Kind, s.Calls)
		}
	}
	// Output:
	// axpy parallel_for 3
}

// The memory high-water tool follows the bytes allocated per space.
func ExampleMemoryHighWater() {
	mem := &tools.MemoryHighWater{Out: io.Discard}
	tools.Register(mem)

	a := kokkos.Must(kokkos.NewView2[float64]("a", 100, 100)) // 80000 bytes
	b := kokkos.Must(kokkos.NewView1[int32]("b", 1000))       // 4000 bytes
	a.Release()
	c := kokkos.Must(kokkos.NewView1[int32]("c", 500)) // 2000 bytes
	tools.Finalize()

	for _, s := range mem.Stats() {
		fmt.Printf("%s: high water %d bytes, %d allocations, %d released\n", s.Space, s.HighWater, s.Allocations, s.Deallocations)
	}
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
	// Output:
	// Host: high water 84000 bytes, 3 allocations, 1 released
}

// A Go tool implements the events it needs and embeds Nop for the rest.
type regionPrinter struct{ tools.Nop }

func (regionPrinter) PushRegion(name string) { fmt.Println("enter", name) }
func (regionPrinter) PopRegion()             { fmt.Println("leave") }

func ExampleRegister() {
	tools.Register(regionPrinter{})
	tools.PushRegion("solve")
	kokkos.ParallelFor("step", kokkos.Range(0, 10), func(int) {})
	tools.PopRegion()
	tools.Finalize()
	// Output:
	// enter solve
	// leave
}
