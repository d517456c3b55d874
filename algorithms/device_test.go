package algorithms

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// device is an execution space whose memory the host cannot reach: the
// fake backend, whose executor runs the kernels' descriptions through
// the interpreter, or a CUDA stream.
type device struct {
	exec kokkos.ExecutionSpace
	mem  kokkos.MemorySpace
}

func fakeDevice() device {
	f := backendtest.FakeDevice(false)
	return device{f.Executor(), f}
}

// upload returns a view of s in d's memory.
func upload[T any](t testing.TB, d device, s []T) kokkos.View1[T] {
	t.Helper()
	v := kokkos.Must(kokkos.NewView1[T]("dkeys", len(s), kokkos.InSpace(d.mem)))
	if err := kokkos.DeepCopy(v, view(t, s)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Release() })
	return v
}

// download returns v's elements.
func download[T any](t testing.TB, v kokkos.View1[T]) []T {
	t.Helper()
	h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(v))
	return slices.Clone(kokkos.ReadOnlyData(&h))
}

// small sets the device sort's blocks to teams of 3 threads of 5 keys,
// so that the tests' sizes span many blocks, and restores them at the end.
func small(t *testing.T) {
	ts, per := deviceTeam, devicePer
	deviceTeam, devicePer = 3, 5
	t.Cleanup(func() { deviceTeam, devicePer = ts, per })
}

var deviceSizes = []int{0, 1, 2, 14, 15, 16, 31, 100, 257, 1000}

func testDeviceSortType[T kokkos.Number](t *testing.T, d device, sizes []int) {
	t.Run(fmt.Sprintf("%T", *new(T)), func(t *testing.T) {
		rng := rand.New(rand.NewPCG(31, uint64(len(sizes))))
		for _, n := range sizes {
			for mode := range 3 {
				s := gen[T](rng, n, mode)
				v := upload(t, d, s)
				if err := SortOn(d.exec, v); err != nil {
					t.Fatal(err)
				}
				if err := d.exec.Fence(); err != nil {
					t.Fatal(err)
				}
				got, want := download(t, v), reference(s)
				if i, ok := sameBits(got, want); !ok {
					t.Fatalf("n %d mode %d: element %d is %v, want %v", n, mode, i, got[i], want[i])
				}
			}
		}
	})
}

func testDeviceSort(t *testing.T, d device, sizes []int) {
	testDeviceSortType[int8](t, d, sizes)
	testDeviceSortType[uint8](t, d, sizes)
	testDeviceSortType[int16](t, d, sizes)
	testDeviceSortType[uint16](t, d, sizes)
	testDeviceSortType[int32](t, d, sizes)
	testDeviceSortType[uint32](t, d, sizes)
	testDeviceSortType[float32](t, d, sizes)
	testDeviceSortType[int64](t, d, sizes)
	testDeviceSortType[uint64](t, d, sizes)
	testDeviceSortType[int](t, d, sizes)
	testDeviceSortType[float64](t, d, sizes)
}

func TestDeviceSortFake(t *testing.T) {
	small(t)
	d := fakeDevice()
	testDeviceSort(t, d, deviceSizes)
	if l := d.exec.(*backendtest.FakeExecutor).Launches(); l < 100 {
		t.Fatalf("%d kernel launches on the fake device", l)
	}
}

// TestDeviceSortFakeBlocks runs the device sort with its own block size
// (one block here).
func TestDeviceSortFakeBlocks(t *testing.T) {
	testDeviceSortType[float32](t, fakeDevice(), []int{deviceTeam*devicePer - 1, deviceTeam*devicePer + 3})
}

func testDeviceSortByKeyType[K kokkos.Number, V kokkos.Number](t *testing.T, d device, sizes []int) {
	t.Run(fmt.Sprintf("%T-%T", *new(K), *new(V)), func(t *testing.T) {
		rng := rand.New(rand.NewPCG(33, 34))
		for _, n := range sizes {
			keys := gen[K](rng, n, 1+n%2)
			vals := make([]V, n)
			for i := range vals {
				vals[i] = V(i % 120)
			}
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				if _, kind := kindOf[K](); kind == kindFloat {
					return floatOrder(keys[a], keys[b])
				}
				if keys[a] < keys[b] {
					return -1
				}
				if keys[a] > keys[b] {
					return 1
				}
				return 0
			})
			kv, vv := upload(t, d, keys), upload(t, d, vals)
			if err := SortByKeyOn(d.exec, kv, vv); err != nil {
				t.Fatal(err)
			}
			gk, gv := download(t, kv), download(t, vv)
			for i, o := range order {
				if gv[i] != vals[o] {
					t.Fatalf("n %d: value %d is %v, want %v (of key %v)", n, i, gv[i], vals[o], keys[o])
				}
			}
			if i, ok := sameBits(gk, reference(keys)); !ok {
				t.Fatalf("n %d: key %d", n, i)
			}
		}
	})
}

func testDeviceSortByKey(t *testing.T, d device, sizes []int) {
	testDeviceSortByKeyType[int8, float64](t, d, sizes)
	testDeviceSortByKeyType[uint16, int8](t, d, sizes)
	testDeviceSortByKeyType[float32, int16](t, d, sizes)
	testDeviceSortByKeyType[int32, float32](t, d, sizes)
	testDeviceSortByKeyType[float64, int32](t, d, sizes)
	testDeviceSortByKeyType[uint64, int64](t, d, sizes)
}

func TestDeviceSortByKeyFake(t *testing.T) {
	small(t)
	testDeviceSortByKey(t, fakeDevice(), deviceSizes)
}

