package kokkos

// dispatchKind is the pattern a dispatch comes from.
type dispatchKind uint8

const (
	kindFor dispatchKind = iota
	kindReduce
	kindScan
	kindTask // a function given to Submit
)

func (k dispatchKind) String() string {
	return [...]string{"parallel_for", "parallel_reduce", "parallel_scan", "task"}[k]
}

// A dispatch is one unit of work given to an execution space: a region of
// units [begin, end) run in chunks by body (or index by index by index), or
// a task (task, or work, whose error is the dispatch's error). Every
// pattern builds one with its label and passes it to launch; the space
// runs it as a sched.Dispatch (see exec.go). Profiling hooks attach in
// launch and sched.Execute.
type dispatch struct {
	label      string
	kind       dispatchKind
	begin, end int
	chunk      int
	body       func(lo, hi int)
	index      func(i int)
	task       func()
	work       func() error
}

// launch hands d to s. It is the one entry point of every pattern.
// d travels by value: a pointer would escape through the interface call
// and cost an allocation per pattern.
func launch(s HostExecutionSpace, d dispatch, wait bool) {
	s.launch(d, wait)
}

// ParallelFor calls body(i) for every index i of p, concurrently, and
// returns when all calls have returned, or at once on an asynchronous
// instance (whose Fence then waits). A panic in body stops the pattern
// and reaches the caller (or Fence) as a *PanicError with the label.
// Each call costs an indirect function call; ParallelForChunks avoids it.
func ParallelFor(label string, p RangePolicy, body func(i int)) {
	s := p.check("ParallelFor", label)
	launch(s, dispatch{
		label: label, kind: kindFor,
		begin: p.Begin, end: p.End, chunk: defaultChunk(p.End-p.Begin, p.Chunk, s),
		index: body,
	}, false)
}

// ParallelForChunks calls body(lo, hi) for disjoint chunks [lo, hi) that
// together cover p's range, concurrently; the loop over a chunk is the
// body's own, so it compiles to plain Go speed. It waits as ParallelFor
// does. The chunks have p.Chunk indices (the last may be shorter) or, with
// Chunk 0, a size the pattern picks.
func ParallelForChunks(label string, p RangePolicy, body func(lo, hi int)) {
	s := p.check("ParallelForChunks", label)
	launch(s, dispatch{
		label: label, kind: kindFor,
		begin: p.Begin, end: p.End, chunk: defaultChunk(p.End-p.Begin, p.Chunk, s),
		body: body,
	}, false)
}
