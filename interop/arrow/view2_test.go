package arrow

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// newList returns a fixed-size-list array of n lists of k over child
// (whose length must be at least (off+n)*k), starting at list off, with
// null lists where validLists is false.
func newList(child arrow.ArrayData, k, n, off int, validLists []bool) *array.FixedSizeList {
	var bitmap *memory.Buffer
	nulls := 0
	if validLists != nil {
		bitmap = memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(int64(off+n))))
		for i, ok := range validLists {
			if ok {
				bitutil.SetBit(bitmap.Bytes(), off+i)
			} else {
				nulls++
			}
		}
	}
	d := array.NewData(arrow.FixedSizeListOf(int32(k), child.DataType()), n, []*memory.Buffer{bitmap}, []arrow.ArrayData{child}, nulls, off)
	defer d.Release()
	return array.NewFixedSizeListData(d)
}

func TestFixedSizeListEveryType(t *testing.T) {
	eachElement(t, all11(listTest[int8], listTest[int16], listTest[int32], listTest[int64],
		listTest[uint8], listTest[uint16], listTest[uint32], listTest[uint64],
		listTest[float16Num], listTest[float32], listTest[float64]))
}

// listTest: a fixed-size list, a slice of one and a list over a sliced
// child become views of the right elements, sharing memory both ways, and
// a view becomes a list of its rows.
func listTest[T Element](t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	const k = 5
	vals := randoms[T](r, 7*k+3)
	childData := newData(mem, vals, nil)
	defer childData.Release()
	// The child starts 3 values in, the list 1 list in: row i is
	// vals[3+(1+i)*k:...].
	child := array.NewSliceData(childData, 3, int64(len(vals)))
	defer child.Release()
	list := newList(child, k, 6, 1, nil)
	v, err := FixedSizeListToView2[T](list)
	if err != nil {
		t.Fatal(err)
	}
	if v.Extent(0) != 6 || v.Extent(1) != k || v.Layout() != kokkos.LayoutRight || !v.IsReadOnly() {
		t.Fatalf("extents %d %d layout %v read-only %v", v.Extent(0), v.Extent(1), v.Layout(), v.IsReadOnly())
	}
	for i := range 6 {
		for j := range k {
			if want := vals[3+(1+i)*k+j]; v.At(i, j) != want {
				t.Fatalf("(%d,%d) = %v, want %v", i, j, v.At(i, j), want)
			}
		}
	}
	w, err := FixedSizeListToView2[T](list, Writable())
	if err != nil {
		t.Fatal(err)
	}
	x := rnd[T](r)
	w.Set(2, 3, x)
	values := list.ListValues().(valuer[T])
	if v.At(2, 3) != x || values.Value((1+2)*k+3) != x {
		t.Fatalf("after a view write: other view %v, Arrow %v, want %v", v.At(2, 3), values.Value((1+2)*k+3), x)
	}
	// A slice of the list.
	s := array.NewSlice(list, 2, 5).(*array.FixedSizeList)
	sv, err := FixedSizeListToView2[T](s)
	if err != nil {
		t.Fatal(err)
	}
	s.Release()
	if sv.Extent(0) != 3 || sv.At(0, 3) != w.At(2, 3) || sv.At(2, 4) != w.At(4, 4) {
		t.Fatalf("slice: extent %d, (0,3) = %v want %v", sv.Extent(0), sv.At(0, 3), w.At(2, 3))
	}
	list.Release()
	// Back to Arrow, from a view over Arrow memory and from a new view.
	back, err := FixedSizeListFromView2(w)
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != 6 || back.DataType().(*arrow.FixedSizeListType).Len() != k {
		t.Fatalf("list of %d lists of %d", back.Len(), back.DataType().(*arrow.FixedSizeListType).Len())
	}
	bv := back.ListValues().(valuer[T])
	for i := range 6 {
		for j := range k {
			if bv.Value(i*k+j) != w.At(i, j) {
				t.Fatalf("list [%d][%d] = %v, view %v", i, j, bv.Value(i*k+j), w.At(i, j))
			}
		}
	}
	back.Release()
	n, _ := kokkos.NewView2[T]("n", 4, 3)
	for i := range 4 {
		for j := range 3 {
			n.Set(i, j, rnd[T](r))
		}
	}
	nl, err := FixedSizeListFromView2(n)
	if err != nil {
		t.Fatal(err)
	}
	y := rnd[T](r)
	n.Set(3, 2, y)
	if nl.ListValues().(valuer[T]).Value(11) != y || n.UseCount() != 2 {
		t.Fatalf("after a view write, list [3][2] = %v, want %v; holders %d", nl.ListValues().(valuer[T]).Value(11), y, n.UseCount())
	}
	nl.Release()
	if err := errors.Join(v.Release(), w.Release(), sv.Release(), n.Release()); err != nil {
		t.Fatal(err)
	}
	if n.UseCount() != 0 {
		t.Fatalf("holders %d after every release", n.UseCount())
	}
}

