package kernelcheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/kernel"
)

// TestDirectiveArguments: a kernel marked with arguments
// (//kokkos:kernel nocheck) is a kernel, and adding or removing an
// argument makes its generated code stale, since the code depends on it.
func TestDirectiveArguments(t *testing.T) {
	dir := t.TempDir()
	nocheck := strings.Replace(source, "//kokkos:kernel\nfunc Scale", "//kokkos:kernel nocheck\nfunc Scale", 1)
	write(t, dir, "k.go", nocheck)
	if err := Check(dir); !errors.Is(err, kernel.ErrNotGenerated) || !strings.Contains(err.Error(), "Scale") {
		t.Errorf("no generated file for a nocheck kernel: %v, want ErrNotGenerated naming Scale", err)
	}
	generated(t, dir, map[string][]string{"Scale": {"Scale", "twice"}})
	if err := Check(dir); err != nil {
		t.Fatalf("up to date: %v", err)
	}
	write(t, dir, "k.go", source)
	if err := Check(dir); !errors.Is(err, kernel.ErrStale) || !strings.Contains(err.Error(), "Scale") {
		t.Errorf("nocheck removed: %v, want ErrStale naming Scale", err)
	}
	generated(t, dir, map[string][]string{"Scale": {"Scale", "twice"}})
	write(t, dir, "k.go", strings.Replace(nocheck, "nocheck", "\tnocheck", 1))
	if err := Check(dir); !errors.Is(err, kernel.ErrStale) {
		t.Errorf("nocheck added: %v, want ErrStale", err)
	}
}
