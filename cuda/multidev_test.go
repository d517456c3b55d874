package cuda_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

// The tests of several GPUs in one process: TestMultiDevice* and
// TestPeer*. Those that need two devices skip, with "CUDA unavailable",
// on a machine with one.

// peerPaths runs f once with peer access (where the devices have it) and
// once with every copy between devices staged through the host.
func peerPaths(t *testing.T, f func(t *testing.T)) {
	for _, staged := range []bool{false, true} {
		name := "peer"
		if staged {
			name = "staged"
		}
		t.Run(name, func(t *testing.T) {
			defer cuda.SetForceStagedPeer(staged)()
			f(t)
		})
	}
}

// orderedPairs returns every ordered pair of distinct devices of devs.
func orderedPairs(devs []*cuda.Device) [][2]int {
	var ps [][2]int
	for _, a := range devs {
		for _, b := range devs {
			if a != b {
				ps = append(ps, [2]int{a.Ordinal(), b.Ordinal()})
			}
		}
	}
	return ps
}

// allDevices returns every device, at least two, or skips.
func allDevices(t *testing.T) []*cuda.Device {
	t.Helper()
	cudatest.RequireDevices(t, 2)
	n, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	return cudatest.RequireDevices(t, n)
}

// TestMultiDeviceInfo checks Devices against the Device values and the
// peer matrix against CanAccessPeer: every field filled, the diagonal
// true, the matrix symmetric.
func TestMultiDeviceInfo(t *testing.T) {
	cudatest.RequireDevice(t)
	infos, err := cuda.Devices()
	if err != nil {
		t.Fatal(err)
	}
	n, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != n {
		t.Fatalf("Devices: %d devices, DeviceCount %d", len(infos), n)
	}
	for i, d := range infos {
		t.Logf("device %d: %s, sm_%d%d, %d SMs, %d MiB, peers %v", d.Ordinal, d.Name, d.Major, d.Minor, d.Multiprocessors, d.TotalMemory>>20, d.Peers)
		dev, err := cuda.GetDevice(i)
		if err != nil {
			t.Fatal(err)
		}
		if d.Ordinal != i || d.Name != dev.Name() || d.Name == "" || d.Major < 3 || d.Minor < 0 ||
			d.TotalMemory != dev.TotalMemory() || d.TotalMemory <= 0 || d.Multiprocessors != dev.Multiprocessors() || d.Multiprocessors <= 0 {
			t.Errorf("device %d: %+v; GetDevice says %s, %d bytes, %d SMs", i, d, dev.Name(), dev.TotalMemory(), dev.Multiprocessors())
		}
		if len(d.Peers) != n || !d.Peers[i] {
			t.Errorf("device %d: peers %v, want %d entries with itself true", i, d.Peers, n)
			continue
		}
		for j := range n {
			if d.Peers[j] != infos[j].Peers[i] {
				t.Errorf("peer matrix not symmetric: %d->%d %v, %d->%d %v", i, j, d.Peers[j], j, i, infos[j].Peers[i])
			}
			can, err := cuda.CanAccessPeer(i, j)
			if err != nil || can != d.Peers[j] {
				t.Errorf("CanAccessPeer(%d, %d) = %v, %v; Devices says %v", i, j, can, err, d.Peers[j])
			}
		}
	}
	if _, err := cuda.CanAccessPeer(0, n); !errors.Is(err, cuda.ErrInvalidDevice) {
		t.Errorf("CanAccessPeer(0, %d): %v, want ErrInvalidDevice", n, err)
	}
}

var peerExts = [][]int{{1}, {1000}, {31, 33}, {1000, 31}, {7, 40, 9}}

