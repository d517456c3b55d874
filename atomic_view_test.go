package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAtomicViewUpdates runs concurrent read-modify-write updates on view
// elements through Ptr and the Atomic functions, and atomic Set on a view
// with the Atomic trait, under ParallelFor on the pool.
func TestAtomicViewUpdates(t *testing.T) {
	pool := NewThreads(4)
	defer pool.Close()
	counts := Must(NewView1[int64]("counts", 2, WithTraits(Atomic)))
	ParallelFor("increment", Range(0, 100000).On(pool).WithChunk(7), func(i int) {
		AtomicAdd(counts.Ptr(i%2), 1)
	})
	if counts.At(0) != 50000 || counts.At(1) != 50000 {
		t.Fatalf("counts = %d, %d; want 50000 each", counts.At(0), counts.At(1))
	}

	// a histogram of random values with float64 atomics, against a serial count
	rng := rand.New(rand.NewPCG(31, 32))
	vals := make([]float64, 20000)
	for i := range vals {
		vals[i] = rng.Float64()
	}
	hist := Must(NewView2[float64]("hist", 2, 5))
	ParallelFor("hist", Range(0, len(vals)).On(pool), func(i int) {
		b := int(vals[i] * 5)
		AtomicAdd(hist.Ptr(i%2, b), 1.0)
		AtomicMax(hist.Ptr(i%2, b), 0) // a no-op max keeps the count
	})
	var ref [2][5]float64
	for i, x := range vals {
		ref[i%2][int(x*5)]++
	}
	for r := range 2 {
		for b := range 5 {
			if hist.At(r, b) != ref[r][b] {
				t.Fatalf("hist(%d, %d) = %v, want %v", r, b, hist.At(r, b), ref[r][b])
			}
		}
	}

	// Set on an Atomic view from many goroutines stores whole values
	last := Must(NewView1[float64]("last", 1, WithTraits(Atomic)))
	ParallelFor("set", Range(0, 10000).On(pool), func(i int) { last.Set(0, float64(i)) })
	if x := last.At(0); x < 0 || x >= 10000 || x != float64(int(x)) {
		t.Fatalf("torn value %v", x)
	}
}

// TestAtomicRefusesPointers checks that the Atomic trait refuses element
// types holding Go pointers, whose atomic stores would bypass the garbage
// collector's write barrier, with an error wrapping ErrElementType that
// names the type.
func TestAtomicRefusesPointers(t *testing.T) {
	type withPtr struct{ P *int }
	for _, c := range []struct {
		err  error
		want string
	}{
		{err2(NewView1[*int]("p", 4, WithTraits(Atomic))), `view "p" with extents (4): the Atomic trait cannot take element type *int: it holds Go pointers`},
		{err2(NewView1[map[int]int]("m", 4, WithTraits(Atomic))), `element type map[int]int: it holds Go pointers`},
		{err2(NewView1[withPtr]("w", 4, WithTraits(Atomic))), `element type kokkos.withPtr: it holds Go pointers`},
		{err2(WrapView1(make([]*int, 4), 4, WithTraits(Atomic))), `element type *int: it holds Go pointers`},
		{err2(NewView1[int16]("s", 4, WithTraits(Atomic))), `the Atomic trait needs an element type of 4 or 8 bytes, int16 has 2`},
	} {
		if !errors.Is(c.err, ErrElementType) || !strings.Contains(fmt.Sprint(c.err), c.want) {
			t.Errorf("error %v, want ErrElementType and %q", c.err, c.want)
		}
	}
}
