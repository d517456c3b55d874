package mpi

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/layout"
	"github.com/gokkos/kokkos/internal/plan"
	"github.com/gokkos/kokkos/internal/typeinfo"
)

// kindOf returns the predefined MPI datatype kind of T, or kBytes for a
// type without one (sent as its bytes).
func kindOf[T any]() int {
	var z T
	switch any(z).(type) {
	case float64:
		return kFloat64
	case float32:
		return kFloat32
	case int:
		return kInt64
	case int32:
		return kInt32
	case int64:
		return kInt64
	case uint8:
		return kUint8
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int8:
		return kInt8
	case reflect.Int16:
		return kInt16
	case reflect.Int32:
		return kInt32
	case reflect.Int64, reflect.Int:
		return kInt64
	case reflect.Uint8:
		return kUint8
	case reflect.Uint16:
		return kUint16
	case reflect.Uint32:
		return kUint32
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		return kUint64
	case reflect.Float32:
		return kFloat32
	case reflect.Float64:
		return kFloat64
	case reflect.Complex64:
		return kComplex64
	case reflect.Complex128:
		return kComplex128
	case reflect.Bool:
		return kBool
	}
	return kBytes
}

// datatype returns the MPI datatype and count of n elements of T.
func datatype[T any](n int) (dt uintptr, count int) {
	if k := kindOf[T](); k != kBytes {
		return lib.dt[k], n
	}
	var z T
	return lib.dtByte, n * int(unsafe.Sizeof(z))
}

// buffer is the contiguous memory a message goes from or into: the view's
// own elements where they lie contiguously in message order, else a
// packing (or, for device memory, staging) buffer that wraps as a view.
type buffer[T any] struct {
	ptr   unsafe.Pointer // the Go memory of the message, nil outside the Go heap
	addr  uintptr        // the address of the message
	n     int            // elements
	view  kokkos.View[T]
	alloc *kokkos.Allocation     // retained while the buffer is in use
	wrap  *kokkos.DynRankView[T] // the staging buffer of a view the host cannot access
	store *storage               // the packing buffer, nil when ptr is the view's memory
	elems []T                    // a packed host view's elements, from its origin over its span
}

// gather is the shape of a packed host view: its extents and strides, and
// the strides of the same extents in message order.
type gather struct {
	rank      int
	ext, vstr [kokkos.MaxRank]int
	mstr      [kokkos.MaxRank]int
}

// storage is a packing buffer; pinned ones stage device views. A host
// view packed by the planner keeps its shape in g (here, in the pooled
// buffer, rather than in every buffer of a message).
type storage struct {
	words  []uint64
	pinned kokkos.View1[uint64] // the allocation of a pinned buffer
	space  kokkos.MemorySpace   // nil for Go memory
	g      gather
}

var (
	hostPool sync.Pool // *storage of Go memory
	pinMu    sync.Mutex
	pinPool  = map[kokkos.MemorySpace][]*storage{}
)

// stagingSpace returns the space of the host buffers through which a view
// in space s passes: the staging space a device backend names for its
// memory (pinned memory of the same device for CUDA), Go memory for any
// other space.
func stagingSpace(s kokkos.MemorySpace) kokkos.MemorySpace {
	if d, ok := s.(backend.DeviceMemory); ok {
		return d.Staging()
	}
	return nil
}

func getStorage(bytes int, space kokkos.MemorySpace) (*storage, error) {
	words := (bytes + 7) / 8
	if space == nil {
		if s, ok := hostPool.Get().(*storage); ok && cap(s.words) >= words {
			s.words = s.words[:words]
			return s, nil
		}
		return &storage{words: make([]uint64, words)}, nil
	}
	pinMu.Lock()
	list := pinPool[space]
	for i, s := range list {
		if cap(s.words) >= words {
			pinPool[space] = append(list[:i], list[i+1:]...)
			pinMu.Unlock()
			s.words = s.words[:words]
			return s, nil
		}
	}
	pinMu.Unlock()
	v, err := kokkos.NewView1[uint64]("mpi staging", max(words, 1), kokkos.InSpace(space))
	if err != nil {
		return nil, fmt.Errorf("mpi: staging buffer of %d bytes in %s: %w", bytes, space.Name(), err)
	}
	return &storage{words: v.Data()[:words], pinned: v, space: space}, nil
}

