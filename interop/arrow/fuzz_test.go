package arrow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"

	"github.com/gokkos/kokkos"
)

// FuzzTensorToView2: a tensor of any shape, strides and offset becomes a
// view reading what Arrow's Value reads, and back a tensor of the same
// strides, exactly when its strides are non-negative whole elements that
// give each element its own address within the data; otherwise the error
// has the documented kind.
func FuzzTensorToView2(f *testing.F) {
	f.Add(uint8(4), uint8(5), int8(5), int8(1), uint8(0), false)
	f.Add(uint8(4), uint8(5), int8(1), int8(4), uint8(3), false)
	f.Add(uint8(3), uint8(3), int8(0), int8(1), uint8(1), false)
	f.Add(uint8(3), uint8(7), int8(-7), int8(1), uint8(0), false)
	f.Add(uint8(2), uint8(2), int8(3), int8(1), uint8(0), true)
	f.Add(uint8(6), uint8(2), int8(2), int8(40), uint8(9), false)
	f.Fuzz(func(t *testing.T, n0, n1 uint8, s0, s1 int8, off uint8, odd bool) {
		const size = 8
		ext := [2]int{int(n0 % 9), int(n1 % 9)}
		str := [2]int{int(s0), int(s1)}
		vals := randoms[float64](newRand(t), 120)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		data := newData(mem, vals, nil)
		defer data.Release()
		d := array.NewSliceData(data, int64(off%20), 120)
		defer d.Release()
		bytes := []int64{int64(str[0] * size), int64(str[1] * size)}
		if odd {
			bytes[1] += 4
		}
		tsr := tensor.New(d, []int64{int64(ext[0]), int64(ext[1])}, bytes, nil).(*tensor.Float64)
		defer tsr.Release()
		v, err := TensorToView2[float64](tsr)

		// The reference: which tensors a view can describe.
		negative := str[0] < 0 || str[1] < 0
		seen := map[int]bool{}
		unique, span := true, 0
		for i := range ext[0] {
			for j := range ext[1] {
				o := i*str[0] + j*str[1]
				unique = unique && !seen[o]
				seen[o] = true
				span = max(span, o+1)
			}
		}
		switch {
		case !unique && span > d.Len():
			// Both wrong: either error will do.
			if !errors.Is(err, kokkos.ErrLayout) && !errors.Is(err, kokkos.ErrShape) {
				t.Fatalf("extents %v strides %v: %v, want ErrLayout or ErrShape", ext, str, err)
			}
			return
		case odd || negative || !unique:
			if !errors.Is(err, kokkos.ErrLayout) {
				t.Fatalf("extents %v strides %v odd %v: %v, want ErrLayout", ext, str, odd, err)
			}
			return
		case span > d.Len():
			if !errors.Is(err, kokkos.ErrShape) {
				t.Fatalf("extents %v strides %v spanning %d of %d: %v, want ErrShape", ext, str, span, d.Len(), err)
			}
			return
		case err != nil:
			t.Fatalf("extents %v strides %v: %v", ext, str, err)
		}
		defer v.Release()
		for i := range ext[0] {
			for j := range ext[1] {
				if got, want := v.At(i, j), tsr.Value([]int64{int64(i), int64(j)}); got != want {
					t.Fatalf("extents %v strides %v: (%d,%d) = %v, tensor %v", ext, str, i, j, got, want)
				}
			}
		}
		back, err := TensorFromView2(v)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Release()
		b := back.(*tensor.Float64)
		for i := range ext[0] {
			for j := range ext[1] {
				if got, want := b.Value([]int64{int64(i), int64(j)}), v.At(i, j); got != want {
					t.Fatalf("back: (%d,%d) = %v, view %v", i, j, got, want)
				}
			}
		}
	})
}

