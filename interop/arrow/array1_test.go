package arrow

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/dal"
)

func TestToView1EveryType(t *testing.T) {
	eachElement(t, all11(toView1Test[int8], toView1Test[int16], toView1Test[int32], toView1Test[int64],
		toView1Test[uint8], toView1Test[uint16], toView1Test[uint32], toView1Test[uint64],
		toView1Test[float16Num], toView1Test[float32], toView1Test[float64]))
}

// toView1Test: the view reads the Arrow values, shares their memory both
// ways, outlives the Arrow array, and frees nothing twice.
func toView1Test[T Element](t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[T](r, 37)
	arr := newArray(mem, vals, nil).(valuer[T])
	v, err := ToView1[T](arr)
	if err != nil {
		t.Fatal(err)
	}
	if v.Extent(0) != len(vals) || !v.IsReadOnly() || v.Label() != DefaultLabel || v.Layout() != kokkos.LayoutRight {
		t.Fatalf("extent %d read-only %v label %q layout %v", v.Extent(0), v.IsReadOnly(), v.Label(), v.Layout())
	}
	for i := range vals {
		if v.At(i) != arr.Value(i) {
			t.Fatalf("v(%d) = %v, Arrow %v", i, v.At(i), arr.Value(i))
		}
	}
	// Zero-copy: a write on the Arrow side shows in the view.
	x := rnd[T](r)
	arr.Values()[5] = x
	if v.At(5) != x {
		t.Fatalf("after an Arrow write, v(5) = %v, want %v", v.At(5), x)
	}
	// A writable view writes the Arrow memory.
	w, err := ToView1[T](arr, Writable(), WithLabel("w"))
	if err != nil {
		t.Fatal(err)
	}
	y := rnd[T](r)
	w.Set(11, y)
	if arr.Value(11) != y || v.At(11) != y || w.Label() != "w" {
		t.Fatalf("after a view write, Arrow %v, other view %v, want %v (label %q)", arr.Value(11), v.At(11), y, w.Label())
	}
	// The views outlive the array.
	arr.Release()
	if mem.CurrentAlloc() == 0 {
		t.Fatal("the values were freed while views hold them")
	}
	if v.At(5) != x {
		t.Fatalf("after the array's Release, v(5) = %v", v.At(5))
	}
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if err := w.Release(); err != nil {
		t.Fatal(err)
	}
}

type float16Num = float16.Num

func TestToArrayEveryType(t *testing.T) {
	eachElement(t, all11(toArrayTest[int8], toArrayTest[int16], toArrayTest[int32], toArrayTest[int64],
		toArrayTest[uint8], toArrayTest[uint16], toArrayTest[uint32], toArrayTest[uint64],
		toArrayTest[float16Num], toArrayTest[float32], toArrayTest[float64]))
}

func toArrayTest[T Element](t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[T](r, 29)
	arr := newArray(mem, vals, nil).(valuer[T])
	a, err := ToArray[T](arr)
	if err != nil {
		t.Fatal(err)
	}
	if a.Count() != len(vals) || a.HasMutableData() || a.UseCount() != 1 || a.Allocation().Label() != DefaultLabel {
		t.Fatalf("count %d mutable %v holders %d label %q", a.Count(), a.HasMutableData(), a.UseCount(), a.Allocation().Label())
	}
	for i := range vals {
		if a.At(i) != vals[i] {
			t.Fatalf("a[%d] = %v, want %v", i, a.At(i), vals[i])
		}
	}
	x := rnd[T](r)
	arr.Values()[3] = x
	if a.At(3) != x {
		t.Fatalf("after an Arrow write, a[3] = %v, want %v", a.At(3), x)
	}
	m, err := ToArray[T](arr, Writable(), WithLabel("m"))
	if err != nil || m.Allocation().Label() != "m" {
		t.Fatalf("%v, label %q", err, m.Allocation().Label())
	}
	data, err := m.MutableData()
	if err != nil {
		t.Fatal(err)
	}
	y := rnd[T](r)
	data[7] = y
	if arr.Value(7) != y {
		t.Fatalf("after a dal write, Arrow %v, want %v", arr.Value(7), y)
	}
	s := a.Share()
	arr.Release()
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if mem.CurrentAlloc() == 0 || s.At(3) != x {
		t.Fatalf("a share lost the values: allocated %d, s[3] = %v", mem.CurrentAlloc(), s.At(3))
	}
	if err := errors.Join(s.Release(), m.Release()); err != nil {
		t.Fatal(err)
	}
}

