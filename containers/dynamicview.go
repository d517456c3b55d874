package containers

import (
	"fmt"
	"math/bits"

	"github.com/gokkos/kokkos"
)

// DynamicView is Kokkos's Experimental::DynamicView<T*>: a rank-1 array
// stored in chunks of a power-of-two number of elements, allocated as it
// grows up to a maximum extent fixed at construction, so that growing
// never moves the elements it holds. The chunks are views in one memory
// space: At, Set and Ptr need memory the host can access (they panic on
// device memory), and the copies (DeepCopyToView, DeepCopyFromView,
// DeepCopyDynamic) work between any spaces.
//
// Copies of a DynamicView share its chunks and its extent, as in Kokkos:
// a Resize through one is seen by all. Resize is not safe while other
// goroutines use the DynamicView; element access from many goroutines is,
// on distinct elements, as for a view. The zero DynamicView has no
// chunks and a maximum extent of 0.
type DynamicView[T any] struct {
	st *dynState[T]
}

type dynState[T any] struct {
	label    string
	space    kokkos.MemorySpace
	noInit   bool
	shift    uint // chunk size = 1 << shift
	chunkMax int  // the number of chunks the maximum extent takes
	extent   int
	chunks   []kokkos.View1[T]
	host     [][]T // the chunks' elements, when the host can access them
}

// NewDynamicView makes an empty DynamicView labelled label whose chunks
// hold minChunkSize elements rounded up to a power of two and which can
// grow to maxExtent elements rounded up to a whole chunk (Kokkos's
// DynamicView(label, min_chunk_size, max_extent)). The options are those
// of kokkos.NewView1 for each chunk: InSpace chooses the memory space
// (HostSpace by default), and WithoutInitializing leaves new chunks
// unzeroed outside the Go heap, as Kokkos always does; memory traits are
// refused (ErrOption). minChunkSize must be in [1, 2^31], maxExtent at
// least 0 (ErrShape otherwise).
func NewDynamicView[T any](label string, minChunkSize, maxExtent int, opts ...kokkos.Option) (DynamicView[T], error) {
	if minChunkSize < 1 || minChunkSize > 1<<31 || maxExtent < 0 {
		return DynamicView[T]{}, fmt.Errorf("containers: NewDynamicView %q with minimum chunk size %d and maximum extent %d: the chunk size must be in [1, 2^31] and the maximum extent at least 0: %w", label, minChunkSize, maxExtent, kokkos.ErrShape)
	}
	probe, err := kokkos.NewView1[T](label, 0, opts...)
	if err != nil {
		return DynamicView[T]{}, fmt.Errorf("containers: NewDynamicView %q: %w", label, err)
	}
	if probe.Traits() != 0 {
		return DynamicView[T]{}, fmt.Errorf("containers: NewDynamicView %q: option WithTraits(%s) is not allowed: the chunks are plain views: %w", label, probe.Traits(), kokkos.ErrOption)
	}
	shift := uint(bits.Len(uint(minChunkSize - 1)))
	cs := 1 << shift
	st := &dynState[T]{
		label:    label,
		space:    probe.Space(),
		noInit:   noInit(opts),
		shift:    shift,
		chunkMax: (maxExtent + cs - 1) >> shift,
	}
	_ = probe.Release()
	return DynamicView[T]{st: st}, nil
}

func (d *DynamicView[T]) state() *dynState[T] {
	if d.st == nil {
		return &dynState[T]{space: kokkos.HostSpace}
	}
	return d.st
}

// Label returns the label.
func (d *DynamicView[T]) Label() string { return d.state().label }

// Space returns the memory space of the chunks.
func (d *DynamicView[T]) Space() kokkos.MemorySpace { return d.state().space }

// Rank returns 1.
func (d *DynamicView[T]) Rank() int { return 1 }

// Extent returns the number of elements for r = 0, and 1 for any other r,
// as Kokkos's extent.
func (d *DynamicView[T]) Extent(r int) int {
	if r == 0 {
		return d.state().extent
	}
	return 1
}

// Size returns the number of elements (Kokkos's size).
func (d *DynamicView[T]) Size() int { return d.state().extent }

// ChunkSize returns the number of elements of a chunk, a power of two
// (Kokkos's chunk_size).
func (d *DynamicView[T]) ChunkSize() int {
	if d.st == nil {
		return 0
	}
	return 1 << d.st.shift
}

// ChunkMax returns the number of chunks the maximum extent takes
// (Kokkos's chunk_max).
func (d *DynamicView[T]) ChunkMax() int { return d.state().chunkMax }

// AllocationExtent returns the number of elements of the chunks allocated
// (Kokkos's allocation_extent).
func (d *DynamicView[T]) AllocationExtent() int {
	st := d.state()
	return len(st.chunks) << st.shift
}

// IsAllocated reports whether the extent is above 0, as Kokkos's
// is_allocated.
func (d *DynamicView[T]) IsAllocated() bool { return d.state().extent > 0 }

