// Package strip is the strip stencil of examples/heat-mpi: the 2-D heat
// equation of examples/heat (an explicit 5-point stencil on an n×n grid,
// two hot spots, a fixed boundary) cut into strips of whole rows, one per
// MPI process of a communicator, run with Go kernels on each process's GPU
// (-space cuda) or on the host pool (-space pool). examples/heat-mpi runs
// it and checks the field; cmd/kokkos-bench's multigpu suite times it on
// 1, 2 and 4 ranks.
//
// With Space "cuda" each process runs its strip on the GPU that
// cuda.SelectDevice picks for it (its local rank modulo the visible
// devices: one rank per GPU, or several sharing one), with the Go kernels
// below, compiled by go generate into host loops and CUDA C without fused
// multiply-adds (strip_kernels_gen.go), so that the field is bit-identical
// to the host's. With Space "pool" the same kernels and the same schedule
// run on the host pool, over host memory. The blocks are strips of whole
// rows, so that the halos are contiguous rows.
//
// Each step updates the strip's first and last rows (heatEdge) on one
// stream, starts the halo exchange of those rows with Isend and Irecv, and
// updates the rows between (heatStep) on a second stream meanwhile. On a
// GPU (Order "auto" or "events") the streams wait for each other's events
// and the host waits for the edge rows only, so that the next step's
// interior is queued while the halos travel (order.go); otherwise (Order
// "fences") the host waits for the whole step.
package strip

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/mpi"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// alpha is the diffusion number dt*k/h², as in examples/heat and
// examples/heat-mpi's host stencil.
const alpha = 0.2

// heatInit sets the block's point (i, j), 1 ≤ i, j, to the initial field
// at (gi+i-1, gj+j-1) of an n×n grid: the values of examples/heat-mpi's
// initial.
//
//kokkos:kernel
func heatInit(i, j int, u kokkos.View2[float64], gi, gj, n int) {
	a, b := gi+i-1, gj+j-1
	r1, r2 := max(n/8, 1), max(n/10, 1)
	d1 := (a-n/3)*(a-n/3) + (b-n/3)*(b-n/3)
	d2 := (a-2*n/3)*(a-2*n/3) + (b-3*n/5)*(b-3*n/5)
	v := 0.0
	if d1 <= r1*r1 {
		v = 1
	} else if d2 <= r2*r2 {
		v = 0.75
	}
	u.Set(i, j, v)
}

// heatStep updates the block's point (i, j), global (gi+i-1, gj+j-1),
// into next: the stencil of examples/heat-mpi's update of cur inside the
// n×n grid, cur on its boundary.
//
//kokkos:kernel
func heatStep(i, j int, next, cur kokkos.View2[float64], gi, gj, n int, alpha float64) {
	a, b := gi+i-1, gj+j-1
	if a == 0 || b == 0 || a == n-1 || b == n-1 {
		next.Set(i, j, cur.At(i, j))
		return
	}
	c := cur.At(i, j)
	s := cur.At(i-1, j) + cur.At(i+1, j) + cur.At(i, j-1) + cur.At(i, j+1)
	// The conversions round each product before it is added, as update.
	next.Set(i, j, c+float64(alpha*(s-float64(4*c))))
}

// heatEdge is heatStep on the block's first row (k 0) and its last row,
// last (k 1), in one launch.
//
//kokkos:kernel
func heatEdge(k, j int, next, cur kokkos.View2[float64], gi, gj, n, last int, alpha float64) {
	i := 1 + k*(last-1)
	a, b := gi+i-1, gj+j-1
	if a == 0 || b == 0 || a == n-1 || b == n-1 {
		next.Set(i, j, cur.At(i, j))
		return
	}
	c := cur.At(i, j)
	s := cur.At(i-1, j) + cur.At(i+1, j) + cur.At(i, j-1) + cur.At(i, j+1)
	next.Set(i, j, c+float64(alpha*(s-float64(4*c))))
}

// A place is where Space "cuda" or "pool" runs a strip.
type place struct {
	name        string        // "cuda" or "pool"
	what        string        // "GPU 1 (OMPI_COMM_WORLD_LOCAL_RANK=1, 2 visible devices): NVIDIA H200"
	mem, pinned kokkos.Option // the block's memory, and host memory for halos
	edge, inner kokkos.ExecutionSpace
	// stage: the halo rows go through host buffers (pinned) copied on the
	// edge stream, because the library would stage device memory itself
	// with copies that wait for the interior's kernel.
	stage bool
	how   string // how the halos travel, for the report
	// events: steps ordered by events (order.go), newEvent making them
	// (nil: host events).
	events   bool
	newEvent func() (event, error)
}

