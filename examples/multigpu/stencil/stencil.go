// Package stencil is the 2-D heat stencil of examples/heat split by rows
// across the GPUs of one process; examples/multigpu runs it and
// cmd/kokkos-bench's multigpu suite times it.
//
// An N×N float64 field is cut into D bands of consecutive rows
// (cuda.Split), band k on device k. Each device holds its rows plus one
// halo row above and one below, in two buffers (cur and next) of
// (rows+2)×N in LayoutRight, and has two streams: one computes, the other
// copies halos. Each step, on every device:
//
//  1. the compute stream updates the band's first and last rows (kernel
//     Rows) and records the event "boundary rows of this step done";
//  2. it updates the other rows, the interior of the band (Rows again);
//  3. meanwhile the copy stream waits for its neighbours' boundary
//     events, copies the neighbours' boundary rows into
//     next's halo rows (kokkos.DeepCopyOn of row subviews, peer to peer),
//     and records "halos of this step copied", for which the compute
//     stream waits before the next step.
//
// The host never waits for the devices while it queues the steps: the
// ordering is in the streams, through cuda.Event. One goroutine per device
// queues that device's work; they hand each other only the news that an
// event was recorded, so that a WaitEvent always names the Record of the
// same step. Those driver calls, some nine per device per step, cost the
// host as long as a step takes 4 GPUs, so Run queues them once into a
// CUDA graph of GraphSteps steps of all the devices and launches that
// (graph.go). The update is examples/heat's Step, rounded one operation at
// a time and compiled without fused multiply-adds, so every split gives
// the one-device field bit for bit.
package stencil

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sync"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Alpha is the diffusion number dt*k/h² of examples/heat.
const Alpha = 0.2

// Init sets the rows of band u (a band of (rows+2)×n whose local row i is
// global row first+i-1, halo rows included) to examples/heat's initial
// field: zero, with a hot spot of 1 around (n/3, n/3) and one of 0.75
// around (2n/3, 3n/5).
//
//kokkos:kernel
func Init(i, j int, u kokkos.View2[float64], first, n int) {
	g := first + i - 1
	r1, r2 := max(n/8, 1), max(n/10, 1)
	d1 := (g-n/3)*(g-n/3) + (j-n/3)*(j-n/3)
	d2 := (g-2*n/3)*(g-2*n/3) + (j-3*n/5)*(j-3*n/5)
	v := 0.0
	if d1 <= r1*r1 {
		v = 1
	} else if d2 <= r2*r2 {
		v = 0.75
	}
	u.Set(i, j, v)
}

// Rows advances local rows i0, i0+di, i0+2*di, ... of a band (index r is
// the r-th of them) by one step of examples/heat's Step: next is cur plus
// alpha times the 5-point Laplacian of cur, and cur on the global
// boundary (global row first+i-1 of 0 or n-1, column 0 or n-1).
//
//kokkos:kernel
func Rows(r, j int, next, cur kokkos.View2[float64], alpha float64, first, n, i0, di int) {
	i := i0 + r*di
	g := first + i - 1
	if g == 0 || j == 0 || g == n-1 || j == n-1 {
		next.Set(i, j, cur.At(i, j))
		return
	}
	c := cur.At(i, j)
	s := cur.At(i-1, j) + cur.At(i+1, j) + cur.At(i, j-1) + cur.At(i, j+1)
	// The conversions round each product before it is added, as in
	// examples/heat: Go may otherwise fuse a multiply-add, which the CUDA
	// C, compiled without fused multiply-adds, does not.
	next.Set(i, j, c+float64(alpha*(s-float64(4*c))))
}

// ErrSize is matched by the error of New for a grid too small for its
// devices (fewer than 3 points a side, or fewer rows than devices).
var ErrSize = errors.New("stencil: grid too small")

// A Band is the part of the field that one device holds: global rows
// [First, First+Rows), with a halo row on each side.
type Band struct {
	First, Rows int
}

// Bands returns the bands of an n-row field split across d devices, the
// larger first (cuda.Split).
func Bands(n, d int) []Band {
	b := make([]Band, d)
	for k := range b {
		lo, hi := cuda.Split(0, n, d, k)
		b[k] = Band{lo, hi - lo}
	}
	return b
}

// boundary returns the Rows policy extent and the (i0, di) of a band's
// first and last rows (one row when the band has one).
func (b Band) boundary() (count, i0, di int) {
	if b.Rows == 1 {
		return 1, 1, 0
	}
	return 2, 1, b.Rows - 1
}

// interior returns the same for the band's other rows (count 0 when there
// are none).
func (b Band) interior() (count, i0, di int) {
	return max(b.Rows-2, 0), 2, 1
}