// FuzzFixedSizeList: a fixed-size list of any length, list size, offsets
// and nulls becomes the view a naive loop over its lists reads, or is
// refused for its nulls; a view of it becomes the same list again.
func FuzzFixedSizeList(f *testing.F) {
	f.Add(uint8(4), uint8(3), uint8(1), uint8(2), uint16(0), uint16(0))
	f.Add(uint8(0), uint8(1), uint8(0), uint8(0), uint16(0), uint16(0))
	f.Add(uint8(5), uint8(2), uint8(3), uint8(1), uint16(4), uint16(0))
	f.Add(uint8(5), uint8(2), uint8(0), uint8(0), uint16(0), uint16(8))
	f.Fuzz(func(t *testing.T, n, k, listOff, childOff uint8, nullLists, nullValues uint16) {
		rows, cols, lo, co := int(n%9), int(k%6)+1, int(listOff%4), int(childOff%5)
		total := co + (lo+rows)*cols
		vals := randoms[int16](newRand(t), total)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		validValues := make([]bool, total)
		for i := range validValues {
			validValues[i] = nullValues&(1<<(i%16)) == 0 || i%3 != 0
		}
		data := newData(mem, vals, validValues)
		defer data.Release()
		child := array.NewSliceData(data, int64(co), int64(total))
		defer child.Release()
		validLists := make([]bool, rows)
		for i := range validLists {
			validLists[i] = nullLists&(1<<i) == 0
		}
		list := newList(child, cols, rows, lo, validLists)
		defer list.Release()
		v, err := FixedSizeListToView2[int16](list)
		hasNull := false
		for i := range rows {
			for j := range cols {
				hasNull = hasNull || !validLists[i] || !validValues[co+(lo+i)*cols+j]
			}
		}
		if hasNull {
			if !errors.Is(err, ErrNulls) {
				t.Fatalf("nulls: %v", err)
			}
			if v, err = FixedSizeListToView2[int16](list, FillNulls[int16](-1)); err != nil {
				t.Fatal(err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		defer v.Release()
		if v.Extent(0) != rows || v.Extent(1) != cols {
			t.Fatalf("extents %d %d, want %d %d", v.Extent(0), v.Extent(1), rows, cols)
		}
		for i := range rows {
			for j := range cols {
				s := co + (lo+i)*cols + j
				want := vals[s]
				if !validLists[i] || !validValues[s] {
					want = -1
				}
				if v.At(i, j) != want {
					t.Fatalf("(%d,%d) = %v, want %v", i, j, v.At(i, j), want)
				}
			}
		}
		back, err := FixedSizeListFromView2(v)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Release()
		bv := back.ListValues().(*array.Int16)
		for i := range rows {
			for j := range cols {
				if bv.Value(i*cols+j) != v.At(i, j) {
					t.Fatalf("back [%d][%d] = %v, view %v", i, j, bv.Value(i*cols+j), v.At(i, j))
				}
			}
		}
	})
}

// FuzzToView1Slice: any slice of an array with any nulls becomes the view
// of exactly its elements when it holds no null, is refused when it holds
// one, and is filled on request; the view exported back reads the same.
func FuzzToView1Slice(f *testing.F) {
	f.Add(uint8(40), uint8(3), uint8(20), uint64(0))
	f.Add(uint8(40), uint8(0), uint8(40), uint64(1<<5))
	f.Add(uint8(9), uint8(9), uint8(9), uint64(1))
	f.Fuzz(func(t *testing.T, n, lo, hi uint8, nulls uint64) {
		length := int(n%64) + 1
		i, j := int(lo)%(length+1), int(hi)%(length+1)
		if i > j {
			i, j = j, i
		}
		vals := randoms[uint32](newRand(t), length)
		var valid []bool
		if nulls != 0 {
			valid = make([]bool, length)
			for k := range valid {
				valid[k] = nulls&(1<<(k%64)) == 0
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		arr := newArray(mem, vals, valid)
		defer arr.Release()
		s := array.NewSlice(arr, int64(i), int64(j))
		defer s.Release()
		hasNull := false
		for k := i; k < j; k++ {
			hasNull = hasNull || valid != nil && !valid[k]
		}
		v, err := ToView1[uint32](s)
		if hasNull {
			if !errors.Is(err, ErrNulls) {
				t.Fatalf("[%d:%d] with nulls: %v", i, j, err)
			}
			if v, err = ToView1[uint32](s, FillNulls[uint32](7)); err != nil {
				t.Fatal(err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		defer v.Release()
		if v.Extent(0) != j-i {
			t.Fatalf("[%d:%d]: extent %d", i, j, v.Extent(0))
		}
		for k := range j - i {
			want := vals[i+k]
			if valid != nil && !valid[i+k] {
				want = 7
			}
			if v.At(k) != want {
				t.Fatalf("[%d:%d]: (%d) = %v, want %v", i, j, k, v.At(k), want)
			}
		}
		back, err := FromView1(v)
		if err != nil {
			t.Fatal(err)
		}
		defer back.Release()
		for k := range j - i {
			if back.(*array.Uint32).Value(k) != v.At(k) {
				t.Fatalf("back [%d] = %v, view %v", k, back.(*array.Uint32).Value(k), v.At(k))
			}
		}
	})
}
