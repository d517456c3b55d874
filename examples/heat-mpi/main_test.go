package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

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
	for _, l := range ls {
		for _, np := range []int{4, 1, 3} {
			if testing.Short() && np != 4 {
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