// newPlace returns the place of space ("cuda" or "pool") with halo
// exchange halo ("auto", "device" or "pinned") and steps ordered as order
// says ("auto", "events" or "fences"), and the function that releases its
// streams.
func newPlace(space, halo, order string, priority bool) (*place, func(), error) {
	if halo != "auto" && halo != "device" && halo != "pinned" {
		return nil, nil, fmt.Errorf("-halo %q: want auto, device or pinned", halo)
	}
	p := &place{name: space}
	switch space {
	case "pool":
		p.what = "the host pool"
		p.mem, p.pinned = kokkos.InSpace(kokkos.HostSpace), kokkos.InSpace(kokkos.HostSpace)
		p.edge, p.inner = kokkos.NewThreads(1), kokkos.DefaultHostExecutionSpace()
		p.stage = halo == "pinned"
		p.how = "host memory, directly"
		if p.stage {
			p.how = "copied through separate host buffers"
		}
		var err error
		if p.events, err = useEvents(space, order, p.stage); err != nil {
			return nil, nil, err
		}
		if !p.events {
			return p, func() {}, nil
		}
		// Asynchronous instances, each on a pool of its own, so that the
		// order comes from the events alone.
		edge, inner := kokkos.NewThreads(1).NewInstance(), kokkos.DefaultHostExecutionSpace().NewInstance()
		p.edge, p.inner = edge, inner
		p.how += ", steps ordered by events"
		return p, func() { _ = edge.Close(); _ = inner.Close() }, nil
	case "cuda":
	default:
		return nil, nil, fmt.Errorf("-space %q: want host, pool or cuda", space)
	}
	sel, err := cuda.ChooseDevice(cuda.AutoDevice)
	if err != nil {
		return nil, nil, err
	}
	dev, err := sel.Device()
	if err != nil {
		return nil, nil, err
	}
	p.what = fmt.Sprintf("%v: %s", sel, dev.Name())
	p.mem = kokkos.InSpace(cuda.SpaceOn(dev.Ordinal()))
	p.pinned = kokkos.InSpace(cuda.HostPinnedSpaceOn(dev.Ordinal()))
	// The edge stream has the device's highest priority: its small
	// kernel, on which the halo exchange waits, becomes ready when the
	// interior before it ends, together with the next interior, and must
	// not wait behind that interior's blocks.
	var opts []cuda.StreamOption
	if priority {
		opts = append(opts, cuda.HighPriority)
	}
	edge, err := dev.NewStream(opts...)
	if err != nil {
		return nil, nil, err
	}
	inner, err := dev.NewStream()
	if err != nil {
		edge.Release()
		return nil, nil, err
	}
	p.edge, p.inner = edge, inner
	p.stage = halo == "pinned" || halo == "auto" && !mpi.CUDAAware()
	switch {
	case p.stage:
		p.how = "device rows copied on a stream to pinned host buffers, sent from there"
	case mpi.CUDAAware():
		p.how = "device rows, to the CUDA-aware library directly"
	default:
		p.how = "device rows, staged by package mpi"
	}
	if p.events, err = useEvents(space, order, p.stage); err != nil {
		edge.Release()
		inner.Release()
		return nil, nil, err
	}
	if p.events {
		p.how += "; steps ordered by events"
		p.newEvent = func() (event, error) {
			ev, err := dev.NewEvent()
			if err != nil {
				return nil, err
			}
			return cudaEvent{ev}, nil
		}
	}
	return p, func() { edge.Release(); inner.Release() }, nil
}

// A strip is one process's rows of the field, in the place's memory.
type strip struct {
	gi, ni, nj   int                   // first global row, rows, columns (all n)
	cur, next    kokkos.View2[float64] // (ni+2)×(nj+2), with the halo
	north, south int                   // neighbour ranks, -1 at the boundary
	send, recv   [2]kokkos.View1[float64]
	pipe         pipe // the event-ordered step's events and state
	hs           []halo
	reqs         []*mpi.Request // post's, reused
}

