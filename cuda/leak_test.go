package cuda_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

const uvmLeakChild = "GOKKOS_CUDA_UVM_LEAK_CHILD"

// TestUnifiedRowOutlivesDroppedView takes a row of a unified-memory view,
// drops the view without Release and collects garbage until the block is
// reported leaked: the row must still read and write, since a leaked block
// is never freed. A fault would kill the process, so it runs in a child.
func TestUnifiedRowOutlivesDroppedView(t *testing.T) {
	if os.Getenv(uvmLeakChild) != "" {
		unifiedRowOutlivesDroppedView()
		return
	}
	cudatest.RequireDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestUnifiedRowOutlivesDroppedView$", "-test.count=1")
	// GOKKOS_CUDA_CHILD keeps TestMain from failing the child on the
	// block it leaks on purpose.
	cmd.Env = append(os.Environ(), uvmLeakChild+"=1", "GOKKOS_CUDA_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child process: %v (a fault means a leaked unified block was freed)\n%s", err, out)
	}
	for _, want := range []string{
		`kokkos: leak: allocation "uvm" of 2097152 bytes in CudaUVMSpace became unreachable before its final Release`,
		"child: row intact after the leak was reported",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

//go:noinline
func unifiedRow(rng *rand.Rand) (row, want []float64) {
	v := kokkos.Must(kokkos.NewView2[float64]("uvm", 512, 512, kokkos.InSpace(cuda.UVMSpace)))
	for i := range 512 {
		for j := range 512 {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	row = v.Row(3)
	return row, append([]float64(nil), row...)
}

func unifiedRowOutlivesDroppedView() {
	fail := func(format string, args ...any) {
		fmt.Printf("child: "+format+"\n", args...)
		os.Exit(3)
	}
	row, want := unifiedRow(rand.New(rand.NewPCG(21, 22)))
	deadline := time.Now().Add(30 * time.Second)
	for reported := false; !reported; {
		runtime.GC()
		for _, a := range cuda.TakeLeaked() {
			reported = reported || a.Label == "uvm"
		}
		if time.Now().After(deadline) {
			fail("the dropped unified block was not reported within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := range row {
		if row[i] != want[i] {
			fail("row[%d] = %v, want %v", i, row[i], want[i])
		}
		row[i] = 2 * want[i]
	}
	for i := range row {
		if row[i] != 2*want[i] {
			fail("row[%d] = %v after the write, want %v", i, row[i], 2*want[i])
		}
	}
	fmt.Println("child: row intact after the leak was reported")
}

// TestCheckedSpaces copies random data through views allocated in
// cudatest.Checked spaces (device and unified): host → device, device →
// unified (a strided 2-D block), and back on a stream, then checks each
// element against the host reference. The checker fails the test if a
// view is not released.
func TestCheckedSpaces(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	dev := cudatest.Checked(t, cuda.Space)
	uvm := cudatest.Checked(t, cuda.UVMSpace)
	rng := rand.New(rand.NewPCG(31, 32))
	const n0, n1 = 97, 61
	h := kokkos.Must(kokkos.NewView2[float64]("h", n0, n1))
	for i := range n0 {
		for j := range n1 {
			h.Set(i, j, rng.NormFloat64())
		}
	}
	d := kokkos.Must(kokkos.NewView2[float64]("d", n0, n1, kokkos.InSpace(dev)))
	defer d.Release()
	u := kokkos.Must(kokkos.NewView2[float64]("u", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(uvm)))
	defer u.Release()
	if d.Space() != kokkos.MemorySpace(dev) || dev.CurrentAlloc() != n0*n1*8 {
		t.Fatalf("view in the checked space: space %s, %d bytes recorded", d.Space().Name(), dev.CurrentAlloc())
	}
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	if err := kokkos.DeepCopyOn(s, d, h); err != nil {
		t.Fatal(err)
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	x := rng.NormFloat64()
	if err := kokkos.Fill(u, x); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(u.Subview2(kokkos.Pair(5, 50), kokkos.Pair(3, 40)), d.Subview2(kokkos.Pair(10, 55), kokkos.Pair(1, 38))); err != nil {
		t.Fatal(err)
	}
	if err := cuda.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			want := x
			if i >= 5 && i < 50 && j >= 3 && j < 40 {
				want = h.At(i+5, j-2)
			}
			if u.At(i, j) != want {
				t.Fatalf("u(%d, %d) = %v, want %v", i, j, u.At(i, j), want)
			}
		}
	}
}

// TestConformance runs backendtest's conformance suites on the device,
// pinned and unified spaces: the space's, with a stream for the
// asynchronous copies, and the Launcher's, the stream running kernels over
// memory of the space.
func TestConformance(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	for _, sp := range []backend.BlockSpace{cuda.Space, cuda.HostPinnedSpace, cuda.UVMSpace} {
		t.Run(sp.Name(), func(t *testing.T) { backendtest.TestSpace(t, sp, s) })
		t.Run(sp.Name()+"/Launcher", func(t *testing.T) { backendtest.TestLauncher(t, s, sp) })
	}
}
