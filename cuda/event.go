package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// ErrEventReleased is matched by the error of a call on an Event after
// Release.
var ErrEventReleased = errors.New("cuda: event released")

// ErrEventDevice is matched by the error of Record when the event and the
// stream belong to different devices (a stream records only its own
// device's events; any stream can wait on any device's event).
var ErrEventDevice = errors.New("cuda: event and stream of different devices")

// An Event marks a point in a stream's queue, so that the work of another
// stream, of the same device or of another one, can wait for the work
// queued before that point without the host waiting: Record places the
// event on a stream, WaitEvent makes a stream's later work wait for the
// most recent Record. Events are created without timing
// (CU_EVENT_DISABLE_TIMING), the cheapest kind. An event can be recorded
// again and again; a WaitEvent waits for the Record made before it was
// called.
//
// Kokkos has no events: it orders execution-space instances by fences on
// the host, or leaves the ordering to the native API of the backend. An
// Event is that native ordering for gokkos's CUDA streams.
//
// An Event is safe for concurrent use. Release it when done; a forgotten
// event is destroyed by a runtime cleanup.
type Event struct {
	dev *Device
	st  *eventState
}

type eventState struct {
	mu       sync.RWMutex
	dev      *Device
	h        uintptr // CUevent
	released bool
}

// liveEvents counts the events created and not yet destroyed.
var liveEvents atomic.Int64

// NewEvent returns a new event of the device.
func (dev *Device) NewEvent() (*Event, error) {
	const disableTiming = 2 // CU_EVENT_DISABLE_TIMING
	st := &eventState{dev: dev}
	if err := dev.call("cuEventCreate", "", dev.drv.cuEventCreate, uintptr(unsafe.Pointer(&st.h)), disableTiming); err != nil {
		return nil, err
	}
	liveEvents.Add(1)
	ev := &Event{dev: dev, st: st}
	runtime.AddCleanup(ev, func(st *eventState) { _ = st.destroy() }, st)
	return ev, nil
}

func (st *eventState) destroy() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.released {
		return ErrEventReleased
	}
	st.released = true
	liveEvents.Add(-1)
	return st.dev.call("cuEventDestroy_v2", "", st.dev.drv.cuEventDestroy, st.h)
}

// acquire read-locks the event and returns its handle; the caller must
// call ev.st.mu.RUnlock afterwards.
func (ev *Event) acquire() (uintptr, error) {
	ev.st.mu.RLock()
	if ev.st.released {
		ev.st.mu.RUnlock()
		return 0, ErrEventReleased
	}
	return ev.st.h, nil
}

// Record places ev on s's queue (cuEventRecord): the event completes when
// the work queued on s before it is done, and later WaitEvent calls wait
// for this Record instead of the earlier ones. ev and s must be of one
// device (ErrEventDevice otherwise).
func (s *Stream) Record(ev *Event) error {
	if ev.dev != s.dev {
		return fmt.Errorf("%w: an event of device %d recorded on a stream of device %d", ErrEventDevice, ev.dev.ordinal, s.dev.ordinal)
	}
	eh, err := ev.acquire()
	if err != nil {
		return err
	}
	defer ev.st.mu.RUnlock()
	h, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.done()
	return s.dev.call("cuEventRecord", "", s.dev.drv.cuEventRecord, eh, h)
}

// WaitEvent makes the work queued on s after the call wait until ev's most
// recent Record completes (cuStreamWaitEvent), on the device, without the
// host waiting. ev may belong to another device. Waiting for an event
// never recorded waits for nothing.
func (s *Stream) WaitEvent(ev *Event) error {
	eh, err := ev.acquire()
	if err != nil {
		return err
	}
	defer ev.st.mu.RUnlock()
	h, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.done()
	return s.dev.call("cuStreamWaitEvent", "", s.dev.drv.cuStreamWaitEvent, h, eh, 0)
}

// Synchronize waits on the host until ev's most recent Record completes
// (cuEventSynchronize).
func (ev *Event) Synchronize() error {
	eh, err := ev.acquire()
	if err != nil {
		return err
	}
	defer ev.st.mu.RUnlock()
	return ev.dev.call("cuEventSynchronize", "", ev.dev.drv.cuEventSynchronize, eh)
}

// Device returns the event's device.
func (ev *Event) Device() *Device { return ev.dev }

// Release destroys the event; work already waiting for it is not affected.
// A second Release returns an error matching ErrEventReleased.
func (ev *Event) Release() error { return ev.st.destroy() }

// Close is Release, for io.Closer.
func (ev *Event) Close() error { return ev.Release() }

func (ev *Event) String() string {
	return fmt.Sprintf("Event(device %d, %#x)", ev.dev.ordinal, ev.st.h)
}
