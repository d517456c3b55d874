package tools_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// BenchmarkGoroutineKernels launches tiny kernels from 1 and 8 goroutines
// at once, with no tool, with a Go tool that does nothing, and with a C
// library whose entry points do nothing (testdata/recorder.c with no
// output file): the time per kernel, for what the library's one stream
// of events costs when goroutines contend for it.
func BenchmarkGoroutineKernels(b *testing.B) {
	for _, space := range []string{"Serial", "Threads"} {
		for _, g := range []int{1, 8} {
			for _, tool := range []string{"none", "go", "library"} {
				b.Run(fmt.Sprintf("%s/goroutines=%d/%s", space, g, tool), func(b *testing.B) {
					switch tool {
					case "go":
						tools.Register(tools.Nop{})
					case "library":
						canLoad(b)
						b.Setenv("RECORDER_OUT", "")
						if err := tools.LoadLibrary(buildTool(b, "recorder.c")); err != nil {
							b.Fatal(err)
						}
					}
					defer tools.Finalize()
					launchTiny(b, space, g)
				})
			}
		}
	}
}

// launchTiny launches b.N kernels of 16 iterations, spread over g
// goroutines.
func launchTiny(b *testing.B, space string, g int) {
	var s kokkos.ExecutionSpace = kokkos.Serial{}
	if space == "Threads" {
		s = kokkos.DefaultHostExecutionSpace()
	}
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range g {
		n := b.N / g
		if w < b.N%g {
			n++
		}
		wg.Go(func() {
			var sum [16]float64
			for range n {
				kokkos.ParallelFor("tiny", kokkos.Range(0, 16).On(s), func(i int) { sum[i] += 1 })
			}
		})
	}
	wg.Wait()
}
