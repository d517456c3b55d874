package npy

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// logical returns the elements of v in C order (the last index fastest),
// by a naive walk over its logical indices.
func logical[T any](v kokkos.View[T]) []T {
	s := kokkos.ShapeOf(v)
	if s.Size == 0 {
		return nil
	}
	data := kokkos.ReadOnlyData(v)
	var out []T
	var walk func(r, off int)
	walk = func(r, off int) {
		if r == s.Rank {
			out = append(out, data[off])
			return
		}
		for i := range s.Extents[r] {
			walk(r+1, off+i*s.Strides[r])
		}
	}
	walk(0, 0)
	return out
}

// sameBits reports whether a and b hold the same bytes (NaNs included).
func sameBits[T any](a, b []T) bool {
	return len(a) == len(b) && bytes.Equal(bytesOf(a), bytesOf(b))
}

// randomFill fills the span of v with random bytes (0 or 1 for bool).
func randomFill[T Elem](rng *rand.Rand, v kokkos.View[T]) {
	s := kokkos.ShapeOf(v)
	if s.Span == 0 {
		return
	}
	b := bytesOf(kokkos.ReadOnlyData(v))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if dtypeOf[T]().kind == 'b' {
		for i := range b {
			b[i] &= 1
		}
	}
}

// randomView returns a view of element type T and rank rank (a
// DynRankView, or a View8 for rank 8) with random extents 0 to 3 (1 to 3
// when nonzero is set), layout l, filled with random values.
func randomView[T Elem](t testing.TB, rng *rand.Rand, rank int, l kokkos.Layout, nonzero bool) kokkos.View[T] {
	t.Helper()
	ext := make([]int, rank)
	for i := range ext {
		ext[i] = rng.IntN(4)
		if nonzero || rng.IntN(8) != 0 {
			ext[i] = 1 + rng.IntN(3)
		}
	}
	var v kokkos.View[T]
	if rank == 8 {
		v8 := kokkos.Must(kokkos.NewView8[T]("V", ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], ext[6], ext[7], l))
		v = v8
	} else {
		v = kokkos.Must(kokkos.NewDynRankView[T]("V", ext, l))
	}
	randomFill(rng, v)
	return v
}

// unsafePointer returns p as an unsafe.Pointer.
func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }

// readAs reads r with ReadView into a new view of kind V.
func readAs[V any, T Elem](r io.Reader, label string) (V, error) {
	var v V
	err := ReadView(r, any(&v).(interface{ Data() []T }), label)
	return v, err
}

// npzAs reads array name of z with ReadNPZ into a new view of kind V.
func npzAs[V any, T Elem](z *NPZReader, name, _ string) (V, error) {
	var v V
	err := ReadNPZ(z, name, any(&v).(interface{ Data() []T }))
	return v, err
}
