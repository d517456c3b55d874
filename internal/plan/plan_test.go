package plan

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// serial runs body over [0, n) in chunks of grain, in order.
func serial(n, grain int, body func(lo, hi int)) {
	grain = max(grain, 1)
	for lo := 0; lo < n; lo += grain {
		body(lo, min(lo+grain, n))
	}
}

// concurrent runs the chunks on goroutines of their own.
func concurrent(n, grain int, body func(lo, hi int)) {
	grain = max(grain, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += grain {
		wg.Go(func() { body(lo, min(lo+grain, n)) })
	}
	wg.Wait()
}

// rightStrides returns the LayoutRight strides of ext.
func rightStrides(ext []int) []int {
	str := make([]int, len(ext))
	s := 1
	for r := len(ext) - 1; r >= 0; r-- {
		str[r] = s
		s *= ext[r]
	}
	return str
}

func TestMakeNestMerges(t *testing.T) {
	// A rank-8 LayoutRight copy into LayoutRight is one run.
	ext := []int{2, 3, 2, 3, 2, 3, 2, 3}
	str := rightStrides(ext)
	nt, _ := MakeNest(ext, str, str)
	if nt.N != 1 || nt.Ext[0] != 1296 {
		t.Fatalf("nest %+v", nt)
	}
	// A subview keeping all but the last dimension whole is rows.
	sub := append([]int(nil), ext...)
	sub[7] = 2
	nt, _ = MakeNest(sub, str, str)
	if nt.N != 2 || nt.Ext[1] != 2 {
		t.Fatalf("nest %+v", nt)
	}
	if _, empty := MakeNest([]int{3, 0}, []int{1, 3}, nil); !empty {
		t.Fatal("extent 0 not empty")
	}
}

// forEach calls f with every multi-index of ext.
func forEach(ext []int, f func(idx []int)) {
	idx := make([]int, len(ext))
	for _, e := range ext {
		if e == 0 {
			return
		}
	}
	for {
		f(idx)
		r := len(ext) - 1
		for ; r >= 0; r-- {
			if idx[r]++; idx[r] < ext[r] {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return
		}
	}
}

func offset(idx, str []int) int {
	o := 0
	for r, i := range idx {
		o += i * str[r]
	}
	return o
}

// randomStrides returns strides for ext in a random dimension order, with
// random gaps, and the span they need.
func randomStrides(rng *rand.Rand, ext []int) ([]int, int) {
	str := make([]int, len(ext))
	s := 1
	for _, r := range rng.Perm(len(ext)) {
		str[r] = s
		s *= ext[r] + rng.IntN(2)
	}
	return str, s
}

// TestCopyAndFillMatchNaive: Copy and Fill agree with a loop over every
// index for random extents and strides, with serial and concurrent
// parallelism, and touch nothing outside the view.
func TestCopyAndFillMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := range 400 {
		rank := rng.IntN(5)
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = 1 + rng.IntN(40)
			if rank <= 2 {
				ext[r] = 1 + rng.IntN(300)
			}
		}
		ds, dn := randomStrides(rng, ext)
		ss, sn := randomStrides(rng, ext)
		src := make([]float64, sn)
		for i := range src {
			src[i] = float64(i + 1)
		}
		par := Parallel(serial)
		if it%2 == 1 {
			par = concurrent
		}
		got, want := make([]float64, dn), make([]float64, dn)
		for i := range got {
			got[i], want[i] = -1, -1
		}
		Copy(par, got, ds, src, ss, ext)
		forEach(ext, func(idx []int) { want[offset(idx, ds)] = src[offset(idx, ss)] })
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("copy of extents %v, strides %v from %v: element %d is %v, want %v", ext, ds, ss, i, got[i], want[i])
			}
		}
		x := float64(it % 3) // 0 takes the clear path
		Fill(par, got, ds, ext, x)
		forEach(ext, func(idx []int) { want[offset(idx, ds)] = x })
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("fill of extents %v, strides %v: element %d is %v, want %v", ext, ds, i, got[i], want[i])
			}
		}
	}
}

