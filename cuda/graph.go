package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// A Graph is a sequence of work captured from a stream (loop bodies,
// asynchronous copies and fills, reductions into device views) that
// replays as one launch, as Kokkos::Experimental::Graph and CUDA graphs
// do. A replay costs about one kernel launch whatever the number of
// kernels in it. Release it when done.
type Graph struct {
	stream *Stream
	mu     sync.Mutex
	graph  uintptr // CUgraph
	exec   uintptr // CUgraphExec
	freed  bool
	// cleanup destroys a graph dropped without Release; Release stops it,
	// so that the handles are destroyed once.
	cleanup runtime.Cleanup
}

// ErrCapture is matched (errors.Is) by the error of Capture when the work
// did something a graph cannot hold: waited for the device (a reduction
// into a Go value, a scan, a synchronous copy, Fence), or used the legacy
// default stream.
var ErrCapture = errors.New("cuda: work cannot be captured into a graph")

// streamCaptureModeRelaxed lets other goroutines use the driver while a
// stream is captured (CU_STREAM_CAPTURE_MODE_RELAXED).
const streamCaptureModeRelaxed = 2

// Capture records the work that fn queues on s into a graph, without
// running it, and returns the graph ready to replay. fn must queue its work
// on s (policies .On(s), kokkos.DeepCopyOn(s, ...)) and must not wait for
// the device: a ParallelReduce into a Go value, a ParallelScan, a
// synchronous DeepCopy or a Fence inside fn makes Capture fail with an
// error matching ErrCapture. Other goroutines must not use the legacy
// default stream of the device meanwhile.
//
// Another stream, of this device or of another, takes part in the
// capture once it waits (WaitEvent) for an event recorded during the
// capture on s or on a stream taking part; its later work then goes into
// the graph instead of running (a fork). Before fn returns, every such
// stream must be joined back: s waits for an event recorded on it after
// its last work, else the capture fails. examples/multigpu/stencil
// captures the steps of several devices so.
func Capture(s *Stream, fn func() error) (*Graph, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: the legacy default stream cannot be captured; use a Stream", ErrCapture)
	}
	h, err := s.acquire()
	if err != nil {
		return nil, err
	}
	s.done()
	dev := s.dev
	if err := dev.call("cuStreamBeginCapture_v2", "", dev.drv.cuStreamBeginCapture, h, streamCaptureModeRelaxed); err != nil {
		return nil, err
	}
	ferr := runCapture(fn)
	var graph uintptr
	eerr := dev.call("cuStreamEndCapture", "", dev.drv.cuStreamEndCapture, h, uintptr(unsafe.Pointer(&graph)))
	switch {
	case ferr != nil:
		if graph != 0 {
			_ = dev.call("cuGraphDestroy", "", dev.drv.cuGraphDestroy, graph)
		}
		var ce *Error
		if errors.As(ferr, &ce) && captureCode(ce.Code) {
			return nil, fmt.Errorf("%w: %w", ErrCapture, ferr)
		}
		return nil, ferr
	case eerr != nil:
		var ce *Error
		if errors.As(eerr, &ce) && captureCode(ce.Code) {
			return nil, fmt.Errorf("%w: %w", ErrCapture, eerr)
		}
		return nil, eerr
	}
	g := &Graph{stream: s, graph: graph}
	if err := dev.call("cuGraphInstantiateWithFlags", "", dev.drv.cuGraphInstantiate, uintptr(unsafe.Pointer(&g.exec)), graph, 0); err != nil {
		_ = dev.call("cuGraphDestroy", "", dev.drv.cuGraphDestroy, graph)
		return nil, err
	}
	g.cleanup = runtime.AddCleanup(g, func(h [2]uintptr) { destroyGraph(dev, h[0], h[1]) }, [2]uintptr{g.graph, g.exec})
	return g, nil
}

// captureCode reports whether a driver error code says a capture was
// broken: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900) to
// CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD (908), or CUDA_ERROR_NOT_PERMITTED
// (800) for a wait inside the capture.
func captureCode(code int) bool { return code >= 900 && code <= 908 || code == 800 }

func runCapture(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cuda: panic in work being captured: %v", r)
		}
	}()
	return fn()
}

func destroyGraph(dev *Device, graph, exec uintptr) {
	if exec != 0 {
		_ = dev.call("cuGraphExecDestroy", "", dev.drv.cuGraphExecDestroy, exec)
	}
	if graph != 0 {
		_ = dev.call("cuGraphDestroy", "", dev.drv.cuGraphDestroy, graph)
	}
}

// Launch queues one replay of the graph on the stream it was captured
// from and returns; the stream's Fence waits for it. The replay reads the
// views the captured work named, as they are at replay time.
func (g *Graph) Launch() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.freed {
		return fmt.Errorf("cuda: graph launched after Release: %w", ErrReleased)
	}
	c, h, _, end, err := g.stream.begin(g.stream.dev)
	if err != nil {
		return err
	}
	defer end()
	return c.do("cuGraphLaunch", "", c.dev.drv.cuGraphLaunch, g.exec, h)
}

// Release destroys the graph. A second Release returns an error matching
// ErrReleased.
func (g *Graph) Release() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.freed {
		return ErrReleased
	}
	g.freed = true
	g.cleanup.Stop()
	destroyGraph(g.stream.dev, g.graph, g.exec)
	g.graph, g.exec = 0, 0
	return nil
}