// TestPeerCopyLayouts copies random views between every ordered pair of
// devices, for every pair of layouts (Right, Left, Stride), contiguous
// and subviews, ranks 1 to 3, synchronously and on a stream of either
// device, through peer access and staged, and checks the destination's
// whole parent against a host reference.
func TestPeerCopyLayouts(t *testing.T) {
	devs := allDevices(t)
	cudatest.LeakCheckOn(t)
	peerPaths(t, func(t *testing.T) {
		for _, p := range orderedPairs(devs) {
			dst, src := p[0], p[1]
			t.Run(fmt.Sprintf("%d<-%d", dst, src), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(dst), uint64(src)))
				streams := streamsOf(t, devs[dst], devs[src])
				for _, ext := range peerExts {
					for dk := range 3 {
						for sk := range 3 {
							for _, st := range streams {
								dsub, ssub := rng.IntN(2) == 0, rng.IntN(2) == 0
								copyCase[float64](t, rng, ext, dk, sk, dsub, ssub, cuda.SpaceOn(dst), cuda.SpaceOn(src), st)
							}
						}
					}
				}
			})
		}
	})
}

// TestPeerCopySizes copies elements of 1, 2, 4, 8, 16 and 12 bytes
// between devices 0 and 1 in both directions, and large views (several
// chunks of the staged path), contiguous and transposed.
func TestPeerCopySizes(t *testing.T) {
	devs := cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	peerPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		streams := streamsOf(t, devs[0], devs[1])
		copykernTypes(t, func(t *testing.T, size int) {
			for _, p := range [][2]int{{0, 1}, {1, 0}} {
				for _, ext := range [][]int{{1000}, {31, 1000}, {3, 100, 31}} {
					st := streams[rng.IntN(len(streams))]
					copyBySize(t, size, rng, ext, 1, 0, false, true, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
					copyBySize(t, size, rng, ext, 0, 0, false, false, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
					copyBySize(t, size, rng, ext, 2, 1, true, false, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
				}
			}
		})
		for _, p := range [][2]int{{0, 1}, {1, 0}} {
			for _, st := range streams {
				copyCase[float64](t, rng, []int{1<<20 + 3}, 0, 0, false, false, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
				copyCase[float64](t, rng, []int{1200, 1100}, 1, 0, false, false, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
				copyCase[float32](t, rng, []int{1500, 1100}, 0, 0, true, true, cuda.SpaceOn(p[0]), cuda.SpaceOn(p[1]), st)
			}
		}
	})
}

// TestPeerCopyOtherSpaces copies between device memory of one device and
// pinned and unified memory of the other, both ways, contiguous and
// transposed.
func TestPeerCopyOtherSpaces(t *testing.T) {
	cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	peerPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, other := range []kokkos.MemorySpace{cuda.HostPinnedSpaceOn(1), cuda.UVMSpaceOn(1)} {
			for _, ext := range [][]int{{1000}, {31, 100}} {
				copyCase[float64](t, rng, ext, 0, 1, false, true, cuda.SpaceOn(0), other, nil)
				copyCase[float64](t, rng, ext, 1, 0, true, false, other, cuda.SpaceOn(0), nil)
				copyCase[float64](t, rng, ext, 0, 0, false, false, other, cuda.SpaceOn(0), nil)
			}
		}
	})
}

// streamsOf returns nil (synchronous copies) and a new stream on each of
// the devices, released at the end of the test.
func streamsOf(t *testing.T, devs ...*cuda.Device) []*cuda.Stream {
	t.Helper()
	out := []*cuda.Stream{nil}
	for _, d := range devs {
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Release() })
		out = append(out, s)
	}
	return out
}

func devOrdinals(devs []*cuda.Device) []int {
	out := make([]int, len(devs))
	for i, d := range devs {
		out[i] = d.Ordinal()
	}
	return out
}

// newRand1 returns a view of n random float64 values in space and its
// host copy.
func newRand1(t *testing.T, rng *rand.Rand, label string, n int, space kokkos.MemorySpace) (kokkos.View1[float64], []float64) {
	t.Helper()
	h, err := kokkos.NewView1[float64](label+" host", n)
	if err != nil {
		t.Fatal(err)
	}
	data := dynData[float64](h)
	for i := range data {
		data[i] = float64(rng.IntN(1<<20)) + 0.5
	}
	v, err := kokkos.NewView1[float64](label, n, kokkos.InSpace(space))
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(v, h); err != nil {
		t.Fatal(err)
	}
	return v, data
}

// readBack returns v's elements.
func readBack(t testing.TB, v kokkos.View1[float64]) ([]float64, error) {
	h, err := kokkos.CreateMirrorViewAndCopy(v)
	if err != nil {
		return nil, err
	}
	return dynData(h), nil
}

