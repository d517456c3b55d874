package kokkos

import (
	"fmt"

	"github.com/gokkos/kokkos/backend"
)

// A RangePolicy is the index range [Begin, End) of a one-dimensional
// pattern, the chunk size it is handed out in, and the execution space
// instance it runs on.
//
// Build one with Range(begin, end), then WithChunk and On; or write the
// struct literal. Patterns panic, naming their label and the policy, when
// Begin > End or Chunk < 0.
type RangePolicy struct {
	Begin, End int
	// Chunk is the number of indices a goroutine takes at a time; 0 lets
	// the pattern choose. It changes speed, never results.
	Chunk int
	// Space is the instance the pattern runs on; nil means
	// DefaultExecutionSpace().
	Space ExecutionSpace
}

// Range returns the policy for indices begin to end-1 on the default
// execution space.
func Range(begin, end int) RangePolicy { return RangePolicy{Begin: begin, End: end} }

// WithChunk returns p with chunk size n.
func (p RangePolicy) WithChunk(n int) RangePolicy { p.Chunk = n; return p }

// On returns p running on the instance s.
func (p RangePolicy) On(s ExecutionSpace) RangePolicy { p.Space = s; return p }

// Shape returns p's index space as a device backend is handed it: rank 1,
// [Begin, End), and the chunk size.
func (p RangePolicy) Shape() backend.Shape {
	s := backend.Shape{Rank: 1, Chunk: p.Chunk}
	s.Lower[0], s.Upper[0] = p.Begin, p.End
	return s
}

func (p RangePolicy) String() string {
	s := fmt.Sprintf("RangePolicy(%d, %d)", p.Begin, p.End)
	if p.Chunk != 0 {
		s += fmt.Sprintf(".WithChunk(%d)", p.Chunk)
	}
	return s
}

// check validates p for the pattern and returns its host instance.
func (p RangePolicy) check(pattern, label string) HostExecutionSpace {
	if p.Begin > p.End {
		panic(fmt.Sprintf("kokkos: %s %q: %v: begin %d > end %d", pattern, label, p, p.Begin, p.End))
	}
	if p.Chunk < 0 {
		panic(fmt.Sprintf("kokkos: %s %q: %v: negative chunk size %d", pattern, label, p, p.Chunk))
	}
	return hostExec(pattern, label, p.Space)
}

// hostExec resolves a policy's space to a host instance. A Go closure
// runs on host instances only: on any other instance the pattern panics
// with an error wrapping ErrHostOnly that names the kernel launch which
// runs there.
func hostExec(pattern, label string, s ExecutionSpace) HostExecutionSpace {
	if s == nil {
		return DefaultExecutionSpace()
	}
	h, ok := s.(HostExecutionSpace)
	if !ok {
		panic(fmt.Errorf("%w: %s %q: execution space %s cannot run a Go closure; write the body as a //kokkos:kernel function and launch it there with kernel.For, kernel.Reduce or kernel.Scan, or use a host space (Serial, Threads)", ErrHostOnly, pattern, label, s.Name()))
	}
	return h
}

// defaultChunk splits n units into about four chunks per goroutine.
func defaultChunk(n, chunk int, s ExecutionSpace) int {
	if chunk > 0 {
		return chunk
	}
	c := s.Concurrency()
	if c <= 1 {
		return max(n, 1)
	}
	return max((n+4*c-1)/(4*c), 1)
}

// Iterate is an iteration order of an MDRangePolicy.
type Iterate uint8

const (
	// IterateDefault is IterateRight on host spaces.
	IterateDefault Iterate = iota
	// IterateLeft runs the first index fastest (column-major, as
	// LayoutLeft stores).
	IterateLeft
	// IterateRight runs the last index fastest (row-major, as
	// LayoutRight stores).
	IterateRight
)

func (it Iterate) String() string {
	switch it {
	case IterateDefault:
		return "IterateDefault"
	case IterateLeft:
		return "IterateLeft"
	case IterateRight:
		return "IterateRight"
	}
	return fmt.Sprintf("Iterate(%d)", uint8(it))
}

// maxMDRank is the highest rank of an MDRangePolicy.
const maxMDRank = 6

// An MDRangePolicy is a multidimensional index box [Lower, Upper) of rank
// 2 to 6, cut into tiles. Tiles are handed out to goroutines in the outer
// order; the indices of one tile run in the inner order.
//
// Build one with MDRange(lower, upper), then Tile, Order, WithChunk and On.
// The MDRange patterns (ParallelForMD, ...) panic, naming the label and
// the policy, when the body's rank is not the policy's, lower and upper
// differ in length, a lower bound exceeds its upper bound, or a tile size
// is negative.
type MDRangePolicy struct {
	lower, upper, tile []int
	outer, inner       Iterate
	chunk              int
	space              ExecutionSpace
}

// MDRange returns the policy for the box lower[d] <= i_d < upper[d] on the
// default execution space, with default tiles and IterateRight.
func MDRange(lower, upper []int) MDRangePolicy {
	return MDRangePolicy{lower: append([]int(nil), lower...), upper: append([]int(nil), upper...)}
}

// Tile returns p with the given tile sizes, one per dimension; a size of 0
// lets the pattern choose. Tiles fix the decomposition of reductions, so
// for floating point, results depend on them (and on nothing else).
func (p MDRangePolicy) Tile(sizes ...int) MDRangePolicy {
	p.tile = append([]int(nil), sizes...)
	return p
}

// Order returns p with tiles taken in the outer order and indices within a
// tile run in the inner order.
func (p MDRangePolicy) Order(outer, inner Iterate) MDRangePolicy {
	p.outer, p.inner = outer, inner
	return p
}