// TestFixedSizeListNulls: null lists and null values are refused unless
// filled.
func TestFixedSizeListNulls(t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	vals := randoms[float32](r, 12)
	valid := make([]bool, 12)
	for i := range valid {
		valid[i] = i != 7
	}
	childData := newData(mem, vals, valid)
	defer childData.Release()
	list := newList(childData, 3, 4, 0, []bool{true, true, true, false})
	defer list.Release()
	_, err := FixedSizeListToView2[float32](list)
	if !errors.Is(err, ErrNulls) || !strings.Contains(err.Error(), "1 null lists and 1 null values") {
		t.Fatalf("nulls: %v", err)
	}
	v, err := FixedSizeListToView2[float32](list, FillNulls[float32](-1))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	for i := range 4 {
		for j := range 3 {
			want := vals[i*3+j]
			if i == 3 || i*3+j == 7 {
				want = -1
			}
			if v.At(i, j) != want {
				t.Fatalf("(%d,%d) = %v, want %v", i, j, v.At(i, j), want)
			}
		}
	}
	if _, err := FixedSizeListToView2[float32](list, FillNulls(1.0)); !errors.Is(err, ErrType) {
		t.Fatalf("FillNulls of float64: %v", err)
	}
	// The first two lists have no null: shared.
	s := array.NewSlice(list, 0, 2).(*array.FixedSizeList)
	defer s.Release()
	w, err := FixedSizeListToView2[float32](s, Writable())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	if &w.Data()[0] != &list.ListValues().(*array.Float32).Values()[0] {
		t.Fatal("lists without nulls were copied")
	}
}

