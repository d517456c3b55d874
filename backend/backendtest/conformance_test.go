package backendtest_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// queue is a device-like execution-space instance: work runs in order on
// one goroutine, and Fence waits for it and returns its first error.
type queue struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	work chan func() error
	err  error
}

func newQueue(t *testing.T) *queue {
	q := &queue{work: make(chan func() error, 16)}
	go func() {
		for w := range q.work {
			if err := w(); err != nil {
				q.mu.Lock()
				q.err = errors.Join(q.err, err)
				q.mu.Unlock()
			}
			q.wg.Done()
		}
	}()
	t.Cleanup(func() { close(q.work) })
	return q
}

func (q *queue) Name() string          { return "TestQueue" }
func (q *queue) Submit(w func() error) { q.wg.Add(1); q.work <- w }
func (q *queue) Fence() error {
	q.wg.Wait()
	q.mu.Lock()
	defer q.mu.Unlock()
	err := q.err
	q.err = nil
	return err
}

var (
	_ backend.WorkQueue = (*queue)(nil)
	_ backend.Exec      = (*queue)(nil)
)

// TestFakeDeviceConformance runs the conformance suite on every variant of
// the fake device, bare and inside a CheckedSpace.
func TestFakeDeviceConformance(t *testing.T) {
	for _, host := range []bool{false, true} {
		spaces := map[string]backend.BlockSpace{
			"plain": backendtest.FakeDevice(host),
			"2D":    backendtest.FakeDevice(host).With2D(),
			"async": backendtest.FakeDevice(host).WithAsync(nil),
		}
		for name, s := range spaces {
			t.Run(name, func(t *testing.T) {
				q := newQueue(t)
				backendtest.TestSpace(t, s, q)
				cs := backendtest.NewCheckedSpace(s)
				t.Run("checked", func(t *testing.T) { backendtest.TestSpace(t, cs, q) })
				cs.AssertNoLeaks(t)
			})
		}
	}
}

// TestFakeAsyncQueues: the async fake queues a device-bound copy on a
// queue and declines an execution space it does not know.
func TestFakeAsyncQueues(t *testing.T) {
	f := backendtest.FakeDevice(false)
	var mine *queue
	fa := f.WithAsync(func(e backend.Exec) backend.WorkQueue {
		if q, ok := e.(*queue); ok && q == mine {
			return q
		}
		return nil
	})
	mine = newQueue(t)
	b, err := fa.Allocate("b", 8, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := fa.Allocate("c", 8, true)
	if err != nil {
		t.Fatal(err)
	}
	dst, src := backend.Endpoint{Space: fa, Addr: c.Addr}, backend.Endpoint{Space: fa, Addr: b.Addr}
	if q, err := fa.CopyBytesAsync(newQueue(t), dst, src, 8); q || err != nil {
		t.Errorf("CopyBytesAsync on an unknown queue = %v, %v; want false, nil", q, err)
	}
	if q, err := fa.CopyBytesAsync(mine, dst, src, 8); !q || err != nil {
		t.Errorf("CopyBytesAsync = %v, %v; want true, nil", q, err)
	}
	if err := mine.Fence(); err != nil {
		t.Fatal(err)
	}
	if fa.Queued() != 1 || f.Calls() != 1 {
		t.Errorf("Queued %d, Calls %d; want 1, 1", fa.Queued(), f.Calls())
	}
	for _, blk := range []backend.Block{b, c} {
		if err := blk.Free(); err != nil {
			t.Fatal(err)
		}
	}
	if f.Blocks() != 0 {
		t.Errorf("%d blocks left", f.Blocks())
	}
}
