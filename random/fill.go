package random

import (
	"fmt"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// Pool is the set of pool types: Fill takes either.
type Pool interface {
	XorShift64Pool | XorShift1024Pool
}

// fillChunk is the number of indices of the first dimension that one
// state draws for, in order, as Kokkos's fill_random (its loops = 128).
const fillChunk = 128

// Fill fills v with random numbers in [0, r), drawn from pool: Kokkos's
// fill_random(v, pool, range). It is FillRange(v, pool, 0, r).
func Fill[T kokkos.Number, P Pool](v kokkos.View[T], pool P, r T) error {
	return fill("Fill", v, pool, 0, r)
}

// FillRange fills v with random numbers in [begin, end), drawn from pool:
// Kokkos's fill_random(v, pool, begin, end). As Kokkos, it draws in
// parallel over chunks of 128 indices of the first dimension, each chunk
// from one state of the pool (GetState), every element of its rows in
// index order (the last index fastest, whatever the layout), so that a
// pool of one state draws Kokkos's values in Kokkos's order.
//
// The element type chooses the draw, as Kokkos's rand<Generator, T>:
// int8, int16 and int32 RandRange (int8 and int16 converted), uint32
// UrandRange, int64 and int Rand64Range, uint64, uint and uintptr
// Urand64Range, float32 FrandRange (within [begin, end]), float64
// DrandRange; uint8 and uint16, which Kokkos does not fill, UrandRange
// converted. An integer range of end < begin draws from [begin, begin +
// (begin - end)), as Kokkos's does; begin == end panics for integers.
//
// It runs on the pool's execution space and returns when v is filled. A
// view in the memory of a device pool's space (a *cuda.Stream's), of
// float32, float64, int32, int64, uint32 or uint64 and of rank 1 to 3, is
// filled by a Go kernel on that space (package kernel), which draws as the
// host does. Other views the host cannot reach are filled through a host
// mirror and DeepCopy, and a device pool otherwise lends its states to the
// host (copied to the host and back, drawn on the default host space). A
// read-only view is an error wrapping kokkos.ErrReadOnly, a released one
// kokkos.ErrReleased.
func FillRange[T kokkos.Number, P Pool](v kokkos.View[T], pool P, begin, end T) error {
	return fill("FillRange", v, pool, begin, end)
}

func fill[T kokkos.Number, P Pool](fn string, v kokkos.View[T], pool P, begin, end T) error {
	var s *poolState
	var kind string
	switch p := any(pool).(type) {
	case XorShift64Pool:
		s, kind = p.s.get(pool64, fn), pool64
	case XorShift1024Pool:
		s, kind = p.s.get(pool1024, fn), pool1024
	}
	d := kokkos.Describe(v)
	if d.Owner != nil && d.Owner.Released() {
		return fmt.Errorf("random: %s of view %q: %w", fn, d.Label, kokkos.ErrReleased)
	}
	if d.ReadOnly {
		return fmt.Errorf("random: %s of view %q: %w", fn, d.Label, kokkos.ErrReadOnly)
	}
	var zero T
	switch any(zero).(type) {
	case float32, float64:
	default:
		if begin == end {
			panic(fmt.Sprintf("random: %s of view %q: the range [%v, %v) is empty", fn, d.Label, begin, end))
		}
	}
	if d.Host == nil && viewSize(d) > 0 && s.host == nil {
		if done, err := fillOnDevice(fn, kind, s, v, d, begin, end); done {
			return err
		}
	}
	if d.Host == nil && viewSize(d) > 0 {
		return fillMirror(fn, v, func(h kokkos.View[T]) error { return fill(fn, h, pool, begin, end) })
	}
	if s.host == nil {
		return lendStates(fn, s, func(hs *poolState) {
			fillHost(kind, hs, kokkos.DefaultExecutionSpace(), d, begin, end)
		})
	}
	fillHost(kind, s, s.space, d, begin, end)
	return nil
}

// viewSize returns the number of elements of d.
func viewSize(d backend.View) int {
	n := 1
	for r := range d.Rank {
		n *= d.Extents[r]
	}
	return n
}

// fillHost fills the host-accessible view d from the states of s (host
// words), in chunks of fillChunk indices of the first dimension, on space.
func fillHost[T kokkos.Number](kind string, s *poolState, space kokkos.ExecutionSpace, d backend.View, begin, end T) {
	if kind == pool64 {
		p := XorShift64Pool{s}
		fillWith(space, d, rows64(begin, end), p.GetState, p.FreeState)
	} else {
		p := XorShift1024Pool{s}
		fillWith(space, d, rows1024(begin, end), p.GetState, p.FreeState)
	}
}

// fillWith runs Kokkos's fill_random_functor_begin_end over d: per index
// of the launch, a chunk of fillChunk indices of the first dimension whose
// elements are drawn in index order (row by row of the last dimension)
// from one state. A chunk of the launch takes the state from get once and
// gives it back with put once, rather than at each of its indices: as
// Kokkos's OpenMP pool, whose thread draws from the state of its id.
func fillWith[G any](space kokkos.ExecutionSpace, d backend.View, row rowFiller[G], get func() G, put func(G)) {
	if viewSize(d) == 0 {
		return
	}
	rank := d.Rank
	size := uintptr(d.ElemSize)
	if rank == 0 {
		g := get()
		row(&g, d.Host, 1, 0)
		put(g)
		return
	}
	e0 := d.Extents[0]
	// The rows: the last dimension's, of the indices of dimensions 1 to
	// rank-2 (none for rank 1, whose chunk is one row).
	mids := 1
	for r := 1; r < rank-1; r++ {
		mids *= d.Extents[r]
	}
	chunks := (e0 + fillChunk - 1) / fillChunk
	// Each chunk of the launch takes a state once and runs its indices
	// one after the other, as it would taking the state again at each.
	kokkos.ParallelForChunks("Kokkos::fill_random", kokkos.Range(0, chunks).On(space), func(clo, chi int) {
		g := get()
		for c := clo; c < chi; c++ {
			fillIndex(d, row, &g, c, rank, mids, size)
		}
		put(g)
	})
}

// fillIndex fills the elements of index c of fillWith's launch, chunk c
// of fillChunk indices of the first dimension, with draws of g.
func fillIndex[G any](d backend.View, row rowFiller[G], g *G, c, rank, mids int, size uintptr) {
	last := rank - 1
	lo, hi := c*fillChunk, min(d.Extents[0], (c+1)*fillChunk)
	if rank == 1 {
		row(g, unsafe.Add(d.Host, uintptr(lo*d.Strides[0])*size), hi-lo, uintptr(d.Strides[0])*size)
		return
	}
	n, stride := d.Extents[last], uintptr(d.Strides[last])*size
	var idx [backend.MaxRank]int
	for i := lo; i < hi; i++ {
		idx = [backend.MaxRank]int{}
		for range mids {
			o := i * d.Strides[0]
			for r := 1; r < last; r++ {
				o += idx[r] * d.Strides[r]
			}
			row(g, unsafe.Add(d.Host, uintptr(o)*size), n, stride)
			for r := last - 1; r >= 1; r-- {
				if idx[r]++; idx[r] < d.Extents[r] {
					break
				}
				idx[r] = 0
			}
		}
	}
}

// lendStates copies the states of s, which the host cannot reach, to a
// host pool of the same size, runs fn on it, and copies them back.
func lendStates(fn string, s *poolState, run func(hs *poolState)) error {
	h, err := kokkos.CreateMirror(s.states)
	if err == nil {
		err = kokkos.DeepCopy[uint64](h, s.states)
	}
	if err != nil {
		return fmt.Errorf("random: %s: copying the states of the %s of %s to the host: %w", fn, s.kind, s.space.Name(), err)
	}
	host := kokkos.DefaultExecutionSpace()
	hs := &poolState{kind: s.kind, space: host, n: s.n, tok: kokkos.NewUniqueTokenSize(host, s.n), states: h, host: h.Data(), stride: s.stride}
	run(hs)
	if err := kokkos.DeepCopy[uint64](s.states, h); err != nil {
		return fmt.Errorf("random: %s: copying the states of the %s of %s back: %w", fn, s.kind, s.space.Name(), err)
	}
	return nil
}

// fillMirror fills v, which the host cannot reach, through a host mirror:
// fillHost fills the mirror, DeepCopy copies it to v.
func fillMirror[T kokkos.Number](fn string, v kokkos.View[T], fillHost func(kokkos.View[T]) error) error {
	var m kokkos.View[T]
	var err error
	switch w := v.(type) {
	case kokkos.View0[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View1[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View2[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View3[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View4[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View5[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View6[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View7[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	case kokkos.View8[T]:
		mm, e := kokkos.CreateMirror(w)
		m, err = mm, e
	default:
		return fmt.Errorf("random: %s of a %T, which the host cannot reach: only kokkos.View0 to View8 are filled through a host mirror: %w", fn, v, kokkos.ErrNotHostAccessible)
	}
	if err != nil {
		return fmt.Errorf("random: %s: a host mirror of view %q: %w", fn, kokkos.Describe(v).Label, err)
	}
	err = fillHost(m)
	if err == nil {
		err = kokkos.DeepCopy(v, m)
	}
	return err
}