// newStrip returns rank's strip of an n×n grid cut into size strips, its
// interior set by heatInit.
func newStrip(p *place, n, rank, size int) (*strip, error) {
	s := &strip{nj: n, north: -1, south: -1}
	s.gi, s.ni = split(n, size, rank)
	if s.ni == 0 {
		return nil, fmt.Errorf("a %d×%d grid has no rows for process %d of %d", n, n, rank, size)
	}
	if rank > 0 {
		s.north = rank - 1
	}
	if rank < size-1 {
		s.south = rank + 1
	}
	var err error
	if s.cur, err = kokkos.NewView2[float64]("cur", s.ni+2, n+2, p.mem); err != nil {
		return nil, err
	}
	if s.next, err = kokkos.NewView2[float64]("next", s.ni+2, n+2, p.mem); err != nil {
		s.release()
		return nil, err
	}
	if p.stage {
		for k := range 2 {
			if s.send[k], err = kokkos.NewView1[float64]("halo out", n, p.pinned); err != nil {
				s.release()
				return nil, err
			}
			if s.recv[k], err = kokkos.NewView1[float64]("halo in", n, p.pinned); err != nil {
				s.release()
				return nil, err
			}
		}
	}
	if p.events {
		if s.pipe.ev, err = p.newEvents(); err != nil {
			s.release()
			return nil, err
		}
	}
	all := kokkos.MDRange([]int{1, 1}, []int{s.ni + 1, n + 1}).On(p.inner)
	if err := kernel.For("heat-mpi.Init", all, heatInit, s.cur, s.gi, 0, n); err != nil {
		s.release()
		return nil, err
	}
	return s, p.inner.Fence()
}

func (s *strip) release() {
	releaseEvents(&s.pipe.ev)
	for _, v := range []*kokkos.View2[float64]{&s.cur, &s.next} {
		if v.Extent(0) > 0 {
			v.Release()
		}
	}
	for k := range 2 {
		for _, v := range []*kokkos.View1[float64]{&s.send[k], &s.recv[k]} {
			if v.Extent(0) > 0 {
				v.Release()
			}
		}
	}
}

// A halo message: the neighbour, the row of u sent and the halo row
// received, and their tags (the direction the message travels).
type halo struct {
	peer, row, haloRow, sendTag, recvTag int
}

// halos returns the strip's messages, made once (the step allocates
// nothing of its own but the requests).
func (s *strip) halos() []halo {
	if s.hs != nil {
		return s.hs
	}
	hs := make([]halo, 0, 2)
	if s.north >= 0 {
		hs = append(hs, halo{s.north, 1, 0, tagNorth, tagSouth})
	}
	if s.south >= 0 {
		hs = append(hs, halo{s.south, s.ni, s.ni + 1, tagSouth, tagNorth})
	}
	s.hs = hs
	return hs
}

func row(u *kokkos.View2[float64], i int) kokkos.View1[float64] {
	return u.Subview1(i, kokkos.Pair(1, u.Extent(1)-1))
}

// pack queues the copies of u's edge rows into the send buffers on the
// edge stream, when the halos are staged.
func (s *strip) pack(p *place, u *kokkos.View2[float64]) error {
	if !p.stage {
		return nil
	}
	for k, h := range s.halos() {
		r := row(u, h.row)
		if err := kokkos.DeepCopyOn[float64](p.edge, &s.send[k], &r); err != nil {
			return err
		}
	}
	return nil
}

