package stencil

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// The host emulation of CUDA graphs. While a graph is captured, the
// host's calls on the emulated streams (an operation, a Record, a
// WaitEvent) are recorded instead of queued, with CUDA's rules checked: a
// stream takes part in the capture only once it has waited for an event
// recorded in the capture (the origin from the start), a WaitEvent in the
// capture names an event recorded in it, and every stream drawn in is
// joined back (the origin waits for an event recorded after the stream's
// last call). A launch replays the calls in their order: the origin's on
// the origin, the others' on streams of the graph's own, so that, as
// with CUDA, a launch is ordered with the origin's earlier and later work
// and with nothing else, except through the captured fork and join. A
// WaitEvent outside a capture for an event last recorded inside one is an
// error, as it is for CUDA.

// emuWorld is the host side of the emulated driver.
type emuWorld struct {
	seed     uint64
	pause    time.Duration
	mu       sync.Mutex
	cap      *emuCapture // non-nil while a graph is captured
	captures int
}

// An emuCall is one host call in a capture: fn queues its operations on
// the stream it is given (s, or the graph's stream in s's place).
type emuCall struct {
	s  *emuStream
	fn func(t *emuStream)
}

type emuCapture struct {
	origin *emuStream
	calls  []emuCall
	in     map[*emuStream]bool
	ops    map[*emuStream]int    // calls on each stream so far
	recAt  map[*emuEvent]emuMark // where each event was last recorded
	joined map[*emuStream]int    // calls of each stream the origin has waited for
}

type emuMark struct {
	s  *emuStream
	at int
}

var errEmuCapture = errors.New("emulated capture broken")

func (w *emuWorld) begin(origin *emuStream) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cap != nil {
		return fmt.Errorf("%w: capture already under way", errEmuCapture)
	}
	w.cap = &emuCapture{origin: origin, in: map[*emuStream]bool{origin: true}, ops: map[*emuStream]int{},
		recAt: map[*emuEvent]emuMark{}, joined: map[*emuStream]int{}}
	return nil
}

// end ends the capture and returns its calls, or why it is broken.
func (w *emuWorld) end() ([]emuCall, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.cap
	w.cap = nil
	w.captures++
	for s := range c.in {
		if s != c.origin && c.joined[s] < c.ops[s] {
			return nil, fmt.Errorf("%w: a stream's last %d call(s) not joined into the origin", errEmuCapture, c.ops[s]-c.joined[s])
		}
	}
	return c.calls, nil
}

// add records a call on s in the capture, after checking that s is in it.
func (c *emuCapture) add(s *emuStream, fn func(t *emuStream)) error {
	if !c.in[s] {
		return fmt.Errorf("%w: a stream not in the capture used during it", errEmuCapture)
	}
	c.ops[s]++
	c.calls = append(c.calls, emuCall{s, fn})
	return nil
}

// put queues op on s.
func (w *emuWorld) put(s *emuStream, op func()) error {
	w.mu.Lock()
	if c := w.cap; c != nil {
		defer w.mu.Unlock()
		return c.add(s, func(t *emuStream) { t.ops <- op })
	}
	w.mu.Unlock()
	s.ops <- op
	return nil
}

// record records e on s.
func (w *emuWorld) record(s *emuStream, e *emuEvent) error {
	w.mu.Lock()
	if c := w.cap; c != nil {
		defer w.mu.Unlock()
		if err := c.add(s, func(t *emuStream) { e.record(t) }); err != nil {
			return err
		}
		c.recAt[e] = emuMark{s, c.ops[s]}
		e.mu.Lock()
		e.captured = true
		e.mu.Unlock()
		return nil
	}
	w.mu.Unlock()
	e.mu.Lock()
	e.captured = false
	e.mu.Unlock()
	e.record(s)
	return nil
}

