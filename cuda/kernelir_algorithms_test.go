package cuda

import (
	"slices"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/algorithms"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// sortRecorder runs launches on the fake backend and keeps the kernels
// launched.
type sortRecorder struct {
	*backendtest.FakeExecutor
	mu      sync.Mutex
	kernels map[string]*backend.Kernel
}

func (r *sortRecorder) keep(l *backend.Launch) {
	r.mu.Lock()
	r.kernels[l.Kernel.Name] = l.Kernel
	r.mu.Unlock()
}

func (r *sortRecorder) For(l *backend.Launch) error { r.keep(l); return r.FakeExecutor.For(l) }

func (r *sortRecorder) Scan(l *backend.Launch, red backend.Reduction) (uint64, error) {
	r.keep(l)
	return r.FakeExecutor.Scan(l, red)
}

// TestKernelIRAlgorithmsCompile translates the kernels package algorithms
// launches to sort on a device (keys of 4 and 8 bytes, by key with
// values of 4 and 8) and compiles them with NVRTC, with and without
// bounds checks.
func TestKernelIRAlgorithmsCompile(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	rec := &sortRecorder{FakeExecutor: fake.Executor(), kernels: map[string]*backend.Kernel{}}
	up := func(label string, s any) any {
		switch s := s.(type) {
		case []float32:
			v := kokkos.Must(kokkos.NewView1[float32](label, len(s), kokkos.InSpace(fake)))
			if err := kokkos.DeepCopy(v, kokkos.Must(kokkos.WrapView1(s, len(s)))); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { v.Release() })
			return v
		case []int64:
			v := kokkos.Must(kokkos.NewView1[int64](label, len(s), kokkos.InSpace(fake)))
			if err := kokkos.DeepCopy(v, kokkos.Must(kokkos.WrapView1(s, len(s)))); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { v.Release() })
			return v
		}
		return nil
	}
	k32 := up("k32", []float32{3, -1, 2, 0.5}).(kokkos.View1[float32])
	k64 := up("k64", []int64{3, -1, 2, 5}).(kokkos.View1[int64])
	if err := algorithms.SortOn(rec, k32); err != nil {
		t.Fatal(err)
	}
	if err := algorithms.SortByKeyOn(rec, k64, up("v32", []float32{1, 2, 3, 4}).(kokkos.View1[float32])); err != nil {
		t.Fatal(err)
	}
	if err := algorithms.SortByKeyOn(rec, k32, up("v64", []int64{1, 2, 3, 4}).(kokkos.View1[int64])); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range rec.kernels {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"algorithms.flip32", "algorithms.flip64", "algorithms.gather32", "algorithms.gather64", "algorithms.positions",
		"algorithms.radixCount32", "algorithms.radixCount64", "algorithms.radixScatter32", "algorithms.radixScatter64", "algorithms.scanCounts"}
	if !slices.Equal(names, want) {
		t.Fatalf("kernels launched %v, want %v", names, want)
	}
	type translated struct {
		k             *kernelir.Kernel
		body, helpers string
		names, conv   []string
		team          bool
	}
	var all []translated
	for _, n := range names {
		bk := rec.kernels[n]
		k, err := kernelir.Parse(bk.IR)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		body, helpers, cnames, conv, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		all = append(all, translated{k, body, helpers, cnames, conv, bk.Team})
	}
	requireNVRTC(t)
	for _, tk := range all {
		t.Run(tk.k.Name, func(t *testing.T) {
			for _, check := range []bool{false, true} {
				sig := irSig(tk.k, tk.helpers, tk.names, tk.conv)
				if tk.team {
					sig = teamSig(tk.k, tk.helpers, tk.names, tk.conv)
				}
				sig.check, sig.wide = check, check
				if err := compileOnly(t, sig, tk.body); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
