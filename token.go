package kokkos

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A UniqueToken hands out ids in [0, Size()), each unique among the ids
// held at the same time: Acquire takes one, Release gives it back, and a
// released id is handed out again. It is Kokkos's
// Kokkos::Experimental::UniqueToken, the usual answer to contention (one
// copy of a histogram or an accumulator per id) and to random numbers
// (one generator state per id).
//
// A token made for a host space holds its ids in a bitset of its own,
// which every goroutine that holds the token shares: a body of a pattern
// on any host space, a submitted function, a Go kernel's host code.
// Acquire never fails: while Size() ids are held it waits for a release.
// A token made for a device space (a *cuda.Stream) is used by Go kernels
// launched on that instance (package kernel), which keep its ids in the
// device's memory; on the host only its Size is defined.
//
// A UniqueToken is a small value that refers to its ids: copies share
// them. The zero UniqueToken has no ids; its methods panic.
type UniqueToken struct {
	s *tokenSet
}

// NewUniqueToken returns a token of space.Concurrency() ids for work on
// the instance space: enough for each unit of work the instance runs at
// once to hold one id without waiting. It is Kokkos's
// UniqueToken<ExecSpace>(space), of scope Instance.
func NewUniqueToken(space ExecutionSpace) UniqueToken {
	if space == nil {
		space = DefaultExecutionSpace()
	}
	return newUniqueToken("NewUniqueToken", space, space.Concurrency())
}

// NewUniqueTokenSize returns a token of n ids (n >= 1) for work on the
// instance space: fewer ids than the concurrency make holders wait for
// one another, more let each hold several. Its ids are unique among all
// their holders, whatever instance or goroutine runs them (Kokkos's
// Global scope). It is Kokkos's UniqueToken<ExecSpace>(n, space).
func NewUniqueTokenSize(space ExecutionSpace, n int) UniqueToken {
	if space == nil {
		space = DefaultExecutionSpace()
	}
	if n < 1 {
		panic(fmt.Sprintf("kokkos: NewUniqueTokenSize(%s, %d): a token needs at least one id", space.Name(), n))
	}
	return newUniqueToken("NewUniqueTokenSize", space, n)
}

// Size returns the number of ids: Acquire returns an id in [0, Size()).
func (t UniqueToken) Size() int { return t.set("Size").size }

// Space returns the execution-space instance the token was made for.
func (t UniqueToken) Space() ExecutionSpace { return t.set("Space").space }

// Acquire returns an id in [0, Size()) that no other holder of the token
// holds, and holds it until Release(id). While all Size() ids are held it
// waits until one is released. Called on the host for a token of a
// device space, it panics: the device acquires its ids in the kernel.
func (t UniqueToken) Acquire() int {
	s := t.set("Acquire")
	if s.words == nil {
		s.deviceOnly("Acquire")
	}
	if id, ok := s.try(); ok {
		return id
	}
	return s.wait()
}

// Release gives back id, which Acquire returned and which is held. It
// panics for an id outside [0, Size()) and for an id that is not held
// (released twice, or never acquired).
func (t UniqueToken) Release(id int) {
	s := t.set("Release")
	if s.words == nil {
		s.deviceOnly("Release")
	}
	if id < 0 || id >= s.size {
		panic(fmt.Sprintf("kokkos: UniqueToken.Release(%d): id outside [0, %d), the token's ids", id, s.size))
	}
	w, b := id%s.nw, id/s.nw
	bit := uint64(1) << b
	if s.words[w*s.stride].v.And(^bit)&bit == 0 {
		panic(fmt.Sprintf("kokkos: UniqueToken.Release(%d): id %d is not held (released twice, or never acquired)", id, id))
	}
	if s.waiters.Load() != 0 {
		s.mu.Lock()
		s.cond.Signal()
		s.mu.Unlock()
	}
}