// equalAll reports the first difference between got and want.
func equalAll(got, want []float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d elements, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("element %d = %v, want %v", i, got[i], want[i])
		}
	}
	return nil
}

// TestPeerMirror makes mirrors of a view of one device in another
// device's space: CreateMirror then DeepCopy, CreateMirrorViewAndCopy,
// and CreateMirrorViewAndCopyOn a stream of either device.
func TestPeerMirror(t *testing.T) {
	devs := cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	peerPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, p := range [][2]int{{0, 1}, {1, 0}} {
			to, from := p[0], p[1]
			v, want := newRand1(t, rng, "v", 100003, cuda.SpaceOn(from))
			m, err := kokkos.CreateMirror(v, kokkos.InSpace(cuda.SpaceOn(to)))
			if err != nil {
				t.Fatal(err)
			}
			if m.Space() != cuda.SpaceOn(to) {
				t.Errorf("CreateMirror in device %d's space: the mirror is in %v", to, m.Space())
			}
			if err := kokkos.DeepCopy(m, v); err != nil {
				t.Fatal(err)
			}
			checkView(t, "CreateMirror+DeepCopy", m, want)
			m2, err := kokkos.CreateMirrorViewAndCopy(v, kokkos.InSpace(cuda.SpaceOn(to)))
			if err != nil {
				t.Fatal(err)
			}
			if m2.Space() != cuda.SpaceOn(to) {
				t.Errorf("CreateMirrorViewAndCopy to device %d: the mirror is in %v", to, m2.Space())
			}
			checkView(t, "CreateMirrorViewAndCopy", m2, want)
			for _, d := range []int{to, from} {
				s, err := devs[d].NewStream()
				if err != nil {
					t.Fatal(err)
				}
				m3, err := kokkos.CreateMirrorViewAndCopyOn(s, v, kokkos.InSpace(cuda.SpaceOn(to)))
				if err == nil {
					err = s.Fence()
				}
				if err != nil {
					t.Fatal(err)
				}
				checkView(t, fmt.Sprintf("CreateMirrorViewAndCopyOn a stream of device %d", d), m3, want)
				release(t, m3)
				_ = s.Release()
			}
			release(t, m)
			release(t, m2)
			release(t, v)
		}
	})
}

func checkView(t *testing.T, what string, v kokkos.View1[float64], want []float64) {
	t.Helper()
	got, err := readBack(t, v)
	if err == nil {
		err = equalAll(got, want)
	}
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// TestPeerCopyOrder queues, on a stream, work that writes the source, a
// copy to another device, and work that overwrites what the copy reads
// or writes, without fencing between them: the copy must see the first
// and not the last. Once with the stream on the source's device, once on
// the destination's; contiguous and transposing copies.
func TestPeerCopyOrder(t *testing.T) {
	devs := cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	peerPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		const n = 1<<20 + 5
		for _, on := range []int{0, 1} {
			s, err := devs[on].NewStream()
			if err != nil {
				t.Fatal(err)
			}
			x0, data := newRand1(t, rng, "x0", n, cuda.SpaceOn(0))
			x1, err := kokkos.NewView1[float64]("x1", n, kokkos.InSpace(cuda.SpaceOn(1)))
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n)
			if on == 0 {
				// Earlier: x0 *= 2 on s; the copy; later: x0 = -1 on s.
				if err := cuda.ParallelFor("double", kokkos.Range(0, n).On(s), "x(i) = 2 * x(i);", cuda.Bind("x", x0)); err != nil {
					t.Fatal(err)
				}
				if err := kokkos.DeepCopyOn(s, x1, x0); err != nil {
					t.Fatal(err)
				}
				if err := kokkos.FillOn(s, x0, -1.0); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					want[i] = 2 * data[i]
				}
			} else {
				// Earlier: x1 = 7 on s; the copy; later: x1 += 1 on s.
				if err := kokkos.FillOn(s, x1, 7.0); err != nil {
					t.Fatal(err)
				}
				if err := kokkos.DeepCopyOn(s, x1, x0); err != nil {
					t.Fatal(err)
				}
				if err := cuda.ParallelFor("inc", kokkos.Range(0, n).On(s), "x(i) += 1;", cuda.Bind("x", x1)); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					want[i] = data[i] + 1
				}
			}
			if err := s.Fence(); err != nil {
				t.Fatal(err)
			}
			checkView(t, fmt.Sprintf("contiguous copy 1<-0 on a stream of device %d", on), x1, want)
			release(t, x0)
			release(t, x1)
			orderTranspose(t, rng, s, on)
			_ = s.Release()
		}
	})
}