// wait makes s wait for e.
func (w *emuWorld) wait(s *emuStream, e *emuEvent) error {
	w.mu.Lock()
	if c := w.cap; c != nil {
		defer w.mu.Unlock()
		m, ok := c.recAt[e]
		if !ok {
			return fmt.Errorf("%w: a wait in the capture for an event recorded outside it", errEmuCapture)
		}
		c.in[s] = true
		if err := c.add(s, func(t *emuStream) { e.waitOn(t) }); err != nil {
			return err
		}
		if s == c.origin {
			c.joined[m.s] = max(c.joined[m.s], m.at)
		}
		return nil
	}
	w.mu.Unlock()
	e.mu.Lock()
	captured := e.captured
	e.mu.Unlock()
	if captured {
		return fmt.Errorf("%w: a wait outside a capture for an event last recorded inside one", errEmuCapture)
	}
	e.waitOn(s)
	return nil
}

func (w *emuWorld) capturing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cap != nil
}

// emuConductor is the conductor of the emulated streams; noJoin and
// noFork leave out the join before a graph's launches and the fork after
// them (outside captures), to check that the emulation notices.
type emuConductor struct {
	w              *emuWorld
	origin         *emuStream
	others         []*emuStream
	forkEv         *emuEvent
	joinEv         []*emuEvent
	noJoin, noFork bool
	fail           bool // every capture fails
}

func newEmuConductor(w *emuWorld, parts []*part) *emuConductor {
	q0 := parts[0].q.(*emuQueue)
	c := &emuConductor{w: w, origin: q0.comp, forkEv: newEmuEvent()}
	for _, p := range parts {
		q := p.q.(*emuQueue)
		for _, s := range []*emuStream{q.comp, q.copy} {
			if s != c.origin {
				c.others = append(c.others, s)
				c.joinEv = append(c.joinEv, newEmuEvent())
			}
		}
	}
	return c
}

func (c *emuConductor) fork() error {
	if c.noFork && !c.w.capturing() {
		return nil
	}
	if err := c.w.record(c.origin, c.forkEv); err != nil {
		return err
	}
	for _, s := range c.others {
		if err := c.w.wait(s, c.forkEv); err != nil {
			return err
		}
	}
	return nil
}

func (c *emuConductor) join() error {
	if c.noJoin && !c.w.capturing() {
		return nil
	}
	for i, s := range c.others {
		if err := c.w.record(s, c.joinEv[i]); err != nil {
			return err
		}
		if err := c.w.wait(c.origin, c.joinEv[i]); err != nil {
			return err
		}
	}
	return nil
}

func (c *emuConductor) capture(fn func() error) (replay, error) {
	if err := c.w.begin(c.origin); err != nil {
		return nil, err
	}
	err := c.fork()
	if c.fail {
		err = errors.Join(err, fmt.Errorf("%w: failing on purpose", errEmuCapture))
	}
	if err == nil {
		err = errors.Join(fn(), c.join())
	}
	calls, eerr := c.w.end()
	if err = errors.Join(err, eerr); err != nil {
		return nil, err
	}
	return &emuGraph{w: c.w, origin: c.origin, calls: calls, own: map[*emuStream]*emuStream{}}, nil
}

// emuGraph is a captured graph: its calls, and its streams in place of
// the streams other than the origin.
type emuGraph struct {
	w      *emuWorld
	origin *emuStream
	calls  []emuCall
	own    map[*emuStream]*emuStream
}

func (g *emuGraph) launch() error {
	if g.w.capturing() {
		return fmt.Errorf("%w: a launch during a capture", errEmuCapture)
	}
	for _, c := range g.calls {
		t := c.s
		if t != g.origin {
			if g.own[t] == nil {
				g.w.mu.Lock()
				g.w.seed++
				g.own[t] = newEmuStream(g.w.seed, g.w.pause)
				g.w.mu.Unlock()
			}
			t = g.own[t]
		}
		c.fn(t)
	}
	return nil
}

func (g *emuGraph) release() error {
	for _, s := range g.own {
		s.close()
	}
	return nil
}