func TestFromView1EveryType(t *testing.T) {
	eachElement(t, all11(fromView1Test[int8], fromView1Test[int16], fromView1Test[int32], fromView1Test[int64],
		fromView1Test[uint8], fromView1Test[uint16], fromView1Test[uint32], fromView1Test[uint64],
		fromView1Test[float16Num], fromView1Test[float32], fromView1Test[float64]))
}

// fromView1Test: the Arrow array reads the view's elements, shares them
// both ways, holds the allocation, and gives its holder back.
func fromView1Test[T Element](t *testing.T) {
	r := newRand(t)
	space := backendtest.NewCheckedSpace(backendtest.FakeDevice(true))
	defer space.AssertNoLeaks(t)
	v, err := kokkos.NewView1[T]("v", 41, kokkos.InSpace(space))
	if err != nil {
		t.Fatal(err)
	}
	copy(v.Data(), randoms[T](r, 41))
	got, err := FromView1(v)
	if err != nil {
		t.Fatal(err)
	}
	arr, ok := got.(valuer[T])
	if !ok || !arrow.TypeEqual(arr.DataType(), DataType[T]()) || arr.Len() != 41 || arr.NullN() != 0 || v.UseCount() != 2 {
		t.Fatalf("array %T of %v, length %d, nulls %d; view holders %d", got, got.DataType(), got.Len(), got.NullN(), v.UseCount())
	}
	for i := range 41 {
		if arr.Value(i) != v.At(i) {
			t.Fatalf("Arrow [%d] = %v, view %v", i, arr.Value(i), v.At(i))
		}
	}
	x := rnd[T](r)
	v.Set(9, x)
	if arr.Value(9) != x {
		t.Fatalf("after a view write, Arrow [9] = %v, want %v", arr.Value(9), x)
	}
	y := rnd[T](r)
	arr.Values()[10] = y
	if v.At(10) != y {
		t.Fatalf("after an Arrow write, v(10) = %v, want %v", v.At(10), y)
	}
	// The array outlives the view.
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if space.CurrentAlloc() == 0 || arr.Value(9) != x {
		t.Fatalf("the block was freed while the Arrow array holds it")
	}
	arr.Release()
	if space.CurrentAlloc() != 0 {
		t.Fatalf("%d bytes left after the last holder", space.CurrentAlloc())
	}
}

func TestFromArrayEveryType(t *testing.T) {
	eachElement(t, all11(fromArrayTest[int8], fromArrayTest[int16], fromArrayTest[int32], fromArrayTest[int64],
		fromArrayTest[uint8], fromArrayTest[uint16], fromArrayTest[uint32], fromArrayTest[uint64],
		fromArrayTest[float16Num], fromArrayTest[float32], fromArrayTest[float64]))
}

