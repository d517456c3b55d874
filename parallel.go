package kokkos

import "github.com/gokkos/kokkos/internal/sched"

// dispatch is one unit of work given to an execution space: internal/sched's
// type, which runs it, so that launch hands it on without a conversion.
// Every pattern builds one with its label and passes it to launch.
// Profiling hooks attach in launch and sched.Execute.
type dispatch = sched.Dispatch

const (
	kindFor    = sched.KindFor
	kindReduce = sched.KindReduce
	kindScan   = sched.KindScan
	kindTask   = sched.KindTask // the kinds of pattern; kindTask: a function given to Submit
)

// launch hands d to s. It is the one entry point of every pattern.
// d travels by value: a pointer would escape through the interface call
// and cost an allocation per pattern.
func launch(s HostExecutionSpace, d dispatch, wait bool) {
	d.NewPanic = newPanicError
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
		Label: label, Kind: kindFor,
		Begin: p.Begin, End: p.End, Chunk: defaultChunk(p.End-p.Begin, p.Chunk, s),
		Index: body,
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
		Label: label, Kind: kindFor,
		Begin: p.Begin, End: p.End, Chunk: defaultChunk(p.End-p.Begin, p.Chunk, s),
		Body: body,
	}, false)
}