// halos returns, for a band of rows rows in buffer u and its neighbours'
// buffers above and below (nil at the edge of the field), the pairs
// (destination, source) of row subviews that fill u's halo rows: the last
// row of the band above into row 0, the first row of the band below into
// row rows+1.
func halos(u *kokkos.View2[float64], rows int, above *kokkos.View2[float64], aboveRows int, below *kokkos.View2[float64]) (dst, src []kokkos.View1[float64]) {
	if above != nil {
		dst = append(dst, u.Subview1(0, kokkos.All))
		src = append(src, above.Subview1(aboveRows, kokkos.All))
	}
	if below != nil {
		dst = append(dst, u.Subview1(rows+1, kokkos.All))
		src = append(src, below.Subview1(1, kokkos.All))
	}
	return dst, src
}

// part is one device's band: its buffers, the arguments of its kernels
// and copies, and the queue they go to.
type part struct {
	Band
	k   int
	buf [2]kokkos.View2[float64]
	q   queue
	cu  *cudaQueue // q on a GPU

	// Per buffer parity p (step s reads buf[p], writes buf[1-p], p = s%2):
	// the Rows arguments, and the halo copies into buf[1-p].
	argsB, argsI       [2][]any
	hasI               bool
	haloDst, haloSrc   [2][]kokkos.View1[float64]
	fromAbove, fromBel chan struct{} // a neighbour recorded its boundary event
}

// A queue is where a part's steps go: the part's CUDA streams and events
// (cudaQueue), or, in the tests, a host emulation of them.
type queue interface {
	// rows queues Rows on the compute stream over the band's boundary
	// rows (interior false) or its other rows, reading buffer par.
	rows(p *part, par int, interior bool) error
	// recordBoundary records the boundary event of parity par on the
	// compute stream.
	recordBoundary(par int) error
	// waitBoundary makes the copy stream wait for the boundary event of
	// parity par of q, a neighbour's queue.
	waitBoundary(q queue, par int) error
	// halo queues halo copy h of parity par on the copy stream.
	halo(p *part, par, h int) error
	// copied records the halo event on the copy stream and makes the
	// compute stream wait for it.
	copied() error
}

// cudaQueue is a part's queue on a GPU.
type cudaQueue struct {
	comp, copy *cuda.Stream
	bnd        [2]*cuda.Event // boundary rows done, by step parity
	cpy        *cuda.Event    // halos copied
	polB, polI kokkos.MDRangePolicy
}

func (c *cudaQueue) rows(p *part, par int, interior bool) error {
	if interior {
		return kernel.For("stencil.Rows", c.polI, Rows, p.argsI[par]...)
	}
	return kernel.For("stencil.Rows", c.polB, Rows, p.argsB[par]...)
}

func (c *cudaQueue) recordBoundary(par int) error { return c.comp.Record(c.bnd[par]) }

func (c *cudaQueue) waitBoundary(q queue, par int) error {
	return c.copy.WaitEvent(q.(*cudaQueue).bnd[par])
}

func (c *cudaQueue) halo(p *part, par, h int) error {
	return kokkos.DeepCopyOn[float64](c.copy, &p.haloDst[par][h], &p.haloSrc[par][h])
}

func (c *cudaQueue) copied() error {
	if err := c.copy.Record(c.cpy); err != nil {
		return err
	}
	return c.comp.WaitEvent(c.cpy)
}

// link sets the kernels' arguments and the halo copies of every part, and
// their channels, once the parts have their buffers.
func link(parts []*part, n int) {
	for k, p := range parts {
		var above, below *part
		if k > 0 {
			above = parts[k-1]
		}
		if k < len(parts)-1 {
			below = parts[k+1]
		}
		_, bi0, bdi := p.boundary()
		ni, ii0, idi := p.interior()
		p.hasI = ni > 0
		for par := range 2 {
			cur, next := p.buf[par], &p.buf[1-par]
			p.argsB[par] = []any{*next, cur.ReadOnly(), Alpha, p.First, n, bi0, bdi}
			p.argsI[par] = []any{*next, cur.ReadOnly(), Alpha, p.First, n, ii0, idi}
			var a, b *kokkos.View2[float64]
			ar := 0
			if above != nil {
				a, ar = &above.buf[1-par], above.Rows
			}
			if below != nil {
				b = &below.buf[1-par]
			}
			p.haloDst[par], p.haloSrc[par] = halos(next, p.Rows, a, ar, b)
		}
		p.fromAbove, p.fromBel = make(chan struct{}, 2), make(chan struct{}, 2)
	}
}

// A Grid is an N×N field split by rows across devices.
type Grid struct {
	// Graph makes Run replay the steps as a CUDA graph of GraphSteps
	// steps of every device (graph.go), launched steps/GraphSteps times,
	// and queue only the rest on the streams; false queues every step on
	// the streams. New sets it, and GraphSteps to DefaultGraphSteps;
	// GraphSteps must be even and positive.
	Graph      bool
	GraphSteps int

	n        int
	parts    []*part
	step     int           // steps run so far
	queued   time.Duration // the last Run's time to queue its steps
	cond     conductor
	graphs   map[graphKey]replay
	graphErr error // why Graph was turned off
}