func fromArrayTest[T Element](t *testing.T) {
	r := newRand(t)
	vals := randoms[T](r, 23)
	deleted := 0
	a := dal.WrapMutableWithDeleter(vals, func() { deleted++ })
	got, err := FromArray(a)
	if err != nil {
		t.Fatal(err)
	}
	arr := got.(valuer[T])
	if arr.Len() != 23 || a.UseCount() != 2 {
		t.Fatalf("length %d, holders %d", arr.Len(), a.UseCount())
	}
	for i := range vals {
		if arr.Value(i) != a.At(i) {
			t.Fatalf("Arrow [%d] = %v, dal %v", i, arr.Value(i), a.At(i))
		}
	}
	x := rnd[T](r)
	vals[4] = x
	if arr.Value(4) != x {
		t.Fatalf("after a dal write, Arrow [4] = %v", arr.Value(4))
	}
	buf, err := BufferFromArray(a)
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 23*sizeOf[T]() || buf.Mutable() || a.UseCount() != 3 {
		t.Fatalf("buffer of %d bytes, mutable %v; holders %d", buf.Len(), buf.Mutable(), a.UseCount())
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	arr.Release()
	if deleted != 0 {
		t.Fatal("deleter ran while a buffer holds the block")
	}
	buf.Release()
	if deleted != 1 {
		t.Fatalf("deleter ran %d times", deleted)
	}
}

// TestBuffers: BufferToView1 and BufferFromView1 share the bytes.
func TestBuffers(t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[float32](r, 16)
	buf := valueBuffer(mem, vals)
	v, err := BufferToView1[float32](buf)
	if err != nil {
		t.Fatal(err)
	}
	a, err := BufferToArray[float32](buf, Writable())
	if err != nil {
		t.Fatal(err)
	}
	buf.Release()
	data, _ := a.MutableData()
	data[2] = 5
	if v.Extent(0) != 16 || v.At(2) != 5 || v.At(3) != vals[3] {
		t.Fatalf("extent %d, v(2) = %v, v(3) = %v", v.Extent(0), v.At(2), v.At(3))
	}
	out, err := BufferFromView1(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := BufferToView1[float32](out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Extent(0) != 16 || back.At(2) != 5 {
		t.Fatalf("round trip: extent %d, (2) = %v", back.Extent(0), back.At(2))
	}
	out.Release()
	if _, err := BufferToView1[float32](out, Writable()); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Fatalf("Writable of a buffer over a read-only view: %v", err)
	}
	if err := errors.Join(v.Release(), back.Release(), a.Release()); err != nil {
		t.Fatal(err)
	}
	odd := memory.NewBufferBytes(make([]byte, 6))
	if _, err := BufferToView1[float32](odd); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "6 bytes") {
		t.Fatalf("6 bytes as float32: %v", err)
	}
	if _, err := BufferToArray[float64](odd); !errors.Is(err, kokkos.ErrShape) {
		t.Fatalf("6 bytes as float64: %v", err)
	}
	if _, err := BufferToView1[float32](memory.NewBufferBytes(make([]byte, 8)), Writable()); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Fatalf("Writable of bytes Arrow did not allocate: %v", err)
	}
	nilView, err := BufferToView1[int16](nil)
	if err != nil || nilView.Extent(0) != 0 {
		t.Fatalf("nil buffer: %v, extent %d", err, nilView.Extent(0))
	}
	_ = nilView.Release()
}

// TestSlicesMapToTheirElements: Arrow arrays with an offset give views of
// exactly their elements.
func TestSlicesMapToTheirElements(t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[int64](r, 50)
	arr := newArray(mem, vals, nil)
	defer arr.Release()
	for _, c := range [][2]int64{{0, 50}, {3, 9}, {17, 17}, {49, 50}, {0, 1}, {10, 50}} {
		s := array.NewSlice(arr, c[0], c[1])
		v, err := ToView1[int64](s)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ToArray[int64](s)
		if err != nil {
			t.Fatal(err)
		}
		if v.Extent(0) != int(c[1]-c[0]) || a.Count() != v.Extent(0) {
			t.Fatalf("slice %v: extent %d, count %d", c, v.Extent(0), a.Count())
		}
		for i := range v.Extent(0) {
			if v.At(i) != vals[int(c[0])+i] || a.At(i) != vals[int(c[0])+i] {
				t.Fatalf("slice %v: (%d) = %v / %v, want %v", c, i, v.At(i), a.At(i), vals[int(c[0])+i])
			}
		}
		if v.Extent(0) > 0 && &a.Data()[0] != &arr.(*array.Int64).Values()[c[0]] {
			t.Fatalf("slice %v: the view does not start at the slice's first element", c)
		}
		s.Release()
		if err := errors.Join(v.Release(), a.Release()); err != nil {
			t.Fatal(err)
		}
	}
	// A slice of an array exported from a view reads the view's elements.
	w, _ := kokkos.NewView1[int64]("w", 8)
	for i := range 8 {
		w.Set(i, int64(i*i))
	}
	out, err := FromView1(w)
	if err != nil {
		t.Fatal(err)
	}
	s := array.NewSlice(out, 2, 6).(*array.Int64)
	out.Release()
	back, err := ToView1[int64](s)
	if err != nil {
		t.Fatal(err)
	}
	s.Release()
	if back.Extent(0) != 4 || back.At(0) != 4 || back.At(3) != 25 || w.UseCount() != 2 {
		t.Fatalf("round trip of a slice: extent %d, %v %v, holders of w %d", back.Extent(0), back.At(0), back.At(3), w.UseCount())
	}
	_ = back.Release()
	if w.UseCount() != 1 {
		t.Fatalf("holders of w %d after every Arrow and view release", w.UseCount())
	}
}

