package containers

import (
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// umapViews are a map's arrays as views in a memory space other than
// HostSpace: used, heads, next, keys and values as umapState describes
// them, and flags, whose element 0 is the failed-insert flag (0 or 1),
// which kernels set.
type umapViews[K comparable, V any] struct {
	space                    kokkos.MemorySpace
	used, heads, next, flags kokkos.View1[uint32]
	keys                     kokkos.View1[K]
	values                   kokkos.View1[V]
}

// allocateIn makes s's arrays for capacity entries where opts say:
// Go memory for HostSpace, views in the space otherwise.
func (s *umapState[K, V]) allocateIn(capacity uint32, opts []kokkos.Option) error {
	probe, err := kokkos.NewView1[uint32](s.label, 0, opts...)
	if err != nil {
		return fmt.Errorf("containers: NewUnorderedMap(%q): %w", s.label, err)
	}
	space, traits := probe.Space(), probe.Traits()
	_ = probe.Release()
	if traits != 0 {
		return fmt.Errorf("containers: NewUnorderedMap(%q): option WithTraits(%s) is not allowed: a map's arrays are plain views: %w", s.label, traits, kokkos.ErrOption)
	}
	if space == kokkos.HostSpace {
		s.allocate(capacity)
		return nil
	}
	v, err := newUmapViews[K, V](s.label, space, capacity)
	if err != nil {
		return err
	}
	s.setViews(v, capacity)
	return nil
}

// newUmapViews allocates the arrays of an empty map of capacity entries
// in space.
func newUmapViews[K comparable, V any](label string, space kokkos.MemorySpace, capacity uint32) (v *umapViews[K, V], err error) {
	v = &umapViews[K, V]{space: space}
	in := kokkos.InSpace(space)
	defer func() {
		if err != nil {
			v.release()
			err = fmt.Errorf("containers: UnorderedMap %q of capacity %d in %s: %w", label, capacity, space.Name(), err)
		}
	}()
	if v.used, err = kokkos.NewView1[uint32](label+".used", int((capacity+31)/32), in); err != nil {
		return v, err
	}
	if v.heads, err = kokkos.NewView1[uint32](label+".heads", int(nextPrime(capacity)), in); err != nil {
		return v, err
	}
	if v.next, err = kokkos.NewView1[uint32](label+".next", int(capacity)+1, in); err != nil {
		return v, err
	}
	if v.flags, err = kokkos.NewView1[uint32](label+".flags", 1, in); err != nil {
		return v, err
	}
	if v.keys, err = kokkos.NewView1[K](label+".keys", int(capacity), in); err != nil {
		return v, err
	}
	if v.values, err = kokkos.NewView1[V](label+".values", int(capacity), in); err != nil {
		return v, err
	}
	if err = kokkos.Fill(&v.heads, UnorderedMapInvalidIndex); err != nil {
		return v, err
	}
	err = kokkos.Fill(&v.next, UnorderedMapInvalidIndex)
	return v, err
}

// release releases the views made so far.
func (v *umapViews[K, V]) release() error {
	var errs []error
	for _, u := range []*kokkos.View1[uint32]{&v.used, &v.heads, &v.next, &v.flags} {
		if u.IsAllocated() {
			errs = append(errs, u.Release())
		}
	}
	if v.keys.IsAllocated() {
		errs = append(errs, v.keys.Release())
	}
	if v.values.IsAllocated() {
		errs = append(errs, v.values.Release())
	}
	return errors.Join(errs...)
}

// setViews makes v s's storage, of capacity entries: the host methods
// work on the views' memory when the host can access it, and panic
// otherwise.
func (s *umapState[K, V]) setViews(v *umapViews[K, V], capacity uint32) {
	s.dev = v
	s.capacity = capacity
	s.lastMask = 0
	if r := capacity % 32; r != 0 {
		s.lastMask = 1<<r - 1
	}
	s.device = !v.space.HostAccessible()
	if s.device {
		s.used, s.heads, s.next, s.keys, s.values = nil, nil, nil, nil, nil
		s.failed = &s.failedBox
		return
	}
	s.used, s.heads, s.next = v.used.Data(), v.heads.Data(), v.next.Data()
	s.keys, s.values = v.keys.Data(), v.values.Data()
	if len(s.values) < int(capacity) { // a V of no bytes
		s.values = make([]V, capacity)
	}
	s.failed = (*atomic.Uint32)(unsafe.Pointer(&v.flags.Data()[0]))
}

// devicePanic is the panic of a host method, method, of a map whose
// arrays the host cannot access.
func (s *umapState[K, V]) devicePanic(method string) {
	panic(s.deviceMessage(method))
}

// deviceMessage is the message of devicePanic.
func (s *umapState[K, V]) deviceMessage(method string) string {
	if s.dev == nil {
		return fmt.Sprintf("containers: UnorderedMap %q: %s after Release", s.label, method)
	}
	return fmt.Sprintf("containers: UnorderedMap %q: %s on the host of a map in %s: %v: call it in a kernel launched there, or copy the map to one in HostSpace with DeepCopyUnorderedMap", s.label, method, s.dev.space.Name(), kokkos.ErrNotHostAccessible)
}

// viewsPanic is the panic of method for an error of a copy or fill of
// the views.
func (s *umapState[K, V]) viewsPanic(method string, err error) {
	panic(fmt.Sprintf("containers: UnorderedMap %q: %s: %v", s.label, method, err))
}

// Space returns the memory space of the map's arrays: HostSpace unless
// NewUnorderedMap was given another with kokkos.InSpace.
func (m UnorderedMap[K, V]) Space() kokkos.MemorySpace {
	s := m.state("Space")
	if s.dev != nil {
		return s.dev.space
	}
	return kokkos.HostSpace
}

// Release releases the views of a map made in a memory space other than
// HostSpace (NewUnorderedMap with InSpace), whose memory the garbage
// collector does not free; the map (and every copy of it) may not be used
// afterwards. For a map in HostSpace it does nothing.
func (m UnorderedMap[K, V]) Release() error {
	s := m.state("Release")
	if s.dev == nil {
		return nil
	}
	s.enter("Release")
	defer s.busy.Store(nil)
	err := s.dev.release()
	s.dev, s.device = nil, true
	s.used, s.heads, s.next, s.keys, s.values = nil, nil, nil, nil, nil
	s.failed = &s.failedBox
	return err
}

// hashCapacity is HashCapacity for a map whose heads the host cannot
// access.
func (s *umapState[K, V]) hashCapacity() uint32 {
	if s.dev != nil {
		return uint32(s.dev.heads.Extent(0))
	}
	return uint32(len(s.heads))
}

// deviceSize is Size of a map in device memory: the bits of used, copied
// to the host.
func (s *umapState[K, V]) deviceSize() uint32 {
	if s.dev == nil {
		s.devicePanic("Size")
	}
	used := make([]uint32, s.dev.used.Extent(0))
	if err := copyOut(used, &s.dev.used); err != nil {
		s.viewsPanic("Size", err)
	}
	n := 0
	for _, w := range used {
		n += bits.OnesCount32(w)
	}
	return uint32(n)
}

// deviceFailed is FailedInsert of a map in device memory.
func (s *umapState[K, V]) deviceFailed() bool {
	if s.dev == nil {
		s.devicePanic("FailedInsert")
	}
	var f [1]uint32
	if err := copyOut(f[:], &s.dev.flags); err != nil {
		s.viewsPanic("FailedInsert", err)
	}
	return f[0] != 0
}

// deviceFill sets the failed-insert flag of a map in device memory.
func (s *umapState[K, V]) deviceFill(method string, failed bool) {
	if s.dev == nil {
		s.devicePanic(method)
	}
	x := uint32(0)
	if failed {
		x = 1
	}
	if err := kokkos.Fill(&s.dev.flags, x); err != nil {
		s.viewsPanic(method, err)
	}
}

// copyOut copies view v into dst, of v's extent.
func copyOut[T any](dst []T, v *kokkos.View1[T]) error {
	if len(dst) == 0 {
		return nil
	}
	h, err := kokkos.WrapView1(dst, len(dst))
	if err != nil {
		return err
	}
	return kokkos.DeepCopy(&h, v)
}

// copyIn copies src into view v, of src's extent.
func copyIn[T any](v *kokkos.View1[T], src []T) error {
	if len(src) == 0 {
		return nil
	}
	h, err := kokkos.WrapView1(src, len(src))
	if err != nil {
		return err
	}
	return kokkos.DeepCopy(v, &h)
}

// viewsClear is Clear of a map whose arrays are views.
func (s *umapState[K, V]) viewsClear() {
	v := s.dev
	if v == nil {
		s.devicePanic("Clear")
	}
	var zk K
	var zv V
	err := errors.Join(
		kokkos.Fill(&v.used, 0), kokkos.Fill(&v.flags, 0),
		kokkos.Fill(&v.heads, UnorderedMapInvalidIndex), kokkos.Fill(&v.next, UnorderedMapInvalidIndex),
		kokkos.Fill(&v.keys, zk))
	if unsafe.Sizeof(zv) > 0 {
		err = errors.Join(err, kokkos.Fill(&v.values, zv))
	}
	if err != nil {
		s.viewsPanic("Clear", err)
	}
	s.erasable.Store(false)
	s.bounded = true
}

// exportHost returns s's contents in Go memory: s itself when its arrays
// are Go memory, a copy otherwise. The caller holds s (enter).
func (s *umapState[K, V]) exportHost(method string) *umapState[K, V] {
	if s.dev == nil && !s.device {
		return s
	}
	if s.dev == nil {
		s.devicePanic(method)
	}
	v := s.dev
	h := &umapState[K, V]{label: s.label, kbytes: s.kbytes, bounded: s.bounded}
	h.allocate(s.capacity)
	var flags [1]uint32
	err := errors.Join(copyOut(h.used, &v.used), copyOut(h.heads, &v.heads), copyOut(h.next, &v.next),
		copyOut(flags[:], &v.flags), copyOut(h.keys, &v.keys))
	if unsafe.Sizeof(*new(V)) > 0 {
		err = errors.Join(err, copyOut(h.values, &v.values))
	}
	if err != nil {
		s.viewsPanic(method, err)
	}
	h.failed.Store(flags[0])
	h.erasable.Store(s.erasable.Load())
	return h
}

// importHost makes s hold h's contents (h in Go memory), at h's capacity,
// in s's memory space: new views when the capacity differs. The caller
// holds s (enter).
func (s *umapState[K, V]) importHost(method string, h *umapState[K, V]) {
	if s == h {
		return
	}
	s.bounded = h.bounded
	s.erasable.Store(h.erasable.Load())
	if s.dev == nil {
		if s.device {
			s.devicePanic(method)
		}
		s.capacity, s.lastMask = h.capacity, h.lastMask
		s.used, s.heads, s.next = slices.Clone(h.used), slices.Clone(h.heads), slices.Clone(h.next)
		s.keys, s.values = slices.Clone(h.keys), slices.Clone(h.values)
		s.failed.Store(h.failed.Load())
		return
	}
	v := s.dev
	if v.keys.Extent(0) != int(h.capacity) || v.heads.Extent(0) != len(h.heads) {
		nv, err := newUmapViews[K, V](s.label, v.space, h.capacity)
		if err != nil {
			s.viewsPanic(method, err)
		}
		if err := v.release(); err != nil {
			_ = nv.release()
			s.viewsPanic(method, err)
		}
		s.setViews(nv, h.capacity)
		v = nv
	}
	flags := []uint32{h.failed.Load()}
	err := errors.Join(copyIn(&v.used, h.used), copyIn(&v.heads, h.heads), copyIn(&v.next, h.next),
		copyIn(&v.flags, flags), copyIn(&v.keys, h.keys))
	if unsafe.Sizeof(*new(V)) > 0 {
		err = errors.Join(err, copyIn(&v.values, h.values))
	}
	if err != nil {
		s.viewsPanic(method, err)
	}
}

// viewsRehash is Rehash of a map whose arrays are views: through the
// host, with the entries copied out, rehashed in Go memory, and copied
// into new views.
func (s *umapState[K, V]) viewsRehash(capacityHint int, capacity, size uint32) error {
	h := s.exportHost("Rehash")
	h.busy.Store(nil)
	if err := (UnorderedMap[K, V]{h}).Rehash(capacityHint); err != nil {
		return err
	}
	if h.capacity != capacity {
		panic(fmt.Sprintf("containers: UnorderedMap %q: Rehash(%d) of %d entries: capacity %d, want %d", s.label, capacityHint, size, h.capacity, capacity))
	}
	s.importHost("Rehash", h)
	return nil
}

// viewsEndErase is EndErase of a map in device memory, through the host.
func (s *umapState[K, V]) viewsEndErase() {
	h := s.exportHost("EndErase")
	h.erasable.Store(true)
	(UnorderedMap[K, V]{h}).EndErase()
	s.importHost("EndErase", h)
	s.erasable.Store(false)
}

// DeepCopyUnorderedMap makes dst a copy of src, Kokkos's
// deep_copy(dst, src) of two maps: dst takes src's capacity, entries (at
// the same indices), failed-insert flag and erase phase, in dst's own
// memory space, so that a map in device memory is read on the host
// through a copy in HostSpace, and one filled on the host is copied to
// the device. No other goroutine may use either map meanwhile.
func DeepCopyUnorderedMap[K comparable, V any](dst, src UnorderedMap[K, V]) {
	d, s := dst.state("DeepCopyUnorderedMap"), src.state("DeepCopyUnorderedMap")
	if d == s {
		return
	}
	s.enter("DeepCopyUnorderedMap")
	defer s.busy.Store(nil)
	d.enter("DeepCopyUnorderedMap")
	defer d.busy.Store(nil)
	h := s.exportHost("DeepCopyUnorderedMap")
	d.importHost("DeepCopyUnorderedMap", h)
}

// BackendArg returns the map's arrays as the argument of a kernel's map
// parameter, for package kernel, which binds it to a launch on a device
// instance: the map must live in that device's memory (NewUnorderedMap
// with InSpace). It returns an error for a map in HostSpace, which only
// host kernels reach, and for a released one.
func (m UnorderedMap[K, V]) BackendArg() (*backend.UMap, error) {
	s := m.s
	switch {
	case s == nil:
		return nil, errors.New("the zero UnorderedMap: make one with NewUnorderedMap")
	case s.dev == nil && s.device:
		return nil, fmt.Errorf("UnorderedMap %q was released", s.label)
	case s.dev == nil:
		return nil, fmt.Errorf("UnorderedMap %q is in HostSpace, which only host kernels reach: make it with NewUnorderedMap(..., kokkos.InSpace(space)) in the device's memory space", s.label)
	}
	v := s.dev
	u := &backend.UMap{
		Used: kokkos.Describe(&v.used), Heads: kokkos.Describe(&v.heads), Next: kokkos.Describe(&v.next),
		Flags: kokkos.Describe(&v.flags), Keys: kokkos.Describe(&v.keys),
		Erasable: s.erasable.Load(), Bounded: s.bounded,
	}
	if unsafe.Sizeof(*new(V)) > 0 {
		u.Values = kokkos.Describe(&v.values)
	}
	return u, nil
}

// BackendKinds returns the kinds of the map's keys and values as package
// backend names them (KindInvalid for a type that is not a number, and
// for a set's values), for package kernel; m may be the zero map.
func (m UnorderedMap[K, V]) BackendKinds() (key, value backend.Kind) {
	return backend.KindOf(reflect.TypeFor[K]()), backend.KindOf(reflect.TypeFor[V]())
}