// New allocates an n×n field split across devices 0 to d-1 and sets it to
// the initial field. Release frees it. A device number the driver does not
// have is an error matching cuda.ErrInvalidDevice.
func New(n, d int) (g *Grid, err error) {
	if d < 1 {
		return nil, fmt.Errorf("%w: %d devices", ErrSize, d)
	}
	if n < 3 || n < d {
		return nil, fmt.Errorf("%w: a %d×%d grid across %d devices: want 3 or more points a side and a row per device", ErrSize, n, n, d)
	}
	g = &Grid{n: n}
	defer func() {
		if err != nil {
			g.Release()
			g = nil
		}
	}()
	for k, b := range Bands(n, d) {
		c := &cudaQueue{}
		p := &part{Band: b, k: k, q: c, cu: c}
		g.parts = append(g.parts, p)
		var dev *cuda.Device
		if dev, err = cuda.GetDevice(k); err != nil {
			return g, err
		}
		if c.comp, err = dev.NewStream(); err != nil {
			return g, err
		}
		if c.copy, err = dev.NewStream(); err != nil {
			return g, err
		}
		for i := range c.bnd {
			if c.bnd[i], err = dev.NewEvent(); err != nil {
				return g, err
			}
		}
		if c.cpy, err = dev.NewEvent(); err != nil {
			return g, err
		}
		for i := range p.buf {
			if p.buf[i], err = kokkos.NewView2[float64](fmt.Sprintf("band %d buffer %d", k, i), b.Rows+2, n, kokkos.InSpace(cuda.SpaceOn(k))); err != nil {
				return g, err
			}
		}
		nb, _, _ := p.boundary()
		ni, _, _ := p.interior()
		c.polB = kokkos.MDRange([]int{0, 0}, []int{nb, n}).On(c.comp)
		c.polI = kokkos.MDRange([]int{0, 0}, []int{max(ni, 1), n}).On(c.comp)
	}
	link(g.parts, n)
	cond, err := newCUDAConductor(g.parts)
	g.cond = cond
	if err != nil {
		return g, err
	}
	g.Graph, g.GraphSteps = true, DefaultGraphSteps
	// One step on the streams, undone by Reset, loads the kernels and
	// enables peer access, which a capture cannot do.
	if err = g.Reset(); err != nil {
		return g, err
	}
	if _, err = g.Run(1); err != nil {
		return g, err
	}
	return g, g.Reset()
}

// Devices returns the number of devices the field is split across.
func (g *Grid) Devices() int { return len(g.parts) }

// N returns the field's side.
func (g *Grid) N() int { return g.n }

// Reset sets the field to the initial one, halos included, and waits for
// it.
func (g *Grid) Reset() error {
	g.step = 0
	for _, p := range g.parts {
		pol := kokkos.MDRange([]int{0, 0}, []int{p.Rows + 2, g.n}).On(p.cu.comp)
		if err := kernel.For("stencil.Init", pol, Init, p.buf[0], p.First, g.n); err != nil {
			return err
		}
	}
	return g.fence()
}

func (g *Grid) fence() error {
	var errs []error
	for _, p := range g.parts {
		if p.cu == nil { // the tests' emulation
			continue
		}
		for _, s := range []*cuda.Stream{p.cu.comp, p.cu.copy} {
			if s != nil {
				errs = append(errs, s.Fence())
			}
		}
	}
	return errors.Join(errs...)
}

// Run advances the field by steps steps and returns the time they took,
// from the first step queued to the last one done. The host queues every
// step without waiting for the devices: with Graph, as launches of a
// graph of GraphSteps steps, captured before the clock starts on the
// first Run that needs it, and the rest of the steps on the streams; the
// steps on the streams are queued by one goroutine per device. When the
// driver cannot capture or instantiate the graph (cuda.ErrCapture: a copy
// between devices that are not peers goes through the host), Run turns
// Graph off, queues the steps on the streams and says why in GraphErr.
func (g *Grid) Run(steps int) (time.Duration, error) {
	if err := g.fence(); err != nil {
		return 0, err
	}
	launches, r, err := g.plan(steps)
	if err != nil && !errors.Is(err, ErrGraphSteps) {
		g.Graph, g.graphErr, launches = false, err, 0
		err = g.fence()
	}
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := g.queue(steps, launches, r); err != nil {
		_ = g.fence()
		return 0, err
	}
	g.queued = time.Since(start)
	err = g.fence()
	g.step += steps
	return time.Since(start), err
}

