// Package devfence holds the device fences that backends register through
// backend.RegisterFence and that package kokkos runs: an immutable list,
// replaced under a lock, so that fencing takes no lock.
package devfence

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

var fences struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*fence]
}

type fence struct{ f func() error }

// Register adds f and returns the function that removes it again; calling
// that more than once does nothing.
func Register(f func() error) (remove func()) {
	e := &fence{f}
	edit(func(l []*fence) []*fence { return append(l, e) })
	return sync.OnceFunc(func() {
		edit(func(l []*fence) []*fence {
			return slices.DeleteFunc(l, func(x *fence) bool { return x == e })
		})
	})
}

// edit replaces the list with edit of a copy of it.
func edit(fn func([]*fence) []*fence) {
	fences.mu.Lock()
	defer fences.mu.Unlock()
	var l []*fence
	if old := fences.list.Load(); old != nil {
		l = slices.Clone(*old)
	}
	l = fn(l)
	fences.list.Store(&l)
}

// Run runs every registered fence and returns their errors, joined.
func Run() error {
	l := fences.list.Load()
	if l == nil || len(*l) == 0 {
		return nil
	}
	var errs []error
	for _, e := range *l {
		if err := e.f(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
