package kerneltest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// TestPanicSite checks that a panic in a Go kernel's host code (an index
// outside a view) names the kernel's own line in its source file, where
// the user wrote the access, and not the generated file or package
// kernel's accessors, on the pool and on Serial.
func TestPanicSite(t *testing.T) {
	src, err := os.ReadFile("kernels.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for n, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "a.Set(i, b.At(i)+s*c.At(i))") {
			line = n + 1
		}
	}
	if line == 0 {
		t.Fatal("Triad's body not found in kernels.go")
	}
	want := fmt.Sprintf("kernels.go:%d", line)
	const n = 64
	a := kokkos.Must(kokkos.NewView1[float64]("a", n))
	b := kokkos.Must(kokkos.NewView1[float64]("b", n))
	c := kokkos.Must(kokkos.NewView1[float64]("short", n-5))
	for _, s := range []kokkos.ExecutionSpace{nil, kokkos.Serial{}} {
		var got any
		func() {
			defer func() { got = recover() }()
			_ = kernel.For("triad", kokkos.Range(0, n).On(s), Triad, a, b, c, 2.0)
		}()
		var pe *kokkos.PanicError
		if err, ok := got.(error); !ok || !errors.As(err, &pe) {
			t.Fatalf("space %v: panic %v, want a *kokkos.PanicError", s, got)
		}
		if pe.Where != want || !strings.Contains(fmt.Sprint(pe.Value), `"short"`) {
			t.Errorf("space %v: panic at %q (%v), want at %s naming view \"short\"", s, pe.Where, pe.Value, want)
		}
	}
}