func TestFixedSizeListErrors(t *testing.T) {
	mem := checkedAlloc(t)
	child := newData(mem, []int16{1, 2, 3, 4, 5, 6}, nil)
	defer child.Release()
	list := newList(child, 2, 3, 0, nil)
	defer list.Release()
	if _, err := FixedSizeListToView2[int32](list); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "int16") {
		t.Fatalf("int16 lists as int32: %v", err)
	}
	// Lists past the end of their values.
	long := newList(child, 4, 2, 0, nil)
	defer long.Release()
	if _, err := FixedSizeListToView2[int16](long); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "malformed") {
		t.Fatalf("lists past their values: %v", err)
	}
	if _, err := FixedSizeListToView2[int16](nil); !errors.Is(err, ErrType) {
		t.Fatalf("nil list: %v", err)
	}
	// No rows is a list array of length 0; no columns, no list type.
	rows0, _ := kokkos.NewView2[int16]("rows0", 0, 3)
	l0, err := FixedSizeListFromView2(rows0)
	if err != nil || l0.Len() != 0 {
		t.Fatalf("no rows: %v", err)
	}
	z, err := FixedSizeListToView2[int16](l0)
	if err != nil || z.Extent(0) != 0 || z.Extent(1) != 3 {
		t.Fatalf("no lists: %v", err)
	}
	l0.Release()
	_ = z.Release()
	cols0, _ := kokkos.NewView2[int16]("cols0", 3, 0)
	if _, err := FixedSizeListFromView2(cols0); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "0 columns") {
		t.Fatalf("no columns: %v", err)
	}

	padded, _ := kokkos.NewView2[float64]("padded", 3, 4, kokkos.WithStrides(6, 1))
	if _, err := FixedSizeListFromView2(padded); !errors.Is(err, kokkos.ErrLayout) || !strings.Contains(err.Error(), "TensorFromView2") {
		t.Fatalf("padded view: %v", err)
	}
	left, _ := kokkos.NewView2[float64]("left", 3, 4, kokkos.LayoutLeft)
	if _, err := FixedSizeListFromView2(left); !errors.Is(err, kokkos.ErrLayout) {
		t.Fatalf("LayoutLeft view: %v", err)
	}
	// A LayoutLeft column is also row-major.
	col, _ := kokkos.NewView2[float64]("col", 3, 1, kokkos.LayoutLeft)
	col.Set(2, 0, 7)
	l, err := FixedSizeListFromView2(col)
	if err != nil || l.ListValues().(*array.Float64).Value(2) != 7 {
		t.Fatalf("LayoutLeft column: %v", err)
	}
	l.Release()
	dev, _ := kokkos.NewView2[float64]("dev", 3, 4, kokkos.InSpace(backendtest.FakeDevice(false)))
	if _, err := FixedSizeListFromView2(dev); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device view: %v", err)
	}
	if _, err := TensorFromView2(dev); !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), "CreateMirrorViewAndCopy") {
		t.Fatalf("device view as a tensor: %v", err)
	}
	_ = dev.Release()
	at, _ := kokkos.NewView2[int64]("atomic", 2, 2, kokkos.WithTraits(kokkos.Atomic))
	if _, err := TensorFromView2(at); !errors.Is(err, kokkos.ErrElementType) {
		t.Fatalf("atomic view: %v", err)
	}
	zt, err := TensorFromView2(kokkos.View2[int8]{})
	if err != nil || zt.Len() != 0 {
		t.Fatalf("zero view: %v", err)
	}
	zt.Release()
}

// tensorValuer is what every Arrow numeric tensor offers.
type tensorValuer[T Element] interface {
	tensor.Interface
	Value([]int64) T
}

func TestTensorEveryType(t *testing.T) {
	eachElement(t, all11(tensorTest[int8], tensorTest[int16], tensorTest[int32], tensorTest[int64],
		tensorTest[uint8], tensorTest[uint16], tensorTest[uint32], tensorTest[uint64],
		tensorFloat16Test, tensorTest[float32], tensorTest[float64]))
}

