package cuda

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	kokkos "github.com/gokkos/kokkos"
)

// slowScale is a body that takes long enough per element for a second
// stream to overtake it unless it waits: x(i) = 3*x(i) + 1, after a
// dependent loop that leaves the value unchanged.
const slowScale = `double v = x(i); for (int k = 0; k < 2000; k++) { v = v * 1.0000001; v = v / 1.0000001; } x(i) = 3 * x(i) + 1 + 0 * v;`

func randomDeviceView(t *testing.T, label string, n int, seed uint64, dev int) (kokkos.View1[float64], []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	h := kokkos.Must(kokkos.NewView1[float64](label+" host", n))
	want := make([]float64, n)
	for i := range n {
		want[i] = rng.Float64()*2 - 1
		h.Set(i, want[i])
	}
	v, err := kokkos.NewView1[float64](label, n, kokkos.InSpace(SpaceOn(dev)))
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[float64](&v, &h); err != nil {
		t.Fatal(err)
	}
	return v, want
}

// checkScaled compares v, copied to the host, with 3*x + 1.
func checkScaled(t *testing.T, v kokkos.View1[float64], x []float64) {
	t.Helper()
	h, err := kokkos.CreateMirrorViewAndCopy(v)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if want := float64(3*x[i]) + 1; h.At(i) != want {
			t.Fatalf("%s(%d) = %v, want %v: the second stream did not wait for the first", v.Label(), i, h.At(i), want)
		}
	}
}

// TestEventOrdersStreams: a slow kernel on one stream, recorded; a copy
// on another stream of the same device waits for the event and must see
// the kernel's result.
func TestEventOrdersStreams(t *testing.T) {
	dev := gpu(t)
	a, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	ev, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Release()
	const n = 1 << 20
	x, want := randomDeviceView(t, "x", n, 1, 0)
	defer x.Release()
	y := kokkos.Must(kokkos.NewView1[float64]("y", n, kokkos.InSpace(Space)))
	defer y.Release()
	for round := range 3 {
		if err := ParallelFor("slow", kokkos.Range(0, n).On(a), slowScale, Bind("x", x), FMAD(false)); err != nil {
			t.Fatal(err)
		}
		if err := a.Record(ev); err != nil {
			t.Fatal(err)
		}
		if err := b.WaitEvent(ev); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.DeepCopyOn[float64](b, &y, &x); err != nil {
			t.Fatal(err)
		}
		if err := b.Fence(); err != nil {
			t.Fatal(err)
		}
		checkScaled(t, y, want)
		for i := range want {
			want[i] = float64(3*want[i]) + 1
		}
		if err := ev.Synchronize(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if err := a.Fence(); err != nil {
		t.Fatal(err)
	}
}

// TestEventAcrossDevices: the kernel runs on device 0, a stream of device
// 1 waits for its event and copies the result into device 1's memory.
func TestEventAcrossDevices(t *testing.T) {
	gpu(t)
	if n, _ := DeviceCount(); n < 2 {
		t.Skipf("CUDA unavailable: a second device is needed, the driver reports %d", n)
	}
	d0, _ := GetDevice(0)
	d1, err := GetDevice(1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d0.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := d1.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	ev, err := d0.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Release()
	const n = 1 << 20
	x, want := randomDeviceView(t, "x0", n, 2, 0)
	defer x.Release()
	y := kokkos.Must(kokkos.NewView1[float64]("y1", n, kokkos.InSpace(SpaceOn(1))))
	defer y.Release()
	if err := ParallelFor("slow", kokkos.Range(0, n).On(a), slowScale, Bind("x", x), FMAD(false)); err != nil {
		t.Fatal(err)
	}
	if err := a.Record(ev); err != nil {
		t.Fatal(err)
	}
	if err := b.WaitEvent(ev); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopyOn[float64](b, &y, &x); err != nil {
		t.Fatal(err)
	}
	if err := b.Fence(); err != nil {
		t.Fatal(err)
	}
	checkScaled(t, y, want)
	// A stream records only its own device's events.
	if err := b.Record(ev); !errors.Is(err, ErrEventDevice) {
		t.Fatalf("Record of a device 0 event on a device 1 stream: %v, want ErrEventDevice", err)
	}
}

// TestEventRelease: calls after Release return ErrEventReleased; an
// event never recorded is complete.
func TestEventRelease(t *testing.T) {
	dev := gpu(t)
	s, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	ev, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Synchronize(); err != nil {
		t.Fatalf("Synchronize of an event never recorded: %v", err)
	}
	if err := s.WaitEvent(ev); err != nil {
		t.Fatalf("WaitEvent of an event never recorded: %v", err)
	}
	if err := ev.Release(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"Release":     ev.Release,
		"Record":      func() error { return s.Record(ev) },
		"WaitEvent":   func() error { return s.WaitEvent(ev) },
		"Synchronize": ev.Synchronize,
	} {
		if err := f(); !errors.Is(err, ErrEventReleased) {
			t.Errorf("%s after Release: %v, want ErrEventReleased", name, err)
		}
	}
	ev2, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev2.Release()
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(ev2); !errors.Is(err, ErrReleased) {
		t.Errorf("Record on a released stream: %v, want ErrReleased", err)
	}
	if err := s.WaitEvent(ev2); !errors.Is(err, ErrReleased) {
		t.Errorf("WaitEvent on a released stream: %v, want ErrReleased", err)
	}
}

// TestDroppedEventIsDestroyed: an event dropped without Release is
// destroyed by the runtime cleanup.
func TestDroppedEventIsDestroyed(t *testing.T) {
	dev := gpu(t)
	before := liveEvents.Load()
	func() {
		for range 10 {
			if _, err := dev.NewEvent(); err != nil {
				t.Fatal(err)
			}
		}
	}()
	for range 100 {
		runtime.GC()
		if liveEvents.Load() <= before {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("%d events live after dropping 10 (%d before)", liveEvents.Load(), before)
}

// TestEventBodiesCompile compiles with NVRTC the CUDA C bodies that the
// event tests and Example_multiGPU run on the GPU.
func TestEventBodiesCompile(t *testing.T) {
	requireNVRTC(t)
	x := viewSig{name: "x", elem: elemFloat64, rank: 1, unit: 0}
	for _, c := range []struct {
		name string
		sig  kernelSig
		body string
	}{
		{"slowScale", kernelSig{pattern: patFor, rank: 1, views: []viewSig{x}}, slowScale},
		{"example fill", kernelSig{pattern: patFor, rank: 1, views: []viewSig{x}, scalars: []scalarSig{{"lo", elemInt64}}},
			`double k = lo + i + 1; x(i) = 1.0 / (k * k);`},
		{"example sum", kernelSig{pattern: patReduce, rank: 1, views: []viewSig{{name: "x", elem: elemFloat64, rank: 1, unit: 0, readOnly: true}},
			value: Sum[float64]().value}, `acc += x(i);`},
	} {
		if err := compileOnly(t, &c.sig, c.body); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
