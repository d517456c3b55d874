package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/internal/testutil"
	"github.com/gokkos/kokkos/mpi/mpitest"
)

// The blocks of split cover 0..n once, for every part count.
func TestSplitAndGrid(t *testing.T) {
	for n := 1; n < 40; n++ {
		for p := 1; p <= n; p++ {
			next := 0
			for k := range p {
				first, count := split(n, p, k)
				if first != next || count < n/p || count > n/p+1 {
					t.Fatalf("split(%d, %d, %d) = %d, %d; want first %d", n, p, k, first, count, next)
				}
				next += count
			}
			if next != n {
				t.Fatalf("split(%d, %d) covers %d points", n, p, next)
			}
		}
	}
	for p := 1; p <= 64; p++ {
		if px, py := grid(p); px*py != p || px > py {
			t.Fatalf("grid(%d) = %d×%d", p, px, py)
		}
	}
}

// The example on 4 processes (and, with the checksum compared, 1 and 3)
// under each MPI installed: the field of every run is bit-identical to
// the single-process stencil (the command checks it and exits with
// status 1 otherwise), and the checksums agree.
func TestHeatUnderMPI(t *testing.T) {
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI or MPICH in PATH; install openmpi-bin or mpich")
	}
	bin := filepath.Join(t.TempDir(), "heat-mpi")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sum := regexp.MustCompile(`checksum ([0-9a-f]{16})`)
	var first string
	long := testutil.LongPart(t, "np=1,3", "the runs on 1 and 3 processes")
	for _, l := range ls {
		for _, np := range []int{4, 1, 3} {
			if !long && np != 4 {
				continue
			}
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			env := []string{"GOKKOS_MPI_LIB=" + l.Lib}
			cmd := exec.CommandContext(ctx, l.Path, l.Args(np, env, bin, "-n", "96", "-steps", "60", "-out", dir)...)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			cancel()
			if err != nil {
				t.Fatalf("%s -np %d: %v\n%s", l.Name, np, err, out)
			}
			m := sum.FindSubmatch(out)
			if m == nil || !regexp.MustCompile(`bit-identical`).Match(out) {
				t.Fatalf("%s -np %d:\n%s", l.Name, np, out)
			}
			if first == "" {
				first = string(m[1])
			} else if string(m[1]) != first {
				t.Errorf("%s -np %d: checksum %s, first run %s", l.Name, np, m[1], first)
			}
			if _, err := os.Stat(filepath.Join(dir, "heat-mpi.png")); err != nil {
				t.Errorf("%s -np %d: %v", l.Name, np, err)
			}
		}
	}
}

// runHeat builds the command once per test and runs it under l on np
// processes with args, returning its output and the checksum it printed.
func runHeat(t *testing.T, bin string, l mpitest.Launcher, np int, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env := []string{"GOKKOS_MPI_LIB=" + l.Lib}
	cmd := exec.CommandContext(ctx, l.Path, l.Args(np, env, bin, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s -np %d %v: %v\n%s", l.Name, np, args, err, out)
	}
	m := regexp.MustCompile(`checksum ([0-9a-f]{16})`).FindSubmatch(out)
	if m == nil || !regexp.MustCompile(`bit-identical to the single-process run`).Match(out) || !regexp.MustCompile(`time per step [0-9.]+ ms`).Match(out) {
		t.Fatalf("%s -np %d %v:\n%s", l.Name, np, args, out)
	}
	return string(out), string(m[1])
}

func buildHeat(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "heat-mpi")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The Go kernels of -space pool, in strips with the halo rows sent
// directly or through separate buffers, on 1 to 5 processes (strips of one
// and two rows among them): the field is the host loops' field, bit for
// bit, and the one-strip run's.
func TestHeatPoolUnderMPI(t *testing.T) {
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI or MPICH in PATH; install openmpi-bin or mpich")
	}
	bin := buildHeat(t)
	long := testutil.LongPart(t, "np=1,2,5", "the runs on 1, 2 and 5 processes, and the 9-row grid")
	for _, size := range []struct{ n, steps int }{{61, 40}, {9, 7}} {
		if !long && size.n == 9 {
			continue
		}
		grid := []string{"-n", fmt.Sprint(size.n), "-steps", fmt.Sprint(size.steps), "-out", ""}
		_, want := runHeat(t, bin, ls[0], 1, grid...)
		for _, l := range ls {
			for _, np := range []int{1, 2, 4, 5} {
				if !long && np != 4 {
					continue
				}
				for _, halo := range []string{"device", "pinned"} {
					for _, order := range []string{"fences", "events"} {
						out, got := runHeat(t, bin, l, np, append([]string{"-space", "pool", "-halo", halo, "-order", order}, grid...)...)
						if got != want || !strings.Contains(out, "bit-identical to the one-process run on the pool") {
							t.Errorf("%s -np %d -halo %s -order %s -n %d: checksum %s, the host loops' %s\n%s", l.Name, np, halo, order, size.n, got, want, out)
						}
					}
				}
			}
		}
	}
}

