package stencil

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The tests below run runParts, the code that queues the steps on the
// GPUs, on a host emulation of streams and events: each stream is a
// goroutine that runs its operations in order, after a random pause; an
// event counts its Records and its completions, and a WaitEvent waits for
// the Record made before it was queued, as CUDA's do. A dependency that
// run forgets shows as a wrong field, or, under go test -race, as a data
// race between two streams' goroutines.

// emuStream runs the functions put on it in order, on its own goroutine.
type emuStream struct {
	ops  chan func()
	done chan struct{}
}

func newEmuStream(seed uint64, maxPause time.Duration) *emuStream {
	s := &emuStream{ops: make(chan func(), 1024), done: make(chan struct{})}
	rng := rand.New(rand.NewPCG(seed, 17))
	go func() {
		defer close(s.done)
		for op := range s.ops {
			if maxPause > 0 {
				time.Sleep(time.Duration(rng.Int64N(int64(maxPause))))
			}
			op()
		}
	}()
	return s
}

// fence waits for the work put on s so far.
func (s *emuStream) fence() {
	ch := make(chan struct{})
	s.ops <- func() { close(ch) }
	<-ch
}

func (s *emuStream) close() {
	close(s.ops)
	<-s.done
}

// emuEvent is a CUDA event: recorded counts the Records queued, done the
// ones the streams have reached.
type emuEvent struct {
	mu             sync.Mutex
	cond           *sync.Cond
	recorded, done int
	// captured: the last Record was made in a capture (emuWorld).
	captured bool
}

func newEmuEvent() *emuEvent {
	e := &emuEvent{}
	e.cond = sync.NewCond(&e.mu)
	return e
}

func (e *emuEvent) record(s *emuStream) {
	e.mu.Lock()
	e.recorded++
	v := e.recorded
	e.mu.Unlock()
	s.ops <- func() {
		e.mu.Lock()
		e.done = max(e.done, v)
		e.cond.Broadcast()
		e.mu.Unlock()
	}
}

func (e *emuEvent) waitOn(s *emuStream) {
	e.mu.Lock()
	v := e.recorded
	e.mu.Unlock()
	s.ops <- func() {
		e.mu.Lock()
		for e.done < v {
			e.cond.Wait()
		}
		e.mu.Unlock()
	}
}

// emuQueue is a part's queue on the emulation: Rows runs on the compute
// stream's goroutine (kokkos.Serial), halo copies on the copy stream's.
type emuQueue struct {
	w          *emuWorld
	comp, copy *emuStream
	bnd        [2]*emuEvent
	cpy        *emuEvent
	polB, polI kokkos.MDRangePolicy
	errs       chan error
	// noWait drops the copy stream's waits for the neighbours' boundary
	// events (TestEmulationCatchesMissingWait).
	noWait bool
}

func (e *emuQueue) fail(err error) {
	if err != nil {
		select {
		case e.errs <- err:
		default:
		}
	}
}

func (e *emuQueue) rows(p *part, par int, interior bool) error {
	pol, args := e.polB, p.argsB[par]
	if interior {
		pol, args = e.polI, p.argsI[par]
	}
	return e.w.put(e.comp, func() { e.fail(kernel.For("stencil.Rows", pol, Rows, args...)) })
}

func (e *emuQueue) recordBoundary(par int) error {
	return e.w.record(e.comp, e.bnd[par])
}

func (e *emuQueue) waitBoundary(q queue, par int) error {
	if e.noWait {
		return nil
	}
	return e.w.wait(e.copy, q.(*emuQueue).bnd[par])
}

func (e *emuQueue) halo(p *part, par, h int) error {
	dst, src := p.haloDst[par][h], p.haloSrc[par][h]
	return e.w.put(e.copy, func() { e.fail(kokkos.DeepCopyOn[float64](kokkos.Serial{}, &dst, &src)) })
}

func (e *emuQueue) copied() error {
	if err := e.w.record(e.copy, e.cpy); err != nil {
		return err
	}
	return e.w.wait(e.comp, e.cpy)
}

// An emuCase is one emulated run: an n×n field split in d bands, steps
// steps in calls of Run of at most chunk steps, with random pauses up to
// pause. graphSteps > 0 replays graphs of that many steps (Grid.Graph).
// noWait, noJoin and noFork leave out dependencies on purpose: the
// copy streams' waits for the neighbours, the join before a graph's
// launches and the fork after them. slowLast makes the last band's
// streams pause up to ten times longer. failCapture makes every capture
// fail; the steps then go through Grid.Run, which must turn Graph off.
type emuCase struct {
	n, d, steps, chunk, graphSteps                int
	seed                                          uint64
	pause                                         time.Duration
	noWait, noJoin, noFork, slowLast, failCapture bool
}

