package tools_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/tools"
)

// TestCUDAEvents: a device allocation, copies both ways and a device
// kernel reach a registered tool with the Cuda space and device type, and
// the kernel's result is right.
func TestCUDAEvents(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	r := &recorder{}
	tools.Register(r)
	defer tools.Finalize()

	n := 1000 + rand.IntN(1000)
	h := kokkos.Must(kokkos.NewView1[float64]("h", n))
	d := kokkos.Must(kokkos.NewView1[float64]("d", n, kokkos.InSpace(cuda.Space)))
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = rand.Float64()
		h.Set(i, vals[i])
	}
	if err := kokkos.DeepCopy(d, h); err != nil {
		t.Fatal(err)
	}
	if err := cuda.ParallelFor("twice", kokkos.Range(0, n), `d(i) = 2 * d(i);`, cuda.Bind("d", d)); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(h, d); err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if h.At(i) != 2*v {
			t.Fatalf("h(%d) = %v, want %v", i, h.At(i), 2*v)
		}
	}
	got := r.take()
	want := []string{
		fmt.Sprintf("alloc Host %q %d nonzero=true", "h", 8*n),
		fmt.Sprintf("alloc Cuda %q %d nonzero=true", "d", 8*n),
		fmt.Sprintf("copy Cuda %q <- Host %q %d nonzero=true", "d", "h", 8*n),
		"end copy",
		`begin for "twice" Cuda #1`,
		"end for #1",
		fmt.Sprintf("copy Host %q <- Cuda %q %d nonzero=true", "h", "d", 8*n),
		"end copy",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := d.Release(); err != nil {
		t.Fatal(err)
	}
	want = []string{fmt.Sprintf("dealloc Cuda %q %d nonzero=true", "d", 8*n)}
	if got := r.take(); !slices.Equal(got, want) {
		t.Fatalf("events after Release\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
