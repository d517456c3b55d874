package random

import (
	"github.com/gokkos/kokkos"
)

// XorShift1024Pool is Kokkos's Random_XorShift1024_Pool: a pool of
// XorShift1024 states (sixteen words and a position each) in the memory
// of an execution space, handed out as XorShift64Pool hands out its
// states; see XorShift64Pool for the methods, the host and the device.
type XorShift1024Pool struct {
	s *poolState
}

const pool1024 = "XorShift1024Pool"

// NewXorShift1024Pool returns a pool of space.Concurrency() states in
// space's memory (the default execution space's for nil), seeded from
// seed as Kokkos's Random_XorShift1024_Pool(seed) seeds them. An error
// wraps ErrPool and the allocation's or copy's own error.
func NewXorShift1024Pool(space kokkos.ExecutionSpace, seed uint64) (XorShift1024Pool, error) {
	if space == nil {
		space = kokkos.DefaultExecutionSpace()
	}
	return NewXorShift1024PoolSize(space, seed, space.Concurrency())
}

// NewXorShift1024PoolSize returns a pool of n states (n >= 1) in space's
// memory, seeded as Kokkos's init(seed, n): a generator of the seed
// (1318319 for 0) skips 17 rand()s, then each of the sixteen words of
// each state takes the low 16 bits of four more; every position starts
// at 0. It panics for n < 1.
func NewXorShift1024PoolSize(space kokkos.ExecutionSpace, seed uint64, n int) (XorShift1024Pool, error) {
	s, err := newPool(pool1024, "NewXorShift1024PoolSize", "Kokkos::Random_XorShift1024::state", space, n, 17, 24, func(h []uint64, stride int) {
		g := seedGen(seed)
		for i := range n {
			for j := range 16 {
				h[i*stride+j] = seedWord(&g)
			}
			h[i*stride+16] = 0
		}
	})
	if err != nil {
		return XorShift1024Pool{}, err
	}
	return XorShift1024Pool{s}, nil
}

// Size returns the number of states (Kokkos's num_states_).
func (p XorShift1024Pool) Size() int { return p.s.get(pool1024, "Size").n }

// Space returns the execution space whose memory holds the states.
func (p XorShift1024Pool) Space() kokkos.ExecutionSpace { return p.s.get(pool1024, "Space").space }

// Token returns the unique token of Size() ids that hands out the
// states' indices.
func (p XorShift1024Pool) Token() kokkos.UniqueToken { return p.s.get(pool1024, "Token").tok }

// States returns the view of the states, in the space's memory: Size()
// rows whose columns 0 to 15 are a state's words and column 16 its
// position (the other columns pad a host pool's states). It shares the
// pool's allocation.
func (p XorShift1024Pool) States() kokkos.View2[uint64] { return p.s.get(pool1024, "States").states }

// GetState returns a generator of a state that no other holder holds,
// waiting while every state is held: Kokkos's get_state(). Give it back
// with FreeState. It panics for a pool whose states the host cannot reach.
func (p XorShift1024Pool) GetState() XorShift1024 {
	s := p.s
	if !s.usable() {
		s.get(pool1024, "GetState").hostWords("GetState")
	}
	id := s.tok.Acquire()
	g := load1024(s.host[id*s.stride:], id)
	g.held = true
	return g
}

// GetStateAt returns a generator of state i, without acquiring it:
// Kokkos's get_state(i). FreeState stores it back. It panics for i outside
// [0, Size()).
func (p XorShift1024Pool) GetStateAt(i int) XorShift1024 {
	s := p.s.get(pool1024, "GetStateAt")
	s.checkIndex("GetStateAt", i)
	h := s.hostWords("GetStateAt")
	return load1024(h[i*s.stride:], i)
}

// load1024 reads the generator of state id from its row w.
func load1024(w []uint64, id int) XorShift1024 {
	g := XorShift1024{p: int32(w[16]), idx: int32(id)}
	copy(g.state[:], w[:16])
	return g
}

// FreeState stores g's state back into the pool and, for a generator of
// GetState, gives its index back: Kokkos's free_state(g). It panics for a
// generator that is not the pool's.
func (p XorShift1024Pool) FreeState(g XorShift1024) {
	s := p.s
	if !s.usable() || uint(g.idx) >= uint(s.n) {
		s.get(pool1024, "FreeState").hostWords("FreeState")
		s.checkFree(g.idx)
	}
	w := s.host[int(g.idx)*s.stride:]
	copy(w[:16], g.state[:])
	w[16] = uint64(g.p)
	if g.held {
		s.tok.Release(int(g.idx))
	}
}

// Retain adds a holder to the pool's states, as a view's Retain.
func (p XorShift1024Pool) Retain() { p.s.get(pool1024, "Retain").states.Retain() }

// Release removes a holder of the pool's states; the final one frees
// their memory, after which the pool's methods panic. Releasing more often
// than held is an error wrapping kokkos.ErrReleased.
func (p XorShift1024Pool) Release() error {
	if p.s == nil {
		panic("random: XorShift1024Pool.Release of the zero XorShift1024Pool: make one with NewXorShift1024Pool")
	}
	return p.s.states.Release()
}

// UseCount returns the number of holders of the pool's states.
func (p XorShift1024Pool) UseCount() int {
	if p.s == nil {
		return 0
	}
	return p.s.states.UseCount()
}

// IsAllocated reports whether the pool has states: false for the zero
// pool and after the final Release.
func (p XorShift1024Pool) IsAllocated() bool { return p.s != nil && p.s.states.IsAllocated() }
