package arrow

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// ToView1 returns a rank-1 host view of the values of arr, an Arrow
// primitive array of T's type (array.Float64 for float64, …), without
// copying: the view's elements are the array's, a slice of an array
// (array.NewSlice, offset ≠ 0) included. The view retains arr's values
// buffer, so it stays valid after arr's Release, and releases it once when
// the last holder of the view's allocation lets go: release the view when
// done with it. The view is read-only unless opts has Writable.
//
// It returns an error wrapping ErrType when arr is not of T's type,
// ErrNulls when arr has nulls and opts has no FillNulls (with FillNulls
// the view is a copy with the nulls filled), kokkos.ErrShape when arr's
// buffer is shorter than its length says, kokkos.ErrLayout when the buffer
// does not start on a multiple of T's alignment (Arrow's allocators align
// theirs; memory.NewBufferBytes of a sub-slice may not),
// kokkos.ErrReadOnly for Writable over a buffer that is not mutable, and
// ErrOption for options that conflict (see Option).
func ToView1[T Element](arr arrow.Array, opts ...Option) (kokkos.View1[T], error) {
	c, err := makeConfig("ToView1", typeName[T](), opts)
	if err != nil {
		return kokkos.View1[T]{}, err
	}
	return toView1[T]("ToView1", arr, c)
}

// ToArray is ToView1 for a dal.Array: the array shares arr's values buffer
// without copying, holds it until the array's hold (and those of its
// shares, slices and views) is released, and is immutable unless opts has
// Writable. It returns the errors of ToView1.
func ToArray[T Element](arr arrow.Array, opts ...Option) (dal.Array[T], error) {
	c, err := makeConfig("ToArray", typeName[T](), opts)
	if err != nil {
		return dal.Array[T]{}, err
	}
	v, err := toView1[T]("ToArray", arr, c)
	if err != nil {
		return dal.Array[T]{}, err
	}
	return arrayFromOwnView(v)
}

// BufferToView1 returns a rank-1 host view of the elements of type T that
// buf's bytes hold, without copying, that retains buf and releases it once
// when the last holder of the view's allocation lets go. It returns an
// error wrapping kokkos.ErrShape when buf's length is not a multiple of
// T's size, kokkos.ErrLayout when buf's bytes do not start on a multiple
// of T's alignment, kokkos.ErrReadOnly for Writable over a buffer that is
// not mutable, and ErrOption for FillNulls, which cannot apply: a buffer
// has no null bitmap.
func BufferToView1[T Element](buf *memory.Buffer, opts ...Option) (kokkos.View1[T], error) {
	c, err := makeConfig("BufferToView1", typeName[T](), opts)
	if err != nil {
		return kokkos.View1[T]{}, err
	}
	return bufferToView1[T]("BufferToView1", buf, c)
}

// BufferToArray is BufferToView1 for a dal.Array.
func BufferToArray[T Element](buf *memory.Buffer, opts ...Option) (dal.Array[T], error) {
	c, err := makeConfig("BufferToArray", typeName[T](), opts)
	if err != nil {
		return dal.Array[T]{}, err
	}
	v, err := bufferToView1[T]("BufferToArray", buf, c)
	if err != nil {
		return dal.Array[T]{}, err
	}
	return arrayFromOwnView(v)
}

// arrayFromOwnView returns a dal.Array over v's elements and releases v.
func arrayFromOwnView[T Element](v kokkos.View1[T]) (dal.Array[T], error) {
	a, err := dal.FromView(v)
	return a, errors.Join(err, v.Release())
}

func toView1[T Element](op string, arr arrow.Array, c config) (kokkos.View1[T], error) {
	if arr == nil {
		return kokkos.View1[T]{}, errorf(ErrType, "arrow: %s[%s] of a nil Arrow array", op, typeName[T]())
	}
	d := arr.Data()
	buf, all, err := primitive[T](op, d)
	if err != nil {
		return kokkos.View1[T]{}, err
	}
	off, n := d.Offset(), d.Len()
	if nulls := nullsIn(d, off, n); nulls > 0 {
		x, ok, err := fillValue[T](op, c)
		if err != nil {
			return kokkos.View1[T]{}, err
		}
		if !ok {
			return kokkos.View1[T]{}, errorf(ErrNulls, "arrow: %s[%s] of an Arrow array with %d nulls among %d values: pass FillNulls(x) for a copy with x in the null slots", op, typeName[T](), nulls, n)
		}
		return filledView1(c.label, d, all, off, n, x)
	}
	if _, _, err := fillValue[T](op, c); err != nil {
		return kokkos.View1[T]{}, err
	}
	return wrap1(op, buf, all, off, n, c)
}

