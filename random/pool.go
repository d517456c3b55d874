package random

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
)

// ErrPool: a pool cannot be made as asked (its states cannot be
// allocated in the execution space's memory, or copied there). The error
// also wraps the kokkos sentinel of the failure underneath (for example
// kokkos.ErrNoCopySpace), so that errors.Is finds either.
var ErrPool = errors.New("random: cannot make the pool")

// poolState is what the copies of a pool share: the states, in the
// execution space's memory, and the token that hands out their indices.
type poolState struct {
	kind   string // "XorShift64Pool" or "XorShift1024Pool", for messages
	space  kokkos.ExecutionSpace
	n      int
	tok    kokkos.UniqueToken
	states kokkos.View2[uint64] // n rows of stride words
	host   []uint64             // states' words, nil where the host cannot reach them
	stride int                  // words from one state to the next
}

// hostPadding is the number of states below which a host pool gives each
// state a cache line of its own, as Kokkos pads (it pads below 1000
// states, by 64 words).
const hostPadding = 1000

// seedGen returns Kokkos's seeding generator of init(seed, n): a
// generator of the seed (1318319 for 0) that has drawn 17 rand()s. Each
// state word is then the low 16 bits of four more rand()s (seedWord).
func seedGen(seed uint64) XorShift64 {
	g := NewXorShift64(seed)
	for range 17 {
		g.Rand()
	}
	return g
}

// seedWord draws one word of a state as Kokkos's init does.
func seedWord(g *XorShift64) uint64 {
	n1, n2, n3, n4 := uint64(g.Rand()), uint64(g.Rand()), uint64(g.Rand()), uint64(g.Rand())
	return n1&0xffff | (n2&0xffff)<<16 | (n3&0xffff)<<32 | (n4&0xffff)<<48
}

// newPool allocates n states of words words (and stride words, padded on
// the host) in space's memory, writes them with init (row i of a host
// slice of n*stride words), and makes the token.
func newPool(kind, fn, label string, space kokkos.ExecutionSpace, n, words, padded int, init func(h []uint64, stride int)) (*poolState, error) {
	if space == nil {
		space = kokkos.DefaultExecutionSpace()
	}
	if n < 1 {
		panic(fmt.Sprintf("random: %s(%s, %d states): a pool needs at least one state", fn, space.Name(), n))
	}
	mem := space.MemorySpace()
	stride := words
	if mem.HostAccessible() && n < hostPadding {
		stride = padded
	}
	states, err := kokkos.NewView2[uint64](label, n, stride, kokkos.InSpace(mem))
	if err != nil {
		return nil, fmt.Errorf("%w: %s(%s, %d states): %w", ErrPool, fn, space.Name(), n, err)
	}
	s := &poolState{kind: kind, space: space, n: n, states: states, stride: stride}
	if mem.HostAccessible() {
		s.host = states.Data()
		init(s.host, stride)
	} else {
		h, err := kokkos.CreateMirrorView(states)
		if err == nil {
			init(h.Data(), stride)
			err = kokkos.DeepCopy[uint64](states, h)
		}
		if err != nil {
			states.Release()
			return nil, fmt.Errorf("%w: %s(%s, %d states): %w", ErrPool, fn, space.Name(), n, err)
		}
	}
	s.tok = kokkos.NewUniqueTokenSize(space, n)
	return s, nil
}

// get returns the shared state of a pool, or panics for the zero pool or a
// released one.
func (s *poolState) get(kind, method string) *poolState {
	if s == nil {
		panic(fmt.Sprintf("random: %s.%s of the zero %s: make one with New%s", kind, method, kind, kind))
	}
	if a := s.states.Allocation(); a.Released() {
		panic(fmt.Sprintf("random: %s.%s: the pool's states %q were released", kind, method, a.Label()))
	}
	return s
}

// usable reports whether s is a pool whose states the host can draw
// from: not the zero pool, not released, in host memory. It inlines, so
// that GetState and FreeState cost little more than the token's atomics;
// hostWords says what is wrong where it is not.
func (s *poolState) usable() bool {
	return s != nil && s.host != nil && !s.states.Allocation().Released()
}

// hostWords returns the host slice of the states, or panics naming the
// method where the host cannot reach them.
func (s *poolState) hostWords(method string) []uint64 {
	if s.host == nil {
		panic(fmt.Sprintf("random: %s.%s on the host for a pool of %s: its states lie in %s, out of the host's reach; draw from them in a Go kernel launched on that instance, or with Fill",
			s.kind, method, s.space.Name(), s.space.MemorySpace().Name()))
	}
	return s.host
}

// checkIndex panics unless i is a state index of s.
func (s *poolState) checkIndex(method string, i int) {
	if i < 0 || i >= s.n {
		panic(fmt.Sprintf("random: %s.%s(%d): index outside [0, %d), the pool's states", s.kind, method, i, s.n))
	}
}

// checkFree panics unless idx, the state index of a generator given back
// to FreeState, is one of s's.
func (s *poolState) checkFree(idx int32) {
	if idx < 0 || int(idx) >= s.n {
		panic(fmt.Sprintf("random: %s.FreeState: the generator's state index %d is outside [0, %d): it was not taken from this pool", s.kind, idx, s.n))
	}
}
