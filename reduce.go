package kokkos

// placeholder until the reducers land
type Reducer[T any] struct {
	Identity func() T
	Join     func(a, b T) T
}

func Sum[T int]() Reducer[T] { return Reducer[T]{func() T { return 0 }, func(a, b T) T { return a + b }} }

func ParallelReduce[T any](label string, p RangePolicy, r Reducer[T], body func(i int, acc *T)) T {
	s := p.check("ParallelReduce", label)
	v := r.Identity()
	launch(s, &dispatch{label: label, kind: kindReduce, begin: p.Begin, end: p.End, chunk: max(1, p.End-p.Begin), body: func(lo, hi int) {
		for i := lo; i < hi; i++ {
			body(i, &v)
		}
	}}, true)
	return v
}
