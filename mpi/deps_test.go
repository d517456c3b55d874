package mpi

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoBackendImport checks that package mpi knows no device backend: it
// reaches device memory through package backend's interfaces only.
func TestNoBackendImport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the package's dependencies: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/gokkos/kokkos/mpi").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/gokkos/kokkos/cuda" {
			t.Errorf("package mpi depends on %s", dep)
		}
	}
}
