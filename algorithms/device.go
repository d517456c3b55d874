package algorithms

import "github.com/gokkos/kokkos"

func deviceSort[T kokkos.Number](exec kokkos.ExecutionSpace, fn string, v kokkos.View1[T], begin, end int) error {
	return errorf(kokkos.ErrHostOnly, "%s", fn)
}

func deviceSortByKey[K kokkos.Number, V any](exec kokkos.ExecutionSpace, fn string, keys kokkos.View1[K], values kokkos.View1[V]) error {
	return errorf(kokkos.ErrHostOnly, "%s", fn)
}
