package sched

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos/internal/errs"
)

// within fails the test if f has not returned after 10 s.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting after 10s", what)
	}
}

func taskOf(label string, f func()) *Dispatch {
	return &Dispatch{Label: label, Kind: KindTask, Task: f}
}

// TestQueueOrder: tasks and regions run in submission order, one at a
// time; Fence waits for them.
func TestQueueOrder(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	q := NewQueue(p)
	defer q.Stop()
	var log []int
	for i := range 100 {
		if i%10 == 0 {
			var n atomic.Int64
			q.Push(&Dispatch{Label: "region", End: 1000, Chunk: 7, Body: func(lo, hi int) { n.Add(int64(hi - lo)) }}, false, nil)
			q.Push(taskOf("check", func() {
				if n.Load() != 1000 {
					t.Errorf("region ran %d units before the next task", n.Load())
				}
			}), false, nil)
		}
		q.Push(taskOf("log", func() { log = append(log, i) }), false, nil)
	}
	within(t, "Fence", func() {
		if err := q.Fence("Fence"); err != nil {
			t.Error(err)
		}
	})
	for i, v := range log {
		if v != i {
			t.Fatalf("log[%d] = %d", i, v)
		}
	}
}

// TestQueueErrors: an asynchronous task's error is reported once by the
// queue's Fence and once by TakeErrors; a waiting Push panics with it.
func TestQueueErrors(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	q := NewQueue(p)
	defer q.Stop()
	errWork := errors.New("work failed")
	q.Push(&Dispatch{Label: "work", Kind: KindTask, Work: func() error { return errWork }}, false, nil)
	q.Push(taskOf("panics", func() { panic("later") }), false, nil)
	if err := q.Fence("Fence"); err != errWork {
		t.Fatalf("Fence: %v", err)
	}
	if err := q.Fence("Fence"); err != nil {
		t.Fatalf("second Fence: %v", err)
	}
	found := false
	for _, err := range TakeErrors() {
		found = found || err == errWork
	}
	if !found {
		t.Fatal("TakeErrors lost the error")
	}
	r := func() (r any) {
		defer func() { r = recover() }()
		q.Push(&Dispatch{Label: "wait", End: 10, Chunk: 1, Body: func(lo, hi int) { panic("now") }}, true, nil)
		return nil
	}()
	if pe, ok := r.(*errs.PanicError); !ok || pe.Label != "wait" || pe.Value != "now" {
		t.Fatalf("waiting Push panicked with %#v", r)
	}
}

// TestQueueWaitsForItself: from the queue's own work, a Fence is refused
// and a waiting Push runs inline.
func TestQueueWaitsForItself(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	q := NewQueue(p)
	defer q.Stop()
	var fenceErr error
	inline := false
	q.Push(taskOf("outer", func() {
		fenceErr = q.Fence("Fence")
		q.Push(taskOf("inner", func() { inline = true }), true, nil)
	}), false, nil)
	within(t, "Fence", func() {
		if err := q.Fence("Fence"); err != nil {
			t.Error(err)
		}
	})
	if !errors.Is(fenceErr, errs.ErrWouldDeadlock) || !inline {
		t.Fatalf("Fence from own work: %v; inner ran inline: %v", fenceErr, inline)
	}
	if err := WaitQueues("WaitQueues", p); err != nil {
		t.Fatal(err)
	}
}

// TestQueueWaitCycle: of two queues whose work waits for each other, one
// wait is refused and the other goes on.
func TestQueueWaitCycle(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	a, b := NewQueue(p), NewQueue(p)
	defer a.Stop()
	defer b.Stop()
	start := make(chan struct{})
	var ea, eb error
	a.Push(taskOf("a", func() { <-start; ea = b.Fence("Fence") }), false, nil)
	b.Push(taskOf("b", func() { <-start; eb = a.Fence("Fence") }), false, nil)
	close(start)
	within(t, "fences", func() {
		_ = a.Fence("Fence")
		_ = b.Fence("Fence")
	})
	if (ea == nil) == (eb == nil) {
		t.Fatalf("errors %v and %v: want exactly one refused", ea, eb)
	}
	if err := errors.Join(ea, eb); !errors.Is(err, errs.ErrWouldDeadlock) {
		t.Fatal(err)
	}
}

// TestQueueStop: a stopped queue's goroutine ends after its work; work
// pushed later starts a new one.
func TestQueueStop(t *testing.T) {
	p := NewPool(1)
	defer p.Close()
	q := NewQueue(p)
	var n atomic.Int32
	q.Push(taskOf("one", func() { n.Add(1) }), false, nil)
	q.Stop()
	q.Push(taskOf("two", func() { n.Add(1) }), false, nil)
	within(t, "Fence", func() {
		if err := q.Fence("Fence"); err != nil {
			t.Error(err)
		}
	})
	q.Stop()
	if n.Load() != 2 {
		t.Fatalf("%d tasks ran", n.Load())
	}
}