// TestNulls: arrays with nulls are refused unless filled; a slice without
// the null slots is shared as usual.
func TestNulls(t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[float64](r, 20)
	valid := make([]bool, 20)
	for i := range valid {
		valid[i] = i != 4 && i != 13
	}
	arr := newArray(mem, vals, valid)
	defer arr.Release()
	_, err := ToView1[float64](arr)
	if !errors.Is(err, ErrNulls) || !strings.Contains(err.Error(), "2 nulls among 20") || !strings.Contains(err.Error(), "FillNulls") {
		t.Fatalf("nulls: %v", err)
	}
	if _, err := ToArray[float64](arr); !errors.Is(err, ErrNulls) {
		t.Fatalf("nulls, dal: %v", err)
	}
	if _, err := ToView1[float64](arr, FillNulls[float32](0)); !errors.Is(err, ErrType) {
		t.Fatalf("FillNulls of another type: %v", err)
	}
	v, err := ToView1[float64](arr, FillNulls(-1.0))
	if err != nil {
		t.Fatal(err)
	}
	a, err := ToArray[float64](arr, FillNulls(-2.0))
	if err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		want, wantA := vals[i], vals[i]
		if !valid[i] {
			want, wantA = -1, -2
		}
		if v.At(i) != want || a.At(i) != wantA {
			t.Fatalf("filled (%d) = %v / %v, want %v / %v", i, v.At(i), a.At(i), want, wantA)
		}
	}
	// The filled view is a copy, writable, that holds no Arrow memory.
	v.Set(0, 99)
	if arr.(*array.Float64).Value(0) == 99 || v.IsReadOnly() {
		t.Fatal("the filled view shares the Arrow memory")
	}
	_ = v.Release()
	_ = a.Release()
	// A slice between the nulls has none and is shared.
	s := array.NewSlice(arr, 5, 13)
	defer s.Release()
	w, err := ToView1[float64](s, Writable())
	if err != nil {
		t.Fatalf("slice without nulls: %v", err)
	}
	if &w.Data()[0] != &arr.(*array.Float64).Values()[5] {
		t.Fatal("slice without nulls was copied")
	}
	_ = w.Release()
	s2 := array.NewSlice(arr, 12, 15)
	defer s2.Release()
	if _, err := ToView1[float64](s2); !errors.Is(err, ErrNulls) || !strings.Contains(err.Error(), "1 nulls among 3") {
		t.Fatalf("slice with a null: %v", err)
	}
	// FillNulls of the wrong type is refused also without nulls.
	if _, err := ToView1[float64](s, FillNulls(int8(1))); !errors.Is(err, ErrType) {
		t.Fatalf("FillNulls of another type, no nulls: %v", err)
	}
}

// TestArrowErrors: every refusal of Arrow data, with the sentinel and a
// message naming the types.
func TestArrowErrors(t *testing.T) {
	mem := checkedAlloc(t)
	ints := newArray(mem, []int32{1, 2, 3}, nil)
	defer ints.Release()
	_, err := ToView1[float64](ints)
	if !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "ToView1[float64]") || !strings.Contains(err.Error(), "int32") {
		t.Fatalf("int32 as float64: %v", err)
	}
	if _, err := ToArray[uint32](ints); !errors.Is(err, ErrType) {
		t.Fatalf("int32 as uint32: %v", err)
	}
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"a", "b"}, nil)
	strs := b.NewArray()
	b.Release()
	defer strs.Release()
	if _, err := ToView1[int32](strs); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "utf8") {
		t.Fatalf("strings: %v", err)
	}
	if _, err := ToView1[int32](nil); !errors.Is(err, ErrType) {
		t.Fatalf("nil array: %v", err)
	}
	// Data whose buffer is shorter than its length.
	short := array.NewData(arrow.PrimitiveTypes.Int32, 10, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 12))}, nil, 0, 0)
	defer short.Release()
	if _, err := ToView1[int32](malformed{ints, short}); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "malformed") {
		t.Fatalf("short buffer: %v", err)
	}
	// Writable over memory that is not mutable.
	ro := array.NewData(arrow.PrimitiveTypes.Int32, 3, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 12))}, nil, 0, 0)
	defer ro.Release()
	if _, err := ToView1[int32](array.MakeFromData(ro), Writable()); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Fatalf("Writable over bytes: %v", err)
	}
	v, err := ToView1[int32](array.MakeFromData(ro))
	if err != nil || v.Extent(0) != 3 {
		t.Fatalf("read-only over bytes: %v", err)
	}
	_ = v.Release()
}

