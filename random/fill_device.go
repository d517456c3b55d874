package random

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/kernel"
)

// fillTypeCodes name the element types of the device's fill kernels.
var fillTypeCodes = map[reflect.Type]string{
	reflect.TypeFor[float32](): "F32", reflect.TypeFor[float64](): "F64",
	reflect.TypeFor[int32](): "I32", reflect.TypeFor[int64](): "I64",
	reflect.TypeFor[uint32](): "U32", reflect.TypeFor[uint64](): "U64",
}

// fillOnDevice fills v, which lies in the memory of the device pool s's
// space, with a Go kernel on that space, as Kokkos's fill_random does:
// one index per chunk of fillChunk indices of the first dimension, which
// draws from the state it gets. It reports false, having done nothing,
// when no kernel fits (an element type other than float32, float64,
// int32, int64, uint32 and uint64; a rank other than 1 to 3; another view
// kind; a device without the kernel's translation).
func fillOnDevice[T kokkos.Number](fn, kind string, s *poolState, v kokkos.View[T], d backend.View, begin, end T) (bool, error) {
	code, ok := fillTypeCodes[reflect.TypeFor[T]()]
	if !ok || d.Rank < 1 || d.Rank > 3 || d.Space != s.space.MemorySpace() {
		return false, nil
	}
	gen, pool := "64", any(XorShift64Pool{s})
	if kind == pool1024 {
		gen, pool = "1024", XorShift1024Pool{s}
	}
	k := fillKernels[gen+code+"R"+strconv.Itoa(d.Rank)]
	if reflect.TypeOf(k).In(2) != reflect.TypeOf(v) {
		return false, nil
	}
	chunks := (d.Extents[0] + fillChunk - 1) / fillChunk
	err := kernel.For("Kokkos::fill_random", kokkos.Range(0, chunks).On(s.space), k, pool, v, begin, end)
	if errors.Is(err, kernel.ErrNoDevice) {
		return false, nil
	}
	if err == nil {
		err = s.space.Fence()
	}
	if err != nil {
		return true, fmt.Errorf("random: %s of view %q on %s: %w", fn, d.Label, s.space.Name(), err)
	}
	return true, nil
}
