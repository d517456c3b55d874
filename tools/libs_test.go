package tools_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// buildRecorder compiles testdata/recorder.c into a shared library, or
// skips the test where no C compiler exists.
func buildRecorder(t *testing.T) string {
	t.Helper()
	return buildTool(t, "recorder.c")
}

// TestLibrary loads a C tool and checks the events it records and their
// arguments: names, device ids, its own kernel ids at the ends, space
// handles passed by value, sizes.
func TestLibrary(t *testing.T) {
	canLoad(t)
	lib := buildRecorder(t)
	log := filepath.Join(t.TempDir(), "events")
	t.Setenv("RECORDER_OUT", log)
	if err := tools.LoadLibrary(lib); err != nil {
		t.Fatal(err)
	}
	n := 100 + rand.IntN(100)
	x := kokkos.Must(kokkos.NewView1[float32]("xs", n))
	y := kokkos.Must(kokkos.NewView1[float32]("ys", n))
	kokkos.ParallelFor("fill x", kokkos.Range(0, n), func(i int) { x.Set(i, float32(i)) })
	kokkos.ParallelReduce("sum x", kokkos.Range(0, n), kokkos.Sum[float32](), func(i int, acc *float32) { *acc += x.At(i) })
	kokkos.ParallelScan("scan x", kokkos.Range(0, n).On(kokkos.Serial{}), kokkos.Sum[float32](), func(i int, acc *float32, final bool) { *acc += x.At(i) })
	if err := kokkos.DeepCopy(y, x); err != nil {
		t.Fatal(err)
	}
	tools.PushRegion("a region with a long name, longer than sixty-four bytes, to check strings")
	tools.PopRegion()
	if err := kokkos.Fence(); err != nil {
		t.Fatal(err)
	}
	if err := y.Release(); err != nil {
		t.Fatal(err)
	}
	tools.Finalize()
	runtime.KeepAlive(x)

	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	threads := 6 << 24
	want := []string{
		"init 0 20240906 0 null",
		fmt.Sprintf("allocate Host xs 1 %d", 4*n),
		fmt.Sprintf("allocate Host ys 1 %d", 4*n),
		"begin_parallel_for fill x THREADS 1000", "end_parallel_for 1000",
		"begin_parallel_reduce sum x THREADS 1001", "end_parallel_reduce 1001",
		"begin_parallel_scan scan x 0 1002", "end_parallel_scan 1002",
		fmt.Sprintf("begin_deep_copy Host ys 1 Host xs 1 %d", 4*n), "end_deep_copy",
		"push a region with a long name, longer than sixty-four bytes, to check strings", "pop",
		"begin_fence Kokkos::fence: Unnamed Global Fence 0 1003", "end_fence 1003",
		fmt.Sprintf("deallocate Host ys 1 %d", 4*n),
		"finalize",
	}
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, line := range got {
		// The Threads instance number depends on the tests run before.
		if f := strings.Fields(line); len(f) > 3 && strings.HasPrefix(f[0], "begin_parallel") && f[len(f)-2] != "0" {
			var dev uint32
			fmt.Sscan(f[len(f)-2], &dev)
			if int(dev)&^0x1ffff == threads {
				f[len(f)-2] = "THREADS"
			}
			got[i] = strings.Join(f, " ")
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the library recorded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadLibraryError(t *testing.T) {
	err := tools.LoadLibrary(filepath.Join(t.TempDir(), "missing.so"))
	if !errors.Is(err, tools.ErrLibrary) || !strings.Contains(err.Error(), "missing.so") {
		t.Fatalf("error %v, want one wrapping ErrLibrary naming the file", err)
	}
}
