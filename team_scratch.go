package kokkos

import (
	"cmp"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos/internal/typeinfo"
)

// A ScratchPad is a team's or a thread's scratch memory of one level, from
// TeamMember.TeamScratch or TeamMember.ThreadScratch: the bytes set by
// TeamPolicy.SetScratchSize, reused from team to team, whose contents at
// the start of a team are unspecified. ScratchView1 ... ScratchView8 take
// views from it in order, each ScratchSize bytes.
//
// On the host both levels are Go memory; a device backend can put level 0
// in fast on-chip memory and level 1 in ordinary device memory.
type ScratchPad struct {
	m      *TeamMember
	level  int
	thread bool
	mem    []uint64
	size   int // bytes set on the policy
	used   int // bytes taken since the start of the team
	// rec is the allocation record of the views made of the pad during
	// the launch of plan: one per pad and launch, not one per view.
	rec  *Allocation
	plan *teamPlan
}

// Size returns the pad's bytes, as set on the policy.
func (s *ScratchPad) Size() int { return s.size }

// Free returns the bytes of the pad not yet taken by scratch views in the
// current team.
func (s *ScratchPad) Free() int { return s.size - s.used }

// ScratchSize returns the bytes a scratch view of element type T and the
// given extents takes from a ScratchPad: their product times the size of
// T, rounded up to a multiple of 8. It is Kokkos's View::shmem_size; the
// sum of ScratchSize of the views a team makes is the size to give
// SetScratchSize.
func ScratchSize[T any](extents ...int) int {
	n := 1
	for _, e := range extents {
		n *= e
	}
	return (n*int(unsafe.Sizeof(*new(T))) + 7) &^ 7
}

func scratchWords(bytes int) int { return (bytes + 7) / 8 }

// scratchView takes the memory of a scratch view of element type T,
// extents ext and options opts from s, fills its strides in str and returns
// its elements, allocation record, layout, flags and traits. It panics, naming the
// pattern's label, the extents and the sizes, when the options are
// invalid, when the pad has too few bytes left, and for an element type
// with pointers, which the garbage collector cannot see in scratch memory.
func scratchView[T any](s *ScratchPad, ext []int, opts []Option, str []int) ([]T, *Allocation, Layout, viewFlags, Trait) {
	pl := s.m.c.plan
	what := "team"
	if s.thread {
		what = "thread"
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("kokkos: %s %q: %s scratch level %d: scratch view of %v with extents %s: ", pl.pattern, pl.label, what, s.level, reflect.TypeFor[T](), fmtInts(ext)) + fmt.Sprintf(format, args...))
	}
	if typeinfo.HasPointers(reflect.TypeFor[T]()) {
		fail("the element type holds pointers; scratch memory holds plain values only")
	}
	cfg := makeConfig(opts)
	flags, err := traitFlags[T](cfg.traits)
	if err = cmp.Or(cfg.err, err, optionsFor(&cfg, forScratch)); err != nil {
		panic(fmt.Errorf("kokkos: %s %q: %s scratch level %d: scratch view of %v with extents %s: %w", pl.pattern, pl.label, what, s.level, reflect.TypeFor[T](), fmtInts(ext), err))
	}
	size := sizeOf[T]()
	span, err := mapStrides(cfg.layout, ext, cfg.strides, size, false, str)
	if err != nil {
		fail("%v", err)
	}
	need := (span*size + 7) &^ 7
	if need > s.size-s.used {
		fail("needs %d bytes, %d of the %d bytes per %s set by SetScratchSize(%d, ...) are left", need, s.size-s.used, s.size, what, s.level)
	}
	var data []T
	if span > 0 {
		data = unsafe.Slice((*T)(unsafe.Pointer(&s.mem[s.used/8])), span)
	}
	s.used += need
	if s.plan != pl {
		s.rec = unmanagedAllocation(fmt.Sprintf("%s %s scratch %d", pl.label, what, s.level), HostSpace, s.size)
		s.plan = pl
	}
	return data, s.rec, cfg.layout, flags, cfg.traits | Unmanaged
}