func bufferToView1[T Element](op string, buf *memory.Buffer, c config) (kokkos.View1[T], error) {
	if c.given&givenFill != 0 {
		return kokkos.View1[T]{}, errorf(ErrOption, "arrow: %s[%s] with FillNulls: a buffer has no null bitmap, so there is nothing to fill; drop the option, or convert the Arrow array (ToView1) whose nulls it should fill", op, typeName[T]())
	}
	if buf != nil && buf.Len()%sizeOf[T]() != 0 {
		return kokkos.View1[T]{}, errorf(kokkos.ErrShape, "arrow: %s[%s] of a buffer of %d bytes: not a multiple of %s's %d bytes", op, typeName[T](), buf.Len(), typeName[T](), sizeOf[T]())
	}
	if err := checkAligned[T](op, buf); err != nil {
		return kokkos.View1[T]{}, err
	}
	all := elements[T](buf)
	return wrap1(op, buf, all, 0, len(all), c)
}

// primitive returns the values buffer of d, Arrow data of T's type, and
// its bytes as elements, after checking the type and that the elements
// d's offset and length name lie in the buffer.
func primitive[T Element](op string, d arrow.ArrayData) (*memory.Buffer, []T, error) {
	if err := checkType[T](op, d.DataType()); err != nil {
		return nil, nil, err
	}
	var buf *memory.Buffer
	if bufs := d.Buffers(); len(bufs) > 1 {
		buf = bufs[1]
	}
	if err := checkAligned[T](op, buf); err != nil {
		return nil, nil, err
	}
	all := elements[T](buf)
	if off, n := d.Offset(), d.Len(); off < 0 || n < 0 || off > len(all) || n > len(all)-off {
		return nil, nil, errorf(kokkos.ErrShape, "arrow: %s[%s] of Arrow data of %d values at offset %d whose buffer holds %d values: the data is malformed", op, typeName[T](), n, off, len(all))
	}
	return buf, all, nil
}

// checkAligned returns an error wrapping kokkos.ErrLayout when buf's bytes
// do not start on a multiple of T's alignment: Go, and the atomic
// operations of views, need aligned elements. Arrow's allocators align
// their buffers to 64 bytes; a buffer over bytes from elsewhere
// (memory.NewBufferBytes of a sub-slice) may not be.
func checkAligned[T Element](op string, buf *memory.Buffer) error {
	align := uintptr(unsafe.Alignof(*new(T)))
	if buf == nil || buf.Len() == 0 || align == 1 {
		return nil
	}
	if addr := uintptr(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))); addr%align != 0 {
		return errorf(kokkos.ErrLayout, "arrow: %s[%s] of a buffer at %#x, not aligned to %s's %d bytes: copy its bytes into a buffer of an Arrow allocator (memory.NewGoAllocator), which aligns them", op, typeName[T](), addr, typeName[T](), align)
	}
	return nil
}

// elements returns buf's bytes as elements of type T, nil for a nil buffer.
func elements[T Element](buf *memory.Buffer) []T {
	if buf == nil {
		return nil
	}
	b := buf.Bytes()
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/sizeOf[T]())
}

// nullsIn returns the number of null slots among the n slots of d that
// start at slot from (counted from the start of d's buffers, d's offset
// included).
func nullsIn(d arrow.ArrayData, from, n int) int {
	bitmap := validity(d)
	if bitmap == nil || n == 0 {
		return 0
	}
	return n - bitutil.CountSetBits(bitmap, from, n)
}

// validity returns d's validity bitmap, nil when d has no nulls.
func validity(d arrow.ArrayData) []byte {
	bufs := d.Buffers()
	if d.NullN() == 0 || len(bufs) == 0 || bufs[0] == nil {
		return nil
	}
	return bufs[0].Bytes()
}

