package stencil

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos/cuda"
)

// Replaying the steps as a CUDA graph.
//
// Queued on streams, a step costs each device about nine driver calls
// (two kernel launches, two copies, two event records, three waits, each
// preceded by a context switch), some 55 µs of host time per device on
// an H200, and the driver serialises the calls of the goroutines of the
// different devices: on 4 GPUs the host takes as long to queue a step as
// the GPUs take to run it, and they starve. So Run captures K steps of
// every device (GraphSteps) into one graph, once, and launches it: one
// driver call for K steps of all the devices.
//
// The graph is captured from the origin stream, device 0's compute
// stream: the capture records an event on the origin that every other
// stream of every device waits for (the fork, which draws them into the
// capture), queues the K steps exactly as on streams (runParts), then
// records an event on every other stream for which the origin waits (the
// join, which CUDA requires before the capture ends). A launch of the
// graph on the origin therefore starts after the origin's earlier work
// and ends, for the origin's later work, when all of its nodes are done;
// the other streams are not ordered with it. Run orders them: before the
// first launch the origin waits for every other stream's earlier work (a
// join), after the last one every other stream waits for the origin (a
// fork), and the steps left over (steps mod K) are queued on the streams
// as without graphs. K is even, so that every launch starts at the
// parity it was captured at; Grid keeps one graph per starting parity
// and K.

// DefaultGraphSteps is the number of steps New's Grid captures into one
// graph (GraphSteps).
const DefaultGraphSteps = 20

// ErrGraphSteps is matched by the error of Run when GraphSteps is not a
// positive even number while Graph is set.
var ErrGraphSteps = errors.New("stencil: GraphSteps must be a positive even number")

// A conductor orders every stream of every part around a graph. The
// origin is part 0's compute stream.
type conductor interface {
	// fork makes every stream but the origin wait for the work queued on
	// the origin so far.
	fork() error
	// join makes the origin wait for the work queued on every other
	// stream so far.
	join() error
	// capture records fork, what fn queues and join into a graph, from the
	// origin, without running it.
	capture(fn func() error) (replay, error)
}

// A replay is a captured graph.
type replay interface {
	// launch queues one replay on the origin.
	launch() error
	release() error
}

// graphKey names a cached graph: the parity of its first step and its
// number of steps.
type graphKey struct{ parity, steps int }

// graphFor returns the graph of g.GraphSteps steps of all the parts that
// starts at parity par, capturing it on first use.
func (g *Grid) graphFor(par int) (replay, error) {
	key := graphKey{par, g.GraphSteps}
	if r, ok := g.graphs[key]; ok {
		return r, nil
	}
	r, err := g.cond.capture(func() error { return runParts(g.parts, par, g.GraphSteps) })
	if err != nil {
		return nil, err
	}
	if g.graphs == nil {
		g.graphs = map[graphKey]replay{}
	}
	g.graphs[key] = r
	return r, nil
}

// plan returns how many launches of a graph steps steps take (the rest go
// to the streams), capturing the graph first, so that Run's clock leaves
// the capture out.
func (g *Grid) plan(steps int) (int, replay, error) {
	if !g.Graph || g.cond == nil {
		return 0, nil, nil
	}
	if k := g.GraphSteps; k <= 0 || k%2 != 0 {
		return 0, nil, fmt.Errorf("%w, got %d", ErrGraphSteps, k)
	}
	launches := steps / g.GraphSteps
	if launches == 0 {
		return 0, nil, nil
	}
	r, err := g.graphFor(g.step % 2)
	return launches, r, err
}

// queue queues steps steps from g.step on: launches replays of r, then the
// rest on the streams.
func (g *Grid) queue(steps, launches int, r replay) error {
	first := g.step
	if launches > 0 {
		if err := g.cond.join(); err != nil {
			return err
		}
		for range launches {
			if err := r.launch(); err != nil {
				return err
			}
		}
		if err := g.cond.fork(); err != nil {
			return err
		}
		first += launches * g.GraphSteps
		steps -= launches * g.GraphSteps
	}
	if steps == 0 {
		return nil
	}
	return runParts(g.parts, first, steps)
}

// releaseGraphs frees the cached graphs.
func (g *Grid) releaseGraphs() error {
	var errs []error
	for k, r := range g.graphs {
		errs = append(errs, r.release())
		delete(g.graphs, k)
	}
	return errors.Join(errs...)
}

// cudaConductor is the conductor of the parts' CUDA streams.
type cudaConductor struct {
	origin *cuda.Stream
	others []*cuda.Stream
	forkEv *cuda.Event   // of device 0
	joinEv []*cuda.Event // joinEv[i] of others[i]'s device
}

// newCUDAConductor returns the conductor of parts' streams, with its
// events.
func newCUDAConductor(parts []*part) (*cudaConductor, error) {
	c := &cudaConductor{origin: parts[0].cu.comp}
	var err error
	if c.forkEv, err = c.origin.Device().NewEvent(); err != nil {
		return c, err
	}
	for _, p := range parts {
		for _, s := range []*cuda.Stream{p.cu.comp, p.cu.copy} {
			if s == c.origin {
				continue
			}
			ev, err := s.Device().NewEvent()
			if err != nil {
				return c, err
			}
			c.others = append(c.others, s)
			c.joinEv = append(c.joinEv, ev)
		}
	}
	return c, nil
}

func (c *cudaConductor) fork() error {
	if err := c.origin.Record(c.forkEv); err != nil {
		return err
	}
	for _, s := range c.others {
		if err := s.WaitEvent(c.forkEv); err != nil {
			return err
		}
	}
	return nil
}

func (c *cudaConductor) join() error {
	for i, s := range c.others {
		if err := s.Record(c.joinEv[i]); err != nil {
			return err
		}
		if err := c.origin.WaitEvent(c.joinEv[i]); err != nil {
			return err
		}
	}
	return nil
}

func (c *cudaConductor) capture(fn func() error) (replay, error) {
	gr, err := cuda.Capture(c.origin, func() error {
		if err := c.fork(); err != nil {
			return err
		}
		// A failed fn still joins, so that the capture ends cleanly.
		return errors.Join(fn(), c.join())
	})
	if err != nil {
		return nil, err
	}
	return cudaGraph{gr}, nil
}

// release frees the events.
func (c *cudaConductor) release() {
	for _, ev := range append([]*cuda.Event{c.forkEv}, c.joinEv...) {
		if ev != nil {
			_ = ev.Release()
		}
	}
}

type cudaGraph struct{ g *cuda.Graph }

func (c cudaGraph) launch() error  { return c.g.Launch() }
func (c cudaGraph) release() error { return c.g.Release() }
