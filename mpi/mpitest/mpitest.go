// Package mpitest finds the MPI launchers installed (Open MPI's mpirun,
// MPICH's Hydra mpiexec) and builds the command lines that run a program
// under them, for tests that start themselves or an example on several
// processes.
package mpitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// EnvImpl restricts Launchers to one implementation: "openmpi" or "mpich".
const EnvImpl = "GOKKOS_MPI_TEST_IMPL"

// A Launcher is an MPI implementation's library and its launcher.
type Launcher struct {
	Name string // "openmpi" or "mpich"
	Impl string // what mpi.Library reports: "Open MPI" or "MPICH"
	Lib  string // the soname for GOKKOS_MPI_LIB
	Path string // the launcher
}

// Launchers returns the launchers installed, Open MPI's first: the
// Debian names mpirun.openmpi and mpiexec.mpich, else an mpirun or
// mpiexec whose --version names the implementation.
func Launchers() []Launcher {
	var ls []Launcher
	want := os.Getenv(EnvImpl)
	find := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		return ""
	}
	says := func(name, what string) string {
		p := find(name)
		if p == "" {
			return ""
		}
		out, _ := exec.Command(p, "--version").CombinedOutput()
		if strings.Contains(string(out), what) {
			return p
		}
		return ""
	}
	if want == "" || want == "openmpi" {
		p := find("mpirun.openmpi")
		if p == "" {
			p = says("mpirun", "Open MPI")
		}
		if p != "" {
			ls = append(ls, Launcher{Name: "openmpi", Impl: "Open MPI", Lib: libFor("libmpi.so.40"), Path: p})
		}
	}
	if want == "" || want == "mpich" {
		p := find("mpiexec.mpich", "mpirun.mpich", "mpiexec.hydra")
		if p == "" {
			p = says("mpiexec", "HYDRA")
		}
		if p != "" {
			ls = append(ls, Launcher{Name: "mpich", Impl: "MPICH", Lib: libFor("libmpich.so.12"), Path: p})
		}
	}
	return ls
}

// libFor returns GOKKOS_MPI_LIB where it is a path to a file named
// soname (a library unpacked outside the system's directories), else
// soname.
func libFor(soname string) string {
	if p := os.Getenv("GOKKOS_MPI_LIB"); filepath.Base(p) == soname {
		return p
	}
	return soname
}

// Args returns the launcher's arguments that run np processes of prog
// with args, on one host whatever its number of cores, passing the
// environment variables env (NAME=value) to every process: Open MPI's
// mpirun gets --oversubscribe, -x for each variable and, as root,
// --allow-run-as-root; MPICH's Hydra passes the environment and runs any
// number of processes by default.
func (l Launcher) Args(np int, env []string, prog string, args ...string) []string {
	var a []string
	if l.Name == "openmpi" {
		a = []string{"-np", fmt.Sprint(np), "--oversubscribe"}
		if os.Geteuid() == 0 {
			a = append(a, "--allow-run-as-root")
		}
		for _, e := range env {
			a = append(a, "-x", e)
		}
	} else {
		a = []string{"-n", fmt.Sprint(np)}
		for _, e := range env {
			name, value, _ := strings.Cut(e, "=")
			a = append(a, "-genv", name, value)
		}
	}
	a = append(a, prog)
	return append(a, args...)
}
