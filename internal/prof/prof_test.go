package prof

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// warning is what the warning of an ignored KOKKOS_TOOLS_LIBS contains.
const warning = `KOKKOS_TOOLS_LIBS=/nowhere/libkp_kernel_timer.so is ignored: this program does not load Kokkos Tools libraries; import _ "github.com/gokkos/kokkos/tools"`

// TestIgnoredLibsWarning runs TestIgnoredLibsChild in child processes: with
// KOKKOS_TOOLS_LIBS set and no loader, the first events print one warning
// on standard error; with a loader, or without the variable, none.
func TestIgnoredLibsWarning(t *testing.T) {
	for _, c := range []struct {
		mode, libs string
		warns      bool
	}{
		{"no loader", "/nowhere/libkp_kernel_timer.so", true},
		{"loader", "/nowhere/libkp_kernel_timer.so", false},
		{"no loader", "", false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestIgnoredLibsChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "KOKKOS_TOOLS_LIBS="+c.libs, "PROF_CHILD="+c.mode)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Fatalf("%s, KOKKOS_TOOLS_LIBS=%q: child: %v\n%s%s", c.mode, c.libs, err, out, stderr.String())
		}
		n := strings.Count(stderr.String(), warning)
		if c.warns && n != 1 || !c.warns && stderr.Len() != 0 {
			t.Errorf("%s, KOKKOS_TOOLS_LIBS=%q: standard error\n%s\nwant the warning %v", c.mode, c.libs, stderr.String(), c.warns)
		}
	}
}

// TestIgnoredLibsChild reports events as the core does; the hooks must be
// on before the first event only where KOKKOS_TOOLS_LIBS is set, and off
// after it.
func TestIgnoredLibsChild(t *testing.T) {
	mode := os.Getenv("PROF_CHILD")
	if mode == "" {
		t.Skip("the child process of TestIgnoredLibsWarning, run by it")
	}
	if mode == "loader" {
		SetLoader()
	}
	if want := os.Getenv("KOKKOS_TOOLS_LIBS") != ""; On() != want {
		t.Fatalf("On() = %v before the first event, want %v", On(), want)
	}
	for range 3 {
		if On() {
			EndKernel(For, BeginKernel(For, "k", DeviceID(DevThreads, 0, 0)))
		}
		if On() {
			Allocate("Host", "x", 1, 8)
		}
	}
	if On() {
		t.Fatal("On() after the first event, with no tool registered")
	}
}
