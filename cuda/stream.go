package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// ErrReleased is matched by the error of a call on a Stream after Release.
var ErrReleased = errors.New("cuda: stream released")

// A Stream is a CUDA stream of one device: an execution-space instance in
// Kokkos's sense. Work queued on it runs in order; Fence waits for it.
// Streams are blocking streams: the synchronous functions of this package,
// which run on the legacy default stream, start after the work queued
// earlier on every Stream of the device.
//
// A Stream is safe for concurrent use. Release it when done; a forgotten
// stream is destroyed by a runtime cleanup.
type Stream struct {
	dev *Device
	st  *streamState
}

type streamState struct {
	mu       sync.RWMutex
	dev      *Device
	h        uintptr // CUstream
	released bool

	// submitMu orders Submit calls; workErr is the first error of
	// submitted work not yet reported by Fence.
	submitMu sync.Mutex
	errMu    sync.Mutex
	workErr  error

	scratch scratch // reductions' and scans' memory, allocated on first use

	tokens tokenBits // the ids of unique tokens, allocated on first use
}

var _ backend.WorkQueue = (*Stream)(nil)

// NewStream returns a new stream on device 0.
func NewStream() (*Stream, error) {
	dev, err := GetDevice(0)
	if err != nil {
		return nil, err
	}
	return dev.NewStream()
}

// NewStream returns a new stream on the device, of the default priority,
// or of the highest one with HighPriority.
func (dev *Device) NewStream(opts ...StreamOption) (*Stream, error) {
	st := &streamState{dev: dev}
	high := false
	for _, o := range opts {
		switch o {
		case HighPriority:
			high = true
		default:
			return nil, fmt.Errorf("cuda: NewStream: unknown option %d", o)
		}
	}
	if high {
		if err := dev.newPriorityStream(st); err != nil {
			return nil, err
		}
	} else if err := dev.call("cuStreamCreate", "", dev.drv.cuStreamCreate, uintptr(unsafe.Pointer(&st.h)), 0); err != nil {
		return nil, err
	}
	s := &Stream{dev: dev, st: st}
	runtime.AddCleanup(s, func(st *streamState) { _ = st.destroy() }, st)
	return s, nil
}

func (st *streamState) destroy() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.released {
		return ErrReleased
	}
	st.released = true
	err := st.dev.call("cuStreamDestroy_v2", "", st.dev.drv.cuStreamDestroy, st.h)
	if st.scratch.dev != 0 {
		if c, unlock, berr := st.dev.bind(); berr == nil {
			st.scratch.free(c)
			unlock()
		}
	}
	st.tokens.free(st.dev)
	return err
}

// acquire read-locks the stream for one operation and returns its handle;
// the caller must call s.st.mu.RUnlock afterwards. A nil stream is the
// legacy default stream (handle 0).
func (s *Stream) acquire() (uintptr, error) {
	if s == nil {
		return 0, nil
	}
	s.st.mu.RLock()
	if s.st.released {
		s.st.mu.RUnlock()
		return 0, ErrReleased
	}
	return s.st.h, nil
}

func (s *Stream) done() {
	if s != nil {
		s.st.mu.RUnlock()
	}
}

// begin prepares a sequence of driver calls on s, or on the legacy default
// stream when s is nil, for memory of device dev: it holds s against
// Release and makes the context of s's device (dev's when s is nil)
// current on a locked thread. It returns the bound context, the stream
// handle, the device, and end, which undoes both.
func (s *Stream) begin(dev *Device) (c ctxCall, h uintptr, d *Device, end func(), err error) {
	if h, err = s.acquire(); err != nil {
		return ctxCall{}, 0, nil, nil, err
	}
	if s != nil {
		dev = s.dev
	}
	c, unlock, err := dev.bind()
	if err != nil {
		s.done()
		return ctxCall{}, 0, nil, nil, err
	}
	return c, h, dev, func() { unlock(); s.done() }, nil
}

// beginAt is begin for the device of the registered memory of n bytes at
// addr; it returns that memory's entry too, whose Label names the driver
// calls' failures.
func (s *Stream) beginAt(addr uintptr, n int) (e *entry, c ctxCall, h uintptr, d *Device, end func(), err error) {
	if e, err = lookup(addr, n); err != nil {
		return nil, ctxCall{}, 0, nil, nil, err
	}
	c, h, d, end, err = s.begin(e.dev)
	return e, c, h, d, end, err
}

// Release destroys the stream after its queued work completes. A second
// Release returns an error matching ErrReleased.
func (s *Stream) Release() error { return s.st.destroy() }

// Close is Release, for io.Closer.
func (s *Stream) Close() error { return s.Release() }

// Fence waits until all work queued on the stream is done
// (cuStreamSynchronize) and returns the first error of the work given to
// Submit since the last Fence, else the synchronization's error. Each
// error is reported once.
func (s *Stream) Fence() error {
	err := s.sync()
	s.st.errMu.Lock()
	werr := s.st.workErr
	s.st.workErr = nil
	s.st.errMu.Unlock()
	if werr != nil {
		return werr
	}
	return err
}

func (s *Stream) sync() error {
	h, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.done()
	return s.dev.call("cuStreamSynchronize", "", s.dev.drv.cuStreamSynchronize, h)
}

// Submit runs host work in the stream's order, as backend.WorkQueue asks:
// it waits for the work queued on the stream before it, then runs work on
// the calling goroutine, so work queued after Submit returns runs after
// it. Submit therefore returns when work is done; work's error (or the
// stream's, or a panic in work, as an error) is kept and returned by the
// next Fence. kokkos.DeepCopyOn and kokkos.FillOn queue their copies and
// fills of device-reachable views on the stream itself (memcpy, or one
// kernel for layout changes, strided views and fills) and hand the others
// (those through pageable host memory that need host staging) to Submit.
func (s *Stream) Submit(work func() error) {
	s.st.submitMu.Lock()
	defer s.st.submitMu.Unlock()
	err := s.sync()
	if err == nil {
		err = runWork(work)
	}
	if err != nil {
		s.st.errMu.Lock()
		if s.st.workErr == nil {
			s.st.workErr = err
		}
		s.st.errMu.Unlock()
	}
}

func runWork(work func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cuda: panic in work submitted to a stream: %v", r)
		}
	}()
	return work()
}

// Name returns "Cuda", the Kokkos execution space's name.
func (s *Stream) Name() string { return "Cuda" }

// Concurrency returns the device's resident thread count.
func (s *Stream) Concurrency() int { return s.dev.Concurrency() }

// MemorySpace returns the device memory space of the stream's device.
func (s *Stream) MemorySpace() kokkos.MemorySpace { return SpaceOn(s.dev.ordinal) }

// Device returns the stream's device.
func (s *Stream) Device() *Device { return s.dev }

// Handle returns the CUstream handle, for passing to other CUDA code. It
// is valid until Release.
func (s *Stream) Handle() uintptr { return s.st.h }

func (s *Stream) String() string {
	return fmt.Sprintf("Cuda(device %d, stream %#x)", s.dev.ordinal, s.st.h)
}

var (
	_ kokkos.ExecutionSpace = (*Stream)(nil)
	_ backend.WorkQueue     = (*Stream)(nil)
)