// post starts the exchange of u's edge rows (or the send buffers) with
// the neighbours, into u's halo rows (or the receive buffers).
func (s *strip) post(p *place, w *mpi.Comm, u *kokkos.View2[float64]) ([]*mpi.Request, error) {
	reqs := s.reqs[:0]
	defer func() { s.reqs = reqs[:0] }()
	for k, h := range s.halos() {
		send, recv := row(u, h.row), row(u, h.haloRow)
		if p.stage {
			send, recv = s.send[k], s.recv[k]
		}
		r, err := mpi.Irecv[float64](w, &recv, h.peer, h.recvTag)
		if err != nil {
			return reqs, err
		}
		reqs = append(reqs, r)
		if r, err = mpi.Isend[float64](w, &send, h.peer, h.sendTag); err != nil {
			return reqs, err
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// unpack queues the copies of the receive buffers into u's halo rows on
// the edge stream, when the halos are staged.
func (s *strip) unpack(p *place, u *kokkos.View2[float64]) error {
	if !p.stage {
		return nil
	}
	for k, h := range s.halos() {
		r := row(u, h.haloRow)
		if err := kokkos.DeepCopyOn[float64](p.edge, &r, &s.recv[k]); err != nil {
			return err
		}
	}
	return nil
}

// exchange fills u's halo rows from the neighbours, and waits.
func (s *strip) exchange(p *place, w *mpi.Comm, u *kokkos.View2[float64]) error {
	if err := s.pack(p, u); err != nil {
		return err
	}
	if err := p.edge.Fence(); err != nil {
		return err
	}
	reqs, err := s.post(p, w, u)
	if err == nil {
		err = mpi.WaitAll(reqs...)
	}
	if err != nil {
		return err
	}
	if err := s.unpack(p, u); err != nil {
		return err
	}
	return p.edge.Fence()
}

// step advances the strip by one step, next from cur, and swaps them. A
// strip without neighbours is one kernel, queued without waiting.
// Otherwise heatEdge updates the first and last rows on the edge stream
// (and the copies to the send buffers follow it there), heatStep the rows
// between
// on the inner stream while the edge rows travel; the step returns when
// both streams are done and the halo has arrived (the next step's Edge
// reads rows the interior wrote). On a place ordered by events the step
// is stepEvents (order.go), which waits for the edge stream only; last
// says that no step follows.
func (s *strip) step(p *place, w *mpi.Comm, n int, last bool) error {
	if p.events && (s.north >= 0 || s.south >= 0) {
		return s.stepEvents(p, w, n, last)
	}
	defer func() { s.cur, s.next = s.next, s.cur }()
	ro := s.cur.ReadOnly()
	if s.north < 0 && s.south < 0 {
		all := kokkos.MDRange([]int{1, 1}, []int{s.ni + 1, n + 1}).On(p.inner)
		return kernel.For("heat-mpi.Step", all, heatStep, s.next, ro, s.gi, 0, n, alpha)
	}
	edge := kokkos.MDRange([]int{0, 1}, []int{2, n + 1}).On(p.edge)
	if err := kernel.For("heat-mpi.Edge", edge, heatEdge, s.next, ro, s.gi, 0, n, s.ni, alpha); err != nil {
		return err
	}
	interior := func() error {
		if s.ni <= 2 {
			return nil
		}
		in := kokkos.MDRange([]int{2, 1}, []int{s.ni, n + 1}).On(p.inner)
		return kernel.For("heat-mpi.Step", in, heatStep, s.next, ro, s.gi, 0, n, alpha)
	}
	// heatEdge, launched first, has its few blocks scheduled before the
	// interior's; the copies to the send buffers follow it on the copy
	// engine. Package mpi stages device memory itself with copies that
	// wait for every stream's work: then the interior starts once the
	// sends are posted.
	early := p.stage || p.name != "cuda" || mpi.CUDAAware()
	if early {
		if err := interior(); err != nil {
			return err
		}
	}
	if err := s.pack(p, &s.next); err != nil {
		return err
	}
	if err := p.edge.Fence(); err != nil {
		return err
	}
	reqs, err := s.post(p, w, &s.next)
	if err != nil {
		return err
	}
	if !early {
		if err := interior(); err != nil {
			return err
		}
	}
	if err := mpi.WaitAll(reqs...); err != nil {
		return err
	}
	if err := s.unpack(p, &s.next); err != nil {
		return err
	}
	if err := p.edge.Fence(); err != nil {
		return err
	}
	return p.inner.Fence()
}

// warm launches heatStep and heatEdge once into next, which the first step
// overwrites, so that their compilation (NVRTC, on first use) is not
// timed. Both write next's edge rows: the edge stream's launch follows
// the inner stream's fence.
func (s *strip) warm(p *place, n int) error {
	ro := s.cur.ReadOnly()
	all := kokkos.MDRange([]int{1, 1}, []int{s.ni + 1, n + 1}).On(p.inner)
	if err := kernel.For("heat-mpi.Step", all, heatStep, s.next, ro, s.gi, 0, n, alpha); err != nil {
		return err
	}
	if err := p.inner.Fence(); err != nil {
		return err
	}
	edge := kokkos.MDRange([]int{0, 1}, []int{2, n + 1}).On(p.edge)
	if err := kernel.For("heat-mpi.Edge", edge, heatEdge, s.next, ro, s.gi, 0, n, s.ni, alpha); err != nil {
		return err
	}
	if err := p.edge.Fence(); err != nil {
		return err
	}
	return p.inner.Fence()
}

// hostInterior returns a host copy of the strip's interior.
func (s *strip) hostInterior() (kokkos.View2[float64], error) {
	h, err := kokkos.NewView2[float64]("interior", s.ni, s.nj)
	if err != nil {
		return h, err
	}
	in := s.cur.Subview2(kokkos.Pair(1, s.ni+1), kokkos.Pair(1, s.nj+1))
	m, err := kokkos.CreateMirrorViewAndCopy(in)
	if err != nil {
		return h, err
	}
	return h, kokkos.DeepCopy[float64](&h, &m)
}