// TestEmulatedGraphs runs the steps as graph launches and the rest on
// the streams, on the emulation, for 1 to 5 bands, Runs of several sizes
// (graphs of both starting parities, Runs shorter than a graph), against
// the whole-field stencil, bit for bit.
func TestEmulatedGraphs(t *testing.T) {
	for _, c := range []emuCase{
		{n: 17, d: 1, steps: 9, chunk: 9, graphSteps: 4},
		{n: 17, d: 2, steps: 12, chunk: 5, graphSteps: 2},
		{n: 17, d: 3, steps: 23, chunk: 11, graphSteps: 4},
		{n: 9, d: 4, steps: 10, chunk: 10, graphSteps: 10},
		{n: 10, d: 5, steps: 16, chunk: 7, graphSteps: 6},
		{n: 5, d: 5, steps: 7, chunk: 3, graphSteps: 2},
		{n: 13, d: 3, steps: 11, chunk: 5, graphSteps: 2, failCapture: true},
	} {
		want := serial(c.n, c.steps)
		for seed := range uint64(2) {
			c.seed, c.pause, c.slowLast = 100*seed+3, 200*time.Microsecond, seed == 1
			got := emulate(t, c)
			for i := range want {
				for j := range want[i] {
					if got[i][j] != want[i][j] {
						t.Fatalf("%+v: (%d, %d) = %v, want %v", c, i, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}

// TestEmulationCatchesMissingJoinFork checks the emulation of graphs:
// without the join before the launches, a graph starts while the other
// streams still run the previous Run's last steps; without the fork after
// them, the steps queued on the streams after the graph start before it
// is done; some run gives a wrong field. The last band's streams are
// slow: the neighbours keep the bands within a step of each other, and
// a graph waits for its origin, which would otherwise be the last.
func TestEmulationCatchesMissingJoinFork(t *testing.T) {
	if testing.Short() {
		t.Skip("several runs with pauses")
	}
	if raceEnabled {
		t.Skip("the race detector reports the races this test makes on purpose")
	}
	want := serial(12, 14)
	for _, name := range []string{"join", "fork"} {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(20) {
				c := emuCase{n: 12, d: 3, steps: 14, chunk: 7, graphSteps: 4, seed: seed + 11, pause: 300 * time.Microsecond,
					noJoin: name == "join", noFork: name == "fork", slowLast: true}
				got := emulate(t, c)
				for i := range want {
					for j := range want[i] {
						if got[i][j] != want[i][j] {
							return
						}
					}
				}
			}
			t.Fatalf("20 runs without the %s gave the right field", name)
		})
	}
}

// TestEmulatedCaptureRules checks that the emulated capture refuses what
// CUDA's does.
func TestEmulatedCaptureRules(t *testing.T) {
	origin, x := newEmuStream(1, 0), newEmuStream(2, 0)
	defer origin.close()
	defer x.close()
	nop := func() {}
	for _, c := range []struct {
		name, want string
		body       func(w *emuWorld) error
	}{
		{"stream not forked", "not in the capture", func(w *emuWorld) error { return w.put(x, nop) }},
		{"wait for an outside event", "recorded outside it", func(w *emuWorld) error {
			w.mu.Lock()
			c := w.cap
			w.cap = nil
			w.mu.Unlock()
			ev := newEmuEvent()
			_ = w.record(origin, ev)
			w.mu.Lock()
			w.cap = c
			w.mu.Unlock()
			return w.wait(x, ev)
		}},
		{"not joined", "not joined", func(w *emuWorld) error {
			ev := newEmuEvent()
			if err := errors.Join(w.record(origin, ev), w.wait(x, ev), w.put(x, nop)); err != nil {
				return err
			}
			_, err := w.end()
			w.cap = &emuCapture{} // end has ended it
			return err
		}},
	} {
		w := &emuWorld{}
		if err := w.begin(origin); err != nil {
			t.Fatal(err)
		}
		err := c.body(w)
		if !errors.Is(err, errEmuCapture) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A wait outside a capture for an event recorded inside one.
	w := &emuWorld{}
	ev := newEmuEvent()
	if err := errors.Join(w.begin(origin), w.record(origin, ev)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.end(); err != nil {
		t.Fatal(err)
	}
	if err := w.wait(x, ev); err == nil || !strings.Contains(err.Error(), "last recorded inside one") {
		t.Errorf("wait outside for a captured event: %v", err)
	}
}