// Resize sets the extent to n (Kokkos's resize_serial): it allocates the
// chunks n needs that are missing and releases those past them; the
// elements of the chunks kept stay where they are, also those past n (a
// later growth within their chunk shows them again). New chunks are
// zeroed unless the DynamicView was made WithoutInitializing. An n past
// ChunkMax()*ChunkSize() (where Kokkos aborts) or below 0 is refused with
// an error wrapping kokkos.ErrShape, and the DynamicView is unchanged.
func (d *DynamicView[T]) Resize(n int) error {
	st := d.state()
	if n < 0 || n > st.chunkMax<<st.shift {
		return fmt.Errorf("containers: Resize of DynamicView %q to %d: the extent must be in [0, %d] (maximum extent %d chunks of %d); make a DynamicView with a larger maximum extent: %w",
			st.label, n, st.chunkMax<<st.shift, st.chunkMax, 1<<st.shift, kokkos.ErrShape)
	}
	nc := (n + 1<<st.shift - 1) >> st.shift
	for len(st.chunks) < nc {
		opts := []kokkos.Option{kokkos.InSpace(st.space)}
		if st.noInit {
			opts = append(opts, kokkos.WithoutInitializing)
		}
		c, err := kokkos.NewView1[T](st.label, 1<<st.shift, opts...)
		if err != nil {
			return fmt.Errorf("containers: Resize of DynamicView %q to %d: chunk %d: %w", st.label, n, len(st.chunks), err)
		}
		st.chunks = append(st.chunks, c)
		if st.space.HostAccessible() {
			st.host = append(st.host, c.Data())
		}
	}
	var err error
	for len(st.chunks) > nc {
		last := len(st.chunks) - 1
		if e := st.chunks[last].Release(); err == nil && e != nil {
			err = fmt.Errorf("containers: Resize of DynamicView %q to %d: release of chunk %d: %w", st.label, n, last, e)
		}
		st.chunks[last] = kokkos.View1[T]{}
		st.chunks = st.chunks[:last]
		if len(st.host) > last {
			st.host[last] = nil
			st.host = st.host[:last]
		}
	}
	st.extent = n
	return err
}

// Release releases every chunk and sets the extent to 0.
func (d *DynamicView[T]) Release() error { return d.Resize(0) }

// elem returns a pointer to element i, and panics with the label, the
// index and the extent when i is out of bounds or the host cannot access
// the chunks.
func (d *DynamicView[T]) elem(op string, i int) *T {
	st := d.state()
	if uint(i) >= uint(st.extent) {
		panic(fmt.Sprintf("containers: %s(%d) on DynamicView %q: index out of range [0, %d)", op, i, st.label, st.extent))
	}
	if st.host == nil {
		panic(fmt.Sprintf("containers: %s(%d) on DynamicView %q of extent %d in %s: %v: copy it to a view in HostSpace with DeepCopyToView", op, i, st.label, st.extent, st.space.Name(), kokkos.ErrNotHostAccessible))
	}
	return &st.host[i>>st.shift][i&(1<<st.shift-1)]
}

// At returns element i (Kokkos's operator()).
func (d *DynamicView[T]) At(i int) T { return *d.elem("At", i) }

// Set stores x in element i.
func (d *DynamicView[T]) Set(i int, x T) { *d.elem("Set", i) = x }

// Ptr returns a pointer to element i, valid until a Resize releases its
// chunk.
func (d *DynamicView[T]) Ptr(i int) *T { return d.elem("Ptr", i) }

// segments calls f for the ranges [lo, hi) of [0, n) that lie in one
// chunk of each of the chunk sizes given (as shifts).
func segments(n int, shifts []uint, f func(lo, hi int) error) error {
	for lo := 0; lo < n; {
		hi := n
		for _, s := range shifts {
			hi = min(hi, (lo>>s+1)<<s)
		}
		if err := f(lo, hi); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// chunkPart returns the elements [lo, hi) of st, which lie in one chunk.
func (st *dynState[T]) chunkPart(lo, hi int) kokkos.View1[T] {
	c := st.chunks[lo>>st.shift]
	off := lo & (1<<st.shift - 1)
	return c.Subview1(kokkos.Pair(off, off+hi-lo))
}

// DeepCopyToView copies the first min(dst.Extent(0), src.Size()) elements
// of src into dst, between any memory spaces, as Kokkos's deep_copy(View,
// DynamicView) (which copies the extents' overlap).
func DeepCopyToView[T any](dst kokkos.View1[T], src *DynamicView[T]) error {
	st := src.state()
	return segments(min(dst.Extent(0), st.extent), []uint{st.shift}, func(lo, hi int) error {
		part := st.chunkPart(lo, hi)
		if err := kokkos.DeepCopy[T](dst.Subview1(kokkos.Pair(lo, hi)), part); err != nil {
			return fmt.Errorf("containers: DeepCopyToView from DynamicView %q to view %q, elements [%d, %d): %w", st.label, dst.Label(), lo, hi, err)
		}
		return nil
	})
}

// DeepCopyFromView copies the first min(dst.Size(), src.Extent(0))
// elements of src into dst, as Kokkos's deep_copy(DynamicView, View).
func DeepCopyFromView[T any](dst *DynamicView[T], src kokkos.View1[T]) error {
	st := dst.state()
	return segments(min(src.Extent(0), st.extent), []uint{st.shift}, func(lo, hi int) error {
		part := st.chunkPart(lo, hi)
		if err := kokkos.DeepCopy[T](part, src.Subview1(kokkos.Pair(lo, hi))); err != nil {
			return fmt.Errorf("containers: DeepCopyFromView from view %q to DynamicView %q, elements [%d, %d): %w", src.Label(), st.label, lo, hi, err)
		}
		return nil
	})
}

// DeepCopyDynamic copies the first min(dst.Size(), src.Size()) elements
// of src into dst, between any memory spaces and chunk sizes, as Kokkos's
// deep_copy of DynamicViews.
func DeepCopyDynamic[T any](dst, src *DynamicView[T]) error {
	ds, ss := dst.state(), src.state()
	if ds == ss {
		return nil
	}
	return segments(min(ds.extent, ss.extent), []uint{ds.shift, ss.shift}, func(lo, hi int) error {
		if err := kokkos.DeepCopy[T](ds.chunkPart(lo, hi), ss.chunkPart(lo, hi)); err != nil {
			return fmt.Errorf("containers: DeepCopyDynamic from DynamicView %q to DynamicView %q, elements [%d, %d): %w", ss.label, ds.label, lo, hi, err)
		}
		return nil
	})
}