// WithChunk returns p handing out n tiles at a time; 0 lets the pattern
// choose.
func (p MDRangePolicy) WithChunk(n int) MDRangePolicy { p.chunk = n; return p }

// On returns p running on the instance s.
func (p MDRangePolicy) On(s ExecutionSpace) MDRangePolicy { p.space = s; return p }

// Lower returns a copy of the policy's lower bounds.
func (p MDRangePolicy) Lower() []int { return append([]int(nil), p.lower...) }

// Upper returns a copy of the policy's upper bounds (exclusive).
func (p MDRangePolicy) Upper() []int { return append([]int(nil), p.upper...) }

// Tiles returns a copy of the tile sizes given to Tile (nil when none
// was given; a 0 lets the pattern choose).
func (p MDRangePolicy) Tiles() []int { return append([]int(nil), p.tile...) }

// Iteration returns the outer and inner iteration orders given to Order.
func (p MDRangePolicy) Iteration() (outer, inner Iterate) { return p.outer, p.inner }

// Space returns the instance given to On, or nil for the default one.
func (p MDRangePolicy) Space() ExecutionSpace { return p.space }

// Shape returns p's index space as a device backend is handed it: the
// box, the tile sizes (0 where none was given) and the inner order. Its
// Rank is 0 for a policy no backend can run: bounds of different lengths,
// or more than backend.MaxShapeRank of them.
func (p MDRangePolicy) Shape() backend.Shape {
	var s backend.Shape
	if len(p.lower) != len(p.upper) || len(p.lower) > backend.MaxShapeRank {
		return s
	}
	s.Rank = len(p.lower)
	copy(s.Lower[:], p.lower)
	copy(s.Upper[:], p.upper)
	if len(p.tile) == s.Rank {
		copy(s.Tile[:], p.tile)
	}
	switch p.inner {
	case IterateLeft:
		s.Inner = backend.OrderLeft
	case IterateRight:
		s.Inner = backend.OrderRight
	}
	return s
}

// Rank returns len(lower) of the policy.
func (p MDRangePolicy) Rank() int { return len(p.lower) }

func (p MDRangePolicy) String() string {
	s := fmt.Sprintf("MDRangePolicy(%v, %v)", p.lower, p.upper)
	if p.tile != nil {
		s += fmt.Sprintf(".Tile%v", p.tile)
	}
	return s
}

// mdTiling is a validated MDRangePolicy, ready to map tile numbers to
// index boxes.
type mdTiling struct {
	rank         int
	lower, upper [maxMDRank]int
	tile         [maxMDRank]int
	ntiles       [maxMDRank]int
	count        int // number of tiles
	outerRight   bool
	innerRight   bool
	chunk        int
	space        HostExecutionSpace
}

// mdTileTarget is the number of indices a default tile aims at.
const mdTileTarget = 4096

func (p MDRangePolicy) check(pattern, label string, rank int) *mdTiling {
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("kokkos: %s %q: %v: ", pattern, label, p) + fmt.Sprintf(format, args...))
	}
	if len(p.lower) != len(p.upper) {
		fail("%d lower bounds and %d upper bounds", len(p.lower), len(p.upper))
	}
	if len(p.lower) != rank {
		fail("rank %d, want %d", len(p.lower), rank)
	}
	if p.tile != nil && len(p.tile) != rank {
		fail("%d tile sizes for rank %d", len(p.tile), rank)
	}
	if p.chunk < 0 {
		fail("negative chunk size %d", p.chunk)
	}
	if p.outer > IterateRight || p.inner > IterateRight {
		fail("invalid iteration order %v, %v", p.outer, p.inner)
	}
	t := &mdTiling{
		rank:       rank,
		outerRight: p.outer != IterateLeft,
		innerRight: p.inner != IterateLeft,
		space:      hostExec(pattern, label, p.space),
	}
	for d := range rank {
		if p.lower[d] > p.upper[d] {
			fail("lower[%d] = %d > upper[%d] = %d", d, p.lower[d], d, p.upper[d])
		}
		if p.tile != nil && p.tile[d] < 0 {
			fail("negative tile size %d in dimension %d", p.tile[d], d)
		}
		t.lower[d], t.upper[d] = p.lower[d], p.upper[d]
		if p.tile != nil {
			t.tile[d] = p.tile[d]
		}
	}
	// Default tile sizes fill the fastest dimensions first, up to
	// mdTileTarget indices; they depend on the extents alone.
	vol := 1
	for k := range rank {
		d := k
		if t.innerRight {
			d = rank - 1 - k
		}
		ext := t.upper[d] - t.lower[d]
		if t.tile[d] == 0 {
			t.tile[d] = max(1, min(ext, mdTileTarget/vol))
		}
		vol *= t.tile[d]
	}
	t.count = 1
	for d := range rank {
		ext := t.upper[d] - t.lower[d]
		t.ntiles[d] = (ext + t.tile[d] - 1) / t.tile[d]
		t.count *= t.ntiles[d]
	}
	t.chunk = defaultChunk(t.count, p.chunk, t.space)
	return t
}

// box sets b and e to the index box of tile number id.
func (t *mdTiling) box(id int, b, e *[maxMDRank]int) {
	if t.outerRight {
		for d := t.rank - 1; d >= 0; d-- {
			c := id % t.ntiles[d]
			id /= t.ntiles[d]
			b[d] = t.lower[d] + c*t.tile[d]
			e[d] = min(b[d]+t.tile[d], t.upper[d])
		}
		return
	}
	for d := 0; d < t.rank; d++ {
		c := id % t.ntiles[d]
		id /= t.ntiles[d]
		b[d] = t.lower[d] + c*t.tile[d]
		e[d] = min(b[d]+t.tile[d], t.upper[d])
	}
}