// TestViewErrors: every view or array Arrow cannot share, with the
// sentinel and what to do.
func TestViewErrors(t *testing.T) {
	dev := backendtest.FakeDevice(false)
	d, err := kokkos.NewView1[float64]("dev", 8, kokkos.InSpace(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	_, err = FromView1(d)
	if !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), "CreateMirrorViewAndCopy") || !strings.Contains(err.Error(), `"dev"`) {
		t.Fatalf("device view: %v", err)
	}
	if _, err := BufferFromView1(d); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device view buffer: %v", err)
	}
	da, err := dal.Zeros[float64](8, dal.InSpace(dev))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromArray(da); !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), "copy it to the host") {
		t.Fatalf("device array: %v", err)
	}
	if _, err := BufferFromArray(da); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device array buffer: %v", err)
	}
	_ = da.Release()
	if _, err := FromArray(da); !errors.Is(err, dal.ErrReleased) {
		t.Fatalf("released array: %v", err)
	}

	h, _ := kokkos.NewView2[float64]("h", 6, 4)
	col := h.Subview1(kokkos.All, 2)
	if _, err := FromView1(col); !errors.Is(err, kokkos.ErrLayout) || !strings.Contains(err.Error(), "stride 4") || !strings.Contains(err.Error(), "DeepCopy") {
		t.Fatalf("strided view: %v", err)
	}
	at, err := kokkos.NewView1[int64]("atomic", 4, kokkos.WithTraits(kokkos.Atomic))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromView1(at); !errors.Is(err, kokkos.ErrElementType) || !strings.Contains(err.Error(), "Atomic") {
		t.Fatalf("atomic view: %v", err)
	}
	rel, _ := kokkos.NewView1[int32]("gone", 4)
	_ = rel.Release()
	if _, err := FromView1(rel); !errors.Is(err, kokkos.ErrReleased) {
		t.Fatalf("released view: %v", err)
	}
	// Read-only, unmanaged and zero views are shared.
	src, _ := kokkos.NewView1[uint16]("src", 5)
	src.Set(1, 7)
	ro := src.ReadOnly()
	arr, err := FromView1(ro)
	if err != nil || arr.(*array.Uint16).Value(1) != 7 {
		t.Fatalf("read-only view: %v", err)
	}
	arr.Release()
	wrapped, _ := kokkos.WrapView1([]int8{1, 2, 3}, 3)
	arr, err = FromView1(wrapped)
	if err != nil || arr.(*array.Int8).Value(2) != 3 {
		t.Fatalf("unmanaged view: %v", err)
	}
	arr.Release()
	arr, err = FromView1(kokkos.View1[float32]{})
	if err != nil || arr.Len() != 0 {
		t.Fatalf("zero view: %v", err)
	}
	arr.Release()
	arr, err = FromArray(dal.Array[float32]{})
	if err != nil || arr.Len() != 0 {
		t.Fatalf("empty array: %v", err)
	}
	arr.Release()
}

// TestBufferCannotGrow: a buffer over gokkos memory refuses to reallocate.
func TestBufferCannotGrow(t *testing.T) {
	v, _ := kokkos.NewView1[float64]("v", 4)
	defer v.Release()
	buf, err := BufferFromView1(v)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Release()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, kokkos.ErrReadOnly) || !strings.Contains(err.Error(), "cannot grow") {
			t.Fatalf("Resize: %v", err)
		}
	}()
	buf.Resize(1 << 10)
}

// malformed is an Arrow array whose data Arrow would refuse to make an
// array of.
type malformed struct {
	arrow.Array
	d arrow.ArrayData
}

func (m malformed) Data() arrow.ArrayData { return m.d }
