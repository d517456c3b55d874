package kernel

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// sample is registered by the tests below with made-up generated code.
func sample(i int, a kokkos.View1[float64], s float32) {}

// device is an execution space that is not a host space.
type device struct{}

func (device) Name() string     { return "Fake" }
func (device) Concurrency() int { return 1 }
func (device) Fence() error     { return nil }

func (device) MemorySpace() kokkos.MemorySpace { return kokkos.HostSpace }

// TestLaunchReadsNoSource checks that a launch does not compare the
// generated code with the source on disk: a binary consistent with itself
// runs its kernels whatever the source has become. The hash of sample
// matches no source (sample is in a test file, which the hash does not
// read).
func TestLaunchReadsNoSource(t *testing.T) {
	var ran atomic.Bool // the chunks may run on several workers
	Register(Spec{Func: sample, Name: "kernel.sample", Hash: "0", Funcs: []string{"sample"}, Rank: 1,
		Params: []Param{{Name: "a", View: true}, {Name: "s"}},
		Host: func(_ *Launch, args []any) (func(lo, hi int), error) {
			return func(lo, hi int) { ran.Store(true) }, nil
		}})
	t.Cleanup(func() { regMu.Lock(); delete(registry, reflect.ValueOf(sample).Pointer()); regMu.Unlock() })
	a, _ := kokkos.NewView1[float64]("a", 4)
	if err := For("x", kokkos.Range(0, 4), sample, a, 1.5); err != nil || !ran.Load() {
		t.Fatalf("launch of a kernel whose hash matches no source: %v (ran %v), want it to run", err, ran.Load())
	}
}

// TestNoSourceCode checks that package kernel, which every binary with Go
// kernels links, has no code to read Go source (that is kernelcheck's), and
// knows no device backend: it reaches them through backend.Launcher.
func TestNoSourceCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the package's dependencies: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/gokkos/kokkos/kernel").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "go/parser" || dep == "github.com/gokkos/kokkos/internal/kernelsrc" || dep == "github.com/gokkos/kokkos/cuda" {
			t.Errorf("package kernel depends on %s", dep)
		}
	}
}

// TestNotGenerated checks the error of a launch of a function that has no
// generated code.
func TestNotGenerated(t *testing.T) {
	a, _ := kokkos.NewView1[float64]("a", 4)
	err := For("x", kokkos.Range(0, 4), sample, a, 1.5)
	if !errors.Is(err, ErrNotGenerated) || !strings.Contains(err.Error(), "kernel.sample") || !strings.Contains(err.Error(), "go generate") {
		t.Fatalf("error %v, want ErrNotGenerated naming the function and saying to run go generate", err)
	}
}

// TestOldGeneratedCode checks that generated code of another shape (an
// older kokkos-kernelgen's) is reported as stale, not run.
func TestOldGeneratedCode(t *testing.T) {
	Register(Spec{Func: sample, Name: "kernel.sample", Rank: 1, Params: []Param{{Name: "a", View: true}, {Name: "s"}},
		Host: func(args []any) (func(lo, hi int), error) { return func(lo, hi int) {}, nil }})
	t.Cleanup(func() { regMu.Lock(); delete(registry, reflect.ValueOf(sample).Pointer()); regMu.Unlock() })
	a, _ := kokkos.NewView1[float64]("a", 4)
	if err := For("x", kokkos.Range(0, 4), sample, a, 1.5); !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "go generate") {
		t.Fatalf("error %v, want ErrStale saying to run go generate", err)
	}
}

// TestNoDevice checks the errors of a device launch that cannot happen: an
// instance that runs no kernels, a kernel with no device form.
func TestNoDevice(t *testing.T) {
	e := &entry{Spec: Spec{Name: "kernel.sample", NoDevice: "view a has elements of type int8"}}
	if _, err := e.launcher(device{}); !errors.Is(err, ErrArgs) || !strings.Contains(err.Error(), "runs no kernels") {
		t.Fatalf("error %v, want ErrArgs saying the instance runs no kernels", err)
	}
	if _, err := e.launcher(launcherDevice{}); !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "int8") {
		t.Fatalf("error %v, want ErrNoDevice with the reason", err)
	}
	if hostSpace(device{}) || !hostSpace(nil) || !hostSpace(kokkos.Serial{}) {
		t.Fatal("hostSpace")
	}
}

// launcherDevice is a device instance that runs no kernel.
type launcherDevice struct{ device }

func (launcherDevice) For(*backend.Launch) error { return errors.New("unreachable") }
func (launcherDevice) Reduce(*backend.Launch, backend.Reduction) (uint64, error) {
	return 0, errors.New("unreachable")
}
func (launcherDevice) Scan(*backend.Launch, backend.Reduction) (uint64, error) {
	return 0, errors.New("unreachable")
}

func TestConvertNumber(t *testing.T) {
	e := &entry{Spec: Spec{Name: "kernel.sample", Rank: 1, Params: []Param{{Name: "a", View: true}, {Name: "s"}}}}
	e.fn = reflect.TypeOf(sample)
	a, _ := kokkos.NewView1[float64]("a", 4)
	for _, c := range []struct {
		arg any
		ok  bool
	}{
		{float32(1.5), true}, {1.5, true}, {2, true}, {int64(1 << 20), true},
		{0.1, true}, // a float64 rounds to a float32
		{1e300, false}, {"x", false}, {true, false}, {nil, false},
		{int64(1<<24 + 1), false}, // not exact in a float32
	} {
		_, err := e.convert([]any{a, c.arg})
		if (err == nil) != c.ok {
			t.Errorf("%T %v: error %v, want ok %v", c.arg, c.arg, err, c.ok)
		}
	}
	if _, err := e.convert([]any{&a, 1.0}); err == nil || !strings.Contains(err.Error(), "not a pointer") {
		t.Errorf("a pointer to a view: %v", err)
	}
}