func putStorage(s *storage) {
	if s.space == nil {
		hostPool.Put(s)
		return
	}
	pinMu.Lock()
	defer pinMu.Unlock()
	if len(pinPool[s.space]) >= 4 {
		_ = s.pinned.Release()
		return
	}
	pinPool[s.space] = append(pinPool[s.space], s)
}

// contiguous reports whether the view's elements fill their span: taken
// in increasing order of stride, every dimension of extent above 1 steps
// over exactly the elements of those before it. Such a view travels in
// the order of its memory, from (or into) its own elements, as kokkos-comm
// sends a view whose span_is_contiguous() holds: first index fastest for
// LayoutLeft, last index fastest for LayoutRight, the order of the strides
// for LayoutStride.
func contiguous(d *backend.View) bool {
	var dims [kokkos.MaxRank]int
	k := 0
	for r := range d.Rank {
		switch {
		case d.Extents[r] == 0:
			return true
		case d.Extents[r] > 1:
			// insert r among dims, ordered by stride
			i := k
			for ; i > 0 && d.Strides[dims[i-1]] > d.Strides[r]; i-- {
				dims[i] = dims[i-1]
			}
			dims[i] = r
			k++
		}
	}
	s := 1
	for _, r := range dims[:k] {
		if d.Strides[r] != s {
			return false
		}
		s *= d.Extents[r]
	}
	return true
}

// memoryStrides returns the strides of a contiguous view's message: its
// own, with 1 for the dimensions of extent 1 (whose strides, which no
// index multiplies, may be anything), so that the message's span is its
// size.
func memoryStrides(d *backend.View) []int {
	str := make([]int, d.Rank)
	for r := range d.Rank {
		str[r] = d.Strides[r]
		if d.Extents[r] <= 1 {
			str[r] = 1
		}
	}
	return str
}

// prepare returns the buffer of a message from (recv false) or into (recv
// true) v, whose non-contiguous views are packed in the order of pack; a
// send's buffer holds v's elements when prepare returns.
func prepare[T any](op string, v kokkos.View[T], recv bool, pack kokkos.Layout) (*buffer[T], error) {
	b := new(buffer[T])
	if err := b.prepare(op, v, recv, true, pack); err != nil {
		return nil, err
	}
	return b, nil
}

// pointerTypes caches holdsPointers for the element types without an MPI
// datatype: reflect.Type to bool.
var pointerTypes sync.Map

// holdsPointers reports whether elements of T hold Go pointers, which
// cannot pass between processes.
func holdsPointers[T any]() bool {
	if kindOf[T]() != kBytes {
		return false
	}
	t := reflect.TypeFor[T]()
	if p, ok := pointerTypes.Load(t); ok {
		return p.(bool)
	}
	p := typeinfo.HasPointers(t)
	pointerTypes.Store(t, p)
	return p
}