// orderTranspose is TestPeerCopyOrder's case of a LayoutLeft destination
// on device 1 and a LayoutRight source on device 0.
func orderTranspose(t *testing.T, rng *rand.Rand, s *cuda.Stream, on int) {
	t.Helper()
	const r, c = 300, 200
	src, err := kokkos.NewView2[float64]("src", r, c, kokkos.InSpace(cuda.SpaceOn(0)), kokkos.LayoutRight)
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, src)
	h, err := kokkos.NewView2[float64]("src host", r, c, kokkos.LayoutRight)
	if err != nil {
		t.Fatal(err)
	}
	hd := dynData[float64](h)
	for i := range hd {
		hd[i] = float64(rng.IntN(1 << 20))
	}
	if err := kokkos.DeepCopy(src, h); err != nil {
		t.Fatal(err)
	}
	dst, err := kokkos.NewView2[float64]("dst", r, c, kokkos.InSpace(cuda.SpaceOn(1)), kokkos.LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, dst)
	if on == 0 {
		if err := kokkos.DeepCopyOn(s, dst, src); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.FillOn(s, src, -1.0); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := kokkos.FillOn(s, dst, 3.0); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.DeepCopyOn(s, dst, src); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.FillOn(s, dst.Subview1(kokkos.All, 0), 5.0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	back, err := kokkos.NewView2[float64]("back", r, c, kokkos.LayoutRight)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(back, dst); err != nil {
		t.Fatal(err)
	}
	bd := dynData[float64](back)
	for i := range r {
		for j := range c {
			want := hd[i*c+j]
			if on == 1 && j == 0 {
				want = 5
			}
			if bd[i*c+j] != want {
				t.Fatalf("transposing copy 1<-0 on a stream of device %d: element (%d, %d) = %v, want %v", on, i, j, bd[i*c+j], want)
			}
		}
	}
}

// TestMultiDeviceConcurrent runs goroutines on every device at once, each
// on its own stream: allocate, launch a body, copy the result to the next
// device on the stream, and check it there. Run it under -race too.
func TestMultiDeviceConcurrent(t *testing.T) {
	devs := allDevices(t)
	cudatest.LeakCheckOn(t)
	peerPaths(t, func(t *testing.T) {
		const perDevice, rounds = 4, 5
		var wg sync.WaitGroup
		errs := make(chan error, len(devs)*perDevice)
		for _, d := range devs {
			for g := range perDevice {
				wg.Go(func() {
					if err := concurrentWorker(d, devs[(d.Ordinal()+1)%len(devs)], uint64(d.Ordinal()*perDevice+g), rounds); err != nil {
						errs <- fmt.Errorf("device %d, goroutine %d: %w", d.Ordinal(), g, err)
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

func concurrentWorker(d, next *cuda.Device, seed uint64, rounds int) error {
	rng := rand.New(rand.NewPCG(seed, 11))
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	defer s.Release()
	for r := range rounds {
		n := 1000 + rng.IntN(300000)
		a := float64(1 + rng.IntN(9))
		xs := make([]float64, n)
		ys := make([]float64, n)
		for i := range xs {
			xs[i], ys[i] = float64(rng.IntN(1<<16)), float64(rng.IntN(1<<16))
		}
		err := func() error {
			x, err := kokkos.NewView1[float64]("x", n, kokkos.InSpace(cuda.SpaceOn(d.Ordinal())))
			if err != nil {
				return err
			}
			defer x.Release()
			y, err := kokkos.NewView1[float64]("y", n, kokkos.InSpace(cuda.SpaceOn(d.Ordinal())))
			if err != nil {
				return err
			}
			defer y.Release()
			z, err := kokkos.NewView2[float64]("z", n, 1, kokkos.InSpace(cuda.SpaceOn(next.Ordinal())), kokkos.LayoutLeft)
			if err != nil {
				return err
			}
			defer z.Release()
			if err := kokkos.DeepCopyOn(s, x, hostView1(xs)); err != nil {
				return err
			}
			if err := kokkos.DeepCopyOn(s, y, hostView1(ys)); err != nil {
				return err
			}
			if err := cuda.ParallelFor("axpy", kokkos.Range(0, n).On(s), "y(i) = a * x(i) + y(i);",
				cuda.Bind("x", x), cuda.Bind("y", y), cuda.Scalar("a", a)); err != nil {
				return err
			}
			// To the next device, through a column of a matrix there.
			col := z.Subview1(kokkos.All, 0)
			if r%2 == 0 {
				err = kokkos.DeepCopyOn(s, col, y)
			} else {
				err = kokkos.DeepCopy(col, y)
			}
			if err != nil {
				return err
			}
			if err := s.Fence(); err != nil {
				return err
			}
			got, err := readBack(nil, col)
			if err != nil {
				return err
			}
			for i := range ys {
				ys[i] = a*xs[i] + ys[i]
			}
			if err := equalAll(got, ys); err != nil {
				return fmt.Errorf("round %d, %d elements copied to device %d: %w", r, n, next.Ordinal(), err)
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// hostView1 wraps xs as a host view.
func hostView1(xs []float64) kokkos.View1[float64] {
	v, err := kokkos.NewView1[float64]("host", len(xs), kokkos.WithoutInitializing)
	if err != nil {
		panic(err)
	}
	copy(dynData[float64](v), xs)
	return v
}

// kAxpy is backendtest's Axpy: y(i) = a*x(i) + y(i).
var kAxpy = &backend.Kernel{Name: "multidev.Axpy", Pattern: backend.PatternFor, Rank: 1,
	Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "a", Elem: backend.KindFloat64}},
	IR: `kernelir 1
(kernel Axpy for (index i) (view y float64 1 w) (view x float64 1 r) (scalar a float64)
  (body (assign ((at y i)) ((add float64 (mul float64 a (at x i)) (at y i))))))`}

// TestMultiDeviceMixedErrors launches work over views of device 1 on a
// stream of device 0 through every path: a CUDA C body, a Go kernel, a
// team kernel, fills (contiguous, strided, the Stream's own) and checks
// that each is refused with an error wrapping ErrBinding that names the
// view's label and both devices, and that nothing was written.
func TestMultiDeviceMixedErrors(t *testing.T) {
	devs := cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	s0, err := devs[0].NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s0.Release()
	rng := rand.New(rand.NewPCG(12, 13))
	const n = 64
	y1, want := newRand1(t, rng, "y on 1", n, cuda.SpaceOn(1))
	defer release(t, y1)
	m1, err := kokkos.NewView2[float64]("m on 1", 8, 8, kokkos.InSpace(cuda.SpaceOn(1)))
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, m1)
	expect := func(what string, err error, label string) {
		t.Helper()
		if !errors.Is(err, cuda.ErrBinding) {
			t.Errorf("%s: %v, want an error wrapping ErrBinding", what, err)
			return
		}
		for _, w := range []string{fmt.Sprintf("%q", label), "device 1", "device 0"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %s", what, err, w)
			}
		}
	}
	expect("ParallelFor", cuda.ParallelFor("body", kokkos.Range(0, n).On(s0), "y(i) = 1;", cuda.Bind("y", y1)), "y on 1")
	_, err = cuda.ParallelReduce("reduce", kokkos.Range(0, n).On(s0), cuda.Sum[float64](), "acc += y(i);", cuda.Bind("y", y1))
	expect("ParallelReduce", err, "y on 1")
	raw, err := cuda.SpaceOn(1).Allocate("raw on 1", 8*n, false)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Free()
	rawWant := make([]byte, 8*n)
	for i := range rawWant {
		rawWant[i] = byte(1 + rng.IntN(255))
	}
	if err := cuda.CopyFromHost(raw.Addr, rawWant); err != nil {
		t.Fatal(err)
	}
	bv := backend.View{Label: "raw on 1", Space: cuda.SpaceOn(1), Addr: raw.Addr, Rank: 1,
		Extents: [backend.MaxRank]int{n}, Strides: [backend.MaxRank]int{1}, Elem: backend.KindFloat64, ElemSize: 8}
	expect("Go kernel", s0.For(&backend.Launch{Label: "axpy", Kernel: kAxpy, Shape: rangeShape(n),
		Args: []backend.Arg{{View: &bv, Kind: backend.KindFloat64}, {View: &bv, Kind: backend.KindFloat64}, {Kind: backend.KindFloat64, Bits: 0x4000000000000000}}}), "raw on 1")
	tk := backendtest.TeamKernels()[1] // RowsVec: y, a, x, n, per
	expect("team kernel", s0.For(&backend.Launch{Label: "team", Kernel: tk, Shape: backend.Shape{Team: backend.TeamShape{League: 2, Size: 4, Vector: 1}},
		Args: []backend.Arg{{View: &bv, Kind: backend.KindFloat64}, {View: &bv, Kind: backend.KindFloat64}, {View: &bv, Kind: backend.KindFloat64}, {Kind: backend.KindInt, Bits: 2}, {Kind: backend.KindInt, Bits: 1}}}), "raw on 1")
	expect("FillOn contiguous", kokkos.FillOn(s0, y1, 3.0), "y on 1")
	expect("FillOn strided", kokkos.FillOn(s0, m1.Subview2(kokkos.Pair(1, 5), kokkos.Pair(2, 7)), 3.0), "m on 1")
	expect("FillOn 12-byte", func() error {
		v, err := kokkos.NewView1[[3]float32]("odd on 1", 10, kokkos.InSpace(cuda.SpaceOn(1)))
		if err != nil {
			return err
		}
		defer v.Release()
		return kokkos.FillOn(s0, v, [3]float32{1, 2, 3})
	}(), "odd on 1")
	expect("Stream.Fill", s0.Fill(raw.Addr, 8, 0x3ff0000000000000, n), "raw on 1")
	expect("Stream.Fill2D", s0.Fill2D(raw.Addr, 64, 4, 7, 8, 4), "raw on 1")
	expect("Stream.FillBytes", s0.FillBytes(raw.Addr, []byte{1, 2, 3}, 8), "raw on 1")
	if err := s0.Fence(); err != nil {
		t.Fatal(err)
	}
	checkView(t, "y on device 1 after the refused launches", y1, want)
	got := make([]byte, 8*n)
	if err := cuda.CopyToHost(got, raw.Addr); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(rawWant) {
		t.Errorf("the block on device 1 changed after the refused launches")
	}
}

func rangeShape(n int) backend.Shape {
	var sh backend.Shape
	sh.Rank = 1
	sh.Upper[0] = n
	return sh
}

// TestMultiDeviceLeaks allocates on every device and checks that the
// live blocks carry their device, that LiveOn separates them, and that
// nothing is left once they are released.
func TestMultiDeviceLeaks(t *testing.T) {
	devs := allDevices(t)
	var blocks []backend.Block
	for _, d := range devs {
		b, err := cuda.SpaceOn(d.Ordinal()).Allocate(fmt.Sprintf("leak probe %d", d.Ordinal()), 1024, false)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b)
	}
	for i, d := range devs {
		found := 0
		for _, a := range cudatest.LiveOn(d.Ordinal()) {
			if a.Device != d.Ordinal() {
				t.Errorf("LiveOn(%d) holds a block of device %d: %s", d.Ordinal(), a.Device, a)
			}
			if a.Addr == blocks[i].Addr {
				found++
				if !strings.Contains(a.String(), fmt.Sprintf("on device %d", d.Ordinal())) {
					t.Errorf("%s does not name device %d", a, d.Ordinal())
				}
			}
		}
		if found != 1 {
			t.Errorf("LiveOn(%d) finds the block of device %d %d times", d.Ordinal(), d.Ordinal(), found)
		}
	}
	for _, b := range blocks {
		if err := b.Free(); err != nil {
			t.Fatal(err)
		}
	}
	cudatest.CheckLeaksOn(t, devOrdinals(devs)...)
}

// TestPeerRawCopies runs the package's own copies between blocks of two
// devices (Copy, Copy2D, on streams of either device and synchronously)
// and between Go memory and a block of another device than the stream's
// (CopyFromHost, CopyToHost), peer and staged, against host references.
func TestPeerRawCopies(t *testing.T) {
	devs := cudatest.RequireDevices(t, 2)
	cudatest.LeakCheckOn(t, 0, 1)
	peerPaths(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(14, 15))
		streams := streamsOf(t, devs[0], devs[1])
		for _, p := range [][2]int{{0, 1}, {1, 0}} {
			for si, st := range streams {
				const n = 3<<20 + 123
				what := fmt.Sprintf("%d<-%d, stream %d", p[0], p[1], si)
				src, srcData := randBlock(t, rng, cuda.SpaceOn(p[1]), "raw src", n)
				dst, dstData := randBlock(t, rng, cuda.SpaceOn(p[0]), "raw dst", n)
				sync := func() {
					t.Helper()
					if st != nil {
						if err := st.Fence(); err != nil {
							t.Fatal(err)
						}
					}
				}
				// A contiguous copy at odd offsets.
				lo, m := 1+rng.IntN(100), n/2+rng.IntN(n/4)
				if err := copyRaw(st, dst.Addr+uintptr(lo), src.Addr+3, m); err != nil {
					t.Fatal(err)
				}
				sync()
				copy(dstData[lo:lo+m], srcData[3:3+m])
				checkBlock(t, what+": Copy", dst.Addr, dstData)
				// A 2-D copy: rows of width bytes, pitches differ.
				width, height, dp, sp := 1000+rng.IntN(24), 700, 1100, 1300
				if err := copy2DRaw(st, dst.Addr+7, dp, src.Addr+5, sp, width, height); err != nil {
					t.Fatal(err)
				}
				sync()
				for r := range height {
					copy(dstData[7+r*dp:7+r*dp+width], srcData[5+r*sp:5+r*sp+width])
				}
				checkBlock(t, what+": Copy2D", dst.Addr, dstData)
				// Go memory to and from the other device's block, on st.
				if st != nil {
					other := src
					in := make([]byte, n)
					for i := range in {
						in[i] = byte(rng.IntN(256))
					}
					if err := st.CopyFromHost(other.Addr, in); err != nil {
						t.Fatal(err)
					}
					out := make([]byte, n)
					if err := st.CopyToHost(out, other.Addr); err != nil {
						t.Fatal(err)
					}
					sync()
					if string(out) != string(in) {
						t.Errorf("%s: CopyFromHost then CopyToHost on a stream of another device: the bytes differ", what)
					}
				}
				_ = src.Free()
				_ = dst.Free()
			}
		}
	})
}

func copyRaw(st *cuda.Stream, dst, src uintptr, n int) error {
	if st == nil {
		return cuda.Copy(dst, src, n)
	}
	return st.Copy(dst, src, n)
}

func copy2DRaw(st *cuda.Stream, dst uintptr, dp int, src uintptr, sp, width, height int) error {
	if st == nil {
		return cuda.Copy2D(dst, dp, src, sp, width, height)
	}
	return st.Copy2D(dst, dp, src, sp, width, height)
}

// randBlock allocates n bytes in space filled with random bytes, and
// returns the block and its bytes.
func randBlock(t *testing.T, rng *rand.Rand, space backend.BlockSpace, label string, n int) (backend.Block, []byte) {
	t.Helper()
	b, err := space.Allocate(label, n, false)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	if err := cuda.CopyFromHost(b.Addr, data); err != nil {
		t.Fatal(err)
	}
	return b, data
}

// checkBlock compares the bytes at addr with want.
func checkBlock(t *testing.T, what string, addr uintptr, want []byte) {
	t.Helper()
	got := make([]byte, len(want))
	if err := cuda.CopyToHost(got, addr); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: byte %d = %d, want %d", what, i, got[i], want[i])
			return
		}
	}
}
