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
	// envMismatch makes the child, started by one implementation's
	// launcher with the other's library, check that Init refuses with an
	// error naming the launcher's variable, the value of envMismatch.
	envMismatch = "GOKKOS_MPI_TEST_MISMATCH"
)

var underMPI = os.Getenv(envChild) != ""

func TestMain(m *testing.M) {
	if !underMPI {
		os.Exit(m.Run())
	}
	if v := os.Getenv(envMismatch); v != "" {
		err := Init()
		if errors.Is(err, ErrLauncher) && strings.Contains(err.Error(), v) {
			fmt.Println("launcher mismatch refused:", err)
			os.Exit(0)
		}
		fmt.Printf("launcher mismatch: Init returned %v, want an error wrapping ErrLauncher naming %s (world of %d)\n", err, v, World().Size())
		os.Exit(6)
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

// TestLauncherMismatch starts the test binary under each launcher with the
// other implementation's library (GOKKOS_MPI_LIB), which runs every
// process as a job of its own: Init must refuse, naming the launcher's
// variable (OMPI_COMM_WORLD_SIZE, PMI_SIZE).
func TestLauncherMismatch(t *testing.T) {
	if underMPI {
		t.Skip("starts processes under mpirun itself")
	}
	ls := mpitest.Launchers()
	if len(ls) < 2 {
		t.Skip("MPI unavailable: needs both Open MPI (mpirun.openmpi) and MPICH (mpiexec.mpich) in PATH, to launch under one with the other's library; install openmpi-bin and mpich")
	}
	for i, l := range ls {
		other := ls[1-i]
		variable := "PMI_SIZE"
		if l.Name == "openmpi" {
			variable = "OMPI_COMM_WORLD_SIZE"
		}
		t.Run(l.Name+"-with-"+other.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			env := []string{envChild + "=1", EnvLibrary + "=" + other.Lib, envMismatch + "=" + variable}
			args := l.Args(2, env, os.Args[0], "-test.run", "^$")
			cmd := exec.CommandContext(ctx, l.Path, args...)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			if err != nil || strings.Count(string(out), "launcher mismatch refused") != 2 {
				t.Fatalf("%s %s: %v:\n%s", l.Path, strings.Join(args, " "), err, tail(out))
			}
			t.Log(strings.SplitN(string(out), "\n", 2)[0])
		})
	}
}

// TestCheckLauncher: the launcher's variables against the world's size,
// without MPI: a world smaller than the job is refused, naming the
// library, the variable and the launcher's own library; an agreeing one,
// or none, is not.
func TestCheckLauncher(t *testing.T) {
	if underMPI {
		t.Skip("runs in a process without MPI")
	}
	saved := lib
	t.Cleanup(func() { lib = saved })
	for _, v := range launcherVars {
		t.Setenv(v.name, "")
	}
	lib = &abi{impl: MPICH, path: "libmpich.so.12"}
	if err := checkLauncher(1, false); err != nil {
		t.Errorf("no launcher: %v", err)
	}
	t.Setenv(EnvLibrary, "libmpich.so.12")
	t.Setenv("OMPI_COMM_WORLD_SIZE", "4")
	if err := checkLauncher(4, false); err != nil {
		t.Errorf("a world of the launcher's size: %v", err)
	}
	err := checkLauncher(1, false)
	for _, w := range []string{"MPICH library libmpich.so.12", "GOKKOS_MPI_LIB=libmpich.so.12", "OMPI_COMM_WORLD_SIZE=4", "set it to libmpi.so.40, Open MPI's", "with MPICH's mpiexec"} {
		if !errors.Is(err, ErrLauncher) || !strings.Contains(err.Error(), w) {
			t.Errorf("Open MPI's launcher, MPICH's library: %v does not say %q", err, w)
		}
	}
	t.Setenv("OMPI_COMM_WORLD_SIZE", "")
	lib = &abi{impl: OpenMPI, path: "libmpi.so.40"}
	t.Setenv(EnvLibrary, "")
	t.Setenv("PMI_SIZE", "3")
	err = checkLauncher(1, false)
	for _, w := range []string{"Open MPI library libmpi.so.40", "LibrarySearchPath", "PMI_SIZE=3", "set it to libmpich.so.12, MPICH's", "with Open MPI's mpirun"} {
		if !errors.Is(err, ErrLauncher) || !strings.Contains(err.Error(), w) {
			t.Errorf("Hydra, Open MPI's library: %v does not say %q", err, w)
		}
	}
	// MPI_LOCALNRANKS counts one host's processes: a larger world agrees.
	t.Setenv("PMI_SIZE", "")
	t.Setenv("MPI_LOCALNRANKS", "2")
	if err := checkLauncher(8, false); err != nil {
		t.Errorf("8 processes, 2 on this host: %v", err)
	}
	if err := checkLauncher(1, false); !errors.Is(err, ErrLauncher) {
		t.Errorf("1 process, 2 on this host: %v", err)
	}
}
