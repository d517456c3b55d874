package arrow

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/dal"
)

// countingAlloc counts the frees of a Go allocator.
type countingAlloc struct {
	memory.Allocator
	frees atomic.Int64
}

func (c *countingAlloc) Free(b []byte) {
	c.frees.Add(1)
	c.Allocator.Free(b)
}

const holders = 64

// TestConcurrentHoldersOfArrowMemory: Arrow's Retain and Release and the
// holders of views and dal arrays made from an Arrow array, from many
// goroutines, free the Arrow memory exactly once, after the last of them.
func TestConcurrentHoldersOfArrowMemory(t *testing.T) {
	r := newRand(t)
	mem := &countingAlloc{Allocator: memory.NewGoAllocator()}
	vals := randoms[float64](r, 100)
	arr := newArray(mem, vals, nil).(*array.Float64)
	keep, err := ToView1[float64](arr)
	if err != nil {
		t.Fatal(err)
	}
	var retained, done sync.WaitGroup
	retained.Add(holders)
	errs := make(chan error, 4*holders)
	for g := range holders {
		done.Go(func() {
			arr.Retain()
			retained.Done()
			v, err := ToView1[float64](arr)
			if err != nil {
				errs <- err
				return
			}
			a, err := ToArray[float64](arr)
			if err != nil {
				errs <- err
				return
			}
			s := array.NewSlice(arr, int64(g%50), int64(50+g%50))
			w, err := ToView1[float64](s)
			if err != nil {
				errs <- err
				return
			}
			s.Release()
			v.Retain()
			sub := v.Subview1(kokkos.Pair(g%100, 100))
			b := a.Share()
			back, err := FromView1(w)
			if err != nil {
				errs <- err
				return
			}
			arr.Release()
			if sub.At(0) != vals[g%100] || b.At(g%100) != vals[g%100] || w.At(0) != vals[g%50] || back.(*array.Float64).Value(0) != vals[g%50] {
				errs <- errors.New("a holder read the wrong value")
			}
			errs <- errors.Join(v.Release(), v.Release(), a.Release(), w.Release(), b.Release())
			back.Release()
		})
	}
	retained.Wait()
	arr.Release() // while the goroutines still hold the memory
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := mem.frees.Load(); n != 0 {
		t.Fatalf("the values were freed %d times while a view holds them", n)
	}
	if keep.At(99) != vals[99] {
		t.Fatal("the last holder reads the wrong value")
	}
	if err := keep.Release(); err != nil {
		t.Fatal(err)
	}
	if n := mem.frees.Load(); n != 1 {
		t.Fatalf("the values were freed %d times after the last holder, want 1", n)
	}
}

// TestConcurrentHoldersOfViewMemory: view holders, dal holds and the
// Arrow arrays and buffers made from them, retained and released from many
// goroutines, run the block's deleter exactly once, after the last of
// them.
func TestConcurrentHoldersOfViewMemory(t *testing.T) {
	r := newRand(t)
	vals := randoms[int32](r, 64)
	var deleted atomic.Int64
	a := dal.WrapMutableWithDeleter(vals, func() { deleted.Add(1) })
	v, err := a.View()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	arr, err := FromView1(v)
	if err != nil {
		t.Fatal(err)
	}
	space := backendtest.NewCheckedSpace(backendtest.FakeDevice(true))
	defer space.AssertNoLeaks(t)
	m, err := kokkos.NewView2[int32]("m", 8, 8, kokkos.InSpace(space))
	if err != nil {
		t.Fatal(err)
	}
	copy(m.Data(), vals)
	var retained, done sync.WaitGroup
	retained.Add(holders)
	errs := make(chan error, 4*holders)
	for g := range holders {
		done.Go(func() {
			w := v
			w.Retain()
			arr.Retain()
			mm := m
			mm.Retain()
			retained.Done()
			out, err1 := FromView1(w)
			buf, err2 := BufferFromView1(w)
			list, err3 := FixedSizeListFromView2(mm)
			tsr, err4 := TensorFromView2(mm)
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				errs <- err
				return
			}
			back, err1 := ToView1[int32](out)
			fromBuf, err2 := BufferToArray[int32](buf)
			rows, err3 := FixedSizeListToView2[int32](list)
			cols, err4 := TensorToView2[int32](tsr)
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				errs <- err
				return
			}
			i := g % 64
			if back.At(i) != vals[i] || fromBuf.At(i) != vals[i] || rows.At(i/8, i%8) != vals[i] || cols.At(i/8, i%8) != vals[i] {
				errs <- errors.New("a holder read the wrong value")
			}
			switch g % 3 { // vary the order of the releases
			case 0:
				out.Release()
				buf.Release()
				list.Release()
				tsr.Release()
				errs <- errors.Join(w.Release(), mm.Release(), back.Release(), fromBuf.Release(), rows.Release(), cols.Release())
			case 1:
				errs <- errors.Join(back.Release(), w.Release(), rows.Release(), mm.Release())
				out.Release()
				list.Release()
				tsr.Release()
				buf.Release()
				errs <- errors.Join(fromBuf.Release(), cols.Release())
			default:
				errs <- errors.Join(w.Release(), mm.Release(), fromBuf.Release(), cols.Release())
				buf.Release()
				tsr.Release()
				list.Release()
				errs <- errors.Join(rows.Release(), back.Release())
				out.Release()
			}
			arr.Release()
		})
	}
	retained.Wait()
	if err := errors.Join(v.Release(), m.Release()); err != nil { // while the goroutines still hold them
		t.Fatal(err)
	}
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := deleted.Load(); n != 0 || space.CurrentAlloc() != 0 {
		t.Fatalf("deleter ran %d times while the Arrow array holds the block; %d bytes of the rank-2 view left", n, space.CurrentAlloc())
	}
	if arr.Len() != 64 {
		t.Fatal("the Arrow array lost its values")
	}
	arr.Release()
	if n := deleted.Load(); n != 1 {
		t.Fatalf("deleter ran %d times after the last holder, want 1", n)
	}
}