// tensorTest: tensors of each kind of strides become views of the right
// layout reading Arrow's own Value, and views of each layout become
// tensors.
func tensorTest[T Element](t *testing.T) {
	r := newRand(t)
	mem := checkedAlloc(t)
	size := int64(sizeOf[T]())
	vals := randoms[T](r, 80)
	data := newData(mem, vals, nil)
	defer data.Release()
	for _, c := range []struct {
		name    string
		shape   []int64
		strides []int64 // in elements
		off     int64
		layout  kokkos.Layout
	}{
		{"row-major", []int64{4, 5}, []int64{5, 1}, 0, kokkos.LayoutRight},
		{"row-major at an offset", []int64{4, 5}, []int64{5, 1}, 7, kokkos.LayoutRight},
		{"col-major", []int64{4, 5}, []int64{1, 4}, 3, kokkos.LayoutLeft},
		{"padded rows", []int64{4, 5}, []int64{8, 1}, 0, kokkos.LayoutRight},
		{"padded columns", []int64{4, 5}, []int64{1, 6}, 2, kokkos.LayoutLeft},
		{"transposed and strided", []int64{5, 3}, []int64{2, 20}, 1, kokkos.LayoutStride},
		{"empty", []int64{0, 5}, []int64{5, 1}, 0, kokkos.LayoutRight},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := array.NewSliceData(data, c.off, int64(len(vals)))
			defer d.Release()
			tsr := tensor.New(d, c.shape, []int64{c.strides[0] * size, c.strides[1] * size}, nil).(tensorValuer[T])
			defer tsr.Release()
			v, err := TensorToView2[T](tsr)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Release()
			if v.Layout() != c.layout || v.Extent(0) != int(c.shape[0]) || v.Extent(1) != int(c.shape[1]) || !v.IsReadOnly() {
				t.Fatalf("layout %v extents %d %d read-only %v", v.Layout(), v.Extent(0), v.Extent(1), v.IsReadOnly())
			}
			for i := range c.shape[0] {
				for j := range c.shape[1] {
					if got, want := v.At(int(i), int(j)), tsr.Value([]int64{i, j}); got != want {
						t.Fatalf("(%d,%d) = %v, tensor %v", i, j, got, want)
					}
				}
			}
			if c.shape[0] == 0 {
				return
			}
			w, err := TensorToView2[T](tsr, Writable())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release()
			x := rnd[T](r)
			w.Set(3, 2, x)
			if tsr.Value([]int64{3, 2}) != x || v.At(3, 2) != x {
				t.Fatalf("after a view write, tensor %v, want %v", tsr.Value([]int64{3, 2}), x)
			}
			// And back: the same strides, the same values, shared.
			back, err := TensorFromView2(w)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Release()
			bt := back.(tensorValuer[T])
			if !slices.Equal(back.Shape(), c.shape) || !slices.Equal(back.Strides(), tsr.Strides()) {
				t.Fatalf("back: shape %v strides %v, want %v %v", back.Shape(), back.Strides(), c.shape, tsr.Strides())
			}
			if bt.Value([]int64{3, 2}) != x || bt.Value([]int64{1, 1}) != v.At(1, 1) {
				t.Fatalf("back: (3,2) = %v want %v", bt.Value([]int64{3, 2}), x)
			}
		})
	}
	// Views of each layout as tensors.
	for _, opts := range [][]kokkos.Option{nil, {kokkos.LayoutLeft}, {kokkos.WithStrides(9, 1)}, {kokkos.WithStrides(1, 7)}} {
		m, err := kokkos.NewView2[T]("m", 6, 5, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			for j := range 5 {
				m.Set(i, j, rnd[T](r))
			}
		}
		sub := m.Subview2(kokkos.Pair(1, 6), kokkos.Pair(1, 4))
		for _, u := range []kokkos.View2[T]{m, sub} {
			tsr, err := TensorFromView2(u)
			if err != nil {
				t.Fatal(err)
			}
			tv := tsr.(tensorValuer[T])
			if tsr.Strides()[0] != int64(u.Stride(0))*size || tsr.Strides()[1] != int64(u.Stride(1))*size {
				t.Fatalf("%v: strides %v, view %d %d", u.Layout(), tsr.Strides(), u.Stride(0), u.Stride(1))
			}
			if u.Layout() == kokkos.LayoutRight && u.SpanIsContiguous() && !tsr.IsRowMajor() || u.Layout() == kokkos.LayoutLeft && u.SpanIsContiguous() && !tsr.IsColMajor() {
				t.Fatalf("%v view: row-major %v col-major %v", u.Layout(), tsr.IsRowMajor(), tsr.IsColMajor())
			}
			for i := range u.Extent(0) {
				for j := range u.Extent(1) {
					if tv.Value([]int64{int64(i), int64(j)}) != u.At(i, j) {
						t.Fatalf("%v: tensor (%d,%d) = %v, view %v", u.Layout(), i, j, tv.Value([]int64{int64(i), int64(j)}), u.At(i, j))
					}
				}
			}
			y := rnd[T](r)
			u.Set(1, 2, y)
			if tv.Value([]int64{1, 2}) != y {
				t.Fatalf("after a view write, tensor (1,2) = %v, want %v", tv.Value([]int64{1, 2}), y)
			}
			tsr.Release()
		}
		if m.UseCount() != 1 {
			t.Fatalf("holders %d after the tensors' release", m.UseCount())
		}
		_ = m.Release()
	}
}