// valid reports whether slot i is valid under bitmap (nil: all are).
func valid(bitmap []byte, i int) bool { return bitmap == nil || bitutil.BitIsSet(bitmap, i) }

// wrap1 returns a view of the n elements of all (buf's) that start at off,
// holding buf, read-only unless c.writable.
func wrap1[T Element](op string, buf *memory.Buffer, all []T, off, n int, c config) (kokkos.View1[T], error) {
	rec, err := own(op, buf, len(all)*sizeOf[T](), c)
	if err != nil {
		return kokkos.View1[T]{}, err
	}
	v, err := kokkos.ViewOnAllocation1(rec, off, n, all[off:off+n:off+n])
	if err = errors.Join(err, rec.Release()); err != nil {
		return kokkos.View1[T]{}, fmt.Errorf("arrow: %s[%s]: %w", op, typeName[T](), err)
	}
	if !c.writable {
		v = v.ReadOnly()
	}
	return v, nil
}

// own retains buf and returns an Allocation of bytes bytes, with one
// holder, whose last Release releases buf. It refuses to give writable
// access to a buffer that is not mutable.
func own(op string, buf *memory.Buffer, bytes int, c config) (*kokkos.Allocation, error) {
	if c.writable && buf != nil && !buf.Mutable() {
		return nil, errorf(kokkos.ErrReadOnly, "arrow: %s with Writable of a buffer that is not mutable: Arrow did not allocate it or it is shared; drop Writable, or copy the values", op)
	}
	var free func() error
	if buf != nil {
		buf.Retain()
		free = func() error { buf.Release(); return nil }
	}
	a, err := kokkos.NewAllocation(c.label, kokkos.HostSpace, 0, bytes, free)
	if err != nil && free != nil {
		err = errors.Join(err, free())
	}
	return a, err
}

// filledView1 returns a new view of the n values of d that start at off,
// with x in the null slots.
func filledView1[T Element](label string, d arrow.ArrayData, all []T, off, n int, x T) (kokkos.View1[T], error) {
	v, err := kokkos.NewView1[T](label, n)
	if err != nil {
		return kokkos.View1[T]{}, err
	}
	bitmap := validity(d)
	out := v.Data()
	for i := range out {
		if valid(bitmap, off+i) {
			out[i] = all[off+i]
		} else {
			out[i] = x
		}
	}
	return v, nil
}

// FromView1 returns an Arrow primitive array of T's type (*array.Float64
// for float64, …) whose values are v's elements, without copying, and
// without nulls. The array takes a holder of v's allocation, given back by
// its last Release: release it when done. v keeps its own holders and may
// be released before the array.
//
// It returns an error wrapping kokkos.ErrNotHostAccessible for a view the
// host cannot access (copy it to the host first, with
// kokkos.CreateMirrorViewAndCopy), kokkos.ErrLayout for a view whose
// elements are not contiguous (DeepCopy it into a contiguous view),
// kokkos.ErrElementType for a view with the Atomic trait, and
// kokkos.ErrReleased after the view's final Release.
func FromView1[T Element](v kokkos.View1[T]) (arrow.Array, error) {
	buf, err := bufferFromView1("FromView1", v)
	if err != nil {
		return nil, err
	}
	return newPrimitive[T](buf, v.Extent(0)), nil
}

// BufferFromView1 is FromView1 for a memory.Buffer of the view's
// elements' bytes. The buffer is not mutable, and cannot grow (Reserve,
// Resize and Reset panic).
func BufferFromView1[T Element](v kokkos.View1[T]) (*memory.Buffer, error) {
	return bufferFromView1("BufferFromView1", v)
}

// FromArray returns an Arrow primitive array of T's type whose values are
// a's elements, without copying. The array takes a new hold on a's block
// (a Share), given back by its last Release; a keeps its own hold. It
// returns an error wrapping dal.ErrReleased for a released array and
// kokkos.ErrNotHostAccessible for an array in memory the host cannot
// access.
func FromArray[T Element](a dal.Array[T]) (arrow.Array, error) {
	buf, err := bufferFromArray("FromArray", a)
	if err != nil {
		return nil, err
	}
	return newPrimitive[T](buf, a.Count()), nil
}