// Queued returns the time the last Run took to queue its steps, on the
// host; when it is near Run's time, the host, not the devices, sets the
// pace.
func (g *Grid) Queued() time.Duration { return g.queued }

// GraphErr returns why Run turned Graph off (nil when it did not).
func (g *Grid) GraphErr() error { return g.graphErr }

// runParts queues steps steps from step first on, one goroutine per part.
func runParts(parts []*part, first, steps int) error {
	stop := make(chan struct{})
	var once sync.Once
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for k, p := range parts {
		var above, below *part
		if k > 0 {
			above = parts[k-1]
		}
		if k < len(parts)-1 {
			below = parts[k+1]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[k] = p.run(first, steps, above, below, stop); errs[k] != nil {
				once.Do(func() { close(stop) })
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

var errStopped = errors.New("stencil: stopped: another device failed")

// run queues steps steps on p from step first on: per step, the boundary
// rows, their event (and the news of it to the neighbours' goroutines),
// the interior rows; on the copy stream, after this step's boundary
// events of its neighbours, the neighbours' boundary rows into
// p's halo rows, and the event the next step's compute waits for. A
// WaitEvent is called only after the Record it means, and before the same
// event's Record two steps later (which needs this goroutine's news of the
// next step), so that each waits for exactly its step.
func (p *part) run(first, steps int, above, below *part, stop <-chan struct{}) error {
	wait := func(ch <-chan struct{}) error {
		select {
		case <-ch:
			return nil
		case <-stop:
			return errStopped
		}
	}
	send := func(ch chan<- struct{}) error {
		select {
		case ch <- struct{}{}:
			return nil
		case <-stop:
			return errStopped
		}
	}
	q := p.q
	for s := first; s < first+steps; s++ {
		par := s % 2
		if err := q.rows(p, par, false); err != nil {
			return err
		}
		if above == nil && below == nil {
			if p.hasI {
				if err := q.rows(p, par, true); err != nil {
					return err
				}
			}
			continue
		}
		if err := q.recordBoundary(par); err != nil {
			return err
		}
		if above != nil {
			if err := send(above.fromBel); err != nil {
				return err
			}
		}
		if below != nil {
			if err := send(below.fromAbove); err != nil {
				return err
			}
		}
		if p.hasI {
			if err := q.rows(p, par, true); err != nil {
				return err
			}
		}
		// The halo rows of next were last read by this part's previous
		// step; a neighbour's boundary event of this step follows it, as
		// the neighbour's compute waited for its halos, which waited for
		// this part's boundary event of the previous step.
		h := 0
		for _, nb := range []struct {
			q  *part
			ch chan struct{}
		}{{above, p.fromAbove}, {below, p.fromBel}} {
			if nb.q == nil {
				continue
			}
			if err := wait(nb.ch); err != nil {
				return err
			}
			if err := q.waitBoundary(nb.q.q, par); err != nil {
				return err
			}
			if err := q.halo(p, par, h); err != nil {
				return err
			}
			h++
		}
		if err := q.copied(); err != nil {
			return err
		}
	}
	return nil
}

// Gather copies the field into a new n×n view in host memory.
func (g *Grid) Gather() (kokkos.View2[float64], error) {
	f, err := kokkos.NewView2[float64]("field", g.n, g.n)
	if err != nil {
		return f, err
	}
	if err := g.fence(); err != nil {
		return f, err
	}
	for _, p := range g.parts {
		cur := &p.buf[g.step%2]
		src := cur.Subview2(kokkos.Pair(1, p.Rows+1), kokkos.All)
		dst := f.Subview2(kokkos.Pair(p.First, p.First+p.Rows), kokkos.All)
		if err := kokkos.DeepCopy[float64](&dst, &src); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Release frees the views, events and streams, after their work.
func (g *Grid) Release() {
	_ = g.fence()
	_ = g.releaseGraphs()
	if c, ok := g.cond.(*cudaConductor); ok {
		c.release()
	}
	for _, p := range g.parts {
		for i := range p.buf {
			if p.buf[i].IsAllocated() {
				_ = p.buf[i].Release()
			}
		}
		for _, ev := range append(p.cu.bnd[:], p.cu.cpy) {
			if ev != nil {
				_ = ev.Release()
			}
		}
		for _, s := range []*cuda.Stream{p.cu.comp, p.cu.copy} {
			if s != nil {
				_ = s.Release()
			}
		}
	}
	g.parts = nil
}

// Checksum hashes the bits of every element of u (FNV-1a, 64 bits), in
// row-major order, as examples/heat-mpi does.
func Checksum(u *kokkos.View2[float64]) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	for i := range u.Extent(0) {
		for j := range u.Extent(1) {
			x := math.Float64bits(u.At(i, j))
			for k := range buf {
				buf[k] = byte(x >> (8 * k))
			}
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}
