package kokkos_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
)

func TestTimer(t *testing.T) {
	before := time.Now()
	tm := kokkos.NewTimer()
	time.Sleep(2 * time.Millisecond)
	s := tm.Seconds()
	elapsed := time.Since(before).Seconds()
	if s < 0.002 || s > elapsed {
		t.Fatalf("Seconds() = %g after a 2 ms sleep, want in [0.002, %g]", s, elapsed)
	}
	if s2 := tm.Seconds(); s2 < s {
		t.Fatalf("Seconds() went back from %g to %g", s, s2)
	}
	tm.Reset()
	if r := tm.Seconds(); r >= s || r < 0 {
		t.Fatalf("Seconds() = %g right after Reset, want in [0, %g)", r, s)
	}
}

func ExampleTimer() {
	tm := kokkos.NewTimer()
	x := make([]float64, 1<<16)
	kokkos.ParallelFor("fill", kokkos.Range(0, len(x)), func(i int) { x[i] = float64(i) })
	fmt.Println("took time:", tm.Seconds() > 0)
	tm.Reset()
	fmt.Println("since reset:", tm.Seconds() < 1)
	// Output:
	// took time: true
	// since reset: true
}
