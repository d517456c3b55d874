package tools

import "sync"

// This file turns the events of a program's goroutines into the one
// stream of events that a Kokkos Tools library expects, as a C++ Kokkos
// program with one host thread produces it. The tools of kokkos-tools keep
// their state in plain globals, so they must never be entered from two
// threads at once; space-time-stack keeps a stack of frames and aborts
// when an end is not the innermost frame's; the simple kernel timer adds
// every end to the kernel begun last. Kernels launched from several
// goroutines overlap in time, so in a stream where each arrives when it
// happens they interleave and break all three.
//
// A stream therefore calls its library under a mutex, and lets at most one
// interval (a kernel, fence or deep copy) be open in the library at a
// time: the live one. An interval that begins while another is live waits
// in a queue with everything that arrives after it, and is begun in the
// library when the live one ends; one that has ended by then is begun and
// ended at once. Regions, allocations and deallocations reach the library
// only while no interval is live, as in a program of one thread, where
// they happen between kernels: regions nest with the intervals, and
// allocations belong to the regions open. No goroutine ever waits for
// another's kernel, only for the library's calls: the library sees every
// event, in each goroutine's order, with the calls per label right; a
// kernel that overlapped another is timed by the library from the moment
// it came to the front, so that the library's kernel time is the time
// during which at least one kernel ran, attributed to the oldest.
//
// So that the queue stays bounded while one interval stays open long (a
// long kernel on one goroutine, many short ones on others), an interval
// live while more than maxWaiting events wait is ended in the library
// there and then; its own end, later, is dropped.

// A sink is a library's entry points, which a stream calls one at a time.
type sink interface {
	// begin calls the begin function of e's kind and returns the id the
	// library wrote; end calls the end function with it.
	begin(e *event) uint64
	end(e *event, libID uint64)
	// point calls a push, pop, allocation or deallocation.
	point(e *event)
	finalize()
}

// The kinds of event.
type eventKind uint8

const (
	evFor eventKind = iota
	evReduce
	evScan
	evFence
	evCopy
	evPush
	evPop
	evAlloc
	evDealloc
)

// interval reports whether events of kind k have a begin and an end.
func (k eventKind) interval() bool { return k <= evCopy }

// An event is one event on its way to a library. Its C strings (name,
// label) are Go memory that the event keeps alive from its begin to after
// its end, as Kokkos keeps a kernel's name alive while it runs: a library
// may keep the pointer it received at the begin until the end.
type event struct {
	kind eventKind
	id   uint64 // the core's kernel or fence id
	dev  uint32
	// name is the kernel, fence or region name, the copy's destination
	// label, the allocation's label; src the copy's source label.
	name, src       *byte
	space, srcSpace string
	ptr, srcPtr     uintptr
	size            uint64
	ended           bool   // the program ended the interval
	libID           uint64 // the id the library wrote at the begin
}

// A stream delivers a program's events to one library.
type stream struct {
	mu    sync.Mutex
	lib   sink
	live  *event            // the interval open in the library
	queue []*event          // events waiting, in the order they arrived
	open  map[uint64]*event // kernels and fences begun, not yet ended
	// copies are the deep copies begun and not yet ended, oldest first:
	// EndDeepCopy carries no id and ends the last one begun, as Kokkos
	// ends the innermost.
	copies []*event
	done   bool // finalized: later events are dropped
}

func newStream(lib sink) *stream {
	return &stream{lib: lib, open: map[uint64]*event{}}
}

// beginInterval reports the begin of a kernel, fence or deep copy.
func (s *stream) beginInterval(e *event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	if e.kind == evCopy {
		s.copies = append(s.copies, e)
	} else {
		s.open[e.id] = e
	}
	if s.live == nil && len(s.queue) == 0 {
		s.deliverBegin(e)
		return
	}
	s.wait(e)
}

// maxWaiting is the number of events that may wait for the live interval
// before it is ended in the library.
const maxWaiting = 1 << 12

// wait queues e behind the live interval, or ends that interval in the
// library if too many events wait for it.
func (s *stream) wait(e *event) {
	s.queue = append(s.queue, e)
	if len(s.queue) > maxWaiting && s.live != nil {
		s.lib.end(s.live, s.live.libID)
		s.live = nil
		s.drain()
	}
}

// endInterval reports the end of the kernel or fence id.
func (s *stream) endInterval(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.open[id]
	if e == nil {
		return
	}
	delete(s.open, id)
	s.ended(e)
}

// endCopy reports the end of the deep copy begun last.
func (s *stream) endCopy() {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.copies)
	if n == 0 {
		return
	}
	e := s.copies[n-1]
	s.copies[n-1] = nil
	s.copies = s.copies[:n-1]
	s.ended(e)
}

// ended marks e ended, and ends it in the library if it is live.
func (s *stream) ended(e *event) {
	e.ended = true
	if e == s.live {
		s.lib.end(e, e.libID)
		s.live = nil
		s.drain()
	}
}

// pointEvent reports a region's push or pop, an allocation or a
// deallocation.
func (s *stream) pointEvent(e *event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	if s.live == nil && len(s.queue) == 0 {
		s.lib.point(e)
		return
	}
	s.wait(e)
}

// deliverBegin begins e in the library; e is live until it ends.
func (s *stream) deliverBegin(e *event) {
	e.libID = s.lib.begin(e)
	if e.ended {
		s.lib.end(e, e.libID)
		return
	}
	s.live = e
}

// drain delivers the waiting events, in order, until one begins an
// interval that stays live.
func (s *stream) drain() {
	for len(s.queue) > 0 && s.live == nil {
		e := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		if e.kind.interval() {
			s.deliverBegin(e)
		} else {
			s.lib.point(e)
		}
	}
	if len(s.queue) == 0 {
		s.queue = nil
	}
}

// finalize ends what is still open in the library, delivers every event
// that waits, then finalizes the library; later events are dropped.
func (s *stream) finalize() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	// Intervals still running are ended here, so that the library's
	// frames are closed when it writes its results.
	if s.live != nil {
		s.live.ended = true
		s.lib.end(s.live, s.live.libID)
		s.live = nil
	}
	for _, e := range s.queue {
		e.ended = true
	}
	s.drain()
	s.open, s.copies = nil, nil
	s.lib.finalize()
}