// testDeviceForms runs the strided, range and comparator forms on d.
func testDeviceForms(t *testing.T, d device, n int) {
	rng := rand.New(rand.NewPCG(35, 36))
	// A column of a matrix: stride 2.
	m := kokkos.Must(kokkos.NewView2[float64]("M", n, 2, kokkos.InSpace(d.mem)))
	defer m.Release()
	hm := kokkos.Must(kokkos.CreateMirror(m))
	var col []float64
	for i := range n {
		hm.Set(i, 0, rng.NormFloat64())
		hm.Set(i, 1, float64(i))
		col = append(col, hm.At(i, 0))
	}
	if err := kokkos.DeepCopy(m, hm); err != nil {
		t.Fatal(err)
	}
	if err := SortOn(d.exec, m.Subview1(kokkos.All, 0)); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(hm, m); err != nil {
		t.Fatal(err)
	}
	want := reference(col)
	for i := range n {
		if hm.At(i, 0) != want[i] || hm.At(i, 1) != float64(i) {
			t.Fatalf("strided: row %d is (%g, %g), want (%g, %d)", i, hm.At(i, 0), hm.At(i, 1), want[i], i)
		}
	}
	// A range.
	s := gen[int32](rng, n, 0)
	v := upload(t, d, s)
	b, e := n/3, n-n/4
	if err := SortRangeOn(d.exec, v, b, e); err != nil {
		t.Fatal(err)
	}
	w := slices.Clone(s)
	slices.Sort(w[b:e])
	if got := download(t, v); !slices.Equal(got, w) {
		t.Fatalf("range [%d, %d): %v", b, e, got)
	}
	// A comparator, through the host.
	v = upload(t, d, s)
	if err := SortFuncOn(d.exec, v, func(a, b int32) bool { return a > b }); err != nil {
		t.Fatal(err)
	}
	w = reference(s)
	slices.Reverse(w)
	if got := download(t, v); !slices.Equal(got, w) {
		t.Fatal("SortFuncOn descending differs")
	}
	kv, vv := upload(t, d, s), upload(t, d, s)
	if err := SortByKeyFuncOn(d.exec, kv, vv, func(a, b int32) bool { return a > b }); err != nil {
		t.Fatal(err)
	}
	if got := download(t, vv); !slices.Equal(got, w) {
		t.Fatal("SortByKeyFuncOn descending differs")
	}
}

// TestDeviceSortByKeyWide sorts values of 12 bytes, which go through the
// host.
func TestDeviceSortByKeyWide(t *testing.T) {
	d := fakeDevice()
	type big struct{ a, b, c int32 }
	kv := upload(t, d, []float32{3, -1, 2, -1})
	vv := upload(t, d, []big{{3, 0, 0}, {-1, 1, 0}, {2, 0, 0}, {-1, 2, 0}})
	if err := SortByKeyOn(d.exec, kv, vv); err != nil {
		t.Fatal(err)
	}
	if got := download(t, vv); !slices.Equal(got, []big{{-1, 1, 0}, {-1, 2, 0}, {2, 0, 0}, {3, 0, 0}}) {
		t.Fatalf("values %v", got)
	}
}

func TestDeviceFormsFake(t *testing.T) {
	small(t)
	testDeviceForms(t, fakeDevice(), 301)
}

func TestDeviceErrors(t *testing.T) {
	d := fakeDevice()
	v := upload(t, d, []int32{3, 1, 2})
	if err := Sort(v); !errors.Is(err, kokkos.ErrNotHostAccessible) || !strings.Contains(err.Error(), `"dkeys"`) {
		t.Errorf("Sort of device memory: %v", err)
	}
	if err := SortOn(kokkos.Serial{}, v); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Errorf("SortOn a host space of device memory: %v", err)
	}
	if err := SortFunc(v, func(a, b int32) bool { return a < b }); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Errorf("SortFunc of device memory: %v", err)
	}
	short := upload(t, d, []int32{1, 2})
	if err := SortByKeyOn(d.exec, v, short); !errors.Is(err, kokkos.ErrShape) {
		t.Errorf("values of another extent: %v", err)
	}
	if err := SortByKeyOn(d.exec, v, v); !errors.Is(err, kokkos.ErrOverlap) {
		t.Errorf("keys as values: %v", err)
	}
	bs := kokkos.Must(NewBinSort(NewBinOp1D(view(t, []int32{1, 2}), 2, 1, 2), false))
	if err := bs.CreatePermuteVectorOn(d.exec); !errors.Is(err, kokkos.ErrHostOnly) {
		t.Errorf("BinSort on a device: %v", err)
	}
	if got := download(t, v); !slices.Equal(got, []int32{3, 1, 2}) {
		t.Errorf("a refused sort changed the view: %v", got)
	}
}

// cudaDevice returns a CUDA stream and cuda.Space, or skips the test.
func cudaDevice(t *testing.T) device {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Release() })
	return device{st, cuda.Space}
}

// TestCUDA runs the device sort's kernels on a GPU: every type, sizes of
// one to many blocks (the default blocks and small ones), sort by key,
// and the strided, range and comparator forms.
func TestCUDA(t *testing.T) {
	d := cudaDevice(t)
	sizes := []int{0, 1, 2, 1000, 1023, 1025, 100003, 1 << 20}
	testDeviceSort(t, d, sizes)
	testDeviceSortByKey(t, d, sizes)
	testDeviceForms(t, d, 77777)
	small(t)
	testDeviceSort(t, d, deviceSizes)
	testDeviceSortByKey(t, d, deviceSizes)
}