// TestCopyLongStridedRows: rows whose elements lie a page or more apart
// are cut into pieces; with chunks of any size, run in any order, the
// copy agrees with a loop over every index, in both directions.
func TestCopyLongStridedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 12 {
		rows := 1 + rng.IntN(2)
		L := 2048 + rng.IntN(2048)
		stride := 512 + rng.IntN(32) // 4 KiB and more between elements
		if cost := rowElemCost(stride, 8); L*cost/RowChunkBytes < 2 {
			t.Fatalf("a row of %d elements %d apart is not cut", L, stride)
		}
		ext := []int{rows, L}
		line := (L-1)*stride + 1
		strided := []int{line + rng.IntN(3), stride} // rows of strided lines, one after the other
		dense := rightStrides(ext)
		field := make([]float64, (rows-1)*strided[0]+line)
		for i := range field {
			field[i] = rng.NormFloat64()
		}
		at := func(i, j int) int { return i*strided[0] + j*stride }
		par := randomChunks(rng.Uint64())
		// Gather the strided lines into dense rows.
		got := make([]float64, rows*L)
		Copy(par, got, dense, field, strided, ext)
		for i := range rows {
			for j := range L {
				if w := field[at(i, j)]; got[i*L+j] != w {
					t.Fatalf("gather of %d×%d, stride %d: (%d, %d) is %v, want %v", rows, L, stride, i, j, got[i*L+j], w)
				}
			}
		}
		// Scatter fresh values back; the elements between the strided
		// ones keep theirs.
		src := make([]float64, rows*L)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), field...)
		for i := range rows {
			for j := range L {
				want[at(i, j)] = src[i*L+j]
			}
		}
		Copy(par, field, strided, src, dense, ext)
		for i := range field {
			if field[i] != want[i] {
				t.Fatalf("scatter of %d×%d, stride %d: element %d is %v, want %v", rows, L, stride, i, field[i], want[i])
			}
		}
	}
}

// randomChunks returns a Parallel that cuts [0, n) into chunks of random
// sizes, whatever the grain, and runs them on goroutines of their own.
func randomChunks(seed uint64) Parallel {
	rng := rand.New(rand.NewPCG(seed, 1))
	return func(n, grain int, body func(lo, hi int)) {
		var wg sync.WaitGroup
		for lo, hi := 0, 0; lo < n; lo = hi {
			hi = min(n, lo+1+rng.IntN(3))
			a, b := lo, hi
			wg.Go(func() { body(a, b) })
		}
		wg.Wait()
	}
}

func TestOdometer(t *testing.T) {
	ext := []int{3, 4, 5}
	str := rightStrides(ext)
	nt := Nest{N: 3}
	for r := range 3 {
		nt.Ext[r], nt.DS[r], nt.SS[r] = ext[r], str[r], 2*str[r]
	}
	// Skip dimension 1, start at flat index 4 of the 3×5 others.
	od := NewOdometer(&nt, 3, 1, 4)
	if od.Count() != 15 {
		t.Fatalf("count %d", od.Count())
	}
	for q := 4; q < 15; q++ {
		i, k := q/5, q%5
		if want := i*str[0] + k*str[2]; od.Do != want || od.So != 2*want {
			t.Fatalf("position %d: offsets %d, %d; want %d, %d", q, od.Do, od.So, want, 2*want)
		}
		Step[int](&od)
	}
}

// TestConvertMatchesNaive: Convert agrees with a loop over every index.
func TestConvertMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 200 {
		rank := rng.IntN(4)
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = 1 + rng.IntN(30)
		}
		ds, dn := randomStrides(rng, ext)
		ss, sn := randomStrides(rng, ext)
		src := make([]int32, sn)
		for i := range src {
			src[i] = int32(i - sn/2)
		}
		par := Parallel(serial)
		if it%2 == 1 {
			par = concurrent
		}
		got, want := make([]float64, dn), make([]float64, dn)
		for i := range got {
			got[i], want[i] = 0.5, 0.5
		}
		Convert(par, got, ds, src, ss, ext)
		forEach(ext, func(idx []int) { want[offset(idx, ds)] = float64(src[offset(idx, ss)]) })
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("convert of extents %v, strides %v from %v: element %d is %v, want %v", ext, ds, ss, i, got[i], want[i])
			}
		}
	}
}