// tokenSet is a token's ids: an atomic bitset, for a host space. Id
// b*nw + w is bit b of word w, so that consecutive ids lie in different
// words; when there are few words, each has a cache line of its own
// (stride), so that holders of different ids touch different lines.
type tokenSet struct {
	space  ExecutionSpace
	size   int
	nw     int         // words
	stride int         // the distance between consecutive words in words
	words  []tokenWord // nil for a device space
	_      [64]byte
	// waiters counts the goroutines that wait (under mu) for a release.
	waiters atomic.Int32
	mu      sync.Mutex
	cond    sync.Cond
}

// tokenWord is one word of the bitset and the bits of it that are ids.
type tokenWord struct {
	v    atomic.Uint64
	mask uint64
}

// tokenSpread is the number of words up to which each word has a cache
// line of its own: up to 64 ids, one id per line.
const tokenSpread = 64

func newUniqueToken(fn string, space ExecutionSpace, n int) UniqueToken {
	if n < 1 {
		panic(fmt.Sprintf("kokkos: %s(%s): the space's concurrency is %d; a token needs at least one id", fn, space.Name(), n))
	}
	s := &tokenSet{space: space, size: n}
	s.cond.L = &s.mu
	if _, host := space.(HostExecutionSpace); !host {
		return UniqueToken{s}
	}
	s.nw = max((n+63)/64, min(n, tokenSpread))
	s.stride = 1
	if s.nw <= tokenSpread {
		s.stride = 4 // 4 × 16 bytes: a cache line
	}
	s.words = make([]tokenWord, (s.nw-1)*s.stride+1)
	for w := range s.nw {
		// Word w holds ids w, w+nw, w+2nw, ... below n.
		c := (n - w + s.nw - 1) / s.nw
		if c >= 64 {
			s.words[w*s.stride].mask = ^uint64(0)
		} else {
			s.words[w*s.stride].mask = 1<<c - 1
		}
	}
	return UniqueToken{s}
}

// set returns t's ids, or panics for the zero token.
func (t UniqueToken) set(method string) *tokenSet {
	if t.s == nil {
		panic("kokkos: UniqueToken." + method + " of the zero UniqueToken: make one with NewUniqueToken or NewUniqueTokenSize")
	}
	return t.s
}

func (s *tokenSet) deviceOnly(method string) {
	panic(fmt.Sprintf("kokkos: UniqueToken.%s on the host for a token of %s: its ids are acquired and released in a kernel launched on that instance", method, s.space.Name()))
}

// try looks once at every word and sets the first clear bit it finds. It
// starts at a word picked by a hash of the address of its own frame: a
// goroutine's stack lies apart from other goroutines' and stays put from
// call to call, so a worker of a pool comes back to the same word, which
// stays in its core's cache, while other workers start elsewhere (a
// random start instead made a pair cost 19 to 24 ns per index of a
// ParallelFor on 2 cores; this one 13, against 3.4 without a token). The
// start is only a hint: any goroutine may take any clear bit.
func (s *tokenSet) try() (int, bool) {
	nw := s.nw
	w := 0
	if nw > 1 {
		var here byte
		h := uint64(uintptr(unsafe.Pointer(&here))) * 0x9E3779B97F4A7C15
		w = int((h >> 32 * uint64(nw)) >> 32)
	}
	for range nw {
		p := &s.words[w*s.stride]
		for {
			old := p.v.Load()
			free := ^old & p.mask
			if free == 0 {
				break
			}
			b := bits.TrailingZeros64(free)
			if p.v.CompareAndSwap(old, old|1<<b) {
				return b*nw + w, true
			}
		}
		if w++; w == nw {
			w = 0
		}
	}
	return 0, false
}

// tokenYields is the number of times a goroutine that finds every id
// held yields its processor and looks again before it parks.
const tokenYields = 64

// wait returns an id once one is released: it yields and looks again a
// few times, then parks until a Release signals it.
func (s *tokenSet) wait() int {
	for range tokenYields {
		runtime.Gosched()
		if id, ok := s.try(); ok {
			return id
		}
	}
	// A releaser clears its bit, then reads waiters; this goroutine counts
	// itself, then looks under mu, which the releaser takes to signal: a
	// release either is seen here or signals the Wait below.
	s.waiters.Add(1)
	defer s.waiters.Add(-1)
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if id, ok := s.try(); ok {
			return id
		}
		s.cond.Wait()
	}
}
