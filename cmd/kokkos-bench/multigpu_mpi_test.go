package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gokkos/kokkos/internal/testutil"
	"github.com/gokkos/kokkos/mpi"
	"github.com/gokkos/kokkos/mpi/mpitest"
)

// envHeatMPIChild marks the test binary started under mpirun by
// TestHeatMPIRows; its value is the number of processes.
const envHeatMPIChild = "GOKKOS_BENCH_HEATMPI_CHILD"

// TestHeatMPIRows runs the MPI part of the multigpu suite with the strips
// on the host pool (Space "pool", the same kernels and schedule as on the
// GPUs) at a tiny size: it starts the test binary again under each MPI
// launcher installed on 4 processes, and under the first on 3 (the 4-rank
// row left out) and on 5 (rank 4 only waits). In those processes the
// test measures the rows: rank 0 runs the in-process part alone and
// reports the rows of 1, 2 and 4 ranks in steps/s, the 1-rank rate the
// baseline of the others, with the goals 1.8 and 3.4; the other ranks
// report nothing; a failure of one rank reaches all through agree.
func TestHeatMPIRows(t *testing.T) {
	if np := os.Getenv(envHeatMPIChild); np != "" {
		heatMPIChild(t, np)
		return
	}
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI or MPICH in PATH; install openmpi-bin or mpich")
	}
	long := testutil.LongPart(t, "np3,np5", "the runs on 3 and 5 processes")
	for i, l := range ls {
		for _, np := range []int{4, 3, 5} {
			if np != 4 && (i > 0 || !long) {
				continue
			}
			t.Run(fmt.Sprintf("%s/np%d", l.Name, np), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				env := []string{envHeatMPIChild + "=" + fmt.Sprint(np), "GOKKOS_MPI_LIB=" + l.Lib}
				cmd := exec.CommandContext(ctx, l.Path, l.Args(np, env, os.Args[0], "-test.run", "^TestHeatMPIRows$", "-test.v")...)
				cmd.Env = append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil || strings.Count(string(out), "--- PASS: TestHeatMPIRows") != np {
					t.Fatalf("%s -np %d: %v\n%s", l.Name, np, err, out)
				}
				rows := regexp.MustCompile(`row "heat-mpi stencil 64² on (\d) rank\(s\)"`).FindAllStringSubmatch(string(out), -1)
				want := []string{"1", "2", "4"}[:min(np, 4)/2+1]
				if len(rows) != len(want) {
					t.Fatalf("%s -np %d: %d rows, want %d:\n%s", l.Name, np, len(rows), len(want), out)
				}
				for k, r := range rows {
					if r[1] != want[k] {
						t.Errorf("%s -np %d: row %d on %s ranks, want %s", l.Name, np, k, r[1], want[k])
					}
				}
				t.Logf("%s -np %d:\n%s", l.Name, np, out)
			})
		}
	}
}

// heatMPIChild is TestHeatMPIRows in each of np processes under mpirun.
func heatMPIChild(t *testing.T, np string) {
	if err := mpi.Init(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := mpi.Finalize(); err != nil {
			t.Error(err)
		}
	}()
	w := mpi.World()
	if fmt.Sprint(w.Size()) != np {
		t.Fatalf("a world of %d processes, want %s", w.Size(), np)
	}
	var log bytes.Buffer
	multigpuLog = &log
	defer func() { multigpuLog = os.Stderr }()
	var ms []measure
	add := func(m measure) { judge(&m, 0); ms = append(ms, m) }
	alone := 0
	inProcess := func(cfg config, add func(measure)) error {
		alone++
		add(measure{Name: "in-process", Unit: "steps/s", Value: 1})
		return nil
	}
	cfg := config{reps: 3, scale: 1.0 / 65536, space: "cuda"}
	if err := measureUnderMPI(cfg, w, "pool", inProcess, add); err != nil {
		t.Fatal(err)
	}
	// A failure on the last rank reaches every rank through agree.
	own := errors.New("the last rank's failure")
	var mine error
	if w.Rank() == w.Size()-1 {
		mine = own
	}
	if err := agree(w, mine); mine != nil && !errors.Is(err, own) || mine == nil && (err == nil || !strings.Contains(err.Error(), "another rank failed")) {
		t.Errorf("rank %d: agree: %v", w.Rank(), err)
	}
	if w.Rank() != 0 {
		if len(ms) != 0 || alone != 0 || log.Len() != 0 {
			t.Errorf("rank %d measured %d alone, reported %+v, logged %q", w.Rank(), alone, ms, log.String())
		}
		return
	}
	if alone != 1 || len(ms) == 0 || ms[0].Name != "in-process" {
		t.Fatalf("rank 0: the in-process rows ran %d times: %+v", alone, ms)
	}
	rows := ms[1:]
	for k, m := range rows {
		t.Logf("row %q: %.4g %s, baseline %.4g, ratio %.3f, goal %s %.3g: %s", m.Name, m.Value, m.Unit, m.Baseline, m.Ratio, m.GoalOp, m.Goal, m.Note)
		if m.Value <= 0 || m.Unit != "steps/s" || !strings.Contains(m.Note, "ms/step, 100 steps") || !strings.Contains(m.Note, "the host pool") {
			t.Errorf("row %+v", m)
		}
		if k == 0 {
			if m.Baseline != 0 || m.GoalOp != "" {
				t.Errorf("the 1-rank row has a baseline or a goal: %+v", m)
			}
			continue
		}
		goal := map[int]float64{1: 1.8, 2: 3.4}[k]
		if m.Baseline != rows[0].Value || m.GoalOp != ">=" || m.Goal != goal || m.Ratio != m.Value/m.Baseline {
			t.Errorf("row %+v: want the 1-rank rate %v as baseline and goal >= %v", m, rows[0].Value, goal)
		}
	}
	if w.Size() < 4 != strings.Contains(log.String(), "examples/heat-mpi on 4 ranks is left out (mpirun -np 4 kokkos-bench -space cuda -suite multigpu)") {
		t.Errorf("%d processes, log:\n%s", w.Size(), log.String())
	}
}

// Before Init, agree's Allreduce fails: the error says so, and keeps the
// rank's own. (Under mpirun, heatMPIChild checks that one rank's failure
// reaches every rank.)
func TestAgreeWithoutMPI(t *testing.T) {
	own := errors.New("own")
	err := agree(mpi.World(), own)
	if !errors.Is(err, own) || !errors.Is(err, mpi.ErrNotInitialized) {
		t.Fatalf("agree before Init: %v", err)
	}
}
