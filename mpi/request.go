package mpi

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Request is a send or receive in flight, returned by Isend and Irecv.
// Until it completes (Wait, Test or WaitAll), the view's memory is held
// and pinned, and must not be touched; a received message lands in the
// view when the request completes.
//
// A request dropped before it completes is not lost: the package keeps
// what MPI still reads or writes (the view's memory, pinned, and any
// packing buffer), completes the request at a later call of the package
// (or in Finalize), and reports it then, as an error wrapping ErrDropped,
// to the handler of SetDropHandler. The report names the MPI call, the
// view, the peer and the tag, and, for requests started after a first one
// was dropped, the line that started it.
type Request struct {
	s *reqState
}

// reqState is a request's state. The package keeps it reachable while MPI
// may still use its memory, whether or not the Request that holds it is:
// a pinned runtime.Pinner must never become garbage.
type reqState struct {
	h       uintptr
	st      [32]byte // MPI_Status
	done    atomic.Bool
	dropped atomic.Bool // its Request became unreachable before it completed
	status  Status
	err     error
	pin     runtime.Pinner
	op      reqOp       // nil once complete, unless dropped
	call    string      // the MPI call that started it: MPI_Isend, MPI_Irecv, ...
	recv    bool        // a receive, which Finalize may cancel
	pcs     *[4]uintptr // where it started, for reports (see recordSites)
}

// reqOp is the part of a request that knows its element type.
type reqOp interface {
	// finish checks and unpacks the completed message, releases its
	// buffers and returns the elements moved.
	finish(s *reqState, code int32, bytes int) (int, error)
	// abandon releases the buffers of a request cancelled before a
	// message matched it.
	abandon()
	// describe names the view, the peer and the tag.
	describe() string
}

// chunkSize Requests share an allocation, a reqChunk, and one cleanup:
// a cleanup per Request (about 0.5 µs) would double the cost of a small
// Isend. Once every Request of a chunk is unreachable, the cleanup finds
// those of its requests that had not completed: they were dropped. A
// dropped request is therefore found once the others of its chunk, those
// started just before and after it, are unreachable too.
const chunkSize = 64

type reqChunk struct {
	reqs [chunkSize]Request
}

// chunkStates holds the states of a chunk's requests, for its cleanup and
// for Finalize; it keeps them reachable.
type chunkStates struct {
	s [chunkSize]*reqState
}

var requests struct {
	mu sync.Mutex
	// chunk is the chunk being handed out, next its free slot; weak, so
	// that it does not keep the Requests handed out reachable.
	chunk  weak.Pointer[reqChunk]
	states *chunkStates
	next   int
	chunks map[*chunkStates]struct{} // those whose cleanup has not run
	// dropped holds the requests found unreachable before they
	// completed, until they complete and are reported.
	dropped []*reqState
}

// nDropped is len(requests.dropped), read without the lock on every call;
// nLive counts the requests started and not completed.
var nDropped, nLive atomic.Int32

// recordSites makes every request record where it started (the stack
// walk of runtime.Callers, which costs more than the rest of a small
// Isend); it turns on once a request was dropped, so that the reports of
// later ones name the line.
var recordSites atomic.Bool

// newRequest returns the state of a request of the MPI call name, whose
// Go memory at ptr (nil for none) it pins.
func newRequest(name string, recv bool, op reqOp, ptr unsafe.Pointer) *reqState {
	s := &reqState{call: name, recv: recv, op: op}
	nLive.Add(1)
	if recordSites.Load() {
		s.pcs = new([4]uintptr)
		runtime.Callers(3, s.pcs[:])
	}
	if ptr != nil {
		s.pin.Pin(ptr)
	}
	return s
}

// start returns the Request of s, whose MPI call succeeded, in a chunk
// that keeps s reachable.
func (s *reqState) start() *Request {
	requests.mu.Lock()
	c := requests.chunk.Value()
	if c == nil || requests.next == chunkSize {
		// A new chunk, when the last is full or all its Requests are
		// unreachable already.
		c = new(reqChunk)
		st := new(chunkStates)
		runtime.AddCleanup(c, dropChunk, st)
		if requests.chunks == nil {
			requests.chunks = map[*chunkStates]struct{}{}
		}
		requests.chunks[st] = struct{}{}
		requests.chunk, requests.states, requests.next = weak.Make(c), st, 0
	}
	r := &c.reqs[requests.next]
	r.s = s
	requests.states.s[requests.next] = s
	requests.next++
	requests.mu.Unlock()
	return r
}

