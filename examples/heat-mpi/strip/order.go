package strip

import (
	"fmt"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/mpi"
)

// The event-ordered step (Order "events"; the default of Space "cuda" with
// halos the program stages, or sends directly to a CUDA-aware library).
//
// With X_t the field that step t reads (cur and next alternate), Edge(t)
// (heatEdge) writes rows 1 and ni of X_{t+1} and reads rows 0..2 and
// ni-1..ni+1 of X_t; Interior(t), heatStep on rows 2..ni-1, writes those
// rows of X_{t+1} and reads rows 1..ni of X_t; pack(t) copies rows 1 and ni of X_{t+1} to the
// send buffers, unpack(t) the receive buffers to its halo rows 0 and ni+1.
// The true dependencies are then
//
//   - Interior(t) needs Edge(t-1) (rows 1, ni of X_t) and Interior(t-1)
//     (rows 2..ni-1), not the halos of step t-1: the inner stream waits
//     for the event E(t-1) recorded after Edge(t-1), runs Interior(t) and
//     records I(t);
//   - Edge(t) needs the halos unpacked at step t-1 and Edge(t-1) (the edge
//     stream's order) and Interior(t-1) (rows 2, ni-1): the edge stream
//     waits for I(t-1), runs Edge(t), records E(t) and packs; the host
//     waits for the edge stream only, exchanges the buffers over MPI,
//     queues unpack(t) on the edge stream and goes on.
//
// and the writes over data still being read (each buffer is X_{t+1} and
// X_{t-1}):
//
//   - Interior(t) writes rows 2..ni-1 of X_{t-1}'s memory, which Edge(t-1)
//     read (rows 2, ni-1): it waits for E(t-1);
//   - Edge(t) writes rows 1 and ni of it, which Interior(t-1) read: it
//     waits for I(t-1) (Edge(t-1) and pack(t-1) are on its own stream);
//   - unpack(t) writes the halo rows, which only Edge reads, on the edge
//     stream;
//   - pack(t) writes the send buffers after the host has seen the sends of
//     step t-1 complete (WaitAll), and Irecv(t) writes the receive buffers
//     after the host has fenced the edge stream, behind unpack(t-1): one
//     pair of buffers is enough.
//
// The host queues Interior(t+1) as soon as Edge(t) and the record of E(t)
// are queued, before it waits for the edge stream: so while the host
// waits for Edge(t) and exchanges its rows, the inner stream holds
// Interior(t) and Interior(t+1), and the device never waits for the host as
// long as the exchange (the wake-up, MPI, the launch of unpack and Edge)
// takes less than an interior. That holds whichever of Edge(t) and
// Interior(t), ready at the same moment (the end of Interior(t-1)), the
// device schedules first: when Edge(t) waits behind Interior(t)'s blocks,
// its exchange overlaps Interior(t+1).
//
// Two events of each kind, used alternately, are enough: a wait is on the
// event's most recent record at the time of the call, and the host issues
// in order. Edge(t) waits for I(t-1) after I(t) has been recorded (in the
// previous call, with Interior(t)) and before I(t+1) is; so I(t-1) and I(t)
// must be different events, and I(t+1) may reuse I(t-1)'s. Interior(t+1)
// waits for E(t) right after it is recorded; E alternates the same way
// (the first step waits for E(t-1)).

// An event orders the work queued on one stream after a point of another
// stream's queue, without the host waiting.
type event interface {
	// record marks the end of the work queued on q so far.
	record(q kokkos.ExecutionSpace) error
	// wait makes the work queued on q later wait for the latest record.
	// Before the first record it waits for nothing.
	wait(q kokkos.ExecutionSpace) error
	release()
}

// cudaEvent is a cuda.Event, on the place's streams.
type cudaEvent struct{ ev *cuda.Event }

func (e cudaEvent) record(q kokkos.ExecutionSpace) error { return q.(*cuda.Stream).Record(e.ev) }
func (e cudaEvent) wait(q kokkos.ExecutionSpace) error   { return q.(*cuda.Stream).WaitEvent(e.ev) }
func (e cudaEvent) release()                             { _ = e.ev.Release() }

// hostEvent is the same ordering on host instances (the asynchronous
// instances of -space pool -order events): record queues the closing of a
// new channel, wait queues a receive from the latest one.
type hostEvent struct{ c chan struct{} }

func (e *hostEvent) record(q kokkos.ExecutionSpace) error {
	c := make(chan struct{})
	e.c = c
	q.(kokkos.HostExecutionSpace).Submit("heat-mpi.record", func() { close(c) })
	return nil
}

