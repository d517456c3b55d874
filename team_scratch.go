package kokkos

import (
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

// scratchSlice takes ScratchSize[T](ext...) bytes from s and returns them
// as a []T, with the label of the views made of it. It panics, naming the
// pattern's label, the extents and the sizes, when the pad has too few
// bytes left, and for an element type with pointers, which the garbage
// collector cannot see in scratch memory.
func scratchSlice[T any](s *ScratchPad, ext ...int) ([]T, string) {
	pl := s.m.c.plan
	what := "team"
	if s.thread {
		what = "thread"
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("kokkos: %s %q: %s scratch level %d: scratch view of %v with extents %v: ", pl.pattern, pl.label, what, s.level, reflect.TypeFor[T](), ext) + fmt.Sprintf(format, args...))
	}
	n := 1
	for _, e := range ext {
		if e < 0 {
			fail("negative extent")
		}
		n *= e
	}
	if typeinfo.HasPointers(reflect.TypeFor[T]()) {
		fail("the element type holds pointers; scratch memory holds plain values only")
	}
	need := ScratchSize[T](ext...)
	if need > s.size-s.used {
		fail("needs %d bytes, %d of the %d bytes per %s set by SetScratchSize(%d, ...) are left", need, s.size-s.used, s.size, what, s.level)
	}
	var data []T
	if n > 0 {
		data = unsafe.Slice((*T)(unsafe.Pointer(&s.mem[s.used/8])), n)
	}
	s.used += need
	return data, fmt.Sprintf("%s %s scratch %d", pl.label, what, s.level)
}
