package algorithms

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// sizes are the extents the tests sort: empty, tiny, around the radix's
// 256 buckets and the chunk sizes, and large enough for several chunks.
var sizes = []int{0, 1, 2, 3, 7, 31, 100, 255, 256, 257, 1000, 4097, minRadixChunk + 3, 2*minRadixChunk + 1, 3*minRadixChunk - 5, 100003}

// pools are the host spaces the tests sort on: the default pool, one of 4
// workers (several chunks on any machine) and Serial.
func pools() []kokkos.ExecutionSpace {
	return []kokkos.ExecutionSpace{nil, kokkos.NewThreads(4), kokkos.Serial{}}
}

// floatOrder compares a and b in IEEE 754 total order, from their values
// and signs: -NaN, then the numbers (-0 before +0), then +NaN; NaNs of a
// sign by their payloads (the raw bits of T, larger ones further from 0).
func floatOrder[T kokkos.Number](a, b T) int {
	class := func(x float64) int {
		switch {
		case math.IsNaN(x) && math.Signbit(x):
			return 0
		case math.IsNaN(x):
			return 2
		}
		return 1
	}
	fa, fb := float64(a), float64(b)
	if c := cmp.Compare(class(fa), class(fb)); c != 0 {
		return c
	}
	switch class(fa) {
	case 0:
		return cmp.Compare(raw(b), raw(a))
	case 2:
		return cmp.Compare(raw(a), raw(b))
	}
	if fa != fb {
		return cmp.Compare(fa, fb)
	}
	return cmp.Compare(b2i(!math.Signbit(fa)), b2i(!math.Signbit(fb)))
}

// raw returns the bits of x.
func raw[T any](x T) uint64 {
	var u uint64
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&u)), unsafe.Sizeof(x)), unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x)))
	return u
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reference returns s sorted: slices.Sort for integers, floatOrder for
// floats.
func reference[T kokkos.Number](s []T) []T {
	r := slices.Clone(s)
	if _, kind := kindOf[T](); kind == kindFloat {
		slices.SortStableFunc(r, floatOrder[T])
	} else {
		slices.Sort(r)
	}
	return r
}

// sameBits reports whether a and b hold the same bits, element by element.
func sameBits[T any](a, b []T) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	sz := int(unsafe.Sizeof(*new(T)))
	for i := range a {
		pa := unsafe.Slice((*byte)(unsafe.Pointer(&a[i])), sz)
		pb := unsafe.Slice((*byte)(unsafe.Pointer(&b[i])), sz)
		if string(pa) != string(pb) {
			return i, false
		}
	}
	return 0, true
}

// gen returns n keys of T: random bits, a few distinct values (many
// duplicates), or for floats a mix with NaNs of both signs, ±0 and ±Inf.
func gen[T kokkos.Number](rng *rand.Rand, n, mode int) []T {
	s := make([]T, n)
	size, kind := kindOf[T]()
	for i := range s {
		bits := rng.Uint64()
		switch mode {
		case 0:
			s[i] = fromRaw[T](bits, size)
		case 1:
			s[i] = T(rng.IntN(5))
		case 2:
			if kind != kindFloat {
				s[i] = fromRaw[T](bits&0x8000_0000_0000_00ff|bits>>60, size)
				continue
			}
			specials := []float64{math.NaN(), -math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1.5, 2.25, math.SmallestNonzeroFloat64, -math.MaxFloat32}
			if rng.IntN(2) == 0 {
				s[i] = T(specials[rng.IntN(len(specials))])
			} else {
				s[i] = T(rng.NormFloat64() * 1e3)
			}
		}
	}
	return s
}

// fromRaw returns a T holding the low bytes of bits.
func fromRaw[T any](bits uint64, size int) T {
	var x T
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&x)), size), unsafe.Slice((*byte)(unsafe.Pointer(&bits)), size))
	return x
}

func view[T any](t testing.TB, s []T) kokkos.View1[T] {
	t.Helper()
	v := kokkos.Must(kokkos.NewView1[T]("keys", len(s)))
	copy(v.Data(), s)
	return v
}

func testSortType[T kokkos.Number](t *testing.T) {
	t.Run(fmt.Sprintf("%T", *new(T)), func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(uint64(len(fmt.Sprintf("%T", *new(T)))), 7))
		for _, exec := range pools() {
			for _, n := range sizes {
				for mode := range 3 {
					s := gen[T](rng, n, mode)
					want := reference(s)
					v := view(t, s)
					if err := SortOn(exec, v); err != nil {
						t.Fatal(err)
					}
					if i, ok := sameBits(v.Data(), want); !ok {
						t.Fatalf("exec %v, n %d, mode %d: element %d is %v, want %v", exec, n, mode, i, v.Data()[i], want[i])
					}
				}
			}
		}
	})
}