func (e *hostEvent) wait(q kokkos.ExecutionSpace) error {
	if c := e.c; c != nil {
		q.(kokkos.HostExecutionSpace).Submit("heat-mpi.wait", func() { <-c })
	}
	return nil
}

func (e *hostEvent) release() {}

// Event kinds, the first index of strip.ev.
const (
	evEdge = iota
	evInner
)

// pipe is a strip's state for the event-ordered step.
type pipe struct {
	ev    [2][2]event // [evEdge or evInner][step parity]
	t     int         // the next step
	ahead bool        // Interior(t) is queued already
	// wait and mpi add up the host's time per step waiting for the edge
	// rows (the edge stream's fence) and in the MPI exchange, measured
	// since the last reset (Run's timed steps).
	wait, mpi time.Duration
}

// newEvents returns the place's four events.
func (p *place) newEvents() ([2][2]event, error) {
	var ev [2][2]event
	for k := range 2 {
		for par := range 2 {
			if p.newEvent == nil {
				ev[k][par] = &hostEvent{}
				continue
			}
			e, err := p.newEvent()
			if err != nil {
				releaseEvents(&ev)
				return ev, err
			}
			ev[k][par] = e
		}
	}
	return ev, nil
}

func releaseEvents(ev *[2][2]event) {
	for k := range 2 {
		for par := range 2 {
			if ev[k][par] != nil {
				ev[k][par].release()
				ev[k][par] = nil
			}
		}
	}
}

// interiorAt queues Interior(t) into dst from src on the inner stream,
// after E(t-1), and records I(t).
func (s *strip) interiorAt(p *place, t int, dst, src *kokkos.View2[float64], n int) error {
	if err := s.pipe.ev[evEdge][(t+1)%2].wait(p.inner); err != nil {
		return err
	}
	if s.ni > 2 {
		in := kokkos.MDRange([]int{2, 1}, []int{s.ni, n + 1}).On(p.inner)
		if err := kernel.For("heat-mpi.Step", in, heatStep, *dst, src.ReadOnly(), s.gi, 0, n, alpha); err != nil {
			return err
		}
	}
	return s.pipe.ev[evInner][t%2].record(p.inner)
}

// stepEvents is step for a strip with neighbours on a place ordered by
// events: see the comment at the top of this file. last says that no step
// follows (Interior(t+1) is not queued).
func (s *strip) stepEvents(p *place, w *mpi.Comm, n int, last bool) error {
	t := s.pipe.t
	defer func() { s.cur, s.next = s.next, s.cur; s.pipe.t++ }()
	if !s.pipe.ahead {
		if err := s.interiorAt(p, t, &s.next, &s.cur, n); err != nil {
			return err
		}
	}
	s.pipe.ahead = false
	if err := s.pipe.ev[evInner][(t+1)%2].wait(p.edge); err != nil {
		return err
	}
	edge := kokkos.MDRange([]int{0, 1}, []int{2, n + 1}).On(p.edge)
	if err := kernel.For("heat-mpi.Edge", edge, heatEdge, s.next, s.cur.ReadOnly(), s.gi, 0, n, s.ni, alpha); err != nil {
		return err
	}
	if err := s.pipe.ev[evEdge][t%2].record(p.edge); err != nil {
		return err
	}
	if err := s.pack(p, &s.next); err != nil {
		return err
	}
	if !last {
		// Interior(t+1): from X_{t+1} (next) into X_{t+2} (cur).
		if err := s.interiorAt(p, t+1, &s.cur, &s.next, n); err != nil {
			return err
		}
		s.pipe.ahead = true
	}
	t0 := time.Now()
	if err := p.edge.Fence(); err != nil {
		return err
	}
	t1 := time.Now()
	reqs, err := s.post(p, w, &s.next)
	if err == nil {
		err = mpi.WaitAll(reqs...)
	}
	if err != nil {
		return err
	}
	s.pipe.wait += t1.Sub(t0)
	s.pipe.mpi += time.Since(t1)
	return s.unpack(p, &s.next)
}

// useEvents says whether the place orders its steps by events for -order
// order: events, fences, or auto (events on a GPU whose halos the program
// stages or a CUDA-aware library reads; fences otherwise, where package
// mpi's staging copies would wait for the queued interiors anyway).
func useEvents(space, order string, stage bool) (bool, error) {
	switch order {
	case "events":
		return true, nil
	case "fences":
		return false, nil
	case "auto":
		return space == "cuda" && (stage || mpi.CUDAAware()), nil
	}
	return false, fmt.Errorf("-order %q: want auto, events or fences", order)
}