// emulate runs c on the emulation, through Grid's plan and queue as Run
// does, and returns the field.
func emulate(t *testing.T, c emuCase) [][]float64 {
	t.Helper()
	n := c.n
	errs := make(chan error, 1)
	w := &emuWorld{seed: c.seed + 1000, pause: c.pause}
	var parts []*part
	serial := kokkos.Serial{}
	for k, b := range Bands(n, c.d) {
		pause := c.pause
		if c.slowLast && k == c.d-1 {
			pause *= 10
		}
		e := &emuQueue{w: w, comp: newEmuStream(c.seed+uint64(2*k), pause), copy: newEmuStream(c.seed+uint64(2*k+1), pause),
			bnd: [2]*emuEvent{newEmuEvent(), newEmuEvent()}, cpy: newEmuEvent(), errs: errs, noWait: c.noWait}
		defer e.comp.close()
		defer e.copy.close()
		nb, _, _ := b.boundary()
		ni, _, _ := b.interior()
		e.polB = kokkos.MDRange([]int{0, 0}, []int{nb, n}).On(serial)
		e.polI = kokkos.MDRange([]int{0, 0}, []int{max(ni, 1), n}).On(serial)
		p := &part{Band: b, k: k, q: e}
		for i := range p.buf {
			p.buf[i] = kokkos.Must(kokkos.NewView2[float64]("band", b.Rows+2, n))
		}
		if err := kernel.For("stencil.Init", kokkos.MDRange([]int{0, 0}, []int{b.Rows + 2, n}).On(serial), Init, p.buf[0], b.First, n); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	link(parts, n)
	cond := newEmuConductor(w, parts)
	cond.noJoin, cond.noFork, cond.fail = c.noJoin, c.noFork, c.failCapture
	g := &Grid{n: n, parts: parts, cond: cond, Graph: c.graphSteps > 0, GraphSteps: c.graphSteps}
	defer func() {
		if err := g.releaseGraphs(); err != nil {
			t.Error(err)
		}
	}()
	for s := 0; s < c.steps; s += c.chunk {
		steps := min(c.chunk, c.steps-s)
		if c.failCapture {
			if _, err := g.Run(steps); err != nil {
				t.Fatal(err)
			}
			if g.Graph || !errors.Is(g.GraphErr(), errEmuCapture) {
				t.Fatalf("Run after a failed capture: Graph %v, GraphErr %v", g.Graph, g.GraphErr())
			}
			continue
		}
		launches, r, err := g.plan(steps)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.queue(steps, launches, r); err != nil {
			t.Fatal(err)
		}
		g.step += steps
		if c.graphSteps > 0 && steps >= c.graphSteps && launches != steps/c.graphSteps {
			t.Fatalf("%d steps: %d launches of %d steps", steps, launches, c.graphSteps)
		}
	}
	for _, p := range parts {
		e := p.q.(*emuQueue)
		e.comp.fence()
		e.copy.fence()
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if len(g.graphs) > 2 || !c.failCapture && w.captures != len(g.graphs) {
		t.Fatalf("%d captures, %d graphs cached, want one per starting parity", w.captures, len(g.graphs))
	}
	f := make([][]float64, 0, n)
	for _, p := range parts {
		u := p.buf[c.steps%2]
		for i := 1; i <= p.Rows; i++ {
			row := make([]float64, n)
			for j := range row {
				row[j] = u.At(i, j)
			}
			f = append(f, row)
		}
	}
	return f
}

// TestEmulatedStreams runs the queued steps on emulated streams with
// random pauses, for 1 to 5 bands (bands of 1 and 2 rows among them),
// against the whole-field stencil, bit for bit.
func TestEmulatedStreams(t *testing.T) {
	for _, c := range []struct{ n, d, steps, chunk int }{
		{17, 1, 9, 9}, {17, 2, 12, 5}, {17, 3, 11, 11}, {9, 4, 10, 3}, {10, 5, 13, 13}, {5, 5, 7, 2},
	} {
		want := serial(c.n, c.steps)
		for seed := range uint64(3) {
			got := emulate(t, emuCase{n: c.n, d: c.d, steps: c.steps, chunk: c.chunk, seed: 100*seed + 1, pause: 200 * time.Microsecond})
			for i := range want {
				for j := range want[i] {
					if got[i][j] != want[i][j] {
						t.Fatalf("n %d, %d bands, %d steps, seed %d: (%d, %d) = %v, want %v", c.n, c.d, c.steps, seed, i, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}

// TestEmulationCatchesMissingWait checks the emulation itself: without
// the copy stream's waits for the neighbours' boundary events, halo rows
// are copied before the neighbours have computed them, and some run gives
// a wrong field.
func TestEmulationCatchesMissingWait(t *testing.T) {
	if testing.Short() {
		t.Skip("several runs with pauses")
	}
	if raceEnabled {
		t.Skip("the race detector reports the race this test makes on purpose")
	}
	want := serial(12, 16)
	for seed := range uint64(20) {
		got := emulate(t, emuCase{n: 12, d: 3, steps: 16, chunk: 16, seed: seed + 7, pause: 300 * time.Microsecond, noWait: true})
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					return
				}
			}
		}
	}
	t.Fatal("20 runs without the wait gave the right field: the emulation does not reorder enough to test run")
}
