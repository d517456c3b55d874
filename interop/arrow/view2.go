package arrow

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"

	"github.com/gokkos/kokkos"
)

// FixedSizeListToView2 returns an n×k LayoutRight host view of arr, an
// Arrow fixed-size-list array of n lists of k values of T's type, without
// copying: row i is list i, a slice of the list array (offset ≠ 0) or of
// its values included. The view retains the values' buffer, as ToView1
// does, and is read-only unless opts has Writable.
//
// It returns an error wrapping ErrType when the values are not of T's
// type, ErrNulls when a list or a value in them is null and opts has no
// FillNulls (with FillNulls the view is a copy, x filling null lists and
// null values), and the other errors of ToView1.
func FixedSizeListToView2[T Element](arr *array.FixedSizeList, opts ...Option) (kokkos.View2[T], error) {
	const op = "FixedSizeListToView2"
	c, err := makeConfig(op, typeName[T](), opts)
	if err != nil {
		return kokkos.View2[T]{}, err
	}
	if arr == nil {
		return kokkos.View2[T]{}, errorf(ErrType, "arrow: %s[%s] of a nil fixed-size-list array", op, typeName[T]())
	}
	k := int(arr.DataType().(*arrow.FixedSizeListType).Len())
	d := arr.Data()
	child := arr.ListValues().Data()
	buf, all, err := primitive[T](op, child)
	if err != nil {
		return kokkos.View2[T]{}, err
	}
	n := d.Len()
	first := child.Offset() + d.Offset()*k // the first value of list 0
	if first+n*k > child.Offset()+child.Len() {
		return kokkos.View2[T]{}, errorf(kokkos.ErrShape, "arrow: %s[%s] of %d lists of %d at offset %d over %d values: the data is malformed", op, typeName[T](), n, k, d.Offset(), child.Len())
	}
	nullLists, nullValues := nullsIn(d, d.Offset(), n), nullsIn(child, first, n*k)
	x, fill, err := fillValue[T](op, c)
	switch {
	case err != nil:
		return kokkos.View2[T]{}, err
	case nullLists+nullValues > 0 && !fill:
		return kokkos.View2[T]{}, errorf(ErrNulls, "arrow: %s[%s] of %d lists of %d with %d null lists and %d null values: pass FillNulls(x) for a copy with x in the null slots", op, typeName[T](), n, k, nullLists, nullValues)
	case nullLists+nullValues > 0:
		v, err := kokkos.NewView2[T](c.label, n, k)
		if err != nil {
			return kokkos.View2[T]{}, err
		}
		lists, values := validity(d), validity(child)
		for i := range n {
			row := v.Row(i)
			for j := range row {
				if s := first + i*k + j; valid(lists, d.Offset()+i) && valid(values, s) {
					row[j] = all[s]
				} else {
					row[j] = x
				}
			}
		}
		return v, nil
	}
	return wrap2(op, buf, all, first, kokkos.LayoutRight, [2]int{n, k}, [2]int{k, 1}, c)
}

