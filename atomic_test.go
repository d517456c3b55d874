package kokkos

import (
	"math"
	"sync"
	"testing"
)

func TestAtomicAddConcurrent(t *testing.T) {
	var ints [2]int64
	var u8 [8]uint8
	var i16 [2]int16
	var f32 [2]float32
	var f64 [2]float64
	ParallelFor("atomic", Range(0, 100000).WithChunk(7), func(i int) {
		AtomicAdd(&ints[i%2], 1)
		AtomicAdd(&i16[i%2], 1)
		AtomicAdd(&u8[i%8], 1)
		AtomicAdd(&f32[i%2], 1)
		AtomicAdd(&f64[i%2], 0.5)
	})
	for k := range 2 {
		if ints[k] != 50000 || f32[k] != 50000 || f64[k] != 25000 || i16[k] != int16(50000-65536) {
			t.Errorf("element %d: %d %d %v %v", k, ints[k], i16[k], f32[k], f64[k])
		}
	}
	for k, v := range u8 {
		if v != uint8(12500%256) {
			t.Errorf("u8[%d] = %d", k, v)
		}
	}
}

func TestAtomicOps(t *testing.T) {
	testAtomicOps[int8](t)
	testAtomicOps[uint16](t)
	testAtomicOps[int32](t)
	testAtomicOps[uint64](t)
	testAtomicOps[int](t)
	testAtomicFloat[float32](t)
	testAtomicFloat[float64](t)
}

func testAtomicOps[T Integer](t *testing.T) {
	var a [3]T
	p := &a[1]
	*p = 12
	check := func(op string, got, want, now T) {
		t.Helper()
		if got != want || *p != now || a[0] != 0 || a[2] != 0 {
			t.Errorf("%T %s: returned %v, holds %v; want %v, %v", *p, op, got, *p, want, now)
		}
	}
	check("FetchAdd", AtomicFetchAdd(p, 5), 12, 17)
	check("FetchSub", AtomicFetchSub(p, 3), 17, 14)
	check("FetchMin", AtomicFetchMin(p, 9), 14, 9)
	check("FetchMin", AtomicFetchMin(p, 11), 9, 9)
	check("FetchMax", AtomicFetchMax(p, 30), 9, 30)
	check("FetchAnd", AtomicFetchAnd(p, 0x1c), 30, 28)
	check("FetchOr", AtomicFetchOr(p, 3), 28, 31)
	check("FetchXor", AtomicFetchXor(p, 5), 31, 26)
	check("Exchange", AtomicExchange(p, 40), 26, 40)
	check("CompareExchange", AtomicCompareExchange(p, 41, 50), 40, 40)
	check("CompareExchange", AtomicCompareExchange(p, 40, 50), 40, 50)
	AtomicAdd(p, 1)
	AtomicSub(p, 2)
	AtomicMin(p, 45)
	AtomicMax(p, 46)
	AtomicAnd(p, 0x3e)
	AtomicOr(p, 1)
	AtomicXor(p, 2)
	check("loads", atomicLoad(p), 45, 45)
	atomicStore(p, 7)
	check("store", atomicLoad(p), 7, 7)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				AtomicMax(p, 100)
				AtomicXor(p, 1)
			}
		})
	}
	wg.Wait()
	check("concurrent", *p, 100, 100)
}

func testAtomicFloat[T Float](t *testing.T) {
	var a [3]T
	p := &a[1]
	*p = 1.5
	check := func(op string, got, want, now T) {
		t.Helper()
		if got != want || *p != now || a[0] != 0 || a[2] != 0 {
			t.Errorf("%T %s: returned %v, holds %v; want %v, %v", *p, op, got, *p, want, now)
		}
	}
	check("FetchAdd", AtomicFetchAdd(p, 0.25), 1.5, 1.75)
	check("FetchSub", AtomicFetchSub(p, 1), 1.75, 0.75)
	check("FetchMin", AtomicFetchMin(p, -2), 0.75, -2)
	check("FetchMax", AtomicFetchMax(p, 3.5), -2, 3.5)
	check("Exchange", AtomicExchange(p, 8), 3.5, 8)
	check("CompareExchange", AtomicCompareExchange(p, 9, 1), 8, 8)
	check("CompareExchange", AtomicCompareExchange(p, 8, 1), 8, 1)
	atomicStore(p, T(math.Inf(-1)))
	check("store", atomicLoad(p), T(math.Inf(-1)), T(math.Inf(-1)))
}