// dropChunk runs on the runtime's cleanup goroutine once every Request of
// a chunk is unreachable: those of its requests still in flight go to the
// dropped list, which the next call of the package completes and reports.
func dropChunk(st *chunkStates) {
	requests.mu.Lock()
	defer requests.mu.Unlock()
	delete(requests.chunks, st)
	for _, s := range st.s {
		if s != nil && !s.done.Load() {
			s.dropped.Store(true)
			requests.dropped = append(requests.dropped, s)
			recordSites.Store(true)
		}
	}
	nDropped.Store(int32(len(requests.dropped)))
}

// complete records the outcome of the request whose call returned code,
// with its status in s.st.
func (s *reqState) complete(code int32) {
	var bytes int
	s.status, bytes = readStatus(code, &s.st)
	s.status.Count, s.err = s.op.finish(s, code, bytes)
	s.retire()
}

// cancelled records a receive that Finalize cancelled before a message
// matched it.
func (s *reqState) cancelled() {
	s.op.abandon()
	s.err = errorf(ErrNotInitialized, "mpi: %s (%s): Finalize cancelled the receive before a message matched it", s.call, s.op.describe())
	s.retire()
}

// retire unpins a completed request and lets go of its view, which a
// dropped one keeps for its report.
func (s *reqState) retire() {
	s.pin.Unpin()
	if !s.dropped.Load() {
		s.op = nil
	}
	s.done.Store(true)
	nLive.Add(-1)
}

// test completes s if MPI says it has, and reports whether it did.
func (s *reqState) test() bool {
	var flag int32
	code := call(lib.fTest, uintptr(unsafe.Pointer(&s.h)), uintptr(unsafe.Pointer(&flag)), uintptr(unsafe.Pointer(&s.st[0])))
	if code == 0 && flag == 0 {
		return false
	}
	s.complete(code)
	return true
}

// end completes s for Finalize: a send is waited for, a receive that no
// message matched yet is cancelled.
func (s *reqState) end() {
	if s.done.Load() || s.test() {
		return
	}
	if s.recv {
		call(lib.fCancel, uintptr(unsafe.Pointer(&s.h)))
	}
	code := call(lib.fWait, uintptr(unsafe.Pointer(&s.h)), uintptr(unsafe.Pointer(&s.st[0])))
	if s.recv && code == 0 {
		var flag int32
		if r := call(lib.fTestCancelled, uintptr(unsafe.Pointer(&s.st[0])), uintptr(unsafe.Pointer(&flag))); r == 0 && flag != 0 {
			s.cancelled()
			return
		}
	}
	s.complete(code)
}

// progress completes and reports the dropped requests that MPI has
// completed; every call of the package makes it first, and it costs one
// atomic load when none was dropped.
func progress() {
	if nDropped.Load() != 0 {
		reapDropped(false)
	}
}

// reapDropped tests every dropped request and reports those that
// completed; with final (Finalize), it completes them all.
func reapDropped(final bool) {
	requests.mu.Lock()
	list := requests.dropped
	requests.dropped = nil
	nDropped.Store(0)
	requests.mu.Unlock()
	var keep []*reqState
	for _, s := range list {
		switch {
		case final:
			s.end()
		case !s.done.Load() && !s.test():
			keep = append(keep, s)
			continue
		}
		reportDrop(s)
	}
	if len(keep) > 0 {
		requests.mu.Lock()
		requests.dropped = append(requests.dropped, keep...)
		nDropped.Store(int32(len(requests.dropped)))
		requests.mu.Unlock()
	}
}

// finishAll completes, for Finalize, every request still in flight: the
// dropped ones are reported; those still held keep their outcome for a
// later Wait or Test.
func finishAll() {
	reapDropped(true)
	requests.mu.Lock()
	var held []*reqState
	for st := range requests.chunks {
		for _, s := range st.s {
			if s != nil && !s.done.Load() {
				held = append(held, s)
			}
		}
	}
	requests.mu.Unlock()
	for _, s := range held {
		s.end()
	}
	reapDropped(true) // any found unreachable meanwhile
}

