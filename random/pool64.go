package random

import (
	"github.com/gokkos/kokkos"
)

// XorShift64Pool is Kokkos's Random_XorShift64_Pool: a pool of XorShift64
// states in the memory of an execution space, with a unique token that
// hands out their indices, so that each unit of work draws from a state
// that no other holds.
//
// On a host space, GetState takes a free state (acquiring its index from
// the pool's token: no lock, a compare-and-swap on a bitset, waiting only
// while every state is held), the draws advance it, and FreeState stores
// it and gives the index back. A pool of a device space (a *cuda.Stream)
// keeps its states in the device's memory: Go kernels draw from them
// (Token and States give the pieces to a kernel), Fill fills views from
// them; GetState and its kin panic on the host.
//
// A pool is a small value that refers to its states: copies share them,
// as copies of a view do. Retain and Release count its holders like a
// view's; the final Release frees the states' memory. The zero pool has
// no states; its methods panic.
type XorShift64Pool struct {
	s *poolState
}

const pool64 = "XorShift64Pool"

// NewXorShift64Pool returns a pool of space.Concurrency() states in
// space's memory (the default execution space's for nil), seeded from
// seed as Kokkos's Random_XorShift64_Pool(seed) seeds them: state by
// state, the same seed and number of states give Kokkos's sequences. An
// error wraps ErrPool and the allocation's or copy's own error.
func NewXorShift64Pool(space kokkos.ExecutionSpace, seed uint64) (XorShift64Pool, error) {
	if space == nil {
		space = kokkos.DefaultExecutionSpace()
	}
	return NewXorShift64PoolSize(space, seed, space.Concurrency())
}

// NewXorShift64PoolSize returns a pool of n states (n >= 1) in space's
// memory, seeded as Kokkos's init(seed, n): a generator of the seed
// (1318319 for 0) skips 17 rand()s, then each state takes the low 16 bits
// of four more. It panics for n < 1.
func NewXorShift64PoolSize(space kokkos.ExecutionSpace, seed uint64, n int) (XorShift64Pool, error) {
	s, err := newPool(pool64, "NewXorShift64PoolSize", "Kokkos::Random_XorShift64::state", space, n, 1, 8, func(h []uint64, stride int) {
		g := seedGen(seed)
		for i := range n {
			h[i*stride] = seedWord(&g)
		}
	})
	if err != nil {
		return XorShift64Pool{}, err
	}
	return XorShift64Pool{s}, nil
}

// Size returns the number of states (Kokkos's num_states_).
func (p XorShift64Pool) Size() int { return p.s.get(pool64, "Size").n }

// Space returns the execution space whose memory holds the states.
func (p XorShift64Pool) Space() kokkos.ExecutionSpace { return p.s.get(pool64, "Space").space }

// Token returns the unique token of Size() ids that hands out the
// states' indices: a kernel that takes the pool's pieces acquires a state
// index from it, as GetState does.
func (p XorShift64Pool) Token() kokkos.UniqueToken { return p.s.get(pool64, "Token").tok }

// States returns the view of the states, in the space's memory: Size()
// rows whose column 0 is a state (the other columns pad a host pool's
// states to a cache line each). It shares the pool's allocation.
func (p XorShift64Pool) States() kokkos.View2[uint64] { return p.s.get(pool64, "States").states }

// GetState returns a generator of a state that no other holder holds,
// waiting while every state is held: Kokkos's get_state(). Give it back
// with FreeState. It panics for a pool whose states the host cannot reach.
func (p XorShift64Pool) GetState() XorShift64 {
	s := p.s
	if !s.usable() {
		s.get(pool64, "GetState").hostWords("GetState")
	}
	id := s.tok.Acquire()
	return XorShift64{state: s.host[id*s.stride], idx: int32(id), held: true}
}

// GetStateAt returns a generator of state i, without acquiring it:
// Kokkos's get_state(i), for a caller that knows no one else draws from
// state i (one index per state, say). FreeState stores it back. It panics
// for i outside [0, Size()).
func (p XorShift64Pool) GetStateAt(i int) XorShift64 {
	s := p.s.get(pool64, "GetStateAt")
	s.checkIndex("GetStateAt", i)
	h := s.hostWords("GetStateAt")
	return XorShift64{state: h[i*s.stride], idx: int32(i)}
}

// FreeState stores g's state back into the pool and, for a generator of
// GetState, gives its index back: Kokkos's free_state(g). A generator
// must be given back once; draws from it after that are lost to the pool.
// It panics for a generator that is not the pool's.
func (p XorShift64Pool) FreeState(g XorShift64) {
	s := p.s
	if !s.usable() || uint(g.idx) >= uint(s.n) {
		s.get(pool64, "FreeState").hostWords("FreeState")
		s.checkFree(g.idx)
	}
	// The store comes before the release: the next holder reads it.
	s.host[int(g.idx)*s.stride] = g.state
	if g.held {
		s.tok.Release(int(g.idx))
	}
}

// Retain adds a holder to the pool's states, as a view's Retain.
func (p XorShift64Pool) Retain() { p.s.get(pool64, "Retain").states.Retain() }

// Release removes a holder of the pool's states; the final one frees
// their memory (device memory for a device pool), after which the pool's
// methods panic. Releasing more often than held is an error wrapping
// kokkos.ErrReleased.
func (p XorShift64Pool) Release() error {
	if p.s == nil {
		panic("random: XorShift64Pool.Release of the zero XorShift64Pool: make one with NewXorShift64Pool")
	}
	return p.s.states.Release()
}

// UseCount returns the number of holders of the pool's states.
func (p XorShift64Pool) UseCount() int {
	if p.s == nil {
		return 0
	}
	return p.s.states.UseCount()
}

// IsAllocated reports whether the pool has states: false for the zero
// pool and after the final Release.
func (p XorShift64Pool) IsAllocated() bool { return p.s != nil && p.s.states.IsAllocated() }