// prepare sets b to the buffer of a message from (recv false) or into
// (recv true) v, packing a view that is not contiguous in the order of
// pack (LayoutLeft: first index fastest, or LayoutRight). With hold, b
// holds v's allocation until release, for requests that outlive the call.
func (b *buffer[T]) prepare(op string, v kokkos.View[T], recv, hold bool, pack kokkos.Layout) error {
	if v == nil {
		return errorf(ErrShape, "mpi: %s of a nil view", op)
	}
	if holdsPointers[T]() {
		return errorf(ErrType, "mpi: %s of view %q: elements of type %s hold Go pointers, which cannot pass between processes; send the numbers they point to instead", op, kokkos.Describe(v).Label, reflect.TypeFor[T]())
	}
	if f, ok := v.(fastView[T]); ok && b.fast(f, hold) {
		return nil
	}
	d := kokkos.Describe(v)
	alloc, _ := d.Owner.(*kokkos.Allocation)
	n := 1
	for r := range d.Rank {
		n *= d.Extents[r]
	}
	if alloc == nil && d.Host == nil && d.Addr == 0 {
		n = 0 // the zero view
	}
	*b = buffer[T]{n: n, view: v}
	switch {
	case alloc != nil && alloc.Released():
		return fmt.Errorf("mpi: %s of view %q after its final Release: %w", op, d.Label, kokkos.ErrReleased)
	case d.Atomic:
		return errorf(ErrType, "mpi: %s of view %q: it has the Atomic trait, whose elements MPI would read and write with plain loads and stores; pass a view of the same elements without the trait (AsTraits) once no atomic updates run", op, d.Label)
	case recv && d.ReadOnly:
		return fmt.Errorf("mpi: %s into read-only view %q: %w", op, d.Label, kokkos.ErrReadOnly)
	case n == 0:
		return nil
	}
	host := d.Space == nil || d.Space.HostAccessible()
	contig := contiguous(&d)
	if contig {
		switch {
		case host && d.Host != nil:
			b.ptr, b.addr = d.Host, uintptr(d.Host)
		case host && d.Addr != 0:
			b.addr = d.Addr // memory outside the Go heap
		case lib.cudaAware && d.Addr != 0 && isCUDA(d.Space):
			b.addr = d.Addr // device memory, which the library reads directly
		}
		if b.addr != 0 {
			if hold && alloc != nil {
				alloc.Retain()
				b.alloc = alloc
			}
			return nil
		}
	}
	if host && d.Host != nil {
		if hold && alloc != nil {
			alloc.Retain()
			b.alloc = alloc
		}
		if err := b.packHost(&d, recv, pack); err != nil {
			b.release()
			return fmt.Errorf("mpi: %s of view %q: packing: %w", op, d.Label, err)
		}
		return nil
	}
	var staging kokkos.MemorySpace
	if !host {
		staging = stagingSpace(d.Space)
	}
	var z T
	st, err := getStorage(n*int(unsafe.Sizeof(z)), staging)
	if err != nil {
		return err
	}
	data := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(st.words))), n)
	ext := make([]int, d.Rank)
	copy(ext, d.Extents[:d.Rank])
	// The staging buffer holds the message: a contiguous view's elements
	// in the order of its memory, the others in the order of pack.
	order := []kokkos.Option{pack}
	if contig {
		order = []kokkos.Option{kokkos.WithStrides(memoryStrides(&d)...)}
	}
	w, err := kokkos.WrapDynRankView(data, ext, order...)
	if err != nil {
		putStorage(st)
		return fmt.Errorf("mpi: %s of view %q: packing buffer: %w", op, d.Label, err)
	}
	b.wrap, b.store, b.ptr = &w, st, unsafe.Pointer(&data[0])
	b.addr = uintptr(b.ptr)
	if !recv {
		if err := b.pack(); err != nil {
			b.release()
			return fmt.Errorf("mpi: %s of view %q: packing: %w", op, d.Label, err)
		}
	}
	return nil
}

// packHost sets b to a packing buffer for the host view of description d,
// whose elements do not fill their span, in the order of pack, and for a send
// gathers them into it: the copy planner's gather on the view's own
// memory, without DeepCopy's checks and wrapping, which cost more than
// the gather for a small halo.
func (b *buffer[T]) packHost(d *backend.View, recv bool, pack kokkos.Layout) error {
	var z T
	st, err := getStorage(b.n*int(unsafe.Sizeof(z)), nil)
	if err != nil {
		return err
	}
	b.store, b.ptr = st, unsafe.Pointer(unsafe.SliceData(st.words))
	b.addr = uintptr(b.ptr)
	g := &st.g
	g.rank, g.ext, g.vstr = d.Rank, d.Extents, d.Strides
	r := d.Rank
	// The view exists, so neither its span nor the message's overflows.
	span, _ := layout.Span(g.ext[:r], g.vstr[:r])
	b.elems = unsafe.Slice((*T)(d.Host), span)
	layout.MapStrides(layout.Layout(pack), g.ext[:r], nil, d.ElemSize, false, g.mstr[:r])
	if !recv {
		return b.pack()
	}
	return nil
}