// FixedSizeListFromView2 returns a fixed-size-list array of v.Extent(0)
// lists of v.Extent(1) values of T's type, whose values are v's elements,
// without copying. v must be row-major without padding (LayoutRight, or
// any layout whose strides are those); the array takes a holder of v's
// allocation, given back by its last Release.
//
// It returns an error wrapping kokkos.ErrLayout for any other strides
// (TensorFromView2 takes them all, or DeepCopy v into a LayoutRight view
// first), kokkos.ErrShape for a view of no columns (Arrow's lists hold at
// least one value), and the errors of FromView1.
func FixedSizeListFromView2[T Element](v kokkos.View2[T]) (*array.FixedSizeList, error) {
	const op = "FixedSizeListFromView2"
	n, k := v.Extent(0), v.Extent(1)
	if k < 1 || int64(k) > int64(int32(^uint32(0)>>1)) {
		return nil, errorf(kokkos.ErrShape, "arrow: %s[%s] of view %q with %d columns: an Arrow fixed-size list holds from 1 to 2^31-1 values", op, typeName[T](), v.Label(), k)
	}
	if (k > 1 && v.Stride(1) != 1) || (n > 1 && v.Stride(0) != k) {
		return nil, errorf(kokkos.ErrLayout, "arrow: %s[%s] of view %q with extents (%d, %d) and strides (%d, %d): a fixed-size list needs rows of %d contiguous values one after the other, strides (%d, 1); DeepCopy it into a LayoutRight view without padding, or use TensorFromView2",
			op, typeName[T](), v.Label(), n, k, v.Stride(0), v.Stride(1), k, k)
	}
	buf, err := bufferFromView2(op, &v)
	if err != nil {
		return nil, err
	}
	values := array.NewData(DataType[T](), n*k, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer values.Release()
	d := array.NewData(arrow.FixedSizeListOf(int32(k), DataType[T]()), n, []*memory.Buffer{nil}, []arrow.ArrayData{values}, 0, 0)
	defer d.Release()
	return array.NewFixedSizeListData(d), nil
}

// TensorToView2 returns a host view of t, a 2-dimensional Arrow tensor of
// T's type, without copying: LayoutRight for a row-major tensor (padded
// rows included), LayoutLeft for a column-major one, LayoutStride for
// other strides. The view retains the tensor's values buffer, as ToView1
// does, and is read-only unless opts has Writable.
//
// It returns an error wrapping kokkos.ErrShape when t does not have 2
// dimensions, kokkos.ErrLayout for strides that are negative, not a
// multiple of the element size, or give two elements one address (a
// broadcast), ErrType when t is not of T's type, and the other errors of
// ToView1 (nulls in the tensor's data included).
func TensorToView2[T Element](t tensor.Interface, opts ...Option) (kokkos.View2[T], error) {
	const op = "TensorToView2"
	c, err := makeConfig(op, typeName[T](), opts)
	if err != nil {
		return kokkos.View2[T]{}, err
	}
	if t == nil {
		return kokkos.View2[T]{}, errorf(ErrType, "arrow: %s[%s] of a nil tensor", op, typeName[T]())
	}
	if t.NumDims() != 2 {
		return kokkos.View2[T]{}, errorf(kokkos.ErrShape, "arrow: %s[%s] of a tensor of %d dimensions (shape %v): a View2 needs 2", op, typeName[T](), t.NumDims(), t.Shape())
	}
	if err := checkType[T](op, t.DataType()); err != nil {
		return kokkos.View2[T]{}, err
	}
	d := t.Data()
	buf, all, err := primitive[T](op, d)
	if err != nil {
		return kokkos.View2[T]{}, err
	}
	size := int64(sizeOf[T]())
	var ext, str [2]int
	for r := range 2 {
		e, s := t.Shape()[r], t.Strides()[r]
		if s < 0 || s%size != 0 {
			return kokkos.View2[T]{}, errorf(kokkos.ErrLayout, "arrow: %s[%s] of a tensor with strides %v bytes: each must be a non-negative multiple of %d bytes; copy it into a contiguous tensor first", op, typeName[T](), t.Strides(), size)
		}
		ext[r], str[r] = int(e), int(s/size)
	}
	l := tensorLayout(t, ext, str)
	span := 0
	if ext[0] > 0 && ext[1] > 0 {
		span = (ext[0]-1)*str[0] + (ext[1]-1)*str[1] + 1
	}
	off := d.Offset()
	if span > d.Len() {
		return kokkos.View2[T]{}, errorf(kokkos.ErrShape, "arrow: %s[%s] of a tensor of shape %v and strides %v bytes spanning %d values, over %d values", op, typeName[T](), t.Shape(), t.Strides(), span, d.Len())
	}
	if nulls := nullsIn(d, off, span); nulls > 0 {
		x, ok, err := fillValue[T](op, c)
		if err != nil {
			return kokkos.View2[T]{}, err
		}
		if !ok {
			return kokkos.View2[T]{}, errorf(ErrNulls, "arrow: %s[%s] of a tensor whose data has %d nulls: pass FillNulls(x) for a copy with x in the null slots", op, typeName[T](), nulls)
		}
		layout := l
		if l == kokkos.LayoutStride {
			layout = kokkos.LayoutRight
		}
		v, err := kokkos.NewView2[T](c.label, ext[0], ext[1], layout)
		if err != nil {
			return kokkos.View2[T]{}, err
		}
		bitmap := validity(d)
		for i := range ext[0] {
			for j := range ext[1] {
				s := off + i*str[0] + j*str[1]
				if valid(bitmap, s) {
					v.Set(i, j, all[s])
				} else {
					v.Set(i, j, x)
				}
			}
		}
		return v, nil
	}
	if _, _, err := fillValue[T](op, c); err != nil {
		return kokkos.View2[T]{}, err
	}
	return wrap2(op, buf, all, off, l, ext, str, c)
}

// tensorLayout returns the layout of a view with t's extents and strides
// (in elements): LayoutRight for row-major strides, padded or not,
// LayoutLeft for column-major ones, LayoutStride otherwise.
func tensorLayout(t tensor.Interface, ext, str [2]int) kokkos.Layout {
	right := (ext[1] <= 1 || str[1] == 1) && (ext[0] <= 1 || str[0] >= max(ext[1], 1))
	left := (ext[0] <= 1 || str[0] == 1) && (ext[1] <= 1 || str[1] >= max(ext[0], 1))
	switch {
	case t.IsRowMajor() || right && !t.IsColMajor():
		return kokkos.LayoutRight
	case left:
		return kokkos.LayoutLeft
	}
	return kokkos.LayoutStride
}

// TensorFromView2 returns a 2-dimensional Arrow tensor of T's type whose
// values are v's elements, without copying: the tensor's strides are v's,
// in bytes, so a LayoutRight view gives a row-major tensor, a LayoutLeft
// view a column-major one, and padded or strided views the strides they
// have. The tensor's data is v's span. The tensor takes a holder of v's
// allocation, given back by its last Release.
//
// It returns an error wrapping ErrType for float16.Num (arrow/tensor has
// no half-float tensor), and the errors of FromView1 (except the layout,
// since a tensor takes any strides).
func TensorFromView2[T Element](v kokkos.View2[T]) (tensor.Interface, error) {
	const op = "TensorFromView2"
	if DataType[T]().ID() == arrow.FLOAT16 {
		return nil, errorf(ErrType, "arrow: %s[%s]: Arrow has no tensor of half floats; convert the elements to float32 first", op, typeName[T]())
	}
	buf, err := bufferFromView2(op, &v)
	if err != nil {
		return nil, err
	}
	size := int64(sizeOf[T]())
	shape := []int64{int64(v.Extent(0)), int64(v.Extent(1))}
	strides := []int64{int64(v.Stride(0)) * size, int64(v.Stride(1)) * size}
	d := array.NewData(DataType[T](), buf.Len()/int(size), []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer d.Release()
	return tensor.New(d, shape, strides, nil), nil
}

// wrap2 is wrap1 for a view of layout l, extents ext and strides str whose
// first element is all[off].
func wrap2[T Element](op string, buf *memory.Buffer, all []T, off int, l kokkos.Layout, ext, str [2]int, c config) (kokkos.View2[T], error) {
	span := 0
	if ext[0] > 0 && ext[1] > 0 {
		span = (ext[0]-1)*str[0] + (ext[1]-1)*str[1] + 1
	}
	rec, err := own(op, buf, len(all)*sizeOf[T](), c)
	if err != nil {
		return kokkos.View2[T]{}, err
	}
	v, err := kokkos.ViewOnAllocation2(rec, off, kokkos.LayoutSpec{Layout: l, Extents: ext[:], Strides: str[:]}, all[off:off+span:off+span])
	if err = errors.Join(err, rec.Release()); err != nil {
		return kokkos.View2[T]{}, fmt.Errorf("arrow: %s[%s]: %w", op, typeName[T](), err)
	}
	if !c.writable {
		v = v.ReadOnly()
	}
	return v, nil
}

// bufferFromView2 returns a buffer over v's span that owns a new holder of
// v's allocation.
func bufferFromView2[T Element](op string, v *kokkos.View2[T]) (*memory.Buffer, error) {
	if err := checkView(op, typeName[T](), v.Allocation(), v.Label(), v.Space(), v.Traits()); err != nil {
		return nil, err
	}
	rec, data := v.Allocation(), []T{}
	if v.Span() > 0 {
		data = kokkos.ReadOnlyData[T](v)
	}
	rec.Retain() // nothing for the zero view's nil allocation
	return bufferOver(data, rec.Release), nil
}
