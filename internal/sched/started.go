package sched

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Waits by goroutines that a queue's work started.
//
// Work on an asynchronous instance may start goroutines of its own. One of
// them that waits for the instance (its Fence, the package Fence, a copy
// without an instance) waits for the work that started it; if that work
// in turn waits for the goroutine (a channel receive, a WaitGroup), neither
// can go on. Nothing records who waits for whom through a channel, so this
// is found from the goroutines' stacks, as the runtime prints them:
//
//   - A waiter that is not the queue's own work, and was started by another
//     goroutine ("created by ... in goroutine N"), looks at the stacks of all
//     goroutines once it has waited starterFirst, and walks its line of
//     ancestors. If one of them runs the queue's work (the queue's drain
//     goroutine, or a worker of its pool while the drain goroutine is in a
//     region), the waiter is a goroutine the work started. A worker of the
//     queue's pool that waits while the drain goroutine is in a region
//     works for that region (a pattern the work issued on the pool's
//     synchronous instance), and is treated the same way.
//   - It then looks again at intervals that double up to starterPeriod.
//     If at every look for StarterBound that ancestor was blocked (on a
//     channel, in a select, on a sync primitive), the wait is refused with
//     WaitsForStarter. When the ancestor runs, the bound starts again.
//
// The first look costs a dump of every goroutine's stack, once per such
// wait that lasts starterFirst; the main goroutine and the goroutines
// no work started pay nothing more than reading their own stack. Work that
// blocks for longer than StarterBound on something else while a goroutine
// it (or earlier work on the same instance) started waits for the instance
// is refused too: such a wait is reported rather than allowed to hang.
const (
	starterFirst  = time.Millisecond
	starterPeriod = 32 * time.Millisecond
	StarterBound  = 200 * time.Millisecond // exported for the error message
)

// waitAsStarted waits for task seq of q from a goroutine that runs no
// queue's work. It returns waited, or WaitsForStarter when the caller was
// started by q's work and that work stays blocked.
func (q *Queue) waitAsStarted(seq uint64) Refusal {
	if _, parent := parseHeader(ownStack()); parent == 0 {
		q.waitPlain(seq)
		return waited
	}
	var blockedSince time.Time
	d := starterFirst
	for !q.waitFor(seq, d) {
		d = min(2*d, starterPeriod)
		blocked, ok := q.starterBlocked()
		switch {
		case !ok:
			q.waitPlain(seq) // no work of q started the caller
			return waited
		case !blocked:
			blockedSince = time.Time{}
		case blockedSince.IsZero():
			blockedSince = time.Now()
		case time.Since(blockedSince) >= StarterBound:
			return WaitsForStarter
		}
	}
	return waited
}

// waitFor waits up to d for q to complete task seq and reports whether
// it did.
func (q *Queue) waitFor(seq uint64, d time.Duration) bool {
	deadline := time.Now().Add(d)
	t := time.AfterFunc(d, func() {
		q.mu.Lock()
		q.cond.Broadcast()
		q.mu.Unlock()
	})
	defer t.Stop()
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.completed.Load() < seq {
		if !time.Now().Before(deadline) {
			return false
		}
		q.cond.Wait()
	}
	return true
}

// starterBlocked reports, from a dump of every goroutine's stack, whether
// an ancestor of the calling goroutine runs q's work (ok), and whether that
// ancestor is blocked.
func (q *Queue) starterBlocked() (blocked, ok bool) {
	gs := allGoroutines()
	self, _ := parseHeader(ownStack())
	drainer := q.drainer.Load()
	inRegion := false
	if g, found := gs[drainer]; found {
		inRegion = strings.Contains(g.stack, ownPrefix+"(*Pool).run(")
	}
	if inRegion && q.pool.isWorker(self) {
		// A worker of q's pool runs user code only inside a region, and
		// the pool runs one region at a time: the one q's work is in.
		return gs[drainer].blocked(), true
	}
	seen := map[uint64]bool{}
	for id := gs[self].parent; id != 0 && !seen[id]; id = gs[id].parent {
		seen[id] = true
		g, found := gs[id]
		if !found {
			return false, false // the line of ancestors ends in one that has exited
		}
		if id == drainer || inRegion && q.pool.isWorker(id) {
			return g.blocked(), true
		}
	}
	return false, false
}

// isWorker reports whether goroutine g is one of p's workers.
func (p *Pool) isWorker(g uint64) bool {
	for _, w := range p.workers {
		if w.gid.Load() == g {
			return true
		}
	}
	return false
}

// A goroutine as a stack dump shows it.
type goroutine struct {
	parent uint64 // the goroutine that started it, or 0
	state  string // "running", "chan receive", "select", ...
	stack  string
}

// blocked reports whether g waits for another goroutine: on a channel, in
// a select or on a sync primitive (not in a sleep or on I/O).
func (g goroutine) blocked() bool {
	for _, p := range []string{"chan ", "select", "sync.", "semacquire"} {
		if strings.HasPrefix(g.state, p) {
			return true
		}
	}
	return false
}

// ownStack returns the calling goroutine's stack trace.
func ownStack() []byte {
	buf := make([]byte, 4096)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// allGoroutines returns every goroutine by id, from runtime.Stack.
func allGoroutines() map[uint64]goroutine {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	gs := map[uint64]goroutine{}
	for _, block := range bytes.Split(buf, []byte("\n\n")) {
		id, parent := parseHeader(block)
		if id == 0 {
			continue
		}
		state := ""
		if i, j := bytes.IndexByte(block, '['), bytes.IndexByte(block, ']'); i >= 0 && j > i {
			state = string(block[i+1 : j])
		}
		gs[id] = goroutine{parent: parent, state: state, stack: string(block)}
	}
	return gs
}

// parseHeader returns the id of the goroutine whose stack trace is block,
// and the id of the goroutine that started it (0 if none is printed).
func parseHeader(block []byte) (id, parent uint64) {
	const head, created = "goroutine ", " in goroutine "
	rest, ok := bytes.CutPrefix(block, []byte(head))
	if !ok {
		return 0, 0
	}
	id = leadingUint(rest)
	if i := bytes.LastIndex(block, []byte("\ncreated by ")); i >= 0 {
		line := block[i+1:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if k := bytes.LastIndex(line, []byte(created)); k >= 0 {
			parent = leadingUint(line[k+len(created):])
		}
	}
	return id, parent
}

func leadingUint(b []byte) uint64 {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	v, _ := strconv.ParseUint(string(b[:n]), 10, 64)
	return v
}