// testLongFill fills runs around the block and chunk sizes of a long fill,
// contiguous and with stride 2, offset from a random-filled buffer, and
// checks every element against a naive loop, the ones outside included.
func testLongFill[T comparable](t *testing.T, name string, rnd func() T) {
	size := sizeOf[T]()
	blk := fillBlockBytes / size
	chunk := FillChunkBytes / size
	for _, n := range []int{1, 2*blk - 1, 2 * blk, 2*blk + 1, 3*blk + 7, chunk + blk/2 + 3, 2*chunk + 5, StreamFillBytes/size + 5} {
		for _, st := range []int{1, 2} {
			for _, par := range []Parallel{serial, concurrent} {
				const off = 3
				buf := make([]T, off+(n-1)*st+1+5)
				for i := range buf {
					buf[i] = rnd()
				}
				want := append([]T(nil), buf...)
				for _, x := range []T{rnd(), *new(T)} {
					Fill(par, buf[off:], []int{st}, []int{n}, x)
					for i := 0; i < n; i++ {
						want[off+i*st] = x
					}
					for i := range buf {
						if buf[i] != want[i] {
							t.Fatalf("%s n %d stride %d: element %d is %v, want %v", name, n, st, i, buf[i], want[i])
						}
					}
				}
			}
		}
	}
}

type triple struct{ a, b, c int64 }

func TestLongFillMatchesNaive(t *testing.T) {
	testutil.SkipUnlessLong(t, "fills of tens of megabytes")
	rng := rand.New(rand.NewPCG(5, 6))
	testLongFill(t, "int8", func() int8 { return int8(rng.IntN(255) + 1) })
	testLongFill(t, "float32", func() float32 { return rng.Float32() + 1 })
	testLongFill(t, "float64", func() float64 { return rng.Float64() + 1 })
	testLongFill(t, "triple", func() triple { return triple{rng.Int64(), rng.Int64(), 1} })
}

// TestLongFillShort is TestLongFillMatchesNaive's short form: one size
// above the block path's threshold.
func TestLongFillShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 2*fillBlockBytes/8 + 13
	buf := make([]float64, n+2)
	for i := range buf {
		buf[i] = rng.Float64() + 1
	}
	head, tail := buf[0], buf[n+1]
	x := rng.Float64() + 2
	Fill(concurrent, buf[1:], []int{1}, []int{n}, x)
	if buf[0] != head || buf[n+1] != tail {
		t.Fatal("fill wrote outside its run")
	}
	for i := 1; i <= n; i++ {
		if buf[i] != x {
			t.Fatalf("element %d is %v, want %v", i, buf[i], x)
		}
	}
}

// testFillStream checks fillStream against a loop on random data, for
// every start offset within 16 bytes and lengths around the 64-byte
// blocks of its non-temporal stores.
func testFillStream[T comparable](t *testing.T, name string, rnd func() T) {
	for off := range 17 {
		for n := 0; n < 300; n += 1 + n/16 {
			buf := make([]T, off+n+3)
			for i := range buf {
				buf[i] = rnd()
			}
			want := append([]T(nil), buf...)
			x := rnd()
			if !fillStream(buf[off:off+n], x) {
				if n > 0 && runtime.GOARCH == "amd64" {
					t.Fatalf("%s: fillStream refused %d elements at offset %d", name, n, off)
				}
				continue
			}
			for i := off; i < off+n; i++ {
				want[i] = x
			}
			for i := range buf {
				if buf[i] != want[i] {
					t.Fatalf("%s offset %d n %d: element %d is %v, want %v", name, off, n, i, buf[i], want[i])
				}
			}
		}
	}
}

func TestFillStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	testFillStream(t, "int8", func() int8 { return int8(rng.IntN(255) + 1) })
	testFillStream(t, "int16", func() int16 { return int16(rng.IntN(60000) + 1) })
	testFillStream(t, "float32", func() float32 { return rng.Float32() + 1 })
	testFillStream(t, "float64", func() float64 { return rng.Float64() + 1 })
	testFillStream(t, "[2]int64", func() [2]int64 { return [2]int64{rng.Int64(), rng.Int64() | 1} })
	if fillStream(make([]triple, 100), triple{1, 2, 3}) {
		t.Fatal("fillStream took 24-byte elements")
	}
}