// inFlight returns the number of requests started and not completed.
func inFlight() int { return int(nLive.Load()) }

var dropHandler atomic.Pointer[func(error)]

// SetDropHandler makes h receive, from now on, the report of every request
// that became unreachable before it completed, and returns the handler it
// replaces (nil for the default). h == nil restores the default, which
// writes the report to standard error. A report is an error wrapping
// ErrDropped that names the MPI call, the view, the peer, the tag and where
// the request started, and says how it ended. h runs on the goroutine of
// the package's call (or Finalize) that completed the request: it should
// return quickly and not call the package.
func SetDropHandler(h func(error)) (previous func(error)) {
	var p *func(error)
	if h != nil {
		p = &h
	}
	if old := dropHandler.Swap(p); old != nil {
		return *old
	}
	return nil
}

// reportDrop hands the report of a dropped request, now complete, to the
// handler.
func reportDrop(s *reqState) {
	how := "it completed"
	if s.err != nil {
		how = "it ended with an error: " + s.err.Error()
	}
	what := "a view"
	if s.op != nil {
		what = s.op.describe()
	}
	s.op = nil
	err := errorf(ErrDropped, "mpi: a request of %s (%s) %s was dropped before it completed; %s, and its memory was released then: keep every request until Wait, Test or WaitAll says it is done",
		s.call, what, s.site(), how)
	if h := dropHandler.Load(); h != nil {
		(*h)(err)
		return
	}
	fmt.Fprintln(os.Stderr, err)
}

// site says where the request started: "started at file:line" of the
// first caller outside package mpi's own code, where it was recorded.
func (s *reqState) site() string {
	n := 0
	for s.pcs != nil && n < len(s.pcs) && s.pcs[n] != 0 {
		n++
	}
	if n == 0 {
		return "(the first dropped, whose start the package does not record; it records where later requests start)"
	}
	frames := runtime.CallersFrames(s.pcs[:n])
	first := ""
	for {
		f, more := frames.Next()
		if first == "" {
			first = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		inPkg := strings.HasPrefix(f.Function, "github.com/gokkos/kokkos/mpi.") && !strings.HasSuffix(f.File, "_test.go")
		if !inPkg && f.File != "" {
			return fmt.Sprintf("started at %s:%d", f.File, f.Line)
		}
		if !more {
			break
		}
	}
	return "started at " + first
}

// Wait returns when the request has completed (MPI_Wait), with the
// status of a receive. A second Wait returns the first's result. A nil or
// zero Request is complete, with a zero Status.
func (r *Request) Wait() (Status, error) {
	if r == nil || r.s == nil {
		return Status{}, nil
	}
	s := r.s
	if s.done.Load() {
		return s.status, s.err
	}
	if state.Load() != stateInit {
		return Status{}, errorf(ErrNotInitialized, "mpi: Wait outside Init and Finalize")
	}
	progress()
	if serial {
		for !s.test() {
			runtime.Gosched()
		}
		return s.status, s.err
	}
	code := call(lib.fWait, uintptr(unsafe.Pointer(&s.h)), uintptr(unsafe.Pointer(&s.st[0])))
	s.complete(code)
	runtime.KeepAlive(r)
	return s.status, s.err
}

// Test reports whether the request has completed (MPI_Test), and if so
// its status and error, as Wait would return them.
func (r *Request) Test() (bool, Status, error) {
	if r == nil || r.s == nil {
		return true, Status{}, nil
	}
	s := r.s
	if s.done.Load() {
		return true, s.status, s.err
	}
	if state.Load() != stateInit {
		return false, Status{}, errorf(ErrNotInitialized, "mpi: Test outside Init and Finalize")
	}
	progress()
	done := s.test()
	runtime.KeepAlive(r)
	if !done {
		return false, Status{}, nil
	}
	return true, s.status, s.err
}

// WaitAll waits for every request (nil ones are skipped) and returns the
// errors of those that failed, joined.
func WaitAll(reqs ...*Request) error {
	var errs []error
	for i, r := range reqs {
		if r == nil {
			continue
		}
		if _, err := r.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("request %d: %w", i, err))
		}
	}
	return errors.Join(errs...)
}
