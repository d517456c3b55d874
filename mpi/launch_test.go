package mpi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gokkos/kokkos/mpi/mpitest"
)

// The tests that need several processes run in TestRanks. Run by go test,
// TestRanks starts the test binary again under mpirun, for each MPI
// library installed (Open MPI, MPICH) on 2 and on 4 processes, and checks
// that every process exits with status 0. In those processes (envChild
// set) TestMain initialises MPI and TestRanks runs the subtests.

const (
	envChild = "GOKKOS_MPI_TEST_CHILD"
	// envExpect is the implementation the child must find loaded.
	envExpect = "GOKKOS_MPI_TEST_EXPECT"
	// envSerial makes the child ask for MPI_THREAD_SERIALIZED, so that
	// the package serialises its calls.
	envSerial = "GOKKOS_MPI_TEST_SERIALIZED"
)

var underMPI = os.Getenv(envChild) != ""

func TestMain(m *testing.M) {
	if !underMPI {
		os.Exit(m.Run())
	}
	if os.Getenv(envSerial) != "" {
		requested = ThreadSerialized
	}
	if err := Init(); err != nil {
		fmt.Fprintln(os.Stderr, "Init:", err)
		os.Exit(3)
	}
	code := m.Run()
	if err := Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, "Finalize:", err)
		code = 4
	}
	os.Exit(code)
}

// runUnder runs the test binary's tests matching run under l on np
// processes, and fails t unless every process passes.
func runUnder(t *testing.T, l mpitest.Launcher, np int, run string, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env = append(env, envChild+"=1", EnvLibrary+"="+l.Lib, envExpect+"="+l.Impl)
	args := l.Args(np, env, os.Args[0], "-test.run", run, "-test.v")
	cmd := exec.CommandContext(ctx, l.Path, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s -np %d timed out after 3 minutes:\n%s", l.Name, np, tail(out))
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%s %s: exit status %d:\n%s", l.Path, strings.Join(args, " "), ee.ExitCode(), tail(out))
		}
		t.Fatalf("%s: %v", l.Path, err)
	}
	if !strings.Contains(string(out), "--- PASS: TestRanks") {
		t.Fatalf("%s -np %d: no rank reported a pass:\n%s", l.Name, np, tail(out))
	}
}

func tail(out []byte) string {
	const max = 12000
	if len(out) > max {
		return "...\n" + string(out[len(out)-max:])
	}
	return string(out)
}

// TestRanks runs rankTests on every process (under mpirun), or starts
// them under mpirun on 2 and 4 processes for each library installed.
func TestRanks(t *testing.T) {
	if underMPI {
		for _, rt := range rankTests {
			t.Run(rt.name, rt.f)
		}
		return
	}
	ls := mpitest.Launchers()
	if len(ls) == 0 {
		t.Skip("MPI unavailable: no mpirun of Open MPI (mpirun.openmpi) or MPICH (mpiexec.mpich) in PATH; install openmpi-bin or mpich")
	}
	for _, l := range ls {
		for _, np := range []int{2, 4} {
			if testing.Short() && np > 2 {
				continue // the race detector's run (go test -race -short) keeps to 2
			}
			t.Run(fmt.Sprintf("%s/np%d", l.Name, np), func(t *testing.T) { runUnder(t, l, np, "^TestRanks$") })
		}
		if testing.Short() {
			continue
		}
		t.Run(l.Name+"/np2/serialized", func(t *testing.T) { runUnder(t, l, 2, "^TestRanks$", envSerial+"=1") })
	}
}

var rankTests []struct {
	name string
	f    func(*testing.T)
}

func rankTest(name string, f func(*testing.T)) bool {
	rankTests = append(rankTests, struct {
		name string
		f    func(*testing.T)
	}{name, f})
	return true
}