// message returns the packing buffer's elements.
func (b *buffer[T]) message() []T {
	return unsafe.Slice((*T)(b.ptr), b.n)
}

// pack copies the view's elements into the packing buffer.
func (b *buffer[T]) pack() error {
	if b.elems == nil {
		return kokkos.DeepCopy[T](b.wrap, b.view)
	}
	g := &b.store.g
	r := g.rank
	plan.Copy(packRange, b.message(), g.mstr[:r], b.elems, g.vstr[:r], g.ext[:r])
	return nil
}

// packRange runs a gather or scatter's chunks on the default execution
// space, or on the caller where there is one chunk.
func packRange(n, grain int, body func(lo, hi int)) {
	if n <= max(grain, 1) {
		body(0, n)
		return
	}
	kokkos.ParallelForChunks("mpi.pack", kokkos.Range(0, n).WithChunk(grain), body)
}

// fastView is what the pointers to every view kind implement, enough to
// send a contiguous LayoutRight or LayoutLeft host view without the cost of
// kokkos.Describe (about 100 ns).
type fastView[T any] interface {
	kokkos.View[T]
	SpanIsContiguous() bool
	Layout() kokkos.Layout
	Data() []T
	IsReadOnly() bool
	Traits() kokkos.Trait
	Space() kokkos.MemorySpace
	Allocation() *kokkos.Allocation
	Size() int
	Label() string
}

// fast sets b to v's own memory where v is a writable, non-atomic host
// view whose elements are contiguous in layout order, and reports
// whether it did.
func (b *buffer[T]) fast(v fastView[T], hold bool) bool {
	l := v.Layout()
	if l != kokkos.LayoutRight && l != kokkos.LayoutLeft || v.IsReadOnly() || v.Traits()&kokkos.Atomic != 0 ||
		!v.SpanIsContiguous() || !v.Space().HostAccessible() {
		return false
	}
	a := v.Allocation()
	if a == nil || a.Released() {
		return false
	}
	data := v.Data()
	n := v.Size()
	if n == 0 || len(data) < n {
		return false
	}
	*b = buffer[T]{n: n, view: v, ptr: unsafe.Pointer(&data[0])}
	b.addr = uintptr(b.ptr)
	if hold {
		a.Retain()
		b.alloc = a
	}
	return true
}

// label returns the label of the message's view, for errors.
func (b *buffer[T]) label() string {
	if b.view == nil {
		return ""
	}
	return kokkos.Describe(b.view).Label
}

// unpack copies a received message of got elements from the packing
// buffer into the view.
func (b *buffer[T]) unpack(op string, got int) error {
	if b.store == nil {
		return nil
	}
	if got != b.n {
		return errorf(ErrShape, "mpi: %s into non-contiguous view %q of %d elements: the message holds %d; a view that is packed must receive exactly its size", op, b.label(), b.n, got)
	}
	if b.elems != nil {
		g := &b.store.g
		r := g.rank
		plan.Copy(packRange, b.elems, g.vstr[:r], b.message(), g.mstr[:r], g.ext[:r])
		return nil
	}
	if err := kokkos.DeepCopy(b.view, b.wrap); err != nil {
		return fmt.Errorf("mpi: %s into view %q: unpacking: %w", op, b.label(), err)
	}
	return nil
}

// release gives back the packing buffer and the hold on the view.
func (b *buffer[T]) release() {
	if b.store != nil {
		putStorage(b.store)
		b.store = nil
	}
	if b.alloc != nil {
		_ = b.alloc.Release()
		b.alloc = nil
	}
	b.elems = nil
}

// isCUDA reports whether s holds memory at CUDA device addresses, which a
// CUDA-aware library reads and writes directly.
func isCUDA(s kokkos.MemorySpace) bool {
	d, ok := s.(backend.DeviceMemory)
	return ok && d.Platform() == "cuda"
}