func TestSortTypes(t *testing.T) {
	testSortType[int8](t)
	testSortType[int16](t)
	testSortType[int32](t)
	testSortType[int64](t)
	testSortType[int](t)
	testSortType[uint8](t)
	testSortType[uint16](t)
	testSortType[uint32](t)
	testSortType[uint64](t)
	testSortType[uint](t)
	testSortType[uintptr](t)
	testSortType[float32](t)
	testSortType[float64](t)
}

func TestSortDefault(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := gen[float64](rng, 70001, 2)
	v := view(t, s)
	if err := Sort(v); err != nil {
		t.Fatal(err)
	}
	if i, ok := sameBits(v.Data(), reference(s)); !ok {
		t.Fatalf("element %d", i)
	}
}

// TestSortStrided sorts a column of a matrix, a view of stride 2, and
// checks that the other column is untouched.
func TestSortStrided(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 1000, 50001} {
		m := kokkos.Must(kokkos.NewView2[int32]("M", n, 2))
		for i := range n {
			m.Set(i, 0, rng.Int32N(1000)-500)
			m.Set(i, 1, int32(i))
		}
		col := m.Subview1(kokkos.All, 0)
		var s []int32
		for i := range n {
			s = append(s, col.At(i))
		}
		if err := Sort(col); err != nil {
			t.Fatal(err)
		}
		want := reference(s)
		for i := range n {
			if m.At(i, 0) != want[i] || m.At(i, 1) != int32(i) {
				t.Fatalf("n %d: row %d is (%d, %d), want (%d, %d)", n, i, m.At(i, 0), m.At(i, 1), want[i], i)
			}
		}
	}
}

func TestSortRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 10, 1000, 60000} {
		for range 4 {
			begin := rng.IntN(n + 1)
			end := begin + rng.IntN(n-begin+1)
			s := gen[float32](rng, n, 2)
			v := view(t, s)
			if err := SortRangeOn(kokkos.NewThreads(3), v, begin, end); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(s)
			copy(want[begin:end], reference(s[begin:end]))
			if i, ok := sameBits(v.Data(), want); !ok {
				t.Fatalf("n %d [%d, %d): element %d is %v, want %v", n, begin, end, i, v.Data()[i], want[i])
			}
			if err := SortRange(v, 0, n); err != nil {
				t.Fatal(err)
			}
			if i, ok := sameBits(v.Data(), reference(s)); !ok {
				t.Fatalf("n %d whole: element %d", n, i)
			}
		}
	}
}

func TestSortRangePanics(t *testing.T) {
	v := kokkos.Must(kokkos.NewView1[int32]("ranged", 10))
	for _, r := range [][2]int{{-1, 3}, {4, 3}, {0, 11}} {
		func() {
			defer func() {
				msg := fmt.Sprint(recover())
				want := fmt.Sprintf("range [%d, %d) outside view \"ranged\" of extent 10", r[0], r[1])
				if !strings.Contains(msg, want) {
					t.Errorf("panic %q, want it to contain %q", msg, want)
				}
			}()
			_ = SortRange(v, r[0], r[1])
		}()
	}
}

// rec is an element sorted by a comparator on k; i tells its original
// position, for stability.
type rec struct {
	k float64
	i int
}

func TestSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, exec := range pools() {
		for _, n := range append(sizes, 5*minMergeChunk+17) {
			s := make([]rec, n)
			for i := range s {
				s[i] = rec{float64(rng.IntN(max(1, n/3))), i}
			}
			want := slices.Clone(s)
			sort.SliceStable(want, func(a, b int) bool { return want[a].k > want[b].k })
			v := view(t, s)
			if err := SortFuncOn(exec, v, func(a, b rec) bool { return a.k > b.k }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v.Data(), want) {
				i := 0
				for i = range want {
					if v.Data()[i] != want[i] {
						break
					}
				}
				t.Fatalf("exec %v n %d: element %d is %v, want %v", exec, n, i, v.Data()[i], want[i])
			}
		}
	}
	// The default pool, and a comparator on numbers.
	s := gen[int64](rng, 40000, 0)
	v := view(t, s)
	if err := SortFunc(v, func(a, b int64) bool { return a < b }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Data(), reference(s)) {
		t.Fatal("SortFunc of int64 differs from slices.Sort")
	}
}

func TestCoRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		a := gen[int8](rng, rng.IntN(20), 1)
		b := gen[int8](rng, rng.IntN(20), 1)
		slices.Sort(a)
		slices.Sort(b)
		m := make([]int8, len(a)+len(b))
		less := func(x, y int8) bool { return x < y }
		merge(m, a, b, less)
		if !slices.IsSorted(m) {
			t.Fatalf("merge(%v, %v) = %v", a, b, m)
		}
		for k := range len(m) + 1 {
			i := coRank(k, a, b, less)
			got := slices.Concat(a[:i], b[:k-i])
			slices.Sort(got)
			if !slices.Equal(got, m[:k]) || (i < len(a) && k-i > 0 && b[k-i-1] > a[i]) {
				t.Fatalf("coRank(%d, %v, %v) = %d", k, a, b, i)
			}
		}
	}
}

func testSortByKeyType[K kokkos.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, exec := range pools() {
		for _, n := range sizes {
			for mode := range 3 {
				keys := gen[K](rng, n, mode)
				vals := make([]int32, n)
				for i := range vals {
					vals[i] = int32(i)
				}
				// The reference: a stable sort of the positions by key.
				order := make([]int, n)
				for i := range order {
					order[i] = i
				}
				slices.SortStableFunc(order, func(a, b int) int {
					if _, kind := kindOf[K](); kind == kindFloat {
						return floatOrder(keys[a], keys[b])
					}
					return cmp.Compare(keys[a], keys[b])
				})
				kv, vv := view(t, keys), view(t, vals)
				if err := SortByKeyOn(exec, kv, vv); err != nil {
					t.Fatal(err)
				}
				for i, o := range order {
					if vv.At(i) != int32(o) {
						t.Fatalf("%T exec %v n %d mode %d: value %d is %d, want %d", keys[0], exec, n, mode, i, vv.At(i), o)
					}
				}
				if i, ok := sameBits(kv.Data(), reference(keys)); !ok {
					t.Fatalf("%T n %d: key %d", keys[0], n, i)
				}
			}
		}
	}
}

func TestSortByKey(t *testing.T) {
	testSortByKeyType[int16](t)
	testSortByKeyType[uint32](t)
	testSortByKeyType[float32](t)
	testSortByKeyType[float64](t)
	testSortByKeyType[int64](t)
	// The default pool, values of a struct type.
	rng := rand.New(rand.NewPCG(13, 14))
	keys := gen[uint8](rng, 50000, 0)
	vals := make([]rec, len(keys))
	for i := range vals {
		vals[i] = rec{float64(keys[i]), i}
	}
	kv, vv := view(t, keys), view(t, vals)
	if err := SortByKey(kv, vv); err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		r := vv.At(i)
		if r.k != float64(kv.At(i)) || (i > 0 && r.k == vv.At(i-1).k && r.i < vv.At(i-1).i) {
			t.Fatalf("element %d: key %d, value %v after %v", i, kv.At(i), r, vv.At(i-1))
		}
	}
}

func TestSortByKeyFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, exec := range pools() {
		for _, n := range sizes {
			keys := gen[int32](rng, n, 1)
			vals := make([]float64, n)
			for i := range vals {
				vals[i] = float64(i) + 0.5
			}
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] > keys[order[b]] })
			kv, vv := view(t, keys), view(t, vals)
			if err := SortByKeyFuncOn(exec, kv, vv, func(a, b int32) bool { return a > b }); err != nil {
				t.Fatal(err)
			}
			for i, o := range order {
				if vv.At(i) != float64(o)+0.5 || kv.At(i) != keys[o] {
					t.Fatalf("n %d: element %d is (%d, %g), want (%d, %g)", n, i, kv.At(i), vv.At(i), keys[o], float64(o)+0.5)
				}
			}
		}
	}
	kv, vv := view(t, []int32{3, 1, 2}), view(t, []int32{30, 10, 20})
	if err := SortByKeyFunc(kv, vv, func(a, b int32) bool { return a < b }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(vv.Data(), []int32{10, 20, 30}) {
		t.Fatalf("values %v", vv.Data())
	}
}