// BufferFromArray is FromArray for a memory.Buffer of the array's
// elements' bytes, not mutable and unable to grow.
func BufferFromArray[T Element](a dal.Array[T]) (*memory.Buffer, error) {
	return bufferFromArray("BufferFromArray", a)
}

func bufferFromView1[T Element](op string, v kokkos.View1[T]) (*memory.Buffer, error) {
	if err := checkView(op, typeName[T](), v.Allocation(), v.Label(), v.Space(), v.Traits()); err != nil {
		return nil, err
	}
	if n := v.Extent(0); n > 1 && v.Stride(0) != 1 {
		return nil, errorf(kokkos.ErrLayout, "arrow: %s[%s] of view %q with stride %d: Arrow needs contiguous values; DeepCopy it into a contiguous view first", op, typeName[T](), v.Label(), v.Stride(0))
	}
	a, err := dal.FromView(v)
	if err != nil {
		return nil, fmt.Errorf("arrow: %s[%s] of view %q: %w", op, typeName[T](), v.Label(), err)
	}
	return bufferOwning(a), nil
}

func bufferFromArray[T Element](op string, a dal.Array[T]) (*memory.Buffer, error) {
	switch {
	case a.Released():
		return nil, fmt.Errorf("arrow: %s[%s] of a released dal.Array: %w", op, typeName[T](), dal.ErrReleased)
	case !a.Space().HostAccessible():
		return nil, notHost(op, typeName[T](), "a dal.Array", a.Space())
	}
	return bufferOwning(a.Share()), nil
}

// checkView returns the error for a view Arrow cannot share: released,
// in memory the host cannot access, or atomic.
func checkView(op, typ string, rec *kokkos.Allocation, label string, space kokkos.MemorySpace, traits kokkos.Trait) error {
	switch {
	case rec != nil && rec.Released():
		return errorf(kokkos.ErrReleased, "arrow: %s[%s] of view %q after its final Release", op, typ, label)
	case !space.HostAccessible():
		return notHost(op, typ, fmt.Sprintf("view %q", label), space)
	case traits&kokkos.Atomic != 0:
		return errorf(kokkos.ErrElementType, "arrow: %s[%s] of view %q with the Atomic trait: Arrow would read it with plain loads; convert it with AsTraits(0) once the atomic updates are done", op, typ, label)
	}
	return nil
}

func notHost(op, typ, what string, space kokkos.MemorySpace) error {
	return errorf(kokkos.ErrNotHostAccessible, "arrow: %s[%s] of %s in %s, which the host cannot access: copy it to the host first (a host mirror: kokkos.CreateMirrorViewAndCopy) and share the copy", op, typ, what, space.Name())
}

// bufferOwning returns a buffer over a's elements that owns a's hold: the
// buffer's last Release releases it.
func bufferOwning[T Element](a dal.Array[T]) *memory.Buffer {
	return bufferOver(a.Data(), a.Release)
}

// bufferOver returns a buffer over the bytes of data whose last Release
// calls release, once.
func bufferOver[T Element](data []T, release func() error) *memory.Buffer {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*sizeOf[T]())
	return memory.NewBufferWithAllocator(b, &holder{release: release})
}

// newPrimitive returns the Arrow array of T's type over the n values in
// buf, taking over the caller's reference to buf.
func newPrimitive[T Element](buf *memory.Buffer, n int) arrow.Array {
	d := array.NewData(DataType[T](), n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release() // d holds it
	defer d.Release()
	return array.MakeFromData(d)
}

// A holder is the memory.Allocator of a buffer over gokkos memory: Arrow
// calls Free at the buffer's last Release, which gives back the buffer's
// holder of that memory. It allocates nothing.
type holder struct {
	once    sync.Once
	release func() error
}

var _ memory.Allocator = (*holder)(nil)

func (h *holder) Allocate(int) []byte { panic(errGrow) }

func (h *holder) Reallocate(int, []byte) []byte { panic(errGrow) }

// Free releases the holder; Arrow calls it once per buffer, the Once makes
// sure of it. The release of host memory does not fail.
func (h *holder) Free([]byte) { h.once.Do(func() { _ = h.release() }) }

var errGrow = errorf(kokkos.ErrReadOnly, "arrow: a buffer over a gokkos view or dal.Array cannot grow or be reset: copy its bytes into a buffer of an Arrow allocator first")