// On GPUs: each rank on its cuda.SelectDevice device (more ranks than
// GPUs share them), the field bit-identical to the one-GPU run's and the
// host's.
func TestHeatCUDAUnderMPI(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI or MPICH in PATH; install openmpi-bin or mpich")
	}
	bin := buildHeat(t)
	grid := []string{"-n", "301", "-steps", "50", "-out", ""}
	_, want := runHeat(t, bin, ls[0], 1, grid...)
	for _, l := range ls {
		for _, np := range []int{1, 2, 3, 4} {
			for _, halo := range []string{"auto", "device", "pinned"} {
				for _, order := range []string{"auto", "events", "fences"} {
					if halo != "auto" && order != "auto" && (halo == "device") != (order == "events") {
						continue // the default order of the other halo mode
					}
					out, got := runHeat(t, bin, l, np, append([]string{"-space", "cuda", "-halo", halo, "-order", order}, grid...)...)
					if got != want || !strings.Contains(out, "bit-identical to the one-GPU run") || !strings.Contains(out, "rank 0 → GPU") {
						t.Errorf("%s -np %d -halo %s -order %s: checksum %s, the host's %s\n%s", l.Name, np, halo, order, got, want, out)
					}
					t.Logf("%s -np %d -halo %s -order %s:\n%s", l.Name, np, halo, order, out)
				}
			}
		}
	}
}

// The event-ordered step on the host pool's asynchronous instances, built
// with the race detector: a missing wait between the edge and inner
// instances (or between them and the exchange) is a data race on the
// field's rows, which the detector reports (as it did for each of the two
// waits taken out), and the field stays bit-identical.
func TestHeatEventsRace(t *testing.T) {
	testutil.SkipUnlessLong(t, "builds the example with -race")
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI or MPICH in PATH; install openmpi-bin or mpich")
	}
	bin := filepath.Join(t.TempDir(), "heat-mpi-race")
	build := exec.Command("go", "build", "-race", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("no race detector here (go build -race: %v)\n%s", err, out)
	}
	sizes := []struct{ np, n, steps int }{{2, 61, 20}, {5, 9, 7}, {4, 40, 12}}
	for _, sz := range sizes {
		if testing.Short() && sz.np != 4 {
			continue
		}
		for _, halo := range []string{"pinned", "device"} {
			out, _ := runHeat(t, bin, ls[0], sz.np, "-space", "pool", "-halo", halo, "-order", "events", "-n", fmt.Sprint(sz.n), "-steps", fmt.Sprint(sz.steps), "-out", "")
			if strings.Contains(out, "DATA RACE") || !strings.Contains(out, "steps ordered by events") {
				t.Errorf("%s -np %d -halo %s -n %d:\n%s", ls[0].Name, sz.np, halo, sz.n, out)
			}
		}
	}
}
