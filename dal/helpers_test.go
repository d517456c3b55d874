package dal_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// randFloat32 returns n fresh random values in [1, 2), never zero.
func randFloat32(n int) []float32 {
	p := make([]float32, n)
	for i := range p {
		p[i] = 1 + rand.Float32()
	}
	return p
}

// randFloat64 returns n fresh random values in [1, 2), never zero.
func randFloat64(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 + rand.Float64()
	}
	return p
}

// deleter counts its calls.
type deleter struct{ calls atomic.Int32 }

func (d *deleter) fn() func() { return func() { d.calls.Add(1) } }

func (d *deleter) want(t *testing.T, n int32, when string) {
	t.Helper()
	if got := d.calls.Load(); got != n {
		t.Fatalf("%s: deleter called %d times, want %d", when, got, n)
	}
}

// recovered returns the value f panics with, or nil if it does not panic.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// panics reports whether f panics.
func panics(f func()) bool { return recovered(f) != nil }

// wantPanic checks that f panics with an error that wraps kind.
func wantPanic(t *testing.T, kind error, f func()) {
	t.Helper()
	r := recovered(f)
	err, ok := r.(error)
	if !ok || !errors.Is(err, kind) {
		t.Fatalf("panic %v (%T), want an error wrapping %q", r, r, kind)
	}
}

// wantErr checks that err wraps kind.
func wantErr(t *testing.T, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want one wrapping %q", err, kind)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func same[T any](p, q []T) bool { return len(p) > 0 && len(q) > 0 && &p[0] == &q[0] }

// nowhere is a memory space that neither the host nor an allocator reaches.
type nowhere struct{}

func (nowhere) Name() string         { return "Nowhere" }
func (nowhere) HostAccessible() bool { return false }

// heapSpace is a host-accessible kokkos.BlockSpace whose blocks are Go
// memory, kept reachable until freed, so that it can count allocations and
// frees without unmapping anything. Blocks that are not asked to be zero
// are filled with 0xa5 bytes.
type heapSpace struct {
	mu            sync.Mutex
	live          map[uintptr][]uint64
	allocs, frees int
	badFrees      int // frees of blocks that were not live
	// onAllocate, if set, runs at the start of each Allocate.
	onAllocate func()
}

func newHeapSpace() *heapSpace { return &heapSpace{live: map[uintptr][]uint64{}} }

func (s *heapSpace) Name() string         { return "TestHeap" }
func (s *heapSpace) HostAccessible() bool { return true }

func (s *heapSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	if s.onAllocate != nil {
		s.onAllocate()
	}
	buf := make([]uint64, bytes/8+1)
	if !zero {
		for i := range buf {
			buf[i] = 0xa5a5a5a5a5a5a5a5
		}
	}
	p := unsafe.Pointer(&buf[0])
	addr := uintptr(p)
	s.mu.Lock()
	s.allocs++
	s.live[addr] = buf
	s.mu.Unlock()
	free := func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.live[addr]; !ok {
			s.badFrees++
		}
		delete(s.live, addr)
		s.frees++
		return nil
	}
	return backend.Block{Addr: addr, Host: p, Free: free}, nil
}

// counts returns the numbers of allocations, frees and frees of blocks
// that were not live.
func (s *heapSpace) counts() (allocs, frees, bad int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocs, s.frees, s.badFrees
}

func (s *heapSpace) want(t *testing.T, allocs, frees int, when string) {
	t.Helper()
	a, f, bad := s.counts()
	if a != allocs || f != frees || bad != 0 {
		t.Fatalf("%s: %d allocations, %d frees (%d of blocks not live); want %d and %d", when, a, f, bad, allocs, frees)
	}
}