func TestSortErrors(t *testing.T) {
	v := view(t, []float64{3, 2, 1})
	if err := Sort(v.ReadOnly()); !errors.Is(err, kokkos.ErrReadOnly) || !strings.Contains(err.Error(), `"keys"`) {
		t.Errorf("read-only: %v", err)
	}
	if err := SortFunc(v.ReadOnly(), func(a, b float64) bool { return a < b }); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Errorf("read-only SortFunc: %v", err)
	}
	at, err := v.AsTraits(kokkos.Atomic)
	if err != nil {
		t.Fatal(err)
	}
	if err := Sort(at); !errors.Is(err, kokkos.ErrElementType) {
		t.Errorf("atomic: %v", err)
	}
	w := kokkos.Must(kokkos.NewView1[float64]("short", 2))
	if err := SortByKey(v, w); !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), `values "short" of extent 2`) {
		t.Errorf("extents: %v", err)
	}
	if err := SortByKeyFunc(v, w, func(a, b float64) bool { return a < b }); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("extents SortByKeyFunc: %v", err)
	}
	if err := SortByKey(v, v); !errors.Is(err, kokkos.ErrOverlap) {
		t.Errorf("overlap: %v", err)
	}
	r := view(t, []int32{2, 1})
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if err := Sort(r); !errors.Is(err, kokkos.ErrReleased) {
		t.Errorf("released: %v", err)
	}
	if !slices.Equal(v.Data(), []float64{3, 2, 1}) {
		t.Errorf("a refused sort changed the view: %v", v.Data())
	}
}

// FuzzSort sorts keys made of the fuzzer's bytes as int16, float32 and
// float64 and compares them with the reference.
func FuzzSort(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 0, 0x80, 0xff, 0x7f, 9})
	f.Add([]byte{0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0xff, 0, 0, 0, 0x80, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(name string, sortIt func() (any, any)) {
			got, want := sortIt()
			if fmt.Sprintf("%x", got) != fmt.Sprintf("%x", want) {
				t.Fatalf("%s: got %v, want %v", name, got, want)
			}
		}
		check("int16", func() (any, any) { return fuzzSort[int16](t, b) })
		check("float32", func() (any, any) { return fuzzSort[float32](t, b) })
		check("float64", func() (any, any) { return fuzzSort[float64](t, b) })
	})
}

func fuzzSort[T kokkos.Number](t *testing.T, b []byte) (any, any) {
	sz := int(unsafe.Sizeof(*new(T)))
	s := make([]T, len(b)/sz)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*sz), b)
	v := view(t, s)
	if err := SortOn(kokkos.NewThreads(2), v); err != nil {
		t.Fatal(err)
	}
	bytes := func(x []T) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), len(x)*sz) }
	return bytes(v.Data()), bytes(reference(s))
}

// TestSortAsyncInstance sorts on an asynchronous instance, after work
// queued on it that writes the keys: the sort waits for that work, and
// returns with the keys sorted.
func TestSortAsyncInstance(t *testing.T) {
	inst := kokkos.NewThreads(3).NewInstance()
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{10, 100000} {
		s := gen[float64](rng, n, 2)
		v := kokkos.Must(kokkos.NewView1[float64]("async", n))
		kokkos.ParallelFor("fill", kokkos.Range(0, n).On(inst), func(i int) { v.Set(i, s[i]) })
		if err := SortOn(inst, v); err != nil {
			t.Fatal(err)
		}
		if i, ok := sameBits(v.Data(), reference(s)); !ok {
			t.Fatalf("n %d: element %d", n, i)
		}
		vals := kokkos.Must(kokkos.NewView1[int32]("vals", n))
		kokkos.ParallelFor("fill", kokkos.Range(0, n).On(inst), func(i int) { v.Set(i, float64(n-i)); vals.Set(i, int32(i)) })
		if err := SortByKeyFuncOn(inst, v, vals, func(a, b float64) bool { return a < b }); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if v.At(i) != float64(i+1) || vals.At(i) != int32(n-1-i) {
				t.Fatalf("n %d: element %d is (%g, %d)", n, i, v.At(i), vals.At(i))
			}
		}
	}
}

// FuzzSortByKey sorts int8 keys made of the fuzzer's bytes with their
// positions, on a pool of 3, against a stable sort of the positions.
func FuzzSortByKey(f *testing.F) {
	f.Add([]byte{3, 1, 3, 0x80, 0x7f, 1, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		keys := reinterpret[int8](slices.Clone(b))
		pos := make([]int, len(keys))
		for i := range pos {
			pos[i] = i
		}
		want := slices.Clone(pos)
		slices.SortStableFunc(want, func(x, y int) int { return cmp.Compare(keys[x], keys[y]) })
		kv, pv := view(t, keys), view(t, pos)
		if err := SortByKeyOn(kokkos.NewThreads(3), kv, pv); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pv.Data(), want) {
			t.Fatalf("positions %v, want %v", pv.Data(), want)
		}
	})
}