// tensorFloat16Test: arrow/tensor has no half floats; the error says so.
func tensorFloat16Test(t *testing.T) {
	v, _ := kokkos.NewView2[float16.Num]("h", 2, 2)
	if _, err := TensorFromView2(v); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "half floats") {
		t.Fatalf("float16 tensor: %v", err)
	}
}

func TestTensorErrors(t *testing.T) {
	mem := checkedAlloc(t)
	data := newData(mem, randoms[float64](newRand(t), 24), nil)
	defer data.Release()
	for _, c := range []struct {
		name    string
		shape   []int64
		strides []int64 // bytes
		kind    error
		text    string
	}{
		{"three dimensions", []int64{2, 3, 4}, nil, kokkos.ErrShape, "3 dimensions"},
		{"one dimension", []int64{24}, nil, kokkos.ErrShape, "1 dimensions"},
		{"negative stride", []int64{2, 3}, []int64{-24, 8}, kokkos.ErrLayout, "non-negative multiple of 8"},
		{"stride inside an element", []int64{2, 3}, []int64{20, 4}, kokkos.ErrLayout, "multiple of 8"},
		{"broadcast", []int64{4, 3}, []int64{0, 8}, kokkos.ErrLayout, ""},
		{"beyond the data", []int64{5, 6}, []int64{48, 8}, kokkos.ErrShape, "spanning 30 values, over 24"},
	} {
		tsr := tensor.New(data, c.shape, c.strides, nil)
		_, err := TensorToView2[float64](tsr)
		tsr.Release()
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v", c.name, err, c.kind)
		}
	}
	tsr := tensor.New(data, []int64{4, 6}, nil, nil)
	defer tsr.Release()
	if _, err := TensorToView2[float32](tsr); !errors.Is(err, ErrType) || !strings.Contains(err.Error(), "TensorToView2[float32]") {
		t.Errorf("float64 tensor as float32: %v", err)
	}
	if _, err := TensorToView2[float32](nil); !errors.Is(err, ErrType) {
		t.Errorf("nil tensor: %v", err)
	}
	if _, err := TensorToView2[float64](tsr, FillNulls(int64(0))); !errors.Is(err, ErrType) {
		t.Errorf("FillNulls of int64: %v", err)
	}
}

// TestTensorNulls: a tensor over data with nulls is refused unless filled.
func TestTensorNulls(t *testing.T) {
	mem := checkedAlloc(t)
	vals := randoms[int32](newRand(t), 12)
	valid := make([]bool, 12)
	for i := range valid {
		valid[i] = i != 5
	}
	data := newData(mem, vals, valid)
	defer data.Release()
	tsr := tensor.New(data, []int64{3, 4}, []int64{4, 12}, nil) // column-major
	defer tsr.Release()
	if _, err := TensorToView2[int32](tsr); !errors.Is(err, ErrNulls) {
		t.Fatalf("nulls: %v", err)
	}
	v, err := TensorToView2[int32](tsr, FillNulls[int32](-7))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	if v.Layout() != kokkos.LayoutLeft {
		t.Fatalf("filled copy of a column-major tensor is %v", v.Layout())
	}
	for i := range 3 {
		for j := range 4 {
			want := vals[i+3*j]
			if i+3*j == 5 {
				want = -7
			}
			if v.At(i, j) != want {
				t.Fatalf("(%d,%d) = %v, want %v", i, j, v.At(i, j), want)
			}
		}
	}
}
